package systems

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/rq"
)

// rqSide is "45", "espadas", "c14", "c14x5" or "c:fuerza".
type rqSide struct {
	t      term
	isChar bool
	mult   int // 0: the default for the kind of roll
}

type rqSpec struct {
	off, def rqSide
	opposed  bool
	defWho   string
	diff     int
	diffSet  bool
	diffName string // catalog key of a named difficulty
}

var (
	rqCharNum  = regexp.MustCompile(`^[cχ](\d+)(?:[x×*](\d+))?$`)
	rqCharName = regexp.MustCompile(`^[cχ]:(.+?)(?:[x×*](\d+))?$`)
)

func parseRQSide(s string) (rqSide, error) {
	k := fold.Key(s)
	for _, re := range []*regexp.Regexp{rqCharNum, rqCharName} {
		if m := re.FindStringSubmatch(k); m != nil {
			side := rqSide{t: parseTerm(m[1]), isChar: true}
			if re == rqCharName {
				side.t = term{name: m[1]}
			}
			if m[2] != "" {
				n, ok := atoi(m[2])
				if !ok { // too many digits to read: never "×0"
					return side, command.Errorf("rq.error.mult", "min", rq.MinMult, "max", rq.MaxMult, "got", clip(m[2]))
				}
				if n < rq.MinMult || n > rq.MaxMult {
					return side, command.Errorf("rq.error.mult", "min", rq.MinMult, "max", rq.MaxMult, "got", n)
				}
				side.mult = n
			}
			return side, nil
		}
	}
	return rqSide{t: parseTerm(s)}, nil
}

// rqNames are the file's named difficulties (catalog "rq.diff.KEY", and
// the file's names and other spellings).
func rqNames() []named { return fileNamed("rq", "diff", "rq.diff.") }

func rqDiffKey(v int) string {
	for _, d := range rq.Difficulties {
		if d.Value == v {
			return "rq.diff." + d.Key
		}
	}
	return ""
}

func parseRQDiff(req *command.Request, words []string) (int, error) {
	w := strings.Join(words, " ")
	if n, ok := atoi(strings.ReplaceAll(w, " ", "")); ok {
		if n < rq.MinDiff || n > rq.MaxDiff {
			return 0, command.Errorf("rq.error.diff", "min", rq.MinDiff, "max", "+"+strconv.Itoa(rq.MaxDiff), "got", n)
		}
		return n, nil
	}
	return matchNamed(req, w, rqNames(), "rq.error.diff_name")
}

func parseRQ(req *command.Request, toks []string) (rqSpec, error) {
	var sp rqSpec
	left, right, vs, err := splitVs(toks)
	if err != nil {
		return sp, err
	}
	if len(left) == 0 {
		return sp, command.Errorf("rq.error.usage")
	}
	first, left := joinRQChar(left) // rqchar.go: "c ΣΥΝ", "con x5"
	left = append([]string{first}, left...)
	if sp.off, err = parseRQSide(left[0]); err != nil {
		return sp, err
	}
	if vs {
		if len(left) > 1 {
			return sp, command.Errorf("rq.error.diff_opposed")
		}
		sp.defWho, right = takeWho(right)
		if len(right) > 0 {
			first, rest := joinRQChar(right)
			right = append([]string{first}, rest...)
		}
		if len(right) != 1 {
			return sp, command.Errorf("rq.error.usage")
		}
		if sp.def, err = parseRQSide(right[0]); err != nil {
			return sp, err
		}
		sp.opposed = true
		return sp, nil
	}
	if len(left) > 1 {
		d, err := parseRQDiff(req, left[1:])
		if err != nil {
			return sp, err
		}
		sp.diff, sp.diffSet = d, true
	}
	return sp, nil
}

// rqValue resolves a side to the value used as a skill, and how to show it.
func rqValue(ctx context.Context, req *command.Request, who string, s rqSide, defMult int) (int, string, error) {
	v, err := s.t.value(ctx, req, who)
	if s.isChar && s.t.name != "" {
		v, err = rqCharValue(ctx, req, who, s.t.name)
	}
	if err != nil {
		return 0, "", err
	}
	if !s.isChar {
		if err := inRange(v, rq.MinSkill, rq.MaxSkill, "rq.error.skill"); err != nil {
			return 0, "", err
		}
		if s.t.name != "" {
			return v, s.t.name + " " + strconv.Itoa(v), nil
		}
		return v, strconv.Itoa(v), nil
	}
	if err := inRange(v, rq.MinChar, rq.MaxChar, "rq.error.char"); err != nil {
		return 0, "", err
	}
	m := s.mult
	if m == 0 {
		m = defMult
	}
	if s.t.name != "" {
		return v * m, fmt.Sprintf("%s %d×%d", s.t.name, v, m), nil
	}
	return v * m, fmt.Sprintf("%d×%d", v, m), nil
}

// rqCheck is a RuneQuest roll with its values read: a skill against a
// difficulty, or an offensive against a defensive value.
type rqCheck struct {
	sp       rqSpec
	off, def int    // the values used as skills
	offText  string // how each was written: "45", "c14×5", "espadas 60"
	defText  string
	rules    rq.Rules // the book's, or the chat's fork's
	who      string   // the roller's character ("": the active one), whose sheet a success marks
}

// rqCmd is /rq's steps (sysCheck); forks (nil: none) gives a chat's
// fork of RQ.
func rqCmd(forks Forks) sysCheck[rqCheck] {
	read := func(ctx context.Context, req *command.Request, sp rqSpec, who string) (rqCheck, error) {
		c, err := readRQ(ctx, req, sp, who)
		if err != nil || forks == nil {
			c.rules = rq.Book()
			return c, err
		}
		sys, err := forks.System(ctx, req.Msg.Chat, "rq")
		c.rules = rq.Of(sys)
		return c, err
	}
	return sysCheck[rqCheck]{
		needs: []keyword{kwVs(sampleText("45"))},
		read:  fileOrdered("rq", readWho("rq.error.usage", parseRQ, read)),
		roll:  rollRQ,
	}
}

// readRQ reads both sides of an opposed roll (the defender's character,
// if named, else the roller's), or the one value of a simple roll, each a
// value and how it was written.
func readRQ(ctx context.Context, req *command.Request, sp rqSpec, who string) (rqCheck, error) {
	c := rqCheck{sp: sp, who: who}
	var err error
	if !sp.opposed {
		c.off, c.offText, err = rqValue(ctx, req, who, sp.off, rq.CharMult)
		return c, err
	}
	if c.off, c.offText, err = rqValue(ctx, req, who, sp.off, rq.OpposedCharMult); err != nil {
		return c, err
	}
	c.def, c.defText, err = rqValue(ctx, req, cmp.Or(sp.defWho, who), sp.def, rq.OpposedCharMult)
	return c, err
}

// rollRQ rolls, and keeps the mark the file declares for a success on
// the skill read from the sheet («marcará la habilidad para poder
// mejorarla más tarde»); a skill typed as a number keeps the reminder.
func rollRQ(ctx context.Context, req *command.Request, c rqCheck) (*reply.Reply, error) {
	check, on, rep := "roll", "skill", (*reply.Reply)(nil)
	if c.sp.opposed {
		check, on, rep = "opposed", "off", rqOpposed(req, c)
	} else {
		rep = rqSimple(req, c)
	}
	read := map[string]string{}
	if !c.sp.off.isChar {
		read[on] = c.sp.off.t.name
	}
	lines, err := markSheet(ctx, req, "rq", check, rep.Check.Outcome, c.who, read)
	if err != nil {
		return nil, err
	}
	placeMarks(rep, "✏️ "+req.T("rq.reminder.mark"), true, lines)
	return rep, nil
}

func rqRoll(r int) string { return fmt.Sprintf("🎲 %02d", r) }

// rqRanges is "crít. ≤7 · pifia ≥99".
func rqRanges(req *command.Request, crit, fumble int) string {
	c := req.T("rq.no_crit")
	if crit > 0 {
		c = req.T("rq.crit", "n", fmt.Sprintf("%02d", crit))
	}
	f := req.T("rq.no_fumble")
	if fumble > 0 {
		f = req.T("rq.fumble", "n", fmt.Sprintf("%02d", fumble))
		if fumble == 100 {
			f = req.T("rq.fumble", "n", "00")
		}
	}
	return c + " · " + f
}

// rqOutcome is an outcome's name: the chat's fork's when it renames it.
func rqOutcome(req *command.Request, rc rqCheck, o string) string {
	if n := rc.rules.Renamed(o, req.Lang); n != "" {
		return n
	}
	return req.T("rq.outcome." + o)
}

func rqOddsLine(req *command.Request, key string, o rq.Odds) reply.Line {
	return reply.Line{reply.T("📊 " + req.T(key, "pct", req.Percent(o.Success), "crit", req.Percent(o.Critical), "fumble", req.Percent(o.Fumble)))}
}

func rqSimple(req *command.Request, rc rqCheck) *reply.Reply {
	sp, v, vText := rc.sp, rc.off, rc.offText
	c := 50 + v + sp.diff
	r := rc.rules.Check(req.Rand, c)
	calc := "50 + " + vText
	switch {
	case sp.diff > 0:
		calc += " + " + strconv.Itoa(sp.diff)
	case sp.diff < 0:
		calc += " − " + strconv.Itoa(-sp.diff)
	case sp.diffSet:
		calc += " + 0"
	}
	if k := rqDiffKey(sp.diff); k != "" && sp.diffSet {
		calc += " " + req.T(k)
	}
	rep := &reply.Reply{}
	rep.Add(reply.B(rqRoll(r.Roll)), reply.T(" "+req.T("rq.vs", "chance", num(c), "calc", calc)))
	rep.Add(reply.B(rqOutcome(req, rc, r.Outcome)), reply.T(" · "+rqRanges(req, rc.rules.CritMax(c), rc.rules.FumbleMin(c))))
	if !sp.diffSet {
		rep.Add(reply.I(req.T("rq.default_diff")))
	}
	if rq.Succeeded(r.Outcome) && !sp.off.isChar {
		rep.Add(reply.I("✏️ " + req.T("rq.reminder.mark")))
	}
	ck := newCheck("rq", r.Outcome, []int{r.Roll}, 100)
	ck.Total = intp(r.Roll)
	odds := rc.rules.Chances(c)
	setChance(ck, odds.Success)
	rep.Check = ck
	return rep.Add(rqOddsLine(req, "rq.odds", odds)...)
}

func rqOpposed(req *command.Request, rc rqCheck) *reply.Reply {
	sp, offText, defText := rc.sp, rc.offText, rc.defText
	c := rq.OppChance(rc.off, rc.def)
	o := rc.rules.Oppose(req.Rand, c)
	rep := &reply.Reply{}
	rep.Add(reply.B(rqRoll(o.Roll)), reply.T(" "+req.T("rq.vs", "chance", num(c), "calc", "50 + "+offText+" − "+defText)))
	rep.Add(reply.T(rqRanges(req, rc.rules.OppCrit(c), rc.rules.OppFumbleMin(c))))
	dice := []int{o.Roll}
	if o.D4 > 0 {
		dice = append(dice, o.D4)
		parity := "rq.d4.odd"
		if o.D4%2 == 0 {
			parity = "rq.d4.even"
		}
		rep.Add(reply.T(req.T("rq.d4", "d4", o.D4, "parity", req.T(parity), "roll", rqOutcome(req, rc, o.Roll0))))
	}
	rep.Add(reply.T(req.T("rq.offensive")+": "), reply.B(rqOutcome(req, rc, o.Off)), reply.T(" · "+req.T("rq.defensive")+": "), reply.B(rqOutcome(req, rc, o.Def)))
	if o.OffensiveWins && !sp.off.isChar {
		rep.Add(reply.I("✏️ " + req.T("rq.reminder.mark")))
	}
	ck := newCheck("rq", o.Off, dice, 100, 4)
	ck.Total = intp(o.Roll)
	ck.Winner = "passive"
	if o.OffensiveWins {
		ck.Winner = "active"
	}
	odds := rc.rules.OppChances(c)
	setChance(ck, odds.Success)
	rep.Check = ck
	return rep.Add(rqOddsLine(req, "rq.odds_opposed", odds)...)
}
