package systems

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	dh "zaria/core/systems/dungeonhack"
	"zaria/core/systems/engine"
)

// --- /dh ataque ------------------------------------------------------------

// dhAttacker is what the attacker's words gave (dh.yaml's check attack,
// or break, read by the engine: engine.ParseSide), and the weapon they
// or the sheet name.
type dhAttacker struct {
	side      *engine.Side
	weapon    dh.Weapon
	hasWeapon bool
	fromSheet bool // the weapon is the sheet's "arma"
}

// typed reports whether the words typed the input (not a weapon's row).
func (a dhAttacker) typed(input string) bool {
	_, ok := a.side.Words[input]
	return ok
}

// parseAttacker reads the attacker's words by the inputs of dh.yaml's
// check (attack, break) that are not after "vs".
func parseAttacker(req *command.Request, rules dh.Rules, check string, toks []string) (dhAttacker, error) {
	sd, err := rules.File().ParseSide(check, false, toks)
	if err != nil {
		return dhAttacker{}, seedErr(req, rules.File(), err)
	}
	a := dhAttacker{side: sd}
	if v, ok := sd.Inputs["weapon"]; ok {
		a.weapon, a.hasWeapon = weaponAt(rules, v)
	}
	return a, nil
}

// attackPen is the Penetración the attacker's words give: the one typed
// ("pen2"), else a monster's by its level ("n17"), else the weapon's;
// then what "pen+1" and "pen-1" add, never below 0.
func attackPen(req *command.Request, rules dh.Rules, att dhAttacker) int {
	in := att.side.Inputs
	pen := in["pen"]
	if level := in["level"]; level > 0 && !att.typed("pen") {
		pen = rules.MonsterPen(level, dhPenMode(req, rules))
	}
	return max(0, pen+att.side.Adds["pen"])
}

// dhDefender is what the defender's words gave (after "vs"), and the
// armour they name.
type dhDefender struct {
	side      *engine.Side
	armour    dh.Armour
	hasArmour bool
	char      string // "@Drake": read from the sheet
	npc       string // a combatant of the turn order that is no character: nothing to read
}

func parseDefender(req *command.Request, rules dh.Rules, toks []string) (dhDefender, error) {
	sd, err := rules.File().ParseSide("attack", true, toks)
	if err != nil {
		return dhDefender{}, seedErr(req, rules.File(), err)
	}
	d := dhDefender{side: sd, char: sd.Who}
	if v, ok := sd.Inputs["armour"]; ok {
		d.armour, d.hasArmour = armourAt(rules, v), true
	}
	return d, nil
}

// dhAttackRead is /dh ataque's words read: the attack, with the chat's
// house rules and the sheets applied, and what its reply names. The roll
// (dhAttack) and its odds (OddsOf "dh") read an attack with readAttack,
// so both see the same attack.
type dhAttackRead struct {
	a         dh.Attack
	named     string // "Drake" of "/dh ataque Drake vs coraza": his sheet was read
	usageDie  int    // the weapon's usage die
	fromSheet bool   // the weapon is the sheet's "arma"
	defChar   string // the defending character, "@Drake" after vs
	defArmour string // the armour his sheet names, in the chat's language
	npc       string // the defending combatant of the turn order that is no character ("Lobo")
	npcHP     bool   // the turn order keeps npc's hit points
	vs        bool
	// The values of dh.yaml's inputs weapon, level and armour (the armour
	// typed after vs) the words or the sheet gave; 0 none.
	weapon, level, armour int
}

// readAttack reads the words of /dh ataque (after the sub-command) as the
// attack of who ("" = the sender's active character).
func readAttack(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (dhAttackRead, error) {
	var at dhAttackRead
	left, right, vs, err := splitVs(toks)
	if err != nil {
		return at, err
	}
	att, named, err := readAttacker(ctx, req, rules, who, left)
	if err != nil {
		return at, err
	}
	who = cmp.Or(named, who)
	usageDie, err := weaponUsageDie(ctx, req, who, att)
	if err != nil {
		return at, err
	}
	var def dhDefender
	var foe command.Combatant
	closest := "" // a combatant close to the first word, when none has it
	if vs && len(right) > 0 {
		// A combatant of the turn order is a target by its name, with or
		// without "@": a character's armour and hit points are on its
		// sheet, an NPC's armour is typed after its name.
		c, n, err := findCombatant(ctx, req, right)
		switch {
		case err != nil:
			return at, err
		case n > 0 && c.Character:
			right = append([]string{"@" + c.Name}, right[n:]...)
		case n > 0:
			foe, right = c, right[n:]
		default:
			closest = c.Closest
		}
	}
	if vs {
		if len(right) == 0 && foe.Name == "" {
			return at, command.Errorf("dh.error.usage")
		}
		if def, err = parseDefender(req, rules, right); err != nil {
			return at, targetTypo(err, right[0], closest)
		}
		if foe.Name != "" && def.char != "" {
			return at, command.Errorf("dh.error.usage")
		}
		def.npc = foe.Name
	}
	a, err := attackOf(req, rules, att)
	if err != nil {
		return at, err
	}
	defArmour := ""
	if vs {
		if defArmour, err = defendWith(ctx, req, rules, &a, def); err != nil {
			return at, targetTypo(err, right[0], closest)
		}
	}
	at = dhAttackRead{a: a, named: named, usageDie: usageDie, fromSheet: att.fromSheet, defChar: def.char, defArmour: defArmour,
		npc: foe.Name, npcHP: foe.HP, vs: vs, level: att.side.Inputs["level"]}
	if att.hasWeapon {
		at.weapon = weaponValue(rules, att.weapon)
	}
	if def.hasArmour {
		at.armour = def.side.Inputs["armour"]
	}
	return at, nil
}

// targetTypo is err, or, when the words after vs named nothing the attack
// knows (an armour, a character) and their first is close to the name of
// a combatant of the turn order (closest), the question whether that one
// was meant: "contra Orca" → «¿Quisiste decir Orco?».
func targetTypo(err error, typed, closest string) error {
	if _, user := command.AsUserError(err); !user || closest == "" {
		return err
	}
	return command.Errorf("init.err.unknown_suggest", "name", clip(fold.StripAt(typed)), "suggestion", closest)
}

// findCombatant finds the combatant of the turn order that the first
// words name ("Lobo", "@Lobo", "\"Orco 2\"", «Orco 2», Orco 2), the
// longest name first, and how many words it took (0: none; the
// Combatant then has the Closest name to the first word).
func findCombatant(ctx context.Context, req *command.Request, words []string) (command.Combatant, int, error) {
	for n := min(len(words), 4); n > 0; n-- {
		name := strings.Trim(strings.Join(words[:n], " "), `"«»“”'`)
		if name == "" {
			continue
		}
		c, ok, err := req.Combatant(ctx, name)
		switch {
		case err != nil:
			return c, 0, err
		case ok:
			return c, n, nil
		case n == 1:
			return c, 0, nil
		}
	}
	return command.Combatant{}, 0, nil
}

// layoutParams are what dh.yaml's attack layout reads of the attack
// (its first line, its reminders), from the roll's params pr: the
// weapon, the monster's level and the armour typed, the sheet's weapon
// (item 1) and its usage die, the DB only when the attack names a
// defender; and the names: the character whose sheet the attack read
// (attacker), the defending character (defender) and his sheet's armour
// (defender_armour), the defending combatant (foe).
func (at dhAttackRead) layoutParams(pr engine.Params) (engine.Params, map[string]string) {
	in := make(map[string]int, len(pr.Inputs)+5)
	for k, v := range pr.Inputs {
		in[k] = v
	}
	if !at.vs {
		delete(in, "db")
	}
	for k, v := range map[string]int{"weapon": at.weapon, "level": at.level, "armour": at.armour} {
		if v > 0 {
			in[k] = v
		}
	}
	if at.fromSheet {
		in["item"] = 1
		if at.usageDie > 0 {
			in["die"] = at.usageDie
		}
	}
	pr.Inputs = in
	names := map[string]string{"attacker": at.named, "defender": at.defChar, "defender_armour": at.defArmour, "foe": at.npc}
	return pr, names
}

// head is the attack's first line as dh.yaml lays it out, without its
// emoji: "Espada larga 1d8 (pen 1) vs coraza 3 DB d6" (the odds' subject).
func (at dhAttackRead) head(req *command.Request, rules dh.Rules) (string, error) {
	pr, names := at.layoutParams(at.a.Params())
	rep := &reply.Reply{}
	if err := layoutNamed(req, rules.File(), &engine.Result{Check: "attack"}, &engine.Parsed{Check: "attack"}, pr, names, &reply.Check{}, rep); err != nil {
		return "", err
	}
	if len(rep.Lines) == 0 {
		return "", nil
	}
	return strings.TrimPrefix(reply.PlainText(&reply.Reply{Lines: rep.Lines[:1]}), "🗡️ "), nil
}

// dhAttack is "/dh ataque espada larga vs cota de mallas": the damage of
// one hit after the defender's DB absorb it (docs/dungeonhack.md#damage).
func dhAttack(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	at, err := readAttack(ctx, req, rules, who, toks)
	if err != nil {
		return nil, err
	}
	a, named := at.a, at.named
	r := rules.ResolveAttack(req.Rand, a)
	ck := newCheck("dh", "", append(append([]int{}, r.Damage...), r.DB...), append(repeat(a.DmgS, len(r.Damage)), repeat(a.DBFaces, len(r.DB))...)...)
	// dh.yaml lays out the attack, "🗡️ … vs …", its dice and damage and
	// the hints that can apply.
	rep := &reply.Reply{}
	pr, names := at.layoutParams(r.Params)
	if err := layoutNamed(req, rules.File(), r.Res, &engine.Parsed{Check: "attack"}, pr, names, ck, rep); err != nil {
		return nil, err
	}
	if at.vs && at.defChar != "" && r.Final > 0 {
		rep.Buttons = append(rep.Buttons, damageButton(ctx, req, at.defChar, r.Final)...)
	}
	if at.vs && at.npcHP && r.Final > 0 {
		rep.Buttons = append(rep.Buttons, hitButton(req, reply.ActHit, at.npc, r.Final))
	}
	ck.Total = intp(r.Final)
	p := rules.AbovePen(a)
	setChance(ck, p)
	rep.Check = ck
	// "/dh ataque Drake …" read Drake's sheet: the reply names him.
	return forWho(rep.Add(oddsLine(req, "dh.odds.above_pen", p)...), named), nil
}

// damageButton is the button that takes n hit points from the chat's
// character name (reply.ActDamage, pressed through core/sheet), when that
// character's sheet has hit points ("pv"); none otherwise.
func damageButton(ctx context.Context, req *command.Request, name string, n int) []reply.Button {
	if _, err := req.SheetText(ctx, name, "pv"); err != nil {
		return nil
	}
	return []reply.Button{hitButton(req, reply.ActDamage, name, n)}
}

// hitButton is the 🩸 button of kind (reply.ActDamage on a character's
// sheet, reply.ActHit on a turn order's NPC) that takes n hit points from
// name, once.
func hitButton(req *command.Request, kind reply.ActionKind, name string, n int) reply.Button {
	var once [8]byte
	binary.LittleEndian.PutUint64(once[:], rand.Uint64())
	return reply.Button{Kind: string(kind), Label: "🩸 " + req.T("damage.button", "n", n, "name", fold.Clean(name)), Symbol: "🩸",
		Action: &reply.Action{Kind: kind, Character: name, Amount: n, Once: hex.EncodeToString(once[:])}}
}

// usageCommand is the /dh uso that rolls the usage die of the weapon on
// who's sheet ("" = the sender's) and steps it down there: "/dh uso arma",
// "!dh χρήση @Drake όπλο" (/dh uso's note on a die typed; the attack's
// reminder is dh.yaml's).
func usageCommand(req *command.Request, who string) string {
	verb, item := dhSubName("usage", req.Lang), cmp.Or(map[string]string{"en": "weapon", "el": "όπλο"}[req.Lang], "arma")
	if who != "" {
		verb += " @" + who
	}
	return req.TypedPrefix() + "dh " + verb + " " + item
}

// readAttacker parses the attacker's words; if they do not parse and the
// first is a name ("/dh ataque Drake vs coraza"), the rest are read as the
// words of that character (named), whose weapon is then his sheet's. With
// no weapon or damage typed, the weapon is the sheet's "arma".
func readAttacker(ctx context.Context, req *command.Request, rules dh.Rules, who string, left []string) (att dhAttacker, named string, err error) {
	att, err = parseAttacker(req, rules, "attack", left)
	var firstErr error // reported if reading the words as a character fails too
	if err != nil && len(left) > 0 && who == "" && looksLikeName(left[0]) {
		if a2, err2 := parseAttacker(req, rules, "attack", left[1:]); err2 == nil {
			att, named, firstErr, err = a2, left[0], err, nil
		}
	}
	if err != nil {
		return att, "", err
	}
	if att.hasWeapon || att.typed("dmg_s") {
		return att, named, nil
	}
	who = cmp.Or(named, who)
	name, err := req.SheetText(ctx, who, sheetWeapon)
	if err != nil {
		switch _, ok := command.AsUserError(err); {
		case firstErr != nil:
			return att, "", firstErr
		case ok && who == "":
			return att, "", command.Errorf("dh.error.no_weapon")
		}
		return att, "", err
	}
	w, err := findWeapon(req, rules, name)
	if err != nil {
		return att, "", err
	}
	att.weapon, att.hasWeapon, att.fromSheet = w, true, true
	rules.File().Give(att.side, "weapon", weaponValue(rules, w)) // its dice and Penetración, unless typed
	return att, named, nil
}

// weaponUsageDie is the usage die of the attacker's weapon: the sheet's
// current one for the sheet's weapon, where none left means the weapon is
// destroyed (or, if magic, unusable until repaired); else its Resistencia.
func weaponUsageDie(ctx context.Context, req *command.Request, who string, att dhAttacker) (int, error) {
	if !att.fromSheet {
		return att.weapon.Resist, nil
	}
	cur, ok, err := sheetOpt(ctx, req, who, sheetWeaponUsage)
	if err != nil {
		return 0, err
	}
	if ok && isExhausted(cur) {
		return 0, command.Errorf("dh.error.weapon_destroyed", "item", capFirst(dhWeaponName(req, att.weapon)),
			"die", fmt.Sprintf("d%d", att.weapon.Resist))
	}
	if n, okd := parseDie(cur); ok && okd {
		return n, nil
	}
	return att.weapon.Resist, nil
}

// attackOf is the attack the attacker's words describe, the chat's house
// rules applied.
func attackOf(req *command.Request, rules dh.Rules, att dhAttacker) (dh.Attack, error) {
	a := dh.Attack{Mode: dhMode(req, rules), DBFaces: dhDefaultDie(req, rules)}
	in := att.side.Inputs // typed, or the weapon's (dh.yaml's gives)
	a.DmgN, a.DmgS = in["dmg_n"], in["dmg_s"]
	if in["charge"] == 1 && a.DmgN > 0 {
		a.DmgN++
	}
	a.Pen = attackPen(req, rules, att)
	if a.Pen > dh.MaxPen {
		return a, command.Errorf("dh.error.pen", "max", dh.MaxPen, "got", a.Pen)
	}
	a.Bonus = in["bonus"]
	// A chat's fork may give a weapon dice without faces, or more dice
	// than a hit rolls once charging.
	if a.DmgN > dh.MaxDamageDice || a.DmgN > 0 && (a.DmgS < 2 || a.DmgS > dh.MaxDamageSide) {
		return a, command.Errorf("dh.error.damage", "maxn", dh.MaxDamageDice, "maxs", dh.MaxDamageSide, "got", fmt.Sprintf("%dd%d", a.DmgN, a.DmgS))
	}
	return a, nil
}

// defendWith sets the attack's DB from the defender's words, "@Drake"
// reading Drake's armour from his sheet, and returns the name of the
// armour his sheet names ("armadura de pieles"; "" none).
func defendWith(ctx context.Context, req *command.Request, rules dh.Rules, a *dh.Attack, def dhDefender) (string, error) {
	sheetArmour := ""
	if def.char != "" {
		e, ok, err := readEquipment(ctx, req, rules, def.char)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", command.Errorf("dh.error.no_armour", "name", def.char)
		}
		a.DB = e.intact
		if e.facesFromSheet {
			a.DBFaces = e.faces
		}
		if e.hasArmour {
			sheetArmour = dhArmourName(req, e.armour)
		}
	}
	in := def.side.Inputs
	if db, ok := in["db"]; ok { // typed, or the armour's (dh.yaml's gives)
		a.DB = db
	}
	a.DB += def.side.Adds["db"]
	if faces, ok := in["db_die"]; ok {
		a.DBFaces = faces
	}
	a.Static = in["static"]
	if a.DB > dh.MaxDB {
		return "", command.Errorf("dh.error.db", "max", dh.MaxDB, "got", a.DB)
	}
	return sheetArmour, nil
}
