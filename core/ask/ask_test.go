package ask_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"zaria/core"
	"zaria/core/ask"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/internal/chattest"
)

// table is a router with every roll, the sheets and /pedir over a real
// SQLite file and the real catalogs; each command's dice are the faces
// the test queued (die), else seeded.
type table struct {
	t    *testing.T
	r    *command.Router
	chat core.ChatRef
	mu   sync.Mutex
	next [][]int // each press's dice
}

var (
	gmU  = core.User{ID: "900", Name: "Gema"}
	ana  = core.User{ID: "101", Name: "Ana"}
	bob  = core.User{ID: "102", Name: "Bob"}
	cai  = core.User{ID: "103", Name: "Cai"}
	dee  = core.User{ID: "104", Name: "Dee"}
	stra = core.User{ID: "105", Name: "Eve"}
)

func newTable(t *testing.T, lang string) *table {
	db := chattest.OpenDB(t, "")
	tb := &table{t: t, chat: core.ChatRef{Platform: "telegram", ID: "-100" + lang}}
	svc := chattest.NewServices(db, chattest.Options{Validators: systems.SheetValidators()})
	r := command.New(svc.Config(command.Config{
		DefaultLang: lang, Translator: chattest.Catalog(t), Settings: db, GMs: db,
		Limits: command.Limits{Burst: 1_000_000},
		NewSource: func() dice.Source {
			tb.mu.Lock()
			defer tb.mu.Unlock()
			if len(tb.next) > 0 {
				f := tb.next[0]
				tb.next = tb.next[1:]
				return dice.NewScripted(f)
			}
			return dice.Seeded(7)
		},
	}))
	roll.Register(r)
	roll.RegisterOdds(r)
	systems.Register(r)
	roll.RegisterSystemOdds(r)
	svc.Register(r)
	general.Register(r, general.Options{})
	ask.Register(r, ask.New(db, db, ask.Options{}))
	tb.r = r
	return tb
}

func (tb *table) die(faces ...int) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.next = append(tb.next, faces)
}

func (tb *table) msg(u core.User) core.Message {
	return core.Message{Chat: tb.chat, From: u, FromGM: u == gmU}
}

func (tb *table) say(u core.User, text string) *reply.Reply {
	tb.t.Helper()
	m := tb.msg(u)
	m.Text = text
	rep, ok := tb.r.Dispatch(context.Background(), m)
	if !ok {
		tb.t.Fatalf("%q not answered", text)
	}
	return rep
}

func (tb *table) ok(u core.User, text string) *reply.Reply {
	tb.t.Helper()
	rep := tb.say(u, text)
	if rep.Error {
		tb.t.Fatalf("%q: %s", text, reply.PlainText(rep))
	}
	return rep
}

// press presses the button labelled with name (a character's, or "⏹")
// of the request's message st as u.
func (tb *table) press(u core.User, st *reply.Reply, name string) *reply.Reply {
	tb.t.Helper()
	for _, b := range st.Buttons {
		if strings.Contains(b.Label, name) {
			a := *b.Action
			enc, err := reply.DecodeAction(a.Encode()) // as an adapter keeps it
			if err != nil {
				tb.t.Fatal(err)
			}
			rep, ok := tb.r.Press(context.Background(), tb.msg(u), enc)
			if !ok {
				tb.t.Fatalf("press %q: nothing", name)
			}
			return rep
		}
	}
	tb.t.Fatalf("no button %q in %+v", name, st.Buttons)
	return nil
}

// party: Ana plays Lyra (percepción 3), Bob Drake (1), Cai Borin (0),
// Dee Kael (5).
func (tb *table) party() {
	for _, p := range []struct {
		u    core.User
		name string
		per  int
	}{{ana, "Lyra", 3}, {bob, "Drake", 1}, {cai, "Borin", 0}, {dee, "Kael", 5}} {
		tb.ok(p.u, "/pj crear "+p.name)
		tb.ok(p.u, "/pj poner percepcion "+strconv.Itoa(p.per))
	}
}

func text(rep *reply.Reply) string { return reply.PlainText(rep) }

// TestAskTable: the GM asks, the GMs read each character's chance first,
// three players tap, the GM rolls for the fourth, and the one message
// ends as the results with the summary; a stranger's tap, a double tap
// and a tap on the closed request only say so.
func TestAskTable(t *testing.T) {
	tb := newTable(t, "en")
	tb.party()
	rep := tb.ok(gmU, "/ask 1d20+percepcion vs 14")
	if rep.Status == nil || !strings.HasPrefix(rep.Status.Slot, ask.SlotPrefix) || len(rep.Lines) != 0 {
		t.Fatalf("not one status message: %+v", rep)
	}
	st := text(rep.Status)
	chattest.Has(t, st, "Gema asks for: /roll 1d20+percepcion vs 14", "1. ⏳ Borin", "Drake", "Kael", "Lyra",
		"Waiting for: Borin, Drake, Kael, Lyra")
	if len(rep.Status.Buttons) != 6 || rep.Status.Buttons[4].Symbol != "⏹" || rep.Status.Buttons[5].Action.Kind != reply.ActReveal {
		t.Errorf("buttons: %+v", rep.Status.Buttons)
	}
	// 📊: the chances in a pop-up, for a GM only.
	pop := tb.press(gmU, rep.Status, "📊")
	if !pop.Alert || text(pop) != "Borin 35% · Drake 40% · Kael 60% · Lyra 50%" {
		t.Errorf("the GM's 📊: %+v %q", pop, text(pop))
	}
	if pop := tb.press(ana, rep.Status, "📊"); !pop.Alert || strings.Contains(text(pop), "%") {
		t.Errorf("a player's 📊: %q", text(pop))
	}
	// The chances, for the GMs only: /odds of the check for each one.
	if rep.Secret == nil || !rep.Blind {
		t.Fatalf("no private chances: %+v", rep)
	}
	chattest.Has(t, text(rep.Secret), "Each character's chance", "Lyra · 14 or more: 50%", "Drake · 14 or more: 40%",
		"Borin · 14 or more: 35%", "Kael · 14 or more: 60%")
	if strings.Contains(st, "%") {
		t.Errorf("the table reads a chance: %s", st)
	}

	tb.die(15) // Lyra: 15+3 = 18, +4
	got := tb.press(ana, rep.Status, "Lyra")
	if got.Error || got.Status == nil || got.Status.Slot != rep.Status.Slot || len(got.Lines) != 0 {
		t.Fatalf("Ana's tap: %+v", got)
	}
	chattest.Has(t, text(got.Status), "✅ Lyra: 18 · +4", "Waiting for: Borin, Drake, Kael")

	// A stranger's tap, a double tap: a notice, nothing rolled or changed.
	tb.die(20)
	bad := tb.press(stra, got.Status, "Drake")
	if !bad.Error || bad.Status != nil {
		t.Fatalf("a stranger's tap: %+v", bad)
	}
	chattest.Has(t, text(bad), "Drake is Bob's: only their player or a GM rolls for Drake.")
	bad = tb.press(ana, got.Status, "Lyra")
	if !bad.Error || bad.Status != nil {
		t.Fatalf("a second tap: %+v", bad)
	}
	chattest.Has(t, text(bad), "Lyra has rolled already")

	tb.next = nil
	tb.die(4) // Drake: 4+1 = 5, −9
	got = tb.press(bob, got.Status, "Drake")
	chattest.Has(t, text(got.Status), "❌ Drake: 5 · −9", "✅ Lyra: 18 · +4")
	tb.die(11) // Borin: 11, −3
	got = tb.press(cai, got.Status, "Borin")
	tb.die(10) // Kael, by the GM: 15, +1
	got = tb.press(gmU, got.Status, "Kael")
	chattest.Has(t, text(got.Status), "✅ Kael: 15 · +1 (rolled by the GM)", "❌ Borin: 11 · −3")
	if strings.Contains(text(got.Status), "Waiting") {
		t.Errorf("still waiting: %s", text(got.Status))
	}
	// Only a GM closes it.
	bad = tb.press(ana, got.Status, "⏹")
	chattest.Has(t, text(bad), "Only a GM closes")
	end := tb.press(gmU, got.Status, "⏹")
	final := text(end.Status)
	chattest.Has(t, final, "✅ Lyra: 18 · +4", "❌ Drake: 5 · −9", "❌ Borin: 11 · −3", "✅ Kael: 15 · +1 (rolled by the GM)",
		"⏹ Closed · 2 of 4 succeeded · best margin +4, worst −9")
	if len(end.Status.Buttons) != 0 {
		t.Errorf("a closed request keeps buttons: %+v", end.Status.Buttons)
	}
	bad = tb.press(ana, got.Status, "Lyra")
	chattest.Has(t, text(bad), "This request for a roll is closed.")
	if !bad.Error {
		t.Error("a closed request's tap is not a notice")
	}
	// Each roll is the owner's own in the history, as if typed.
	h := text(tb.ok(gmU, "/history"))
	chattest.Has(t, h, "Ana", "Bob", "Dee", "1d20+percepcion vs 14")
	// The request as the command line gives it.
	req := end.Data["request"].(map[string]any)
	if req["check"] != "/roll 1d20+percepcion vs 14" || req["closed"] != true || len(req["results"].([]map[string]any)) != 4 {
		t.Errorf("request data: %+v", req)
	}
}

// TestAskBlind: the table sees who rolled and never a number; the GMs get
// each result and the summary.
func TestAskBlind(t *testing.T) {
	tb := newTable(t, "en")
	tb.party()
	rep := tb.ok(gmU, "/ask blind @Lyra @Drake 1d20+percepcion vs 14")
	st := text(rep.Status)
	chattest.Has(t, st, "Gema asks for a blind roll.", "1. ⏳ Lyra", "2. ⏳ Drake")
	if strings.Contains(st, "14") {
		t.Errorf("the table reads the target: %s", st)
	}
	tb.die(15)
	got := tb.press(ana, rep.Status, "Lyra")
	noNumber(t, text(got.Status))
	chattest.Has(t, text(got.Status), "✔ Lyra · rolled")
	if got.Secret == nil || !got.Blind {
		t.Fatalf("the GMs get no result: %+v", got)
	}
	chattest.Has(t, text(got.Secret), "[15] + percepcion (3) = 18", "Against 14: ✅ Success")
	end := tb.press(gmU, got.Status, "⏹")
	noNumber(t, text(end.Status))
	chattest.Has(t, text(end.Status), "Closed · 1 of 2 rolled · did not roll: Drake")
	chattest.Has(t, text(end.Secret), "✅ Lyra: 18 · +4", "1 of 1 succeeded")
}

// noNumber fails when s shows a number other than the request's id and
// the lines' own numbers.
func noNumber(t *testing.T, s string) {
	t.Helper()
	s = regexp.MustCompile(`#\d+|(?m)^\d+\. |\d+ of \d+`).ReplaceAllString(s, "")
	if regexp.MustCompile(`\d`).MatchString(s) {
		t.Errorf("the table reads a number: %s", s)
	}
}

// TestAskRefusals: a player cannot ask; a check that is no roll, a name
// the chat lacks and more than MaxCharacters characters are refused;
// a request beyond the Keep newest answers that it is closed; in es and el.
func TestAskRefusals(t *testing.T) {
	tb := newTable(t, "en")
	tb.party()
	chattest.Has(t, text(tb.say(ana, "/ask 1d20")), "Only a GM asks")
	chattest.Has(t, text(tb.say(gmU, "/ask /pj")), "is not a roll")
	chattest.Has(t, text(tb.say(gmU, "/ask @Nadie 1d20")), "There is no character “Nadie”")
	chattest.Has(t, text(tb.say(gmU, "/ask")), "Write the check you ask for")
	var names []string
	for i := range ask.MaxCharacters + 1 {
		u := core.User{ID: strconv.Itoa(500 + i), Name: "P" + strconv.Itoa(i)}
		tb.ok(u, "/pj crear Pj"+strconv.Itoa(i))
		names = append(names, "@Pj"+strconv.Itoa(i))
	}
	chattest.Has(t, text(tb.say(gmU, "/ask "+strings.Join(names, " ")+" 1d20")), "At most 8 characters", "these are 9")
	first := tb.ok(gmU, "/ask @Lyra 1d20")
	for range ask.Keep {
		tb.ok(gmU, "/ask @Lyra 1d20")
	}
	chattest.Has(t, text(tb.press(ana, first.Status, "Lyra")), "This request for a roll is closed.")

	es := newTable(t, "es")
	es.party()
	rep := es.ok(gmU, "/pedir 1d20+percepcion vs 14")
	chattest.Has(t, text(rep.Status), "Gema pide:", "Esperando a: Borin, Drake, Kael, Lyra")
	chattest.Has(t, text(rep.Secret), "Probabilidad de cada personaje")
	chattest.Has(t, text(es.press(bob, rep.Status, "Lyra")), "Lyra es de Ana")
	el := newTable(t, "el")
	el.party()
	rep = el.ok(gmU, "!ζήτα 1d20+percepcion vs 14")
	chattest.Has(t, text(rep.Status), "Gema (GM) ζητά:", "Περιμένουμε:")
	el.die(15)
	got := el.press(ana, rep.Status, "Lyra")
	chattest.Has(t, text(el.press(ana, got.Status, "Lyra")), "έχει ήδη ρίξει")
	chattest.Has(t, text(el.press(gmU, got.Status, "⏹").Status), "Έκλεισε", "1 από 1 πέτυχαν", "δεν έριξαν: Borin, Drake, Kael")
}

// TestAskSystems: a system's check rolls each character's own sheet, and
// the typed forms of a press work where there are no buttons.
func TestAskSystems(t *testing.T) {
	tb := newTable(t, "en")
	for _, p := range []struct {
		u    core.User
		name string
	}{{ana, "Lyra"}, {bob, "Drake"}} {
		tb.ok(p.u, "/pj crear "+p.name+" zaria")
	}
	tb.ok(ana, "/pj poner destreza 4")
	tb.ok(ana, "/pj poner sigilo 2")
	tb.ok(bob, "/pj poner destreza 1")
	tb.ok(bob, "/pj poner sigilo 0")
	rep := tb.ok(gmU, "/ask /zaria destreza+sigilo dc15")
	chattest.Has(t, text(rep.Secret), "Lyra · DC 15", "Drake · DC 15")
	id := strings.TrimPrefix(rep.Status.Slot, ask.SlotPrefix)
	tb.die(10, 10)
	got := tb.ok(ana, "/ask roll "+id+" Lyra")
	chattest.Has(t, text(got.Status), "✅ Lyra: 16 · +1")
	chattest.Has(t, text(tb.say(ana, "/ask close "+id)), "Only a GM closes")
	end := tb.ok(gmU, "/ask close "+id)
	chattest.Has(t, text(end.Status), "1 of 1 succeeded · best margin +1, worst +1 · did not roll: Drake")
}
