package history_test

import (
	"strings"
	"testing"
	"zaria/core/history"
	"zaria/core/reply"
	"zaria/internal/chattest"
)

// /stats carries a fairness picture: per die size, the times each face
// came up against a fair die's count, titled with the χ² verdict in words.
func TestStatsFairnessChart(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	var d6, d4, d20 []int
	for f := 1; f <= 6; f++ {
		for range 50 {
			d6 = append(d6, f)
		}
	}
	for i := range 100 {
		if i < 70 {
			d4 = append(d4, 4)
		} else {
			d4 = append(d4, 1+i%3)
		}
	}
	d20 = []int{20, 20, 3}
	observe(h, chatA, ana, 6, d6)
	observe(h, chatA, bob, 4, d4)
	observe(h, chatA, bob, 20, d20)
	_, rep := h.Send(chatA, ana, false, "/stats detail")
	c := rep.Chart
	if c == nil || len(c.Counts) != 3 || len(c.Series) != 0 {
		t.Fatalf("chart: %+v", c)
	}
	d4c, d6c, d20c := c.Counts[0], c.Counts[1], c.Counts[2]
	if got := d4c.Observed; len(got) != 4 || got[0] != 10 || got[1] != 10 || got[2] != 10 || got[3] != 70 || d4c.Expected != 25 {
		t.Errorf("d4: %+v", d4c)
	}
	if !strings.Contains(d4c.Title, "d4 · dice: 100 · χ² 108.0 · p < 0.001 · ⚠️ unusual") {
		t.Errorf("d4 title %q", d4c.Title)
	}
	if !strings.Contains(d6c.Title, "✅ looks fair") || d6c.Observed[5] != 50 || d6c.Expected != 50 {
		t.Errorf("d6: %+v", d6c)
	}
	if len(d20c.Observed) != 20 || d20c.Observed[19] != 2 || d20c.Observed[2] != 1 || !strings.Contains(d20c.Title, "too few rolls to judge") {
		t.Errorf("d20: %+v", d20c)
	}
	if c.XLabel != "face" || c.Equal != "times rolled" || c.ExpectedLabel != "a fair die" {
		t.Errorf("labels: %q %q %q", c.XLabel, c.Equal, c.ExpectedLabel)
	}
	// The text form: the loaded face has the full bar; the others stop
	// short of the fair die's mark.
	text := reply.PlainText(&reply.Reply{Lines: c.Text})
	for _, want := range []string{"4 ████████████████ 70", "1 ██   ┆           10", "┆ a fair die: 25.0 per face"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// The picture shows at most MaxChartSizes sizes, the most rolled ones,
// and no die larger than MaxChartFaces.
func TestStatsFairnessChartLimits(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	for i, sides := range []int{4, 6, 8, 10, 12, 1000} {
		faces := make([]int, 10+i*10)
		for j := range faces {
			faces[j] = 1 + j%sides
		}
		observe(h, chatA, ana, sides, faces)
	}
	_, rep := h.Send(chatA, ana, false, "/stats detail")
	if rep.Chart == nil || len(rep.Chart.Counts) != history.MaxChartSizes {
		t.Fatalf("chart: %+v", rep.Chart)
	}
	var got []string
	for _, k := range rep.Chart.Counts {
		got = append(got, strings.Fields(k.Title)[0])
	}
	if strings.Join(got, " ") != "d6 d8 d10 d12" {
		t.Errorf("sizes drawn %v, want the four most rolled up to d%d: d6 d8 d10 d12", got, history.MaxChartFaces)
	}
}
