// Package roll is the /roll command: generic dice notation (core/dice) in a
// chat, with every die shown, the total, success or failure against a
// target, and the exact odds on request.
//
// A reply reads, for /tirar 4d6kh3+2 vs 15 # fuerza ?:
//
//	🎲 4d6kh3+2 · fuerza
//	[6, (2), 5, 4] + 2 = 17
//	🎯 Contra 15: ✅ Éxito
//	📊 Probabilidad: ≈48,77 % · media ≈14,24
//
// (the marks of each die are documented at dice.Result.Spans; the odds
// line only with a trailing '?'). Past MaxShownDice dice or MaxReplyChars
// characters every term shows only its sum and a note says so. The
// reply's Check always carries the dice, the total, the outcome against a
// target, and for a target or a success pool the exact chance and mean, so
// that --json has them whether or not '?' was typed.
package roll

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
)

// Limits of a reply. Past them a roll shows term sums instead of every die.
const (
	// MaxShownDice is how many dice one reply lists one by one.
	MaxShownDice = 100
	// MaxReplyChars is the longest reply written in full (the router's hard
	// limit is 3,500).
	MaxReplyChars = 3000
)

// Register adds /roll (aliases /r, /tirar, /tira, /ρίξε; /ριξε through
// folding) to the router.
func Register(r *command.Router) {
	r.Register(command.Command{
		Name:    "roll",
		Aliases: []string{"r", "tirar", "tira", "ρίξε"},
		Handler: command.HandlerFunc(Handle),
		Odds:    command.HandlerFunc(HandleRollOdds),
		Roll:    true,
	})
}

// Handle answers /roll TEXT.
func Handle(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if strings.TrimSpace(req.Args) == "" {
		return nil, command.Errorf("dice.err.empty")
	}
	args, adv, err := advantage(req.Args)
	if err != nil {
		return nil, err
	}
	e, err := dice.Parse(args)
	if err != nil {
		return nil, userError(err)
	}
	lookup := sheetLookup(ctx, req)
	src := req.Rand
	if src == nil {
		src = dice.NewSource()
	}
	// The repeats and the dice are drawn from the message's budget: what
	// the expression says before rolling, and the explosions and rerolls
	// after.
	cost := e.Cost()
	if err := req.Budget.Spend(cost); err != nil {
		return nil, err
	}
	res, err := e.Roll(src, lookup)
	if err != nil {
		return nil, userError(err)
	}
	if err := req.Budget.Spend(res.Draws + e.Repeat - cost); err != nil {
		return nil, err
	}
	var odds *dice.Odds
	var oddsErr error
	if e.HasTarget() || e.Pool() || e.Ask {
		// The odds use at most what is left of the budget: exact when it
		// fits, sampled with less (≈), refused when not even a sample fits.
		odds, oddsErr = e.OddsWithin(lookup, req.Budget.Left())
		if errors.Is(oddsErr, dice.ErrOddsBudget) {
			return nil, command.Errorf("error.budget")
		}
		if oddsErr == nil {
			if err := req.Budget.Spend(odds.Work); err != nil {
				return nil, err
			}
		}
		if oddsErr != nil {
			// The roll stands; only its odds do not exist (a division by zero
			// somewhere), and the odds line says so.
			if !errors.Is(oddsErr, dice.ErrOddsDivZero) {
				return nil, userError(oddsErr)
			}
			odds = nil
		}
	}
	rep := Render(req, res, odds)
	if adv != "" { // under the head: what "ventaja" made of the roll
		rep.Lines = append(rep.Lines[:1], append([]reply.Line{{reply.I(req.T(adv))}}, rep.Lines[1:]...)...)
	}
	return rep, nil
}

// sheetLookup resolves named values through the chat's character sheets,
// once per name per command.
func sheetLookup(ctx context.Context, req *command.Request) dice.Lookup {
	cache := map[[2]string]int{}
	return func(who, name string) (int, error) {
		k := [2]string{who, name}
		if v, ok := cache[k]; ok {
			return v, nil
		}
		v, err := req.SheetInt(ctx, who, name)
		if err != nil {
			return 0, err
		}
		cache[k] = v
		return v, nil
	}
}

// userError turns a dice error into a localized user error. Errors that
// already are user errors (from the sheets) pass through; anything else is
// an internal error for the router to log.
func userError(err error) error {
	if de, ok := dice.AsError(err); ok {
		return command.Errorf("dice.err."+de.Code, "near", de.Near, "max", de.Max, "got", de.Got, "want", de.Want)
	}
	if _, ok := command.AsUserError(err); ok {
		return err
	}
	if errors.Is(err, dice.ErrSource) {
		return command.Errorf("error.internal")
	}
	return fmt.Errorf("roll: %w", err)
}

// Render builds the reply of a rolled expression; odds may be nil. It is
// exported for commands that wrap /roll (the secret /gmroll).
func Render(req *command.Request, res *dice.Result, odds *dice.Odds) *reply.Reply {
	rep := render(req, res, odds, false)
	if len(res.Dice) > MaxShownDice || utf8.RuneCountInString(reply.PlainText(rep)) > MaxReplyChars {
		rep = render(req, res, odds, true)
	}
	rep.Chart = rollChart(req, res, odds)
	return rep
}

func render(req *command.Request, res *dice.Result, odds *dice.Odds, summary bool) *reply.Reply {
	e := res.Expr
	rep := &reply.Reply{}
	text := e.Text
	if e.Repeat > 1 {
		text = strconv.Itoa(e.Repeat) + "#" + text
	}
	// "1d6−10" is typed back as it is shown, and so is "8d10≥7": every
	// compare point shows what it compares, ≥ or ≤ (Roll20's > is "or more")
	head := reply.Line{reply.T("🎲 "), reply.C(Minus(dice.Shown(text)))}
	if e.Label != "" {
		head = append(head, reply.T(" · "), reply.I(e.Label))
	}
	rep.Lines = append(rep.Lines, head)
	opt := dice.RenderOptions{Summary: summary}
	pool := e.Counts() // the total is a number of successes
	wins := 0
	for i := range e.Repeat {
		var line reply.Line
		if e.Repeat > 1 {
			line = append(line, reply.T(strconv.Itoa(i+1)+". "))
		}
		line = append(line, minusSpans(res.Spans(i, opt))...)
		if pool {
			line = append(line, reply.T(" "+req.T("dice.successes", "count", res.Totals[i])))
		}
		if e.HasTarget() && e.Repeat > 1 {
			if res.Success(i) {
				line = append(line, reply.T(" ✅"))
				wins++
			} else {
				line = append(line, reply.T(" ❌"))
			}
		}
		rep.Lines = append(rep.Lines, line)
	}
	if summary || strings.Contains(reply.PlainText(rep), "[Σ ") {
		rep.Lines = append(rep.Lines, reply.Line{reply.I(req.T("dice.summary"))})
	}
	if r := res.Rounded(); r.Den != 0 { // a bare '/' rounded down: say so, with the fraction it dropped
		exact := req.Decimal(float64(r.Num) / float64(r.Den))
		if float64(r.Num)/float64(r.Den)*100 != float64(int64(float64(r.Num)/float64(r.Den)*100)) {
			exact = "≈" + exact
		}
		rep.Lines = append(rep.Lines, reply.Line{reply.I(Minus(req.T("dice.rounded",
			"num", r.Num, "den", r.Den, "exact", exact, "got", r.Got)))})
	}
	if e.HasTarget() {
		target := Minus(strconv.FormatInt(res.Target, 10))
		if e.Repeat == 1 {
			key := "dice.failure"
			if res.Success(0) {
				key = "dice.success"
			}
			rep.Lines = append(rep.Lines, reply.Line{reply.T(req.T("dice.target", "target", target) + " "), reply.B(req.T(key))})
		} else {
			rep.Lines = append(rep.Lines, reply.Line{reply.T(req.T("dice.target_repeat", "target", target, "count", wins, "n", e.Repeat))})
		}
	}
	if e.Ask {
		rep.Lines = append(rep.Lines, oddsLine(req, e, odds))
	}
	rep.Check = check(res, odds)
	rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonAgain, Label: req.T("dice.button.again")})
	if e.HasTarget() && !e.Ask {
		rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonOdds, Label: req.T("dice.button.odds")})
	}
	return rep
}

func oddsLine(req *command.Request, e *dice.Expr, o *dice.Odds) reply.Line {
	if o == nil {
		return reply.Line{reply.T(req.T("dice.odds_unavailable"))}
	}
	mean := Number(req.Lang, o.Mean, o.Approx && o.MeanExact == nil)
	if o.MeanExact != nil { // exact, shown rounded to two decimals: no "≈" (kept for approximations)
		mean = Number(req.Lang, ratFloat(o.MeanExact), false)
	}
	var pct string
	if o.HasChance {
		if o.ChanceExact != nil {
			pct = req.Percent(o.ChanceExact)
		} else {
			pct = "≈" + req.Percent(new(big.Rat).SetFloat64(o.Chance))
		}
	}
	switch {
	case !o.HasChance:
		return reply.Line{reply.T(req.T("dice.odds_mean", "mean", mean))}
	case e.Pool():
		return reply.Line{reply.T(req.T("dice.odds_pool", "count", o.Target, "pct", pct, "mean", mean))}
	}
	return reply.Line{reply.T(req.T("dice.odds", "pct", pct, "mean", mean))}
}

func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

func check(res *dice.Result, o *dice.Odds) *reply.Check {
	c := &reply.Check{System: "dice", Dice: res.Values(), Sides: make([]int, len(res.Dice))}
	fillSides(res, c.Sides)
	if res.Expr.Repeat == 1 {
		t := int(res.Total())
		c.Total = &t
		if res.Expr.HasTarget() {
			c.Outcome = "failure"
			if res.Success(0) {
				c.Outcome = "success"
			}
			m := float64(res.Totals[0] - res.Target)
			c.Margin = &m
		}
	}
	if o != nil {
		m := o.Mean
		c.Mean = &m
		c.Approx = o.Approx
		if o.HasChance {
			ch := o.Chance
			c.Chance = &ch
			if o.ChanceExact != nil {
				c.ChanceExact = o.ChanceExact.RatString()
				if !strings.Contains(c.ChanceExact, "/") {
					c.ChanceExact += "/1"
				}
			}
		}
	}
	return c
}

// fillSides sets the number of faces of every die whose value is a plain
// face (not Fudge, compounded or penetrated): the roll history's fairness
// report counts only those.
func fillSides(res *dice.Result, sides []int) {
	for i, s := range res.DieSides() {
		d := res.Dice[i]
		if s > 0 && !d.Has(dice.DieCompound) && !d.Has(dice.DiePenetrated) {
			sides[i] = s
		}
	}
}

// Number formats a mean with up to two decimals in the language's style,
// marked "≈" when it is an approximation.
func Number(lang string, f float64, approx bool) string {
	s := Minus(command.Decimal(lang, f))
	if approx {
		s = "≈" + s
	}
	return s
}

// Minus writes every minus sign of a reply as "−" (U+2212), the one sign
// zaria's replies use (issue 11.8); "-" stays accepted as input. A hyphen
// between two letters is part of a word (a label such as "espada-larga",
// a sheet value "uso-arma") and is kept.
func Minus(s string) string {
	if !strings.Contains(s, "-") {
		return s
	}
	rs := []rune(s)
	for i, r := range rs {
		if r != '-' {
			continue
		}
		if i > 0 && i < len(rs)-1 && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			continue
		}
		rs[i] = '−'
	}
	return string(rs)
}

// minusSpans applies Minus to the text of each span of a result line.
func minusSpans(spans []reply.Span) []reply.Span {
	for i := range spans {
		spans[i].Text = Minus(spans[i].Text)
	}
	return spans
}
