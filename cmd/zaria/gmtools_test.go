package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
)

// gmChat sends messages to one chat of r as a GM (Eva) or a player (Ana).
type gmChat struct {
	t *testing.T
	r interface {
		DispatchWith(context.Context, core.Message, dice.Source) (*reply.Reply, bool)
	}
	chat core.ChatRef
}

func (c gmChat) send(gm bool, text string) *reply.Reply {
	c.t.Helper()
	from := core.User{ID: "u2", Name: "Ana"}
	if gm {
		from = core.User{ID: "u1", Name: "Eva"}
	}
	rep, ok := c.r.DispatchWith(context.Background(), core.Message{Chat: c.chat, From: from, Text: text, FromGM: gm}, dice.Seeded(3))
	if !ok || rep.Error {
		c.t.Fatalf("%q: %s", text, reply.PlainText(rep))
	}
	return rep
}

// A blind roll in every language: dice, a system check, a table and a
// saved roll. The reply is marked blind; its result is only in the copy
// for the GMs and behind its 🙈 GM button, which only a GM of that chat
// opens; what the chat and the roller see holds no result, and names
// neither the table nor the difficulty.
func TestBlindRollsThroughTheRouter(t *testing.T) {
	r := testRouter(t, "es", nil)
	for _, tc := range []struct {
		lang, create, dice, check, table, saved, header, only string
	}{
		{"es", "/tabla crear Encuentros: 1-2 Lobos; 3-6 Bandidos", "/ciega 1d20", "/ciega zaria 4+2 dc15", "/ciega tabla Encuentros", "/ciega ataque coraza", "Tirada a ciegas de Ana",
			"🙈 Solo el máster puede ver esto."},
		{"en", "/table create Encounters: 1-2 Wolves; 3-6 Bandits", "/blind 1d20", "/blind zaria 4+2 dc15", "/blind table Encounters", "/blind attack breastplate", "Blind roll by Ana",
			"🙈 Only the GM can see this."},
		{"el", "!πίνακας δημιουργία Συναντήσεις: 1-2 Λύκοι; 3-6 Ληστές", "!τυφλή 1d20", "/blind zaria 4+2 dc15", "/blind πίνακας Συναντήσεις", "/blind επίθεση θώρακας", "Τυφλή ρίψη (Ana, χωρίς να δει το αποτέλεσμα)",
			"🙈 Μόνο ο GM μπορεί να το δει αυτό."},
	} {
		c := gmChat{t: t, r: r, chat: core.ChatRef{Platform: "cli", ID: "blind-" + tc.lang}}
		c.send(true, "/lang "+tc.lang)
		c.send(true, tc.create)
		word := strings.Fields(tc.saved)[1]
		c.send(false, "/alias "+word+" /dh "+map[string]string{"es": "ataque espada-larga vs {1}", "en": "attack longsword vs {1}", "el": "επίθεση μακρύ-σπαθί vs {1}"}[tc.lang])
		tableName := strings.Fields(tc.table)[2]
		for _, text := range []string{tc.dice, tc.check, tc.table, tc.saved} {
			rep := c.send(false, text)
			if !rep.Blind || rep.Secret == nil {
				t.Fatalf("%s %q: not a blind reply: %s", tc.lang, text, reply.PlainText(rep))
			}
			pub, secret := reply.PlainText(rep), reply.PlainText(rep.Secret)
			if !strings.Contains(secret, tc.header) || rep.Secret.Check == nil {
				t.Errorf("%s %q: the GMs' copy %q", tc.lang, text, secret)
			}
			if rep.Check != nil || strings.Contains(pub, "=") || strings.Contains(pub, "→") || strings.Contains(pub, tableName) ||
				strings.Contains(pub, "15") || len(rep.Buttons) != 1 {
				t.Errorf("%s %q: the chat sees %q", tc.lang, text, pub)
			}
			// Its one button, 🙈 GM: the result in a pop-up for a GM,
			// for anyone else (and in any other chat) that only the GM
			// may see it.
			b := rep.Buttons[0]
			if b.Action == nil || b.Action.Kind != reply.ActReveal || !b.Action.Valid() || !strings.HasPrefix(b.Label, "🙈 ") {
				t.Fatalf("%s %q: the button %+v", tc.lang, text, b)
			}
			press := func(gm bool, chat core.ChatRef) string {
				from := core.User{ID: "u2", Name: "Ana"}
				if gm {
					from = core.User{ID: "u1", Name: "Eva"}
				}
				p, ok := r.Press(context.Background(), core.Message{Chat: chat, From: from, FromGM: gm}, *b.Action)
				if !ok || !p.Alert || p.Error {
					t.Fatalf("%s %q: the press answered %+v", tc.lang, text, p)
				}
				return reply.PlainText(p)
			}
			last := secret[strings.LastIndex(secret, "\n")+1:]
			if got := press(true, c.chat); !strings.Contains(got, last) || strings.Contains(got, tc.header) {
				t.Errorf("%s %q: the GM's pop-up %q, want %q", tc.lang, text, got, last)
			}
			if got := press(false, c.chat); got != tc.only {
				t.Errorf("%s %q: the player's pop-up %q, want %q", tc.lang, text, got, tc.only)
			}
			if got := press(true, core.ChatRef{Platform: "cli", ID: "elsewhere"}); strings.Contains(got, last) || !strings.HasPrefix(got, "🙈 ") {
				t.Errorf("%s %q: a GM of another chat read %q", tc.lang, text, got)
			}
		}
		// The dice as typed (issue 36: «/roll 1d20» was not what anyone
		// typed after /ciega, nor «!ρίξε 1d20» after «!τυφλή»).
		named := ": 1d20"
		if pub := reply.PlainText(c.send(false, tc.dice)); !strings.Contains(pub, named) {
			t.Errorf("%s: plain dice are not named: %q, want %q", tc.lang, pub, named)
		}
	}
	// In a private chat there is no GM to tell.
	rep, _ := r.DispatchWith(context.Background(), core.Message{Chat: core.ChatRef{Platform: "cli", ID: "dm"}, From: core.User{ID: "u2", Name: "Ana"},
		Text: "/blind 1d20", Private: true}, dice.Seeded(1))
	if !rep.Error || rep.Secret != nil {
		t.Errorf("a blind roll in a private chat: %s", reply.PlainText(rep))
	}
}

// zaria roll --json gives a table's row as data, on a database kept
// between runs.
func TestRollJSONTable(t *testing.T) {
	db := filepath.Join(t.TempDir(), "z.db")
	roll := func(args ...string) map[string]any {
		t.Helper()
		out, errs, code := zaria(t, "", env(), append([]string{"roll", "--db", db, "--chat", "mesa", "--user", "eva", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s%s", args, code, out, errs)
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%q: %v\n%s", args, err, out)
		}
		return obj
	}
	roll("--lang", "es", "/tabla crear Encuentros\n1-2 Lobos\n3-5 Bandidos ([[1d4]] de ellos)\n6 Un dragón")
	obj := roll("--dice", "4,3", "/tabla Encuentros")
	if obj["table"] != "Encuentros" || obj["row"] != "Bandidos (3 de ellos)" || obj["total"] != 4.0 || obj["chance"] != 0.5 || obj["chance_exact"] != "1/2" {
		t.Errorf("--json of a table roll: %v", obj)
	}
	if !strings.Contains(obj["text"].(string), "4 → Bandidos (3 de ellos) · 50 %") {
		t.Errorf("text %q", obj["text"])
	}
}

// zaria roll --json gives the cards drawn and the pick as data; a deck
// keeps what was drawn between runs.
func TestRollJSONDeckAndPick(t *testing.T) {
	db := filepath.Join(t.TempDir(), "z.db")
	roll := func(args ...string) map[string]any {
		t.Helper()
		out, errs, code := zaria(t, "", env(), append([]string{"roll", "--db", db, "--chat", "mesa", "--user", "eva", "--json", "--lang", "en"}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s%s", args, code, out, errs)
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%q: %v\n%s", args, err, out)
		}
		return obj
	}
	obj := roll("--dice", "17", "/deck Tarot")
	if obj["deck"] != "Tarot" || obj["left"] != 77.0 || len(obj["cards"].([]any)) != 1 || obj["cards"].([]any)[0] != "The Tower" {
		t.Errorf("--json of a draw: %v", obj)
	}
	obj = roll("--dice", "17", "/deck Tarot")
	if obj["left"] != 76.0 || obj["cards"].([]any)[0] != "The Star" {
		t.Errorf("the second draw, another run: %v", obj)
	}
	obj = roll("--dice", "2", "/pick tavern, temple, market")
	if obj["pick"] != "temple" || obj["chance_exact"] != "1/3" {
		t.Errorf("--json of a pick: %v", obj)
	}
}

// A chat's random tables and decks (what was drawn too) go with its
// export: importing the file into another chat gives the same ones; a
// file with a table that has a gap changes nothing.
func TestTablesAndDecksAreExportedAndImported(t *testing.T) {
	r := testRouter(t, "es", nil)
	a := gmChat{t: t, r: r, chat: core.ChatRef{Platform: "cli", ID: "a"}}
	b := gmChat{t: t, r: r, chat: core.ChatRef{Platform: "cli", ID: "b"}}
	a.send(true, "/tabla crear Encuentros\n1-2 Lobos\n3-5 Bandidos ([[1d4]] de ellos)\n6 Un dragón")
	a.send(true, "/tabla crear Clima: Sol; Lluvia")
	a.send(true, "/mazo crear Botín: Espada; Escudo; Poción")
	a.send(false, "/mazo Botín")
	a.send(false, "/mazo Tarot")
	a.send(true, "/ajustes zona Atlantic/Canary")
	exp := a.send(true, "/exportar")
	doc := string(exp.File.Data)
	if !strings.Contains(doc, `"tables":[`) || !strings.Contains(doc, `"text":"Bandidos ([[1d4]] de ellos)"`) || !strings.Contains(doc, `"kind":"tarot"`) {
		t.Fatalf("the export has no tables or decks: %s", doc)
	}
	b.send(true, "/importar "+doc)
	if got := reply.PlainText(b.send(false, "/tabla ver Encuentros")); !strings.Contains(got, "3-5 Bandidos ([[1d4]] de ellos) · 50 %") {
		t.Errorf("the imported table: %s", got)
	}
	if got := reply.PlainText(b.send(false, "/mazo")); !strings.Contains(got, "Botín · quedan 2 de 3") || !strings.Contains(got, "Tarot · quedan 77 de 78") {
		t.Errorf("the imported decks: %s", got)
	}
	if got := reply.PlainText(b.send(false, "/ajustes")); !strings.Contains(got, "Zona horaria: Atlantic/Canary") {
		t.Errorf("the imported time zone: %s", got)
	}
	badZone := strings.Replace(doc, "Atlantic/Canary", "Mars/Olympus", 1)
	rep0, _ := r.DispatchWith(context.Background(), core.Message{Chat: core.ChatRef{Platform: "cli", ID: "d"}, From: core.User{ID: "u1", Name: "Eva"}, Text: "/importar " + badZone, FromGM: true}, dice.Seeded(1))
	if !rep0.Error || !strings.Contains(reply.PlainText(rep0), "Mars/Olympus") {
		t.Errorf("an unknown time zone imported: %s", reply.PlainText(rep0))
	}
	bad := strings.Replace(doc, `"lo":6,"hi":6`, `"lo":7,"hi":7`, 1)
	c := gmChat{t: t, r: r, chat: core.ChatRef{Platform: "cli", ID: "c"}}
	rep, _ := r.DispatchWith(context.Background(), core.Message{Chat: c.chat, From: core.User{ID: "u1", Name: "Eva"}, Text: "/importar " + bad, FromGM: true}, dice.Seeded(1))
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "«Encuentros»") {
		t.Errorf("a table with a gap: %s", reply.PlainText(rep))
	}
	if got := reply.PlainText(c.send(false, "/tabla")); !strings.Contains(got, "no tiene tablas") {
		t.Errorf("the refused file was imported: %s", got)
	}
}

// /historial names the chat's time zone (its language's until a GM sets
// one) and gives more than 20 rolls as a file; a session's file is in
// local time too.
func TestHistoryAndSessionInLocalTime(t *testing.T) {
	r := testRouter(t, "es", nil)
	for _, tc := range []struct{ lang, zone, title, file, start string }{
		{"es", "Europe/Madrid", "Últimas 3 tiradas (Europe/Madrid)", "Las últimas 25 tiradas, en un archivo (horas de Europe/Madrid).", "/sesion empezar Prueba"},
		{"el", "Europe/Athens", "Οι τελευταίες 3 ρίψεις (Europe/Athens)", "Οι τελευταίες 25 ρίψεις, σε αρχείο (ώρες Europe/Athens).", "/session έναρξη Δοκιμή"},
		{"en", "UTC", "Last 3 rolls (UTC)", "The last 25 rolls, in a file (times in UTC).", "/session start Test"},
	} {
		c := gmChat{t: t, r: r, chat: core.ChatRef{Platform: "cli", ID: "tz-" + tc.lang}}
		c.send(true, "/lang "+tc.lang)
		loc, _ := time.LoadLocation(tc.zone)
		before := time.Now().In(loc).Format("2006-01-02 15")
		c.send(true, tc.start)
		for range 25 {
			c.send(false, "/roll 1d6")
		}
		if got := reply.PlainText(c.send(false, "/historial 3")); !strings.Contains(got, tc.title) {
			t.Errorf("%s: %q lacks %q", tc.lang, got, tc.title)
		}
		rep := c.send(false, "/historial 25")
		if rep.File == nil || !strings.Contains(reply.PlainText(rep), tc.file) || strings.Count(string(rep.File.Data), "`/roll 1d6`") != 25 {
			t.Errorf("%s: /historial 25: %s", tc.lang, reply.PlainText(rep))
		}
		after := time.Now().In(loc).Format("2006-01-02 15")
		sess := c.send(false, "/session")
		data := string(sess.File.Data)
		if (!strings.Contains(data, before) && !strings.Contains(data, after)) || !strings.Contains(data, "("+tc.zone+")") {
			t.Errorf("%s: the session's file is not in %s (%s): %s", tc.lang, tc.zone, after, data)
		}
	}
	c := gmChat{t: t, r: r, chat: core.ChatRef{Platform: "cli", ID: "tz-es"}}
	c.send(true, "/ajustes zona Atlantic/Canary")
	if got := reply.PlainText(c.send(false, "/historial 3")); !strings.Contains(got, "(Atlantic/Canary)") {
		t.Errorf("after /ajustes zona: %s", got)
	}
}
