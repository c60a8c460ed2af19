package roll

import (
	"strings"
	"testing"

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
	if rep := run(t, r, "en", "/roll 2d6 vs 8", 6, 1); rep.Chart != nil {
		t.Errorf("a roll without ? carries a chart")
	}
	if rep := run(t, r, "en", "/roll 3#2d6 vs 8 ?"); rep.Chart == nil || rep.Chart.Actual != nil {
		t.Errorf("3#2d6 ?: the chart has no single result to mark: %+v", rep.Chart)
	}
}
