package command

import (
	"fmt"
	"slices"
	"strings"

	"zaria/core"
	"zaria/core/fold"
)

// Sub is one sub-command of a command ("/init siguiente"): its canonical
// name, the Latin word the page and the docs write ("next"), and the
// words that name it in each language the bot speaks, in the order /help
// lists them ("es": {"siguiente", "sig"}).
type Sub struct {
	Name  string
	Words map[string][]string
}

// Subs is a command's table of sub-commands: built once at start-up by
// NewSubs, given to the router with the command (Command.Subs), and read
// by the command's parser (Lookup), by /help (List) and by the page,
// which writes the canonical names. A word is matched as a command name
// is: without case or accents (fold.Key).
type Subs struct {
	list   []Sub
	byWord map[string]string // fold.Key(word) → Name
}

// NewSubs builds a table of sub-commands. A word that names two of them,
// a sub-command without a word in one of core.Langs, a language the bot
// does not speak or a bad word is a programming error and panics at
// start-up, as Router.Register does. Each canonical name is a word too.
func NewSubs(subs ...Sub) *Subs {
	t := &Subs{byWord: map[string]string{}}
	add := func(sub, word string) {
		k := fold.Key(word)
		if k == "" || strings.ContainsAny(k, " @/!") || fold.Clean(word) != word {
			panic(fmt.Sprintf("command: bad sub-command word %q of %q", word, sub))
		}
		if prev, dup := t.byWord[k]; dup && prev != sub {
			panic(fmt.Sprintf("command: sub-command word %q of %q already taken by %q", word, sub, prev))
		}
		t.byWord[k] = sub
	}
	for _, s := range subs {
		if s.Name == "" || strings.Trim(s.Name, "abcdefghijklmnopqrstuvwxyz_") != "" {
			panic(fmt.Sprintf("command: bad sub-command name %q", s.Name))
		}
		if slices.ContainsFunc(t.list, func(o Sub) bool { return o.Name == s.Name }) {
			panic(fmt.Sprintf("command: sub-command %q listed twice", s.Name))
		}
		add(s.Name, s.Name)
		for lang, words := range s.Words {
			if !core.IsLang(lang) {
				panic(fmt.Sprintf("command: sub-command %q has words in %q, a language the bot does not speak", s.Name, lang))
			}
			for _, w := range words {
				add(s.Name, w)
			}
		}
		for _, lang := range core.Langs() {
			if len(s.Words[lang]) == 0 {
				panic(fmt.Sprintf("command: sub-command %q has no word in %q", s.Name, lang))
			}
		}
		t.list = append(t.list, s)
	}
	return t
}

// Lookup finds the sub-command word names, in any language; ok is false
// when it is none (then it is usually an argument: a table's name). A
// nil table has no sub-commands.
func (t *Subs) Lookup(word string) (name string, ok bool) {
	if t == nil {
		return "", false
	}
	name, ok = t.byWord[fold.Key(word)]
	return name, ok
}

// Read is Lookup for a command whose word alone (word "") means the
// sub-command def: "/sesion" is "/sesion archivo".
func (t *Subs) Read(word, def string) (name string, ok bool) {
	if word == "" {
		return def, true
	}
	return t.Lookup(word)
}

// Is reports whether word names the sub-command name.
func (t *Subs) Is(word, name string) bool {
	n, ok := t.Lookup(word)
	return ok && n == name
}

// List returns the sub-commands in the order they were given.
func (t *Subs) List() []Sub {
	if t == nil {
		return nil
	}
	return slices.Clone(t.list)
}
