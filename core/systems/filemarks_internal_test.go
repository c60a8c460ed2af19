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
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// ownFile is a game the project does not ship, as a GM would write it:
// d20 + stat + skill against a target, a natural 20 marking the skill
// (the part of stat+skill), and a sheet to start with.
const ownFile = `system: own
title: {es: Propio, el: Δικό, en: Own}
command: own
inputs:
  - key: mod
    type: terms
    names: {es: atributo + habilidad, el: χαρακτηριστικό + ικανότητα, en: stat + skill}
    min: 0
    max: 20
    parts:
      - {key: stat, min: 0, max: 10, names: {es: atributo, el: χαρακτηριστικό, en: stat}}
      - {key: skill, min: 0, max: 10, names: {es: habilidad, el: ικανότητα, en: skill}}
  - {key: target, type: number, min: 1, max: 30, default: 15, prefixes: [tn], names: {es: objetivo, el: στόχος, en: target}}
outcomes:
  - {key: critical, success: true, names: {es: crítico, el: κρίσιμη, en: critical}}
  - {key: success, success: true, names: {es: éxito, el: επιτυχία, en: success}}
  - {key: failure, success: false, names: {es: fallo, el: αποτυχία, en: failure}}
checks:
  - key: check
    names: {es: tirada, el: ρίψη, en: check}
    inputs: [mod, target]
    steps:
      - {roll: d, dice: "1", faces: 20}
      - {let: total, is: d.sum + mod}
    total: total
    result:
      overrides:
        - {when: d.all(20), outcome: critical}
      on: total - target
      bands:
        - {at_least: "0", outcome: success}
        - {outcome: failure}
sheet:
  keys:
    - {key: might, kind: stat, value: "3", min: 0, max: 10, names: {es: Poder, el: Ισχύς, en: Might}}
    - {key: lore, kind: skill, value: "2", min: 0, max: 10, names: {es: Saber, el: Γνώση, en: Lore}}
  marks:
    - {check: check, outcomes: [critical], on: mod.skill, add: 1, max: 3}
vectors:
  - {name: crit, inputs: {mod: 3+2, target: "15"}, dice: [20], expect: {outcome: critical}}
`

// A file system's own marks (fileMarks): any file that declares them
// keeps them on the sheet value its terms input read, the reply says so
// before its last line, and max caps the points; a stat+skill typed as
// numbers marks nothing.
func TestFileSystemMarks(t *testing.T) {
	send := fileRouter(t, ownFile)
	send("/pj create Lyra")
	send("/pj set might 3 lore 2")
	for i, want := range []string{"1", "2", "3", "3"} {
		if got := send("/own might+lore tn15", 20); !strings.Contains(got, "critical\n✎ lore, progression points on the sheet: "+want+" (/pj marks)\n📊") {
			t.Fatalf("critical %d: %q", i+1, got)
		}
	}
	if got := send("/own might+lore tn15", 12); strings.Contains(got, "✎") {
		t.Errorf("a success marks: %q", got)
	}
	if got := send("/own 3+2 tn15", 20); strings.Contains(got, "✎") {
		t.Errorf("numbers mark: %q", got)
	}
	if got := send("/pj marks"); !strings.Contains(got, "✎ Marks: lore 3") {
		t.Errorf("/pj marks: %q", got)
	}
}

// fileRouter is a chat whose command /own rolls the file src as the file
// systems' command does, marks and sets included (fileMarks); send
// dispatches a message with the dice faces given.
func fileRouter(t *testing.T, src string) func(text string, faces ...int) string {
	t.Helper()
	sys, err := engine.Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, _ := sheetRouter(t, "en")
	r.Register(command.Command{Name: "own", Handler: command.HandlerFunc(func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
		p, err := sys.Parse(tokenize(req.Args).toks)
		if err != nil {
			return nil, err
		}
		if _, err := sys.Resolve(&p.Active, func(k string) (int, error) { return req.SheetInt(ctx, p.Active.Who, k) }); err != nil {
			return nil, err
		}
		c := fileCheck{key: "own", sys: sys, p: p}
		res, err := sys.Roll(p.Check, c.params(), req.Rand)
		if err != nil {
			return nil, err
		}
		rep := (&reply.Reply{}).Add(reply.B(res.Outcome)).Add(reply.T("📊"))
		return rep, fileMarks(ctx, req, c, res, rep)
	})})
	chat := core.ChatRef{Platform: "console", ID: "own"}
	send := func(text string, faces ...int) string {
		t.Helper()
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: core.User{ID: "1", Name: "Ana"}, Text: text}, dice.NewScripted(faces))
		if !ok || rep.Error {
			t.Fatalf("%q: %s", text, reply.PlainText(rep))
		}
		return reply.PlainText(rep)
	}
	return send
}

// luckFile spends luck: a d6 under the sheet's luck keeps it, else it
// drops by one, written back on the sheet value read (its sets).
const luckFile = `system: own
title: {es: Suerte, el: Τύχη, en: Luck}
command: own
inputs:
  - key: luck
    type: terms
    names: {es: suerte, el: τύχη, en: luck}
    min: 0
    max: 6
    parts:
      - {key: base, min: 0, max: 6, names: {es: base, el: βάση, en: base}}
      - {key: bonus, min: 0, max: 6, names: {es: extra, el: έξτρα, en: bonus}}
outcomes:
  - {key: kept, success: true, names: {es: se mantiene, el: μένει, en: kept}}
  - {key: spent, success: false, names: {es: gastada, el: ξοδεύτηκε, en: spent}}
checks:
  - key: check
    names: {es: suerte, el: τύχη, en: luck}
    inputs: [luck]
    steps:
      - {roll: d, dice: "1", faces: 6}
      - {let: left, is: "max(0, luck - 1)"}
    total: d.sum
    result:
      on: luck - d.sum
      bands:
        - {at_least: "0", outcome: kept}
        - {outcome: spent}
    sets:
      - {outcomes: [spent], on: luck, to: left}
sheet:
  keys:
    - {key: fortune, kind: stat, value: "3", min: 0, max: 6, names: {es: Suerte, el: Τύχη, en: Fortune}}
vectors:
  - {name: kept, inputs: {luck: "3"}, dice: [2], expect: {outcome: kept}}
`

// A file system's sets (fileMarks): a failed luck roll writes the luck
// left on the sheet value read, saying so before the last line; a kept
// one, or luck typed as a number, writes nothing.
func TestFileSystemSets(t *testing.T) {
	send := fileRouter(t, luckFile)
	send("/pj create Lyra")
	send("/pj set fortune 3")
	if got := send("/own fortune", 5); !strings.Contains(got, "spent\nSheet: fortune = 2\n📊") {
		t.Fatalf("spent: %q", got)
	}
	if got := send("/own fortune", 1); strings.Contains(got, "Sheet:") {
		t.Errorf("kept writes: %q", got)
	}
	if got := send("/own 2", 6); strings.Contains(got, "Sheet:") {
		t.Errorf("a number writes: %q", got)
	}
	if got := send("/pj"); !strings.Contains(got, "fortune 2") {
		t.Errorf("/pj: %q", got)
	}
}

// sheetRouter is a router with the chat services on a SQLite file (db),
// its default language lang and no rate limit, for a file's own command.
func sheetRouter(t *testing.T, lang string) (*command.Router, *sqlite.DB) {
	t.Helper()
	db, svc, cat := ServicesForTest(t, chattest.Options{})
	r := command.New(command.Config{DefaultLang: lang, Translator: cat, Settings: db, GMs: db, Sheets: svc.Sheets, Limits: command.Limits{Burst: 1 << 20}})
	svc.Register(r)
	return r, db
}
