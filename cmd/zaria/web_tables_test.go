package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/adapters/chart"
	"zaria/core"
	"zaria/core/fold"
)

// paced runs one page action, waiting out the user's allowance (5 at
// once, then one each 2 s) when the core says to slow down: nothing was
// done then, so the action is sent again.
func (w *webTable) paced(auth, tok string, action map[string]any) webAnswer {
	w.t.Helper()
	for range 5 {
		code, a := w.do(auth, tok, action)
		if code != 200 {
			w.t.Fatalf("%v: %d", action, code)
		}
		if t := a.text(); a.Error && (strings.Contains(t, "Con calma") || strings.Contains(t, "Vas muy rápido")) {
			time.Sleep(allowance)
			continue
		}
		return a
	}
	w.t.Fatalf("%v: still slowed down", action)
	return webAnswer{}
}

// postedBy lists the messages of the group headed as posted from the
// page by name.
func (w *webTable) postedBy(name string) []string {
	var out []string
	for _, m := range w.tg.SentTo(webGroup) {
		if strings.Contains(m.Visible, "📱 "+name) {
			out = append(out, m.Visible)
		}
	}
	return out
}

// TestWebTablesAndDecks: the tables screen renames and deletes a table
// and creates, shuffles and deletes a deck with the chat's own commands
// (/tabla renombrar, /tabla borrar, /mazo crear, /mazo barajar, /mazo
// borrar), so the core's rights hold: a player is refused with the core's
// words and nothing changes; anyone shuffles, and the shuffle is posted
// in the chat like a draw; edits are not. Bad fields: 400 before any
// command, nothing changed.
func TestWebTablesAndDecks(t *testing.T) {
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	ctx := context.Background()
	now := time.Now()
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, now)
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, now)
	tableNames := func() []string {
		ts, err := w.db.ListTables(ctx, chat)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range ts {
			out = append(out, x.Name)
		}
		return out
	}
	left := func(name string) (int, bool) {
		d, err := w.db.Deck(ctx, chat, fold.Key(name))
		if err != nil {
			return 0, false
		}
		return d.Left(), true
	}

	for _, name := range []string{"Botín", "Botín raro"} {
		if a := w.paced(ana, tok, map[string]any{"op": "rows", "name": name, "value": "oro\nplata\ncobre"}); a.Error {
			t.Fatalf("Ana's table %s: %s", name, a.text())
		}
	}
	// Her screen offers the GM's controls; Beto's does not.
	_, gm, _ := w.call("GET", "c/"+tok+"/s/tables", ana, "")
	_, player, _ := w.call("GET", "c/"+tok+"/s/tables", beto, "")
	for _, c := range []string{`class="tablerename row"`, `class="danger tabledelete"`, `class="cards"`, `class="shuffle"`} {
		if !strings.Contains(gm, c) {
			t.Errorf("the GM's tables screen lacks %s", c)
		}
	}
	if !strings.Contains(player, `class="shuffle"`) || strings.Contains(player, "tablerename") || strings.Contains(player, "tabledelete") ||
		strings.Contains(player, "deckdelete") || strings.Contains(player, `class="cards"`) {
		t.Errorf("the player's tables screen:\n%s", player)
	}

	// Beto, a player: the core's refusal, nothing changed, nothing posted.
	if a := w.paced(ana, tok, map[string]any{"op": "deckcreate", "name": "Premios", "value": "Espada\nEscudo\n• Poción\n"}); a.Error ||
		!strings.Contains(a.text(), "Mazo «Premios» creado: 3 cartas") || a.Posted {
		t.Fatalf("Ana's deck: %+v", a)
	}
	for _, c := range []struct {
		action map[string]any
		want   string
	}{
		{map[string]any{"op": "tablerename", "name": "Botín", "value": "Tesoro"}, "Solo un máster crea, cambia o borra tablas"},
		{map[string]any{"op": "tabledelete", "name": "Botín"}, "Solo un máster crea, cambia o borra tablas"},
		{map[string]any{"op": "deckcreate", "name": "Suyo", "value": "a\nb"}, "Solo un máster crea o borra mazos"},
		{map[string]any{"op": "deckdelete", "name": "Premios"}, "Solo un máster crea o borra mazos"},
	} {
		a := w.paced(beto, tok, c.action)
		if !a.Error || a.Posted || !strings.Contains(a.text(), c.want) {
			t.Errorf("Beto's %v: %+v, want the core's refusal %q", c.action, a, c.want)
		}
	}
	if got := tableNames(); strings.Join(got, "|") != "Botín|Botín raro" {
		t.Errorf("tables after Beto's refused edits: %q", got)
	}
	if _, ok := left("Suyo"); ok {
		t.Error("a deck created by a player")
	}
	if n, ok := left("Premios"); !ok || n != 3 {
		t.Errorf("Premios after Beto's refused delete: %d %v", n, ok)
	}

	// Beto draws, and shuffles: anyone may; both are posted in the chat.
	if a := w.paced(beto, tok, map[string]any{"op": "draw", "name": "Premios"}); a.Error || !a.Posted || !strings.Contains(a.text(), "quedan 2 de 3") {
		t.Errorf("Beto's draw: %+v", a)
	}
	if n, _ := left("Premios"); n != 2 {
		t.Errorf("Premios has %d cards left after a draw", n)
	}
	if a := w.paced(beto, tok, map[string]any{"op": "shuffle", "name": "Premios"}); a.Error || !a.Posted ||
		!strings.Contains(a.text(), "Mazo «Premios» barajado: las 3 cartas en el mazo.") {
		t.Errorf("Beto's shuffle: %+v", a)
	}
	if n, _ := left("Premios"); n != 3 {
		t.Errorf("Premios has %d cards left after the shuffle", n)
	}
	w.waitSent(webGroup, `📱 Beto: /mazo barajar Premios[\s\S]*barajado`)

	// Ana renames «Botín» to a name that starts with another table's: the
	// colon ends the old name, so «Botín» is the one renamed.
	if a := w.paced(ana, tok, map[string]any{"op": "tablerename", "name": "Botín", "value": "Botín raro de verdad"}); a.Error ||
		!strings.Contains(a.text(), "La tabla «Botín» ahora se llama «Botín raro de verdad».") || a.Posted {
		t.Errorf("Ana's rename: %+v", a)
	}
	if got := tableNames(); strings.Join(got, "|") != "Botín raro|Botín raro de verdad" {
		t.Errorf("tables after the rename: %q", got)
	}
	if a := w.paced(ana, tok, map[string]any{"op": "tablerename", "name": "Botín raro", "value": "Botín raro de verdad"}); !a.Error ||
		!strings.Contains(a.text(), "Ya hay una tabla «Botín raro de verdad»") {
		t.Errorf("a rename onto another table: %+v", a)
	}
	if a := w.paced(ana, tok, map[string]any{"op": "tabledelete", "name": "Botín raro"}); a.Error || !strings.Contains(a.text(), "Tabla «Botín raro» borrada.") || a.Posted {
		t.Errorf("Ana's delete: %+v", a)
	}
	if got := tableNames(); strings.Join(got, "|") != "Botín raro de verdad" {
		t.Errorf("tables after the delete: %q", got)
	}
	if a := w.paced(ana, tok, map[string]any{"op": "deckdelete", "name": "Premios"}); a.Error || !strings.Contains(a.text(), "Mazo «Premios» borrado.") {
		t.Errorf("Ana's deck delete: %+v", a)
	}
	if _, ok := left("Premios"); ok {
		t.Error("Premios is still there")
	}
	if a := w.paced(ana, tok, map[string]any{"op": "deckdelete", "name": "tarot"}); !a.Error || !strings.Contains(a.text(), "Tarot") {
		t.Errorf("a built-in deck deleted: %+v", a)
	}
	for _, m := range w.postedBy("Ana") {
		t.Errorf("an edit posted in the chat: %q", m)
	}

	// Bad fields: 400, nothing changed.
	for _, body := range []string{
		`{"op":"tablerename","name":"Botín raro de verdad","value":""}`,
		`{"op":"tablerename","name":"Botín raro de verdad","value":"a: b"}`,
		`{"op":"tablerename","name":"Botín raro de verdad","value":"Nueva\n/pj borrar Drake"}`,
		`{"op":"tablerename","name":"Botín raro de verdad: x","value":"y"}`,
		`{"op":"tabledelete","name":""}`, `{"op":"tabledelete","name":"/tabla"}`,
		`{"op":"deckcreate","name":"Nuevo","value":"a\n/pj borrar Drake"}`, `{"op":"deckcreate","name":"Nuevo","value":"\n \n"}`,
		`{"op":"deckcreate","name":"Nuevo: a; b","value":"c\nd"}`,
		`{"op":"deckcreate","name":"Nuevo","value":"` + strings.Repeat(`x\n`, 201) + `"}`,
		`{"op":"shuffle","name":""}`, `{"op":"shuffle","name":"tarot\n/pj borrar Drake"}`,
		`{"op":"deckdelete","name":"«tarot»"}`, `{"op":"deckdelete","name":"tarot","extra":1}`,
	} {
		if code, got, _ := w.call("POST", "c/"+tok+"/do", ana, body); code != 400 {
			t.Errorf("body %.70q: %d %q, want 400", body, code, got)
		}
	}
	if got := tableNames(); strings.Join(got, "|") != "Botín raro de verdad" {
		t.Errorf("tables after bad bodies: %q", got)
	}
	if ds, _ := w.db.ListDecks(ctx, chat); len(ds) != 0 {
		t.Errorf("decks after bad bodies: %+v", ds)
	}
}

// TestWebHistoryPictures: the history gives each roll's command, and the
// picture of its distribution is the chat's 📊 chart (a PNG of
// chart.Width × chart.Height) for a member of that chat only; showing it
// rolls and logs nothing; a command without odds gets the core's words;
// a bad body is 400.
func TestWebHistoryPictures(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	otherTok := w.chatToken(webOther, webStranger, "Zoe")
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	ctx := context.Background()
	now := time.Now()
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, now)
	zoe := "tma " + w.initDataFor(webStranger, "Zoe", otherTok, now)

	if a := w.paced(ana, tok, map[string]any{"op": "roll", "n": 2, "sides": 6, "mod": 1}); a.Error || !a.Posted {
		t.Fatalf("Ana's roll: %+v", a)
	}
	w.waitSent(webGroup, `📱 Ana: /tirar 2d6\+1`)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/mazo tarot")
	w.waitSent(webGroup, `Tarot`)
	code, body, _ := w.call("POST", "c/"+tok+"/do", ana, `{"op":"history"}`)
	var h struct {
		Lines    [][]struct{ T string } `json:"lines"`
		Commands []string               `json:"commands"`
		Totals   []*int                 `json:"totals"`
	}
	if err := json.Unmarshal([]byte(body), &h); code != 200 || err != nil {
		t.Fatalf("history: %d %q %v", code, body, err)
	}
	if len(h.Commands) != len(h.Lines) || len(h.Lines) != 3 || h.Commands[0] != "" ||
		!strings.HasPrefix(h.Commands[1], "/mazo") || h.Commands[2] != "/tirar 2d6+1" { // as typed, in the chat's words (issue 36)
		t.Fatalf("history: lines %v, commands %q", h.Lines, h.Commands)
	}
	rolls, _ := w.db.LastRolls(ctx, chat, 50)
	// The roll's total, as the chat's 📊 button carries it; a card has none.
	if len(h.Totals) != 3 || h.Totals[1] != nil || h.Totals[2] == nil || rolls[1].Total == nil || *h.Totals[2] != *rolls[1].Total ||
		*h.Totals[2] < 3 || *h.Totals[2] > 13 {
		t.Fatalf("history totals %v, the roll logged %+v", h.Totals, rolls[1])
	}

	// Her picture of /roll 2d6+1, without and with its result marked in
	// the chat's green.
	var plain []byte
	for _, body := range []string{`{"command":"/roll 2d6+1"}`, `{"command":"/roll 2d6+1","actual":` + strconv.Itoa(*h.Totals[2]) + `}`} {
		code, img, hdr := w.call("POST", "c/"+tok+"/chart", ana, body)
		if code != 200 || hdr.Get("Content-Type") != "image/png" {
			t.Fatalf("the picture: %d %s %.200q", code, hdr.Get("Content-Type"), img)
		}
		pic, err := png.Decode(bytes.NewReader([]byte(img)))
		if err != nil || pic.Bounds().Dx() != chart.Width || pic.Bounds().Dy() != chart.Height {
			t.Fatalf("the picture is not a %d×%d PNG: %v", chart.Width, chart.Height, err)
		}
		green := 0
		for y := 0; y < chart.Height; y++ {
			for x := 0; x < chart.Width; x++ {
				r, g, b, _ := pic.At(x, y).RGBA()
				if uint8(r>>8) == chart.ActualColor.R && uint8(g>>8) == chart.ActualColor.G && uint8(b>>8) == chart.ActualColor.B {
					green++
				}
			}
		}
		if plain == nil {
			if green != 0 {
				t.Errorf("a picture with no result marked has %d green pixels", green)
			}
			plain = []byte(img)
			t.Logf("the picture of /roll 2d6+1: %d bytes", len(img))
		} else if green < 100 {
			t.Errorf("the picture of /roll 2d6+1 = %d has %d green pixels: its result is not marked", *h.Totals[2], green)
		} else if err := os.WriteFile(filepath.Join(artifacts(t), "history-picture.png"), []byte(img), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// A command without odds: the core's words, no picture.
	time.Sleep(allowance) // each picture is a press, in her allowance
	code, got, hdr := w.call("POST", "c/"+tok+"/chart", ana, `{"command":"`+h.Commands[1]+`"}`)
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") || !strings.Contains(got, "Esta tirada no tiene probabilidades que mostrar.") {
		t.Errorf("the picture of %q: %d %q", h.Commands[1], code, got)
	}

	// Refused: no credentials, another chat's path, a stranger with this
	// chat's link, bad bodies.
	for _, c := range []struct {
		name, path, auth, body string
		want                   int
	}{
		{"no credentials", "c/" + tok + "/chart", "", `{"command":"/roll 2d6+1"}`, 401},
		{"another chat's token in the path", "c/" + otherTok + "/chart", ana, `{"command":"/roll 2d6+1"}`, 403},
		{"a stranger with this chat's link", "c/" + tok + "/chart", "tma " + w.initDataFor(webStranger, "Zoe", tok, now), `{"command":"/roll 2d6+1"}`, 403},
		{"Zoe's chat, Ana's path", "c/" + tok + "/chart", zoe, `{"command":"/roll 2d6+1"}`, 403},
		{"not a command", "c/" + tok + "/chart", ana, `{"command":"roll 2d6+1"}`, 400},
		{"two lines", "c/" + tok + "/chart", ana, `{"command":"/roll 2d6\n/pj borrar Drake"}`, 400},
		{"too long", "c/" + tok + "/chart", ana, `{"command":"/roll ` + strings.Repeat("1+", 100) + `1"}`, 400},
		{"an unknown field", "c/" + tok + "/chart", ana, `{"command":"/roll 2d6","op":"roll"}`, 400},
		{"empty", "c/" + tok + "/chart", ana, `{}`, 400},
		{"a result out of bounds", "c/" + tok + "/chart", ana, `{"command":"/roll 2d6","actual":10000000000}`, 400},
		{"a result not a number", "c/" + tok + "/chart", ana, `{"command":"/roll 2d6","actual":"9"}`, 400},
		{"a GET", "c/" + tok + "/chart", ana, ``, 405},
	} {
		method := "POST"
		if c.body == "" {
			method = "GET"
		}
		if code, got, _ := w.call(method, c.path, c.auth, c.body); code != c.want {
			t.Errorf("%s: %d %.100q, want %d", c.name, code, got, c.want)
		}
	}

	// Nothing rolled, nothing logged, nothing posted.
	after, _ := w.db.LastRolls(ctx, chat, 50)
	if len(after) != len(rolls) {
		t.Errorf("%d rolls logged before the pictures, %d after", len(rolls), len(after))
	}
	if n := len(w.postedBy("Ana")); n != 1 {
		t.Errorf("%d messages posted from Ana's page, want her roll only", n)
	}
}

// BenchmarkWebChart measures the history's picture of a roll (the odds
// through the router, the PNG drawn) and the history itself, the handler
// called without the network; picture-B is the PNG's size.
//
//	go test -tags goolm -run '^$' -bench BenchmarkWebChart ./cmd/zaria/
func BenchmarkWebChart(b *testing.B) {
	w := newWebTable(b)
	tok := w.chatToken(webGroup, webAna, "Ana")
	h := w.handler(b)
	// Each caller has the chat's allowance (5 at once, then one each
	// 2 s): each serves 5 calls and the next takes over.
	var auths []string
	for i := range 1000 {
		u := int64(2000 + i)
		w.tg.SetMember(webGroup, u)
		auths = append(auths, "tma "+w.initDataFor(u, fmt.Sprintf("P%d", i), tok, time.Now()))
	}
	next := 0
	caller := func(b *testing.B) string {
		if next/5 >= len(auths) {
			b.Fatal("out of callers: run with a smaller -benchtime")
		}
		a := auths[next/5]
		next++
		return a
	}
	for range 10 {
		if code := serve1(h, "POST", w.base+"c/"+tok+"/do", caller(b), `{"op":"roll","n":2,"sides":6,"mod":1}`); code != 200 {
			b.Fatalf("roll: %d", code)
		}
	}
	for _, c := range []struct{ name, command string }{{"2d6+1", "/roll 2d6+1"}, {"10d100", "/roll 10d100"}, {"zaria", "/zaria 4+2 dc15"}} {
		b.Run("picture-"+c.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest("POST", w.base+"c/"+tok+"/chart", strings.NewReader(`{"command":"`+c.command+`"}`))
				req.Header.Set("Authorization", caller(b))
				h.ServeHTTP(rec, req)
				if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
					b.Fatalf("%d %s %.200q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
				}
				n = rec.Body.Len()
			}
			b.ReportMetric(float64(n), "picture-B")
		})
	}
	b.Run("history", func(b *testing.B) {
		for b.Loop() {
			if code := serve1(h, "POST", w.base+"c/"+tok+"/do", caller(b), `{"op":"history"}`); code != 200 {
				b.Fatal(code)
			}
		}
	})
}
