package matrix

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/attachment"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/backoff"
)

// txnID derives a transaction id from the event being answered, so that a
// retry, even after a restart, is recognized by the homeserver and never
// shows twice.
func (a *Adapter) txnID(base id.EventID, part string) string {
	sum := sha256.Sum256([]byte(a.txnSalt + string(base) + "|" + part))
	return "zaria." + hex.EncodeToString(sum[:20])
}

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
