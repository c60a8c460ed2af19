package main

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
)

// A chat's pads go with its export: importing the file into another chat
// gives the same pads (the player's and the table's), a file whose pad is
// not valid changes nothing, and a file from before pads (version 1)
// leaves the chat's pads as they are.
func TestPadsAreExportedAndImported(t *testing.T) {
	ctx := context.Background()
	r := testRouter(t, "en", nil)
	send := func(chat, text string) *reply.Reply {
		t.Helper()
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: core.ChatRef{Platform: "cli", ID: chat},
			From: core.User{ID: "u1", Name: "Ana"}, Text: text, FromGM: true, LangHint: "en"}, dice.Seeded(1))
		if !ok {
			t.Fatalf("%q not answered", text)
		}
		return rep
	}
	ok := func(chat, text string) string {
		t.Helper()
		rep := send(chat, text)
		if rep.Error {
			t.Fatalf("%s: %q → %s", chat, text, reply.PlainText(rep))
		}
		return reply.PlainText(rep)
	}
	ok("a", "/pj create Drake")
	ok("a", `/pad add "Attack" /roll 1d20+5`)
	ok("a", "/pad add 2d6")
	ok("a", "/pad --chat add d100")
	exp := send("a", "/export")
	if exp.File == nil {
		t.Fatalf("no export file: %s", reply.PlainText(exp))
	}
	doc := string(exp.File.Data)
	if !strings.Contains(doc, `"pads":[`) || !strings.Contains(doc, `"label":"Attack","command":"/roll 1d20+5"`) {
		t.Fatalf("the export has no pads: %s", doc)
	}
	ok("b", "/import "+doc)
	if got := ok("b", "/pad list"); !strings.Contains(got, "Attack") || !strings.Contains(got, "/roll 1d20+5") || !strings.Contains(got, "2d6") {
		t.Errorf("Ana's pad after the import:\n%s", got)
	}
	if got := ok("b", "/pad --chat list"); !strings.Contains(got, "d100") {
		t.Errorf("the chat's pad after the import:\n%s", got)
	}

	// A button with a line break: refused, nothing changed.
	bad := strings.Replace(doc, `"label":"Attack"`, `"label":"Attack\n⚠️ The GM"`, 1)
	rep := send("c", "/import "+bad)
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "Nothing was imported") {
		t.Errorf("a bad pad: %s", reply.PlainText(rep))
	}
	if got := ok("c", "/pj list"); !strings.Contains(got, "No characters") {
		t.Errorf("the refused file was imported: %s", got)
	}

	// A version-1 file (no pads) keeps the chat's pads.
	ok("b", "/pad add 3d6")
	v1 := strings.Replace(doc, `"version":2`, `"version":1`, 1)
	v1 = v1[:strings.Index(v1, `,"pads":`)] + "}"
	ok("b", "/import "+v1)
	if got := ok("b", "/pad list"); !strings.Contains(got, "3d6") {
		t.Errorf("a version-1 import changed the pad:\n%s", got)
	}
}

// Whatever a button was added or renamed with (an invisible character
// pasted into it), the chat's export imports again: the bot never stores
// a button its own /importar refuses.
func TestPadsWithPastedInvisiblesRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := testRouter(t, "en", nil)
	send := func(chat, text string) *reply.Reply {
		t.Helper()
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: core.ChatRef{Platform: "cli", ID: chat},
			From: core.User{ID: "u1", Name: "Ana"}, Text: text, FromGM: true, LangHint: "en"}, dice.Seeded(1))
		if !ok {
			t.Fatalf("%q not answered", text)
		}
		if rep.Error {
			t.Fatalf("%s: %q → %s", chat, text, reply.PlainText(rep))
		}
		return rep
	}
	send("a", "/pad add 1d6\u200f+1")
	send("a", "/pad add \"x\" /roll 1d4\u202e")
	send("a", "/pad rename 2 a\u200bb")
	doc := string(send("a", "/export").File.Data)
	if got := reply.PlainText(send("b", "/import "+doc)); !strings.Contains(got, "Imported") {
		t.Fatalf("import of the chat's own export: %s", got)
	}
	if got := reply.PlainText(send("b", "/pad list")); !strings.Contains(got, "/roll 1d6+1") || !strings.Contains(got, "ab · /roll 1d4") {
		t.Errorf("pads after the round trip:\n%s", got)
	}
}
