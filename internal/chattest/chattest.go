// Package chattest assembles, for tests, what a chat keeps of its play:
// the services of character sheets (core/sheet), GMs (core/gm), the roll
// history (core/history), export and import (core/transfer) and saved
// rolls (core/alias) over one store with one set of quotas, registered on
// a router as cmd/zaria registers them. Harness runs that router over a
// real SQLite file with the real catalogs.
//
// For a package that wires its own router: OpenDB and Catalog are the
// real store and catalogs, Bot talks to the router as a chat's members
// (scripted or seeded dice), SourceKeys and Renders check that every
// message key the package's code names is in es, el and en and renders.
package chattest

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/alias"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/reply"
	"zaria/core/sheet"
	"zaria/core/systems/dungeonhack"
	"zaria/core/transfer"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

// Limits are the quotas of every service in one place; a zero field takes
// its package's default.
type Limits struct {
	CharactersPerUser int
	CharactersPerChat int
	ValuesPerSheet    int
	NameLen           int
	ValueLen          int
	AliasesPerUser    int
	AliasesPerChat    int
	AliasLen          int
	HistoryKeep       int
	HistoryShow       int
	HistoryShowMax    int
	ImportLen         int
	GMsPerChat        int
}

// Options configure Services.
type Options struct {
	Limits     Limits
	Logger     *slog.Logger
	Now        func() time.Time
	Validators map[string]func(req *command.Request, value string) error
	// SheetKeys are the keys a new sheet of a system starts with
	// (systems.SheetKeys); nil starts every sheet empty.
	SheetKeys sheet.SheetKeysFunc
}

// Store is everything the five services need; storage/sqlite implements
// it all.
type Store interface {
	sheet.Store
	gm.Store
	history.Store
	alias.Store
	transfer.Importer
	transfer.PadLister
	transfer.GMToolsLister
	transfer.SystemsLister
	transfer.InitiativeReader
	core.UndoStore
}

// Services are the five services over one store.
type Services struct {
	Sheets   *sheet.Service
	GMs      *gm.Service
	History  *history.Service
	Transfer *transfer.Service
	Aliases  *alias.Service
}

// NewServices builds the services over store.
func NewServices(store Store, o Options) Services {
	l := o.Limits
	sheets := sheet.New(store, sheet.Options{
		Limits: sheet.Limits{CharactersPerUser: l.CharactersPerUser, CharactersPerChat: l.CharactersPerChat,
			ValuesPerSheet: l.ValuesPerSheet, NameLen: l.NameLen, ValueLen: l.ValueLen},
		Now:        o.Now,
		Validators: o.Validators,
		Synonyms:   dungeonhack.SheetSynonyms(),
		Undo:       store,
		SheetKeys:  o.SheetKeys,
	})
	return Services{
		Sheets: sheets,
		GMs:    gm.New(store, store, gm.Options{Max: l.GMsPerChat, Now: o.Now}),
		History: history.New(store, history.Options{Logger: o.Logger, Now: o.Now,
			Limits: history.Limits{Keep: l.HistoryKeep, Show: l.HistoryShow, ShowMax: l.HistoryShowMax}}),
		Transfer: transfer.New(store, sheets, transfer.Options{DocumentBytes: l.ImportLen, Now: o.Now}),
		Aliases: alias.New(store, alias.Options{Now: o.Now,
			Limits: alias.Limits{PerUser: l.AliasesPerUser, PerChat: l.AliasesPerChat, Len: l.AliasLen, NameLen: l.NameLen}}),
	}
}

// Config sets c's Sheets and Aliases to the services and adds the history
// to its Observers.
func (s Services) Config(c command.Config) command.Config {
	c.Sheets, c.Aliases = s.Sheets, s.Aliases
	c.Observers = append([]command.Observer{s.History}, c.Observers...)
	return c
}

// Register adds their commands to r in /help's order.
func (s Services) Register(r *command.Router) {
	sheet.Register(r, s.Sheets)
	gm.Register(r, s.GMs)
	history.Register(r, s.History)
	transfer.Register(r, s.Transfer)
	alias.Register(r, s.Aliases)
}

// The chats and users of the tests.
var (
	ChatA = core.ChatRef{Platform: "telegram", ID: "-100A"}
	ChatB = core.ChatRef{Platform: "telegram", ID: "-100B"}
	ChatC = core.ChatRef{Platform: "matrix", ID: "!c:example.org"}

	Ana   = core.User{ID: "111", Name: "Ana"}
	Bob   = core.User{ID: "222", Name: "Bob"}
	Admin = core.User{ID: "999", Name: "Carla"}
)

// Clock is a time source one second later at each reading.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Advance moves the clock d forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// Harness is the real thing: the SQLite store in a temporary file, the
// real catalogs and router, the services registered on it, plus one test
// roll command (/check) that reads a sheet through req.SheetInt.
type Harness struct {
	T       testing.TB
	DB      *sqlite.DB
	Sheets  *sheet.Service
	History *history.Service
	R       *command.Router
	Clock   *Clock
}

// New builds a Harness with the quotas lim.
func New(t testing.TB, lim Limits) *Harness {
	t.Helper()
	db, cat := OpenDB(t, ""), Catalog(t)
	clk := &Clock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	svc := NewServices(db, Options{Limits: lim, Now: clk.Now})
	r := command.New(svc.Config(command.Config{
		DefaultLang: "en",
		Translator:  cat,
		Settings:    db,
		GMs:         db,
		Limits:      command.Limits{Burst: 1_000_000},
	}))
	svc.Register(r)
	r.Register(command.Command{Name: "check", Handler: command.HandlerFunc(checkCmd), Roll: true})
	return &Harness{T: t, DB: db, Sheets: svc.Sheets, History: svc.History, R: r, Clock: clk}
}

// OpenDB opens the SQLite database at path, or at a new file in a
// temporary folder when path is "", and closes it when the test ends.
func OpenDB(t testing.TB, path string) *sqlite.DB {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "zaria.db")
	}
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Catalog is the real catalogs (es, el, en).
func Catalog(t testing.TB) *i18n.Catalog {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// Bot talks to a router as the members of one chat, each message with the
// die faces given or, without them, seeded dice: for a package's tests over
// a router it wires itself.
type Bot struct {
	T    testing.TB
	R    *command.Router
	Chat core.ChatRef
	// GM is the member the platform says is an admin.
	GM core.User
	// Dice are a message's dice when it gives no faces (nil: dice.Seeded(7)).
	Dice func() dice.Source
	// Sent, when set, runs after each message (a test's clock moves on).
	Sent func()
}

// Say sends text as u with the die faces given and returns the reply.
func (b *Bot) Say(u core.User, text string, faces ...int) *reply.Reply {
	b.T.Helper()
	var src dice.Source
	switch {
	case len(faces) > 0:
		src = dice.NewScripted(faces)
	case b.Dice != nil:
		src = b.Dice()
	default:
		src = dice.Seeded(7)
	}
	rep, ok := b.R.DispatchWith(context.Background(), core.Message{Chat: b.Chat, From: u, FromGM: u == b.GM, Text: text}, src)
	if !ok {
		b.T.Fatalf("%q not answered", text)
	}
	if b.Sent != nil {
		b.Sent()
	}
	return rep
}

// OK is Say that fails the test on an error reply.
func (b *Bot) OK(u core.User, text string, faces ...int) *reply.Reply {
	b.T.Helper()
	rep := b.Say(u, text, faces...)
	if rep.Error {
		b.T.Fatalf("%q: %s", text, reply.PlainText(rep))
	}
	return rep
}

// Fails sends text as u, expects an error reply holding every want (each
// one missing is reported) and returns its text.
func (b *Bot) Fails(u core.User, text string, want ...string) string {
	b.T.Helper()
	rep := b.Say(u, text)
	got := reply.PlainText(rep)
	if !rep.Error {
		b.T.Fatalf("%q answered, want an error: %s", text, got)
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			b.T.Errorf("%q: %q lacks %q", text, got, w)
		}
	}
	return got
}

// Has reports each want that got lacks, and lets the test go on.
func Has(t testing.TB, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%q lacks %q", got, w)
		}
	}
}

// With returns the harness reporting to t (for subtests).
func (h *Harness) With(t *testing.T) *Harness {
	c := *h
	c.T = t
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

// Send runs text from user in chat (gm: the platform says the user is an
// admin) with the given die faces, and returns the rendered reply.
func (h *Harness) Send(chat core.ChatRef, user core.User, gm bool, text string, faces ...int) (string, *reply.Reply) {
	h.T.Helper()
	var src dice.Source = dice.Seeded(7)
	if len(faces) > 0 {
		src = dice.NewScripted(faces)
	}
	rep, ok := h.R.DispatchWith(context.Background(), core.Message{Chat: chat, From: user, Text: text, FromGM: gm}, src)
	if !ok {
		h.T.Fatalf("%q: not a command", text)
	}
	return reply.PlainText(rep), rep
}

// OK sends and fails the test on an error reply.
func (h *Harness) OK(chat core.ChatRef, user core.User, gm bool, text string, faces ...int) string {
	h.T.Helper()
	out, rep := h.Send(chat, user, gm, text, faces...)
	if rep.Error {
		h.T.Fatalf("%s: %q: unexpected error reply: %s", user.Name, text, out)
	}
	if catalogKey.MatchString(out) {
		h.T.Fatalf("%q: missing message key: %s", text, out)
	}
	return out
}

// Fails sends, expects an error reply containing every want, and returns it.
func (h *Harness) Fails(chat core.ChatRef, user core.User, gm bool, text string, want ...string) string {
	h.T.Helper()
	out, rep := h.Send(chat, user, gm, text)
	if !rep.Error {
		h.T.Fatalf("%s: %q: want an error reply, got: %s", user.Name, text, out)
	}
	if strings.Contains(out, "went wrong") || catalogKey.MatchString(out) {
		h.T.Fatalf("%q: internal error or missing message key: %s", text, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			h.T.Fatalf("%q: reply %q lacks %q", text, out, w)
		}
	}
	return out
}

// catalogKey matches a message key shown instead of its text.
var catalogKey = regexp.MustCompile(`\b(error|character|gm|alias|import|export|history|stats)\.[a-z]`)

// Contains fails t unless out contains every want.
func Contains(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Fatalf("reply %q lacks %q", out, w)
		}
	}
}

// Lacks fails t if out contains any of bad.
func Lacks(t *testing.T, out string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(out, b) {
			t.Fatalf("reply %q should not contain %q", out, b)
		}
	}
}

// ProcessCPU is the process's user+system CPU time (SQLite's C code
// included), so that a benchmark on a busy machine reports the work done
// as well as the wall time it waited.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ReportCPU reports the CPU time per operation since start (ProcessCPU)
// as cpu-ms/op.
func ReportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(ProcessCPU()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// SourceKeys lists the message keys that the Go files (tests left out) in
// dirs name: each match of re's first group. A key that ends in a
// separator (more(key) is not empty) is a prefix the code completes: it
// stands for key+m for each m of more(key).
func SourceKeys(t testing.TB, re *regexp.Regexp, more func(key string) []string, dirs ...string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				k := m[1]
				if ms := more(k); len(ms) > 0 {
					for _, m := range ms {
						seen[k+m] = true
					}
					continue
				}
				seen[k] = true
			}
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Renders reports each key that a language of the catalogs lacks or that
// renders badly with args and a count of 1, 2 and 5: as the key itself,
// empty, with "<no value>" or leftover braces, or, when maxLen > 0, longer
// than maxLen characters.
func Renders(t testing.TB, cat *i18n.Catalog, keys []string, args map[string]any, maxLen int) {
	t.Helper()
	for _, lang := range core.Langs() {
		have := map[string]bool{}
		for _, k := range cat.Keys(lang) {
			have[k] = true
		}
		for _, k := range keys {
			if !have[k] {
				t.Errorf("%s: key %q missing", lang, k)
				continue
			}
			for _, count := range []int{1, 2, 5} {
				a := map[string]any{"count": count}
				maps.Copy(a, args)
				s := cat.Translate(lang, k, a)
				if s == k || s == "" || strings.Contains(s, "<no value>") || strings.Contains(s, "{{") {
					t.Errorf("%s: %q renders as %q", lang, k, s)
				}
				if n := len([]rune(s)); maxLen > 0 && n > maxLen {
					t.Errorf("%s: %q is %d characters, too long for a phone", lang, k, n)
				}
			}
		}
	}
}
