package roll

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/i18n"
	"zaria/storage/memory"
)

// sheets is a small in-memory character store for named values.
type sheets map[string]int

func (s sheets) SheetInt(_ context.Context, _ core.ChatRef, _, who, name string) (int, error) {
	if v, ok := s[who+"."+name]; ok {
		return v, nil
	}
	return 0, command.Errorf("error.no_sheets", "name", name)
}
func (s sheets) SheetText(context.Context, core.ChatRef, string, string, string) (string, error) {
	return "", nil
}
func (s sheets) SetSheetText(context.Context, core.ChatRef, string, bool, string, string, string) error {
	return nil
}

func newRouter(t testing.TB, sh command.Sheets) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	for _, l := range core.Langs() {
		if err := st.SaveSettings(context.Background(), core.ChatRef{Platform: "console", ID: l}, core.Settings{Lang: l}); err != nil {
			t.Fatal(err)
		}
	}
	r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: st, Sheets: sh,
		Limits: command.Limits{Burst: 1 << 30}})
	Register(r)
	return r
}

// run sends text in lang with scripted dice (nil: seeded) and returns the
// reply.
func run(t testing.TB, r *command.Router, lang, text string, faces ...int) *reply.Reply {
	t.Helper()
	var src dice.Source = dice.Seeded(7)
	if faces != nil {
		src = dice.NewScripted(faces)
	}
	rep, ok := r.DispatchWith(context.Background(), core.Message{
		Chat: core.ChatRef{Platform: "console", ID: lang}, From: core.User{ID: "u1", Name: "Ana"},
		Text: text, LangHint: lang,
	}, src)
	if !ok {
		t.Fatalf("%q: not handled", text)
	}
	return rep
}

func plain(rep *reply.Reply) string { return reply.PlainText(rep) }

func TestRollShowsEveryDie(t *testing.T) {
	r := newRouter(t, nil)
	cases := []struct {
		lang, in string
		dice     []int
		want     string
	}{
		{"es", "/roll 4d6kh3+2", []int{6, 2, 5, 4}, "🎲 4d6kh3+2\n[6, (2), 5, 4] + 2 = 17"},
		{"es", "/r 2d6+3 # ataque", []int{4, 2}, "🎲 2d6+3 · ataque\n[4, 2] + 3 = 9"},
		{"es", "/tirar 3d6!", []int{6, 1, 2, 3}, "🎲 3d6!\n[6!, 1, 2, 3] = 12"},
		{"es", "/tira 2d20ro1", []int{1, 15, 9}, "🎲 2d20ro1\n[1↻15, 9] = 24"},
		{"el", "!ρίξε 2δ6", []int{3, 5}, "🎲 2δ6\n[3, 5] = 8"},
		{"el", "/ριξε 2Δ6", []int{3, 5}, "🎲 2Δ6\n[3, 5] = 8"},
		{"en", "/ROLL 8d10>=7", []int{7, 1, 10, 3, 8, 6, 2, 9}, "🎲 8d10≥7\n[7✓, 1, 10✓, 3, 8✓, 6, 2, 9✓] = 4 successes"},
		{"es", "/roll 5d10>=7f1", []int{7, 1, 10, 3, 1}, "🎲 5d10≥7f1\n[7✓, 1✗, 10✓, 3, 1✗] = 0 éxitos"},
		{"el", "/roll 1d10>=7", []int{7}, "🎲 1d10≥7\n[7✓] = 1 επιτυχία"},
		{"en", "/roll 3#1d20", []int{4, 19, 11}, "🎲 3#1d20\n1. [4] = 4\n2. [19] = 19\n3. [11] = 11"},
	}
	for _, c := range cases {
		rep := run(t, r, c.lang, c.in, c.dice...)
		if got := plain(rep); got != c.want {
			t.Errorf("%s %q:\n%s\nwant\n%s", c.lang, c.in, got, c.want)
		}
		if rep.Error {
			t.Errorf("%q is an error", c.in)
		}
	}
}

func TestRollTargetAndOdds(t *testing.T) {
	r := newRouter(t, nil)
	cases := []struct {
		lang, in string
		dice     []int
		want     string
	}{
		{"es", "/tirar 3d6 vs 12 ?", []int{4, 4, 4}, "🎲 3d6\n[4, 4, 4] = 12\n🎯 Contra 12: ✅ Éxito\n📊 Probabilidad: 37,5 % · media 10,5"},
		{"el", "/roll 3d6 dc12 ?", []int{1, 4, 4}, "🎲 3d6\n[1, 4, 4] = 9\n🎯 Εναντίον 12: ❌ Αποτυχία\n📊 Πιθανότητα: 37,5 % · μέσος όρος 10,5"},
		{"en", "/roll 3d6 contra 12?", []int{6, 6, 6}, "🎲 3d6\n[6, 6, 6] = 18\n🎯 Against 12: ✅ Success\n📊 Chance: 37.5% · mean 10.5"},
		{"en", "/roll 1d20+5 εναντίον 15", []int{9}, "🎲 1d20+5\n[9] + 5 = 14\n🎯 Against 15: ❌ Failure"},
		{"es", "/roll 1d20 κατά 11 # sigilo ?", []int{11}, "🎲 1d20 · sigilo\n[11] = 11\n🎯 Contra 11: ✅ Éxito\n📊 Probabilidad: 50 % · media 10,5"},
		{"es", "/roll 2d6>=5 ?", []int{5, 1}, "🎲 2d6≥5\n[5✓, 1] = 1 éxito\n📊 Probabilidad de al menos 1 éxito: 55,56 % · media 0,67"},
		{"en", "/roll 8d10>=7 vs 3 ?", []int{7, 1, 10, 3, 8, 6, 2, 9}, "🎲 8d10≥7\n[7✓, 1, 10✓, 3, 8✓, 6, 2, 9✓] = 4 successes\n🎯 Against 3: ✅ Success\n📊 Chance of at least 3 successes: 68.46% · mean 3.2"},
		{"es", "/roll 2d6 ?", []int{1, 2}, "🎲 2d6\n[1, 2] = 3\n📊 Media: 7"},
		{"es", "/roll 3d6 ?", []int{1, 2, 3}, "🎲 3d6\n[1, 2, 3] = 6\n📊 Media: 10,5"},
		{"es", "/roll 1d6! ?", []int{2}, "🎲 1d6!\n[2] = 2\n📊 Media: ≈4,2"},
		{"en", "/roll 3#1d20+5 vs 15", []int{4, 19, 11}, "🎲 3#1d20+5\n1. [4] + 5 = 9 ❌\n2. [19] + 5 = 24 ✅\n3. [11] + 5 = 16 ✅\n🎯 Against 15: 2 successes of 3"},
		{"es", "/roll 1d6/(1d2-1) ?", []int{3, 2}, "🎲 1d6/(1d2−1)\n[3] / ([2] − 1) = 3\n📊 Sin probabilidad: la tirada puede dividir entre cero."},
		// grouped rolls: exact odds, and a count of successes named as such
		{"en", "/roll {1d20, 1d20}kh1 + 5 vs 15 ?", []int{3, 12}, "🎲 {1d20, 1d20}kh1 + 5\n{([3] = 3), [12] = 12} + 5 = 17\n🎯 Against 15: ✅ Success\n📊 Chance: 79.75% · mean 18.83"},
		// Roll20's >15 is 15 or more, and the reply says ≥15
		{"es", "/tirar {3d20+5, 2d10}>15 ?", []int{1, 2, 3, 9, 9}, "🎲 {3d20+5, 2d10}≥15\n{[1, 2, 3] + 5 = 11, [9, 9] = 18✓} = 1 éxito\n📊 Probabilidad de al menos 1 éxito: 99,17 % · media 1,2"},
		{"el", "/roll {3d20}>=15", []int{16, 2, 20}, "🎲 {3d20}≥15\n{[16✓, 2, 20✓]} = 2 επιτυχίες"},
	}
	for _, c := range cases {
		rep := run(t, r, c.lang, c.in, c.dice...)
		if got := plain(rep); got != c.want {
			t.Errorf("%s %q:\n%s\nwant\n%s", c.lang, c.in, got, c.want)
		}
	}
}

func TestRollHTML(t *testing.T) {
	r := newRouter(t, nil)
	rep := run(t, r, "es", "/roll 4d6kh3 vs 10 # <fuerza>", 6, 2, 5, 4)
	want := "🎲 <code>4d6kh3</code> · <i>&lt;fuerza&gt;</i>\n[6, (2), 5, 4] = <b>15</b>\n🎯 Contra 10: <b>✅ Éxito</b>"
	if got := reply.HTML(rep, "\n"); got != want {
		t.Errorf("HTML:\n%s\nwant\n%s", got, want)
	}
}

func TestRollCheckAndButtons(t *testing.T) {
	r := newRouter(t, nil)
	rep := run(t, r, "en", "/roll 3d6 dc12", 4, 4, 4)
	b, err := json.Marshal(rep.Check)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"system":"dice","outcome":"success","dice":[4,4,4],"total":12,"chance":0.375,"chance_exact":"3/8","mean":10.5}`
	if string(b) != want {
		t.Errorf("check %s\nwant  %s", b, want)
	}
	if len(rep.Check.Sides) != 3 || rep.Check.Sides[0] != 6 {
		t.Errorf("sides %v", rep.Check.Sides)
	}
	if len(rep.Buttons) != 2 || rep.Buttons[0].Kind != reply.ButtonAgain || rep.Buttons[0].Label != "🎲 Again" ||
		rep.Buttons[1].Kind != reply.ButtonOdds || rep.Buttons[1].Label != "📊 Odds" {
		t.Errorf("buttons %+v", rep.Buttons)
	}
	if rep.Command != "/roll 3d6 dc12" {
		t.Errorf("command %q", rep.Command)
	}
	// No target: only "again"; a pool always carries its chance.
	rep = run(t, r, "es", "/roll 2d6>=5", 5, 1)
	if len(rep.Buttons) != 1 || rep.Check.Chance == nil || rep.Check.ChanceExact != "5/9" || rep.Check.Outcome != "" {
		t.Errorf("pool: buttons %+v check %+v", rep.Buttons, rep.Check)
	}
	// With the odds already shown, no odds button.
	rep = run(t, r, "es", "/roll 3d6 dc12 ?", 1, 1, 1)
	if len(rep.Buttons) != 1 || rep.Check.Outcome != "failure" {
		t.Errorf("asked: buttons %+v outcome %q", rep.Buttons, rep.Check.Outcome)
	}
	// Explosions: approximate, no exact fraction.
	rep = run(t, r, "es", "/roll 1d6! vs 6", 6, 2)
	if !rep.Check.Approx || rep.Check.ChanceExact != "" || rep.Check.Chance == nil {
		t.Errorf("explosion: %+v", rep.Check)
	}
	// Fudge and compounded dice have no plain size for the fairness report.
	rep = run(t, r, "es", "/roll 2dF+1d6!!", 1, 3, 6, 2)
	if got := rep.Check.Sides; len(got) != 3 || got[0] != 0 || got[1] != 0 || got[2] != 0 {
		t.Errorf("sides %v", got)
	}
	if got := rep.Check.Dice; len(got) != 3 || got[0] != -1 || got[1] != 1 || got[2] != 8 {
		t.Errorf("dice %v", got)
	}
	// Nor the dice of a compounding term that did not compound: counting
	// only those, a fair 100d6!! never shows a 6 and /stats calls it
	// loaded. A plain explosion's dice are all plain draws.
	rep = run(t, r, "es", "/roll 2d6!!", 3, 6, 2)
	if got := rep.Check.Sides; len(got) != 2 || got[0] != 0 || got[1] != 0 {
		t.Errorf("compounding term: sides %v", got)
	}
	rep = run(t, r, "es", "/roll 2d6!", 3, 6, 2)
	if got := rep.Check.Sides; len(got) != 3 || got[0] != 6 || got[1] != 6 || got[2] != 6 {
		t.Errorf("exploding term: sides %v", got)
	}
}

func TestRollNamedValues(t *testing.T) {
	r := newRouter(t, sheets{".fuerza": 3, "Drake.destreza": 2})
	rep := run(t, r, "es", "/roll 1d20+fuerza+@Drake.destreza vs 15 ?", 10)
	want := "🎲 1d20+fuerza+@Drake.destreza\n[10] + fuerza (3) + @Drake.destreza (2) = 15\n🎯 Contra 15: ✅ Éxito\n📊 Probabilidad: 55 % · media 15,5"
	if got := plain(rep); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	rep = run(t, r, "es", "/roll 1d20+sabiduria", 10)
	if !rep.Error || !strings.Contains(plain(rep), "sabiduria") {
		t.Errorf("unknown value: %q", plain(rep))
	}
	// Without any sheets the router's own message explains it.
	r = newRouter(t, nil)
	rep = run(t, r, "es", "/roll 1d20+fuerza", 10)
	if !rep.Error || !strings.Contains(plain(rep), "fichas") {
		t.Errorf("no sheets: %q", plain(rep))
	}
}

// TestRollErrors: every limit and every mistake answers in the chat's
// language with what to type instead, and no die is rolled.
func TestRollErrors(t *testing.T) {
	r := newRouter(t, nil)
	cases := []struct {
		lang, in, want string
	}{
		{"es", "/roll", "⚠️ ¿Qué tiro? Escribe los dados, por ejemplo: /tirar 2d6+3"},
		{"es", "/roll 2d", "⚠️ No entiendo «2d». Prueba: /tirar 2d6+3 · con ventaja: /tirar 2d20kh1+5 (o /tirar 1d20+5 ventaja)"},
		{"el", "/roll 2d", "⚠️ Δεν καταλαβαίνω το «2d». Δοκίμασε: /roll 2d6+3 · με πλεονέκτημα: /roll 2d20kh1+5 (ή /roll 1d20+5 πλεονέκτημα)"},
		{"en", "/roll 2d", "⚠️ I don't understand «2d». Try: /roll 2d6+3 · with advantage: /roll 2d20kh1+5 (or /roll 1d20+5 adv)"},
		{"es", "/roll 101d6", "⚠️ «101d6» son demasiados dados: como mucho 100 por grupo. Prueba: /tirar 100d6"},
		{"en", "/roll 1d1001", "⚠️ «1d1001»: a die has at most 1000 sides. Try: /roll 1d100"},
		{"el", "/roll 21#1d6", "⚠️ Μια ρίψη επαναλαμβάνεται από 1 έως 20 φορές. Δοκίμασε: /roll 6#4d6kh3"},
		{"es", "/roll 20#60d6", "⚠️ Demasiados dados en una orden: como mucho 1000, explosiones y repeticiones incluidas. Tira menos dados o explota solo con el máximo (4d6!)."},
		{"en", "/roll 1d1!", "⚠️ «1d1!» would explode forever: every face explodes. Try: /roll 1d6! (explodes on a 6)"},
		{"es", "/roll 1d6r<7", "⚠️ «1d6r<7» repetiría sin fin: repite cualquier cara. Prueba: /tirar 1d6r1 (repite los 1)"},
		{"en", "/roll 1d20+5 >= 15", "⚠️ «>=» counts successes only right after dice (8d10>=7). To compare the total use vs: /roll 1d20+5 vs 15"},
		// kh0 keeps none and dl4 drops all four: neither is "more than it
		// rolls", as the message said; it now gives the range.
		{"en", "/roll 4d6kh0", "⚠️ «4d6kh0»: kh and kl keep at least 1 die (more than it rolls keeps them all), dh and dl drop fewer than the 4 dice it rolls: at least one die must count. Try: /roll 4d6kh3"},
		{"el", "/roll 4d6dl4", "⚠️ Στο «4d6dl4»: τα kh και kl κρατούν τουλάχιστον 1 ζάρι (αν ζητήσεις περισσότερα απ' όσα ρίχνει, τα κρατούν όλα), και τα dh και dl πετούν λιγότερα από τα 4 που ρίχνει: τουλάχιστον ένα ζάρι πρέπει να μετρά. Δοκίμασε: /roll 4d6kh3"},
		{"es", "/roll {2d6+1d6}kh0", "⚠️ «{2d6+1d6}kh0»: kh y kl se quedan con al menos 1 dado (con más de los que tira, se queda con todos), y dh y dl descartan menos de los 3 que tira: al menos un dado tiene que contar. Prueba: /tirar 4d6kh3"},
		{"en", "/roll " + strings.Repeat("(", 25) + "1" + strings.Repeat(")", 25), "⚠️ Too many nested brackets or signs (at most 20). Simplify the expression."},
		{"en", "/roll 1000000*1000000*10000", "⚠️ The result would be huge (over a quadrillion). Use smaller numbers."},
		{"en", "/roll 1d6/(1d2-1)", "⚠️ The roll divided by zero. Use a divisor that can't be 0, for example: /roll 1d6/2"},
		// The sort glued before another modifier was "I don't understand",
		// with /roll 2d6+3 as the hint; the answer now gives the roll to type.
		{"en", "/roll 4d6sdkh3+1", "⚠️ «4d6sdkh3»: write the sort (s, sa, sd) after the other modifiers, last: /roll 4d6kh3sd+1"},
		{"es", "/roll 2d20+8d6sro1 # daño", "⚠️ «8d6sro1»: el orden (s, sa, sd) va detrás de los demás modificadores, al final: /tirar 2d20+8d6ro1s # daño"},
		{"el", "/roll {4δ6sakl2, 1d6}kh1", "⚠️ Στο «4δ6sakl2» η ταξινόμηση (όπως 8d6s, 8d6sd) γράφεται μετά τους άλλους τροποποιητές, στο τέλος: /roll {4δ6kl2sa, 1d6}kh1"},
		{"en", "/roll 4d6sdkh9", "⚠️ «4d6sdkh9»: write the sort (s, sa, sd) after the other modifiers, last: /roll 4d6kh9sd"}, // kh9 keeps all four (Roll20)
		{"en", "/roll 3d6sx", "⚠️ I don't understand «3d6sx». Try: /roll 2d6+3 · with advantage: /roll 2d20kh1+5 (or /roll 1d20+5 adv)"},
		// grouped rolls
		{"en", "/roll {1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6}kh1", "⚠️ A group {…} holds at most 10 expressions separated by commas (11 given). Split it into several rolls."},
		{"es", "/roll {1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6}kh1", "⚠️ Un grupo {…} tiene como mucho 10 expresiones separadas por comas (hay 11). Divídelo en varias tiradas."},
		{"el", "/roll {1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6,1d6}kh1", "⚠️ Μια ομάδα {…} έχει το πολύ 10 εκφράσεις χωρισμένες με κόμματα (δόθηκαν 11). Χώρισέ την σε περισσότερες ρίψεις."},
		{"en", "/roll {1d20, {1d20, 1d20}kh1}kh1", "⚠️ A group {…} can't contain another group. Try: /roll {1d20+5, 1d20+5}kh1"},
		{"es", "/roll {4d6kh3+1d6}kh1", "⚠️ «{4d6kh3+1d6}kh1»: con una sola expresión, el grupo se queda con sus dados o los cuenta: suma solo dados (y, con kh, kl, dh o dl, números), sin kh ni >= propios. Prueba: /tirar {4d6+3d8}kh1 o /tirar {3d20}>=15. Para comparar totales, sepáralos con comas: /tirar {3d20+5, 2d10}>=15"},
		{"en", "/roll {1d20, 1d20}kh0", "⚠️ «{1d20, 1d20}kh0»: kh and kl keep at least 1 expression (more than the group has keeps them all), dh and dl drop fewer than its 2: at least one must count. Try: /roll {1d20, 1d20}kh1"},
		{"es", "/roll {1d20, 1d20, 1d20}dl3", "⚠️ «{1d20, 1d20, 1d20}dl3»: kh y kl se quedan con al menos 1 expresión (con más de las que tiene el grupo, con todas), y dh y dl descartan menos de sus 3: al menos una tiene que contar. Prueba: /tirar {1d20, 1d20}kh1"},
	}
	for _, c := range cases {
		var faces []int
		if strings.Contains(c.in, "1d2-1") {
			faces = []int{3, 1}
		}
		rep := run(t, r, c.lang, c.in, faces...)
		if got := plain(rep); got != c.want || !rep.Error {
			t.Errorf("%s %q:\n%s\nwant\n%s", c.lang, c.in, got, c.want)
		}
	}
	// Every dice error code has a message in every language.
	cat, _ := i18n.Load()
	for _, code := range []string{dice.CodeEmpty, dice.CodeSyntax, dice.CodeSortFirst, dice.CodeUnexpectedEnd, dice.CodeUnclosed, dice.CodeTooLong,
		dice.CodeTooManyDice, dice.CodeNoDice, dice.CodeTooManySides, dice.CodeNoSides, dice.CodeTooManyDraws, dice.CodeRepeat,
		dice.CodeTooDeep, dice.CodeTooManyTerms, dice.CodeTooManyGroups, dice.CodeNumberTooBig, dice.CodeOverflow,
		dice.CodeDivZero, dice.CodeExplodeAlways, dice.CodeRerollAlways, dice.CodeKeepCount, dice.CodeDuplicate,
		dice.CodeFailureAlone, dice.CodeTargetDice, dice.CodeCompareOutside, dice.CodeLabelTooLong, dice.CodeNameTooLong,
		dice.CodeGroupTooBig, dice.CodeGroupNested, dice.CodeGroupPerDie, dice.CodeGroupKeep} {
		for _, lang := range core.Langs() {
			key := "dice.err." + code
			if got := cat.Translate(lang, key, map[string]any{"near": "x", "max": 1, "got": 2, "want": "y"}); got == key || strings.Contains(got, "no value") {
				t.Errorf("%s %s: %q", lang, key, got)
			}
		}
	}
}

// TestRollScriptErrors: --dice that do not fit are reported, never
// replaced by random dice.
func TestRollScriptErrors(t *testing.T) {
	r := newRouter(t, nil)
	rep := run(t, r, "en", "/roll 3d6", 1, 2)
	if !rep.Error || !strings.Contains(plain(rep), "2 given, but this roll needs at least 3") {
		t.Errorf("short script: %q", plain(rep))
	}
	rep = run(t, r, "en", "/roll 1d6", 7)
	if !rep.Error || !strings.Contains(plain(rep), "die 1 is 7, but a d6 only shows 1 to 6") {
		t.Errorf("bad face: %q", plain(rep))
	}
}

// TestRollSummary: too many dice for a phone give sums and a note, and
// stay under the router's output limit.
func TestRollSummary(t *testing.T) {
	r := newRouter(t, nil)
	rep := run(t, r, "es", "/roll 10#100d6")
	got := plain(rep)
	if !strings.Contains(got, "[Σ ") || !strings.Contains(got, "solo las sumas") || strings.Count(got, "\n") != 11 {
		t.Errorf("summary:\n%s", got)
	}
	if len([]rune(got)) > 3500 {
		t.Errorf("summary is %d characters", len([]rune(got)))
	}
	if len(rep.Check.Dice) != 1000 {
		t.Errorf("check has %d dice, want all 1000", len(rep.Check.Dice))
	}
	rep = run(t, r, "en", "/roll 50d6")
	if !strings.Contains(plain(rep), "sums only") {
		t.Errorf("one big term:\n%s", plain(rep))
	}
}

func TestNumber(t *testing.T) {
	if got := Number("es", 10.5, false); got != "10,5" {
		t.Errorf("Number = %q", got)
	}
	if got := Number("en", -0.333, true); got != "≈−0.33" {
		t.Errorf("Number = %q", got)
	}
}

// TestRollDrawsOnTheMessageBudget: the dice, the repeats and the odds of a
// roll are drawn from the message's work budget (command.Limits.MaxWork):
// exact odds when they fit, sampled (≈) with what is left, and a clear
// message when not even that fits.
func TestRollDrawsOnTheMessageBudget(t *testing.T) {
	withBudget := func(work int) *command.Router {
		cat, err := i18n.Load()
		if err != nil {
			t.Fatal(err)
		}
		st := memory.New()
		for _, l := range core.Langs() {
			_ = st.SaveSettings(context.Background(), core.ChatRef{Platform: "console", ID: l}, core.Settings{Lang: l})
		}
		r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: st,
			Limits: command.Limits{Burst: 1 << 30, MaxWork: work}})
		Register(r)
		return r
	}
	// The default budget: exact odds.
	got := plain(run(t, newRouter(t, nil), "en", "/roll 30d6 vs 105 ?"))
	if !strings.Contains(got, "📊 Chance: 52.12% · mean 105") {
		t.Errorf("default budget:\n%s", got)
	}
	// A small one: the same odds, sampled.
	got = plain(run(t, withBudget(10_000), "en", "/roll 30d6 vs 105 ?"))
	if !strings.Contains(got, "📊 Chance: ≈") {
		t.Errorf("small budget:\n%s", got)
	}
	// Too small for a sample after the roll itself.
	for lang, want := range map[string]string{
		"es": "⚠️ Eso cuesta demasiado trabajo para un solo mensaje. Divídelo en órdenes más pequeñas.",
		"el": "⚠️ Αυτό θέλει πολλή δουλειά για ένα μόνο μήνυμα. Χώρισέ το σε μικρότερες εντολές.",
		"en": "⚠️ That is too much work for one message. Split it into smaller commands.",
	} {
		rep := run(t, withBudget(1_100), lang, "/roll 20#10d6 vs 35 ?")
		if got := plain(rep); got != want || !rep.Error {
			t.Errorf("%s: %q", lang, got)
		}
		// Without odds the same roll fits.
		if rep := run(t, withBudget(1_100), lang, "/roll 20#10d6"); rep.Error {
			t.Errorf("%s without odds: %q", lang, plain(rep))
		}
	}
	// The repeats are counted before rolling.
	if rep := run(t, withBudget(100), "en", "/roll 20#10d6"); !rep.Error || !strings.Contains(plain(rep), "too much work") {
		t.Errorf("200 dice in a budget of 100: %q", plain(rep))
	}
	// So are the dice of every expression of a group, and its odds are
	// sampled with a small budget like any other.
	if rep := run(t, withBudget(100), "en", "/roll 2#{20d6, 20d6, 20d6}kh1"); !rep.Error || !strings.Contains(plain(rep), "too much work") {
		t.Errorf("120 grouped dice in a budget of 100: %q", plain(rep))
	}
	got = plain(run(t, withBudget(10_000), "en", "/roll {30d6, 30d6}kh1 vs 105 ?"))
	if !strings.Contains(got, "📊 Chance: ≈") {
		t.Errorf("small budget, grouped:\n%s", got)
	}
	got = plain(run(t, newRouter(t, nil), "en", "/roll {30d6, 30d6}kh1 vs 105 ?"))
	if !strings.Contains(got, "📊 Chance: 77.08%") {
		t.Errorf("default budget, grouped:\n%s", got)
	}
}

// TestNestingMessage: issue 10. The nesting limit says the number of
// parentheses a user may type (it said 20 where 9 was the real limit).
func TestNestingMessage(t *testing.T) {
	r := newRouter(t, nil)
	ok := "/roll " + strings.Repeat("(", dice.MaxDepth) + "1d6" + strings.Repeat(")", dice.MaxDepth)
	if rep := run(t, r, "es", ok, 4); rep.Error || !strings.Contains(plain(rep), "= 4") {
		t.Errorf("20 parentheses: %q", plain(rep))
	}
	deep := "/roll " + strings.Repeat("(", dice.MaxDepth+1) + "1d6" + strings.Repeat(")", dice.MaxDepth+1)
	for lang, want := range map[string]string{
		"es": "⚠️ Demasiados paréntesis o signos anidados (máximo 20). Simplifica la expresión.",
		"en": "⚠️ Too many nested brackets or signs (at most 20). Simplify the expression.",
		"el": "⚠️ Πάρα πολλές φωλιασμένες παρενθέσεις ή πρόσημα (το πολύ 20). Απλοποίησε την έκφραση.",
	} {
		if got := plain(run(t, r, lang, deep)); got != want {
			t.Errorf("%s: 21 parentheses: %q", lang, got)
		}
	}
}

// TestOneMinusSign: every minus sign of a /roll reply is "−" (issue 11.8):
// subtraction, negative totals and targets, a leading sign, Fudge faces and
// a negative mean. "-" stays accepted as input, and a hyphen inside a label
// is part of the word.
func TestOneMinusSign(t *testing.T) {
	r := newRouter(t, nil)
	cases := []struct {
		lang, in string
		dice     []int
		want     string
	}{
		{"en", "/roll 1d6-10", []int{4}, "🎲 1d6−10\n[4] − 10 = −6"},
		{"es", "/roll -3", nil, "🎲 −3\n−3 = −3"},
		{"en", "/roll 1d20 vs -100", []int{11}, "🎲 1d20\n[11] = 11\n🎯 Against −100: ✅ Success"},
		{"el", "/roll 3#1d6 vs -3", []int{1, 2, 3}, "🎲 3#1d6\n1. [1] = 1 ✅\n2. [2] = 2 ✅\n3. [3] = 3 ✅\n🎯 Εναντίον −3: 3 επιτυχίες στις 3"},
		{"en", "/roll 4dF", []int{1, 2, 3, 1}, "🎲 4dF\n[−, 0, +, −] = −1"},
		{"en", "/roll 1d6−10 ?", []int{2}, "🎲 1d6−10\n[2] − 10 = −8\n📊 Mean: −6.5"},
		{"es", "/roll 1d4[fuego-frío]-1", []int{1}, "🎲 1d4[fuego-frío]−1\n[1] fuego-frío − 1 = 0"},
	}
	for _, c := range cases {
		rep := run(t, r, c.lang, c.in, c.dice...)
		if got := plain(rep); got != c.want {
			t.Errorf("%s %q:\n%s\nwant\n%s", c.lang, c.in, got, c.want)
		}
	}
}
