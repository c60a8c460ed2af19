package actions

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"zaria/core/reply"
	"zaria/storage/sqlite"
)

func openStore(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "z.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func i64(n int64) *int64 { return &n }

// TestTokensInlineOrStored: buttons whose Actions fit the room and need
// no View cost no write; the others share one record, and every token
// gives back its button's Action, after a restart too.
func TestTokensInlineOrStored(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	s := New(db, "tg.b.", "tg.", 100, quiet)
	pad := Set{Actions: []reply.Action{{Kind: reply.ActRun, Button: 7}, {Kind: reply.ActRun, Button: 8, Values: []string{"cuero"}}}}
	toks := s.Tokens(ctx, pad, 64)
	if got, _ := db.StatesWithPrefix(ctx, "tg.b."); len(got) != 0 {
		t.Errorf("a pad that fits its data wrote %d records", len(got))
	}
	roll := Set{Actions: []reply.Action{{Kind: reply.ActAgain, Command: "/roll 3d6 vs 12"}, {Kind: reply.ActOdds, Command: "/roll 3d6 vs 12", Actual: i64(11)}}, View: `{"t":"x"}`}
	rt := s.Tokens(ctx, roll, 64)
	long := Set{Actions: []reply.Action{{Kind: reply.ActAgain, Command: "/roll " + strings.Repeat("ζ", 40)}}}
	lt := s.Tokens(ctx, long, 64)
	if got, _ := db.StatesWithPrefix(ctx, "tg.b."); len(got) != 2 {
		t.Errorf("%d records, want one per set that needs one", len(got))
	}
	s = New(db, "tg.b.", "tg.", 100, quiet) // a restart
	for _, c := range []struct {
		toks []string
		set  Set
	}{{toks, pad}, {rt, roll}, {lt, long}} {
		for i, tok := range c.toks {
			if len(tok) > 64 {
				t.Errorf("token %q of %d bytes", tok, len(tok))
			}
			p, ok := s.Resolve(ctx, tok)
			if !ok || !reflect.DeepEqual(p.Action, c.set.Actions[i]) {
				t.Errorf("%q → %+v %v, want %+v", tok, p.Action, ok, c.set.Actions[i])
			}
		}
	}
	p, _ := s.Resolve(ctx, rt[1])
	if p.Set.View != `{"t":"x"}` || p.ID == "" || p.Index != 1 {
		t.Errorf("stored press %+v", p)
	}
	if err := s.SetView(ctx, p.ID, "shown"); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Resolve(ctx, rt[0]); p.Set.View != "shown" {
		t.Errorf("view after SetView %q", p.Set.View)
	}
	for _, bad := range []string{"", "zz", "b:0123456789abcdef:0", "b:" + p.ID + ":9", "b:" + p.ID + ":x", "A:999", "a:no-slash", "\xff", "p:0", "P:0123456789abcdef"} {
		if p, ok := s.Resolve(ctx, bad); ok {
			t.Errorf("%q resolves to %+v", bad, p)
		}
	}
}

type failing struct{ StateStore }

func (failing) SetState(context.Context, string, string) error { return errors.New("disk full") }

// TestTokensWithoutStore: a record that cannot be written still works
// until a restart.
func TestTokensWithoutStore(t *testing.T) {
	ctx := context.Background()
	s := New(failing{openStore(t)}, "tg.b.", "", 100, quiet)
	set := Set{Actions: []reply.Action{{Kind: reply.ActOdds, Command: "/roll 2d6"}}, View: "v"}
	tok := s.Tokens(ctx, set, 64)[0]
	if p, ok := s.Resolve(ctx, tok); !ok || p.Action.Kind != reply.ActOdds || p.Set.View != "v" {
		t.Errorf("%q → %+v %v", tok, p, ok)
	}
}

// TestLegacyRecords: records and tokens exactly as the release before
// this store wrote them read as the Actions they stood for.
func TestLegacyRecords(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	for k, v := range map[string]string{
		"tg.b.0123456789abcdef":  `{"c":"/roll 3d6 vs 12","w":"Ana","t":"<b>11</b>","al":"🎲 Otra vez","o":{"c":0.375,"e":"3/8"},"oc":"/roll 3d6 vs 12","n":11}`,
		"tg.b.1123456789abcdef":  `{"c":"/roll 1d6","w":"Ana","al":"🎲 Otra vez"}`,
		"tg.pa.2123456789abcdef": `{"b":7,"v":["a|b","x"]}`,
		"tg.ir.3123456789abcdef": `{"u":"42","c":"/roll 4d6kh3"}`,
	} {
		if err := db.SetState(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	s := New(db, "tg.b.", "tg.", 100, quiet)
	chance := 0.375
	for tok, want := range map[string]reply.Action{
		"b:0123456789abcdef:a": {Kind: reply.ActAgain, Command: "/roll 3d6 vs 12"},
		"b:0123456789abcdef:o": {Kind: reply.ActOdds, Command: "/roll 3d6 vs 12", Actual: i64(11), Odds: &reply.RollOdds{Chance: &chance, Exact: "3/8"}},
		"b:1123456789abcdef:a": {Kind: reply.ActAgain, Command: "/roll 1d6"},
		"p:42":                 {Kind: reply.ActRun, Button: 42},
		"p:7:fácil|x":          {Kind: reply.ActRun, Button: 7, Values: []string{"fácil", "x"}},
		"P:2123456789abcdef":   {Kind: reply.ActRun, Button: 7, Values: []string{"a|b", "x"}},
		"a:/zaria 4+2 dc15":    {Kind: reply.ActAgain, Command: "/zaria 4+2 dc15"},
		"o:/zaria 4+2 dc15":    {Kind: reply.ActOdds, Command: "/zaria 4+2 dc15"},
		"c:/roll 2d6":          {Kind: reply.ActAgain, Command: "/roll 2d6"},
		"r:3123456789abcdef":   {Kind: reply.ActAgain, Command: "/roll 4d6kh3"},
	} {
		p, ok := s.Resolve(ctx, tok)
		if !ok || !reflect.DeepEqual(p.Action, want) {
			t.Errorf("%q → %+v %v, want %+v", tok, p.Action, ok, want)
		}
	}
	if p, _ := s.Resolve(ctx, "b:0123456789abcdef:o"); !strings.Contains(p.Set.View, `"t":"<b>11</b>"`) {
		t.Errorf("old record's view %q", p.Set.View)
	}
	if _, ok := s.Resolve(ctx, "b:1123456789abcdef:o"); ok {
		t.Error("an odds press on a record without odds")
	}
	// Matrix's records, in its state and in its messages.
	for v, want := range map[string]Set{
		`{"cmd":"!roll 3d6 vs 12","thread":"$t","odds":true,"actual":11}`: {View: "$t", Actions: []reply.Action{
			{Kind: reply.ActAgain, Command: "!roll 3d6 vs 12"}, {Kind: reply.ActOdds, Command: "!roll 3d6 vs 12", Actual: i64(11)}}},
		`{"cmd":"!roll 1d6"}`: {Actions: []reply.Action{{Kind: reply.ActAgain, Command: "!roll 1d6"}}},
		`{"actions":[{"button":3,"values":["hard"]},{"button":4}],"thread":"$t"}`: {View: "$t", Actions: []reply.Action{
			{Kind: reply.ActRun, Button: 3, Values: []string{"hard"}}, {Kind: reply.ActRun, Button: 4}}},
		`{"buttons":[7,9]}`: {Actions: []reply.Action{{Kind: reply.ActRun, Button: 7}, {Kind: reply.ActRun, Button: 9}}},
	} {
		if got, ok := DecodeSet(v); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s → %+v %v, want %+v", v, got, ok, want)
		}
	}
	for _, bad := range []string{`{}`, `{"v":2,"a":["1a/r"]}`, `{"v":1,"a":["2a/r"]}`, `[]`, `x`, `{"cmd":"roll"}`} {
		if got, ok := DecodeSet(bad); ok {
			t.Errorf("%s → %+v", bad, got)
		}
	}
}

// TestPrivateActionStoredUnderRandomID: a blind roll's 🙈 GM holds its
// result (a Private Action): its token is never the Action itself, nor a
// hash of it (which a player could match against each possible result),
// however small; it reads back after a restart.
func TestPrivateActionStoredUnderRandomID(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	reveal := reply.Action{Kind: reply.ActReveal, Secret: "🎲 Bob: 1d20 = 7", Chat: "telegram:-1"}
	set := Set{Actions: []reply.Action{reveal}}
	s := New(db, "tg.b.", "tg.", 100, quiet)
	a, b := s.Tokens(ctx, set, 64), s.Tokens(ctx, set, 64)
	if a[0] == b[0] || strings.Contains(a[0], "1d20") || !strings.HasPrefix(a[0], "b:") {
		t.Errorf("tokens %q and %q of the same result", a[0], b[0])
	}
	if _, ok := s.InlineToken(reveal, 64); ok {
		t.Errorf("an inline token for a private action")
	}
	got, ok := New(db, "tg.b.", "tg.", 100, quiet).Resolve(ctx, a[0])
	if !ok || !reflect.DeepEqual(got.Action, reveal) {
		t.Errorf("after a restart: %+v, %v", got.Action, ok)
	}
}
