package matrix

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/attachment"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/backoff"
)

// The connection's side of a send: one event or upload, retried while
// waiting can fix it (the same transaction id, the homeserver's
// retry_after honoured and noted in the budget), on the session's current
// access token (bearer), again after a new login. The outbound side and
// the courier send through it; it decides nothing about replies.

// send sends one event, retrying failures that waiting can fix with the same
// transaction id (so the homeserver never shows it twice), for at most
// SendRetryFor.
func (a *Adapter) send(ctx context.Context, room id.RoomID, typ event.Type, content any, txn string) (id.EventID, error) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.SendRetryFor)
	defer cancel()
	// mautrix sends reactions in clear; in an encrypted room the
	// homeserver should see nothing but ciphertext (as with Element).
	encryptReaction := false
	if typ == event.EventReaction && a.crypto != nil {
		encryptReaction, _ = a.cli.StateStore.IsEncrypted(ctx, room)
	}
	var evtID id.EventID
	err := a.retry(ctx, "send", func() error {
		return a.authed(ctx, func() error {
			t, c := typ, content
			if encryptReaction {
				encrypted, err := a.crypto.Encrypt(ctx, room, typ, content)
				if err != nil {
					return fmt.Errorf("encrypt reaction: %w", err)
				}
				t, c = event.EventEncrypted, encrypted
			}
			resp, err := a.cli.SendMessageEvent(ctx, room, t, c, mautrix.ReqSendEvent{TransactionID: txn})
			if err != nil {
				return err
			}
			a.budget.Spend(1)
			evtID = resp.EventID
			return nil
		})
	})
	return evtID, err
}

// upload puts data in the media repository, encrypted as an attachment in
// encrypted rooms, and points c at it (url, or file with the keys). What
// waiting cannot fix (413 too large, 403 not allowed) fails at once.
func (a *Adapter) upload(ctx context.Context, room id.RoomID, c *event.MessageEventContent, data []byte, mime, name string) error {
	uploadType := mime
	enc, _ := a.cli.StateStore.IsEncrypted(ctx, room)
	var ef *attachment.EncryptedFile
	if enc && a.crypto != nil {
		ef = attachment.NewEncryptedFile()
		data, uploadType = ef.Encrypt(data), "application/octet-stream"
	}
	var up *mautrix.RespMediaUpload
	err := a.retry(ctx, "upload", func() error {
		return a.authed(ctx, func() error {
			var err error
			up, err = a.cli.UploadBytesWithName(ctx, data, uploadType, name)
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("upload: %w", err)
	}
	if ef != nil {
		c.File = &event.EncryptedFileInfo{EncryptedFile: *ef, URL: up.ContentURI.CUString()}
	} else {
		c.URL = up.ContentURI.CUString()
	}
	return nil
}

// retry runs f until it succeeds, ctx ends, or it fails in a way waiting
// cannot fix. The first failure is logged once.
func (a *Adapter) retry(ctx context.Context, what string, f func() error) error {
	bo := a.newBackoff()
	logged := false
	for {
		err := f()
		if err == nil {
			if logged {
				a.log.Info(what + " succeeded after retrying")
			}
			return nil
		}
		if ctx.Err() != nil || !temporary(err) {
			return err
		}
		if d, ok := retryAfter(err); ok {
			a.rateLimited(ctx, d)
			// The homeserver's own pacing: expected under load, not news.
			a.log.Debug(what+" rate limited", "retry_after", d)
			if backoff.Sleep(ctx, d) != nil {
				return ctx.Err()
			}
			continue
		}
		if !logged {
			a.log.Warn(what+" failing; retrying quietly", "err", err)
			logged = true
		}
		if backoff.Sleep(ctx, bo.Next()) != nil {
			return ctx.Err()
		}
	}
}

// authed runs f, and runs it again each time the homeserver refuses it
// because the session ended (M_UNKNOWN_TOKEN, soft logout or not) once the
// sync loop has logged in again on the same device (with a password only:
// a configured token cannot be renewed). For the room workers: a reply, a
// join or an upload under way when the session ends is not lost. Nothing
// the homeserver refused that way was stored, so a send goes again with
// the same transaction id. The caller bounds the wait with ctx.
func (a *Adapter) authed(ctx context.Context, f func() error) error {
	for {
		tok := a.auth.current()
		err := f()
		if err == nil || a.cfg.Password == "" || !errors.Is(err, mautrix.MUnknownToken) {
			return err
		}
		a.log.Debug("refused: the session ended; waiting for the new login")
		if !a.auth.waitNew(ctx, tok) {
			return err
		}
	}
}

// rateLimited records a 429 asking to wait retry: the reaction buttons
// wait (outbound.spare, budget.Spare), and so does a secret room's making (budget.Wait).
func (a *Adapter) rateLimited(ctx context.Context, retry time.Duration) {
	if a.budget.Limited(retry) {
		if err := a.state.SetState(context.WithoutCancel(ctx), keyLimited, "1"); err != nil {
			a.log.Warn("save rate-limit note", "err", err)
		}
	}
}

// temporary reports whether waiting may fix err: no answer from the
// homeserver, 5xx, 429.
func temporary(err error) bool {
	var he mautrix.HTTPError
	if errors.As(err, &he) {
		if he.Response == nil {
			return true // no answer at all
		}
		code := he.Response.StatusCode
		return code == http.StatusTooManyRequests || code >= 500 || code == http.StatusRequestTimeout
	}
	var re mautrix.RespError
	if errors.As(err, &re) {
		return re.StatusCode == http.StatusTooManyRequests || re.StatusCode >= 500
	}
	return false // not from the network: waiting will not fix it
}

// newBackoff is the wait between the failed requests of one retry loop:
// doubling from BackoffMin to BackoffMax with jitter, retry_after_ms or
// Retry-After taken as asked (see backoff.Backoff.After).
func (a *Adapter) newBackoff() *backoff.Backoff {
	return backoff.New(a.cfg.BackoffMin, a.cfg.BackoffMax)
}

// errCode is the Matrix error code of err, or "".
func errCode(err error) string {
	var he mautrix.HTTPError
	if errors.As(err, &he) && he.RespError != nil {
		return he.RespError.ErrCode
	}
	return ""
}

// retryAfter reads the wait the homeserver asked for with M_LIMIT_EXCEEDED.
func retryAfter(err error) (time.Duration, bool) {
	var he mautrix.HTTPError
	if !errors.As(err, &he) {
		return 0, false
	}
	if he.RespError != nil && he.RespError.ErrCode == "M_LIMIT_EXCEEDED" {
		if ms, ok := he.RespError.ExtraData["retry_after_ms"].(float64); ok && ms >= 0 {
			return time.Duration(ms) * time.Millisecond, true
		}
	}
	if he.Response != nil && he.Response.StatusCode == http.StatusTooManyRequests {
		if s := he.Response.Header.Get("Retry-After"); s != "" {
			if n := parseInt(strings.TrimSpace(s)); n > 0 {
				return time.Duration(n) * time.Second, true
			}
		}
		return time.Second, true
	}
	return 0, false
}

// bearer puts the session's access token on every request the client makes.
//
// mautrix reads Client.AccessToken (and UserID, DeviceID) without a lock on
// every request, and its Login writes them: logging in again after the
// homeserver ended the session, while room workers are sending, was a data
// race. So the client never holds a token (mautrix then sets no
// Authorization header) and this transport adds the current one; logging in
// again swaps it atomically. Requests made while no session is valid (the
// new login itself) go without one.
type bearer struct {
	base  http.RoundTripper
	token atomic.Pointer[string]

	mu      sync.Mutex
	changed chan struct{} // closed (and replaced) by set and stop
	stopped bool          // no new login will come: waitNew gives up
}

func newBearer(base http.RoundTripper) *bearer {
	if base == nil {
		base = http.DefaultTransport
	}
	return &bearer{base: base}
}

// set makes tok the token of every later request ("" for none).
func (b *bearer) set(tok string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.token.Store(&tok)
	b.wake()
}

// stop says that no new login will come (the sync loop has ended): those
// waiting in waitNew give up.
func (b *bearer) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stopped = true
	b.wake()
}

// wake wakes those waiting in waitNew; called with mu held.
func (b *bearer) wake() {
	if b.changed != nil {
		close(b.changed)
		b.changed = nil
	}
}

// waitNew waits until the token is a valid one other than old (the sync
// loop logged in again after the homeserver ended the session). false:
// ctx ended first, or the sync loop has stopped.
func (b *bearer) waitNew(ctx context.Context, old string) bool {
	for {
		b.mu.Lock()
		if cur := b.current(); cur != "" && cur != old {
			b.mu.Unlock()
			return true
		}
		if b.stopped {
			b.mu.Unlock()
			return false
		}
		if b.changed == nil {
			b.changed = make(chan struct{})
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// current is the token requests carry now.
func (b *bearer) current() string {
	if p := b.token.Load(); p != nil {
		return *p
	}
	return ""
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	tok := b.current()
	if tok == "" && r.Header.Get("Authorization") == "" {
		return b.base.RoundTrip(r)
	}
	// A RoundTripper must not change the caller's request.
	r = r.Clone(r.Context())
	if tok == "" {
		r.Header.Del("Authorization")
	} else {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	return b.base.RoundTrip(r)
}
