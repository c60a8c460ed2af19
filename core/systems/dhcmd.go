package systems

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	dh "zaria/core/systems/dungeonhack"
	"zaria/core/systems/engine"
)

// Chat options of Dungeon Hack (docs/dungeonhack.md#house-rules).
const (
	optDHBlindaje = "dh_blindaje" // suma | mayor
	optDHPen      = "dh_pen"      // redondeo | techo
	optDHDie      = "dh_dado"     // d6 | d4: default DB die
)

// Sheet values the Dungeon Hack commands read and write: the names package
// dungeonhack gives Dungeon Hack equipment.
const (
	sheetWeapon      = dh.SheetWeapon
	sheetArmour      = dh.SheetArmour
	sheetWeaponUsage = dh.SheetWeaponUsage
	sheetArmourUsage = dh.SheetArmourUsage
	sheetIntact      = dh.SheetIntact
	sheetBroken      = dh.SheetBroken
	sheetDie         = dh.SheetDie
)

// dhRun runs a /dh sub-command on its words by rules (the book's, or the
// chat's fork's), reading and writing the sheet of who ("" = the
// sender's active character).
type dhRun func(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error)

// dhRuns are the sub-commands by the check of dh.yaml each runs: the
// first word of /dh names the check (its word or a keyword, in any
// language: engine.SubCommand).
var dhRuns = map[string]dhRun{
	"attack": dhAttack,
	"break":  dhBreak,
	"usage":  dhUsage,
	"repair": dhRepair,
	"pen":    dhPen,
	"mount":  dhMount,
	"drown":  dhAsphyxia,
}

// dhSubName is the word of dh.yaml's check key as a /dh sub-command in
// lang ("rompe", "break", "σπάσε").
func dhSubName(key, lang string) string {
	for _, c := range engine.MustBuiltin("dh").File.Checks {
		if c.Key == key {
			return c.SubName().In(lang)
		}
	}
	return key
}

// dhCall is a /dh sub-command and the words after it.
type dhCall struct {
	run    dhRun
	attack bool // /dh ataque: the one sub-command with odds to draw
	who    string
	toks   []string
	rules  dh.Rules // the book's, or the chat's fork's
}

// dhCmd is /dh's steps (sysCheck): its read finds the sub-command and
// the rules it runs by; forks (nil: none) gives a chat's fork of
// Dungeon Hack.
func dhCmd(forks Forks) sysCheck[dhCall] {
	read := func(ctx context.Context, req *command.Request, toks []string) (dhCall, string, error) {
		c, who, err := readDH(ctx, req, toks)
		c.rules = dh.Book()
		if err != nil || forks == nil {
			return c, who, err
		}
		sys, err := forks.System(ctx, req.Msg.Chat, "dh")
		c.rules = dh.Of(sys)
		return c, who, err
	}
	return sysCheck[dhCall]{
		needs: []keyword{kwVs(func(req *command.Request) string {
			for _, a := range dh.Book().Armours() {
				if a.Key == "coraza" {
					return strings.ReplaceAll(dhArmourName(req, a), " ", "-")
				}
			}
			return "coraza"
		})},
		read: read,
		roll: func(ctx context.Context, req *command.Request, c dhCall) (*reply.Reply, error) {
			return c.run(ctx, req, c.rules, c.who, c.toks)
		},
		charted: func(c dhCall) bool { return c.attack },
	}
}

// readDH finds the sub-command the first word names, in any language
// (dh.yaml's checks' words), and takes a "@Drake" after it; an unknown
// name is an error suggesting the closest one in the chat's language.
func readDH(_ context.Context, req *command.Request, toks []string) (dhCall, string, error) {
	if len(toks) == 0 {
		return dhCall{}, "", command.Errorf("dh.error.usage")
	}
	sys := engine.MustBuiltin("dh")
	if c := sys.SubCommand(toks[0]); c != nil && dhRuns[c.Key] != nil {
		who, rest := takeWho(toks[1:])
		return dhCall{run: dhRuns[c.Key], attack: c.Key == "attack", who: who, toks: rest}, who, nil
	}
	var all []string
	of := map[string]string{} // folded word → its check
	for _, sw := range sys.SubWords() {
		all = append(all, sw.Word)
		if _, ok := of[fold.Key(sw.Word)]; !ok {
			of[fold.Key(sw.Word)] = sw.Check.Key
		}
	}
	if s := fold.Closest(toks[0], all, 1); len(s) > 0 {
		return dhCall{}, "", command.Errorf("dh.error.sub_suggest", "got", clip(toks[0]), "suggestion", dhSubName(of[fold.Key(s[0])], req.Lang))
	}
	return dhCall{}, "", command.Errorf("dh.error.sub", "got", clip(toks[0]))
}

// --- names -----------------------------------------------------------------

func weaponNames(rules dh.Rules) []named {
	out := make([]named, len(rules.Weapons()))
	for i, w := range rules.Weapons() {
		out[i] = named{val: i, names: []engine.Names{w.Names}, extras: []string{w.Key, w.Name}}
	}
	return out
}

func armourNames(rules dh.Rules) []named {
	out := make([]named, len(rules.Armours()))
	for i, a := range rules.Armours() {
		out[i] = named{val: i, names: []engine.Names{a.Names}, extras: []string{a.Key, a.Name}}
	}
	return out
}

func findWeapon(req *command.Request, rules dh.Rules, words string) (dh.Weapon, error) {
	i, err := matchNamed(req, words, weaponNames(rules), "dh.error.weapon")
	if err != nil {
		return dh.Weapon{}, err
	}
	return rules.Weapons()[i], nil
}

func findArmour(req *command.Request, rules dh.Rules, words string) (dh.Armour, error) {
	i, err := matchNamed(req, words, armourNames(rules), "dh.error.armour")
	if err != nil {
		return dh.Armour{}, err
	}
	return rules.Armours()[i], nil
}

// weaponAt is the weapon of the value of dh.yaml's input weapon.
func weaponAt(rules dh.Rules, value int) (dh.Weapon, bool) {
	for i, n := range rules.File().Named("weapon") {
		if n.Value == value {
			return rules.Weapons()[i], true
		}
	}
	return dh.Weapon{}, false
}

// armourAt is the armour of the value of dh.yaml's input armour.
func armourAt(rules dh.Rules, value int) dh.Armour {
	for _, a := range rules.Armours() {
		if a.Row == value {
			return a
		}
	}
	return dh.Armour{}
}

// weaponValue is w's value of dh.yaml's input weapon.
func weaponValue(rules dh.Rules, w dh.Weapon) int {
	for _, n := range rules.File().Named("weapon") {
		if strings.ReplaceAll(n.Key, "_", "-") == w.Key {
			return n.Value
		}
	}
	return 0
}

func dhWeaponName(req *command.Request, w dh.Weapon) string { return w.Names.In(req.Lang) }
func dhArmourName(req *command.Request, a dh.Armour) string { return a.Names.In(req.Lang) }

// --- options and sheet helpers -------------------------------------------

// dhMode, dhPenMode and dhDefaultDie are the chat's house rules: its
// /ajustes choice, else the default of the file rules play by (a fork's
// may differ).
func dhMode(req *command.Request, rules dh.Rules) dh.Absorb {
	if houseRule(req, rules.File(), optDHBlindaje) == "mayor" {
		return dh.Highest
	}
	return dh.Sum
}

func dhPenMode(req *command.Request, rules dh.Rules) dh.PenMode {
	if houseRule(req, rules.File(), optDHPen) == "techo" {
		return dh.Ceil
	}
	return dh.Round
}

func dhDefaultDie(req *command.Request, rules dh.Rules) int {
	if houseRule(req, rules.File(), optDHDie) == "d4" {
		return 4
	}
	return 6
}

var dieWord = regexp.MustCompile(`^d(\d+)$`)

// parseDie reads "d6" → 6.
func parseDie(s string) (int, bool) {
	m := dieWord.FindStringSubmatch(fold.Key(s))
	if m == nil {
		return 0, false
	}
	n, ok := atoi(m[1])
	return n, ok
}

func validDBDie(n int) error {
	switch n {
	case 4, 6, 8, 10, 12:
		return nil
	}
	return command.Errorf("dh.error.db_die", "got", n)
}

// sheetOpt reads an optional sheet value: ok=false when it is not there, or
// there is no character or no sheets (a user error); a failure of the store
// is returned, for the router to log and report.
func sheetOpt(ctx context.Context, req *command.Request, who, name string) (string, bool, error) {
	v, err := req.SheetText(ctx, who, name)
	if err != nil {
		if _, ok := command.AsUserError(err); ok {
			return "", false, nil
		}
		return "", false, fmt.Errorf("read sheet value %q: %w", name, err)
	}
	if strings.TrimSpace(v) == "" {
		return "", false, nil
	}
	return strings.TrimSpace(v), true, nil
}

// equipment is the Dungeon Hack state of a character sheet.
type equipment struct {
	who             string
	armour          dh.Armour
	hasArmour       bool
	intact, broken  int
	faces           int
	facesFromSheet  bool
	armourFromSheet bool
}

// readEquipment reads the armour state of who ("" = the sender's active
// character). ok=false when there is no character to track; err when who
// was named explicitly and cannot be read, or a value is malformed.
func readEquipment(ctx context.Context, req *command.Request, rules dh.Rules, who string) (equipment, bool, error) {
	e := equipment{who: who, faces: dhDefaultDie(req, rules)}
	name, err := req.SheetText(ctx, who, sheetArmour)
	if _, isUser := command.AsUserError(err); err != nil && !isUser {
		return e, false, fmt.Errorf("read sheet value %q: %w", sheetArmour, err)
	}
	hasName := err == nil && strings.TrimSpace(name) != ""
	intactText, hasIntact, err2 := sheetOpt(ctx, req, who, sheetIntact)
	if err2 != nil {
		return e, false, err2
	}
	if !hasName && !hasIntact {
		if who != "" && err != nil {
			return e, false, err
		}
		return e, false, nil
	}
	if hasName {
		a, err := findArmour(req, rules, name)
		if err != nil {
			return e, false, err
		}
		e.armour, e.hasArmour, e.armourFromSheet = a, true, true
		e.intact = a.DB
	}
	b, ok, err := sheetOpt(ctx, req, who, sheetBroken)
	if err != nil {
		return e, false, err
	}
	if ok {
		if e.broken, err = dbCount(sheetBroken, b); err != nil {
			return e, false, err
		}
		if hasName {
			e.intact = max(0, e.armour.DB-e.broken)
		}
	}
	if hasIntact {
		if e.intact, err = dbCount(sheetIntact, intactText); err != nil {
			return e, false, err
		}
	}
	d, ok, err := sheetOpt(ctx, req, who, sheetDie)
	if err != nil {
		return e, false, err
	}
	if ok {
		n, ok := parseDie(d)
		if !ok || validDBDie(n) != nil {
			return e, false, command.Errorf("dh.error.sheet_value", "name", sheetDie, "value", clip(d))
		}
		e.faces, e.facesFromSheet = n, true
	}
	return e, true, nil
}

// dbCount reads the DB count v of the sheet value name (db, db-rotos).
func dbCount(name, v string) (int, error) {
	n, ok := atoi(v)
	if !ok || n < 0 || n > dh.MaxDB {
		return 0, command.Errorf("dh.error.sheet_value", "name", name, "value", clip(v))
	}
	return n, nil
}

// saveSheet writes values to the sheet. A refusal (not the owner) is a
// note under the roll, never a failed roll; a failure of the store is
// returned, for the router to log and report.
func saveSheet(ctx context.Context, req *command.Request, who string, kv ...string) (reply.Line, error) {
	for i := 0; i+1 < len(kv); i += 2 {
		if err := req.SetSheetText(ctx, who, kv[i], kv[i+1]); err != nil {
			ue, ok := command.AsUserError(err)
			if !ok {
				return nil, fmt.Errorf("save sheet value %q: %w", kv[i], err)
			}
			args := make([]any, 0, 2*len(ue.Args))
			for k, v := range ue.Args {
				args = append(args, k, v)
			}
			return reply.WarningLine(req.T(ue.Key, args...)), nil
		}
	}
	return nil, nil
}
