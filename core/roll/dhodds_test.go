package roll

import (
	"context"
	"math"
	"math/big"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

// dhHit is a Dungeon Hack attack as docs/dungeonhack.md's tables give it:
// the damage dice and modifier, the Penetración, the defender's DB and
// their die, the static absorption, and whether only the highest DB
// counts (dh_blindaje mayor).
type dhHit struct {
	n, sides, bonus, pen, db, faces, static int
	highest                                 bool
}

// damage enumerates every roll of the hit's dice, die by die, and counts
// the damage each deals by the rule of docs/dungeonhack.md#damage: the
// damage dice and modifier, minus the DB dice (summed, or the highest),
// minus the static absorption, never below the Penetración nor 0.
func (h dhHit) damage() (count map[int]int64, total int64) {
	count = map[int]int64{}
	faces := make([]int, h.n+h.db)
	var walk func(i int)
	walk = func(i int) {
		if i == len(faces) {
			raw, abs := h.bonus, 0
			for k, f := range faces {
				switch {
				case k < h.n:
					raw += f
				case h.highest:
					abs = max(abs, f)
				default:
					abs += f
				}
			}
			count[max(h.pen, raw-abs-h.static, 0)]++
			total++
			return
		}
		s := h.sides
		if i >= h.n {
			s = h.faces
		}
		for f := 1; f <= s; f++ {
			faces[i] = f
			walk(i + 1)
		}
	}
	walk(0)
	return count, total
}

// above is the chance of more damage than the Penetración.
func (h dhHit) above() *big.Rat {
	count, total := h.damage()
	var n int64
	for d, c := range count {
		if d > h.pen {
			n += c
		}
	}
	return big.NewRat(n, total)
}

// checkDHChart checks a chart's series against the enumeration: every
// damage from the lowest to the highest, exact to 1e-12.
func checkDHChart(t *testing.T, what string, c *reply.Chart, h dhHit) {
	t.Helper()
	count, total := h.damage()
	if c == nil {
		t.Fatalf("%s: no chart", what)
	}
	s := c.Series[0]
	lo, hi := math.MaxInt, 0
	for d := range count {
		lo, hi = min(lo, d), max(hi, d)
	}
	if s.Min != int64(lo) || len(s.P) != hi-lo+1 {
		t.Errorf("%s: chart from %d, %d values; the damage goes from %d to %d", what, s.Min, len(s.P), lo, hi)
	}
	for i, p := range s.P {
		if w := float64(count[int(s.Min)+i]) / float64(total); math.Abs(p-w) > 1e-12 {
			t.Errorf("%s: P(damage = %d) = %g, enumeration %g", what, s.Min+int64(i), p, w)
		}
	}
	if c.Target == nil || *c.Target != int64(max(h.pen+1, lo)) {
		t.Errorf("%s: target %v, want %d (one above the penetration)", what, c.Target, h.pen+1)
	}
}

// /odds dh ataque gives the chance the attack's reply states (damage above
// the Penetración), each outcome and the damage's distribution, in every
// language, all checked against the dice enumerated here.
func TestOddsDHExact(t *testing.T) {
	r := systemsRouter(t)
	coraza := dhHit{n: 1, sides: 8, pen: 1, db: 3, faces: 6}            // espada larga 1d8 pen 1 vs coraza 3 DB
	monster := dhHit{n: 2, sides: 8, pen: 2, db: 2, faces: 6}           // 2d8, level 17 (pen 2), vs pieles 2 DB
	mace := dhHit{n: 1, sides: 6, pen: 2, db: 1, faces: 6, static: 1}   // maza 1d6 pen 2 vs cuero 1 DB, shield +1
	caster := dhHit{n: 1, sides: 12, bonus: 2, pen: 1, db: 1, faces: 4} // espadón +2 vs acolchada, a caster's d4
	club := dhHit{n: 1, sides: 4}                                       // clava 1d4 pen 0, no armour
	for _, tc := range []struct {
		lang, text string
		hit        dhHit
		subject    string
		target     string // the 🎯 line before its percentage
		above      string // the outcome rows' labels
		floor      string
	}{
		{"es", "/odds dh ataque espada-larga vs coraza", coraza, "🎲 Espada larga 1d8 (pen 1) vs coraza 3 DB d6",
			"🎯 daño por encima de la penetración: ", "más de 1 de daño", "solo 1 (la penetración)"},
		{"el", "/odds dh επίθεση μακρύ-σπαθί εναντίον θώρακα", coraza, "🎲 Μακρύ σπαθί 1d8 (διάτρηση 1) · άμυνα: θώρακας 3 ΖΘ d6",
			"🎯 ζημιά πάνω από τη διάτρηση: ", "ζημιά πάνω από 1", "μόνο 1 (η διάτρηση)"},
		{"en", "/odds dh attack longsword vs breastplate", coraza, "🎲 Longsword 1d8 (penetration 1) vs breastplate 3 DB d6",
			"🎯 damage above the penetration: ", "more than 1 damage", "only 1 (the penetration)"},
		{"en", "/odds dh attack 2d8 n17 vs hide-armour", monster, "🎲 Monster lvl 17 2d8 (penetration 2) vs hide armour 2 DB d6",
			"🎯 damage above the penetration: ", "more than 2 damage", "only 2 (the penetration)"},
		{"es", "/probabilidad dh ataque maza vs cuero +1", mace, "🎲 Maza 1d6 (pen 2) vs armadura de cuero 1 DB d6 +1",
			"🎯 daño por encima de la penetración: ", "más de 2 de daño", "solo 2 (la penetración)"},
		{"es", "/odds dh ataque espadon +2 vs acolchada d4", caster, "🎲 Espadón 1d12+2 (pen 1) vs armadura acolchada 1 DB d4",
			"🎯 daño por encima de la penetración: ", "más de 1 de daño", "solo 1 (la penetración)"},
		{"el", "!πιθανότητες dh επίθεση ρόπαλο", club, "🎲 Ρόπαλο 1d4 (διάτρηση 0) · άμυνα: χωρίς πανοπλία",
			"🎯 ζημιά πάνω από τη διάτρηση: ", "ζημιά πάνω από 0", ""},
	} {
		rep := run(t, r, tc.lang, tc.text)
		got := plain(rep)
		if rep.Error {
			t.Errorf("%s %q: %s", tc.lang, tc.text, got)
			continue
		}
		above := tc.hit.above()
		if !strings.Contains(got, tc.subject+"\n") || !strings.Contains(got, tc.target+command.Percent(tc.lang, above)+"\n") {
			t.Errorf("%s %q lacks %q or %q%s:\n%s", tc.lang, tc.text, tc.subject, tc.target, command.Percent(tc.lang, above), got)
		}
		labels, pcts := rowsOf(rep)
		want := [][2]string{{tc.above, command.Percent(tc.lang, above)}}
		if tc.floor != "" {
			want = append(want, [2]string{tc.floor, command.Percent(tc.lang, new(big.Rat).Sub(big.NewRat(1, 1), above))})
		}
		if len(labels) != len(want) {
			t.Errorf("%s %q: outcomes %q %q, want %q", tc.lang, tc.text, labels, pcts, want)
			continue
		}
		for i, w := range want {
			if labels[i] != w[0] || pcts[i] != w[1] {
				t.Errorf("%s %q: outcome %q %q, want %q", tc.lang, tc.text, labels[i], pcts[i], w)
			}
		}
		checkDHChart(t, tc.lang+" "+tc.text, rep.Chart, tc.hit)
	}
	// The docs' exact figures (docs/dungeonhack.md#exact-chances).
	if coraza.above().RatString() != "35/1728" {
		t.Errorf("enumeration: %s", coraza.above().RatString())
	}
}

// The chat's house rules change the odds as they change the attack:
// dh_blindaje mayor (only the highest DB absorbs) and dh_dado d4.
func TestOddsDHHouseRules(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	chat := core.ChatRef{Platform: "console", ID: "en"}
	if err := st.SaveSettings(context.Background(), chat, core.Settings{Lang: "en", Options: map[string]string{"dh_blindaje": "mayor", "dh_dado": "d4"}}); err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{DefaultLang: "en", Translator: cat, Settings: st, Limits: command.Limits{Burst: 1 << 30}})
	RegisterOdds(r)
	systems.Register(r)
	h := dhHit{n: 1, sides: 8, pen: 1, db: 3, faces: 4, highest: true}
	rep := run(t, r, "en", "/odds dh attack longsword vs breastplate")
	if want := "🎯 damage above the penetration: " + command.Percent("en", h.above()); !strings.Contains(plain(rep), "3 DB d4") || !strings.Contains(plain(rep), want) {
		t.Errorf("lacks 3 DB d4 or %q:\n%s", want, plain(rep))
	}
	checkDHChart(t, "mayor d4", rep.Chart, h)
}

// Of /dh, only the attack has odds; bad words get the attack's own
// messages, with the example to type as /odds.
func TestOddsDHErrors(t *testing.T) {
	r := systemsRouter(t)
	for _, tc := range []struct{ lang, text, want string }{
		{"en", "/odds dh", "Which check? For example: /odds dh attack longsword vs breastplate"},
		{"es", "/odds dh uso d8", "De Dungeon Hack solo el ataque tiene probabilidades que mostrar: las demás tiradas ya dan la suya en la respuesta. Por ejemplo: /odds dh ataque espada-larga vs coraza"},
		{"el", "/odds dh ίππευση", "Για παράδειγμα: /odds dh επίθεση μακρύ-σπαθί εναντίον θώρακα"},
		{"en", "/odds dh attack longsword vs", "Type, for example: /odds dh attack longsword vs breastplate"},
		{"es", "/probabilidad dh ataque espada-larga vs coraza d6 d4", "«d6» y «d4» dicen lo mismo dos veces: deja uno, p. ej. /probabilidad dh ataque espada-larga vs coraza d6"},
		{"en", "/odds dh attack sword-of-nothing vs breastplate", "Unknown weapon"},
		{"en", "/odds dh attack longsword vs breastplate 11db", "DB"},
		{"en", "/odds dh atack longsword", "attack"},
	} {
		rep := run(t, r, tc.lang, tc.text)
		if !rep.Error || !strings.Contains(plain(rep), tc.want) {
			t.Errorf("%s %q: %s, want an error with %q", tc.lang, tc.text, plain(rep), tc.want)
		}
	}
}

// A Dungeon Hack attack carries 📊; pressing it shows the odds of that
// attack, its damage marked on the chart, rolls nothing, and draws the
// same figures as /odds dh. The other /dh rolls carry no 📊: they have no
// distribution to draw.
func TestDHAttackOddsButton(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	rolled := 0
	r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: memory.New(),
		NewSource: func() dice.Source { rolled++; return dice.Seeded(3) },
		Limits:    command.Limits{Burst: 1 << 30}})
	Register(r)
	RegisterOdds(r)
	systems.Register(r)
	RegisterSystemOdds(r)
	ctx := context.Background()
	msg := core.Message{Chat: core.ChatRef{Platform: "telegram", ID: "-5"}, From: core.User{ID: "u1", Name: "Ana"}, LangHint: "es"}
	m := msg
	m.Text = "/dh ataque espada-larga vs coraza"
	rep, _ := r.DispatchWith(ctx, m, dice.NewScripted([]int{6, 1, 2, 1})) // H1: 6 − 4 = 2
	var odds *reply.Action
	for _, b := range rep.Buttons {
		if b.Kind == reply.ButtonOdds {
			odds = b.Action
		}
	}
	if odds == nil || odds.Command != "/dh ataque espada-larga vs coraza" || odds.Actual == nil || *odds.Actual != 2 {
		t.Fatalf("/dh ataque: 📊 %+v in %+v\n%s", odds, rep.Buttons, plain(rep))
	}
	got, ok := r.Press(ctx, msg, *odds)
	if !ok || got.Error {
		t.Fatalf("press: %v %s", ok, plain(got))
	}
	if rolled != 0 {
		t.Errorf("the 📊 press rolled")
	}
	h := dhHit{n: 1, sides: 8, pen: 1, db: 3, faces: 6}
	text := plain(reply.WithChartText(got))
	if !strings.Contains(text, "🎯 daño por encima de la penetración: 2,03 %") || !strings.Contains(text, "🎯 👈") {
		t.Errorf("press:\n%s", text)
	}
	checkDHChart(t, "📊 of /dh ataque", got.Chart, h)
	if got.Chart.Actual == nil || *got.Chart.Actual != 2 {
		t.Errorf("the roll's damage is not marked: %v", got.Chart.Actual)
	}
	for _, cmd := range []string{"/dh uso d8", "/dh repara coraza 2", "/dh montura"} {
		m.Text = cmd
		rep, _ := r.DispatchWith(ctx, m, dice.Seeded(1))
		for _, b := range rep.Buttons {
			if b.Kind == reply.ButtonOdds {
				t.Errorf("%s carries 📊: %s", cmd, plain(rep))
			}
		}
	}
}

// The odds are those of the attack as /dh ataque rolls it: 10,000 seeded
// rolls through the router, their damage (the reply's total)
// against the distribution /odds dh draws, by chi-square (package
// dungeonhack's TestDamageAgainstSeededRolls rolls 200,000 of each of
// more attacks without the router).
func TestDHOddsAgainstSeededRolls(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 attacks")
	}
	r := systemsRouter(t)
	for _, tc := range []struct{ attack string }{
		{"2d8 n17 vs hide-armour"},
	} {
		odds := run(t, r, "en", "/odds dh attack "+tc.attack)
		if odds.Error || odds.Chart == nil {
			t.Fatalf("%s: %s", tc.attack, plain(odds))
		}
		s := odds.Chart.Series[0]
		const n = 10_000
		src := dice.Seeded(24)
		count := map[int64]int{}
		for range n {
			rep, ok := r.DispatchWith(context.Background(), core.Message{Chat: core.ChatRef{Platform: "console", ID: "en"},
				From: core.User{ID: "u1", Name: "Ana"}, Text: "/dh attack " + tc.attack}, src)
			if !ok || rep.Error || rep.Check == nil || rep.Check.Total == nil {
				t.Fatalf("%s: %s", tc.attack, plain(rep))
			}
			count[int64(*rep.Check.Total)]++
		}
		// chi-square over damages expected at least 20 times, the rest pooled
		var chi, restExp float64
		restObs, df := 0, -1
		for i, p := range s.P {
			v := s.Min + int64(i)
			exp := p * n
			if exp < 20 {
				restExp += exp
				restObs += count[v]
				continue
			}
			d := float64(count[v]) - exp
			chi += d * d / exp
			df++
		}
		for v, c := range count {
			if v < s.Min || v >= s.Min+int64(len(s.P)) {
				t.Errorf("%s: rolled %d damage %d times, outside the distribution", tc.attack, v, c)
			}
		}
		if restExp >= 20 {
			d := float64(restObs) - restExp
			chi += d * d / restExp
			df++
		}
		if limit := float64(df) + 8*math.Sqrt(2*float64(max(df, 1))) + 20; chi > limit || df < 3 {
			t.Errorf("%s: chi-square %.1f over %d degrees of freedom (limit %.1f)", tc.attack, chi, df, limit)
		}
	}
}
