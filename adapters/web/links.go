package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"zaria/core"
)

// StateStore is the durable key-value store the adapters share
// (storage/sqlite implements it): chat tokens, one-time links and the
// session key live there, so they survive a restart.
type StateStore interface {
	State(ctx context.Context, key string) (string, bool, error)
	SetState(ctx context.Context, key, value string) error
	WriteStates(ctx context.Context, set map[string]string, del []string) error
}

// Keys in the state store.
const (
	keyChatToken = "web.chat."  // + chat ref → the chat's token
	keyTokenChat = "web.token." // + token → the chat ref (JSON)
	keyLink      = "web.link."  // + link token → linkRec (JSON)
	keySession   = "web.session_key"
)

// newToken is 128 random bits, base64url without padding (22 characters
// of A-Z a-z 0-9 - _, all allowed in Telegram's startapp).
func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// validToken reports whether s can be a token: bounded and of the
// base64url alphabet, before it is looked up.
func validToken(s string) bool {
	if len(s) != 22 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// tokens keeps the chats' tokens, one-time links and the session key.
type tokens struct {
	st  StateStore
	now func() time.Time
	mu  sync.Mutex // issue and redeem are read-then-write

	keyOnce sync.Once
	key     []byte
	keyErr  error
}

// place is what a chat token stands for: a chat and, for a token /app
// made in a Telegram forum topic, that topic (core.Message.Thread), where
// the page's rolls are posted. Stored as JSON; a token saved before topics
// reads as the chat alone.
type place struct {
	core.ChatRef
	Thread string `json:",omitempty"`
}

// ChatToken returns chat's token for links (the Mini App's startapp),
// issuing one the first time. A chat keeps its token.
func (t *tokens) ChatToken(ctx context.Context, chat core.ChatRef) (string, error) {
	return t.PlaceToken(ctx, place{ChatRef: chat})
}

// PlaceToken is ChatToken for a place in a chat: each forum topic has a
// token of its own, which opens the same chat (its sheets, its rights)
// and posts in that topic.
func (t *tokens) PlaceToken(ctx context.Context, p place) (string, error) {
	key := keyChatToken + p.String()
	if p.Thread != "" {
		key += "#" + p.Thread
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	tok, ok, err := t.st.State(ctx, key)
	if err != nil {
		return "", fmt.Errorf("web: read chat token: %w", err)
	}
	if ok && validToken(tok) {
		return tok, nil
	}
	tok = newToken()
	ref, _ := json.Marshal(p)
	if err := t.st.WriteStates(ctx, map[string]string{key: tok, keyTokenChat + tok: string(ref)}, nil); err != nil {
		return "", fmt.Errorf("web: save chat token: %w", err)
	}
	return tok, nil
}

// Chat returns the chat a token was issued for.
func (t *tokens) Chat(ctx context.Context, tok string) (core.ChatRef, bool, error) {
	p, ok, err := t.Place(ctx, tok)
	return p.ChatRef, ok, err
}

// Place returns the chat and topic a token was issued for.
func (t *tokens) Place(ctx context.Context, tok string) (place, bool, error) {
	if !validToken(tok) {
		return place{}, false, nil
	}
	v, ok, err := t.st.State(ctx, keyTokenChat+tok)
	if err != nil || !ok {
		return place{}, false, err
	}
	var p place
	if err := json.Unmarshal([]byte(v), &p); err != nil || p.Platform == "" || p.ID == "" {
		return place{}, false, nil
	}
	return p, true, nil
}

// linkRec is a one-time link as stored.
type linkRec struct {
	Chat    core.ChatRef `json:"chat"`
	User    core.User    `json:"user"`
	Expires int64        `json:"exp"` // Unix seconds
}

// Link issues a one-time link token for user in chat, valid for ttl.
func (t *tokens) Link(ctx context.Context, chat core.ChatRef, user core.User, ttl time.Duration) (string, error) {
	tok := newToken()
	rec, _ := json.Marshal(linkRec{Chat: chat, User: user, Expires: t.now().Add(ttl).Unix()})
	if err := t.st.SetState(ctx, keyLink+tok, string(rec)); err != nil {
		return "", fmt.Errorf("web: save link: %w", err)
	}
	return tok, nil
}

var errLinkUsed = errors.New("web: link unknown, used or expired")

// Redeem consumes a one-time link: it works once, before it expires.
func (t *tokens) Redeem(ctx context.Context, tok string) (linkRec, error) {
	if !validToken(tok) {
		return linkRec{}, errLinkUsed
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok, err := t.st.State(ctx, keyLink+tok)
	if err != nil {
		return linkRec{}, fmt.Errorf("web: read link: %w", err)
	}
	if !ok {
		return linkRec{}, errLinkUsed
	}
	if err := t.st.WriteStates(ctx, nil, []string{keyLink + tok}); err != nil {
		return linkRec{}, fmt.Errorf("web: consume link: %w", err)
	}
	var rec linkRec
	if json.Unmarshal([]byte(v), &rec) != nil || t.now().Unix() >= rec.Expires {
		return linkRec{}, errLinkUsed
	}
	return rec, nil
}

// sessionKey is the HMAC key of sessions, made once and kept.
func (t *tokens) sessionKey(ctx context.Context) ([]byte, error) {
	t.keyOnce.Do(func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		v, ok, err := t.st.State(ctx, keySession)
		if err != nil {
			t.keyErr = err
			return
		}
		if k, err := base64.RawURLEncoding.DecodeString(v); ok && err == nil && len(k) == 32 {
			t.key = k
			return
		}
		k := make([]byte, 32)
		_, _ = rand.Read(k)
		if err := t.st.SetState(ctx, keySession, base64.RawURLEncoding.EncodeToString(k)); err != nil {
			t.keyErr = err
			return
		}
		t.key = k
	})
	if t.keyErr != nil {
		return nil, fmt.Errorf("web: session key: %w", t.keyErr)
	}
	return t.key, nil
}

// session is what a session token vouches for: a user in a chat (and,
// for a Telegram forum topic, the topic and its token), until Expires;
// renewed, never past Start plus web.session_ttl.
type session struct {
	Chat    core.ChatRef `json:"c"`
	User    core.User    `json:"u"`
	Expires int64        `json:"e"`           // Unix seconds
	Start   int64        `json:"s,omitempty"` // when the page was opened
	Thread  string       `json:"t,omitempty"`
	Token   string       `json:"k,omitempty"` // the chat token the page names ("": the chat's)
	Lang    string       `json:"l,omitempty"` // the client's language
}

// Session signs s: base64url(JSON) "." base64url(HMAC).
func (t *tokens) Session(ctx context.Context, s session) (string, error) {
	key, err := t.sessionKey(ctx)
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(s)
	b := base64.RawURLEncoding.EncodeToString(body)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(b))
	return b + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil)), nil
}

// CheckSession verifies a session token and that it has not expired.
func (t *tokens) CheckSession(ctx context.Context, tok string) (session, bool) {
	if len(tok) > 2048 {
		return session{}, false
	}
	b, sig, ok := strings.Cut(tok, ".")
	if !ok {
		return session{}, false
	}
	key, err := t.sessionKey(ctx)
	if err != nil {
		return session{}, false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return session{}, false
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(b))
	if !hmac.Equal(m.Sum(nil), got) {
		return session{}, false
	}
	body, err := base64.RawURLEncoding.DecodeString(b)
	var s session
	if err != nil || json.Unmarshal(body, &s) != nil || t.now().Unix() >= s.Expires {
		return session{}, false
	}
	return s, true
}

// itoa is strconv.FormatInt for ids.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }
