package roll

import (
	"context"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems"
)

// Limits of /odds.
const (
	// MaxCompared is how many expressions /odds puts side by side.
	MaxCompared = 3
	// MaxTableRows is the number of rows of the "at least" table.
	MaxTableRows = 12
	// MaxBarRows is the number of rows of the bar chart in characters.
	MaxBarRows = 20
	// barWidth is the longest bar of the bar chart, in characters.
	barWidth = 16
)

// RegisterOdds adds /odds (/probabilidad, /prob, !πιθανότητες): the whole
// distribution of one to three generic expressions, side by side.
//
// forks, when given, finds a chat's fork of a system: /odds rq … then
// gives the fork's odds.
func RegisterOdds(r *command.Router, forks ...systems.Forks) {
	r.Register(command.Command{
		Name:    "odds",
		Aliases: []string{"probabilidad", "probabilidades", "prob", "πιθανότητες", "πιθανότητα"},
		Handler: command.HandlerFunc(func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
			return handleOdds(ctx, req, forks...)
		}),
	})
}

// oddsCmd gives the argument "cmd": /odds as the user typed it, prefix
// and name ("!probabilidad", ".prob"), for the errors that show how to
// type it; "/odds" when the handler was called with no command typed.
func oddsCmd(req *command.Request) []any {
	name := req.Alias
	if name == "" || req.Name != "odds" {
		name = "odds"
	}
	return []any{"cmd", req.TypedPrefix() + name}
}

// distribution is one expression of /odds with its exact figures.
type distribution struct {
	text string
	e    *dice.Expr
	o    *dice.Odds
	p    []float64 // P(total = o.Min+i)
	sd   float64
	note string // the key of a line under the head: "dice.advantage"
}

// handleOdds answers /odds EXPR [| EXPR [| EXPR]]: mean, deviation, range
// and a compact "at least" table of each expression, a bar chart in
// characters, and a Chart for the adapters that send pictures; /odds
// SYSTEM … the odds of a system's check (its fork's, with forks).
func handleOdds(ctx context.Context, req *command.Request, forks ...systems.Forks) (*reply.Reply, error) {
	args := strings.TrimSpace(req.Args)
	if args == "" {
		return nil, command.Errorf("odds.err.empty", oddsCmd(req)...)
	}
	if rep, ok, err := systemOdds(ctx, req, args, forks...); ok {
		return rep, err
	}
	if rep, ok, err := commandOdds(ctx, req, args); ok {
		return rep, err
	}
	parts := strings.Split(args, "|")
	if len(parts) > MaxCompared {
		return nil, command.Errorf("odds.err.too_many", append(oddsCmd(req), "max", MaxCompared, "got", len(parts))...)
	}
	lookup := sheetLookup(ctx, req)
	ds := make([]distribution, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p), "?"))
		if p == "" {
			return nil, command.Errorf("odds.err.empty", oddsCmd(req)...)
		}
		p, adv, err := advantage(p)
		if err != nil {
			return nil, err
		}
		e, err := dice.Parse(p)
		if err != nil {
			return nil, userError(err)
		}
		o, err := e.Odds(lookup)
		if errors.Is(err, dice.ErrOddsDivZero) {
			return nil, command.Errorf("odds.err.div_zero", "expr", p)
		}
		if err != nil {
			return nil, userError(err)
		}
		fs := o.Floats()
		// The part as typed heads its lines and names its series: the
		// parser skips invisible characters, the echo must drop them too.
		ds = append(ds, distribution{text: fold.Clean(p), e: e, o: o, p: fs, sd: deviationOf(o, fs), note: adv})
	}
	return renderOdds(req, ds, nil), nil
}

// deviationOf is the standard deviation of o's total: from its
// distribution fs, or, sampled over more totals than a distribution
// holds, from the samples.
func deviationOf(o *dice.Odds, fs []float64) float64 {
	if fs == nil {
		return o.SampledSD
	}
	return deviation(o.Min, o.Mean, fs)
}

// deviation is the standard deviation of the total.
func deviation(lo int64, mean float64, ps []float64) float64 {
	var m2 float64
	for i, p := range ps {
		x := float64(lo+int64(i)) - mean
		m2 += p * x * x
	}
	return math.Sqrt(m2)
}

// renderOdds builds the reply of /odds; actual marks the result of a roll.
func renderOdds(req *command.Request, ds []distribution, actual *int64) *reply.Reply {
	rep := &reply.Reply{}
	for i, d := range ds {
		head := reply.Line{reply.T("📊 ")}
		if len(ds) > 1 {
			head = append(head, reply.B(seriesName(i)+" "))
		}
		head = append(head, reply.C(Minus(dice.Shown(d.text))))
		rep.Lines = append(rep.Lines, head)
		if d.note != "" {
			rep.Lines = append(rep.Lines, reply.Line{reply.I(req.T(d.note))})
		}
		approx := d.o.Approx
		mean := Number(req.Lang, d.o.Mean, approx)
		if d.o.MeanExact != nil {
			mean = Number(req.Lang, ratFloat(d.o.MeanExact), false)
		}
		mean = strings.Replace(mean, "-", "−", 1)
		rep.Lines = append(rep.Lines, reply.Line{reply.T(req.T("odds.summary",
			"mean", mean, "sd", Number(req.Lang, d.sd, approx),
			"min", minus(d.o.Min), "max", maxText(d.o)))})
		if d.o.HasChance {
			rep.Lines = append(rep.Lines, reply.Line{reply.T(req.T("odds.chance",
				"target", minus(d.o.Target), "pct", pct(req, d.o.ChanceExact, d.o.Chance, approx)))})
		}
	}
	// what is not exact says why: an explosion's cut, a sample
	cut, sampled, drawn := false, 0, true
	for _, d := range ds {
		cut = cut || d.o.Approx && !d.o.Sampled
		if d.o.Sampled && sampled == 0 {
			sampled = d.o.Samples
		}
		drawn = drawn && d.p != nil
	}
	if cut {
		rep.Lines = append(rep.Lines, reply.Line{reply.I(req.T("odds.approx"))})
	}
	if sampled > 0 {
		rep.Lines = append(rep.Lines, reply.Line{reply.I(req.T("odds.sampled", "n", count(req.Lang, sampled)))})
	}
	rep.Head = len(rep.Lines)
	rep.Lines = append(rep.Lines, atLeastTable(req, ds)...)
	if drawn { // samples spread over more totals than a chart draws: no chart
		rep.Chart = distChart(req, ds, actual)
	}
	return rep
}

// count writes a whole number with its thousands grouped as the
// language does: 10.000 (es, el), 10,000 (en).
func count(lang string, n int) string {
	s := strconv.Itoa(n)
	sep := "."
	if lang == "en" {
		sep = ","
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + sep + s[i:]
	}
	return s
}

// distChart is the Chart of distributions ds: the first target marked, and
// actual, the result of a roll, when given.
func distChart(req *command.Request, ds []distribution, actual *int64) *reply.Chart {
	c := &reply.Chart{
		Title:   chartTitle(ds),
		XLabel:  req.T("odds.chart.x"),
		Equal:   req.T("odds.chart.equal"),
		AtLeast: req.T("odds.chart.at_least"),
		Actual:  actual,
		// The legend of the marks.
		TargetLabel: req.T("odds.chart.target"),
		ActualLabel: req.T("odds.chart.actual"),
	}
	for i, d := range ds {
		label := d.text
		if len(ds) > 1 {
			label = seriesName(i) + " " + d.text
		}
		s := reply.Series{Label: label, Min: d.o.Min, P: d.p, Approx: d.o.Approx, Open: d.o.Open, Exact: d.o.Fractions}
		switch {
		case d.o.Sampled:
			s.Sampled, s.Exact = d.o.Samples, nil
		case d.o.Approx:
			s.Tail = dice.ExplodeTail
		}
		c.Series = append(c.Series, s)
		switch {
		case c.Note != "":
		case d.o.Sampled:
			c.Note = req.T("odds.chart.sampled", "n", count(req.Lang, d.o.Samples))
		case d.o.Open:
			c.Note = req.T("odds.chart.cut", "max", minus(d.o.Max))
		case d.o.Approx:
			c.Note = req.T("odds.chart.cut_explosions")
		}
		if d.o.HasChance && c.Target == nil {
			t := d.o.Target
			c.Target = &t
		}
	}
	c.Text = barChart(req, c)
	return c
}

// seriesName names the i-th expression compared: A, B, C.
func seriesName(i int) string { return string(rune('A' + i)) }

func chartTitle(ds []distribution) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = d.text
	}
	return strings.Join(names, " · ")
}

// maxText is the highest total, "≥" it for an explosion whose tail goes
// on past it (3d6!); a keep after an explosion has its ceiling (5d10!kh3:
// 30).
func maxText(o *dice.Odds) string {
	if o.Open {
		return "≥" + minus(o.Max)
	}
	return minus(o.Max)
}

// minus writes an integer with the typographic minus sign.
func minus(v int64) string {
	if v < 0 {
		return "−" + strconv.FormatInt(-v, 10)
	}
	return strconv.FormatInt(v, 10)
}

// pct formats a chance: exact, or marked "≈" when approx (from exact when
// given, else from f).
func pct(req *command.Request, exact *big.Rat, f float64, approx bool) string {
	switch {
	case exact != nil && !approx:
		return req.Percent(exact)
	case exact != nil:
		return "≈" + req.Percent(exact)
	}
	return "≈" + req.Percent(new(big.Rat).SetFloat64(f))
}

// atLeastTable lists P(total ≥ x) for up to MaxTableRows totals: every
// total when there are few, otherwise evenly spaced ones between the
// totals that are almost sure and almost impossible, and the target.
func atLeastTable(req *command.Request, ds []distribution) []reply.Line {
	lo, hi := ds[0].o.Min, ds[0].o.Max
	for _, d := range ds[1:] {
		lo, hi = min(lo, d.o.Min), max(hi, d.o.Max)
	}
	xs, step := tableRows(ds, lo, hi)
	cols := make([][]*big.Rat, len(ds))
	for i, d := range ds {
		cols[i] = d.o.AtLeast(xs)
	}
	width := 0
	for _, x := range xs {
		width = max(width, len([]rune(minus(x))))
	}
	head := req.T("odds.table")
	if step > 1 { // rows skipped: the header says how many (issue 23: ≥7 then ≥9 looked like a bug)
		head = req.T("odds.table_step", "step", step)
	}
	lines := []reply.Line{{reply.B(head)}}
	for r, x := range xs {
		label := minus(x)
		row := "≥" + strings.Repeat(" ", width-len([]rune(label))) + label
		for i, d := range ds {
			row += "  " + pad(pct(req, cols[i][r], 0, d.o.Approx), 8)
		}
		line := reply.Line{reply.C(strings.TrimRight(row, " "))}
		if ds[0].o.HasChance && x == ds[0].o.Target {
			line = append(line, reply.T(" 🎯"))
		}
		lines = append(lines, line)
	}
	if len(ds) > 1 {
		var legend []string
		for i := range ds {
			legend = append(legend, seriesName(i))
		}
		lines[0] = append(lines[0], reply.T(" ("+strings.Join(legend, ", ")+")"))
	}
	return lines
}

func pad(s string, n int) string {
	if k := len([]rune(s)); k < n {
		return strings.Repeat(" ", n-k) + s
	}
	return s
}

// tableRows picks the totals of the "at least" table, and the step
// between them: every total when there are few, otherwise one every step
// totals, and the target.
func tableRows(ds []distribution, lo, hi int64) ([]int64, int64) {
	if hi-lo+1 <= MaxTableRows {
		xs := make([]int64, 0, hi-lo+1)
		for x := lo; x <= hi; x++ {
			xs = append(xs, x)
		}
		return xs, 1
	}
	// Between the first total that is not almost sure and the last that is
	// not almost impossible, over every expression compared.
	from, to := hi, lo
	for _, d := range ds {
		p := d.p
		sum := 0.0
		for i := len(p) - 1; i >= 0; i-- {
			sum += p[i]
			x := d.o.Min + int64(i)
			if sum >= 0.005 && x > to {
				to = x
			}
			if sum <= 0.995 {
				from = min(from, x)
			}
		}
	}
	from = max(lo, from-1)
	if to <= from {
		from, to = lo, hi
	}
	n := int64(MaxTableRows)
	if ds[0].o.HasChance {
		n-- // room for the target
	}
	var xs []int64
	seen := map[int64]bool{}
	add := func(x int64) {
		if !seen[x] {
			seen[x] = true
			xs = append(xs, x)
		}
	}
	// one step between all the rows: the reader can tell what is skipped;
	// up to half as many rows again, every one of them
	// a little over the rows there is room for: the middle ones, every
	// total (the ends left out are the almost sure and the almost
	// impossible)
	step := max(1, (to-from+n-2)/(n-1))
	if span := to - from + 1; span <= MaxTableRows+MaxTableRows/2 {
		step, from = 1, from+(span-n)/2
	}
	for x := from; x <= to && int64(len(xs)) < n; x += step {
		add(x)
	}
	if ds[0].o.HasChance {
		add(ds[0].o.Target)
	}
	sortAsc(xs)
	return xs, step
}

func sortAsc(xs []int64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// tailCut is the weight below which each end of a long distribution is
// folded into one "≤ x" or "≥ x" row of the bar chart in characters.
const tailCut = 0.0005

// barChart draws P(total = x) of every series in characters, one chart
// under the other (/odds 4d6kh3 | 3d6+1 draws both).
func barChart(req *command.Request, c *reply.Chart) []reply.Line {
	var lines []reply.Line
	for i := range c.Series {
		lines = append(lines, seriesBars(req, c, i)...)
	}
	if c.Note != "" && len(lines) > 0 {
		lines = append(lines, reply.Line{reply.I(c.Note)})
	}
	return lines
}

// seriesBars draws series i, readable at 40 columns: one row per total,
// or per run of totals when there are more than MaxBarRows; the ends of a
// long distribution that weigh less than 0.05 % each are folded into one
// row ("≥35"), and an approximate series (an explosion cut) has its
// figures marked "≈" (and the chart's note says where it was cut).
func seriesBars(req *command.Request, c *reply.Chart, i int) []reply.Line {
	s := c.Series[i]
	if len(s.P) == 0 {
		return nil
	}
	type row struct {
		label  string
		lo, hi int64
		p      float64
	}
	first, last := 0, len(s.P)-1
	var below, above float64
	if len(s.P) > MaxBarRows {
		for first < last && below+s.P[first] < tailCut {
			below += s.P[first]
			first++
		}
		for last > first && above+s.P[last] < tailCut {
			above += s.P[last]
			last--
		}
	}
	rows := make([]row, 0, MaxBarRows+2)
	if first > 0 {
		x := s.Min + int64(first) - 1
		rows = append(rows, row{label: "≤" + minus(x), lo: s.Min, hi: x, p: below})
	}
	n := last - first + 1
	room := MaxBarRows
	if first > 0 {
		room--
	}
	if last < len(s.P)-1 || s.Approx {
		room--
	}
	step := (n + room - 1) / room
	top := 0.0
	for i := first; i <= last; i += step {
		end := min(i+step, last+1) - 1
		r := row{lo: s.Min + int64(i), hi: s.Min + int64(end)}
		r.label = minus(r.lo)
		if r.hi != r.lo {
			r.label += "–" + minus(r.hi)
		}
		for _, p := range s.P[i : end+1] {
			r.p += p
		}
		rows = append(rows, r)
		top = max(top, r.p)
	}
	if last < len(s.P)-1 {
		x := s.Min + int64(last) + 1
		rows = append(rows, row{label: "≥" + minus(x), lo: x, hi: math.MaxInt64, p: above})
	}
	width := 0
	for _, r := range rows {
		width = max(width, len([]rune(r.label)))
	}
	lines := []reply.Line{{reply.B(req.T("odds.chart.equal") + " · " + s.Label)}}
	for _, r := range rows {
		n := int(math.Round(r.p / top * barWidth * 8))
		bar := strings.Repeat("█", n/8)
		if n%8 > 0 {
			bar += string([]rune("▏▎▍▌▋▊▉")[n%8-1])
		}
		mark := ""
		if c.Target != nil && *c.Target >= r.lo && *c.Target <= r.hi {
			mark += " 🎯"
		}
		if c.Actual != nil && *c.Actual >= r.lo && *c.Actual <= r.hi {
			mark += " 👈"
		}
		pct := req.Percent(new(big.Rat).SetFloat64(r.p))
		if s.Approx {
			pct = "≈" + pct
		}
		text := pad(r.label, width) + " " + bar + strings.Repeat(" ", barWidth-len([]rune(bar))) + " " + pct
		lines = append(lines, reply.Line{reply.C(text), reply.T(mark)})
	}
	return lines
}

// rollChart is the picture of a roll asked with "?" (what a roll's 📊
// button runs): the distribution of its total, its target and its result
// marked. Nil without "?", without an exact distribution, or for a roll
// repeated with "N#", whose several results no one marker shows.
func rollChart(req *command.Request, res *dice.Result, o *dice.Odds) *reply.Chart {
	e := res.Expr
	if !e.Ask || o == nil || !o.HasDistribution() {
		return nil
	}
	fs := o.Floats()
	d := distribution{text: e.Text, e: e, o: o, p: fs, sd: deviation(o.Min, o.Mean, fs)}
	var actual *int64
	if e.Repeat == 1 {
		t := res.Total()
		actual = &t
	}
	c := distChart(req, []distribution{d}, actual)
	if e.Pool() {
		c.XLabel = req.T("odds.chart.x_successes")
	}
	return c
}

// HandleRollOdds is /roll's Odds handler (the 📊 button of a roll): the
// distribution of the roll's expression, its target and the result the
// roll gave (req.Actual) marked, as /odds shows it, without rolling.
func HandleRollOdds(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	args := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(req.Args), "?"))
	if args == "" {
		return nil, command.Errorf("odds.err.empty", oddsCmd(req)...)
	}
	args, adv, err := advantage(args)
	if err != nil {
		return nil, err
	}
	e, err := dice.Parse(args)
	if err != nil {
		return nil, userError(err)
	}
	o, err := e.OddsWithin(sheetLookup(ctx, req), req.Budget.Left())
	switch {
	case errors.Is(err, dice.ErrOddsBudget):
		return nil, command.Errorf("error.budget")
	case errors.Is(err, dice.ErrOddsDivZero):
		return nil, command.Errorf("odds.err.div_zero", "expr", e.Text)
	case err != nil:
		return nil, userError(err)
	}
	if err := req.Budget.Spend(o.Work); err != nil {
		return nil, err
	}
	fs := o.Floats()
	text := e.Text
	if e.Repeat > 1 {
		text = strconv.Itoa(e.Repeat) + "#" + text
	}
	ds := []distribution{{text: text, e: e, o: o, p: fs, sd: deviationOf(o, fs), note: adv}}
	actual := req.Actual
	if e.Repeat > 1 {
		actual = nil // several results: no one marker shows them
	}
	rep := renderOdds(req, ds, actual)
	if e.Pool() && rep.Chart != nil {
		rep.Chart.XLabel = req.T("odds.chart.x_successes")
	}
	return rep, nil
}
