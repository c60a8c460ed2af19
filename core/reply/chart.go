package reply

// Chart is a probability distribution to draw. Adapters that send pictures
// draw it (Telegram sendPhoto, Matrix m.image); the others, and any adapter
// whose upload fails, show Text instead. Every label is already localized.
type Chart struct {
	Title   string
	XLabel  string // "total"
	Equal   string // the name of the P(= x) panel: "exactly"
	AtLeast string // the name of the P(≥ x) panel: "at least"
	Series  []Series
	// Target, when set, is marked on both panels: the check's target.
	Target *int64
	// Actual, when set, is marked too: the result of the roll the chart
	// explains (a roll's 📊 button).
	Actual *int64
	// TargetLabel and ActualLabel name the marks in the picture's legend
	// ("target", "your roll").
	TargetLabel, ActualLabel string
	// Note, when set, says how the figures are approximate: where an
	// explosion's endless tail was cut ("≈ cut past 306 …").
	Note string
	// Counts, when set, makes the chart a fairness picture instead of a
	// distribution (/stats): one panel per die size, a bar for the times
	// each face came up and a line at the count a fair die gives. Equal
	// then names the counts' axis and ExpectedLabel the line.
	Counts        []Counts
	ExpectedLabel string
	// Text is the chart in characters (a small bar chart), for text-only
	// platforms and as the fallback of a picture.
	Text []Line
}

// Counts is one die size of a fairness picture.
type Counts struct {
	Title    string  // "d6 · 600 dice · χ² 4.2, p 0.52 · ✅ looks fair"
	Observed []int   // Observed[f-1] = times face f came up
	Expected float64 // what a fair die gives each face
}

// Series is one distribution: P[i] = P(total = Min+i).
type Series struct {
	Label  string
	Min    int64
	P      []float64
	Approx bool // the figures are approximate (an explosion's tail cut)
	// Exact, when set, gives P(total = Min+i) as exact fractions "p/q"
	// (of the distribution as cut, when Approx): what `zaria roll --json`
	// prints. Computed on demand: a chat never needs it.
	Exact func() []string
	// Tail, when Approx and not Sampled, is the weight an explosion's cut
	// left out, at most: past the last total when Open, else spread over
	// the totals drawn (a keep after an explosion, 5d10!kh3).
	Tail float64
	Open bool
	// Sampled, when not 0, is how many rolls the figures were counted
	// from (the exact work was too much): P is each total's share of them.
	Sampled int
}

// AtLeast returns P(total ≥ Min+i) for every i.
func (s Series) AtLeast() []float64 {
	out := make([]float64, len(s.P))
	sum := 0.0
	for i := len(s.P) - 1; i >= 0; i-- {
		sum += s.P[i]
		out[i] = min(sum, 1)
	}
	return out
}

// WithChartText returns r with its chart drawn in characters after its
// lines: what a text-only platform (the console, the command line) shows,
// and what an adapter sends when a picture cannot be sent.
func WithChartText(r *Reply) *Reply {
	if r == nil || r.Chart == nil || len(r.Chart.Text) == 0 {
		return r
	}
	c := *r
	c.Lines = append(append(make([]Line, 0, len(r.Lines)+len(r.Chart.Text)), r.Lines...), r.Chart.Text...)
	c.Chart = nil
	return &c
}
