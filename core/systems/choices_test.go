package systems_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

// choicesBot is a router with the systems and /probe TEXT, which answers
// the choices a pad button would offer for the word "{x}" of TEXT: one
// line "value\tlabel" each, or "none".
func choicesBot(t *testing.T) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	r := command.New(command.Config{Translator: cat, Settings: st, Limits: command.Limits{Burst: 1 << 30}})
	systems.Register(r)
	general.Register(r, general.Options{Version: "test"})
	r.Register(command.Command{Name: "probe", Handler: command.HandlerFunc(func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
		l, err := req.ChoicesFor(ctx, req.Args, "{x}")
		if err != nil || l == nil {
			return reply.Text("none"), err
		}
		rep := &reply.Reply{}
		rep.Add(reply.T(l.Kind))
		for _, c := range l.Choices {
			rep.Add(reply.T(c.Value + "\t" + c.Label + "\t" + c.Group))
		}
		return rep, nil
	})})
	return r
}

func say(t *testing.T, r *command.Router, lang, text string) *reply.Reply {
	t.Helper()
	msg := core.Message{Chat: core.ChatRef{Platform: "console", ID: "choices-" + lang}, From: core.User{ID: "u1", Name: "Ana"}, Text: text, FromGM: true}
	if _, ok := r.Dispatch(context.Background(), core.Message{Chat: msg.Chat, From: msg.From, FromGM: true, Text: "/lang " + lang}); !ok {
		t.Fatal("/lang")
	}
	rep, ok := r.Dispatch(context.Background(), msg)
	if !ok {
		t.Fatalf("%q not answered", text)
	}
	return rep
}

// Every value a system offers for a place runs in that place, in each
// language, with a label in that language; places without a list offer
// none.
func TestChoicesRunInTheirPlace(t *testing.T) {
	r := choicesBot(t)
	for _, c := range []struct {
		text, kind string
		n          int
		es, el, en string // one label in each language
	}{
		{"/zaria 4+2 {x}", "difficulty", 6, "media (CD 15)", "Μέτριο (DC 15)", "medium (DC 15)"},
		{"/zaria npc 6 {x}", "difficulty", 6, "dura (CD 20)", "Ζόρικο (DC 20)", "tough (DC 20)"},
		{"/daegon 7 {x}", "difficulty", 7, "difícil (D3)", "δύσκολο (D3)", "hard (D3)"},
		{"/daegon @Drake 7 {x}", "difficulty", 7, "media (D2)", "", ""},
		{"/rq 45 {x}", "difficulty", 12, "difícil (−90)", "", "hard (−90)"},
		{"/kh 5 {x}", "difficulty", 6, "difícil (12)", "", "hard (12)"},
		{"/dh ataque espada-larga vs {x}", "armour", 13, "coraza", "θώρακας", "breastplate"},
		{"/dh ataque {x} vs coraza", "weapon", 46, "espada larga", "μακρύ σπαθί", "longsword"},
		{"/dh repara {x} 1", "armour", 13, "cota de mallas", "", ""},
		{"/gmroll /daegon 7 {x}", "difficulty", 7, "fácil (D1)", "", ""},
		// The file systems: an input's named values (filesys.go).
		{"/coc 65 {x}", "difficulty", 3, "difícil", "δύσκολο", "hard"},
		{"/fate +3 vs {x}", "difficulty", 11, "Bueno (+3)", "Καλό (+3)", "Good (+3)"},
		{"/sw {x} +1", "difficulty", 5, "d8", "δ8", "d8"},
	} {
		for _, lang := range core.Langs() {
			want := map[string]string{"es": c.es, "el": c.el, "en": c.en}[lang]
			lines := strings.Split(reply.PlainText(say(t, r, lang, "/probe "+c.text)), "\n")
			if lines[0] != c.kind || len(lines)-1 != c.n {
				t.Errorf("%s %s: %s and %d choices, want %s and %d:\n%s", lang, c.text, lines[0], len(lines)-1, c.kind, c.n, strings.Join(lines, "\n"))
				continue
			}
			found := want == ""
			for _, l := range lines[1:] {
				f := strings.Split(l, "\t")
				value, label := f[0], f[1]
				found = found || label == want
				if label == "" || strings.Contains(label, ".") && !strings.Contains(label, "(") || (c.kind == "weapon") != (f[2] != "") {
					t.Errorf("%s %s: choice %q", lang, c.text, l)
				}
				run := strings.Replace(c.text, "{x}", value, 1)
				if rep := say(t, r, lang, run); rep.Error {
					t.Errorf("%s: %q: %s", lang, run, reply.PlainText(rep))
				}
			}
			if !found {
				t.Errorf("%s %s: no choice labelled %q:\n%s", lang, c.text, want, strings.Join(lines, "\n"))
			}
		}
	}
	for _, text := range []string{
		"/zaria {x} dc15", "/zaria 4+{x} dc15", "/zaria 4+2 vs {x}", "/daegon {x}", "/daegon 7 vs {x}",
		"/rq {x} normal", "/rq 45 vs {x}", "/kh {x} dc12", "/dh uso {x}", "/dh ataque", "/roll d20+{x}", "/daegon 7 d3",
		"/coc {x}", "/fate {x}", "/sw d8 {x}", "/v5 {x}", "/pbta {x}", "/wfrp 45 {x}",
	} {
		if got := reply.PlainText(say(t, r, "es", "/probe "+text)); got != "none" {
			t.Errorf("%s offers choices:\n%s", text, got)
		}
	}
}
