package chart_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"zaria/adapters/chart"
	"zaria/core/reply"
)

func same(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	return uint8(r>>8) == want.R && uint8(g>>8) == want.G && uint8(b>>8) == want.B
}

// runs returns the [start, end) pixel columns where row y has colour want.
func runs(img image.Image, y int, want color.RGBA) [][2]int {
	var out [][2]int
	b := img.Bounds()
	start := -1
	for x := b.Min.X; x <= b.Max.X; x++ {
		in := x < b.Max.X && same(img.At(x, y), want)
		switch {
		case in && start < 0:
			start = x
		case !in && start >= 0:
			out = append(out, [2]int{start, x})
			start = -1
		}
	}
	return out
}

// threeD6 is the exact distribution of 3d6, written out by hand.
func threeD6() reply.Series {
	counts := []float64{1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1}
	p := make([]float64, len(counts))
	for i, c := range counts {
		p[i] = c / 216
	}
	return reply.Series{Label: "3d6", Min: 3, P: p}
}

func decode(t *testing.T, c *reply.Chart) image.Image {
	t.Helper()
	b, err := chart.PNG(c)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if got := img.Bounds().Size(); got.X != chart.Width || got.Y != chart.Height {
		t.Fatalf("size %v, want %d×%d", got, chart.Width, chart.Height)
	}
	return img
}

func TestPNGBarsAndTarget(t *testing.T) {
	target, actual := int64(12), int64(7)
	img := decode(t, &reply.Chart{Title: "3d6 vs 12", XLabel: "σύνολο", Equal: "Ακριβώς", AtLeast: "Τουλάχιστον",
		Series: []reply.Series{threeD6()}, Target: &target, Actual: &actual})

	// A row just above the x axis of the top panel crosses every bar: find
	// the lowest row of the top half with bar pixels.
	y := -1
	for yy := chart.Height / 2; yy > 0; yy-- {
		if len(runs(img, yy, chart.BarColor)) > 0 {
			y = yy
			break
		}
	}
	if y < 0 {
		t.Fatal("no bars drawn")
	}
	bars := runs(img, y-2, chart.BarColor)
	// The target and actual lines cross bars 12 and 7 and split them.
	if len(bars) < 16 || len(bars) > 18 {
		t.Fatalf("%d bar runs at row %d, want 16 (one per total 3..18, two split by the marks): %v", len(bars), y-2, bars)
	}
	left, right := bars[0], bars[len(bars)-1]
	centre := func(r [2]int) float64 { return float64(r[0]+r[1]) / 2 }
	// Totals are evenly spaced: total x sits at this pixel.
	px := func(x int64) float64 {
		return centre(left) + float64(x-3)*(centre(right)-centre(left))/15
	}
	// Bars where the chance is high are taller: the bar of 10 reaches
	// higher than the bar of 3.
	top := func(x int64) int {
		col := int(px(x))
		for yy := 0; yy < chart.Height/2; yy++ {
			if same(img.At(col, yy), chart.BarColor) {
				return yy
			}
		}
		return chart.Height
	}
	if !(top(10) < top(6) && top(6) < top(3)) {
		t.Errorf("bar tops: 10 at %d, 6 at %d, 3 at %d: want higher bars for likelier totals", top(10), top(6), top(3))
	}
	for _, m := range []struct {
		name string
		at   int64
		c    color.RGBA
	}{{"target", target, chart.TargetColor}, {"actual", actual, chart.ActualColor}} {
		found := false
		for yy := 0; yy < chart.Height && !found; yy++ {
			for _, r := range runs(img, yy, m.c) {
				if d := centre(r) - px(m.at); d > -3 && d < 3 {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s mark not drawn at total %d (pixel %.0f)", m.name, m.at, px(m.at))
		}
	}
}

func TestPNGComparesSeveral(t *testing.T) {
	a := threeD6()
	b := threeD6()
	b.Min, b.Label = 4, "3d6+1"
	img := decode(t, &reply.Chart{Title: "A · B", XLabel: "total", Equal: "Exactly", AtLeast: "At least", Series: []reply.Series{a, b}})
	var blue, orange bool
	for y := 0; y < chart.Height; y++ {
		blue = blue || len(runs(img, y, chart.BarColor)) > 0
		orange = orange || len(runs(img, y, chart.LineColor)) > 0
	}
	if !blue || !orange {
		t.Errorf("two series, two colours: blue %v, orange %v", blue, orange)
	}
}

func TestPNGRefusesNothing(t *testing.T) {
	if _, err := chart.PNG(&reply.Chart{}); err == nil {
		t.Error("a chart without series drew a picture")
	}
}

// The note of an approximate chart (where an explosion was cut) is drawn.
func TestPNGDrawsNote(t *testing.T) {
	c := &reply.Chart{Title: "3d6!", XLabel: "total", Equal: "Exactly", AtLeast: "At least", Series: []reply.Series{threeD6()}}
	plain, err := chart.PNG(c)
	if err != nil {
		t.Fatal(err)
	}
	c.Note = "≈ cut past 306: what lies beyond weighs less than one in a trillion."
	decode(t, c)
	noted, _ := chart.PNG(c)
	if bytes.Equal(plain, noted) {
		t.Error("the note changed nothing in the picture")
	}
}

// A fairness picture (/stats) has one panel per die size: a bar for each
// face (the loaded face the tallest) and the expected count as a line.
func TestPNGFairness(t *testing.T) {
	img := decode(t, &reply.Chart{Title: "Are the dice fair?", XLabel: "όψη", Equal: "φορές", ExpectedLabel: "ένα τίμιο ζάρι",
		Counts: []reply.Counts{
			{Title: "d4 · n = 100 · ⚠️", Observed: []int{10, 10, 10, 70}, Expected: 25},
			{Title: "d6 · n = 300 · ✅", Observed: []int{50, 50, 50, 50, 50, 50}, Expected: 50},
		}})
	// The d4 panel is the top half: the bar of face 4 rises highest, and
	// four bar runs cross a row low in that panel.
	var d4Row int
	for y := chart.Height/2 - 1; y > 0; y-- {
		if len(runs(img, y, chart.BarColor)) == 4 {
			d4Row = y
			break
		}
	}
	if d4Row == 0 {
		t.Fatal("no row of the d4 panel crosses four bars")
	}
	bars := runs(img, d4Row, chart.BarColor)
	height := func(r [2]int) int {
		col := (r[0] + r[1]) / 2
		for y := 0; y < d4Row; y++ { // the highest bar pixel (the expected line crosses the bar)
			if same(img.At(col, y), chart.BarColor) {
				return d4Row - y
			}
		}
		return 0
	}
	if h1, h4 := height(bars[0]), height(bars[3]); h4 < 5*h1 {
		t.Errorf("face 4 (70) is %d px, face 1 (10) %d px: want about 7 times as tall", h4, h1)
	}
	orange := false
	for y := 0; y < chart.Height/2; y++ {
		orange = orange || len(runs(img, y, chart.ExpectedColor)) > 0
	}
	if !orange {
		t.Error("no expected-count line in the d4 panel")
	}
	// The lower half holds the d6's six bars.
	six := false
	for y := chart.Height - 1; y > chart.Height/2; y-- {
		six = six || len(runs(img, y, chart.BarColor)) == 6
	}
	if !six {
		t.Error("no d6 panel with six bars")
	}
}

// The marks are named in a legend when the chart names them.
func TestPNGLegendNamesMarks(t *testing.T) {
	target, actual := int64(12), int64(7)
	c := &reply.Chart{Title: "3d6", XLabel: "total", Equal: "Exactly", AtLeast: "At least", Series: []reply.Series{threeD6()}, Target: &target, Actual: &actual}
	bare, err := chart.PNG(c)
	if err != nil {
		t.Fatal(err)
	}
	c.TargetLabel, c.ActualLabel = "target", "your roll"
	named, err := chart.PNG(c)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(bare, named) {
		t.Error("the legend drew nothing")
	}
}
