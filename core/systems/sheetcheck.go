package systems

import (
	"strings"

	"zaria/core/command"
	dh "zaria/core/systems/dungeonhack"
)

// SheetValidators returns the checks of the Dungeon Hack values a
// character sheet may hold, keyed by value name (package dungeonhack's names:
// arma, armadura, uso-arma, uso-armadura, dado-db, db, db-rotos). Each
// check returns a *command.UserError for a value the Dungeon Hack commands
// could not read, with the closest table name when there is one
// ("¿Quisiste decir «espada larga»?"). The sheet service runs them before
// it stores a value, so a bad value is refused when it is typed rather
// than at the next roll:
//
//	sheets := sheet.New(store, sheet.Options{Validators: systems.SheetValidators()})
func SheetValidators() map[string]func(req *command.Request, value string) error {
	rules := dh.Book() // the names of the sheet's values, which no fork changes
	count := func(name string) func(*command.Request, string) error {
		return func(_ *command.Request, v string) error {
			n, ok := atoi(strings.TrimSpace(v))
			if !ok || n < 0 || n > dh.MaxDB {
				return command.Errorf("dh.error.sheet_count", "name", name, "max", dh.MaxDB, "got", clip(v))
			}
			return nil
		}
	}
	usage := func(name string) func(*command.Request, string) error {
		return func(_ *command.Request, v string) error {
			if isExhausted(v) {
				return nil
			}
			if n, ok := parseDie(v); ok && rules.IsUsageDie(n) {
				return nil
			}
			return command.Errorf("dh.error.sheet_usage", "name", name, "got", clip(v))
		}
	}
	return map[string]func(*command.Request, string) error{
		sheetWeapon: func(req *command.Request, v string) error {
			_, err := findWeapon(req, rules, v)
			return onSheet(err, "dh.error.sheet_weapon", v)
		},
		sheetArmour: func(req *command.Request, v string) error {
			_, err := findArmour(req, rules, v)
			return onSheet(err, "dh.error.sheet_armour", v)
		},
		sheetWeaponUsage: usage(sheetWeaponUsage),
		sheetArmourUsage: usage(sheetArmourUsage),
		sheetIntact:      count(sheetIntact),
		sheetBroken:      count(sheetBroken),
		sheetDie: func(_ *command.Request, v string) error {
			n, ok := parseDie(v)
			if !ok {
				return command.Errorf("dh.error.sheet_die", "got", clip(v))
			}
			return validDBDie(n)
		},
	}
}

// onSheet keeps a "did you mean" error and turns any other refusal of a
// table name into key, which says what a sheet value may be (the commands'
// own message offers dice and DB counts, which a sheet's "arma" cannot hold).
func onSheet(err error, key, got string) error {
	if err == nil || isSuggestion(err) {
		return err
	}
	if _, ok := command.AsUserError(err); !ok {
		return err
	}
	return command.Errorf(key, "got", clip(got))
}
