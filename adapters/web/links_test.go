package web

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"zaria/core"
	"zaria/storage/sqlite"
)

func newTokens(t *testing.T, now *time.Time) (*tokens, *sqlite.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "zaria.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &tokens{st: db, now: func() time.Time { return *now }}, db
}

func TestChatTokensAreStableAndDurable(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tk, db := newTokens(t, &now)
	ctx := context.Background()
	a := core.ChatRef{Platform: "telegram", ID: "-100"}
	b := core.ChatRef{Platform: "telegram", ID: "-200"}
	ta, err := tk.ChatToken(ctx, a)
	if err != nil || !validToken(ta) {
		t.Fatalf("token %q, %v", ta, err)
	}
	tb, _ := tk.ChatToken(ctx, b)
	if again, _ := tk.ChatToken(ctx, a); again != ta || tb == ta {
		t.Errorf("tokens: a %q then %q, b %q", ta, again, tb)
	}
	// Another process on the same file (a restart) reads the same.
	other := &tokens{st: db, now: time.Now}
	if c, ok, err := other.Chat(ctx, ta); !ok || err != nil || c != a {
		t.Errorf("after a restart %q → %v %v %v", ta, c, ok, err)
	}
	for _, bad := range []string{"", "short", ta + "x", "AAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAA/", "../../../etc/passwd000"} {
		if _, ok, _ := tk.Chat(ctx, bad); ok {
			t.Errorf("%q names a chat", bad)
		}
	}
}

// TestTopicTokens: each forum topic has its own token for the same chat;
// a token stored before topics (the chat's JSON alone) still reads.
func TestTopicTokens(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tk, db := newTokens(t, &now)
	ctx := context.Background()
	g := core.ChatRef{Platform: "telegram", ID: "-100"}
	whole, _ := tk.ChatToken(ctx, g)
	t7, _ := tk.PlaceToken(ctx, place{ChatRef: g, Thread: "7"})
	t9, _ := tk.PlaceToken(ctx, place{ChatRef: g, Thread: "9"})
	if again, _ := tk.PlaceToken(ctx, place{ChatRef: g, Thread: "7"}); again != t7 || t7 == whole || t7 == t9 {
		t.Fatalf("tokens: chat %q, topic 7 %q then %q, topic 9 %q", whole, t7, again, t9)
	}
	for tok, want := range map[string]place{whole: {ChatRef: g}, t7: {ChatRef: g, Thread: "7"}, t9: {ChatRef: g, Thread: "9"}} {
		if p, ok, err := tk.Place(ctx, tok); !ok || err != nil || p != want {
			t.Errorf("%q → %+v %v %v, want %+v", tok, p, ok, err, want)
		}
	}
	old := "AAAAAAAAAAAAAAAAAAAAAB"
	if err := db.SetState(ctx, keyTokenChat+old, `{"Platform":"telegram","ID":"-100"}`); err != nil {
		t.Fatal(err)
	}
	if p, ok, _ := tk.Place(ctx, old); !ok || p != (place{ChatRef: g}) {
		t.Errorf("a token stored before topics reads %+v %v", p, ok)
	}
}

func TestOneTimeLinks(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tk, _ := newTokens(t, &now)
	ctx := context.Background()
	room := core.ChatRef{Platform: "matrix", ID: "!r:example.org"}
	ana := core.User{ID: "@ana:example.org", Name: "Ana"}
	l1, _ := tk.Link(ctx, room, ana, 10*time.Minute)
	l2, _ := tk.Link(ctx, room, ana, 10*time.Minute)
	if l1 == l2 || !validToken(l1) {
		t.Fatalf("links %q %q", l1, l2)
	}
	rec, err := tk.Redeem(ctx, l1)
	if err != nil || rec.Chat != room || rec.User != ana {
		t.Fatalf("redeem: %+v %v", rec, err)
	}
	if _, err := tk.Redeem(ctx, l1); err == nil {
		t.Error("a link redeemed twice")
	}
	// Past its 10 minutes, refused (and spent).
	now = now.Add(10 * time.Minute)
	if _, err := tk.Redeem(ctx, l2); err == nil {
		t.Error("an expired link redeemed")
	}
	// Sessions: bound to what they say, refused when changed or expired.
	s, err := tk.Session(ctx, session{Chat: room, User: ana, Expires: now.Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := tk.CheckSession(ctx, s); !ok || got.User != ana || got.Chat != room {
		t.Errorf("session: %+v %v", got, ok)
	}
	forged := []byte(s)
	forged[3] ^= 1
	for _, bad := range []string{string(forged), s + "x", "x." + s[len(s)/2:], "", ".", s[:len(s)-1]} {
		if _, ok := tk.CheckSession(ctx, bad); ok {
			t.Errorf("session %.20q accepted", bad)
		}
	}
	now = now.Add(time.Hour)
	if _, ok := tk.CheckSession(ctx, s); ok {
		t.Error("an expired session accepted")
	}
}
