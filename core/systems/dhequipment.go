package systems

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	dh "zaria/core/systems/dungeonhack"
)

// --- /dh rompe -------------------------------------------------------------

func dhBreak(ctx context.Context, req *command.Request, who string, toks []string) (*reply.Reply, error) {
	pen := 0
	if len(toks) > 0 {
		if n, ok := atoi(toks[0]); ok && len(toks) == 1 {
			if n < 0 || n > dh.MaxPen {
				return nil, command.Errorf("dh.error.pen", "max", dh.MaxPen, "got", n)
			}
			pen = n
		} else {
			att, err := parseAttacker(req, toks)
			if err != nil {
				return nil, err
			}
			if att.hasWeapon {
				pen = att.weapon.Pen
			}
			if att.level > 0 {
				pen = dh.MonsterPen(att.level, dhPenMode(req))
			}
			if att.penSet {
				pen = att.pen
			}
			pen += att.penPlus
		}
	}
	dmg := dh.BreakDamage(pen)
	rep := &reply.Reply{}
	rep.Add(reply.T("🛡️ "+req.T("dh.break", "pen", pen)+" "), reply.B(req.T("dh.damage", "n", dmg)))
	ck := newCheck("dh", "", nil)
	ck.Total = intp(dmg)
	rep.Check = ck

	e, ok, err := readEquipment(ctx, req, who)
	if err != nil {
		return nil, err
	}
	if !ok {
		rep.Add(reply.I(req.T("dh.break_note")))
		return rep, nil
	}
	if e.intact < 1 {
		return nil, command.Errorf("dh.error.no_db")
	}
	e.intact--
	e.broken++
	name := req.T("dh.your_armour")
	if e.hasArmour {
		name = dhArmourName(req, e.armour)
	}
	note, err := saveSheet(ctx, req, who, sheetIntact, strconv.Itoa(e.intact), sheetBroken, strconv.Itoa(e.broken))
	if err != nil {
		return nil, err
	}
	if note != nil {
		rep.Add(note...)
	} else if e.intact == 0 {
		rep.Add(reply.B(req.T("dh.armour_destroyed", "armour", capFirst(name))))
	} else {
		rep.Add(reply.T(req.T("dh.armour_state", "armour", capFirst(name), "intact", e.intact, "broken", e.broken)))
	}
	return rep, nil
}

// --- /dh uso ---------------------------------------------------------------

// isExhausted reads a usage die stored as used up, in any language.
func isExhausted(v string) bool {
	switch fold.Key(v) {
	case usageExhausted, "agotada", "exhausted", "εξαντλημενο", "εξαντλημενη", "0", "-", "–":
		return true
	}
	return false
}

func isMagicWord(w string) bool {
	switch fold.Key(w) {
	case "magica", "magico", "magic", "μαγικο", "μαγικη":
		return true
	}
	return false
}

func dhUsage(ctx context.Context, req *command.Request, who string, toks []string) (*reply.Reply, error) {
	magic := false
	var words []string
	for _, t := range toks {
		if isMagicWord(t) {
			magic = true
		} else {
			words = append(words, t)
		}
	}
	die := 0
	item := ""
	sheetKey := "" // the sheet value to update
	target := strings.Join(words, " ")
	switch k := fold.Key(target); {
	case k != "" && dieWord.MatchString(k):
		die, _ = parseDie(k)
	case k == "" || dh.IsSheetName(k, sheetWeapon):
		sheetKey = sheetWeaponUsage
		var err error
		item, die, err = sheetUsageDie(ctx, req, who, sheetWeaponUsage, sheetWeapon, req.T("dh.your_weapon"), func(name string) (string, int, error) {
			w, err := findWeapon(req, name)
			return dhWeaponName(req, w), w.Resist, err
		})
		if err != nil {
			return nil, err
		}
	case dh.IsSheetName(k, sheetArmour):
		sheetKey = sheetArmourUsage
		var err error
		item, die, err = sheetUsageDie(ctx, req, who, sheetArmourUsage, sheetArmour, req.T("dh.your_armour"), func(name string) (string, int, error) {
			a, err := findArmour(req, name)
			return dhArmourName(req, a), a.Resist, err
		})
		if err != nil {
			return nil, err
		}
	default:
		// A table weapon or armour: its Resistencia, nothing stored.
		if w, err := findWeapon(req, target); err == nil {
			item, die = dhWeaponName(req, w), w.Resist
		} else if a, err2 := findArmour(req, target); err2 == nil {
			item, die = dhArmourName(req, a), a.Resist
		} else {
			if isSuggestion(err) {
				return nil, err
			}
			if isSuggestion(err2) {
				return nil, err2
			}
			return nil, command.Errorf("dh.error.usage_what")
		}
	}
	if die == 0 {
		return nil, command.Errorf("dh.error.no_resist", "item", capFirst(item))
	}
	if !dh.IsUsageDie(die) {
		return nil, command.Errorf("dh.error.usage_die", "got", die)
	}
	u := dh.UsageCheck(req.Rand, die)
	rep := &reply.Reply{}
	head := fmt.Sprintf("🎲 d%d → %d", u.Die, u.Roll)
	if item != "" {
		head = capFirst(item) + " · " + head
	}
	outcome := "success"
	var verdict string
	switch {
	case u.After == u.Die:
		verdict = req.T("dh.usage.holds", "die", fmt.Sprintf("d%d", u.Die))
	case u.After > 0:
		outcome = "failure"
		verdict = req.T("dh.usage.down", "die", fmt.Sprintf("d%d", u.After))
	case magic:
		outcome = "failure"
		verdict = req.T("dh.usage.unusable")
	default:
		outcome = "failure"
		verdict = req.T("dh.usage.destroyed")
	}
	rep.Add(reply.T(head+": "), reply.B(verdict))
	if sheetKey != "" && u.After != u.Die {
		v := usageExhausted
		if u.After > 0 {
			v = fmt.Sprintf("d%d", u.After)
		}
		note, err := saveSheet(ctx, req, who, sheetKey, v)
		if err != nil {
			return nil, err
		}
		if note != nil {
			rep.Add(note...)
		} else {
			rep.Add(reply.I(req.T("dh.saved", "name", sheetName(req, sheetKey), "value", sheetValueText(req, v))))
		}
	}
	ck := newCheck("dh", outcome, []int{u.Roll}, u.Die)
	p := dh.UsageHolds(die)
	setChance(ck, p)
	rep.Check = ck
	down := new(big.Rat).Sub(big.NewRat(1, 1), p)
	return rep.Add(oddsLine(req, "dh.odds.step_down", down)...), nil
}

// sheetUsageDie reads the usage die of the weapon or armour on who's sheet:
// the usage value (usageKey) if there is one, else the Resistencia of the
// table item named by nameKey. item is the item's name (fallback when the
// sheet names none). An exhausted die, a malformed value or a sheet with
// neither value is a user error.
func sheetUsageDie(ctx context.Context, req *command.Request, who, usageKey, nameKey, fallback string, find func(string) (string, int, error)) (item string, die int, err error) {
	item = fallback
	cur, ok, err := sheetOpt(ctx, req, who, usageKey)
	if err != nil {
		return "", 0, err
	}
	name, hasItem, err := sheetOpt(ctx, req, who, nameKey)
	if err != nil {
		return "", 0, err
	}
	if hasItem {
		if item, die, err = find(name); err != nil {
			return "", 0, err
		}
	}
	if ok {
		if isExhausted(cur) {
			if usageKey == sheetWeaponUsage && die > 0 {
				// Say how to get back into the fight, as /dh ataque does.
				return "", 0, command.Errorf("dh.error.weapon_destroyed", "item", capFirst(item), "die", fmt.Sprintf("d%d", die))
			}
			return "", 0, command.Errorf("dh.error.exhausted", "item", capFirst(item))
		}
		n, okd := parseDie(cur)
		if !okd {
			return "", 0, command.Errorf("dh.error.sheet_value", "name", usageKey, "value", clip(cur))
		}
		die = n
	}
	if !ok && !hasItem {
		if who != "" {
			// An unknown character says so, with the closest name.
			if _, err := req.SheetText(ctx, who, nameKey); err != nil {
				return "", 0, err
			}
		}
		return "", 0, command.Errorf("dh.error.usage_what")
	}
	return item, die, nil
}

// --- /dh repara ------------------------------------------------------------

func dhRepair(ctx context.Context, req *command.Request, who string, toks []string) (*reply.Reply, error) {
	faces := 0
	broken := -1
	magic := false
	var words []string
	for _, t := range toks {
		k := fold.Key(t)
		if isMagicWord(t) {
			magic = true
		} else if dieWord.MatchString(k) {
			n, _ := parseDie(k)
			if err := validDBDie(n); err != nil {
				return nil, err
			}
			faces = n
		} else if n, ok := atoi(k); ok {
			if n < 1 || n > dh.MaxDB {
				return nil, command.Errorf("dh.error.broken", "max", dh.MaxDB, "got", n)
			}
			broken = n
		} else {
			words = append(words, t)
		}
	}
	var intact int
	name := req.T("dh.your_armour")
	tracked := false
	if len(words) > 0 {
		a, err := findArmour(req, strings.Join(words, " "))
		if err != nil {
			return nil, err
		}
		if broken < 0 {
			return nil, command.Errorf("dh.error.repair_usage")
		}
		if broken > a.DB {
			return nil, command.Errorf("dh.error.broken_over", "armour", capFirst(dhArmourName(req, a)), "db", a.DB, "count", broken)
		}
		name, intact = dhArmourName(req, a), a.DB-broken
		if faces == 0 {
			faces = dhDefaultDie(req)
		}
	} else {
		e, ok, err := readEquipment(ctx, req, who)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, command.Errorf("dh.error.repair_usage")
		}
		if e.hasArmour {
			name = dhArmourName(req, e.armour)
		}
		intact = e.intact
		if broken < 0 {
			broken = e.broken
		}
		if broken == 0 {
			return nil, command.Errorf("dh.error.nothing_broken", "armour", capFirst(name))
		}
		if faces == 0 {
			faces = e.faces
		}
		tracked = true
	}
	if magic {
		return dhRepairMagic(ctx, req, who, name, intact, broken, tracked)
	}
	r := dh.RepairArmour(req.Rand, intact, broken, faces)
	rep := &reply.Reply{}
	rep.Add(reply.T("🔧 " + req.T("dh.repair.head", "armour", capFirst(name), "score", r.Score, "count", broken)))
	ck := newCheck("dh", "", r.Dice, faces)
	p := dh.RepairAll(intact, broken, faces)
	setChance(ck, p)
	rep.Check = ck
	switch {
	case r.Destroyed:
		ck.Outcome = "impossible"
		rep.Add(reply.B(req.T("dh.repair.destroyed", "armour", capFirst(name))))
		return rep, nil
	case r.Hopeless:
		ck.Outcome = "impossible"
		rep.Add(reply.B(req.T("dh.repair.hopeless", "die", fmt.Sprintf("d%d", faces), "score", r.Score, "count", broken)))
		return rep, nil
	}
	rep.Add(reply.T("🎲 "+req.T("dh.repair.dice", "die", fmt.Sprintf("d%d", faces), "dice", joinInts(r.Dice), "score", r.Score)+" → "),
		reply.B(req.T("dh.repair.restored", "count", r.Restored)+", "+req.T("dh.repair.lost", "count", r.Lost)))
	ck.Outcome = "success"
	if r.Lost > 0 {
		ck.Outcome = "failure"
	}
	ck.Total = intp(r.NewMax())
	rep.Add(reply.T(req.T("dh.repair.now", "armour", capFirst(name), "db", r.NewMax())))
	if tracked {
		note, err := saveSheet(ctx, req, who, sheetIntact, strconv.Itoa(r.NewMax()), sheetBroken, "0")
		if err != nil {
			return nil, err
		}
		if note != nil {
			rep.Add(note...)
		}
	}
	return rep.Add(oddsLine(req, "dh.odds.repair_all", p)...), nil
}

// dhRepairMagic: magic armour is repaired with 1d4 days of work and 10 %
// of its original value per broken DB, with no roll per DB (docs/dungeonhack.md#repair).
func dhRepairMagic(ctx context.Context, req *command.Request, who, name string, intact, broken int, tracked bool) (*reply.Reply, error) {
	if intact < 1 {
		return nil, command.Errorf("dh.error.magic_destroyed", "armour", capFirst(name))
	}
	days := req.Rand.IntN(4) + 1
	rep := &reply.Reply{}
	rep.Add(reply.T("🔧✨ " + req.T("dh.repair.head", "armour", capFirst(name), "score", intact+broken, "count", broken)))
	rep.Add(reply.T("🎲 1d4 → "), reply.B(req.T("dh.repair.magic_days", "count", days)), reply.T(" · "+req.T("dh.repair.magic_cost", "pct", 10*broken)))
	rep.Add(reply.I(req.T("dh.repair.magic_reduced")))
	if tracked {
		note, err := saveSheet(ctx, req, who, sheetIntact, strconv.Itoa(intact+broken), sheetBroken, "0")
		if err != nil {
			return nil, err
		}
		if note != nil {
			rep.Add(note...)
		}
	}
	ck := newCheck("dh", "success", []int{days}, 4)
	ck.Total = intp(days)
	rep.Check = ck
	return rep, nil
}

// sheetName is a Dungeon Hack sheet value's name as the chat's language
// types it ("uso-arma", "χρήση-όπλου", "weapon-usage"); every form is read.
func sheetName(req *command.Request, key string) string {
	if t := req.T("dh.sheet." + key); t != "dh.sheet."+key {
		return t
	}
	return key
}

// sheetValueText shows the stored "agotado" in the chat's language.
func sheetValueText(req *command.Request, v string) string {
	if v == usageExhausted {
		return req.T("dh.sheet.exhausted")
	}
	return v
}
