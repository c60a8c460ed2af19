package pad_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/pad"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// counter sees every answered command, where the roll history sits.
type counter struct{ n int }

func (c *counter) Observe(context.Context, *command.Request, *reply.Reply, time.Duration) { c.n++ }

type bot struct {
	t    testing.TB
	r    *command.Router
	db   *sqlite.DB
	seen *counter
}

// open builds the router on the database file at path, as main does.
func open(t testing.TB, path string) *bot {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	chars := chattest.NewServices(db, chattest.Options{Validators: systems.SheetValidators()})
	seen := &counter{}
	r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: db, GMs: db,
		Sheets: chars.Sheets, Aliases: chars.Aliases, Observers: []command.Observer{chars.History, seen}, Unlimited: []string{"test"}})
	roll.Register(r)
	systems.Register(r)
	chars.Register(r)
	general.Register(r, general.Options{Version: "test"})
	pad.Register(r, pad.New(db, pad.Options{
		ActiveName: db.ActiveCharacterName, Undo: db}))
	return &bot{t: t, r: r, db: db, seen: seen}
}

var (
	here = core.ChatRef{Platform: "test", ID: "-100"}
	ana  = core.User{ID: "u1", Name: "Ana"}
	bob  = core.User{ID: "u2", Name: "Bob"}
	eva  = core.User{ID: "u3", Name: "Eva"} // the chat's admin
)

func msg(u core.User) core.Message {
	return core.Message{Chat: here, From: u, FromGM: u == eva}
}

func (b *bot) say(u core.User, text string) *reply.Reply {
	b.t.Helper()
	m := msg(u)
	m.Text = text
	rep, ok := b.r.Dispatch(context.Background(), m)
	if !ok {
		b.t.Fatalf("%q not answered", text)
	}
	return rep
}

func (b *bot) ok(u core.User, text string) *reply.Reply {
	b.t.Helper()
	rep := b.say(u, text)
	if rep.Error {
		b.t.Fatalf("%q: %s", text, reply.PlainText(rep))
	}
	return rep
}

func (b *bot) fails(u core.User, text, want string) {
	b.t.Helper()
	rep := b.say(u, text)
	if !rep.Error || !strings.Contains(reply.PlainText(rep), want) {
		b.t.Errorf("%q: %s\nwant an error with %q", text, reply.PlainText(rep), want)
	}
}

func (b *bot) press(u core.User, a reply.Action) *reply.Reply {
	b.t.Helper()
	rep, ok := b.r.Press(context.Background(), msg(u), a)
	if !ok {
		b.t.Fatalf("press %+v by %s not answered", a, u.Name)
	}
	return rep
}

// runs returns the Run actions of a pad's reply, in order.
func runs(t *testing.T, rep *reply.Reply) []reply.Action {
	t.Helper()
	var out []reply.Action
	for _, b := range rep.Buttons {
		if b.Kind != reply.ButtonRun || b.Action == nil || b.Action.Kind != reply.ActRun {
			t.Fatalf("a pad button without a run action: %+v", b)
		}
		out = append(out, *b.Action)
	}
	return out
}

// A player builds a pad from a sheet check, plain dice and a saved roll;
// posting it shows numbered buttons; a press rolls through the router as
// the presser, for their character, and is logged; someone else's press
// gets a notice and rolls nothing; a GM may press it; after a restart the
// same button still rolls.
func TestPersonalPad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pads.db")
	b := open(t, path)
	b.ok(ana, "/pj crear Drake")
	b.ok(ana, "/pj set fuerza 4")
	b.ok(ana, "/pj set atletismo 2")
	b.ok(ana, "/alias tiro /roll 2d6+{1}")
	if got := reply.PlainText(b.ok(ana, "/botones")); !strings.Contains(got, "Botones de Ana (Drake)") || !strings.Contains(got, "Sin botones propios todavía: aquí tienes los dados. Crea los tuyos con /botones añadir") {
		t.Errorf("empty pad:\n%s", got)
	}
	rep := b.ok(ana, `/botones añadir "Ataque" /zaria fuerza+atletismo dc15`)
	if got := reply.PlainText(rep); !strings.Contains(got, "✅ Botón 1, «Ataque»: /zaria fuerza+atletismo dc15") {
		t.Errorf("added:\n%s", got)
	}
	b.ok(ana, "/pad add d20")
	b.ok(ana, "/pad add /tiro 3")
	b.fails(ana, "/pad add /nada 3", "«/nada 3» no es una orden ni una tirada guardada tuya")

	shown := b.ok(ana, "/pad")
	if got, want := reply.PlainText(shown), "🎛 Botones de Ana (Drake)\n1. Ataque\n2. d20\n3. tiro 3"; got != want {
		t.Errorf("shown:\n%s\nwant:\n%s", got, want)
	}
	acts := runs(t, shown)
	if len(acts) != 3 || shown.Buttons[0].Label != "Ataque" || shown.Buttons[2].Label != "tiro 3" {
		t.Fatalf("buttons: %+v", shown.Buttons)
	}
	if got := reply.PlainText(b.ok(ana, "/pad lista")); !strings.Contains(got, "1. Ataque · /zaria fuerza+atletismo dc15\n2. d20 · /roll d20\n3. tiro 3 · /tiro 3") {
		t.Errorf("list:\n%s", got)
	}

	before := b.seen.n
	got := reply.PlainText(b.press(ana, acts[0]))
	if !strings.HasPrefix(got, "Ana (Drake): ") || !strings.Contains(got, "fuerza 4 + atletismo 2") {
		t.Errorf("Ana's press:\n%s", got)
	}
	if b.seen.n != before+1 {
		t.Errorf("a press is logged once: %d → %d", before, b.seen.n)
	}
	if got := reply.PlainText(b.press(ana, acts[2])); !strings.HasPrefix(got, "Ana (Drake): 🎲 2d6+3") {
		t.Errorf("a saved roll's press:\n%s", got)
	}

	// Bob is not the owner nor a GM: a notice, never a roll.
	before = b.seen.n
	rep = b.press(bob, acts[0])
	if !rep.Error || reply.PlainText(rep) != "⚠️ Estos botones son de otra persona. Los tuyos: /pad" || b.seen.n != before {
		t.Errorf("Bob's press: %s (logged %d)", reply.PlainText(rep), b.seen.n-before)
	}
	// On Matrix ("!" commands) the notice names the command as typed there.
	m := msg(bob)
	m.Prefix = "!"
	if rep, _ := b.r.Press(context.Background(), m, acts[0]); reply.PlainText(rep) != "⚠️ Estos botones son de otra persona. Los tuyos: !pad" {
		t.Errorf("Bob's press on Matrix: %s", reply.PlainText(rep))
	}
	// The chat's admin may press it; the roll is theirs.
	if got := reply.PlainText(b.press(eva, acts[1])); !strings.HasPrefix(got, "Eva: 🎲 d20") {
		t.Errorf("the GM's press:\n%s", got)
	}

	// A restart: the same action, read from a new message, rolls the same button.
	b.db.Close()
	b = open(t, path)
	if got := reply.PlainText(b.press(ana, acts[1])); !strings.HasPrefix(got, "Ana (Drake): 🎲 d20") {
		t.Errorf("after a restart:\n%s", got)
	}

	// Arrange: move, rename, remove; an old message's button keeps its meaning.
	b.ok(ana, "/pad move 3 1")
	b.ok(ana, `/pad rename 2 "Golpe"`)
	if got := reply.PlainText(b.ok(ana, "/pad")); got != "🎛 Botones de Ana (Drake)\n1. tiro 3\n2. Golpe\n3. d20" {
		t.Errorf("arranged:\n%s", got)
	}
	if got := reply.PlainText(b.press(ana, acts[1])); !strings.Contains(got, "🎲 d20") {
		t.Errorf("an old message's d20 after moving:\n%s", got)
	}
	b.ok(ana, "/pad quitar 3")
	rep = b.press(ana, acts[1])
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "Ese botón ya no existe. /pad muestra los actuales.") {
		t.Errorf("a removed button: %s", reply.PlainText(rep))
	}
	b.fails(ana, "/pad quitar 7", "No hay botón «7»: los botones de esta botonera van del 1 al 2.")
	b.fails(ana, "/pad mover 1", "Di qué botón y adónde: /pad mover 3 1")
	b.fails(ana, "/pad bailar", "Uso: /pad muestra tus botones")
	if got := reply.PlainText(b.ok(ana, "/pad vaciar")); got != "🗑 2 botones quitados.\n↩️ ¿Ha sido un error? /pad deshacer los recupera durante 15 minutos." {
		t.Errorf("clear: %s", got)
	}
	b.fails(ana, "/pad quitar 1", "Esta botonera no tiene botones todavía.")

	// Another chat cannot press this chat's buttons.
	b.ok(ana, "/pad add d6")
	acts = runs(t, b.ok(ana, "/pad"))
	other := msg(ana)
	other.Chat.ID = "-200"
	rep, _ = b.r.Press(context.Background(), other, acts[0])
	if rep == nil || !rep.Error || !strings.Contains(reply.PlainText(rep), "ya no existe") {
		t.Errorf("a button pressed in another chat: %v", rep)
	}
}

// The chat's pad is made by GMs and pressed by anyone, each for their own
// character.
func TestChatPad(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.fails(bob, "/pad --chat add 2d6", "Solo el máster cambia los botones de la mesa.")
	// The table's pad is shown with --chat, and rolls for whoever presses.
	if got := reply.PlainText(b.ok(eva, "/pad --chat add 2d6")); !strings.Contains(got, "/pad --chat muestra los botones de la mesa") {
		t.Errorf("adding to the table's pad:\n%s", got)
	}
	b.ok(eva, `/pad --chat add "Iniciativa" d20+2`)
	b.ok(bob, "/pj crear Kira")
	shown := b.ok(bob, "/pad --chat")
	if got := reply.PlainText(shown); got != "🎛 Botones de la mesa\n1. 2d6\n2. Iniciativa" {
		t.Errorf("chat pad:\n%s", got)
	}
	acts := runs(t, shown)
	if got := reply.PlainText(b.press(bob, acts[1])); !strings.HasPrefix(got, "Bob (Kira): 🎲 d20+2") {
		t.Errorf("Bob's press:\n%s", got)
	}
	if got := reply.PlainText(b.press(ana, acts[0])); !strings.HasPrefix(got, "Ana: 🎲 2d6") {
		t.Errorf("Ana's press:\n%s", got)
	}
	// The chat's pad and Bob's are different pads.
	if got := reply.PlainText(b.ok(bob, "/pad")); !strings.Contains(got, "Sin botones") {
		t.Errorf("Bob's own pad:\n%s", got)
	}
	b.fails(bob, "/pad --chat vaciar", "Solo el máster")
	if got := reply.PlainText(b.ok(eva, "/pad --chat vaciar")); got != "🗑 2 botones quitados.\n↩️ ¿Ha sido un error? /pad deshacer los recupera durante 15 minutos." {
		t.Errorf("clear: %s", got)
	}
}

// Every limit of a pad has its number and its error in each language.
func TestPadLimits(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	long := strings.Repeat("x", pad.MaxLabel+1)
	cmd := "/roll d20 # " + strings.Repeat("y", pad.MaxCommand-len("/roll d20 # ")+1)
	for _, c := range []struct {
		lang, label, command, full string
	}{
		{"es", "El nombre de un botón tiene como mucho 24 caracteres (este tiene 25).",
			"La orden de un botón tiene como mucho 200 caracteres (esta tiene 201).",
			"Esta botonera ya tiene 25 botones, el máximo. Quita uno, p. ej. el 3.º: /pad quitar 3."},
		{"el", "Το όνομα ενός κουμπιού έχει το πολύ 24 χαρακτήρες (αυτό έχει 25).",
			"Η εντολή ενός κουμπιού έχει το πολύ 200 χαρακτήρες (αυτή έχει 201).",
			"Αυτός ο πίνακας έχει ήδη 25 κουμπιά, το μέγιστο. Αφαίρεσε ένα, π.χ. το 3ο: /pad αφαίρεση 3."},
		{"en", "A button's name has at most 24 characters (this one has 25).",
			"A button's command has at most 200 characters (this one has 201).",
			"This pad already has 25 buttons, the most it holds. Remove one, e.g. the 3rd: /pad remove 3."},
	} {
		b.ok(eva, "/lang "+c.lang)
		b.fails(ana, `/pad add "`+long+`" d20`, c.label)
		b.fails(ana, `/pad add "x" `+cmd, c.command)
		b.ok(ana, `/pad add "x" `+cmd[:len(cmd)-1])
		b.ok(ana, `/pad add "`+long[1:]+`" d20`)
		for range pad.MaxButtons - 2 {
			b.ok(ana, "/pad add d20")
		}
		b.fails(ana, "/pad add d20", c.full)
		b.ok(ana, "/pad rename 1 ok")
		b.fails(ana, "/pad rename 1 "+long, strings.Split(c.label, "(")[0])
		b.ok(ana, "/pad clear")
	}
	// A label too long for a button, taken from the command, is shortened.
	b.ok(eva, "/lang en")
	b.ok(ana, "/pad add 1d20+1d12+1d10+1d8+1d6")
	if got := b.ok(ana, "/pad").Buttons[0].Label; got != "1d20+1d12+1d10+1d8+1d6" {
		t.Errorf("label %q", got)
	}
	b.ok(ana, "/pad add 1d20+1d12+1d10+1d8+1d6+1d4+3")
	if got := b.ok(ana, "/pad").Buttons[1].Label; got != "1d20+1d12+1d10+1d8+1d6+…" {
		t.Errorf("label %q", got)
	}
}

// Notices and attribution in Greek and English; a secret roll on a button
// stays secret and says who rolled; a file command is not a button.
func TestPadInOtherLanguagesAndSecret(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(eva, "/lang el")
	b.ok(ana, "/pj crear Drake")
	b.ok(ana, "/pad add d20")
	b.ok(ana, "/pad add /gmroll d20")
	b.fails(ana, "/pad add /importar", "Το «/importar» θέλει συνημμένο αρχείο: δεν μπορεί να γίνει κουμπί.")
	shown := b.ok(ana, "!κουμπιά")
	if got := reply.PlainText(shown); !strings.HasPrefix(got, "🎛 Κουμπιά: Ana (Drake)\n1. d20\n2. gmroll d20") {
		t.Errorf("shown:\n%s", got)
	}
	acts := runs(t, shown)
	if got := reply.PlainText(b.press(bob, acts[0])); got != "⚠️ Αυτά τα κουμπιά είναι κάποιου άλλου. Τα δικά σου: /pad" {
		t.Errorf("Bob's press: %s", got)
	}
	rep := b.press(ana, acts[1])
	if rep.Secret == nil || !strings.HasPrefix(reply.PlainText(rep), "Ana (Drake): ") || !strings.HasPrefix(reply.PlainText(rep.Secret), "Ana (Drake): ") {
		t.Errorf("a secret roll's press:\n%s\n--- secret:\n%v", reply.PlainText(rep), rep.Secret)
	}
	if strings.Contains(reply.PlainText(rep), "🎲 d20") {
		t.Errorf("the public notice shows the secret roll:\n%s", reply.PlainText(rep))
	}
	b.ok(eva, "/lang en")
	b.fails(bob, "/pad --chat add d6", "Only a GM changes the table's pad. Yours: /pad")
	b.fails(ana, "/pad remove 9", "There is no button “9”: this pad's buttons go from 1 to 2.")
	if got := reply.PlainText(b.ok(ana, "/pad clear")); got != "🗑 2 buttons removed.\n↩️ A mistake? /pad undo brings them back for 15 minutes." {
		t.Errorf("clear: %s", got)
	}
}

// Plain dice that do not parse would fail at every press: the button is
// refused when added, with what /roll would answer, and nothing is stored.
// Dice that read the sheet are taken (the sheet is read when pressed).
func TestPadRefusesDiceThatNeverRoll(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(eva, "/lang es")
	b.fails(ana, "/pad add xyz+", "A «xyz+» le falta algo al final. Prueba: /tirar 2d6+3")
	b.fails(ana, `/pad add "Golpe" 1d1001`, "1000")
	b.fails(ana, `/pad add "a"b" 1d6`, "No entiendo")
	b.ok(eva, "/lang en")
	b.fails(ana, "/pad add --chat 1d4", "I don't understand")
	if got := reply.PlainText(b.ok(ana, "/pad list")); strings.Contains(got, "/roll") {
		t.Errorf("a refused button was stored: %q", got)
	}
	b.ok(ana, "/pad add 1d20+strength")
	b.ok(ana, `/pad add "Attack" 1d20+5 vs 15 # sword`)
}

// A button's command and name are stored on one line without invisible
// characters, whatever was pasted: /pad list never prints a right-to-left
// mark, and the chat's export imports again (/importar refuses a button
// that is not so).
func TestPadTextIsStoredClean(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(ana, "/pad add 1d6\u200f+1")
	b.ok(ana, "/pad add \"x\" /roll 1d4\u202e # a\u200bb")
	b.ok(ana, "/pad rename 2 a\u200fb\u2066")
	out := reply.PlainText(b.ok(ana, "/pad list"))
	if strings.ContainsAny(out, "\u200f\u202e\u200b\u2066") {
		t.Errorf("invisible characters in %q", out)
	}
	for _, w := range []string{"1. 1d6+1 · /roll 1d6+1", "2. ab · /roll 1d4 # ab"} {
		if !strings.Contains(out, w) {
			t.Errorf("%q lacks %q", out, w)
		}
	}
}

// TestLabelWithoutQuotes: a button's label may be written without
// quotes, as the words before the command ("Ataque /zaria …"); the
// command after them is stored as typed, its {…} asked when pressed.
func TestLabelWithoutQuotes(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(ana, "/pj crear Drake")
	b.ok(ana, "/pj poner fuerza 3 atletismo 2")
	for _, c := range []struct{ add, want string }{
		{"/botones añadir Ataque /zaria fuerza+atletismo dc15", "✅ Botón 1, «Ataque»: /zaria fuerza+atletismo dc15"},
		{"/botones añadir Tajo /dh ataque contra {armadura}", "✅ Botón 2, «Tajo»: /dh ataque contra {armadura}"},
		{"/botones añadir Golpe de escudo !roll 2d6+1", "✅ Botón 3, «Golpe de escudo»: !roll 2d6+1"},
		{"/botones añadir 4d6/2", "✅ Botón 4, «4d6/2»: /roll 4d6/2"},
	} {
		if got := reply.PlainText(b.ok(ana, c.add)); !strings.Contains(got, c.want) {
			t.Errorf("%q:\n%s\nwant %q", c.add, got, c.want)
		}
	}
	// Without a command after it, the error says how to write the label.
	b.fails(ana, "/botones añadir Ataque fuerza+atletismo", "Si «Ataque» es el nombre del botón, escríbelo delante de la orden o entre comillas")
	acts := runs(t, b.ok(ana, "/botones"))
	if len(acts) != 4 {
		t.Fatalf("%d buttons, want 4", len(acts))
	}
	if got := reply.PlainText(b.press(ana, acts[1])); !strings.HasPrefix(got, "Ana (Drake): «Tajo»: ¿contra qué armadura?") {
		t.Errorf("Tajo's press:\n%s", got)
	}
}
