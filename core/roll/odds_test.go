package roll

import (
	"math/big"
	"strconv"
	"strings"
	"testing"

	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
)

func oddsRouter(t testing.TB) *command.Router {
	r := newRouter(t, sheets{".fuerza": 3})
	RegisterOdds(r)
	return r
}

// enumerate computes the distribution of the sum of n dice of s faces
// plus add by brute force, independently of core/dice.
func enumerate(n, s, add int) map[int64]*big.Rat {
	counts := map[int64]int64{}
	total := int64(1)
	for range n {
		total *= int64(s)
	}
	for k := int64(0); k < total; k++ {
		sum, x := int64(add), k
		for range n {
			sum += x%int64(s) + 1
			x /= int64(s)
		}
		counts[sum]++
	}
	out := map[int64]*big.Rat{}
	for v, c := range counts {
		out[v] = big.NewRat(c, total)
	}
	return out
}

func atLeastOf(d map[int64]*big.Rat, x int64) *big.Rat {
	p := new(big.Rat)
	for v, q := range d {
		if v >= x {
			p.Add(p, q)
		}
	}
	return p
}

// tableRows returns the "at least" rows of a reply: total → the texts of
// its columns.
func tableOf(t *testing.T, rep *reply.Reply) map[int64][]string {
	t.Helper()
	out := map[int64][]string{}
	for _, l := range rep.Lines {
		if len(l) == 0 || l[0].Style != reply.Code || !strings.HasPrefix(l[0].Text, "≥") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(l[0].Text, "≥"))
		var cols []string
		for i := 1; i < len(f); i++ { // "37,5" "%" pairs (es, el) or "37.5%" (en)
			if i+1 < len(f) && f[i+1] == "%" {
				cols = append(cols, f[i]+" %")
				i++
			} else {
				cols = append(cols, f[i])
			}
		}
		x, ok := new(big.Int).SetString(strings.ReplaceAll(f[0], "−", "-"), 10)
		if !ok {
			t.Fatalf("row %q: total not a number", l[0].Text)
		}
		out[x.Int64()] = cols
	}
	return out
}

func TestOddsTableIsExact(t *testing.T) {
	r := oddsRouter(t)
	for _, tc := range []struct {
		text      string
		n, s, add int
	}{
		{"/odds 3d6 vs 12", 3, 6, 0},
		{"/odds 2d10+3", 2, 10, 3},
		{"/odds 1d20+fuerza", 1, 20, 3},
		{"/probabilidad 4d4", 4, 4, 0},
	} {
		for _, lang := range []string{"es", "el", "en"} {
			rep := run(t, r, lang, tc.text)
			if rep.Error {
				t.Fatalf("%s %s: %s", lang, tc.text, reply.PlainText(rep))
			}
			want := enumerate(tc.n, tc.s, tc.add)
			rows := tableOf(t, rep)
			if len(rows) < 5 || len(rows) > MaxTableRows {
				t.Errorf("%s %s: %d rows, want 5..%d:\n%s", lang, tc.text, len(rows), MaxTableRows, reply.PlainText(rep))
			}
			for x, cols := range rows {
				if got, want := cols[0], command.Percent(lang, atLeastOf(want, x)); got != want {
					t.Errorf("%s %s: ≥%d = %s, want %s", lang, tc.text, x, got, want)
				}
			}
			// The chart carries P(= x) of every total.
			s := rep.Chart.Series[0]
			for i, p := range s.P {
				w, _ := want[s.Min+int64(i)].Float64()
				if d := p - w; d > 1e-12 || d < -1e-12 {
					t.Errorf("%s: P(=%d) = %g, want %g", tc.text, s.Min+int64(i), p, w)
				}
			}
			if len(s.P) != len(want) {
				t.Errorf("%s: %d totals drawn, want %d", tc.text, len(s.P), len(want))
			}
		}
	}
}

func TestOddsSummary(t *testing.T) {
	r := oddsRouter(t)
	rep := run(t, r, "es", "/odds 3d6 vs 12")
	text := reply.PlainText(rep)
	for _, want := range []string{
		"Media 10,5 · desviación 2,96 · de 3 a 18", // σ² = 3·35/12 = 8,75
		"🎯 12 o más: 37,5 %",                       // 81/216
		"≥12    37,5 % 🎯",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	if c := rep.Chart; c == nil || c.Target == nil || *c.Target != 12 || c.XLabel != "total" {
		t.Errorf("chart: %+v", rep.Chart)
	}
	el := reply.PlainText(run(t, r, "el", "!πιθανότητες 3d6"))
	if !strings.Contains(el, "Μέσος όρος 10,5 · απόκλιση 2,96 · από 3 έως 18") || !strings.Contains(el, "Τουλάχιστον:") {
		t.Errorf("Greek:\n%s", el)
	}
	en := reply.PlainText(run(t, r, "en", "/odds 1d6-10"))
	if !strings.Contains(en, "Mean −6.5") || !strings.Contains(en, "−9 to −4") {
		t.Errorf("negative totals take the minus sign:\n%s", en)
	}
}

// TestOddsTableSaysItsStep: a table that skips totals skips the same
// number each time and says so in its header (issue 23: "≥7 then ≥9"
// looked like a bug); a short one shows every total.
func TestOddsTableSaysItsStep(t *testing.T) {
	r := oddsRouter(t)
	for _, c := range []struct {
		lang, in, head string
		step           int64
	}{
		{"es", "/odds 10d6", "Al menos (de 3 en 3):", 3},
		{"en", "/odds 10d6", "At least (in steps of 3):", 3},
		{"el", "/odds 10d6", "Τουλάχιστον (ανά 3):", 3},
		{"es", "/odds 3d6", "Al menos:", 1},
		{"en", "/odds 4d6kh3", "At least:", 1},
	} {
		rep := run(t, r, c.lang, c.in)
		if !strings.Contains(plain(rep), "\n"+c.head+"\n") {
			t.Errorf("%s %s:\n%s\nwant the header %q", c.lang, c.in, plain(rep), c.head)
		}
		var xs []int64
		for x := range tableOf(t, rep) {
			xs = append(xs, x)
		}
		sortAsc(xs)
		for i := 1; i < len(xs); i++ {
			if xs[i]-xs[i-1] != c.step {
				t.Errorf("%s: rows %v, want a step of %d", c.in, xs, c.step)
				break
			}
		}
	}
}

// TestOddsSideBySideChartsBoth: the chart in characters draws every roll
// compared, not only the first (issue 23).
func TestOddsSideBySideChartsBoth(t *testing.T) {
	r := oddsRouter(t)
	rep := run(t, r, "en", "/odds 4d6kh3 | 3d6+1")
	text := reply.PlainText(&reply.Reply{Lines: rep.Chart.Text})
	for _, want := range []string{"Exactly · A 4d6kh3", "Exactly · B 3d6+1", "19 "} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
}

func TestOddsSideBySide(t *testing.T) {
	r := oddsRouter(t)
	rep := run(t, r, "en", "/odds 4d6kh3 | 3d6+1")
	if rep.Error || len(rep.Chart.Series) != 2 {
		t.Fatalf("%s", reply.PlainText(rep))
	}
	b := enumerate(3, 6, 1)
	for x, cols := range tableOf(t, rep) {
		if len(cols) != 2 {
			t.Fatalf("≥%d: %v, want two columns", x, cols)
		}
		if want := command.Percent("en", atLeastOf(b, x)); cols[1] != want {
			t.Errorf("B ≥%d = %s, want %s", x, cols[1], want)
		}
	}
	text := reply.PlainText(rep)
	if !strings.Contains(text, "📊 A 4d6kh3") || !strings.Contains(text, "📊 B 3d6+1") || !strings.Contains(text, "Mean 12.24") {
		t.Errorf("%s", text)
	}
}

func TestOddsBarChartText(t *testing.T) {
	r := oddsRouter(t)
	rep := run(t, r, "es", "/odds 2d6 vs 7")
	lines := rep.Chart.Text
	if len(lines) != 12 { // a title and one row per total 2..12
		t.Fatalf("%d lines:\n%s", len(lines), reply.PlainText(reply.WithChartText(rep)))
	}
	seven := reply.PlainText(&reply.Reply{Lines: lines[6:7]})
	if !strings.HasPrefix(seven, " 7 ████████████████ 16,67 % 🎯") {
		t.Errorf("the peak of 2d6 is the full bar with the target: %q", seven)
	}
	two := reply.PlainText(&reply.Reply{Lines: lines[1:2]})
	if !strings.HasPrefix(two, " 2 ██▋") || !strings.Contains(two, "2,78 %") { // 1/6 of the full bar
		t.Errorf("2: %q", two)
	}
	// Many totals are grouped into at most MaxBarRows rows.
	long := run(t, r, "es", "/odds 1d100").Chart.Text
	if len(long) > MaxBarRows+1 {
		t.Errorf("1d100: %d rows", len(long))
	}
}

func TestOddsErrors(t *testing.T) {
	r := oddsRouter(t)
	for _, tc := range []struct{ lang, text, want string }{
		{"es", "/odds", "/odds 4d6kh3"},
		{"en", "/odds 1d6 | ", "Which roll?"},
		{"es", "/odds 1d6 | 1d8 | 1d10 | 1d12", "como mucho 3"},
		{"el", "/odds 1d6 | 1d8 | 1d10 | 1d12", "το πολύ 3"},
		{"en", "/odds 1d6/0", "divide by zero"},
		{"en", "/odds 2x6", "I don't"},
	} {
		rep := run(t, r, tc.lang, tc.text)
		if !rep.Error || !strings.Contains(reply.PlainText(rep), tc.want) {
			t.Errorf("%s %q: %s, want an error with %q", tc.lang, tc.text, reply.PlainText(rep), tc.want)
		}
	}
}

// TestOddsSampledIsSaid: what the limits accept but exact work cannot
// reach within its budget (100d1000: 99,901 totals) is answered, not
// refused: sampled, marked ≈, and the text and the chart say from how many
// rolls (issue 40; it was "too big to compute").
func TestOddsSampledIsSaid(t *testing.T) {
	r := oddsRouter(t)
	e, err := dice.Parse("100d1000")
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.Odds(nil)
	if err != nil || !o.Sampled || o.Samples < 100 {
		t.Fatalf("100d1000: %+v, %v", o, err)
	}
	n := strconv.Itoa(o.Samples) // under 10,000: a sample of 100 dice costs 101 units
	for lang, want := range map[string]string{"es": "≈ estimación con " + n + " tiradas", "en": "≈ estimated from " + n + " rolls", "el": "≈ εκτίμηση από " + n + " ρίψεις"} {
		rep := run(t, r, lang, "/odds 100d1000")
		text := reply.PlainText(rep)
		if rep.Error || !strings.Contains(text, want) || !strings.Contains(text, "Media ≈") && lang == "es" {
			t.Errorf("%s: %s", lang, text)
			continue
		}
		if rep.Chart == nil || len(rep.Chart.Series) != 1 || rep.Chart.Series[0].Sampled != o.Samples || !strings.Contains(rep.Chart.Note, n) {
			t.Errorf("%s: the chart does not say it was sampled: %+v", lang, rep.Chart)
		}
	}
	// and the exact ones say nothing of samples
	if text := reply.PlainText(run(t, r, "en", "/odds 12d10!")); strings.Contains(text, "rolls:") || !strings.Contains(text, "≈ approximate") {
		t.Errorf("12d10!: %s", text)
	}
}

// TestOddsKeepAfterExplodeRange: a keep after an explosion has a ceiling
// (5d10!kh3: 3 to 30), printed as it is, not "≥30" (issue 40); its figures
// are still cut (≈) where more explosions weigh under 10⁻¹².
func TestOddsKeepAfterExplodeRange(t *testing.T) {
	r := oddsRouter(t)
	rep := run(t, r, "en", "/odds 5d10!kh3")
	text := reply.PlainText(rep)
	if rep.Error || !strings.Contains(text, "3 to 30") || strings.Contains(text, "≥30") || !strings.Contains(text, "≈") {
		t.Errorf("5d10!kh3:\n%s", text)
	}
	if rep.Chart == nil || !strings.Contains(rep.Chart.Note, "more explosions") {
		t.Errorf("5d10!kh3: chart note %q", rep.Chart.Note)
	}
}

func TestOddsApproxIsMarked(t *testing.T) {
	r := oddsRouter(t)
	text := reply.PlainText(run(t, r, "es", "/odds 3d6!"))
	if !strings.Contains(text, "Media ≈12,6") || !strings.Contains(text, "≈ aproximado") || !strings.Contains(text, "a ≥") {
		t.Errorf("an explosion is marked approximate and says where it was cut:\n%s", text)
	}
}

// /odds echoes each roll as typed: a zero-width or bidirectional character
// the parser skips never reaches the bot's lines or the chart.
func TestOddsEchoIsClean(t *testing.T) {
	r := oddsRouter(t)
	for _, s := range []string{"/odds 1d6\u200b+1", "/odds 3d6\u202e vs 12", "/odds 1d6 | 1d4\u2066+1"} {
		rep := run(t, r, "en", s)
		if rep.Error {
			t.Fatalf("%q: %s", s, plain(rep))
		}
		got := plain(rep)
		if rep.Chart != nil {
			got += rep.Chart.Title
			for _, se := range rep.Chart.Series {
				got += se.Label
			}
		}
		if strings.ContainsAny(got, "\u200b\u202e\u2066") {
			t.Errorf("%q: invisible characters in %q", s, got)
		}
	}
	if got := plain(run(t, r, "en", "/odds 1d6\u200b+1")); !strings.Contains(got, "📊 1d6+1") {
		t.Errorf("echo: %q", got)
	}
}

// Issue 23: the errors of /odds show the command as it was typed, prefix
// and name: a Spanish "!probabilidad" on Matrix is answered with
// "!probabilidad 4d6kh3", not "/odds"; a Greek chat on Telegram ("/")
// is not told to type "!πιθανότητες".
func TestOddsErrorsNameTheCommandAsTyped(t *testing.T) {
	r := oddsRouter(t)
	for _, tc := range []struct{ lang, text, want, bad string }{
		{"es", "!probabilidad", "por ejemplo: !probabilidad 4d6kh3 o !probabilidad 4d6kh3 | 3d6+1", "/"},
		{"es", "!prob 1d6|1d6|1d6|1d6", "Prueba: !prob 4d6kh3 | 3d6+1", "/"},
		{"es", "/probabilidad 1d6 |", "/probabilidad 4d6kh3", "odds"},
		{"el", "/odds", "για παράδειγμα: /odds 4d6kh3 ή /odds 4d6kh3 | 3d6+1", "!"},
		{"el", "!πιθανότητες 1d6|1d6|1d6|1d6", "Δοκίμασε: !πιθανότητες 4d6kh3 | 3d6+1", "odds"},
		{"en", "!odds", "for example: !odds 4d6kh3 or !odds 4d6kh3 | 3d6+1", "/"},
	} {
		rep := run(t, r, tc.lang, tc.text)
		got := reply.PlainText(rep)
		if !rep.Error || !strings.Contains(got, tc.want) || strings.Contains(got, tc.bad) {
			t.Errorf("%s %q: %s, want an error with %q and no %q", tc.lang, tc.text, got, tc.want, tc.bad)
		}
	}
}

// TestOddsHead: an odds reply marks its summary (the roll, its mean and
// chance) apart from the table that follows, for a compact view to show
// that and no more (the page's dice screen).
func TestOddsHead(t *testing.T) {
	r := oddsRouter(t)
	rep := run(t, r, "es", "/odds 3d6 vs 12")
	if rep.Head != 3 || len(rep.Lines) <= rep.Head {
		t.Fatalf("head %d of %d lines:\n%s", rep.Head, len(rep.Lines), reply.PlainText(rep))
	}
	head := reply.PlainText(&reply.Reply{Lines: rep.Lines[:rep.Head]})
	next := reply.PlainText(&reply.Reply{Lines: rep.Lines[rep.Head : rep.Head+1]})
	if !strings.HasPrefix(head, "📊") || !strings.Contains(head, "Media 10,5") || !strings.Contains(head, "🎯 12 o más: 37,5 %") || !strings.HasSuffix(strings.TrimSpace(next), ":") {
		t.Errorf("head:\n%s\nthen %q", head, next)
	}
}
