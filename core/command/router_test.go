package command_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/i18n"
	"zaria/storage/memory"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newRouter(t testing.TB) (*command.Router, *memory.Store, *clock) {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	r := command.New(command.Config{Translator: cat, Settings: st, DefaultLang: "es", Now: clk.now})
	r.Register(command.Command{Name: "roll", Aliases: []string{"r", "tirar", "ρίξε"}, Roll: true,
		Handler: command.HandlerFunc(func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			if req.Args == "boom" {
				panic("boom")
			}
			if req.Args == "bad" {
				return nil, command.Errorf("lang.invalid", "value", "bad")
			}
			if req.Args == "long" {
				rep := &reply.Reply{}
				for i := 0; i < 200; i++ {
					rep.Add(reply.T(strings.Repeat("x", 40)))
				}
				return rep, nil
			}
			if req.Args == "die" {
				return reply.Text(string(rune('0' + 1 + req.Rand.IntN(6)))), nil
			}
			return reply.Text(req.Name + ":" + req.Args + ":" + req.Lang), nil
		})})
	return r, st, clk
}

func msg(text string) core.Message {
	return core.Message{Chat: core.ChatRef{Platform: "test", ID: "1"}, From: core.User{ID: "u1", Name: "Ana"}, Text: text, BotName: "ZariaBot"}
}

func dispatch(t *testing.T, r *command.Router, m core.Message) (string, bool) {
	t.Helper()
	rep, ok := r.Dispatch(context.Background(), m)
	if !ok {
		return "", false
	}
	return reply.PlainText(rep), true
}

func TestPrefixesAndAliases(t *testing.T) {
	r, _, _ := newRouter(t)
	cases := []struct {
		text, want string
		ok         bool
	}{
		{"/roll 2d6", "roll:2d6:es", true},
		{"/r 2d6", "roll:2d6:es", true},
		{"!roll 2d6", "roll:2d6:es", true},
		{"/TIRAR 1d4", "roll:1d4:es", true},
		{"!ρίξε 2δ6", "roll:2δ6:es", true},
		{"!ΡΙΞΕ 2δ6", "roll:2δ6:es", true},
		{"!ριξε 2δ6", "roll:2δ6:es", true},
		{"/roll@ZariaBot 1d20", "roll:1d20:es", true},
		{"/roll@zariabot 1d20", "roll:1d20:es", true},
		{"/roll@OtherBot 1d20", "", false},
		{"  /roll   3d6  ", "roll:3d6:es", true},
		{"hola a todos", "", false},
		{"/", "", false},
		{"", "", false},
		{"!!", "", false},
		{"!?", "", false},
		{"/3d6", "", false},
		// A no-break space (macOS, iOS, French keyboards) ends the command
		// word like a space; invisible characters in it or before it are
		// not part of it ("I don't know /roll. Did you mean /roll?").
		{"/roll\u00a02d6", "roll:2d6:es", true},
		{"/roll\u200b 2d6", "roll:2d6:es", true},
		{"/ro\u00adll 2d6", "roll:2d6:es", true},
		{"\u200e/roll 2d6", "roll:2d6:es", true},
		{"\ufeff/roll\ufeff 2d6", "roll:2d6:es", true},
		{"/\u200b", "", false},
	}
	for i, c := range cases {
		m := msg(c.text)
		m.From.ID = fmt.Sprint("user", i) // stay under the per-user rate limit
		got, ok := dispatch(t, r, m)
		if ok != c.ok || got != c.want {
			t.Errorf("%q → %q, %v; want %q, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

func TestUnknownCommandHint(t *testing.T) {
	r, _, _ := newRouter(t)
	got, ok := dispatch(t, r, msg("/rol 2d6"))
	if !ok || !strings.Contains(got, "¿Quisiste decir /roll?") {
		t.Errorf("typo gives %q", got)
	}
	got, _ = dispatch(t, r, msg("/xyzzy"))
	if !strings.Contains(got, "No conozco /xyzzy") || !strings.Contains(got, "/ayuda") {
		t.Errorf("unknown gives %q", got)
	}
	if _, ok := dispatch(t, r, msg("/xyzzy@OtherBot")); ok {
		t.Error("a command for another bot was answered")
	}
	// With no bot name known (Matrix, console), any @target is someone else.
	anon := msg("/roll@OtherBot 1d6")
	anon.BotName = ""
	if _, ok := dispatch(t, r, anon); ok {
		t.Error("/roll@OtherBot was answered by a bot with no name")
	}
	// The hint repeats what was typed, prefix included, and does not
	// suggest a command for a word too short to be a typo.
	if got, _ := dispatch(t, r, msg("!φου")); !strings.Contains(got, "No conozco !φου.") {
		t.Errorf("!φου gives %q", got)
	}
	if got, _ := dispatch(t, r, msg("/a")); strings.Contains(got, "Quisiste") {
		t.Errorf("/a gives a suggestion: %q", got)
	}
	if got, _ := dispatch(t, r, msg("!tirr 1d6")); !strings.Contains(got, "¿Quisiste decir !tirar?") {
		t.Errorf("!tirr gives %q", got)
	}
}

func TestLanguageResolution(t *testing.T) {
	r, st, _ := newRouter(t)
	m := msg("/r 1")
	m.LangHint = "el-GR"
	if got, _ := dispatch(t, r, m); got != "roll:1:el" {
		t.Errorf("Greek client in a new chat → %q", got)
	}
	// The first user's language sticks to the chat.
	m.LangHint = "en"
	m.From.ID = "u2"
	if got, _ := dispatch(t, r, m); got != "roll:1:el" {
		t.Errorf("second user changed the chat language: %q", got)
	}
	s, _ := st.Settings(context.Background(), m.Chat)
	if s.Lang != "el" {
		t.Errorf("stored language %q", s.Lang)
	}
	// Issue 12: an English client in a new chat gets English (it used to
	// get the default), and any other client the configured default.
	for _, c := range []struct{ chat, hint, want string }{
		{"2", "en", "roll:1:en"},
		{"3", "en-GB", "roll:1:en"},
		{"4", "es-AR", "roll:1:es"},
		{"5", "pt-br", "roll:1:es"}, // the router's DefaultLang is es
		{"6", "", "roll:1:es"},
	} {
		m2 := msg("/r 1")
		m2.Chat.ID = c.chat
		m2.LangHint = c.hint
		if got, _ := dispatch(t, r, m2); got != c.want {
			t.Errorf("client %q in a new chat → %q, want %q", c.hint, got, c.want)
		}
	}
	// With no default configured the fallback is English.
	cat, _ := i18n.Load()
	r2 := command.New(command.Config{Translator: cat, Settings: memory.New()})
	r2.Register(command.Command{Name: "roll", Handler: command.HandlerFunc(func(_ context.Context, req *command.Request) (*reply.Reply, error) {
		return reply.Text(req.Lang), nil
	})})
	m3 := msg("/roll")
	m3.LangHint = "pt-br"
	if got, _ := dispatch(t, r2, m3); got != "en" {
		t.Errorf("pt-br client with no default → %q, want en", got)
	}
}

func TestInputLimit(t *testing.T) {
	r, _, _ := newRouter(t)
	long := "/roll " + strings.Repeat("1+", 300) + "1"
	for _, l := range []string{"es", "el", "en"} {
		m := msg(long)
		m.Chat.ID = "lim-" + l
		st := r.SettingsStore()
		_ = st.SetLang(context.Background(), m.Chat, l)
		rep, ok := r.Dispatch(context.Background(), m)
		if !ok || !rep.Error {
			t.Fatalf("%s: long input not refused", l)
		}
		text := reply.PlainText(rep)
		if !strings.Contains(text, "500") || !strings.Contains(text, "607") {
			t.Errorf("%s: %q does not name the limit and the length", l, text)
		}
	}
}

func TestOutputLimit(t *testing.T) {
	r, _, _ := newRouter(t)
	rep, _ := r.Dispatch(context.Background(), msg("/roll long"))
	text := reply.PlainText(rep)
	if n := len([]rune(text)); n > 3500 {
		t.Errorf("reply is %d characters", n)
	}
	if !strings.Contains(text, "3500") {
		t.Errorf("truncated reply does not say so: ...%q", text[len(text)-80:])
	}
}

func TestRateLimit(t *testing.T) {
	r, _, clk := newRouter(t)
	for i := 0; i < 5; i++ {
		if got, _ := dispatch(t, r, msg("/r 1")); got != "roll:1:es" {
			t.Fatalf("command %d refused: %q", i+1, got)
		}
	}
	got, ok := dispatch(t, r, msg("/r 1"))
	if !ok || !strings.Contains(got, "Con calma") {
		t.Errorf("6th command → %q, %v", got, ok)
	}
	if _, ok := dispatch(t, r, msg("/r 1")); ok {
		t.Error("7th command got a second warning")
	}
	other := msg("/r 1")
	other.From.ID = "u2"
	if got, _ := dispatch(t, r, other); got != "roll:1:es" {
		t.Errorf("another user was limited: %q", got)
	}
	clk.t = clk.t.Add(2 * time.Second)
	if got, _ := dispatch(t, r, msg("/r 1")); got != "roll:1:es" {
		t.Errorf("after 2 s → %q", got)
	}
}

// Commands typed at their own pace while the bot was away, answered
// together when it is back, are not a flood: the limit counts when the
// platform says each was sent. A burst is still a burst, and a time in the
// future or more than a day old counts as now.
func TestRateLimitCountsWhenSent(t *testing.T) {
	r, _, clk := newRouter(t)
	away := clk.t.Add(-10 * time.Minute)
	for i := 0; i < 12; i++ {
		m := msg("/r 1")
		m.Sent = away.Add(time.Duration(i) * 3 * time.Second)
		if got, _ := dispatch(t, r, m); got != "roll:1:es" {
			t.Fatalf("backlog command %d (sent 3 s apart) refused: %q", i+1, got)
		}
	}
	burst := func(user string, sent time.Time) int {
		n := 0
		for i := 0; i < 8; i++ {
			m := msg("/r 1")
			m.From.ID, m.Sent = user, sent
			if got, _ := dispatch(t, r, m); got == "roll:1:es" {
				n++
			}
		}
		return n
	}
	if n := burst("u2", away); n != 5 {
		t.Errorf("a burst of 8 sent in the same second while away: %d answered, want 5", n)
	}
	if n := burst("u3", clk.t.Add(time.Hour)); n != 5 {
		t.Errorf("a burst sent \"in the future\": %d answered, want 5", n)
	}
	if n := burst("u4", clk.t.Add(-48*time.Hour)); n != 5 {
		t.Errorf("a burst sent two days ago: %d answered, want 5", n)
	}
}

func TestHandlerErrors(t *testing.T) {
	r, _, _ := newRouter(t)
	rep, _ := r.Dispatch(context.Background(), msg("/roll boom"))
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "Algo falló") {
		t.Errorf("panic → %q", reply.PlainText(rep))
	}
	rep, _ = r.Dispatch(context.Background(), msg("/roll bad"))
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "No hablo «bad»") {
		t.Errorf("user error → %q", reply.PlainText(rep))
	}
}

func TestScriptedDice(t *testing.T) {
	r, _, _ := newRouter(t)
	rep, _ := r.DispatchWith(context.Background(), msg("/roll die"), dice.NewScripted([]int{4}))
	if got := reply.PlainText(rep); got != "4" {
		t.Errorf("scripted 4 → %q", got)
	}
	rep, _ = r.DispatchWith(context.Background(), msg("/roll die"), dice.NewScripted(nil))
	if !rep.Error {
		t.Errorf("missing scripted die → %q, want an error", reply.PlainText(rep))
	}
	rep, _ = r.DispatchWith(context.Background(), msg("/roll die"), dice.NewScripted([]int{7}))
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "d6") {
		t.Errorf("out-of-range scripted die → %q", reply.PlainText(rep))
	}
}

func TestRollCommandIsRemembered(t *testing.T) {
	r, _, _ := newRouter(t)
	// As typed, in the chat's words (issue 36): the history and the
	// again button show what the player wrote.
	rep, _ := r.Dispatch(context.Background(), msg("!tirar 2d6+1"))
	if rep.Command != "/tirar 2d6+1" {
		t.Errorf("Command = %q", rep.Command)
	}
}

func TestDuplicateAliasPanics(t *testing.T) {
	r, _, _ := newRouter(t)
	defer func() {
		if recover() == nil {
			t.Error("registering /tírar twice did not panic")
		}
	}()
	r.Register(command.Command{Name: "other", Aliases: []string{"tírar"}, Handler: command.HandlerFunc(nil)})
}

func TestPercent(t *testing.T) {
	cases := []struct {
		lang     string
		num, den int64
		want     string
	}{
		{"es", 3, 8, "37,5 %"}, {"el", 3, 8, "37,5 %"}, {"en", 3, 8, "37.5%"},
		{"es", 1, 1, "100 %"}, {"en", 0, 1, "0%"}, {"es", 1, 3, "33,33 %"},
		{"en", 1, 1000000, "<0.01%"}, {"es", 999999, 1000000, ">99,99 %"},
	}
	for _, c := range cases {
		if got := command.Percent(c.lang, bigRat(c.num, c.den)); got != c.want {
			t.Errorf("Percent(%s, %d/%d) = %q, want %q", c.lang, c.num, c.den, got, c.want)
		}
	}
}

// A chat's own prefix is a non-letter (/ajustes prefijo and /importar
// refuse others). One stored by an older version that allowed it ("d") is
// ignored, so that "dime algo" is chat again, not "No conozco dime".
func TestInvalidStoredPrefixIsIgnored(t *testing.T) {
	for _, c := range []struct {
		prefix, text string
		ok           bool
	}{
		{".", ".roll 2d6", true},
		{"d", "dime algo", false},
		{"d", "d6", false},
		{"3", "3 goblins", false},
		{"\u200b", "\u200broll 1d6", false},
		{"d", "/roll 2d6", true},
	} {
		if _, ok := command.Parse(c.text, c.prefix, ""); ok != c.ok {
			t.Errorf("prefix %q: Parse(%q) ok = %v, want %v", c.prefix, c.text, ok, c.ok)
		}
		if got := command.ValidPrefix(c.prefix); got == (c.prefix == "d" || c.prefix == "3" || c.prefix == "\u200b") {
			t.Errorf("ValidPrefix(%q) = %v", c.prefix, got)
		}
	}
}

// TestRateLimitNeverRefillsFromThePast: a message sent before the latest
// one counted (a backlog answered after a live message) counts at the
// latest time: it may use a token left, but the bucket does not start
// again from its earlier time, which would refill it for the minutes in
// between.
func TestRateLimitNeverRefillsFromThePast(t *testing.T) {
	r, _, clk := newRouter(t)
	send := func(sent time.Time) bool {
		m := msg("/r 1")
		m.Sent = sent
		got, _ := dispatch(t, r, m)
		return got == "roll:1:es"
	}
	now := clk.t
	for i := 0; i < 4; i++ {
		if !send(now) {
			t.Fatalf("command %d of the burst refused", i+1)
		}
	}
	if !send(now.Add(-time.Minute)) {
		t.Fatal("the fifth command of the burst, sent a minute earlier, refused")
	}
	if send(now) {
		t.Error("a sixth command at once answered: the earlier one refilled the bucket from its time")
	}
}
