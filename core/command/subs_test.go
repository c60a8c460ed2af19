package command

import (
	"strings"
	"testing"
)

// words is a sub-command's words in the three languages.
func words(es, el, en string) map[string][]string {
	return map[string][]string{"es": strings.Fields(es), "el": strings.Fields(el), "en": strings.Fields(en)}
}

// A sub-command word is found in any language, without case or accents,
// and so is its canonical name; any other word is none.
func TestSubsLookup(t *testing.T) {
	subs := NewSubs(
		Sub{Name: "next", Words: words("siguiente sig", "επόμενος", "next")},
		Sub{Name: "add", Words: words("añadir", "προσθήκη", "add")},
	)
	for word, want := range map[string]string{
		"siguiente": "next", "SIG": "next", "επομενος": "next", "Επόμενος": "next", "next": "next",
		"añadir": "add", "ANADIR": "add", "προσθηκη": "add", "add": "add",
	} {
		if got, ok := subs.Lookup(word); !ok || got != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", word, got, ok, want)
		}
	}
	for _, word := range []string{"", "Orco", "sigu", "nex"} {
		if got, ok := subs.Lookup(word); ok {
			t.Errorf("Lookup(%q) = %q; want none", word, got)
		}
	}
	if !subs.Is("Sig", "next") || subs.Is("sig", "add") {
		t.Error("Is")
	}
	if got, ok := subs.Read("", "next"); !ok || got != "next" {
		t.Errorf(`Read("", "next") = %q, %v`, got, ok)
	}
	if got, ok := subs.Read("añadir", "next"); !ok || got != "add" {
		t.Errorf(`Read("añadir", "next") = %q, %v`, got, ok)
	}
	if _, ok := subs.Read("Orco", "next"); ok {
		t.Error(`Read("Orco", "next") is a sub-command`)
	}
	if got := subs.List(); len(got) != 2 || got[0].Name != "next" || got[1].Name != "add" {
		t.Errorf("List() = %v", got)
	}
	var none *Subs // a command without sub-commands
	if _, ok := none.Lookup("next"); ok || none.List() != nil {
		t.Error("a nil table has sub-commands")
	}
}

// A table that cannot be read one way is refused at start-up, as
// Router.Register refuses a command name taken twice.
func TestSubsPanicAtStartUp(t *testing.T) {
	for name, subs := range map[string][]Sub{
		"a word for two": {
			{Name: "remove", Words: words("quitar borrar", "αφαίρεση", "remove")},
			{Name: "delete", Words: words("Borrar", "διαγραφή", "delete")},
		},
		"a word for two, by accents": {
			{Name: "add", Words: words("añadir", "προσθήκη", "add")},
			{Name: "other", Words: words("anadir", "άλλο", "other")},
		},
		"a canonical name that is another's word": {
			{Name: "show", Words: words("ver", "δείξε", "show list")},
			{Name: "list", Words: words("lista", "λίστα", "ls")},
		},
		"a name twice":        {{Name: "add", Words: words("añadir", "προσθήκη", "add")}, {Name: "add", Words: words("agregar", "πρόσθεσε", "plus")}},
		"no Greek word":       {{Name: "add", Words: map[string][]string{"es": {"añadir"}, "en": {"add"}}}},
		"a language not ours": {{Name: "add", Words: map[string][]string{"es": {"añadir"}, "el": {"προσθήκη"}, "en": {"add"}, "fr": {"ajouter"}}}},
		"a word with a space": {{Name: "add", Words: words("añadir", "προσθήκη", "add")}, {Name: "sub", Words: map[string][]string{"es": {"dos palabras"}, "el": {"α"}, "en": {"b"}}}},
		"a name not Latin":    {{Name: "προσθήκη", Words: words("añadir", "προσθήκη", "add")}},
		"an empty word":       {{Name: "add", Words: map[string][]string{"es": {""}, "el": {"προσθήκη"}, "en": {"add"}}}},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("NewSubs(%v) did not panic", subs)
				}
			}()
			NewSubs(subs...)
		})
	}
}

// The router keeps a command's table: /help and the page read it from
// the command registered.
func TestRegisterKeepsSubs(t *testing.T) {
	r := New(Config{})
	subs := NewSubs(Sub{Name: "draw", Words: words("robar", "τράβα", "draw")})
	r.Register(Command{Name: "deck", Aliases: []string{"mazo"}, Handler: HandlerFunc(nil), Subs: subs})
	c, ok := r.Lookup("mazo")
	if !ok || c.Subs != subs || !c.Subs.Is("τραβα", "draw") {
		t.Fatalf("Lookup(mazo) = %+v, %v", c, ok)
	}
}
