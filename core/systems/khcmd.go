package systems

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
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
	khDCWord   = regexp.MustCompile(`^(?:dc|cd|δκ)?([+-]?\d+)$`)
)

func khNames() []named {
	extras := map[string][]string{"muy_dificil": {"very hard"}, "imposible": {"impossible"}}
	out := make([]named, 0, len(kh.Tiers))
	for _, t := range kh.Tiers {
		out = append(out, named{val: t.From, keys: []string{"kh.tier." + t.Key}, extras: extras[t.Key]})
	}
	return out
}

// khDice adds "2s", "+1i", "1h", "1n" to the pool; ok=false if w is not one.
func khDice(w string, s, i *int) (bool, error) {
	m := khDiceWord.FindStringSubmatch(fold.Key(w))
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
			n, _ := atoi(m[1])
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

// khCap reads the check's Capacidad (a number or a sheet value) and
// checks its range.
func khCap(ctx context.Context, req *command.Request, sp khSpec, who string) (int, error) {
	capv, err := sp.cap.value(ctx, req, who)
	if err != nil {
		return 0, err
	}
	if capv < kh.MinCap || capv > kh.MaxCap {
		return 0, command.Errorf("kh.error.cap", "min", kh.MinCap, "max", kh.MaxCap, "got", capv)
	}
	return capv, nil
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

func handleKH(ctx context.Context, req *command.Request) (rep *reply.Reply, err error) {
	var who string
	defer func() { rep = forWho(rep, err, who) }()
	in := tokenize(req.Args)
	if err := missingValue(req, in.toks, kwDC("17")); err != nil {
		return nil, err
	}
	sp, who, err := parseWho(in.toks, "kh.error.usage", func(t []string) (khSpec, error) { return parseKH(req, t) })
	if err != nil {
		return nil, err
	}
	capv, err := khCap(ctx, req, sp, who)
	if err != nil {
		return nil, err
	}
	if sp.specialty != "" {
		v, err := req.SheetText(ctx, who, sp.specialty)
		if err != nil {
			// A typo of a difficulty name is more likely than a missing specialty.
			if _, err2 := matchNamed(req, sp.specialty, khNames(), "kh.error.dc_name"); isSuggestion(err2) {
				return nil, err2
			}
			return nil, err
		}
		if err := khSpecialty(&sp, v); err != nil {
			return nil, err
		}
	}
	pool := kh.Input{Cap: capv, Heartless: sp.s, Nobody: sp.i}
	r := kh.Resolve(req.Rand, pool)

	rep = &reply.Reply{}
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
	rep.Add(reply.T(strings.Join(parts, " · ")))
	capText := strconv.Itoa(capv)
	if sp.cap.name != "" {
		capText = sp.cap.name + " " + capText
	}
	sum := []string{capText, strconv.Itoa(r.Complete)}
	for _, v := range append(append([]int{}, r.Nobody...), r.Extra...) {
		sum = append(sum, strconv.Itoa(v))
	}
	total := reply.Line{reply.T(strings.Join(sum, " + ") + " = "), reply.B(strconv.Itoa(r.Total))}
	ck := newCheck("kh", "", r.Dice(), 6)
	ck.Total = intp(r.Total)
	rep.Check = ck
	var odds reply.Line
	if sp.dc > 0 {
		total = append(total, reply.T(" · "+req.T("kh.dc", "dc", sp.dc, "tier", req.T("kh.tier."+kh.TierOf(sp.dc).Key))))
		rep.Add(total...)
		ck.Outcome = "failure"
		if r.Total >= sp.dc {
			ck.Outcome = "success"
		}
		rep.Add(reply.B(req.T("kh.outcome." + ck.Outcome)))
		if kh.TierOf(sp.dc).Key == "imposible" {
			rep.Add(reply.I(req.T("kh.note.impossible")))
		}
		p := kh.Chance(pool, sp.dc)
		setChance(ck, p)
		odds = oddsLine(req, "sys.odds.chance", p)
	} else {
		rep.Add(total...)
	}
	return finish(req, rep, in, odds, sp.dc > 0), nil
}
