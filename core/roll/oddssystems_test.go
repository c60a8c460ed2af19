package roll

import (
	"context"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

// The figures of /odds SYSTEM are checked against exact fractions
// enumerated here, die by die, from the rules as docs/ state them, not
// read back from core/systems.

func systemsRouter(t testing.TB) *command.Router {
	r := newRouter(t, sheets{".fuerza": 4})
	RegisterOdds(r)
	systems.Register(r)
	return r
}

var rowRe = regexp.MustCompile(`^(.*?)\s+([<>]?[0-9.,]+ ?%)$`)

// rowsOf returns the aligned rows of a reply (levels or outcomes): label →
// percentage, in order, from the first code span of each line.
func rowsOf(rep *reply.Reply) (labels, pcts []string) {
	for _, l := range rep.Lines {
		if len(l) == 0 || l[0].Style != reply.Code {
			continue
		}
		if m := rowRe.FindStringSubmatch(l[0].Text); m != nil {
			labels = append(labels, strings.TrimSpace(m[1]))
			pcts = append(pcts, m[2])
		}
	}
	return labels, pcts
}

var dcRange = regexp.MustCompile(`(\d+)(?:–(\d+))?$`)

func TestOddsZariaLevelsExact(t *testing.T) {
	r := systemsRouter(t)
	// A player character, stat+skill 6: 6 + ⌊(a+b)/2⌋ with two d10; 1,1 an
	// epic failure, 10,10 an epic success.
	chance := func(mod, dc int) *big.Rat {
		ok := int64(0)
		for a := 1; a <= 10; a++ {
			for b := 1; b <= 10; b++ {
				switch {
				case a == 10 && b == 10:
					ok++
				case a == 1 && b == 1:
				case mod+(a+b)/2 >= dc:
					ok++
				}
			}
		}
		return big.NewRat(ok, 100)
	}
	for _, lang := range []string{"es", "el", "en"} {
		for _, tc := range []struct {
			text string
			mod  int
		}{{"/odds zaria 4+2", 6}, {"/odds z fuerza+1", 5}, {"/odds ζαριά 1+0", 1}} {
			rep := run(t, r, lang, tc.text)
			if rep.Error {
				t.Fatalf("%s %s: %s", lang, tc.text, plain(rep))
			}
			labels, pcts := rowsOf(rep)
			seen := map[int]bool{}
			for i, l := range labels {
				m := dcRange.FindStringSubmatch(l)
				if m == nil {
					t.Fatalf("%s: row %q", tc.text, l)
				}
				lo, _ := strconv.Atoi(m[1])
				hi := lo
				if m[2] != "" {
					hi, _ = strconv.Atoi(m[2])
				}
				for dc := lo; dc <= hi; dc++ {
					seen[dc] = true
					if want := command.Percent(lang, chance(tc.mod, dc)); pcts[i] != want {
						t.Errorf("%s %s: DC %d = %s, want %s", lang, tc.text, dc, pcts[i], want)
					}
				}
			}
			if len(seen) != 26 || !seen[5] || !seen[30] {
				t.Errorf("%s %s: DCs %v, want 5..30:\n%s", lang, tc.text, seen, plain(rep))
			}
		}
	}
	text := plain(run(t, r, "el", "/odds ζαριά 4+2"))
	for _, want := range []string{"DC 10", "Εύκολο", "Μέτριο", "Ανυπέρβλητα Δύσκολο"} {
		if !strings.Contains(text, want) {
			t.Errorf("the seed's names: lacks %q:\n%s", want, text)
		}
	}
}

func TestOddsZariaTargetExact(t *testing.T) {
	r := systemsRouter(t)
	rep := run(t, r, "en", "/odds zaria 4+2 dc15")
	count := map[string]int64{}
	dist := map[int64]int64{}
	for a := 1; a <= 10; a++ {
		for b := 1; b <= 10; b++ {
			total := 6 + (a+b)/2
			dist[int64(total)]++
			m := total - 15
			switch {
			case a == 10 && b == 10:
				count["EPIC WIN"]++
			case a == 1 && b == 1:
				count["EPIC FAIL"]++
			case m >= 5:
				count["MAJOR WIN"]++
			case m > 0:
				count["Success"]++
			case m == 0:
				count["Marginal success"]++
			case m > -5:
				count["Failure"]++
			default:
				count["MAJOR FAIL"]++
			}
		}
	}
	labels, pcts := rowsOf(rep)
	if len(labels) == 0 {
		t.Fatalf("no outcomes:\n%s", plain(rep))
	}
	got := map[string]string{}
	for i, l := range labels {
		got[l] = pcts[i]
	}
	for k, n := range count {
		if want := command.Percent("en", big.NewRat(n, 100)); got[k] != want {
			t.Errorf("%s = %q, want %s:\n%s", k, got[k], want, plain(rep))
		}
	}
	ok := count["EPIC WIN"] + count["MAJOR WIN"] + count["Success"] + count["Marginal success"]
	if want := "🎯 DC 15 · medium: " + command.Percent("en", big.NewRat(ok, 100)); !strings.Contains(plain(rep), want) {
		t.Errorf("lacks %q:\n%s", want, plain(rep))
	}
	var m1, m2 float64
	for x, k := range dist {
		m1 += float64(x*k) / 100
		m2 += float64(x*x*k) / 100
	}
	summary := "Mean " + command.Decimal("en", m1) + " · deviation " + command.Decimal("en", math.Sqrt(m2-m1*m1)) + " · 7 to 16 (total)"
	if !strings.Contains(plain(rep), summary) {
		t.Errorf("lacks %q:\n%s", summary, plain(rep))
	}
	c := rep.Chart
	if c == nil || c.Target == nil || *c.Target != 15 || len(c.Series) != 1 {
		t.Fatalf("chart: %+v", c)
	}
	s := c.Series[0]
	for i, p := range s.P {
		if w := float64(dist[s.Min+int64(i)]) / 100; p-w > 1e-12 || w-p > 1e-12 {
			t.Errorf("P(total = %d) = %g, want %g", s.Min+int64(i), p, w)
		}
	}
	if s.Min != 7 || len(s.P) != 10 {
		t.Errorf("totals %d..%d, want 7..16", s.Min, s.Min+int64(len(s.P))-1)
	}
}

func TestOddsDaegonExact(t *testing.T) {
	r := systemsRouter(t)
	// The seed's table, skill 6, D1..D7.
	row := []int64{80, 65, 50, 35, 20, 5, 0}
	rep := run(t, r, "es", "/odds daegon 6")
	labels, pcts := rowsOf(rep)
	if len(labels) != 7 {
		t.Fatalf("%d rows:\n%s", len(labels), plain(rep))
	}
	for d, p := range row {
		if labels[d] != "D"+strconv.Itoa(d+1) || pcts[d] != command.Percent("es", big.NewRat(p, 100)) {
			t.Errorf("row %d: %s %s, want D%d %s", d, labels[d], pcts[d], d+1, command.Percent("es", big.NewRat(p, 100)))
		}
	}
	// Against D3, levels: each harder column the roll (1..100) also passes.
	rep = run(t, r, "en", "/odds dg 6 d3")
	var n [5]int64
	for roll := int64(1); roll <= 100; roll++ {
		if roll > row[2] {
			n[0]++
			continue
		}
		l := 1
		for k := 3; k < len(row) && roll <= row[k]; k++ {
			l++
		}
		n[l]++
	}
	want := []string{"Failure", "Success", "Success +1", "Success +2", "Success +3"}
	labels, pcts = rowsOf(rep)
	for i, w := range want {
		if i >= len(labels) || labels[i] != w || pcts[i] != command.Percent("en", big.NewRat(n[i], 100)) {
			t.Errorf("outcome %d: want %s %s:\n%s", i, w, command.Percent("en", big.NewRat(n[i], 100)), plain(rep))
		}
	}
	if !strings.Contains(plain(rep), "🎯 D3 · hard: 50%") {
		t.Errorf("%s", plain(rep))
	}
}

func TestOddsRQExact(t *testing.T) {
	r := systemsRouter(t)
	diffs := []int{50, 30, 10, 0, -10, -30, -50, -70, -90, -110, -130, -150}
	// 1D100 ≤ 50 + 45 + difficulty; a 100 always fails.
	success := func(c int) int64 {
		ok := int64(0)
		for roll := 1; roll <= 100; roll++ {
			if roll <= c && roll < 100 {
				ok++
			}
		}
		return ok
	}
	rep := run(t, r, "en", "/odds rq 45")
	labels, pcts := rowsOf(rep)
	if len(labels) != len(diffs) {
		t.Fatalf("%d rows:\n%s", len(labels), plain(rep))
	}
	for i, d := range diffs {
		if want := command.Percent("en", big.NewRat(success(95+d), 100)); pcts[i] != want {
			t.Errorf("%s: %s, want %s", labels[i], pcts[i], want)
		}
	}
	// Hard (−90): chance 5; criticals ≤ max(1, round(5/10)); fumbles the
	// top max(1, round(5 % of 95)) rolls.
	rep = run(t, r, "es", "/odds rq 45 difícil")
	got := map[string]string{}
	labels, pcts = rowsOf(rep)
	for i, l := range labels {
		got[l] = pcts[i]
	}
	for k, n := range map[string]int64{"¡Crítico!": 1, "Éxito": 4, "Fallo": 90, "¡Pifia!": 5} {
		if got[k] != command.Percent("es", big.NewRat(n, 100)) {
			t.Errorf("%s = %q, want %d %%:\n%s", k, got[k], n, plain(rep))
		}
	}
}

func TestOddsKHExact(t *testing.T) {
	r := systemsRouter(t)
	// Capacidad 5, two heartless dice and one nobody die: every path of the
	// dice, weighted over 6^(1+2+1+3) (three extra rolls at most).
	dist := map[int]int64{}
	const den = 6 * 6 * 6 * 6 * 6 * 6 * 6
	for c := 1; c <= 6; c++ {
		for h1 := 1; h1 <= 6; h1++ {
			for h2 := 1; h2 <= 6; h2++ {
				for nb := 1; nb <= 6; nb++ {
					extra := 0
					for _, v := range []int{c, h1, h2} {
						if v == 6 {
							extra++
						}
					}
					var walk func(k, sum int, w int64)
					walk = func(k, sum int, w int64) {
						if k == extra {
							dist[sum] += w
							return
						}
						for e := 1; e <= 6; e++ {
							walk(k+1, sum+e, w/6)
						}
					}
					walk(0, 5+c+nb, 6*6*6)
				}
			}
		}
	}
	atLeast := func(dc int) *big.Rat {
		n := int64(0)
		for x, w := range dist {
			if x >= dc {
				n += w
			}
		}
		return big.NewRat(n, den)
	}
	for _, lang := range []string{"es", "en"} {
		rep := run(t, r, lang, "/odds kh 5 2s 1i")
		labels, pcts := rowsOf(rep)
		tiers := []int{4, 8, 12, 16, 20, 24}
		if len(labels) != len(tiers) {
			t.Fatalf("%d rows:\n%s", len(labels), plain(rep))
		}
		for i, dc := range tiers {
			if want := command.Percent(lang, atLeast(dc)); pcts[i] != want || !strings.HasSuffix(labels[i], " "+strconv.Itoa(dc)) {
				t.Errorf("%s: %s %s, want DC %d %s", lang, labels[i], pcts[i], dc, want)
			}
		}
	}
	rep := run(t, r, "en", "/odds kh 5 2s 1i dc17")
	if want := "🎯 difficulty 17 · very hard: " + command.Percent("en", atLeast(17)); !strings.Contains(plain(rep), want) {
		t.Errorf("lacks %q:\n%s", want, plain(rep))
	}
	s := rep.Chart.Series[0]
	for i, p := range s.P {
		if w := float64(dist[int(s.Min)+i]) / den; p-w > 1e-12 || w-p > 1e-12 {
			t.Errorf("P(total = %d) = %g, want %g", s.Min+int64(i), p, w)
		}
	}
	if *rep.Chart.Target != 17 {
		t.Errorf("target %d", *rep.Chart.Target)
	}
}

func TestOddsSystemErrors(t *testing.T) {
	r := systemsRouter(t)
	for _, tc := range []struct{ lang, text, want string }{
		{"en", "/odds zaria", "Which check? For example: /odds zaria 4+2"},
		{"es", "/odds dg ?", "Por ejemplo: /odds dg 6 d3"},
		{"en", "/odds zaria vs", "Usage: /odds zaria 4+2 dc15"},
		{"en", "/odds rq", "/odds rq 45"},
		{"en", "/odds daegon vs 7", "Usage: /odds daegon 7 d3"},
		{"es", "/odds kh 5 vs 4", "enfrentadas"},
		{"el", "/odds daegon 20", "15"},
		{"en", "/odds kh 5 dc 99", "60"},
	} {
		rep := run(t, r, tc.lang, tc.text)
		if !rep.Error || !strings.Contains(plain(rep), tc.want) {
			t.Errorf("%s %q: %s, want an error with %q", tc.lang, tc.text, plain(rep), tc.want)
		}
	}
}

// The chat's house rules change the odds as they change the checks:
// media_exacta keeps the Ζαριά's half point (the chart's axis is the total
// doubled), daegon_00 = cero reads 00 as 0 (one point more).
func TestOddsSystemHouseRules(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	chat := core.ChatRef{Platform: "console", ID: "en"}
	if err := st.SaveSettings(context.Background(), chat, core.Settings{Lang: "en", Options: map[string]string{"zaria": "media_exacta", "daegon_00": "cero"}}); err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{DefaultLang: "en", Translator: cat, Settings: st, Limits: command.Limits{Burst: 1 << 30}})
	RegisterOdds(r)
	systems.Register(r)
	rep := run(t, r, "en", "/odds zaria 4+2 dc15")
	// 2·6 + a + b ≥ 30: a+b ≥ 18, six of the 100 rolls (10,10 among them).
	if !strings.Contains(plain(rep), "🎯 DC 15 · medium: 6%") {
		t.Errorf("%s", plain(rep))
	}
	c := rep.Chart
	if c.XLabel != "total × 2" || *c.Target != 30 || c.Series[0].Min != 14 || len(c.Series[0].P) != 19 {
		t.Errorf("chart in halves: %q target %d from %d, %d values", c.XLabel, *c.Target, c.Series[0].Min, len(c.Series[0].P))
	}
	// Rolls 00..99 against 50: 51 succeed.
	if !strings.Contains(plain(run(t, r, "en", "/odds daegon 6 d3")), "🎯 D3 · hard: 51%") {
		t.Errorf("daegon_00 cero: %s", plain(run(t, r, "en", "/odds daegon 6 d3")))
	}
}

// Opposed checks: the chance that the active side wins, from every pair
// of rolls.
func TestOddsOpposedExact(t *testing.T) {
	r := systemsRouter(t)
	// Ζαριά 4+2 against 3+3, both PCs: epics first (the same epic on both
	// sides is a tie), then totals; ties go to the active side.
	type roll struct{ total, epic int }
	side := func(mod int) []roll {
		var out []roll
		for a := 1; a <= 10; a++ {
			for b := 1; b <= 10; b++ {
				e := 0
				if a == 1 && b == 1 {
					e = -1
				} else if a == 10 && b == 10 {
					e = 1
				}
				out = append(out, roll{mod + (a+b)/2, e})
			}
		}
		return out
	}
	var wins int64
	margins := map[int64]int64{}
	for _, a := range side(6) {
		for _, p := range side(6) {
			margins[int64(a.total-p.total)]++
			switch {
			case a.epic != p.epic:
				if a.epic > p.epic {
					wins++
				}
			case a.epic != 0 || a.total >= p.total:
				wins++
			}
		}
	}
	rep := run(t, r, "en", "/odds zaria 4+2 vs 3+3")
	if want := "🎯 the active side wins against 3 + 3: " + command.Percent("en", big.NewRat(wins, 10000)); !strings.Contains(plain(rep), want) {
		t.Errorf("lacks %q:\n%s", want, plain(rep))
	}
	s := rep.Chart.Series[0]
	for i, p := range s.P {
		if w := float64(margins[s.Min+int64(i)]) / 10000; p-w > 1e-12 || w-p > 1e-12 {
			t.Errorf("P(margin = %d) = %g, want %g", s.Min+int64(i), p, w)
		}
	}
	// Daegon 8 against 6: both roll against D3 (the comparison table);
	// the active side wins with more levels, the passive side ties.
	nh8 := []int{100, 83, 66, 49, 32, 15, 5}
	nh6 := []int{80, 65, 50, 35, 20, 5, 0}
	level := func(row []int, roll int) int {
		if roll > row[2] {
			return -1
		}
		l := 0
		for k := 3; k < len(row) && row[k] > 0 && roll <= row[k]; k++ {
			l++
		}
		return l
	}
	wins = 0
	for a := 1; a <= 100; a++ {
		for p := 1; p <= 100; p++ {
			if level(nh8, a) > level(nh6, p) {
				wins++
			}
		}
	}
	if want := "🎯 the active side wins against skill 6 (competent) · D3: " + command.Percent("en", big.NewRat(wins, 10000)); !strings.Contains(plain(run(t, r, "en", "/odds dg 8 vs 6")), want) {
		t.Errorf("lacks %q:\n%s", want, plain(run(t, r, "en", "/odds dg 8 vs 6")))
	}
	// RQ 60 against 45: only the offensive side rolls, at 50 + 60 − 45.
	if !strings.Contains(plain(run(t, r, "en", "/odds rq 60 vs 45")), "50 + 60 − 45 → 65") {
		t.Errorf("%s", plain(run(t, r, "en", "/odds rq 60 vs 45")))
	}
}

// The words of a system's /odds head its reply and title its chart as
// typed; a name that no sheet is read for may carry a bidirectional
// override or a zero-width character, which never reaches the bot's text.
func TestOddsSystemWordsShownClean(t *testing.T) {
	r := systemsRouter(t)
	for _, s := range []string{"/odds zaria Ana\u202e\u200b 4+2 dc15", "/odds kh Ana\u200f 5 dc10"} {
		rep := run(t, r, "en", s)
		if rep.Error {
			t.Fatalf("%q: %s", s, plain(rep))
		}
		got := plain(rep)
		if rep.Chart != nil {
			got += rep.Chart.Title
		}
		if strings.ContainsAny(got, "\u202e\u200b\u2067\u200f") {
			t.Errorf("%q: invisible characters in %q", s, got)
		}
		if !strings.Contains(got, "Ana ") {
			t.Errorf("%q: %q", s, got)
		}
	}
}

// TestSystemOddsRegistration: the 📊 of the charted systems cannot be
// lost to the order of registration nor set twice: RegisterSystemOdds
// before systems.Register, or twice, stops the start-up; in the right
// order every charted system's check carries 📊 and pressing it answers.
func TestSystemOddsRegistration(t *testing.T) {
	panics := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", what)
			}
		}()
		f()
	}
	panics("RegisterSystemOdds before systems.Register", func() { RegisterSystemOdds(newRouter(t, sheets{})) })
	r := systemsRouter(t)
	RegisterSystemOdds(r)
	panics("RegisterSystemOdds twice", func() { RegisterSystemOdds(r) })
	if got := systems.Charted(); len(got) != 11 { // the five (RQ's since issue 33) and the six file systems (issue 34)
		t.Errorf("charted systems %v", got)
	}
	for _, name := range systems.Charted() {
		ex := map[string]string{"zaria": "4+2", "daegon": "6 d3", "kh": "5 2s", "dh": "attack longsword vs breastplate", "rq": "45"}[name]
		if ex == "" {
			ex = systems.OddsExample(name, "en")
		}
		rep := run(t, r, "en", "/"+name+" "+ex)
		odds := false
		for _, b := range rep.Buttons {
			odds = odds || b.Kind == reply.ButtonOdds
		}
		if !odds {
			t.Errorf("/%s: no 📊 button: %+v", name, rep.Buttons)
		}
	}
}
