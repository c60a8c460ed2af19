package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"zaria/core/reply"
)

// ExpectedColor draws a fair die's count on a fairness picture.
var ExpectedColor = color.RGBA{R: 0xea, G: 0x58, B: 0x0c, A: 0xff} // orange, as the P(≥ x) line

// countsPNG draws a fairness picture (/stats): one panel per die size,
// stacked, with a bar per face and a dashed line at the expected count.
func countsPNG(c *reply.Chart) ([]byte, error) {
	rows := make([][]*plot.Plot, len(c.Counts))
	for i, k := range c.Counts {
		p, err := countsPanel(c, k, i == 0)
		if err != nil {
			return nil, err
		}
		rows[i] = []*plot.Plot{p}
	}
	w, h := vg.Length(Width)*vg.Inch/dpi, vg.Length(Height)*vg.Inch/dpi
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: len(rows), Cols: 1, PadTop: vg.Points(8), PadBottom: vg.Points(8), PadLeft: vg.Points(8), PadRight: vg.Points(14), PadY: vg.Points(10)}
	canvases := plot.Align(rows, tiles, dc)
	for i := range rows {
		rows[i][0].Draw(canvases[i][0])
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img.Image()); err != nil {
		return nil, fmt.Errorf("chart: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

func countsPanel(c *reply.Chart, k reply.Counts, first bool) (*plot.Plot, error) {
	p := plot.New()
	p.BackgroundColor = color.White
	p.Title.Text = noEmoji(k.Title)
	if first && c.Title != "" {
		p.Title.Text = noEmoji(c.Title) + "\n" + p.Title.Text
	}
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.Equal
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(12)
		a.Tick.Label.Font.Size = vg.Points(11)
	}
	p.Add(plotter.NewGrid())
	xys := make(plotter.XYs, len(k.Observed))
	top := k.Expected
	for i, o := range k.Observed {
		xys[i] = plotter.XY{X: float64(i + 1), Y: float64(o)}
		top = math.Max(top, float64(o))
	}
	p.Add(&bars{xys: xys, color: BarColor})
	n := float64(len(k.Observed))
	l, err := plotter.NewLine(plotter.XYs{{X: 0.4, Y: k.Expected}, {X: n + 0.6, Y: k.Expected}})
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	l.Color, l.Width = ExpectedColor, vg.Points(2.5)
	l.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
	p.Add(l)
	if first && c.ExpectedLabel != "" {
		p.Legend.Add(c.ExpectedLabel, l)
		p.Legend.Top = true
		p.Legend.TextStyle.Font.Size = vg.Points(11)
	}
	p.X.Min, p.X.Max = 0.4, n+0.6
	p.Y.Min, p.Y.Max = 0, math.Max(top*1.1, 1)
	p.X.Tick.Marker = plot.TickerFunc(integerTicks)
	p.Y.Tick.Marker = plot.TickerFunc(integerTicks) // counts are whole
	return p, nil
}

// noEmoji drops the emoji of a title (✅, ⚠️), which the embedded fonts
// do not draw; the words of the verdict stay.
func noEmoji(s string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if (r >= 0x2600 && r <= 0x27bf) || r >= 0x1f000 || r == 0xfe0f {
			return -1
		}
		return r
	}, s)), " ")
}
