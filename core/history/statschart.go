package history

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
)

// Limits of the fairness picture of /stats.
const (
	// MaxChartSizes is how many die sizes the picture shows: the most
	// rolled ones (the text lists every size).
	MaxChartSizes = 4
	// MaxChartFaces is the largest die drawn face by face (a d100 is; a
	// d1000 is left to the text's least/most line).
	MaxChartFaces = 100
	// maxTextFaces is the largest die the chart in characters lists face
	// by face, one line each.
	maxTextFaces  = 20
	statsBarWidth = 16
)

// fairnessChart is the fairness picture of /stats: for the most rolled
// die sizes (at most MaxChartSizes, up to MaxChartFaces faces), the
// observed count of each face against the expected one, titled with the
// χ² verdict in words. Nil when no size can be drawn.
func fairnessChart(req *command.Request, sizes []SizeCount) *reply.Chart {
	var use []SizeCount
	for _, sz := range sizes {
		if sz.Sides >= 2 && sz.Sides <= MaxChartFaces {
			use = append(use, sz)
		}
	}
	if len(use) == 0 {
		return nil
	}
	sort.SliceStable(use, func(i, j int) bool { return use[i].N > use[j].N })
	use = use[:min(len(use), MaxChartSizes)]
	sort.Slice(use, func(i, j int) bool { return use[i].Sides < use[j].Sides })
	c := &reply.Chart{
		Title:         req.T("odds.stats.title"),
		XLabel:        req.T("odds.stats.x"),
		Equal:         req.T("odds.stats.y"),
		ExpectedLabel: req.T("odds.stats.expected"),
	}
	for _, sz := range use {
		f := FairnessOf(sz.Sides, sz.Faces)
		obs := make([]int, sz.Sides)
		for _, fc := range sz.Faces {
			if fc.Sides == sz.Sides && fc.Face >= 1 && fc.Face <= sz.Sides {
				obs[fc.Face-1] += fc.Count
			}
		}
		c.Counts = append(c.Counts, reply.Counts{Title: fairnessTitle(req, f), Observed: obs, Expected: f.Expected})
	}
	c.Text = countsText(req, c)
	return c
}

// fairnessTitle is "d6 · 600 dice · χ² 4,2 · p 0,52 · ✅ looks fair".
func fairnessTitle(req *command.Request, f Fairness) string {
	verdict := req.T("odds.stats.too_few")
	if f.Enough {
		verdict = req.TP("stats.fair")
		if f.P < 0.01 {
			verdict = req.TP("stats.unfair")
		}
	}
	return req.T("odds.stats.panel", "sides", f.Sides, "count", f.N,
		"chi", command.Fixed(req.Lang, f.ChiSq, 1), "p", pValue(req.Lang, f.P), "verdict", verdict)
}

// countsText draws each size in characters: one line per face, the bar
// scaled to the most frequent face, "·" where the expected count falls.
func countsText(req *command.Request, c *reply.Chart) []reply.Line {
	var lines []reply.Line
	for _, k := range c.Counts {
		lines = append(lines, reply.Line{reply.B(k.Title)})
		if len(k.Observed) > maxTextFaces {
			continue
		}
		top := k.Expected
		for _, o := range k.Observed {
			top = max(top, float64(o))
		}
		if top == 0 {
			continue
		}
		exp := int(math.Round(k.Expected / top * statsBarWidth))
		w := len(strconv.Itoa(len(k.Observed)))
		for i, o := range k.Observed {
			n := int(math.Round(float64(o) / top * statsBarWidth))
			bar := []rune(strings.Repeat("█", n) + strings.Repeat(" ", statsBarWidth-n))
			if exp > n && exp <= statsBarWidth {
				bar[exp-1] = '┆'
			}
			face := strconv.Itoa(i + 1)
			lines = append(lines, reply.Line{reply.C(strings.Repeat(" ", w-len(face)) + face + " " + string(bar) + " " + strconv.Itoa(o))})
		}
		lines = append(lines, reply.Line{reply.I(req.T("odds.stats.expected_each", "expected", command.Fixed(req.Lang, k.Expected, 1)))})
	}
	return lines
}
