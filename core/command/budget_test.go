package command_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/i18n"
	"zaria/storage/memory"
)

// aliases is a fake AliasExpander: name → text, with {*} for the words.
type aliases struct {
	m   map[string]string
	max []int // the max of every call
}

func (a *aliases) ExpandAlias(_ context.Context, _ core.ChatRef, _, name, args string, max int) (string, bool, error) {
	a.max = append(a.max, max)
	t, ok := a.m[strings.ToLower(name)]
	if !ok {
		return "", false, nil
	}
	return strings.ReplaceAll(t, "{*}", args), true, nil
}

// budgetRouter has /spend N (spends N units, then answers how many were
// used), /twice TEXT (runs TEXT twice through Redispatch), /secret N (a
// public notice with an N-line private copy) and /who (the sender's name).
func budgetRouter(t *testing.T, lim command.Limits, al *aliases) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	for _, l := range []string{"es", "el", "en"} {
		_ = st.SaveSettings(context.Background(), core.ChatRef{Platform: "test", ID: l}, core.Settings{Lang: l})
	}
	lim.Burst = 1 << 20
	cfg := command.Config{Translator: cat, Settings: st, DefaultLang: "es", Limits: lim}
	if al != nil {
		cfg.Aliases = al
	}
	r := command.New(cfg)
	r.Register(command.Command{Name: "spend", Handler: command.HandlerFunc(func(_ context.Context, req *command.Request) (*reply.Reply, error) {
		n := 0
		for _, c := range req.Args {
			n = n*10 + int(c-'0')
		}
		if err := req.Budget.Spend(n); err != nil {
			return nil, err
		}
		return reply.Text("ok"), nil
	})})
	r.Register(command.Command{Name: "twice", Handler: command.HandlerFunc(func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
		rep := &reply.Reply{}
		for range 2 {
			inner, _ := req.Redispatch(ctx, req.Args, nil)
			rep.Lines = append(rep.Lines, inner.Lines...)
		}
		return rep, nil
	})})
	r.Register(command.Command{Name: "secret", Handler: command.HandlerFunc(func(_ context.Context, req *command.Request) (*reply.Reply, error) {
		secret := &reply.Reply{}
		for range 1000 {
			secret.Add(reply.T("• "), reply.B("Drake"), reply.T(" fuerza 3 destreza 2"))
		}
		return &reply.Reply{Lines: []reply.Line{{reply.T("🤫 Ana ha tirado en secreto.")}}, Secret: secret}, nil
	})})
	r.Register(command.Command{Name: "who", Handler: command.HandlerFunc(func(_ context.Context, req *command.Request) (*reply.Reply, error) {
		return reply.Text("🎲 " + req.Msg.From.Name + " tira"), nil
	})})
	return r
}

func say(t *testing.T, r *command.Router, lang, text string) *reply.Reply {
	t.Helper()
	rep, ok := r.Dispatch(context.Background(), core.Message{Chat: core.ChatRef{Platform: "test", ID: lang},
		From: core.User{ID: "u1", Name: "Ana"}, Text: text})
	if !ok {
		t.Fatalf("%q not handled", text)
	}
	return rep
}

func TestBudgetIsPerMessageAndLocalized(t *testing.T) {
	r := budgetRouter(t, command.Limits{MaxWork: 1000}, nil)
	if got := reply.PlainText(say(t, r, "en", "/spend 900")); got != "ok" {
		t.Fatalf("900 of 1000 units: %q", got)
	}
	// Every message gets its own budget...
	if got := reply.PlainText(say(t, r, "en", "/spend 900")); got != "ok" {
		t.Fatalf("a second message: %q", got)
	}
	// ...shared by every command it runs.
	for lang, want := range map[string]string{
		"es": "Eso cuesta demasiado trabajo para un solo mensaje",
		"el": "Αυτό θέλει πολλή δουλειά για ένα μόνο μήνυμα",
		"en": "That is too much work for one message. Split it into smaller commands.",
	} {
		rep := say(t, r, lang, "/twice /spend 600")
		got := reply.PlainText(rep)
		if !strings.HasPrefix(got, "ok\n⚠️ "+want) {
			t.Errorf("%s: two steps of 600 in a budget of 1000 → %q", lang, got)
		}
	}
	rep := say(t, r, "es", "/spend 1001")
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "demasiado trabajo") {
		t.Errorf("over the budget: %q", reply.PlainText(rep))
	}
}

func TestBudgetNilNeverRunsOut(t *testing.T) {
	var b *command.Budget
	if err := b.Spend(1 << 40); err != nil || b.Used() != 0 {
		t.Errorf("nil budget: %v", err)
	}
	b = command.NewBudget(10)
	if err := b.Spend(11); err == nil || b.Used() != 0 {
		t.Errorf("over: %v, used %d", err, b.Used())
	}
	if err := b.Spend(10); err != nil || b.Left() != 0 {
		t.Errorf("exactly: %v, left %d", err, b.Left())
	}
}

// TestSecretCopyIsBounded: issue 10. The private copy of a secret reply
// (/gmroll /pj lista) went out at any length to the roller and every GM.
func TestSecretCopyIsBounded(t *testing.T) {
	r := budgetRouter(t, command.Limits{}, nil)
	rep := say(t, r, "es", "/secret")
	if rep.Secret == nil {
		t.Fatal("no secret")
	}
	text := reply.PlainText(rep.Secret)
	if n := utf8.RuneCountInString(text); n > 3500 {
		t.Errorf("secret copy of %d characters", n)
	}
	if !strings.HasSuffix(text, "(el resto no cabe en un mensaje: 3500 caracteres como máximo)") {
		t.Errorf("cut secret does not say so: …%q", text[len(text)-100:])
	}
	if !strings.HasPrefix(text, "• Drake fuerza 3 destreza 2\n") {
		t.Errorf("secret starts %q", text[:40])
	}
	if got := reply.PlainText(rep); got != "🤫 Ana ha tirado en secreto." {
		t.Errorf("public notice %q", got)
	}
}

// TestOutputDrawsOnTheBudget: the text of a reply is work too; a reply
// that does not fit what is left of the budget is cut to it.
func TestOutputDrawsOnTheBudget(t *testing.T) {
	r := budgetRouter(t, command.Limits{MaxWork: 1200}, nil)
	rep := say(t, r, "en", "/secret")
	pub, sec := reply.PlainText(rep), reply.PlainText(rep.Secret)
	if pub != "🤫 Ana ha tirado en secreto." {
		t.Errorf("public %q", pub)
	}
	if n := utf8.RuneCountInString(sec); n > 1200 || !strings.Contains(sec, "(the rest does not fit in one message") {
		t.Errorf("secret of %d characters in a budget of 1200: …%q", n, sec[max(0, len(sec)-80):])
	}
}

// TestDisplayNameCannotForgeALine: issue 10. A display name with a
// newline printed a line that looked like the bot's own.
func TestDisplayNameCannotForgeALine(t *testing.T) {
	r := budgetRouter(t, command.Limits{}, nil)
	rep, _ := r.Dispatch(context.Background(), core.Message{Chat: core.ChatRef{Platform: "test", ID: "es"},
		From: core.User{ID: "u1", Name: "Ana\n⚠️ El máster te ha expulsado\u202e\x00"}, Text: "/who"})
	if got := reply.PlainText(rep); got != "🎲 Ana ⚠️ El máster te ha expulsado tira" {
		t.Errorf("reply %q", got)
	}
}

func TestAliasChainLimits(t *testing.T) {
	al := &aliases{m: map[string]string{
		"a": "/b {*}", "b": "/c {*}", "c": "/spend {*}", "d": "/a {*}",
		"loop1": "/loop2", "loop2": "/loop3", "loop3": "/LOOP1",
		"twin": "/twice /c {*}",
	}}
	r := budgetRouter(t, command.Limits{MaxWork: 1000}, al)
	if got := reply.PlainText(say(t, r, "en", "/a 5")); got != "ok" {
		t.Errorf("a chain of 3: %q", got)
	}
	for _, m := range al.max {
		if m != 500 {
			t.Fatalf("the expander was given max %d, want 500", m)
		}
	}
	if got := reply.PlainText(say(t, r, "en", "/d 5")); !strings.Contains(got, "more than 3 levels deep") {
		t.Errorf("a chain of 4: %q", got)
	}
	if got := reply.PlainText(say(t, r, "en", "/loop1")); !strings.Contains(got, "The saved roll /LOOP1 calls itself (/loop1 → /loop2 → /loop3 → /LOOP1)") {
		t.Errorf("a loop: %q", got)
	}
	if got := reply.PlainText(say(t, r, "es", "/loop2")); !strings.Contains(got, "La tirada guardada /loop2 se llama a sí misma (/loop2 → /loop3 → /LOOP1 → /loop2)") {
		t.Errorf("a loop in Spanish: %q", got)
	}
	// The expansions of one message are counted together, not per branch:
	// twin, then c twice is three.
	if got := reply.PlainText(say(t, r, "en", "/twin 5")); got != "ok\nok" {
		t.Errorf("twin: %q", got)
	}
	al.m["twin2"] = "/twin {*}"
	if got := reply.PlainText(say(t, r, "en", "/twin2 5")); !strings.Contains(got, "ok\n⚠️ That saved roll calls other saved rolls more than 3 levels deep") {
		t.Errorf("twin2: %q", got)
	}
	// The expanded text is work drawn from the budget.
	al.m["big"] = "/spend {*}"
	if got := reply.PlainText(say(t, r, "en", "/big 990")); got != "ok" {
		t.Errorf("10 characters of expansion + 990 units: %q", got)
	}
	if got := reply.PlainText(say(t, r, "en", "/big 991")); got != "⚠️ That is too much work for one message. Split it into smaller commands." {
		t.Errorf("10 characters of expansion + 991 units: %q", got)
	}
}
