package main

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
)

// Every sub-command word of every command, in every language, does what
// its canonical name does (the word the page writes): each is typed as a
// GM into a fresh chat in its language, and answered as the canonical
// name is in another fresh chat. And /help of the command lists it: the
// parser and /help read one table (command.Subs).
func TestSubcommandWordsResolveAndHelpListsThem(t *testing.T) {
	r := testRouter(t, "es", nil)
	ctx := context.Background()
	n := 0
	say := func(lang, text string) *reply.Reply {
		t.Helper()
		n++
		chat := core.ChatRef{Platform: "cli", ID: "sub-" + strconv.Itoa(n)}
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: core.User{ID: "u1", Name: "Ana"}, Text: text, LangHint: lang, FromGM: true}, dice.Seeded(1))
		if !ok {
			t.Fatalf("%s: %q not answered", lang, text)
		}
		return rep
	}
	commands, words := 0, 0
	for _, c := range r.Commands() {
		subs := c.Subs.List()
		if len(subs) == 0 {
			continue
		}
		commands++
		for _, lang := range core.Langs() {
			help := reply.PlainText(say(lang, "/help "+c.Name))
			for _, s := range subs {
				if len(s.Words[lang]) == 0 {
					t.Errorf("/%s %s has no word in %s", c.Name, s.Name, lang)
				}
				want := reply.PlainText(say(lang, "/"+c.Name+" "+s.Name))
				for _, w := range s.Words[lang] {
					words++
					if !strings.Contains(help, w) {
						t.Errorf("%s: /help %s does not list %q:\n%s", lang, c.Name, w, help)
					}
					if got := reply.PlainText(say(lang, "/"+c.Name+" "+w)); got != want {
						t.Errorf("%s: /%s %s answered\n%s\nbut /%s %s\n%s", lang, c.Name, w, got, c.Name, s.Name, want)
					}
				}
			}
		}
	}
	// /mazo, /tabla, /sesion, /init, /botones, /gm, /alias, /pj.
	if commands < 8 || words < 200 {
		t.Errorf("only %d commands with %d sub-command words", commands, words)
	}
}
