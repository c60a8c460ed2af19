package roll

import (
	"math/big"
	"strings"
	"testing"

	"zaria/core/command"
	"zaria/core/reply"
)

// The 📊 button runs the roll's command with " ?": that answer carries the
// picture of the distribution with the target and the result marked; a
// roll without "?" carries none (no picture under every roll).
func TestRollAskCarriesChartWithActual(t *testing.T) {
	r := newRouter(t, nil)
	rep := run(t, r, "es", "/roll 2d6+1 vs 8 ?", 6, 1)
	c := rep.Chart
	if c == nil || c.Target == nil || *c.Target != 8 || c.Actual == nil || *c.Actual != 8 {
		t.Fatalf("chart: %+v\n%s", c, plain(rep))
	}
	if c.TargetLabel != "objetivo" || c.ActualLabel != "tu tirada" {
		t.Errorf("legend: %q, %q", c.TargetLabel, c.ActualLabel)
	}
	want := enumerate(2, 6, 1)
	s := c.Series[0]
	if s.Min != 3 || len(s.P) != 11 {
		t.Fatalf("totals %d..%d, want 3..13", s.Min, s.Min+int64(len(s.P))-1)
	}
	for i, p := range s.P {
		w, _ := want[s.Min+int64(i)].Float64()
		if d := p - w; d > 1e-12 || d < -1e-12 {
			t.Errorf("P(=%d) = %g, want %g", s.Min+int64(i), p, w)
		}
	}
	text := reply.PlainText(reply.WithChartText(rep))
	if !strings.Contains(text, " 8 ████████████████ 16,67 % 🎯 👈") || !strings.Contains(text, "📊 Probabilidad: 58,33 %") {
		t.Errorf("the text form marks the target and the result:\n%s", text)
	}
	// Without a target the result is still marked.
	rep = run(t, r, "en", "/roll 3d6 ?", 1, 2, 3)
	if rep.Chart == nil || rep.Chart.Target != nil || rep.Chart.Actual == nil || *rep.Chart.Actual != 6 {
		t.Errorf("3d6 ?: %+v", rep.Chart)
	}
	// A success pool: the count of successes, marked.
	rep = run(t, r, "es", "/roll 3d10>8 vs 2 ?", 9, 10, 1)
	if c := rep.Chart; c == nil || c.XLabel != "éxitos" || *c.Target != 2 || *c.Actual != 2 || c.Series[0].Min != 0 || len(c.Series[0].P) != 4 {
		t.Errorf("pool: %+v", rep.Chart)
	}
	if rep := run(t, r, "en", "/roll 2d6 vs 8", 6, 1); rep.Chart != nil {
		t.Errorf("a roll without ? carries a chart")
	}
	if rep := run(t, r, "en", "/roll 3#2d6 vs 8 ?"); rep.Chart == nil || rep.Chart.Actual != nil {
		t.Errorf("3#2d6 ?: the chart has no single result to mark: %+v", rep.Chart)
	}
}

// An explosion's chart says where its tail was cut and marks its figures
// "≈"; a long exact distribution folds its ends, which weigh less than
// 0.05 % each, into "≤ x" and "≥ x" rows whose figures are exact sums.
func TestChartTextTailsAndCut(t *testing.T) {
	r := oddsRouter(t)
	rep := run(t, r, "es", "/odds 3d6!")
	text := reply.PlainText(&reply.Reply{Lines: rep.Chart.Text})
	cut := "≈ cortado pasado el " + minus(maxOf(t, reply.PlainText(rep))) + ":"
	if !strings.Contains(text, cut) || !strings.Contains(text, "≈26,39 %") {
		t.Errorf("lacks %q or the ≈ figures:\n%s", cut, text)
	}
	if rep.Chart.Note == "" || !rep.Chart.Series[0].Approx {
		t.Errorf("the picture is not told it is approximate: %+v", rep.Chart)
	}
	last := rep.Chart.Text[len(rep.Chart.Text)-2]
	if !strings.HasPrefix(strings.TrimSpace(last[0].Text), "≥") {
		t.Errorf("the cut tail is not one ≥ row: %q", last[0].Text)
	}
	// 6d6: P(6)+P(7) = 7/46656 < 0.05 % ≤ P(≤8); the same at the top.
	d := enumerate(6, 6, 0)
	rows := run(t, r, "en", "/odds 6d6").Chart.Text
	lowP := new(big.Rat).Add(d[6], d[7])
	first := reply.PlainText(&reply.Reply{Lines: rows[1:2]})
	if want := "≤7"; !strings.HasPrefix(strings.TrimSpace(first), want) || !strings.HasSuffix(first, command.Percent("en", lowP)) {
		t.Errorf("first row %q, want %s … %s", first, want, command.Percent("en", lowP))
	}
	lastRow := reply.PlainText(&reply.Reply{Lines: rows[len(rows)-1:]})
	if !strings.HasPrefix(strings.TrimSpace(lastRow), "≥35") || !strings.HasSuffix(lastRow, command.Percent("en", lowP)) {
		t.Errorf("last row %q, want ≥35 … %s", lastRow, command.Percent("en", lowP))
	}
}

// maxOf reads N from the summary's "a ≥N".
func maxOf(t *testing.T, text string) int64 {
	t.Helper()
	_, after, ok := strings.Cut(text, "a ≥")
	if !ok {
		t.Fatalf("no ≥ maximum in %q", text)
	}
	var n int64
	for _, c := range after {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	return n
}
