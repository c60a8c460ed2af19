package systems

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/systems/kh"
)

type khSpec struct {
	cap       term
	s, i      int
	specialty string // a sheet value holding "2s 1i"
	dc        int    // 0: none
}

var (
	khDiceWord = regexp.MustCompile(`^\+?(\d+)([shin])$`)
	// "-2s": dice are only added; refused rather than read as "2s".
	khNegDiceWord = regexp.MustCompile(`^-\d+[shin]$`)
	khDCWord      = regexp.MustCompile(`^(?:dc|cd|δκ)?([+-]?\d+)$`)
)

// khNames are the file's difficulty tiers, each for its lowest DC
// (catalog "kh.tier.KEY", and the file's names).
func khNames() []named { return fileNamed("kh", "dc", "kh.tier.") }

// khDice adds "2s", "+1i", "1h", "1n" to the pool; ok=false if w is not one.
func khDice(w string, s, i *int) (bool, error) {
	k := foldNum(w) // keeps the minus of "-2s" (fold.Key drops it)
	if khNegDiceWord.MatchString(k) {
		return true, command.Errorf("kh.error.dice_negative", "got", clip(w))
	}
	m := khDiceWord.FindStringSubmatch(k)
	if m == nil {
		return false, nil
	}
	n, ok := atoi(m[1])
	if !ok || n > kh.MaxBonusDice {
		return true, command.Errorf("kh.error.dice", "max", kh.MaxBonusDice)
	}
	if m[2] == "s" || m[2] == "h" {
		*s += n
	} else {
		*i += n
	}
	return true, nil
}

func parseKH(req *command.Request, toks []string) (khSpec, error) {
	var sp khSpec
	if _, _, vs, _ := splitVs(toks); vs {
		return sp, command.Errorf("kh.error.opposed")
	}
	if len(toks) == 0 {
		return sp, command.Errorf("kh.error.usage")
	}
	sp.cap = parseTerm(toks[0])
	specIdx := 0
	for j := 1; j < len(toks); j++ {
		w := toks[j]
		if ok, err := khDice(w, &sp.s, &sp.i); err != nil {
			return sp, err
		} else if ok {
			continue
		}
		if sp.dc != 0 {
			return sp, command.Errorf("kh.error.extra", "got", clip(strings.Join(toks[j:], " ")))
		}
		if m := khDCWord.FindStringSubmatch(foldNum(w)); m != nil {
			n, ok := atoi(m[1])
			if !ok { // too many digits to read: never "you wrote 0"
				return sp, command.Errorf("kh.error.dc", "min", kh.MinDC, "max", kh.MaxDC, "got", clip(m[1]))
			}
			if n < kh.MinDC || n > kh.MaxDC {
				return sp, command.Errorf("kh.error.dc", "min", kh.MinDC, "max", kh.MaxDC, "got", n)
			}
			sp.dc = n
			continue
		}
		if w == "dc" || w == "cd" { // "dc 17"
			continue
		}
		// A named tier may take the rest of the words ("muy difícil").
		if v, err := matchNamed(req, strings.Join(toks[j:], " "), khNames(), "kh.error.dc_name"); err == nil {
			sp.dc = v
			break
		}
		if sp.specialty != "" || isNumber(w) {
			// "muy dificl": a misspelt difficulty, not two specialties.
			if _, err := matchNamed(req, strings.Join(toks[specIdx:], " "), khNames(), "kh.error.dc_name"); isSuggestion(err) {
				return sp, err
			}
			return sp, command.Errorf("kh.error.extra", "got", clip(strings.Join(toks[j:], " ")))
		}
		sp.specialty, specIdx = w, j
	}
	if sp.s+sp.i > kh.MaxBonusDice {
		return sp, command.Errorf("kh.error.dice", "max", kh.MaxBonusDice)
	}
	return sp, nil
}

// khSpecialty adds the dice a specialty's sheet value v names ("2s 1i")
// to sp's, within the bonus dice limit.
func khSpecialty(sp *khSpec, v string) error {
	for _, w := range strings.Fields(strings.ReplaceAll(v, ",", " ")) {
		if ok, err := khDice(w, &sp.s, &sp.i); err != nil {
			return err
		} else if !ok {
			return command.Errorf("kh.error.specialty", "name", sp.specialty, "value", clip(v))
		}
	}
	if sp.s+sp.i > kh.MaxBonusDice {
		return command.Errorf("kh.error.dice", "max", kh.MaxBonusDice)
	}
	return nil
}

// khCheck is a Kingdom Hearts check with its dice pool read: the
// Capacidad and the bonus dice, a specialty's from the sheet.
type khCheck struct {
	sp    khSpec
	pool  kh.Input
	rules kh.Rules // the book's, or the chat's fork's
}

// khCmd is /kh's steps (sysCheck); forks (nil: none) gives a chat's fork
// of Kingdom Hearts.
func khCmd(forks Forks) sysCheck[khCheck] {
	read := func(ctx context.Context, req *command.Request, sp khSpec, who string) (khCheck, error) {
		c, err := readKH(ctx, req, sp, who)
		if err != nil {
			return c, err
		}
		sys, err := chatSystem(ctx, req, forks, "kh")
		c.rules = kh.Of(sys)
		return c, err
	}
	return sysCheck[khCheck]{
		needs: []keyword{kwDC("17")},
		read:  fileOrdered("kh", readWho("kh.error.usage", parseKH, read)),
		roll:  noErr(rollKH),
	}
}

// readKH reads the Capacidad and a specialty's dice from the sheet of who.
func readKH(ctx context.Context, req *command.Request, sp khSpec, who string) (khCheck, error) {
	capv, err := sp.cap.valueIn(ctx, req, who, kh.MinCap, kh.MaxCap, "kh.error.cap")
	if err != nil {
		return khCheck{}, err
	}
	if sp.specialty != "" {
		v, err := req.SheetText(ctx, who, sp.specialty)
		if err != nil {
			// A typo of a difficulty name is more likely than a missing specialty.
			if _, err2 := matchNamed(req, sp.specialty, khNames(), "kh.error.dc_name"); isSuggestion(err2) {
				return khCheck{}, err2
			}
			return khCheck{}, err
		}
		if err := khSpecialty(&sp, v); err != nil {
			return khCheck{}, err
		}
	}
	return khCheck{sp: sp, pool: kh.Input{Cap: capv, Heartless: sp.s, Nobody: sp.i}}, nil
}

// khCapText is the Capacidad as typed: "5" or "fuerza 5".
func khCapText(c khCheck) string {
	if c.sp.cap.name != "" {
		return c.sp.cap.name + " " + strconv.Itoa(c.pool.Cap)
	}
	return strconv.Itoa(c.pool.Cap)
}

func rollKH(req *command.Request, c khCheck) *reply.Reply {
	r := c.rules.Resolve(req.Rand, c.pool, c.sp.dc)
	rep := &reply.Reply{}
	rep.Add(reply.T(khDiceText(req, r)))
	sum := []string{khCapText(c), strconv.Itoa(r.Complete)}
	for _, v := range append(append([]int{}, r.Nobody...), r.Extra...) {
		sum = append(sum, strconv.Itoa(v))
	}
	total := reply.Line{reply.T(strings.Join(sum, " + ") + " = "), reply.B(strconv.Itoa(r.Total))}
	ck := newCheck("kh", "", r.Dice(), 6)
	ck.Total = intp(r.Total)
	rep.Check = ck
	if c.sp.dc == 0 {
		return rep.Add(total...).Add(reply.I(noDCLine(req, "kh.no_dc", "dc17")))
	}
	dc := c.sp.dc
	rep.Add(append(total, reply.T(" · "+req.T("kh.dc", "dc", dc, "tier", req.T("kh.tier."+kh.TierOf(dc).Key))))...)
	ck.Outcome = r.Outcome
	rep.Add(reply.B(khOutcome(req, c.rules, r.Outcome)))
	if kh.TierOf(dc).Key == "imposible" {
		rep.Add(reply.I(req.T("kh.note.impossible")))
	}
	p := c.rules.Chance(c.pool, dc)
	setChance(ck, p)
	return rep.Add(oddsLine(req, "sys.odds.chance", p)...)
}

// khOutcome is an outcome's name: the catalog's, or the chat's fork's
// where it renamed it.
func khOutcome(req *command.Request, rules kh.Rules, outcome string) string {
	if n, ok := rules.Renamed(outcome, req.Lang); ok {
		return n
	}
	return req.T("kh.outcome." + outcome)
}

// khDiceText is "🎲 dado completo 4 · sincorazón 2, 5 (no suman) · incorpóreo 3".
func khDiceText(req *command.Request, r kh.Roll) string {
	parts := []string{"🎲 " + req.T("kh.complete", "dice", strconv.Itoa(r.Complete))}
	if len(r.Heartless) > 0 {
		parts = append(parts, req.T("kh.heartless", "dice", joinInts(r.Heartless)))
	}
	if len(r.Nobody) > 0 {
		parts = append(parts, req.T("kh.nobody", "dice", joinInts(r.Nobody)))
	}
	if len(r.Extra) > 0 {
		parts = append(parts, req.T("kh.extra", "dice", joinInts(r.Extra)))
	}
	return strings.Join(parts, " · ")
}
