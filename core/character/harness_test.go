package character_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/character"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

// Compile-time checks: the SQLite store is what the commands need, and the
// Service is what the router needs.
var (
	_ character.Store       = (*sqlite.DB)(nil)
	_ command.GMStore       = (*sqlite.DB)(nil)
	_ command.Sheets        = (*character.Service)(nil)
	_ command.AliasExpander = (*character.Service)(nil)
	_ command.Observer      = (*character.Service)(nil)
)

var (
	chatA = core.ChatRef{Platform: "telegram", ID: "-100A"}
	chatB = core.ChatRef{Platform: "telegram", ID: "-100B"}
	chatC = core.ChatRef{Platform: "matrix", ID: "!c:example.org"}

	ana   = core.User{ID: "111", Name: "Ana"}
	bob   = core.User{ID: "222", Name: "Bob"}
	admin = core.User{ID: "999", Name: "Carla"}
)

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// harness is the real thing: the SQLite store in a temporary file, the real
// catalogs and router, the character service registered on it, plus one
// test roll command (/check) that reads a sheet through req.SheetInt.
type harness struct {
	t   testing.TB
	db  *sqlite.DB
	svc *character.Service
	r   *command.Router
	clk *clock
}

func newHarness(t testing.TB, lim character.Limits) *harness {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	svc := character.New(db, character.Options{Limits: lim, Now: clk.Now})
	r := command.New(command.Config{
		DefaultLang: "en",
		Translator:  cat,
		Settings:    db,
		GMs:         db,
		Aliases:     svc,
		Sheets:      svc,
		Observers:   []command.Observer{svc},
		Limits:      command.Limits{Burst: 1_000_000},
	})
	character.Register(r, svc)
	r.Register(command.Command{Name: "check", Handler: command.HandlerFunc(checkCmd), Roll: true})
	return &harness{t: t, db: db, svc: svc, r: r, clk: clk}
}

// with returns the harness reporting to t (for subtests).
func (h *harness) with(t *testing.T) *harness {
	c := *h
	c.t = t
	return &c
}

// checkCmd is "/check [@Who] NAME": 1d20 + a sheet value. It stands for
// any system's roll that reads a sheet.
func checkCmd(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	f := strings.Fields(req.Args)
	who := ""
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		who, f = f[0], f[1:]
	}
	if len(f) != 1 {
		return nil, command.Errorf("character.usage")
	}
	v, err := req.SheetInt(ctx, who, f[0])
	if err != nil {
		return nil, err
	}
	d := req.Rand.IntN(20) + 1
	total := d + v
	rep := reply.Text(fmt.Sprintf("d20 %d + %s %d = %d", d, f[0], v, total))
	rep.Check = &reply.Check{System: "check", Dice: []int{d}, Sides: []int{20}, Total: &total}
	return rep, nil
}

// send runs text from user in chat (gm: the platform says the user is an
// admin) with the given die faces, and returns the rendered reply.
func (h *harness) send(chat core.ChatRef, user core.User, gm bool, text string, faces ...int) (string, *reply.Reply) {
	h.t.Helper()
	var src dice.Source = dice.Seeded(7)
	if len(faces) > 0 {
		src = dice.NewScripted(faces)
	}
	rep, ok := h.r.DispatchWith(context.Background(), core.Message{Chat: chat, From: user, Text: text, FromGM: gm}, src)
	if !ok {
		h.t.Fatalf("%q: not a command", text)
	}
	return reply.PlainText(rep), rep
}

// ok sends and fails the test on an error reply.
func (h *harness) ok(chat core.ChatRef, user core.User, gm bool, text string, faces ...int) string {
	h.t.Helper()
	out, rep := h.send(chat, user, gm, text, faces...)
	if rep.Error {
		h.t.Fatalf("%s: %q: unexpected error reply: %s", user.Name, text, out)
	}
	if catalogKey.MatchString(out) {
		h.t.Fatalf("%q: missing message key: %s", text, out)
	}
	return out
}

// fails sends, expects an error reply containing every want, and returns it.
func (h *harness) fails(chat core.ChatRef, user core.User, gm bool, text string, want ...string) string {
	h.t.Helper()
	out, rep := h.send(chat, user, gm, text)
	if !rep.Error {
		h.t.Fatalf("%s: %q: want an error reply, got: %s", user.Name, text, out)
	}
	if strings.Contains(out, "went wrong") || catalogKey.MatchString(out) {
		h.t.Fatalf("%q: internal error or missing message key: %s", text, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			h.t.Fatalf("%q: reply %q lacks %q", text, out, w)
		}
	}
	return out
}

// catalogKey matches a message key shown instead of its text.
var catalogKey = regexp.MustCompile(`\b(error|character|gm|alias|import|export|history|stats)\.[a-z]`)

func contains(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Fatalf("reply %q lacks %q", out, w)
		}
	}
}

func lacks(t *testing.T, out string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(out, b) {
			t.Fatalf("reply %q should not contain %q", out, b)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
