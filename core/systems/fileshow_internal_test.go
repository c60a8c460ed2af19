package systems

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/systems/engine"
)

// starsFile is a game the project does not ship, with a look of its own:
// a pool of d6 whose sixes are stars (★) and ones skulls (☠), a doom die
// apart after a bar, the stars counted signed and named, the margin
// written only when it is not 0 and given to --json; and a development
// phase: a win with a talent of the sheet marks it, "/stars train" rolls
// a d20 over it (or 19+) to add 1d4.
const starsFile = `system: stars
title: {es: Estrellas, el: Αστέρια, en: Stars}
command: stars
inputs:
  - key: pool
    type: terms
    min: 1
    max: 5
    names: {es: reserva, el: δεξαμενή, en: pool}
    parts:
      - {key: talent, min: 1, max: 5, names: {es: talento, el: ταλέντο, en: talent}}
      - {key: bonus, min: 0, max: 2, names: {es: bono, el: μπόνους, en: bonus}}
  - {key: target, type: number, min: 0, max: 5, default: 1, prefixes: [tn], names: {es: objetivo, el: στόχος, en: target}}
outcomes:
  - {key: win, success: true, names: {es: Victoria, el: Νίκη, en: Win}}
  - {key: loss, success: false, names: {es: Derrota, el: Ήττα, en: Loss}}
checks:
  - key: roll
    names: {es: tirada, el: ρίψη, en: roll}
    inputs: [pool, target]
    steps:
      - {roll: h, dice: pool, faces: 6}
      - {roll: doom, dice: "1", faces: 6}
      - {let: stars, is: h.count(6) - doom.count(1)}
      - {let: margin, is: stars - target}
    total: stars
    result:
      on: margin
      bands:
        - {at_least: "0", outcome: win, level: margin}
        - {outcome: loss, level: margin}
example: {es: 3 tn2, el: 3 tn2, en: 3 tn2}
show:
  faces: {1: "☠", 6: "★"}
  split:
    - {before: doom, text: " ‖ "}
  total:
    signed: true
    text: {es: "{n} estrellas", el: "{n} αστέρια", en: "{n} stars"}
  level:
    text: {es: "margen {n}", el: "περιθώριο {n}", en: "margin {n}"}
    hide_zero: true
  json: [margin]
development:
  check: roll
  on: pool.talent
  keep: stars_training
  words: {es: entrenar, el: εξάσκηση, en: train}
  example: {es: esgrima+1, el: ξιφασκία+1, en: fencing+1}
  roll: 20
  from: 19
  gain: 4
vectors:
  - {name: three stars, inputs: {pool: "4", target: "2"}, dice: [6, 6, 6, 2, 4], expect: {outcome: win, total: "3"}}
  - {name: doom, inputs: {pool: "2", target: "0"}, dice: [3, 4, 1], expect: {outcome: loss, total: "-1"}}
`

// starsBot runs a file as fileHandler runs a shipped one (its
// development phase, its check, its marks) on a SQLite sheet.
func starsBot(t *testing.T, src string) func(lang, text string, faces ...int) (string, *reply.Reply) {
	t.Helper()
	sys, err := engine.Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, db := sheetRouter(t, "es")
	r.Register(command.Command{Name: sys.File.Command, Handler: command.HandlerFunc(func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
		words := tokenize(req.Args).toks
		if len(words) > 0 && sys.IsDevelopment(words[0]) {
			return devPhase(ctx, req, sys, words[1:])
		}
		p, err := sys.Parse(words)
		if err != nil {
			return nil, fileParseErr(req, sys, err)
		}
		if _, err := sys.Resolve(&p.Active, func(k string) (int, error) { return req.SheetInt(ctx, p.Active.Who, k) }); err != nil {
			return nil, err
		}
		c := fileCheck{key: sys.File.System, sys: sys, p: p}
		rep, res, err := rollFile(req, c)
		if err != nil {
			return nil, err
		}
		devMark(ctx, req, c, res, rep)
		return rep, nil
	})})
	chat := core.ChatRef{Platform: "console", ID: "stars"}
	return func(lang, text string, faces ...int) (string, *reply.Reply) {
		t.Helper()
		st, err := db.Settings(ctx, chat)
		if err != nil {
			t.Fatal(err)
		}
		st = st.Clone()
		st.Lang = lang
		if err := db.SaveSettings(ctx, chat, st); err != nil {
			t.Fatal(err)
		}
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: core.User{ID: "1", Name: "Ana"}, Text: text}, dice.NewScripted(faces))
		if !ok {
			t.Fatalf("%q: no reply", text)
		}
		return reply.PlainText(rep), rep
	}
}

// A file the project does not ship shows its roll as its show section
// declares: the faces' texts, the separator before the doom die, the
// total signed in its text, the level's text (none for 0), its value in
// --json, its example in an error; the same file without show gets the
// plain look.
func TestOwnFileShowsAsDeclared(t *testing.T) {
	send := starsBot(t, starsFile)
	for _, c := range []struct {
		lang, text string
		dice       []int
		want       string
		margin     int64
	}{
		{"es", "/stars 4 tn2", []int{6, 6, 6, 2, 4}, "🎲 ★ ★ ★ 2 ‖ 4 → +3 estrellas\nVictoria · margen +1\n", 1},
		{"el", "/stars 3 tn2", []int{6, 6, 3, 5}, "🎲 ★ ★ 3 ‖ 5 → +2 αστέρια\nΝίκη\n", 0},
		{"en", "/stars 2 tn0", []int{3, 4, 1}, "🎲 3 4 ‖ ☠ → −1 stars\nLoss · margin −1\n", -1},
	} {
		got, rep := send(c.lang, c.text, c.dice...)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s %s: %q, want it to begin %q", c.lang, c.text, got, c.want)
		}
		if rep.Data["margin"] != c.margin {
			t.Errorf("%s %s: --json margin %v, want %d", c.lang, c.text, rep.Data["margin"], c.margin)
		}
	}
	if got, _ := send("en", "/stars tn2"); !strings.Contains(got, "The pool is missing. For example: /stars 3 tn2") {
		t.Errorf("error without the file's example: %q", got)
	}

	plain := starsBot(t, strings.Replace(starsFile, starsFile[strings.Index(starsFile, "example:"):strings.Index(starsFile, "development:")], "", 1))
	got, rep := plain("es", "/stars 4 tn2", 6, 6, 6, 2, 4)
	if !strings.HasPrefix(got, "🎲 6 6 6 2 4 → 3\nVictoria · nivel +1\n") || rep.Data != nil {
		t.Errorf("without show: %q, data %v", got, rep.Data)
	}
	if got, _ := plain("en", "/stars tn2"); !strings.HasSuffix(strings.TrimSpace(got), "For example: /stars") {
		t.Errorf("error without an example: %q", got)
	}
}

// A development phase a file declares: a win with a talent of the sheet
// marks it (the part of talent+bonus), "/stars entrenar" rolls each
// marked talent's d20, over it or 19+ adding 1d4, and clears the marks.
func TestOwnFileDevelopment(t *testing.T) {
	send := starsBot(t, starsFile)
	send("es", "/pj crear Lyra")
	send("es", "/pj poner esgrima 3")
	if got, _ := send("es", "/stars esgrima+1 tn1", 6, 2, 3, 1, 5); !strings.Contains(got, "«esgrima» marcada para mejorar al final de la sesión (/stars entrenar).") {
		t.Fatalf("a win does not mark: %q", got)
	}
	if got, _ := send("es", "/stars esgrima tn2", 6, 2, 3, 5); strings.Contains(got, "marcada") {
		t.Errorf("a loss marks: %q", got)
	}
	if got, _ := send("el", "/stars εξάσκηση @Lyra x"); !strings.Contains(got, "Γράψε /stars εξάσκηση ή /stars εξάσκηση @Όνομα") {
		t.Errorf("usage: %q", got)
	}
	if got, _ := send("en", "/stars train", 12, 3); !strings.Contains(got, "esgrima 3: 🎲 12, +3 → 6") || !strings.Contains(got, "Marks cleared") {
		t.Errorf("development phase: %q", got)
	}
	if got, _ := send("es", "/stars entrenar"); !strings.Contains(got, "No hay habilidades marcadas. Un éxito con una habilidad de la ficha la marca: /stars esgrima+1") {
		t.Errorf("nothing marked: %q", got)
	}
}
