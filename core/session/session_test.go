package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/deck"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/session"
	"zaria/core/table"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// bot is the router on a database file, as main wires it, the chat's
// members talking to it, and a clock the test moves: five minutes after
// each message.
type bot struct {
	*chattest.Bot
	db    *sqlite.DB
	clock time.Time
}

// newBot is the bot on a new database file, its router still to build.
func newBot(t testing.TB) *bot {
	b := &bot{db: chattest.OpenDB(t, ""), clock: time.Date(2026, 12, 2, 20, 5, 0, 0, time.UTC)}
	b.Bot = &chattest.Bot{T: t, Chat: here, GM: gm, Sent: func() { b.clock = b.clock.Add(5 * time.Minute) }}
	return b
}

func (b *bot) now() time.Time { return b.clock }

// open builds the router on a database file, as main does, with a clock
// the test moves.
func open(t testing.TB) *bot {
	t.Helper()
	return build(newBot(t))
}

// build gives b a new router and session service, as a start of the bot
// on b's database file does.
func build(b *bot) *bot {
	t := b.T
	sess := session.New(b.db, session.Options{Now: b.now})
	b.R = command.New(command.Config{DefaultLang: "es", Translator: chattest.Catalog(t), Settings: b.db, GMs: b.db, Unlimited: []string{"test"},
		Observers: []command.Observer{sess}})
	roll.Register(b.R)
	table.Register(b.R, table.New(b.db, table.Options{}))
	deck.Register(b.R, deck.New(b.db, deck.Options{}))
	session.Register(b.R, sess)
	general.Register(b.R, general.Options{Version: "test"})
	return b
}

var (
	here = core.ChatRef{Platform: "test", ID: "-100"}
	gm   = core.User{ID: "u1", Name: "Eva"}
	ana  = core.User{ID: "u2", Name: "Ana"}
)

func (b *bot) say(u core.User, text string, faces ...int) *reply.Reply {
	b.T.Helper()
	return b.Say(u, text, faces...)
}

func (b *bot) ok(u core.User, text string, faces ...int) *reply.Reply {
	b.T.Helper()
	return b.OK(u, text, faces...)
}

func has(t *testing.T, got string, want ...string) {
	t.Helper()
	chattest.Has(t, got, want...)
}

func lacks(t *testing.T, got string, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(got, w) {
			t.Errorf("has %q:\n%s", w, got)
		}
	}
}

// A session in Spanish: its rolls, a table, a card, a secret and a blind
// roll, in the chat's local time (Europe/Madrid: 20:05 UTC is 21:05). The
// chat's file has the secret ones only as the notice; the GMs' copy, sent
// to the GMs only, has their results.
func TestSessionLogInLocalTime(t *testing.T) {
	b := open(t)
	b.ok(gm, "/tabla crear Encuentros: 1-2 Lobos; 3-6 Bandidos")
	if rep := b.say(ana, "/sesion empezar La cripta"); !rep.Error || !strings.Contains(reply.PlainText(rep), "máster") {
		t.Fatalf("a player opened the session: %s", reply.PlainText(rep))
	}
	has(t, reply.PlainText(b.ok(gm, "/sesion empezar La cripta")), "«La cripta» empezada a las 21:15 (Europe/Madrid)", "solo ve las órdenes")
	b.ok(ana, "/tirar 1d20+5", 14)
	b.ok(ana, "/tabla Encuentros", 4)
	b.ok(ana, "/mazo Tarot", 17)
	b.ok(ana, "/secreto 1d20", 19)
	b.ok(ana, "/ciega 1d6", 6)
	b.ok(ana, "/ayuda") // not a roll: not logged
	has(t, reply.PlainText(b.ok(gm, "/sesion terminar")), "«La cripta» terminada: 35 min, 5 tiradas.")
	rep := b.ok(ana, "/sesion")
	if rep.File == nil || !strings.HasSuffix(rep.File.Name, ".md") {
		t.Fatalf("no Markdown file: %+v", rep)
	}
	pub := string(rep.File.Data)
	has(t, pub, "# 📜 La cripta", "Del 2026-12-02 21:15 al 21:50 (Europe/Madrid) · 35 min", "5 tiradas · Ana 5",
		"**21:20 · Ana** — `/tirar 1d20+5`", "[14] + 5 = 19",
		"4 → Bandidos · 66,67 %", "🃏 Tarot: La Torre", "Ana ha tirado en secreto.", "Ana ha hecho una tirada a ciegas: 1d6", "solo ve las órdenes")
	lacks(t, pub, "[19]", "[6]", "🔒", "/ayuda")
	if !rep.Blind || rep.Secret == nil || rep.Secret.File == nil {
		t.Fatalf("no GMs' copy: %+v", rep)
	}
	priv := string(rep.Secret.File.Data)
	has(t, priv, "Copia para los másteres", "🔒 Tirada secreta de Ana:", "[19] = 19", "🔒 🙈 Tirada a ciegas de Ana", "[6] = 6")
	has(t, reply.PlainText(rep), "Registro de «La cripta»: 5 tiradas.", "va en privado a los másteres")

	// HTML, the GMs' choice; rolls after the session are not in it.
	b.ok(gm, "/sesion formato html")
	b.ok(ana, "/tirar 1d4", 2)
	rep = b.ok(ana, "/sesion")
	page := string(rep.File.Data)
	if !strings.HasSuffix(rep.File.Name, ".html") || !strings.HasPrefix(page, "<!DOCTYPE html>") {
		t.Fatalf("not HTML: %s", rep.File.Name)
	}
	has(t, page, `<html lang="es">`, "viewport", "<h1>📜 La cripta</h1>", "<b>Ana</b> — <code>/tirar 1d20+5</code>")
	lacks(t, page, "1d4", "[19]")
	if got := reply.PlainText(b.say(ana, "/sesion terminar")); !strings.Contains(got, "máster") {
		t.Errorf("a player ended a session: %s", got)
	}
}

// A session open when the bot stops keeps its log after the restart (the
// new bot reads which chats have one open at its first roll), and one
// started after the first roll of a run is logged too.
func TestSessionOpenAcrossRestart(t *testing.T) {
	b := open(t)
	b.ok(ana, "/tirar 1d20", 4) // the first roll: no session anywhere yet
	b.ok(gm, "/sesion empezar La cripta")
	b.ok(ana, "/tirar 1d20", 7)
	b = build(b) // a restart
	b.ok(ana, "/tirar 1d20", 12)
	b.ok(ana, "/tirar 1d6", 3)
	has(t, reply.PlainText(b.ok(gm, "/sesion terminar")), "3 tiradas.")
	b.ok(ana, "/tirar 1d4", 2) // after the end: not logged
	has(t, string(b.ok(ana, "/sesion").File.Data), "3 tiradas · Ana 3", "[7] = 7", "[12] = 12", "[3] = 3")
	b = build(b)
	b.ok(ana, "/tirar 1d4", 2) // after a restart: the session stays ended
	has(t, string(b.ok(ana, "/sesion").File.Data), "3 tiradas · Ana 3")
}

// The chat's zone, set by a GM, gives the file's times; English and Greek
// name the session as their language does.
func TestSessionZoneAndLanguages(t *testing.T) {
	b := open(t)
	b.ok(gm, "/lang en")
	has(t, reply.PlainText(b.ok(gm, "/session start")), "“Session of 2026-12-02” started at 20:10 (UTC)")
	has(t, reply.PlainText(b.ok(gm, "/settings zone america/new_york")), "America/New_York")
	if rep := b.say(gm, "/settings zone Mars/Olympus"); !rep.Error || !strings.Contains(reply.PlainText(rep), "Mars/Olympus") {
		t.Errorf("a zone that does not exist: %s", reply.PlainText(rep))
	}
	b.ok(ana, "/roll 1d6", 3)
	rep := b.ok(ana, "/session")
	has(t, string(rep.File.Data), "Since 2026-12-02 15:10 (America/New_York), open", "**15:25 · Ana** — `/roll 1d6`")
	if rep.Secret != nil {
		t.Errorf("a GMs' copy without secret rolls")
	}
	if rep := b.say(gm, "/session start Again"); !rep.Error || !strings.Contains(reply.PlainText(rep), "already open") {
		t.Errorf("a second open session: %s", reply.PlainText(rep))
	}
	b.ok(gm, "/session end")
	b.ok(gm, "/lang el")
	b.ok(gm, "/settings ζώνη Europe/Athens")
	has(t, reply.PlainText(b.ok(gm, "!συνεδρία έναρξη Η κρύπτη")), "«Η κρύπτη» ξεκίνησε στις 22:", "(Europe/Athens)")
	b.ok(ana, "/roll 1d6", 3)
	has(t, string(b.ok(ana, "/session").File.Data), "# 📜 Η κρύπτη", "1 ρίψη · Ana 1", "ανοιχτή")
}

// Limits: a title of session.MaxTitle characters; a log past
// session.MaxEvents keeps its last entries and says how many it only
// counts; each entry keeps session.MaxText characters of the reply.
func TestSessionLimits(t *testing.T) {
	b := open(t)
	if rep := b.say(gm, "/sesion empezar "+strings.Repeat("t", session.MaxTitle+1)); !rep.Error || !strings.Contains(reply.PlainText(rep), "61") {
		t.Errorf("a long title: %s", reply.PlainText(rep))
	}
	b.ok(gm, "/sesion empezar Larga")
	for i := range session.MaxEvents + 2 {
		e := session.Event{Time: b.clock, UserName: "Ana", Command: "/tirar 1d6", Text: "n" + strings.Repeat("x", i%3), Roll: true}
		if _, err := b.db.AppendEvent(context.Background(), here, e, session.MaxEvents); err != nil {
			t.Fatal(err)
		}
	}
	b.ok(ana, "/tirar 20#5d1000")
	rep := b.ok(ana, "/sesion")
	data := string(rep.File.Data)
	has(t, data, "Las 3 entradas más antiguas solo se cuentan: un registro guarda las 1000 últimas.", "1003 tiradas")
	if n := strings.Count(data, "`/tirar 1d6`"); n != session.MaxEvents-1 {
		t.Errorf("%d entries kept, want %d", n, session.MaxEvents-1)
	}
	if !strings.Contains(data, "…  \n") {
		t.Errorf("a long reply is not cut to %d characters: %s", session.MaxText, data[len(data)-700:])
	}
}
