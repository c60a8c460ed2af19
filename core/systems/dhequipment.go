package systems

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	"zaria/core/command"
	"zaria/core/reply"
	dh "zaria/core/systems/dungeonhack"
	"zaria/core/systems/engine"
)

// --- /dh rompe -------------------------------------------------------------

// dhBreak is "/dh rompe 3" or "/dh rompe n17": a DB broken to avoid a
// hit, the damage taken instead (the Penetración), and the sheet's armour
// with one DB broken (docs/dungeonhack.md#breaking-a-db); dh.yaml's check
// break lays the reply out, given the sheet's DB after the break.
func dhBreak(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	pen, err := breakPen(req, rules, toks)
	if err != nil {
		return nil, err
	}
	pr := engine.Params{Inputs: map[string]int{"pen": pen}}
	e, ok, err := readEquipment(ctx, req, rules, who)
	if err != nil {
		return nil, err
	}
	var note reply.Line
	if ok {
		if note, err = breakOne(ctx, req, who, e, pr.Inputs); err != nil {
			return nil, err
		}
	}
	res, err := rules.File().Roll("break", pr, req.Rand)
	if err != nil {
		return nil, err
	}
	rep := &reply.Reply{}
	ck := newCheck("dh", "", nil)
	if err := layoutLines(req, rules.File(), res, &engine.Parsed{Check: "break"}, pr, [2]map[string][]string{}, ck, rep); err != nil {
		return nil, err
	}
	if note != nil {
		rep.Add(note...)
	}
	ck.Total = intp(rules.BreakDamage(pen))
	rep.Check = ck
	return rep, nil
}

// breakPen is the Penetración of the attack /dh rompe names: a number, or
// a weapon, monster level or "pen" as /dh ataque reads them; 0 for none.
func breakPen(req *command.Request, rules dh.Rules, toks []string) (int, error) {
	att, err := parseAttacker(req, rules, "break", toks)
	if err != nil {
		return 0, err
	}
	pen := attackPen(req, rules, att)
	if pen > dh.MaxPen {
		return 0, command.Errorf("dh.error.pen", "max", dh.MaxPen, "got", pen)
	}
	return pen, nil
}

// breakOne breaks one intact DB of the sheet's armour e and stores it:
// in gives the reply the DB left (intact and broken) and the armour, or,
// when the sheet could not store them, the broken count alone and the
// sheet's note.
func breakOne(ctx context.Context, req *command.Request, who string, e equipment, in map[string]int) (reply.Line, error) {
	if e.intact < 1 {
		return nil, command.Errorf("dh.error.no_db")
	}
	e.intact--
	e.broken++
	note, err := saveSheet(ctx, req, who, sheetIntact, strconv.Itoa(e.intact), sheetBroken, strconv.Itoa(e.broken))
	if err != nil {
		return nil, err
	}
	in["broken"] = e.broken
	if note == nil {
		in["intact"] = e.intact
	}
	if e.hasArmour {
		in["armour"] = e.armour.Row
	}
	return note, nil
}

// --- /dh uso ---------------------------------------------------------------

// isExhausted reads a usage die stored as used up, in any language: the
// zero dh.yaml's check usage writes on the die's sheet value, or another
// of its spellings (the book's file: no fork renames a sheet's words).
func isExhausted(v string) bool {
	return dh.Book().File().ReadsZero("usage", "die", v)
}

// dhUsage is "/dh uso espada larga" or "/dh uso arma": the usage die of an
// item rolled, and the sheet's die stepped down when it fails
// (docs/dungeonhack.md#resistencia-the-usage-die).
func dhUsage(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	sd, err := rules.File().ParseInputs("usage", toks)
	if err != nil {
		return nil, seedErr(req, rules.File(), err)
	}
	magic := sd.Inputs["magic"] == 1
	item, itemIn, die, sheetKey, err := usageTarget(ctx, req, rules, who, sd)
	if err != nil {
		return nil, err
	}
	if die == 0 {
		return nil, command.Errorf("dh.error.no_resist", "item", capFirst(item))
	}
	if !rules.IsUsageDie(die) {
		return nil, command.Errorf("dh.error.usage_die", "got", die)
	}
	u := rules.UsageCheck(req.Rand, die)
	pr := engine.Params{Inputs: map[string]int{"die": die}}
	for k, v := range itemIn {
		pr.Inputs[k] = v
	}
	if magic {
		pr.Inputs["magic"] = 1
	}
	rep := &reply.Reply{}
	ck := newCheck("dh", usageOutcome(u), []int{u.Roll}, u.Die)
	if err := layoutLines(req, rules.File(), u.Res, &engine.Parsed{Check: "usage"}, pr, [2]map[string][]string{}, ck, rep); err != nil {
		return nil, err
	}
	// The sheet's lines and the note on a die typed go under the roll's.
	var under []reply.Line
	if sheetKey != "" {
		// The file's sets write the die left on the value it was read from.
		lines, err := writeSheet(ctx, req, who, u.Writes, map[string]string{"die": sheetKey}, func(key string) string { return sheetName(req, key) })
		if err != nil {
			return nil, err
		}
		under = append(under, lines...)
	}
	if sheetKey == "" && u.After != u.Die && tracksUsage(ctx, req, who) {
		// A die or table item typed: the sheet's die is not this one.
		under = append(under, reply.Line{reply.I(req.T("dh.usage_untouched", "cmd", usageCommand(req, who)))})
	}
	rep.Lines = slices.Insert(rep.Lines, min(1, len(rep.Lines)), under...)
	setChance(ck, rules.UsageHolds(die))
	rep.Check = ck
	return rep, nil
}

// tracksUsage reports whether who's sheet holds a weapon or its usage die,
// which a typed die leaves as it was.
func tracksUsage(ctx context.Context, req *command.Request, who string) bool {
	for _, key := range []string{sheetWeapon, sheetWeaponUsage} {
		if _, ok, err := sheetOpt(ctx, req, who, key); err == nil && ok {
			return true
		}
	}
	return false
}

// usageTarget is the item whose usage die is rolled and that die, as
// dh.yaml's check usage read the words (sd): a die typed ("d8"); the
// weapon or armour of the sheet ("arma", "armadura", or nothing for the
// weapon), whose usage value is sheetKey; or a table item by name, its
// Resistencia, nothing stored. in names the item to the file's layout:
// its weapon or armour, or item 1 or 2 for the sheet's weapon or armour
// unnamed; none for a die.
func usageTarget(ctx context.Context, req *command.Request, rules dh.Rules, who string, sd *engine.Side) (item string, in map[string]int, die int, sheetKey string, err error) {
	words := sd.Inputs
	_, isWeapon := words["weapon"]
	_, isArmour := words["armour"]
	_, isItem := words["item"]
	if d, ok := words["die"]; ok {
		if isWeapon || isArmour || isItem { // a die and an item: which one?
			return "", nil, 0, "", command.Errorf("dh.error.usage_what")
		}
		return "", nil, d, "", nil
	}
	switch {
	case isWeapon:
		w, _ := weaponAt(rules, words["weapon"])
		return dhWeaponName(req, w), map[string]int{"weapon": words["weapon"]}, w.Resist, "", nil
	case isArmour:
		a := armourAt(rules, words["armour"])
		return dhArmourName(req, a), map[string]int{"armour": a.Row}, a.Resist, "", nil
	case words["item"] == 2:
		in = map[string]int{"item": 2}
		item, die, err = sheetUsageDie(ctx, req, who, sheetArmourUsage, sheetArmour, req.T("dh.your_armour"), func(name string) (string, int, error) {
			a, err := findArmour(req, rules, name)
			in = map[string]int{"armour": a.Row}
			return dhArmourName(req, a), a.Resist, err
		})
		return item, in, die, sheetArmourUsage, err
	}
	// "arma", or no words: the sheet's weapon.
	in = map[string]int{"item": 1}
	item, die, err = sheetUsageDie(ctx, req, who, sheetWeaponUsage, sheetWeapon, req.T("dh.your_weapon"), func(name string) (string, int, error) {
		w, err := findWeapon(req, rules, name)
		in = map[string]int{"weapon": weaponValue(rules, w)}
		return dhWeaponName(req, w), w.Resist, err
	})
	return item, in, die, sheetWeaponUsage, err
}

// usageOutcome is the roll's outcome for --json: the die holds or not.
func usageOutcome(u dh.Usage) string {
	if u.After == u.Die {
		return "success"
	}
	return "failure"
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

// dhRepair is "/dh repara" (the sheet's armour) or "/dh repara cota de
// mallas 2": one DB die per broken DB, a die above the armour's full
// Blindaje restores it, any other loses it for good (docs/dungeonhack.md#repair).
func dhRepair(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	args, err := parseRepair(req, rules, toks)
	if err != nil {
		return nil, err
	}
	var job repairJob
	untracked := false // a table armour typed beside a sheet it does not change: the reply says so
	if args.hasArmour {
		var onSheet, hasSheet bool
		job, onSheet, hasSheet, err = repairOnSheet(ctx, req, rules, who, args)
		if err == nil && !onSheet {
			job, err = repairNamed(req, rules, args)
			untracked = hasSheet
		}
	} else {
		job, err = repairTracked(ctx, req, rules, who, args)
	}
	if err != nil {
		return nil, err
	}
	if args.magic && job.intact < 1 {
		return nil, command.Errorf("dh.error.magic_destroyed", "armour", capFirst(job.name))
	}
	pr := dh.RepairParams(job.intact, job.broken, job.faces)
	if job.armour > 0 {
		pr.Inputs["armour"] = job.armour
	}
	if args.magic {
		pr.Inputs["magic"] = 1
	}
	r := rules.RepairWith(req.Rand, pr)
	ck := repairCheck(rules, r, args.magic)
	rep := &reply.Reply{}
	if err := layoutLines(req, rules.File(), r.Res, &engine.Parsed{Check: "repair"}, pr, [2]map[string][]string{}, ck, rep); err != nil {
		return nil, err
	}
	rep.Check = ck
	if r.Destroyed || r.Hopeless {
		return rep, nil
	}
	// The sheet's lines go under the roll's, above the odds.
	var under []reply.Line
	if job.tracked {
		note, err := saveSheet(ctx, req, who, sheetIntact, strconv.Itoa(r.NewMax), sheetBroken, "0")
		if err != nil {
			return nil, err
		}
		if note != nil {
			under = append(under, note)
		}
	}
	at := len(rep.Lines)
	if !args.magic {
		if untracked {
			under = append(under, reply.Line{reply.I(req.T("dh.sheet_untouched"))})
		}
		at = max(0, at-1)
	}
	rep.Lines = slices.Insert(rep.Lines, at, under...)
	return rep, nil
}

// repairCheck is the repair's --json: the armour's Blindaje after it and
// the chance of repairing every DB, or magic armour's days of work.
func repairCheck(rules dh.Rules, r dh.Repair, magic bool) *reply.Check {
	if magic {
		ck := newCheck("dh", "success", r.Dice, 4)
		ck.Total = intp(r.Days)
		return ck
	}
	ck := newCheck("dh", "success", r.Dice, r.Faces)
	setChance(ck, rules.RepairAll(r.Score-r.Broken, r.Broken, r.Faces))
	switch {
	case r.Destroyed, r.Hopeless:
		ck.Outcome = "impossible"
		return ck
	case r.Lost > 0:
		ck.Outcome = "failure"
	}
	ck.Total = intp(r.NewMax)
	return ck
}

// repairArgs are the words of /dh repara (dh.yaml's check repair): a DB
// die ("d4"), the broken DB count, "mágica", and an armour.
type repairArgs struct {
	faces     int // 0: the sheet's or the chat's
	broken    int // −1: the sheet's
	magic     bool
	armour    dh.Armour
	hasArmour bool
}

func parseRepair(req *command.Request, rules dh.Rules, toks []string) (repairArgs, error) {
	sd, err := rules.File().ParseInputs("repair", toks)
	if err != nil {
		return repairArgs{}, seedErr(req, rules.File(), err)
	}
	args := repairArgs{broken: -1, magic: sd.Inputs["magic"] == 1}
	if _, typed := sd.Words["db_die"]; typed {
		args.faces = sd.Inputs["db_die"]
	}
	if n, ok := sd.Inputs["broken"]; ok {
		args.broken = n
	}
	if v, ok := sd.Inputs["armour"]; ok {
		args.armour, args.hasArmour = armourAt(rules, v), true
	}
	return args, nil
}

// repairJob is the armour to repair: its name, its DB intact and broken,
// the DB die, and whether the sheet tracks it (and is updated).
type repairJob struct {
	name                  string
	armour                int // its row in the armour table, 0: the sheet's armour unnamed
	intact, broken, faces int
	tracked               bool
}

// repairNamed is a table armour typed with its broken DB count, nothing
// stored.
func repairNamed(req *command.Request, rules dh.Rules, args repairArgs) (repairJob, error) {
	a := args.armour
	if args.broken < 0 {
		return repairJob{}, command.Errorf("dh.error.repair_usage")
	}
	if args.broken > a.DB {
		return repairJob{}, command.Errorf("dh.error.broken_over", "armour", capFirst(dhArmourName(req, a)), "db", a.DB, "count", args.broken)
	}
	job := repairJob{name: dhArmourName(req, a), armour: a.Row, intact: a.DB - args.broken, broken: args.broken, faces: args.faces}
	if job.faces == 0 {
		job.faces = dhDefaultDie(req, rules)
	}
	return job, nil
}

// repairOnSheet makes a typed armour's repair (/dh repara coraza 1) the
// repair of the character's own armour when the sheet tracks its DB and
// names that armour or none: the sheet's intact DB are read (a count typed
// is the broken ones, else the sheet's) and the result is written back,
// so the sheet and the reply agree. onSheet: job is that repair;
// hasSheet: the character tracks an armour (another one, when !onSheet).
func repairOnSheet(ctx context.Context, req *command.Request, rules dh.Rules, who string, args repairArgs) (job repairJob, onSheet, hasSheet bool, err error) {
	e, ok, err := readEquipment(ctx, req, rules, who)
	if _, isUser := command.AsUserError(err); err != nil && isUser && who == "" {
		return job, false, false, nil // no active character: a table armour
	}
	if err != nil || !ok {
		return job, false, false, err
	}
	a := args.armour
	if e.hasArmour && e.armour.Key != a.Key {
		return job, false, true, nil
	}
	job = repairJob{name: dhArmourName(req, a), armour: a.Row, intact: e.intact, broken: args.broken, faces: cmp.Or(args.faces, e.faces), tracked: true}
	if job.broken < 0 {
		job.broken = e.broken
	}
	if job.broken > a.DB {
		return job, false, true, command.Errorf("dh.error.broken_over", "armour", capFirst(job.name), "db", a.DB, "count", job.broken)
	}
	job.intact = min(job.intact, a.DB-job.broken) // the armour has a.DB in all
	if job.broken == 0 {
		return job, false, true, command.Errorf("dh.error.nothing_broken", "armour", capFirst(job.name))
	}
	return job, true, true, nil
}

// repairTracked is the armour of who's sheet, the typed count and die
// overriding the sheet's.
func repairTracked(ctx context.Context, req *command.Request, rules dh.Rules, who string, args repairArgs) (repairJob, error) {
	e, ok, err := readEquipment(ctx, req, rules, who)
	if err != nil {
		return repairJob{}, err
	}
	if !ok {
		return repairJob{}, command.Errorf("dh.error.repair_usage")
	}
	job := repairJob{name: req.T("dh.your_armour"), intact: e.intact, broken: args.broken, faces: args.faces, tracked: true}
	if e.hasArmour {
		job.name, job.armour = dhArmourName(req, e.armour), e.armour.Row
	}
	if job.broken < 0 {
		job.broken = e.broken
	}
	if job.broken == 0 {
		return repairJob{}, command.Errorf("dh.error.nothing_broken", "armour", capFirst(job.name))
	}
	if job.faces == 0 {
		job.faces = e.faces
	}
	return job, nil
}

// sheetName is a Dungeon Hack sheet value's name as the chat's language
// types it ("uso-arma", "χρήση-όπλου", "weapon-usage"); every form is read.
func sheetName(req *command.Request, key string) string {
	if t := req.T("dh.sheet." + key); t != "dh.sheet."+key {
		return t
	}
	return key
}
