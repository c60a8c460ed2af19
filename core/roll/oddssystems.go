package roll

import (
	"context"
	"math/big"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems"
)

// systemOdds answers /odds SYSTEM ARGS ("/odds zaria 4+2", "/odds daegon 6
// d3", "/odds rq 45", "/odds kh 5 2s dc17", "/odds dh ataque espada-larga
// vs coraza"): without a target, the chance
// of success at each difficulty level of the system; with one, the chance
// of that check, of each outcome, and the distribution of its total. ok is
// false when the first word names no system.
func systemOdds(ctx context.Context, req *command.Request, args string, forks ...systems.Forks) (rep *reply.Reply, ok bool, err error) {
	word, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	sys, example := systems.OddsSystem(word), ""
	if sys == "" { // a chat's own system: /odds dnd +3 dc15
		if sys, example, err = systems.OwnOddsSystem(ctx, req, word, forks...); err != nil {
			return nil, true, err
		}
	}
	if sys == "" {
		return nil, false, nil
	}
	if strings.TrimSpace(strings.TrimRight(strings.TrimSpace(rest), "?")) == "" {
		pre := req.Prefix
		if pre == "" {
			pre = "/"
		}
		if example == "" {
			example = systems.OddsExample(sys, req.Lang)
		}
		return nil, true, command.Errorf("odds.err.sys_empty", "cmd", pre+"odds "+word, "example", example)
	}
	co, err := systems.OddsOf(ctx, req, sys, rest, forks...)
	if err != nil {
		return nil, true, err
	}
	return renderSystemOdds(req, strings.TrimSpace(args), co), true, nil
}

func renderSystemOdds(req *command.Request, text string, co *systems.CheckOdds) *reply.Reply {
	// The words as typed head the reply and title the chart: a name that
	// no sheet is read for ("/odds zaria Ana 4+2") reaches them as typed,
	// so it is cleaned like every text the bot shows.
	text = fold.Clean(text)
	rep := &reply.Reply{}
	rep.Add(reply.T("📊 "), reply.C(text))
	if co.Subject != "" {
		rep.Add(reply.T("🎲 " + co.Subject))
	}
	rep.Head = len(rep.Lines) // then the tables, if any: levels, outcomes
	if len(co.Levels) > 0 {
		rep.Add(reply.B(req.T("odds.sys.levels")))
		rep.Lines = append(rep.Lines, rowLines(req, co.Levels, co.Approx)...)
	}
	if co.Target != "" {
		if co.Chance != nil { // nil beside Levels: no target typed
			rep.Add(reply.T(req.T("odds.sys.chance", "target", co.Target, "pct", approx(co.Approx)+req.Percent(co.Chance))))
		}
		if len(co.Levels) == 0 {
			rep.Head = len(rep.Lines)
		}
		if len(co.Outcomes) > 0 {
			rep.Add(reply.B(req.T("odds.sys.outcomes")))
			rep.Lines = append(rep.Lines, rowLines(req, co.Outcomes, co.Approx)...)
		}
		if len(co.Also) > 0 {
			rep.Add(reply.B(req.T("odds.sys.also")))
			rep.Lines = append(rep.Lines, rowLines(req, co.Also, co.Approx)...)
		}
	}
	if len(co.Dist) == 0 {
		return rep
	}
	ps := make([]float64, len(co.Dist))
	mean := new(big.Rat)
	for i, p := range co.Dist {
		ps[i], _ = p.Float64()
		mean.Add(mean, new(big.Rat).Mul(p, new(big.Rat).SetInt64(co.DistMin+int64(i))))
	}
	mf, _ := mean.Float64()
	lo, hi := co.DistMin, co.DistMin+int64(len(ps))-1
	for lo < hi && co.Dist[lo-co.DistMin].Sign() == 0 {
		lo++
	}
	for hi > lo && co.Dist[hi-co.DistMin].Sign() == 0 {
		hi--
	}
	headed := rep.Head == len(rep.Lines) // no table before the mean: it sums up too
	rep.Add(reply.T(req.T("odds.sys.summary", "x", co.XLabel,
		"mean", strings.Replace(Number(req.Lang, mf, false), "-", "−", 1),
		"sd", Number(req.Lang, deviation(co.DistMin, mf, ps), false),
		"min", minus(lo), "max", minus(hi))))
	if headed {
		rep.Head = len(rep.Lines)
	}
	c := &reply.Chart{
		Title:   text,
		XLabel:  co.XLabel,
		Equal:   req.T("odds.chart.equal"),
		AtLeast: req.T("odds.chart.at_least"),
		Series:  []reply.Series{{Label: co.Subject, Min: co.DistMin, P: ps}},
		Target:  co.DistTarget,
		// The legend of the target.
		TargetLabel: req.T("odds.chart.target"),
	}
	c.Text = barChart(req, c)
	rep.Chart = c
	return rep
}

// rowLines writes levels or outcomes as aligned code lines: label, chance,
// then the level's name; sampled chances with ≈.
func rowLines(req *command.Request, rows []systems.OddsRow, sampled bool) []reply.Line {
	w, pw := 0, 0
	pcts := make([]string, len(rows))
	for i, r := range rows {
		w = max(w, len([]rune(r.Label)))
		pcts[i] = approx(sampled) + req.Percent(r.P)
		pw = max(pw, len([]rune(pcts[i])))
	}
	out := make([]reply.Line, 0, len(rows))
	for i, r := range rows {
		s := r.Label + strings.Repeat(" ", w-len([]rune(r.Label))) + " " + pad(pcts[i], pw)
		line := reply.Line{reply.C(s)}
		if r.Name != "" {
			line = append(line, reply.T(" "+r.Name))
		}
		out = append(out, line)
	}
	return out
}

// RegisterSystemOdds gives the checks of the systems with a distribution
// to draw (systems.Charted) their 📊 button: what "/odds <system> <the
// check>" shows, with the check's result marked where the picture's axis
// is its total. Call it after systems.Register: it panics, as
// Router.SetOdds does, when a system's command is missing.
// forks, when given, finds a chat's fork of a system (its odds then).
func RegisterSystemOdds(r *command.Router, forks ...systems.Forks) {
	for _, name := range systems.Charted() {
		r.SetOdds(name, command.HandlerFunc(func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
			args := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(req.Args), "?"))
			co, err := systems.OddsOf(ctx, req, name, args, forks...)
			if err != nil {
				return nil, err
			}
			rep := renderSystemOdds(req, name+" "+args, co)
			if c := rep.Chart; c != nil && req.Actual != nil && co.TotalAxis {
				if a := *req.Actual; a >= co.DistMin && a < co.DistMin+int64(len(co.Dist)) {
					c.Actual, c.ActualLabel = &a, req.T("odds.chart.actual")
					c.Text = barChart(req, c)
				}
			}
			return rep, nil
		}))
	}
}

// approx is "≈" before a sampled chance, else nothing.
func approx(sampled bool) string {
	if sampled {
		return "≈"
	}
	return ""
}
