// Package chart draws a core reply.Chart as a PNG picture for the chat
// adapters that send pictures (Telegram sendPhoto, Matrix m.image), with
// gonum.org/v1/plot and its embedded Liberation fonts (Latin and Greek,
// nothing from the network).
//
// The picture is Width × Height pixels, made for a phone: on top the
// chance of each total (bars for one roll, lines for several compared), at
// the bottom the chance of at least each total; the target is a red dashed
// line and the roll being explained a green one. The background is white
// with a grey frame, so the picture reads the same in light and dark chat
// themes.
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"zaria/core/reply"
)

// Size of the picture in pixels.
const (
	Width  = 800
	Height = 900
	dpi    = 96
)

// Colours of the picture. Tests find the marks by them.
var (
	BarColor    = color.RGBA{R: 0x25, G: 0x63, B: 0xeb, A: 0xff} // blue
	LineColor   = color.RGBA{R: 0xea, G: 0x58, B: 0x0c, A: 0xff} // orange
	TargetColor = color.RGBA{R: 0xdc, G: 0x26, B: 0x26, A: 0xff} // red
	ActualColor = color.RGBA{R: 0x16, G: 0xa3, B: 0x4a, A: 0xff} // green
	// seriesColors draw the rolls compared, in order.
	seriesColors = []color.Color{BarColor, LineColor, color.RGBA{R: 0x93, G: 0x33, B: 0xea, A: 0xff}}
)

// PNG draws c.
func PNG(c *reply.Chart) ([]byte, error) {
	if c != nil && len(c.Counts) > 0 {
		return countsPNG(c)
	}
	if c == nil || len(c.Series) == 0 {
		return nil, fmt.Errorf("chart: nothing to draw")
	}
	top, err := panel(c, false)
	if err != nil {
		return nil, err
	}
	bottom, err := panel(c, true)
	if err != nil {
		return nil, err
	}
	top.Title.Text = c.Title
	if c.Note != "" {
		// Where an explosion's tail was cut, under the title: the picture
		// says it is approximate as the text does.
		bottom.Title.Text = c.Note
		bottom.Title.TextStyle.Font.Size = vg.Points(11)
	}
	w, h := vg.Length(Width)*vg.Inch/dpi, vg.Length(Height)*vg.Inch/dpi
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(8), PadBottom: vg.Points(8), PadLeft: vg.Points(8), PadRight: vg.Points(14), PadY: vg.Points(12)}
	canvases := plot.Align([][]*plot.Plot{{top}, {bottom}}, tiles, dc)
	top.Draw(canvases[0][0])
	bottom.Draw(canvases[1][0])
	var buf bytes.Buffer
	// Fast compression: a chart of flat colours compresses well anyway.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img.Image()); err != nil {
		return nil, fmt.Errorf("chart: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// panel builds one of the two panels: P(= x), or P(≥ x) when atLeast.
func panel(c *reply.Chart, atLeast bool) (*plot.Plot, error) {
	p := plot.New()
	p.BackgroundColor = color.White
	p.Title.TextStyle.Font.Size = vg.Points(15)
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.Equal + " (%)"
	if atLeast {
		p.Y.Label.Text = c.AtLeast + " (%)"
	}
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(13)
		a.Tick.Label.Font.Size = vg.Points(12)
	}
	p.Add(plotter.NewGrid())
	lo, hi := span(c)
	top := 0.0
	for i, s := range c.Series {
		vals := s.P
		if atLeast {
			vals = s.AtLeast()
		}
		xys := points(s.Min, vals, lo, hi, !atLeast)
		for _, xy := range xys {
			top = max(top, xy.Y)
		}
		if len(xys) == 0 {
			continue
		}
		if !atLeast && len(c.Series) == 1 {
			p.Add(&bars{xys: xys, color: BarColor})
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		l.Color = seriesColors[i%len(seriesColors)]
		if len(c.Series) == 1 {
			l.Color = LineColor
		}
		l.Width = vg.Points(2.5)
		p.Add(l)
		if len(c.Series) > 1 && !atLeast {
			p.Legend.Add(s.Label, l)
		}
	}
	if len(c.Series) > 1 {
		p.Legend.Top = true
		p.Legend.TextStyle.Font.Size = vg.Points(12)
	}
	p.Y.Min, p.Y.Max = 0, math.Max(top*1.05, 1)
	if atLeast {
		p.Y.Max = 100
	}
	p.X.Min, p.X.Max = lo-0.6, hi+0.6
	p.X.Tick.Marker = plot.TickerFunc(integerTicks)
	for _, m := range []struct {
		at    *int64
		color color.Color
		dash  bool
		label string
	}{{c.Target, TargetColor, true, c.TargetLabel}, {c.Actual, ActualColor, false, c.ActualLabel}} {
		if m.at == nil {
			continue
		}
		x := float64(*m.at)
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: p.Y.Max}})
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		l.Color, l.Width = m.color, vg.Points(2.5)
		if m.dash {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
		}
		p.Add(l)
		if m.label != "" && !atLeast {
			p.Legend.Add(m.label+" "+strconv.FormatInt(*m.at, 10), l)
			p.Legend.Top = true
			p.Legend.TextStyle.Font.Size = vg.Points(12)
		}
	}
	return p, nil
}

// maxPoints is the most points drawn per series: about one per two pixel
// columns. Longer distributions are drawn in bins.
const maxPoints = 400

// points are the values of totals lo..hi in percent, binned when there
// are more than maxPoints: a bin shows the mean chance of its totals
// (mean, so the axis still reads "chance of one total") when mean is set,
// else the value at its first total (a cumulative line).
func points(first int64, vals []float64, lo, hi float64, mean bool) plotter.XYs {
	from := max(0, int(lo)-int(first))
	to := min(len(vals), int(hi)-int(first)+1)
	if to <= from {
		return nil
	}
	n := to - from
	step := (n + maxPoints - 1) / maxPoints
	xys := make(plotter.XYs, 0, n/step+1)
	for i := from; i < to; i += step {
		j := min(i+step, to)
		v := vals[i]
		x := float64(first + int64(i))
		if mean && step > 1 {
			v = 0
			for _, p := range vals[i:j] {
				v += p
			}
			v /= float64(j - i)
			x = float64(first) + float64(i+j-1)/2
		}
		xys = append(xys, plotter.XY{X: x, Y: 100 * v})
	}
	return xys
}

// span is the range of totals drawn: every total whose chance is visible
// (an explosion's endless tail is cut where it rounds to nothing on the
// picture), and the marks.
func span(c *reply.Chart) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		peak := 0.0
		for _, v := range s.P {
			peak = max(peak, v)
		}
		for j, v := range s.P {
			if v > 0 && v >= peak/500 {
				x := float64(s.Min + int64(j))
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	for _, m := range []*int64{c.Target, c.Actual} {
		if m != nil {
			lo, hi = min(lo, float64(*m)), max(hi, float64(*m))
		}
	}
	if math.IsInf(lo, 0) {
		return 0, 1
	}
	return lo, hi
}

// bars draws one bar per total, centred on it, from 0 to its value.
type bars struct {
	xys   plotter.XYs
	color color.Color
}

func (b *bars) Plot(c draw.Canvas, plt *plot.Plot) {
	tx, ty := plt.Transforms(&c)
	half := 0.4
	if len(b.xys) > 1 {
		// Binned bars are as wide as their bin.
		half = max(half, (b.xys[1].X-b.xys[0].X)*0.4)
	}
	if len(b.xys) > 60 {
		half = (b.xys[1].X - b.xys[0].X) / 2 // many thin bars: no gaps
	}
	for _, xy := range b.xys {
		if xy.Y <= 0 {
			continue
		}
		x0, x1 := tx(xy.X-half), tx(xy.X+half)
		if x1-x0 < vg.Points(0.75) {
			x1 = x0 + vg.Points(0.75)
		}
		y0, y1 := ty(0), ty(xy.Y)
		c.FillPolygon(b.color, c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
	}
}

// DataRange makes the axes include the bars.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	return plotter.XYRange(b.xys)
}

// integerTicks labels whole totals only, at a round step (1, 2, 5, 10, 20,
// 50…) that gives at most about ten labels.
func integerTicks(lo, hi float64) []plot.Tick {
	step := 1.0
	for k := 0; (hi-lo)/step > 10; k++ {
		step *= []float64{2, 2.5, 2}[k%3]
	}
	var ticks []plot.Tick
	for x := math.Ceil(lo/step) * step; x <= hi; x += step {
		ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', 0, 64)})
	}
	return ticks
}
