package systems

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	dh "zaria/core/systems/dungeonhack"
)

// Chat options of Dungeon Hack (RULES.md §2.3, §2.4, §2.7).
const (
	optDHBlindaje = "dh_blindaje" // suma | mayor
	optDHPen      = "dh_pen"      // redondeo | techo
	optDHDie      = "dh_dado"     // d6 | d4: default DB die
)

// Sheet values the Dungeon Hack commands read and write (the names
// core/character documents for Dungeon Hack equipment; a value name is one
// word, and "-" folds to a space, so "db-rotos" is also "db rotos").
const (
	sheetWeapon      = "arma"         // table weapon: "espada-larga"
	sheetArmour      = "armadura"     // table armour: "coraza"
	sheetWeaponUsage = "uso-arma"     // current usage die: "d8" or "agotado"
	sheetArmourUsage = "uso-armadura" // current usage die of the armour
	sheetIntact      = "db"           // intact DB: "3"
	sheetBroken      = "db-rotos"     // broken DB: "1"
	sheetDie         = "dado-db"      // the wearer's DB die: "d6" or "d4"
	usageExhausted   = "agotado"
)

// dhSub lists each sub-command's names in es, en and el.
var dhSubs = []struct {
	name    string
	aliases []string
	run     func(context.Context, *command.Request, input, string, []string) (*reply.Reply, error)
}{
	{"ataque", []string{"atq", "attack", "επίθεση", "επιθεση"}, dhAttack},
	{"rompe", []string{"romper", "break", "σπάσε", "σπάσιμο"}, dhBreak},
	{"uso", []string{"usage", "use", "resistencia", "χρήση"}, dhUsage},
	{"repara", []string{"reparar", "repair", "επισκευή", "επισκεύασε"}, dhRepair},
	{"pen", []string{"penetracion", "penetration", "διάτρηση"}, dhPen},
	{"montura", []string{"mount", "άλογο", "ίππευση"}, dhMount},
	{"asfixia", []string{"asphyxia", "drown", "ασφυξία", "πνιγμός"}, dhAsphyxia},
}

func handleDH(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	in := tokenize(req.Args)
	if len(in.toks) == 0 {
		return nil, command.Errorf("dh.error.usage")
	}
	sub := fold.Key(in.toks[0])
	var all []string
	for _, s := range dhSubs {
		for _, n := range append([]string{s.name}, s.aliases...) {
			if fold.Key(n) == sub {
				who, rest := takeWho(in.toks[1:])
				return s.run(ctx, req, in, who, rest)
			}
			all = append(all, n)
		}
	}
	if s := fold.Closest(in.toks[0], all, 1); len(s) > 0 {
		return nil, command.Errorf("dh.error.sub_suggest", "got", clip(in.toks[0]), "suggestion", s[0])
	}
	return nil, command.Errorf("dh.error.sub", "got", clip(in.toks[0]))
}

// --- names -----------------------------------------------------------------

func weaponNames() []named {
	out := make([]named, len(dh.Weapons))
	for i, w := range dh.Weapons {
		out[i] = named{val: i, keys: []string{"dh.weapon." + w.Key}, extras: []string{w.Key, w.Name}}
	}
	return out
}

func armourNames() []named {
	out := make([]named, len(dh.Armours))
	for i, a := range dh.Armours {
		out[i] = named{val: i, keys: []string{"dh.armour." + a.Key}, extras: []string{a.Key, a.Name}}
	}
	return out
}

func findWeapon(req *command.Request, words string) (dh.Weapon, error) {
	i, err := matchNamed(req, words, weaponNames(), "dh.error.weapon")
	if err != nil {
		return dh.Weapon{}, err
	}
	return dh.Weapons[i], nil
}

func findArmour(req *command.Request, words string) (dh.Armour, error) {
	i, err := matchNamed(req, words, armourNames(), "dh.error.armour")
	if err != nil {
		return dh.Armour{}, err
	}
	return dh.Armours[i], nil
}

func dhWeaponName(req *command.Request, w dh.Weapon) string { return req.T("dh.weapon." + w.Key) }
func dhArmourName(req *command.Request, a dh.Armour) string { return req.T("dh.armour." + a.Key) }

// --- options and sheet helpers -------------------------------------------

func dhMode(req *command.Request) dh.Absorb {
	if req.Option(optDHBlindaje) == "mayor" {
		return dh.Highest
	}
	return dh.Sum
}

func dhPenMode(req *command.Request) dh.PenMode {
	if req.Option(optDHPen) == "techo" {
		return dh.Ceil
	}
	return dh.Round
}

func dhDefaultDie(req *command.Request) int {
	if req.Option(optDHDie) == "d4" {
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

// sheetOpt reads an optional sheet value: ok=false when it is not there
// (or there are no sheets), any other problem is returned.
func sheetOpt(ctx context.Context, req *command.Request, who, name string) (string, bool) {
	v, err := req.SheetText(ctx, who, name)
	if err != nil || strings.TrimSpace(v) == "" {
		return "", false
	}
	return strings.TrimSpace(v), true
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
func readEquipment(ctx context.Context, req *command.Request, who string) (equipment, bool, error) {
	e := equipment{who: who, faces: dhDefaultDie(req)}
	name, err := req.SheetText(ctx, who, sheetArmour)
	hasName := err == nil && strings.TrimSpace(name) != ""
	intactText, hasIntact := sheetOpt(ctx, req, who, sheetIntact)
	if !hasName && !hasIntact {
		if who != "" && err != nil {
			return e, false, err
		}
		return e, false, nil
	}
	if hasName {
		a, err := findArmour(req, name)
		if err != nil {
			return e, false, err
		}
		e.armour, e.hasArmour, e.armourFromSheet = a, true, true
		e.intact = a.DB
	}
	if b, ok := sheetOpt(ctx, req, who, sheetBroken); ok {
		n, ok := atoi(b)
		if !ok || n < 0 || n > dh.MaxDB {
			return e, false, command.Errorf("dh.error.sheet_value", "name", sheetBroken, "value", clip(b))
		}
		e.broken = n
		if hasName {
			e.intact = max(0, e.armour.DB-n)
		}
	}
	if hasIntact {
		n, ok := atoi(intactText)
		if !ok || n < 0 || n > dh.MaxDB {
			return e, false, command.Errorf("dh.error.sheet_value", "name", sheetIntact, "value", clip(intactText))
		}
		e.intact = n
	}
	if d, ok := sheetOpt(ctx, req, who, sheetDie); ok {
		n, ok := parseDie(d)
		if !ok || validDBDie(n) != nil {
			return e, false, command.Errorf("dh.error.sheet_value", "name", sheetDie, "value", clip(d))
		}
		e.faces, e.facesFromSheet = n, true
	}
	return e, true, nil
}

// save writes values to the sheet; a refusal (not the owner) is shown as a
// note, never as a failed roll.
func saveSheet(ctx context.Context, req *command.Request, who string, kv ...string) reply.Line {
	for i := 0; i+1 < len(kv); i += 2 {
		if err := req.SetSheetText(ctx, who, kv[i], kv[i+1]); err != nil {
			if ue, ok := command.AsUserError(err); ok {
				args := make([]any, 0, 2*len(ue.Args))
				for k, v := range ue.Args {
					args = append(args, k, v)
				}
				return reply.Line{reply.I("⚠️ " + req.T(ue.Key, args...))}
			}
			return reply.Line{reply.I("⚠️ " + req.T("dh.sheet_not_saved"))}
		}
	}
	return nil
}

// --- /dh ataque ------------------------------------------------------------

var (
	dmgWord    = regexp.MustCompile(`^(\d*)d(\d+)$`)
	penWord    = regexp.MustCompile(`^pen(\+?)(\d+)$`)
	levelWord  = regexp.MustCompile(`^(?:n|nivel|level|lvl|επ)(\d+)$`)
	bonusWord  = regexp.MustCompile(`^[+-]\d+$`)
	dbWord     = regexp.MustCompile(`^(\d+)db$`)
	dbPlusWord = regexp.MustCompile(`^db\+(\d+)$`)
	absWord    = regexp.MustCompile(`^abs(?:orcion)?d(\d+)$`)
)

func isChargeWord(w string) bool {
	switch fold.Key(w) {
	case "carga", "charge", "εφοδος":
		return true
	}
	return false
}

type dhAttacker struct {
	weapon    dh.Weapon
	hasWeapon bool
	dmgN      int
	dmgS      int
	pen       int
	penSet    bool
	penPlus   int
	level     int
	bonus     int
	charge    bool
}

func parseAttacker(req *command.Request, toks []string) (dhAttacker, error) {
	var a dhAttacker
	var words []string
	for _, t := range toks {
		k := fold.Key(t)
		switch {
		case dmgWord.MatchString(k):
			m := dmgWord.FindStringSubmatch(k)
			n := 1
			if m[1] != "" {
				n, _ = atoi(m[1])
			}
			s, _ := atoi(m[2])
			if n < 1 || n > dh.MaxDamageDice || s < 2 || s > dh.MaxDamageSide {
				return a, command.Errorf("dh.error.damage", "maxn", dh.MaxDamageDice, "maxs", dh.MaxDamageSide, "got", clip(t))
			}
			a.dmgN, a.dmgS = n, s
		case penWord.MatchString(k):
			m := penWord.FindStringSubmatch(k)
			n, _ := atoi(m[2])
			if n > dh.MaxPen {
				return a, command.Errorf("dh.error.pen", "max", dh.MaxPen, "got", n)
			}
			if m[1] == "+" {
				a.penPlus += n
			} else {
				a.pen, a.penSet = n, true
			}
		case levelWord.MatchString(k):
			n, _ := atoi(levelWord.FindStringSubmatch(k)[1])
			if n < dh.MinLevel || n > dh.MaxLevel {
				return a, command.Errorf("dh.error.level", "min", dh.MinLevel, "max", dh.MaxLevel, "got", n)
			}
			a.level = n
		case bonusWord.MatchString(k):
			n, _ := atoi(k)
			if n > dh.MaxBonus || n < -dh.MaxBonus {
				return a, command.Errorf("dh.error.bonus", "max", dh.MaxBonus, "got", n)
			}
			a.bonus += n
		case isChargeWord(k):
			a.charge = true
		default:
			words = append(words, t)
		}
	}
	if len(words) > 0 {
		w, err := findWeapon(req, strings.Join(words, " "))
		if err != nil {
			return a, err
		}
		a.weapon, a.hasWeapon = w, true
	}
	return a, nil
}

type dhDefender struct {
	armour    dh.Armour
	hasArmour bool
	db        int
	dbSet     bool
	dbPlus    int
	faces     int
	static    int
	char      string // "@Drake": read from the sheet
}

func parseDefender(req *command.Request, toks []string) (dhDefender, error) {
	var d dhDefender
	var words []string
	for _, t := range toks {
		k := fold.Key(t)
		switch {
		case strings.HasPrefix(t, "@") && len(t) > 1:
			d.char = t[1:]
		case dbWord.MatchString(k):
			n, _ := atoi(dbWord.FindStringSubmatch(k)[1])
			if n > dh.MaxDB {
				return d, command.Errorf("dh.error.db", "max", dh.MaxDB, "got", n)
			}
			d.db, d.dbSet = n, true
		case dbPlusWord.MatchString(k):
			n, _ := atoi(dbPlusWord.FindStringSubmatch(k)[1])
			d.dbPlus += n
		case absWord.MatchString(k):
			// An old Absorción die (spells, magic items) as DB.
			n, _ := atoi(absWord.FindStringSubmatch(k)[1])
			db, ok := dh.AbsorptionDB[n]
			if !ok {
				return d, command.Errorf("dh.error.absorption", "got", n)
			}
			d.dbPlus += db
		case dieWord.MatchString(k):
			n, _ := parseDie(k)
			if err := validDBDie(n); err != nil {
				return d, err
			}
			d.faces = n
		case bonusWord.MatchString(k):
			n, _ := atoi(k)
			if n < 0 || n > dh.MaxStatic {
				return d, command.Errorf("dh.error.static", "max", dh.MaxStatic, "got", n)
			}
			d.static += n
		default:
			words = append(words, t)
		}
	}
	if len(words) > 0 {
		a, err := findArmour(req, strings.Join(words, " "))
		if err != nil {
			return d, err
		}
		d.armour, d.hasArmour = a, true
	}
	return d, nil
}

func dhAttack(ctx context.Context, req *command.Request, in input, who string, toks []string) (*reply.Reply, error) {
	left, right, vs, err := splitVs(toks)
	if err != nil {
		return nil, err
	}
	att, err := parseAttacker(req, left)
	var firstErr error // reported if reading the words as a character fails too
	if err != nil {
		if len(left) > 0 && who == "" && looksLikeName(left[0]) {
			// "/dh ataque Drake vs coraza": the weapon of Drake's sheet.
			if a2, err2 := parseAttacker(req, left[1:]); err2 == nil {
				att, who, firstErr, err = a2, left[0], err, nil
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if !att.hasWeapon && att.dmgN == 0 {
		name, err := req.SheetText(ctx, who, sheetWeapon)
		if err != nil {
			switch _, ok := command.AsUserError(err); {
			case firstErr != nil:
				return nil, firstErr
			case ok && who == "":
				return nil, command.Errorf("dh.error.no_weapon")
			}
			return nil, err
		}
		w, err := findWeapon(req, name)
		if err != nil {
			return nil, err
		}
		att.weapon, att.hasWeapon = w, true
	}
	var def dhDefender
	if vs {
		if len(right) == 0 {
			return nil, command.Errorf("dh.error.usage")
		}
		if def, err = parseDefender(req, right); err != nil {
			return nil, err
		}
	}

	a := dh.Attack{Mode: dhMode(req), DBFaces: dhDefaultDie(req)}
	title := ""
	if att.hasWeapon {
		a.DmgN, a.DmgS, a.Pen = att.weapon.DmgN, att.weapon.DmgS, att.weapon.Pen
		title = dhWeaponName(req, att.weapon)
	}
	if att.dmgN > 0 {
		a.DmgN, a.DmgS = att.dmgN, att.dmgS
	}
	if att.charge && a.DmgN > 0 {
		a.DmgN++
	}
	if att.level > 0 {
		a.Pen = dh.MonsterPen(att.level, dhPenMode(req))
		title = strings.TrimSpace(title + " " + req.T("dh.monster", "level", att.level))
	}
	if att.penSet {
		a.Pen = att.pen
	}
	a.Pen += att.penPlus
	a.Bonus = att.bonus
	if a.DmgN > dh.MaxDamageDice {
		return nil, command.Errorf("dh.error.damage", "maxn", dh.MaxDamageDice, "maxs", dh.MaxDamageSide, "got", fmt.Sprintf("%dd%d", a.DmgN, a.DmgS))
	}
	dmg := ""
	if a.DmgN > 0 {
		dmg = fmt.Sprintf("%dd%d", a.DmgN, a.DmgS)
	}
	if a.Bonus != 0 {
		dmg += signedInt(a.Bonus)
	}
	title = strings.Join(strings.Fields(title+" "+dmg), " ") + " (" + req.T("dh.pen_short", "pen", a.Pen) + ")"

	defTitle := ""
	if vs {
		if def.char != "" {
			e, ok, err := readEquipment(ctx, req, def.char)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, command.Errorf("dh.error.no_armour", "name", def.char)
			}
			a.DB = e.intact
			if e.facesFromSheet {
				a.DBFaces = e.faces
			}
			defTitle = def.char
			if e.hasArmour {
				defTitle += " (" + dhArmourName(req, e.armour) + ")"
			}
		}
		if def.hasArmour {
			a.DB = def.armour.DB
			defTitle = strings.TrimSpace(defTitle + " " + dhArmourName(req, def.armour))
		}
		if def.dbSet {
			a.DB = def.db
		}
		a.DB += def.dbPlus
		if def.faces > 0 {
			a.DBFaces = def.faces
		}
		a.Static = def.static
		if a.DB > dh.MaxDB {
			return nil, command.Errorf("dh.error.db", "max", dh.MaxDB, "got", a.DB)
		}
		defTitle = strings.TrimSpace(defTitle + " " + req.T("dh.db_count", "n", a.DB, "die", a.DBFaces))
		if a.Static > 0 {
			defTitle += " +" + strconv.Itoa(a.Static)
		}
	} else {
		defTitle = req.T("dh.no_armour")
	}

	r := dh.ResolveAttack(req.Rand, a)
	rep := &reply.Reply{}
	rep.Add(reply.T("🗡️ " + capFirst(title) + " vs " + defTitle))
	parts := []string{}
	if len(r.Damage) > 0 {
		parts = append(parts, "🎲 "+req.T("dh.damage_dice", "dice", joinInts(r.Damage)))
	}
	if len(r.DB) > 0 {
		key := "dh.db_dice"
		if a.Mode == dh.Highest {
			key = "dh.db_dice_highest"
		}
		parts = append(parts, req.T(key, "dice", joinInts(r.DB), "absorb", r.Absorb))
	} else if a.Static > 0 {
		parts = append(parts, req.T("dh.static", "absorb", r.Absorb))
	}
	if len(parts) > 0 {
		rep.Add(reply.T(strings.Join(parts, " · ")))
	}
	calc := fmt.Sprintf("%s − %d = %s", minus(r.Raw), r.Absorb, minus(r.Raw-r.Absorb))
	line := reply.Line{reply.T(calc + " → "), reply.B(req.T("dh.damage", "n", r.Final))}
	if a.Pen > 0 && r.Final == a.Pen && r.Raw-r.Absorb < a.Pen {
		line = append(line, reply.T(" "+req.T("dh.pen_floor")))
	}
	rep.Add(line...)
	if att.hasWeapon && att.weapon.Resist > 0 {
		rep.Add(reply.I(req.T("dh.reminder.usage", "die", fmt.Sprintf("d%d", att.weapon.Resist))))
	}
	if vs && a.DB > 0 {
		if a.Pen > 0 {
			rep.Add(reply.I(req.T("dh.reminder.break", "pen", dh.BreakDamage(a.Pen))))
		} else {
			rep.Add(reply.I(req.T("dh.reminder.break_free")))
		}
	}
	ck := newCheck("dh", "", append(append([]int{}, r.Damage...), r.DB...), append(repeat(a.DmgS, len(r.Damage)), repeat(a.DBFaces, len(r.DB))...)...)
	ck.Total = intp(r.Final)
	p := dh.AbovePen(a)
	setChance(ck, p)
	rep.Check = ck
	return finish(req, rep, in, oddsLine(req, "dh.odds.above_pen", p), true), nil
}

// minus writes a negative number with the Unicode minus sign.
func minus(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return strconv.Itoa(n)
}

func signedInt(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return "+" + strconv.Itoa(n)
}

// --- /dh rompe -------------------------------------------------------------

func dhBreak(ctx context.Context, req *command.Request, in input, who string, toks []string) (*reply.Reply, error) {
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
		return finish(req, rep, in, nil, false), nil
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
	if note := saveSheet(ctx, req, who, sheetIntact, strconv.Itoa(e.intact), sheetBroken, strconv.Itoa(e.broken)); note != nil {
		rep.Add(note...)
	} else if e.intact == 0 {
		rep.Add(reply.B(req.T("dh.armour_destroyed", "armour", capFirst(name))))
	} else {
		rep.Add(reply.T(req.T("dh.armour_state", "armour", capFirst(name), "intact", e.intact, "broken", e.broken)))
	}
	return finish(req, rep, in, nil, false), nil
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

func dhUsage(ctx context.Context, req *command.Request, in input, who string, toks []string) (*reply.Reply, error) {
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
	case k == "" || k == "arma" || k == "weapon" || k == "οπλο":
		sheetKey, item = sheetWeaponUsage, req.T("dh.your_weapon")
		cur, ok := sheetOpt(ctx, req, who, sheetWeaponUsage)
		name, hasWeapon := sheetOpt(ctx, req, who, sheetWeapon)
		if hasWeapon {
			w, err := findWeapon(req, name)
			if err != nil {
				return nil, err
			}
			item = dhWeaponName(req, w)
			die = w.Resist
		}
		if ok {
			if isExhausted(cur) {
				return nil, command.Errorf("dh.error.exhausted", "item", capFirst(item))
			}
			n, okd := parseDie(cur)
			if !okd {
				return nil, command.Errorf("dh.error.sheet_value", "name", sheetWeaponUsage, "value", clip(cur))
			}
			die = n
		}
		if !ok && !hasWeapon {
			if who != "" {
				if _, err := req.SheetText(ctx, who, sheetWeapon); err != nil {
					return nil, err
				}
			}
			return nil, command.Errorf("dh.error.usage_what")
		}
	case k == "armadura" || k == "armour" || k == "armor" || k == "πανοπλια":
		sheetKey, item = sheetArmourUsage, req.T("dh.your_armour")
		cur, ok := sheetOpt(ctx, req, who, sheetArmourUsage)
		name, hasArmour := sheetOpt(ctx, req, who, sheetArmour)
		if hasArmour {
			a, err := findArmour(req, name)
			if err != nil {
				return nil, err
			}
			item = dhArmourName(req, a)
			die = a.Resist
		}
		if ok {
			if isExhausted(cur) {
				return nil, command.Errorf("dh.error.exhausted", "item", capFirst(item))
			}
			n, okd := parseDie(cur)
			if !okd {
				return nil, command.Errorf("dh.error.sheet_value", "name", sheetArmourUsage, "value", clip(cur))
			}
			die = n
		}
		if !ok && !hasArmour {
			return nil, command.Errorf("dh.error.usage_what")
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
		if note := saveSheet(ctx, req, who, sheetKey, v); note != nil {
			rep.Add(note...)
		} else {
			rep.Add(reply.I(req.T("dh.saved", "name", sheetKey, "value", v)))
		}
	}
	ck := newCheck("dh", outcome, []int{u.Roll}, u.Die)
	p := dh.UsageHolds(die)
	setChance(ck, p)
	rep.Check = ck
	down := new(big.Rat).Sub(big.NewRat(1, 1), p)
	return finish(req, rep, in, oddsLine(req, "dh.odds.step_down", down), true), nil
}

// --- /dh repara ------------------------------------------------------------

func dhRepair(ctx context.Context, req *command.Request, in input, who string, toks []string) (*reply.Reply, error) {
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
			return nil, command.Errorf("dh.error.broken_over", "armour", capFirst(dhArmourName(req, a)), "db", a.DB, "got", broken)
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
		return dhRepairMagic(ctx, req, in, who, name, intact, broken, tracked)
	}
	r := dh.RepairArmour(req.Rand, intact, broken, faces)
	rep := &reply.Reply{}
	rep.Add(reply.T("🔧 " + req.T("dh.repair.head", "armour", capFirst(name), "score", r.Score, "broken", broken)))
	ck := newCheck("dh", "", r.Dice, faces)
	p := dh.RepairAll(intact, broken, faces)
	setChance(ck, p)
	rep.Check = ck
	switch {
	case r.Destroyed:
		ck.Outcome = "impossible"
		rep.Add(reply.B(req.T("dh.repair.destroyed", "armour", capFirst(name))))
		return finish(req, rep, in, nil, false), nil
	case r.Hopeless:
		ck.Outcome = "impossible"
		rep.Add(reply.B(req.T("dh.repair.hopeless", "die", fmt.Sprintf("d%d", faces), "score", r.Score, "count", broken)))
		return finish(req, rep, in, nil, false), nil
	}
	rep.Add(reply.T("🎲 "+req.T("dh.repair.dice", "die", fmt.Sprintf("d%d", faces), "dice", joinInts(r.Dice), "score", r.Score)+" → "),
		reply.B(req.T("dh.repair.result", "restored", r.Restored, "lost", r.Lost)))
	ck.Outcome = "success"
	if r.Lost > 0 {
		ck.Outcome = "failure"
	}
	ck.Total = intp(r.NewMax())
	rep.Add(reply.T(req.T("dh.repair.now", "armour", capFirst(name), "db", r.NewMax())))
	if tracked {
		if note := saveSheet(ctx, req, who, sheetIntact, strconv.Itoa(r.NewMax()), sheetBroken, "0"); note != nil {
			rep.Add(note...)
		}
	}
	return finish(req, rep, in, oddsLine(req, "dh.odds.repair_all", p), true), nil
}

// dhRepairMagic: magic armour is repaired with 1d4 days of work and 10 %
// of its original value per broken DB, with no roll per DB (RULES.md §2.8).
func dhRepairMagic(ctx context.Context, req *command.Request, in input, who, name string, intact, broken int, tracked bool) (*reply.Reply, error) {
	if intact < 1 {
		return nil, command.Errorf("dh.error.magic_destroyed", "armour", capFirst(name))
	}
	days := req.Rand.IntN(4) + 1
	rep := &reply.Reply{}
	rep.Add(reply.T("🔧✨ " + req.T("dh.repair.head", "armour", capFirst(name), "score", intact+broken, "broken", broken)))
	rep.Add(reply.T("🎲 1d4 → "), reply.B(req.T("dh.repair.magic_days", "count", days)), reply.T(" · "+req.T("dh.repair.magic_cost", "pct", 10*broken)))
	rep.Add(reply.I(req.T("dh.repair.magic_reduced")))
	if tracked {
		if note := saveSheet(ctx, req, who, sheetIntact, strconv.Itoa(intact+broken), sheetBroken, "0"); note != nil {
			rep.Add(note...)
		}
	}
	ck := newCheck("dh", "success", []int{days}, 4)
	ck.Total = intp(days)
	rep.Check = ck
	return finish(req, rep, in, nil, false), nil
}

// --- /dh pen, montura, asfixia ---------------------------------------------

func dhPen(ctx context.Context, req *command.Request, in input, who string, toks []string) (*reply.Reply, error) {
	if len(toks) != 1 {
		return nil, command.Errorf("dh.error.pen_usage")
	}
	k := fold.Key(toks[0])
	if m := levelWord.FindStringSubmatch(k); m != nil {
		k = m[1]
	}
	level, ok := atoi(k)
	if !ok {
		return nil, command.Errorf("dh.error.pen_usage")
	}
	if level < dh.MinLevel || level > dh.MaxLevel {
		return nil, command.Errorf("dh.error.level", "min", dh.MinLevel, "max", dh.MaxLevel, "got", level)
	}
	mode := dhPenMode(req)
	pen := dh.MonsterPen(level, mode)
	other, otherKey := dh.MonsterPen(level, dh.Ceil), "option.dh_pen.techo"
	if mode == dh.Ceil {
		other, otherKey = dh.MonsterPen(level, dh.Round), "option.dh_pen.redondeo"
	}
	rep := &reply.Reply{}
	rep.Add(reply.T(req.T("dh.pen.level", "level", level)+" "), reply.B(req.T("dh.pen.value", "pen", pen)))
	if other != pen {
		rep.Add(reply.I(req.T("dh.pen.other", "mode", req.T(otherKey), "pen", other)))
	}
	rep.Add(reply.I(req.T("dh.pen.gm")))
	ck := newCheck("dh", "", nil)
	ck.Total = intp(pen)
	rep.Check = ck
	return finish(req, rep, in, nil, false), nil
}

func dhMount(ctx context.Context, req *command.Request, in input, who string, toks []string) (*reply.Reply, error) {
	if len(toks) > 0 {
		return nil, command.Errorf("dh.error.extra", "got", clip(strings.Join(toks, " ")))
	}
	roll, mount := dh.MountCheck(req.Rand)
	rep := &reply.Reply{}
	verdict, outcome := req.T("dh.mount.rider"), "failure"
	if mount {
		verdict, outcome = req.T("dh.mount.mount"), "success"
	}
	rep.Add(reply.T(fmt.Sprintf("🐎 🎲 d20 → %d (%d+): ", roll, dh.MountThreshold)), reply.B(verdict))
	ck := newCheck("dh", outcome, []int{roll}, 20)
	ck.Total = intp(roll)
	p := dh.MountChance()
	setChance(ck, p)
	rep.Check = ck
	return finish(req, rep, in, oddsLine(req, "dh.odds.mount", p), true), nil
}

func dhAsphyxia(ctx context.Context, req *command.Request, in input, who string, toks []string) (*reply.Reply, error) {
	if len(toks) < 1 {
		return nil, command.Errorf("dh.error.asphyxia_usage")
	}
	round, ok := atoi(toks[0])
	if !ok || round < 1 || round > dh.MaxRound {
		return nil, command.Errorf("dh.error.round", "max", dh.MaxRound)
	}
	need, pen := dh.Asphyxia(round)
	rep := &reply.Reply{}
	if !need {
		rep.Add(reply.T("🌊 " + req.T("dh.asphyxia.none", "round", round)))
	} else {
		rep.Add(reply.T("🌊 "+req.T("dh.asphyxia.roll", "round", round)+" "), reply.B(req.T("dh.asphyxia.penalty", "pen", "−"+strconv.Itoa(pen))))
		rep.Add(reply.T(req.T("dh.asphyxia.damage")))
	}
	// Heavy armour sinks its wearer (RULES.md §2.9): named, or from the sheet.
	var armour dh.Armour
	hasArmour := false
	if len(toks) > 1 {
		a, err := findArmour(req, strings.Join(toks[1:], " "))
		if err != nil {
			return nil, err
		}
		armour, hasArmour = a, true
	} else if name, ok := sheetOpt(ctx, req, who, sheetArmour); ok {
		if a, err := findArmour(req, name); err == nil {
			armour, hasArmour = a, true
		}
	}
	switch {
	case hasArmour && armour.SwimDisadvantage():
		rep.Add(reply.I(req.T("dh.asphyxia.sinks_dis", "armour", capFirst(dhArmourName(req, armour)))))
	case hasArmour && armour.Sinks():
		rep.Add(reply.I(req.T("dh.asphyxia.sinks", "armour", capFirst(dhArmourName(req, armour)))))
	}
	ck := newCheck("dh", "", nil)
	ck.Total = intp(-pen)
	rep.Check = ck
	return finish(req, rep, in, nil, false), nil
}
