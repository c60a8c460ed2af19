package pad_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"zaria/core/command"
	"zaria/core/pad"
	"zaria/core/reply"
)

// choose returns the action of the choice labelled label of an asking
// reply, checking it is a run button of the same pad button.
func choose(t *testing.T, rep *reply.Reply, label string) reply.Action {
	t.Helper()
	for _, bt := range rep.Buttons {
		if bt.Label == label {
			if bt.Kind != reply.ButtonRun || bt.Action == nil || bt.Action.Kind != reply.ActRun {
				t.Fatalf("choice %q is not a run button: %+v", label, bt)
			}
			return *bt.Action
		}
	}
	t.Fatalf("no choice %q in:\n%s", label, reply.PlainText(rep))
	return reply.Action{}
}

const armours = "1. armadura de tela\n2. armadura acolchada\n3. armadura de cuero\n4. armadura de pieles\n5. cuero tachonado\n6. cota de anillas\n7. camisote de mallas\n8. cota de escamas\n9. coraza\n10. cota de mallas\n11. armadura de bandas\n12. armadura parcial de placas\n13. armadura completa de placas"

// A button with {objetivo} asks which armour instead of rolling; the
// choice rolls for the presser. Who may press a choice is who may press
// the button; a forged or too long value changes nothing; a restart keeps
// the choices working.
func TestAskedValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pads.db")
	b := open(t, path)
	b.ok(ana, "/pj crear Drake")
	if got := reply.PlainText(b.ok(ana, `/botones añadir "Ataque" /dh ataque espada-larga vs {objetivo}`)); !strings.Contains(got, "✅ Botón 1, «Ataque»: /dh ataque espada-larga vs {objetivo}") {
		t.Errorf("added:\n%s", got)
	}
	acts := runs(t, b.ok(ana, "/botones"))

	before := b.seen.n
	asked := b.press(ana, acts[0])
	if got, want := reply.PlainText(asked), "Ana (Drake): «Ataque»: ¿contra qué armadura?\n"+armours; got != want || asked.Error {
		t.Errorf("asked:\n%s\nwant:\n%s", got, want)
	}
	if len(asked.Buttons) != 13 || asked.Command != "" {
		t.Fatalf("%d choices, command %q", len(asked.Buttons), asked.Command)
	}
	coraza := choose(t, asked, "coraza")
	if coraza.Button != acts[0].Button || !slices.Equal(coraza.Values, []string{"coraza"}) {
		t.Errorf("the choice's action: %+v", coraza)
	}
	if b.seen.n != before {
		t.Errorf("asking is not a roll: logged %d", b.seen.n-before)
	}
	got := reply.PlainText(b.press(ana, coraza))
	if !strings.HasPrefix(got, "Ana (Drake): 🗡️ Espada larga 1d8 (pen 1) vs coraza 3 DB d6") || b.seen.n != before+1 {
		t.Errorf("the choice rolls, logged once (%d):\n%s", b.seen.n-before, got)
	}

	// Bob may not press Ana's button nor its choices; the GM may.
	before = b.seen.n
	for _, a := range []reply.Action{acts[0], coraza} {
		if rep := b.press(bob, a); !rep.Error || reply.PlainText(rep) != "⚠️ Estos botones son de otra persona. Los tuyos: /pad" {
			t.Errorf("Bob's press: %s", reply.PlainText(rep))
		}
	}
	if got := reply.PlainText(b.press(eva, coraza)); !strings.HasPrefix(got, "Eva: 🗡️ Espada larga 1d8 (pen 1) vs coraza") {
		t.Errorf("the GM's choice:\n%s", got)
	}
	if got := reply.PlainText(b.press(eva, acts[0])); !strings.HasPrefix(got, "Eva: «Ataque»: ¿contra qué armadura?") {
		t.Errorf("the GM is asked:\n%s", got)
	}

	// Forged values: not a choice, one too many, too long.
	before = b.seen.n
	for _, c := range []struct {
		values []string
		want   string
	}{
		{[]string{"mithril"}, "⚠️ «mithril» no es una de las opciones de este botón. Vuelve a pulsarlo: /pad"},
		{[]string{"coraza", "coraza"}, "⚠️ «coraza» no es una de las opciones de este botón."},
		{[]string{"d2"}, "⚠️ «d2» no es una de las opciones"},
		{[]string{strings.Repeat("x", pad.MaxValue+1)}, "⚠️ Una opción tiene como mucho 32 caracteres (esta tiene 33)."},
		{[]string{"a", "b", "c", "d", "e", "f", "g"}, "no es una de las opciones"},
	} {
		rep := b.press(ana, reply.Action{Kind: reply.ActRun, Button: acts[0].Button, Values: c.values})
		if !rep.Error || !strings.HasPrefix(reply.PlainText(rep), c.want) && !strings.Contains(reply.PlainText(rep), c.want) {
			t.Errorf("forged %q: %s\nwant %s", c.values, reply.PlainText(rep), c.want)
		}
	}
	if b.seen.n != before {
		t.Errorf("a forged value rolled: %d", b.seen.n-before)
	}

	// A restart: the choice of an old message still rolls.
	b.db.Close()
	b = open(t, path)
	if got := reply.PlainText(b.press(ana, coraza)); !strings.HasPrefix(got, "Ana (Drake): 🗡️ Espada larga 1d8 (pen 1) vs coraza") {
		t.Errorf("after a restart:\n%s", got)
	}
	// The button removed: its choices say so.
	b.ok(ana, "/pad quitar 1")
	if rep := b.press(ana, coraza); !rep.Error || !strings.Contains(reply.PlainText(rep), "Ese botón ya no existe") {
		t.Errorf("a removed button's choice: %s", reply.PlainText(rep))
	}
}

// A saved roll that needs its value is a button that asks for it; the
// other systems ask for their difficulties; a weapon is asked by its group
// first; two values are asked one after the other.
func TestAskedValuesOfEachSystem(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(ana, "/pj crear Drake")
	b.ok(ana, "/pj set sigilo 6")
	b.ok(ana, "/alias tajo /dh ataque espada-larga vs {1}")
	b.ok(ana, "/pad add /tajo")
	b.ok(ana, `/pad add "Sigilo" /daegon sigilo {dificultad}`)
	b.ok(ana, `/pad add "Esquivar" /rq 45 {objetivo}`)
	b.ok(ana, `/pad add "Fuerza" /zaria 4+2 {objetivo}`)
	b.ok(ana, `/pad add "Llave" /kh 5 {objetivo}`)
	b.ok(ana, `/pad add "Golpe" /dh ataque {arma} vs {armadura}`)
	b.ok(ana, `/pad add "Secreto" /gmroll /daegon 7 {objetivo}`)
	shown := b.ok(ana, "/pad")
	if got := reply.PlainText(shown); got != "🎛 Botones de Ana (Drake)\n1. tajo\n2. Sigilo\n3. Esquivar\n4. Fuerza\n5. Llave\n6. Golpe\n7. Secreto" {
		t.Errorf("shown:\n%s", got)
	}
	acts := runs(t, shown)
	for _, c := range []struct {
		n                int
		question, choice string
		rolled           string
	}{
		{0, "Ana (Drake): «tajo»: ¿contra qué armadura?", "cota de mallas", "Ana (Drake): 🗡️ Espada larga 1d8 (pen 1) vs cota de mallas 4 DB d6"},
		{1, "Ana (Drake): «Sigilo»: ¿qué dificultad?\n1. fácil (D1)\n2. media (D2)\n3. difícil (D3)\n4. muy difícil (D4)\n5. extremadamente difícil (D5)\n6. casi imposible (D6)\n7. solo para maestros (D7)", "difícil (D3)", "NH sigilo 6 (competente) · D3 (difícil)"},
		{2, "Ana (Drake): «Esquivar»: ¿qué dificultad?\n1. rutinario (+50)\n2. muy fácil (+30)\n3. fácil (+10)\n4. algo fácil (0)", "difícil (−90)", "(50 + 45 − 90 difícil)"},
		{3, "Ana (Drake): «Fuerza»: ¿qué dificultad?\n1. ridículamente fácil (CD 5)\n2. fácil (CD 10)\n3. media (CD 15)", "dura (CD 20)", "CD 20 (dura)"},
		{4, "Ana (Drake): «Llave»: ¿qué dificultad?\n1. fácil (4)", "legendario (20)", "dificultad 20 (legendario)"},
		{6, "Ana (Drake): «Secreto»: ¿qué dificultad?", "media (D2)", "Ana (Drake): 🤫"},
	} {
		asked := b.press(ana, acts[c.n])
		if got := reply.PlainText(asked); !strings.HasPrefix(got, c.question) {
			t.Errorf("button %d asks:\n%s\nwant:\n%s", c.n+1, got, c.question)
			continue
		}
		rep := b.press(ana, choose(t, asked, c.choice))
		if got := reply.PlainText(rep); rep.Error || !strings.Contains(got, c.rolled) || !strings.HasPrefix(got, "Ana (Drake): ") {
			t.Errorf("button %d, %s:\n%s\nwant %q", c.n+1, c.choice, got, c.rolled)
		}
	}

	// Golpe: the weapon's group, the weapon, then the armour.
	asked := b.press(ana, acts[5])
	if got := reply.PlainText(asked); got != "Ana (Drake): «Golpe»: ¿qué clase de arma?\n1. ligeras\n2. a una mano\n3. a dos manos\n4. arrojadizas\n5. de puño\n6. a distancia" {
		t.Errorf("groups:\n%s", got)
	}
	asked = b.press(ana, choose(t, asked, "a una mano"))
	if got := reply.PlainText(asked); !strings.HasPrefix(got, "Ana (Drake): «Golpe»: ¿con qué arma?\n1. bastón\n2. espada larga\n") || len(asked.Buttons) != 11 {
		t.Errorf("one-handed weapons (%d):\n%s", len(asked.Buttons), got)
	}
	asked = b.press(ana, choose(t, asked, "espada larga"))
	if got := reply.PlainText(asked); got != "Ana (Drake): «Golpe»: ¿contra qué armadura?\n"+armours {
		t.Errorf("then the armour:\n%s", got)
	}
	last := choose(t, asked, "coraza")
	if !slices.Equal(last.Values, []string{"#2", "espada-larga", "coraza"}) {
		t.Errorf("values: %q", last.Values)
	}
	if got := reply.PlainText(b.press(ana, last)); !strings.HasPrefix(got, "Ana (Drake): 🗡️ Espada larga 1d8 (pen 1) vs coraza") {
		t.Errorf("Golpe:\n%s", got)
	}
	// A weapon of another group, or a group that is not one, is refused.
	for _, v := range [][]string{{"#1", "espada-larga"}, {"#7"}, {"espada-larga"}} {
		if rep := b.press(ana, reply.Action{Kind: reply.ActRun, Button: acts[5].Button, Values: v}); !rep.Error || !strings.Contains(reply.PlainText(rep), "no es una de las opciones") {
			t.Errorf("forged %q: %s", v, reply.PlainText(rep))
		}
	}
}

// A chat's pad asks whoever presses it, and rolls for them.
func TestChatPadAsks(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(eva, `/pad --chat add "Esquivar" /rq 45 {objetivo}`)
	b.ok(bob, "/pj crear Kira")
	acts := runs(t, b.ok(bob, "/pad --chat"))
	asked := b.press(bob, acts[0])
	if got := reply.PlainText(asked); !strings.HasPrefix(got, "Bob (Kira): «Esquivar»: ¿qué dificultad?\n1. rutinario (+50)") {
		t.Errorf("Bob is asked:\n%s", got)
	}
	if got := reply.PlainText(b.press(bob, choose(t, asked, "normal (−30)"))); !strings.HasPrefix(got, "Bob (Kira): 🎲") || !strings.Contains(got, "50 + 45 − 30 normal") {
		t.Errorf("Bob's roll:\n%s", got)
	}
	// Ana presses the choice Bob was offered: it rolls for her.
	if got := reply.PlainText(b.press(ana, choose(t, asked, "normal (−30)"))); !strings.HasPrefix(got, "Ana: 🎲") {
		t.Errorf("Ana's roll:\n%s", got)
	}
}

// A value no system lists is refused when the button is added, saying
// what to write instead; {1} and {*} keep their /alias meaning.
func TestAskedValueRefused(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(ana, "/alias tiro /roll 2d6+{1}")
	for _, c := range []struct{ text, want string }{
		{"/pad add /zaria {objetivo} dc15", "⚠️ No tengo opciones que ofrecer para {objetivo} en «/zaria {objetivo} dc15». Escribe el valor en el botón en su lugar, p. ej. /pad añadir /daegon 7 difícil."},
		{"/pad add /daegon 7 {armadura}", "No tengo opciones que ofrecer para {armadura}"},
		{"/pad add /zaria 4+2 vs {objetivo}", "No tengo opciones que ofrecer para {objetivo}"},
		{"/pad add /roll d20 {dificultad}", "No tengo opciones que ofrecer para {dificultad}"},
		{"/pad add /tiro", "No tengo opciones que ofrecer para {1} en «/tiro»"},
		{"/pad add /daegon 7 {nivel}", "⚠️ No sé pedir «{nivel}». Un botón puede pedir {objetivo}, {dificultad}, {armadura} o {arma}: /pad añadir /dh ataque espada-larga vs {objetivo}"},
		{"/pad add /dh ataque {arma} vs {armadura} {objetivo} {dificultad}", "⚠️ Un botón pide como mucho 3 valores (este pide 4). Escribe alguno en el botón."},
	} {
		b.fails(ana, c.text, c.want)
	}
	if got := reply.PlainText(b.ok(ana, "/pad lista")); !strings.Contains(got, "Sin botones") {
		t.Errorf("nothing was added:\n%s", got)
	}
	// {1} in a button's command is not asked: the button saves a roll.
	b.ok(ana, "/pad add /alias doble /roll 2d{1}")
	b.ok(ana, "/pad add /tiro 3")
	acts := runs(t, b.ok(ana, "/pad"))
	if got := reply.PlainText(b.press(ana, acts[0])); !strings.Contains(got, "doble") {
		t.Errorf("the /alias button:\n%s", got)
	}
	if got := reply.PlainText(b.ok(ana, "/doble 6")); !strings.Contains(got, "🎲 2d6") {
		t.Errorf("/doble 6:\n%s", got)
	}
	if got := reply.PlainText(b.press(ana, acts[1])); !strings.HasPrefix(got, "Ana: 🎲 2d6+3") {
		t.Errorf("/tiro 3:\n%s", got)
	}
	// A value sent to a button that asks nothing is refused.
	if rep := b.press(ana, reply.Action{Kind: reply.ActRun, Button: acts[1].Button, Values: []string{"3"}}); !rep.Error || !strings.Contains(reply.PlainText(rep), "«3» no es una de las opciones") {
		t.Errorf("a value for no question: %s", reply.PlainText(rep))
	}
	// A saved roll changed after the button was made: the press says so.
	b.ok(ana, "/alias tajo /dh ataque espada-larga vs {1}")
	b.ok(ana, "/pad add /tajo")
	b.ok(ana, "/alias tajo /roll d20+{1}")
	acts = runs(t, b.ok(ana, "/pad"))
	if rep := b.press(ana, acts[2]); !rep.Error || !strings.Contains(reply.PlainText(rep), "No tengo opciones que ofrecer para {1} en «/tajo»") {
		t.Errorf("a saved roll changed: %s", reply.PlainText(rep))
	}
}

// MaxChoices: a list longer than a question holds, without groups, is
// refused, in each language; one that fits is asked.
func TestAskedValueLimits(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	list := func(n int, group bool) command.ChoicesFunc {
		return func(_ context.Context, req *command.Request, words []string, i int) (*command.ChoiceList, error) {
			l := &command.ChoiceList{Kind: command.ChoiceDifficulty}
			for k := range n {
				c := command.Choice{Label: "n" + string(rune('a'+k%26)) + string(rune('a'+k/26)), Value: "v" + string(rune('a'+k%26)) + string(rune('a'+k/26))}
				if group {
					c.Group = "g" + string(rune('a'+k/3))
				}
				l.Choices = append(l.Choices, c)
			}
			return l, nil
		}
	}
	echo := command.HandlerFunc(func(_ context.Context, req *command.Request) (*reply.Reply, error) {
		return reply.Text("echo " + req.Args), nil
	})
	b.r.Register(command.Command{Name: "fits", Handler: echo, Choices: list(pad.MaxChoices, false)})
	b.r.Register(command.Command{Name: "many", Handler: echo, Choices: list(pad.MaxChoices+1, false)})
	b.r.Register(command.Command{Name: "grouped", Handler: echo, Choices: list(3*pad.MaxChoices, true)})
	b.r.Register(command.Command{Name: "groups", Handler: echo, Choices: list(3*pad.MaxChoices+1, true)})
	for _, c := range []struct{ lang, want string }{
		{"es", "⚠️ {objetivo} tendría 26 opciones, más de las 25 que caben. Escribe el valor en el botón en su lugar."},
		{"el", "⚠️ Το {objetivo} θα είχε 26 επιλογές, περισσότερες από τις 25 που χωρούν. Γράψε την τιμή στο κουμπί στη θέση του."},
		{"en", "⚠️ {objetivo} would have 26 choices, more than the 25 that fit. Write the value on the button instead."},
	} {
		b.ok(eva, "/lang "+c.lang)
		b.fails(ana, "/pad add /many {objetivo}", c.want)
		b.fails(ana, "/pad add /groups {objetivo}", strings.ReplaceAll(c.want, "26", "76"))
	}
	b.ok(eva, "/lang en")
	b.ok(ana, "/pad add /fits {objetivo}")
	b.ok(ana, "/pad add /grouped {target}")
	acts := runs(t, b.ok(ana, "/pad"))
	asked := b.press(ana, acts[0])
	if len(asked.Buttons) != pad.MaxChoices || !strings.HasPrefix(reply.PlainText(asked), "Ana: “fits …”: which difficulty?\n1. naa\n") {
		t.Errorf("%d choices:\n%s", len(asked.Buttons), reply.PlainText(asked))
	}
	if got := reply.PlainText(b.press(ana, *asked.Buttons[24].Action)); got != "Ana: echo vya" {
		t.Errorf("the 25th: %s", got)
	}
	asked = b.press(ana, acts[1])
	if len(asked.Buttons) != pad.MaxChoices || !strings.HasPrefix(reply.PlainText(asked), "Ana: “grouped …”: which group of difficulties?\n1. ga\n") {
		t.Errorf("%d groups:\n%s", len(asked.Buttons), reply.PlainText(asked))
	}
	asked = b.press(ana, *asked.Buttons[24].Action)
	if got := reply.PlainText(asked); got != "Ana: “grouped …”: which difficulty?\n1. nuc\n2. nvc\n3. nwc" {
		t.Errorf("the last group:\n%s", got)
	}
	if got := reply.PlainText(b.press(ana, *asked.Buttons[2].Action)); got != "Ana: echo vwc" {
		t.Errorf("its last: %s", got)
	}
	for _, c := range []struct{ lang, long, bad string }{
		{"el", "⚠️ Μια επιλογή έχει το πολύ 32 χαρακτήρες (αυτή έχει 33).", "⚠️ Το «zz» δεν είναι μία από τις επιλογές αυτού του κουμπιού. Πάτησέ το ξανά: /pad"},
		{"en", "⚠️ A choice has at most 32 characters (this one has 33).", "⚠️ “zz” is not one of this button's choices. Press it again: /pad"},
	} {
		b.ok(eva, "/lang "+c.lang)
		if got := reply.PlainText(b.press(ana, reply.Action{Kind: reply.ActRun, Button: acts[0].Button, Values: []string{strings.Repeat("é", 33)}})); got != c.long {
			t.Errorf("%s: %s", c.lang, got)
		}
		if got := reply.PlainText(b.press(ana, reply.Action{Kind: reply.ActRun, Button: acts[0].Button, Values: []string{"zz"}})); got != c.bad {
			t.Errorf("%s: %s", c.lang, got)
		}
	}
}

// Asking in Greek and English: the question, the choices and the roll.
func TestAskedValueInOtherLanguages(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(eva, "/lang el")
	b.ok(ana, "/pj crear Drake")
	b.ok(ana, `!κουμπιά προσθήκη "Επίθεση" /dh επίθεση μακρύ-σπαθί εναντίον {στόχος}`)
	acts := runs(t, b.ok(ana, "!κουμπιά"))
	asked := b.press(ana, acts[0])
	if got := reply.PlainText(asked); !strings.HasPrefix(got, "Ana (Drake): «Επίθεση»: εναντίον ποιας πανοπλίας;\n1. υφασμάτινη πανοπλία\n") {
		t.Errorf("el:\n%s", got)
	}
	if got := reply.PlainText(b.press(ana, choose(t, asked, "θώρακας"))); !strings.HasPrefix(got, "Ana (Drake): 🗡️") || !strings.Contains(got, "θώρακας") {
		t.Errorf("el roll:\n%s", got)
	}
	b.fails(ana, "/pad προσθήκη /daegon 7 {πανοπλία}", "Δεν έχω επιλογές να προσφέρω για το {πανοπλία}")
	b.ok(eva, "/lang en")
	b.ok(ana, `/pad add "Sneak" /daegon 7 {difficulty}`)
	acts = runs(t, b.ok(ana, "/pad"))
	asked = b.press(ana, acts[1])
	if got := reply.PlainText(asked); !strings.HasPrefix(got, "Ana (Drake): “Sneak”: which difficulty?\n1. easy (D1)\n2. medium (D2)\n3. hard (D3)") {
		t.Errorf("en:\n%s", got)
	}
	if got := reply.PlainText(b.press(ana, choose(t, asked, "hard (D3)"))); !strings.Contains(got, "D3 (hard)") {
		t.Errorf("en roll:\n%s", got)
	}
	b.fails(ana, "/pad add /daegon 7 {armour}", "I have no choices to offer for {armour} in “/daegon 7 {armour}”. Write the value on the button instead, e.g. /pad add /daegon 7 hard.")
}

// An empty value (forged callback data "p:<id>:") is not the absence of
// one: it is refused, also where the first question asks a group, and
// nothing is asked again or rolled.
func TestAskedValueEmptyRefused(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(ana, `/pad add "Tajo" /dh ataque {arma} vs coraza`)
	b.ok(ana, `/pad add "Golpe" /dh ataque espada-larga vs {objetivo}`)
	acts := runs(t, b.ok(ana, "/pad"))
	before := b.seen.n
	for _, a := range acts {
		for _, vs := range [][]string{{""}, {"", ""}, {"#1", ""}} {
			rep := b.press(ana, reply.Action{Kind: reply.ActRun, Button: a.Button, Values: vs})
			if !rep.Error || !strings.Contains(reply.PlainText(rep), "no es una de las opciones") {
				t.Errorf("button %d with %q: %s", a.Button, vs, reply.PlainText(rep))
			}
		}
	}
	if b.seen.n != before {
		t.Errorf("an empty value rolled: %d", b.seen.n-before)
	}
}
