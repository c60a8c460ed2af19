package general_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

func newRouter(t *testing.T) (*command.Router, *memory.Store) {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	r := command.New(command.Config{Translator: cat, Settings: st, DefaultLang: "es", Unlimited: []string{"test"}})
	general.Register(r, "1.2.3")
	systems.Register(r)
	return r, st
}

type chat struct {
	t  *testing.T
	r  *command.Router
	gm bool
	id string
}

func (c chat) say(text string) *reply.Reply {
	c.t.Helper()
	rep, ok := c.r.DispatchWith(context.Background(), core.Message{
		Chat: core.ChatRef{Platform: "test", ID: c.id}, From: core.User{ID: "u1", Name: "Ana"},
		Text: text, FromGM: c.gm,
	}, dice.Seeded(1))
	if !ok {
		c.t.Fatalf("%q was not answered", text)
	}
	return rep
}

func (c chat) text(text string) string { c.t.Helper(); return reply.PlainText(c.say(text)) }

func TestHelpTeachesByExample(t *testing.T) {
	r, _ := newRouter(t)
	c := chat{t: t, r: r, id: "1"}
	list := c.say("/help")
	if got := reply.PlainText(list); !strings.Contains(got, "/zaria 4+2 dc15") || !strings.Contains(got, "/ayuda") {
		t.Errorf("/help lacks examples:\n%s", got)
	}
	// Examples are code spans, so a phone user can tap to copy them.
	if !strings.Contains(reply.HTML(list, "\n"), "<code>/zaria 4+2 dc15</code>") {
		t.Errorf("examples are not code:\n%s", reply.HTML(list, "\n"))
	}
	got := c.text("/ayuda ζαριά")
	if !strings.Contains(got, "/zaria") || !strings.Contains(got, "npc 6 dc12") || !strings.Contains(got, "!ζαριά") {
		t.Errorf("/ayuda ζαριά:\n%s", got)
	}
	if rep := c.say("/help nada"); !rep.Error || !strings.Contains(reply.PlainText(rep), "«nada»") {
		t.Errorf("/help nada: %q", reply.PlainText(rep))
	}
}

func TestLang(t *testing.T) {
	r, st := newRouter(t)
	c := chat{t: t, r: r, id: "1"}
	for _, in := range []string{"/lang el", "!γλώσσα ελληνικά", "/idioma griego", "/lang GREEK"} {
		if got := c.text(in); !strings.Contains(got, "ελληνικά") {
			t.Errorf("%s → %q", in, got)
		}
		s, _ := st.Settings(context.Background(), core.ChatRef{Platform: "test", ID: "1"})
		if s.Lang != "el" {
			t.Errorf("%s stored %q", in, s.Lang)
		}
	}
	if got := c.text("/lang"); !strings.Contains(got, "ελληνικά") {
		t.Errorf("/lang → %q", got)
	}
	rep := c.say("/lang klingon")
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "/lang es") {
		t.Errorf("bad language: %q", reply.PlainText(rep))
	}
	s, _ := st.Settings(context.Background(), core.ChatRef{Platform: "test", ID: "1"})
	if s.Lang != "el" {
		t.Errorf("a bad /lang changed the language to %q", s.Lang)
	}
}

func TestSettings(t *testing.T) {
	r, st := newRouter(t)
	player := chat{t: t, r: r, id: "1"}
	gm := chat{t: t, r: r, id: "1", gm: true}
	list := player.text("/ajustes")
	if !strings.Contains(list, "media_baja") || !strings.Contains(list, "/ajustes zaria") {
		t.Errorf("/ajustes does not list the house rules with how to change them:\n%s", list)
	}
	if rep := player.say("/ajustes zaria media_alta"); !rep.Error || !strings.Contains(reply.PlainText(rep), "máster") {
		t.Errorf("a player changed a house rule: %q", reply.PlainText(rep))
	}
	if got := gm.text("/ajustes ZARIA Media_Alta"); !strings.Contains(got, "zaria = media_alta") {
		t.Errorf("GM set → %q", got)
	}
	s, _ := st.Settings(context.Background(), core.ChatRef{Platform: "test", ID: "1"})
	if s.Options["zaria"] != "media_alta" {
		t.Errorf("stored %v", s.Options)
	}
	rep := gm.say("/ajustes zaria alta")
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "media_baja | media_exacta | media_alta") {
		t.Errorf("bad value: %q", reply.PlainText(rep))
	}
	if rep := gm.say("/ajustes zarai media_alta"); !rep.Error || !strings.Contains(reply.PlainText(rep), "«zaria»") {
		t.Errorf("typo in key: %q", reply.PlainText(rep))
	}
	if got := gm.text("/ajustes prefijo ."); !strings.Contains(got, "prefix = .") {
		t.Errorf("prefix: %q", got)
	}
	// The new prefix works, and / still does.
	if got := gm.text(".ayuda"); !strings.Contains(got, "lo que sé hacer") {
		t.Errorf(".ayuda after setting the prefix: %q", got)
	}
	if rep := gm.say("/ajustes prefijo ab/c"); !rep.Error {
		t.Errorf("bad prefix accepted")
	}
	if got := player.text("/ajustes idioma en"); !strings.Contains(got, "English") {
		t.Errorf("language via /ajustes: %q", got)
	}
}

func TestGMRollIsSecret(t *testing.T) {
	r, _ := newRouter(t)
	c := chat{t: t, r: r, id: "1"}
	rep := c.say("/secreto zaria 4+2 dc15")
	if rep.Error || rep.Secret == nil {
		t.Fatalf("no secret part: %+v", rep)
	}
	public := reply.PlainText(rep)
	if !strings.Contains(public, "Ana ha tirado en secreto") || strings.Contains(public, "CD 15") {
		t.Errorf("public part %q", public)
	}
	secret := reply.PlainText(rep.Secret)
	if !strings.Contains(secret, "Tirada secreta de Ana") || !strings.Contains(secret, "15") || rep.Secret.Check == nil {
		t.Errorf("secret part %q", secret)
	}
	if len(rep.Buttons) > 0 && rep.Command != "/gmroll zaria 4+2 dc15" {
		t.Errorf("again would run %q", rep.Command)
	}
	if rep := c.say("/gmroll"); !rep.Error || !strings.Contains(reply.PlainText(rep), "/secreto 1d20+5") {
		t.Errorf("empty gmroll: %q", reply.PlainText(rep))
	}
	if rep := c.say("/gmroll gmroll zaria 4+2 dc15"); !rep.Error {
		t.Errorf("nested gmroll accepted: %q", reply.PlainText(rep))
	}
	// A user error inside stays visible to the roller, not secret.
	if rep := c.say("/gmroll zaria 4+2 dc99"); !rep.Error || rep.Secret != nil {
		t.Errorf("error inside gmroll: %+v", rep)
	}
}

func TestStartAndVersion(t *testing.T) {
	r, _ := newRouter(t)
	c := chat{t: t, r: r, id: "1"}
	if got := c.text("/start"); !strings.Contains(got, "¡Hola, Ana!") || !strings.Contains(got, "/roll 4d6kh3+2") {
		t.Errorf("/start: %q", got)
	}
	if got := c.text("/version"); got != "zaria 1.2.3" {
		t.Errorf("/version: %q", got)
	}
}

func TestGMRollNamesTheNamedGMs(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), Unlimited: []string{"test"},
		NamedGMs: func(_ context.Context, chat core.ChatRef) ([]string, error) {
			if chat.ID == "1" {
				return []string{"u7", "u8"}, nil
			}
			return nil, nil
		}})
	general.Register(r, "test")
	systems.Register(r)
	rep := chat{t: t, r: r, id: "1"}.say("/gmroll zaria 4+2 dc15")
	if strings.Join(rep.SecretTo, ",") != "u7,u8" {
		t.Errorf("SecretTo = %v", rep.SecretTo)
	}
	if rep := (chat{t: t, r: r, id: "2"}).say("/gmroll zaria 4+2 dc15"); len(rep.SecretTo) != 0 {
		t.Errorf("another chat's GMs: %v", rep.SecretTo)
	}
}
