package command_test

import (
	"context"
	"fmt"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
)

// portRouter is newRouter (default es) with a file command, a hidden
// command, one without help, and a secret roll.
func portRouter(t *testing.T) (*command.Router, func(chat, key, value string)) {
	r, st, _ := newRouter(t)
	ok := command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) { return reply.Text("ok"), nil })
	r.Register(command.Command{Name: "importar", Aliases: []string{"import", "εισαγωγή"}, MaxInput: 300_000, TakesFile: true, Handler: ok})
	r.Register(command.Command{Name: "start", Hidden: true, Handler: ok})
	r.Register(command.Command{Name: "nohelp", Handler: ok})
	r.Register(command.Command{Name: "secret", Handler: command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) {
		return &reply.Reply{Lines: []reply.Line{{reply.T("🤫")}}, Secret: reply.Text("17")}, nil
	})})
	set := func(chat, key, value string) {
		ref := core.ChatRef{Platform: "test", ID: chat}
		var err error
		if key == "lang" {
			err = st.SetLang(context.Background(), ref, value)
		} else {
			err = st.SetOption(context.Background(), ref, key, value)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return r, set
}

func TestRecognize(t *testing.T) {
	r, set := portRouter(t)
	set("9", "prefix", ".")
	ctx := context.Background()
	for _, c := range []struct {
		chat, text, name string
		ok               bool
	}{
		{"1", "/r 2d6", "roll", true},
		{"1", "!ΡΙΞΕ 2δ6", "roll", true},
		{"1", "/roll@ZariaBot 1d20", "roll", true},
		{"1", "/roll@OtherBot 1d20", "", false},
		{"1", "/nosuch", "", true}, // a command the bot answers "I don't know"
		{"1", "hola", "", false},
		{"1", ".roll 1d6", "", false}, // not this chat's prefix
		{"9", ".roll 1d6", "roll", true},
		{"9", "/roll 1d6", "roll", true},
	} {
		m := msg(c.text)
		m.Chat.ID = c.chat
		name, ok := r.Recognize(ctx, m)
		if name != c.name || ok != c.ok {
			t.Errorf("chat %s: Recognize(%q) = %q, %v; want %q, %v", c.chat, c.text, name, ok, c.name, c.ok)
		}
		// Recognize decides as Dispatch does.
		if _, dispatched := r.Dispatch(ctx, m); dispatched != c.ok {
			t.Errorf("chat %s: Dispatch(%q) ok=%v, Recognize said %v", c.chat, c.text, dispatched, c.ok)
		}
	}
}

func TestTakesFile(t *testing.T) {
	r, _ := portRouter(t)
	for text, want := range map[string]bool{
		"/importar":              true,
		"  !import extra":        true,
		"/ΕΙΣΑΓΩΓΗ":              true,
		"/importar@ZariaBot":     true,
		"/importar\nline":        true,
		"/roll 2d6":              false,
		"importar":               false,
		"/nosuch":                false,
		"":                       false,
		"/roll importar":         false,
		"!! importar everything": false,
	} {
		if got := r.TakesFile(text); got != want {
			t.Errorf("TakesFile(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestLangIsTheRouterRule: for every kind of chat the language the port
// gives before a message is the one its reply is rendered in (Reply.Lang),
// and asking never saves a language.
func TestLangIsTheRouterRule(t *testing.T) {
	r, set := portRouter(t)
	set("set-el", "lang", "el")
	ctx := context.Background()
	for _, c := range []struct{ chat, hint, want string }{
		{"set-el", "en", "el"}, // the chat's setting wins
		{"new-en", "en-GB", "en"},
		{"new-es", "es-AR", "es"},
		{"new-pt", "pt-br", "es"}, // the router's default
		{"new-none", "", "es"},
	} {
		ref := core.ChatRef{Platform: "test", ID: c.chat}
		if got := r.Lang(ctx, ref, c.hint); got != c.want {
			t.Errorf("%s: Lang(hint %q) = %q, want %q", c.chat, c.hint, got, c.want)
		}
		if got := r.Lang(ctx, ref, "el"); c.chat != "set-el" && got != "el" {
			t.Errorf("%s: asking saved a language: then Lang(hint el) = %q", c.chat, got)
		}
		m := msg("/secret")
		m.Chat, m.LangHint = ref, c.hint
		rep, ok := r.Dispatch(ctx, m)
		if !ok || rep.Lang != c.want || rep.Secret == nil || rep.Secret.Lang != c.want {
			t.Fatalf("%s: reply in %q (secret part %+v), want %q", c.chat, rep.Lang, rep.Secret, c.want)
		}
		m.Text = "/roll bad" // an error reply carries its language too
		if rep, _ := r.Dispatch(ctx, m); !rep.Error || rep.Lang != c.want {
			t.Errorf("%s: error reply %+v, want Lang %q", c.chat, rep, c.want)
		}
		// So does the answer to a pressed button.
		for _, a := range []reply.Action{{Kind: reply.ActAgain, Command: "/secret"}, {Kind: reply.ActOdds, Command: "/secret"}} {
			if rep, ok := r.Press(ctx, m, a); !ok || rep.Lang != c.want {
				t.Errorf("%s: press %s: %+v, want Lang %q", c.chat, a.Kind, rep, c.want)
			}
		}
	}
}

func TestTextAndMenu(t *testing.T) {
	r, _ := portRouter(t)
	if got := r.Text("en", "tg.again.by", "name", "Ana"); got != "🎲 Ana rolls again" {
		t.Errorf("Text en = %q", got)
	}
	if got := r.Text("xx", "tg.again.by", "name", "Ana"); got != "🎲 Ana tira otra vez" {
		t.Errorf("Text in an unknown language = %q, want the default (es)", got)
	}
	menu := r.Menu("en")
	want := []core.MenuItem{{Name: "roll", Description: "any dice (also /r)"}, {Name: "importar"},
		{Name: "nohelp", Description: "/nohelp"}, {Name: "secret", Description: "/secret"}}
	if len(menu) != len(want) {
		t.Fatalf("menu %+v, want 4 items without the hidden /start", menu)
	}
	for i, w := range want {
		if menu[i].Name != w.Name || (w.Description != "" && menu[i].Description != w.Description) || menu[i].Description == "" {
			t.Errorf("menu[%d] = %+v, want %+v", i, menu[i], w)
		}
	}
	if d := r.Menu("el")[0].Description; d != "οποιαδήποτε ζάρια (και /r)" {
		t.Errorf("Greek menu: %q", d)
	}
}

// TestOddsText: the answer to a 📊 press states the odds the button
// carries (those of the roll it is under) in one line, in the chat's
// language; a button without them (one of an earlier version) gets none.
func TestOddsText(t *testing.T) {
	r, _ := portRouter(t)
	ctx := context.Background()
	f := func(x float64) *float64 { return &x }
	for i, c := range []struct {
		lang string
		o    *reply.RollOdds
		want string
	}{
		{"en", &reply.RollOdds{Chance: f(0.375), Exact: "3/8", Mean: f(7)}, "📊 Chance: 37.5% · mean 7"},
		{"es", &reply.RollOdds{Chance: f(0.375), Exact: "3/8", Mean: f(7)}, "📊 Probabilidad: 37,5 % · media 7"},
		{"en", &reply.RollOdds{Chance: f(0.5), Mean: f(3.5), Approx: true}, "📊 Chance: ≈50% · mean ≈3.5"},
		{"en", &reply.RollOdds{Mean: f(3.5)}, "📊 Mean: 3.5"},
		{"en", &reply.RollOdds{}, "📊 No odds: this roll can divide by zero."},
		{"en", nil, ""},
	} {
		m := core.Message{Chat: core.ChatRef{Platform: "test", ID: fmt.Sprint("odds", i)}, From: core.User{ID: "u1", Name: "Ana"}, LangHint: c.lang}
		rep, ok := r.Press(ctx, m, reply.Action{Kind: reply.ActOdds, Command: "/roll 3d6", Odds: c.o})
		if !ok || rep.OddsLine != c.want {
			t.Errorf("press 📊 with %+v in %s: line %q, want %q", c.o, c.lang, rep.OddsLine, c.want)
		}
	}
}

// TestGoneButton: a button an adapter can no longer resolve is answered
// by the core, in the chat's language, and changes nothing.
func TestGoneButton(t *testing.T) {
	r, _ := portRouter(t)
	ctx := context.Background()
	for lang, want := range map[string]string{
		"el": "Αυτό το κουμπί δεν λειτουργεί πια. Γράψε ξανά την εντολή.",
		"es": "Este botón ya no funciona. Escribe la orden de nuevo.",
		"en": "This button no longer works. Type the command again.",
	} {
		m := core.Message{Chat: core.ChatRef{Platform: "test", ID: "gone-" + lang}, From: core.User{ID: "u1"}, LangHint: lang}
		rep, ok := r.Press(ctx, m, reply.Action{Kind: reply.ActGone})
		if !ok || reply.PlainText(rep) != want || rep.Lang != lang || rep.Error {
			t.Errorf("a gone button in %s: %v %+v, want the notice %q", lang, ok, rep, want)
		}
	}
}
