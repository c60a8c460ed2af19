package matrix

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"unicode/utf8"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/attachment"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/actions"
	"zaria/core/reply"
)

// maxContentBytes keeps a reply's content well below Matrix's 64 KiB event
// limit, even after Megolm encryption and base64 (4/3) inflate it.
const maxContentBytes = 40000

// target says where and to what a reply goes.
type target struct {
	room    id.RoomID
	replyTo id.EventID // the event answered (m.in_reply_to)
	thread  id.EventID // thread root, when the command came from a thread
	mention id.UserID  // who asked
	txn     id.EventID // the incoming event: transaction ids derive from it
}

// txnID derives a transaction id from the event being answered, so that a
// retry, even after a restart, is recognized by the homeserver and never
// shows twice.
func (a *Adapter) txnID(base id.EventID, part string) string {
	sum := sha256.Sum256([]byte(a.txnSalt + string(base) + "|" + part))
	return "zaria." + hex.EncodeToString(sum[:20])
}

// deliver sends everything a reply holds: the secret part privately, the
// notice in the room (carrying the command it came from, for 🎲 re-rolls),
// the file; then, budget allowing, the reaction buttons. Each event names
// what it answers (answersField).
func (a *Adapter) deliver(ctx context.Context, t target, rep *reply.Reply) error {
	return a.deliverRest(ctx, t, rep, nil)
}

// deliverRest is deliver without the parts already in the room (sent, by
// part, with their events; see alreadySent): a reply found there is not
// sent again, nor its secret part (queued before it), nor its reaction
// buttons.
func (a *Adapter) deliverRest(ctx context.Context, t target, rep *reply.Reply, sent map[string]id.EventID) error {
	var errs []error
	replied, wasSent := sent["reply"]
	if rep.Secret != nil && !wasSent {
		// Queued for its courier: the room's notice does not wait (secret.go).
		if err := a.queueSecret(ctx, t, rep); err != nil {
			errs = append(errs, fmt.Errorf("secret roll: %w", err))
			if ctx.Err() == nil {
				// The room learns that nobody got the result.
				lang := rep.Lang
				if lang == "" {
					lang = a.lang(ctx, t.room)
				}
				c := *rep
				c.Lines = append(slices.Clip(c.Lines), reply.WarningLine(a.d.Text(lang, "mx.secret.failed")))
				rep = &c
			}
		}
	}
	// A chart goes as a picture after the text when it can be drawn and
	// uploaded; otherwise as text in the reply itself.
	var pic *picture
	if _, ok := sent["chart"]; ok && rep.Chart != nil {
		c := *rep
		c.Chart = nil // its picture is in the room
		rep = &c
	} else if rep.Chart != nil {
		if p, err := a.chartPicture(ctx, t.room, rep.Chart); err == nil {
			pic = p
		} else {
			if ctx.Err() == nil {
				a.log.Warn("chart picture not sent; sending it as text", "room", t.room, "err", err)
			}
			rep = reply.WithChartText(rep)
		}
	}
	var offer []string
	var evtID id.EventID
	if len(rep.Lines) > 0 {
		c := notice(withSymbolLabels(rep))
		relate(c, t)
		mention(c, rep.Mention)
		raw := map[string]any{}
		set, keys := buttonsOf(rep, t)
		if len(set.Actions) > 0 {
			// In the reply itself: no crash can separate the two.
			raw[buttonsField] = actions.EncodeSet(set)
		}
		content := withAnswers(&event.Content{Parsed: c, Raw: raw}, t, "reply")
		var err error
		switch {
		case wasSent:
			evtID = replied
			a.savePad(ctx, t, evtID, set)
		default:
			evtID, err = a.send(ctx, t.room, event.EventMessage, content, a.txnID(t.txn, "reply"))
		}
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("reply: %w", err))
		case !wasSent:
			a.savePad(ctx, t, evtID, set) // a pad's only: a re-roll's is in the reply
			offer = keys
		}
	}
	if pic != nil {
		c := pic.content
		relate(c, t)
		if _, err := a.send(ctx, t.room, event.EventMessage, withAnswers(c, t, "chart"), a.txnID(t.txn, "chart")); err != nil {
			errs = append(errs, fmt.Errorf("chart: %w", err))
		}
	}
	if _, ok := sent["file"]; rep.File != nil && !ok {
		if err := a.sendFile(ctx, t, rep.File); err != nil {
			errs = append(errs, fmt.Errorf("file: %w", err))
		}
	}
	if len(offer) > 0 && len(errs) == 0 && a.spareBudget(t.room) {
		for _, key := range offer {
			c := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: evtID, Key: key}}
			if _, err := a.send(ctx, t.room, event.EventReaction, c, a.txnID(t.txn, "offer "+key)); err != nil {
				errs = append(errs, fmt.Errorf("offer %s: %w", key, err))
				break
			}
		}
	}
	if rep.Status != nil {
		if err := a.deliverStatus(ctx, t, rep.Status); err != nil {
			errs = append(errs, fmt.Errorf("status: %w", err))
		}
	}
	err := errors.Join(errs...)
	if err != nil && ctx.Err() == nil {
		a.log.Error("deliver reply", "room", t.room, "event", t.replyTo, "err", err)
	}
	return err
}

// buttonsOf is the Set of a reply's buttons (their Actions, its thread as
// the view) and the reactions that stand for them: 🎲 for again, 📊 for
// the odds, a keycap for each other button in order (a pad's lines, the
// choices a pad button asks for), the first len(keycaps), or the button's
// own Symbol where it has one of symbols (status.go); a typed "!n"
// presses the first maxPadLines of those. An empty Set for a reply
// without buttons.
func buttonsOf(rep *reply.Reply, t target) (set actions.Set, offer []string) {
	if rep.Error {
		return set, nil
	}
	lines := 0
	var syms []string
	for _, b := range rep.Buttons {
		if b.Action == nil || !b.Action.Valid() || b.Action.Private() {
			// A Private action (a blind roll's 🙈 GM) never goes into a
			// message every member reads; its result is in the GMs'
			// secret room already.
			continue
		}
		act := *b.Action
		act.Values = slices.Clone(act.Values)
		switch act.Kind {
		case reply.ActAgain:
			offer = append(offer, againKey)
		case reply.ActOdds:
			offer = append(offer, oddsKey)
		default:
			if lines == maxPadLines {
				continue
			}
			sym := symbolOf(b.Symbol)
			switch {
			case sym != "" && !slices.Contains(offer, sym):
				offer = append(offer, sym)
			case lines < len(keycaps):
				sym = ""
				offer = append(offer, keycaps[lines])
			default:
				sym = ""
			}
			syms = append(syms, sym)
			lines++
		}
		set.Actions = append(set.Actions, act)
	}
	if len(set.Actions) > 0 {
		set.View = viewOf(t.thread, syms)
	}
	return set, offer
}

// withSymbolLabels is rep with a last line naming what the reactions of
// its symbol buttons do ("🩸 Aplicar 5 de daño a Drake"): Matrix shows no
// button labels, and a symbol other than a keycap or 🎲 says too little
// alone. rep itself when it has none.
func withSymbolLabels(rep *reply.Reply) *reply.Reply {
	var labels []string
	for _, b := range rep.Buttons {
		if b.Action != nil && b.Action.Valid() && symbolOf(b.Symbol) != "" && b.Label != "" {
			labels = append(labels, b.Label)
		}
	}
	if len(labels) == 0 || rep.Error {
		return rep
	}
	c := *rep
	c.Lines = append(slices.Clip(c.Lines), reply.Line{reply.I(strings.Join(labels, " · "))})
	return &c
}

// lines are the Actions of set a keycap or a typed "!n" presses, in order.
func lines(set actions.Set) []reply.Action {
	var out []reply.Action
	for _, a := range set.Actions {
		if a.Kind != reply.ActAgain && a.Kind != reply.ActOdds {
			out = append(out, a)
		}
	}
	return out
}

// savePad keeps the Set of the message evtID when it has lines (a pad, or
// a list of choices) in the action store (a press then reads no event)
// and, for a pad (not a list of choices), makes it the newest pad of its
// room's thread, for whoever asked and for anyone (a typed "!2" presses
// its second line).
func (a *Adapter) savePad(ctx context.Context, t target, evtID id.EventID, set actions.Set) {
	ls := lines(set)
	if len(ls) == 0 {
		return
	}
	if err := a.acts.PutAt(ctx, keyPad(evtID), set); err != nil {
		a.log.Error("save pad buttons", "room", t.room, "event", evtID, "err", err)
	}
	for _, l := range ls {
		if len(l.Values) > 0 || l.Kind == reply.ActDamage || l.Kind == reply.ActHit {
			return // a list of choices, or a hit's damage: no pad
		}
	}
	for _, u := range []id.UserID{t.mention, ""} {
		if err := a.journal.setBounded(ctx, prefixLastPad, keyLastPad(t.room, t.thread, u), string(evtID)); err != nil {
			a.log.Error("save newest pad", "room", t.room, "event", evtID, "err", err)
		}
		if u == "" {
			break
		}
	}
}

// spareBudget says whether the reaction buttons may be sent now: always
// ("on"), never ("off"), or ("auto") only when no command of the room
// waits for its reply and the homeserver's budget has room to spare: a
// reply never waits behind a decoration.
func (a *Adapter) spareBudget(room id.RoomID) bool {
	switch a.cfg.Reactions {
	case ReactionsOn:
		return true
	case ReactionsOff:
		return false
	}
	if a.rooms != nil && a.rooms.pending(room) > 0 {
		return false
	}
	return a.budget.Spare()
}

// notice renders a reply as an m.notice with a plain body and HTML.
func notice(rep *reply.Reply) *event.MessageEventContent {
	c := &event.MessageEventContent{
		MsgType:       event.MsgNotice,
		Body:          reply.PlainText(rep),
		Format:        event.FormatHTML,
		FormattedBody: reply.HTML(rep, "<br>"),
	}
	fit(c)
	return c
}

// fit keeps the content under maxContentBytes: first without the HTML, then
// with the text cut at a line and marked as cut.
func fit(c *event.MessageEventContent) {
	if size(c) <= maxContentBytes {
		return
	}
	c.Format, c.FormattedBody = "", ""
	if size(c) <= maxContentBytes {
		return
	}
	// The longest prefix of the body that fits, cut at a rune (binary search).
	body, lo, hi := c.Body, 0, len(c.Body)
	fits := func(n int) bool {
		return size(&event.MessageEventContent{MsgType: c.MsgType, Body: body[:n] + "\n…"}) <= maxContentBytes
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for lo > 0 && !utf8.RuneStart(body[lo]) {
		lo--
	}
	body = body[:lo]
	c.Body = body + "\n…"
}

func size(c *event.MessageEventContent) int {
	b, _ := json.Marshal(c)
	return len(b)
}

// relate makes c a reply to t (inside t's thread, if any) mentioning the asker.
func relate(c *event.MessageEventContent, t target) {
	switch {
	case t.thread != "":
		c.RelatesTo = &event.RelatesTo{Type: event.RelThread, EventID: t.thread, InReplyTo: &event.InReplyTo{EventID: t.replyTo}}
	case t.replyTo != "":
		c.RelatesTo = &event.RelatesTo{InReplyTo: &event.InReplyTo{EventID: t.replyTo}}
	}
	if t.mention != "" {
		c.Mentions = &event.Mentions{UserIDs: []id.UserID{t.mention}}
	}
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

// picture is a chart drawn and uploaded, ready to send as m.image.
type picture struct{ content *event.MessageEventContent }

// chartPicture draws c and uploads it (encrypted in encrypted rooms): an
// m.image whose body is the chart in characters.
func (a *Adapter) chartPicture(ctx context.Context, room id.RoomID, c *reply.Chart) (*picture, error) {
	if a.cfg.Charts == nil {
		return nil, errors.New("no chart renderer")
	}
	data, err := a.cfg.Charts.PNG(c)
	if err != nil {
		return nil, fmt.Errorf("draw chart: %w", err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("drawn chart: %w", err)
	}
	body := reply.PlainText(&reply.Reply{Lines: c.Text})
	if body == "" {
		body = c.Title
	}
	content := &event.MessageEventContent{MsgType: event.MsgImage, Body: body, FileName: "odds.png",
		Info: &event.FileInfo{MimeType: "image/png", Size: len(data), Width: cfg.Width, Height: cfg.Height}}
	if err := a.upload(ctx, room, content, data, "image/png", "odds.png"); err != nil {
		return nil, err
	}
	return &picture{content: content}, nil
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

// sendFile uploads f (encrypted in encrypted rooms) and sends it as m.file.
func (a *Adapter) sendFile(ctx context.Context, t target, f *reply.File) error {
	return a.sendFileAs(ctx, t, f, "file")
}

// sendFileAs is sendFile with its own transaction part: the secret copy
// of a file (a session's log for the GMs) must not share the public
// file's transaction id.
func (a *Adapter) sendFileAs(ctx context.Context, t target, f *reply.File, part string) error {
	mime := f.MIME
	if mime == "" {
		mime = "application/octet-stream"
	}
	c := &event.MessageEventContent{MsgType: event.MsgFile, Body: f.Name, FileName: f.Name, Info: &event.FileInfo{MimeType: mime, Size: len(f.Data)}}
	if err := a.upload(ctx, t.room, c, f.Data, mime, f.Name); err != nil {
		return err
	}
	relate(c, t)
	_, err := a.send(ctx, t.room, event.EventMessage, withAnswers(c, t, part), a.txnID(t.txn, part))
	return err
}
