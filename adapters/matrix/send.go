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
	"sync"
	"time"
	"unicode/utf8"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/attachment"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

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
// the file; then, budget allowing, the reaction buttons.
func (a *Adapter) deliver(ctx context.Context, t target, rep *reply.Reply) error {
	var errs []error
	if rep.Secret != nil {
		if err := a.deliverSecret(ctx, t, rep.Secret, rep.SecretTo); err != nil {
			errs = append(errs, fmt.Errorf("secret roll: %w", err))
			if ctx.Err() == nil {
				// The room learns that nobody got the result.
				lang := rep.Lang
				if lang == "" {
					lang = a.lang(ctx, t.room)
				}
				c := *rep
				c.Lines = append(slices.Clip(c.Lines), reply.Line{reply.T("⚠️ " + a.d.Text(lang, "mx.secret.failed"))})
				rep = &c
			}
		}
	}
	// A chart goes as a picture after the text when it can be drawn and
	// uploaded; otherwise as text in the reply itself.
	var pic *picture
	if rep.Chart != nil {
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
		c := notice(rep)
		relate(c, t)
		mention(c, rep.Mention)
		var content any = c
		raw := map[string]any{}
		rec, keys, again := againOf(rep, t)
		if again {
			// In the reply itself: no crash can separate the two.
			raw[againField] = rec
		}
		pad := padOf(rep, t)
		if pad != nil {
			raw[padField] = pad
		}
		if len(raw) > 0 {
			content = &event.Content{Parsed: c, Raw: raw}
		}
		var err error
		evtID, err = a.send(ctx, t.room, event.EventMessage, content, a.txnID(t.txn, "reply"))
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("reply: %w", err))
		case pad != nil:
			a.savePad(ctx, t, evtID, pad)
			offer = keycaps[:min(len(keycaps), len(pad.Actions))]
		case again:
			offer = keys // the record is in the reply: nothing to store
		}
	}
	if pic != nil {
		c := pic.content
		relate(c, t)
		if _, err := a.send(ctx, t.room, event.EventMessage, c, a.txnID(t.txn, "chart")); err != nil {
			errs = append(errs, fmt.Errorf("chart: %w", err))
		}
	}
	if rep.File != nil {
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

// againOf is the re-roll record of a reply and the reactions that stand for
// its buttons; ok=false for a reply that cannot be re-run.
// The record keeps the buttons' Actions as the core filled them: the
// command to run again, and for 📊 the total the roll gave.
func againOf(rep *reply.Reply, t target) (rec againRecord, offer []string, ok bool) {
	if rep.Command == "" || rep.Error {
		return rec, nil, false
	}
	rec = againRecord{Command: rep.Command, Thread: t.thread}
	for _, btn := range rep.Buttons {
		switch btn.Kind {
		case reply.ButtonAgain:
			if btn.Action != nil && btn.Action.Command != "" {
				rec.Command = btn.Action.Command
			}
			offer = append(offer, againKey)
		case reply.ButtonOdds:
			rec.Odds = true
			if btn.Action != nil {
				if btn.Action.Command != "" {
					rec.OddsCommand = btn.Action.Command
				}
				rec.Actual = btn.Action.Actual
			}
			offer = append(offer, oddsKey)
		}
	}
	return rec, offer, true
}

// padOf is the record of a reply that shows a pad (or a list of choices):
// the Actions of its first maxPadLines run buttons; nil for any other
// reply.
func padOf(rep *reply.Reply, t target) *padRecord {
	var rec padRecord
	for _, b := range rep.Buttons {
		if b.Kind != reply.ButtonRun || b.Action == nil || b.Action.Kind != reply.ActRun {
			continue
		}
		if len(rec.Actions) == maxPadLines {
			break
		}
		rec.Actions = append(rec.Actions, padAction{Button: b.Action.Button, Values: slices.Clone(b.Action.Values)})
	}
	if len(rec.Actions) == 0 || rep.Error {
		return nil
	}
	rec.Thread = t.thread
	return &rec
}

// savePad keeps the record of the pad message evtID in the state store (a
// press then reads no event) and, for a pad (not a list of choices), makes
// it the newest pad of its room's thread, for whoever asked and for anyone
// (a typed "!2" presses its second line).
func (a *Adapter) savePad(ctx context.Context, t target, evtID id.EventID, pad *padRecord) {
	b, err := json.Marshal(pad)
	if err != nil {
		return
	}
	if err := a.journal.setBounded(ctx, prefixPad, keyPad(evtID), string(b)); err != nil {
		a.log.Error("save pad buttons", "room", t.room, "event", evtID, "err", err)
	}
	if pad.choices() {
		return
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

// Budget of the "auto" reaction buttons, once the homeserver has shown it
// rate-limits (a 429, remembered across restarts). Synapse's default limit
// is a burst of 10 sends refilled at 0.2/s (12 a minute): decorations go
// out only while the bot has sent fewer than budgetSends events in the
// last budgetWindow, so a reply always finds room in the burst, and not at
// all for calmFor after a 429.
const (
	calmFor      = 5 * time.Minute
	budgetWindow = time.Minute
	budgetSends  = 5
)

// sendLog remembers when the bot's latest sends went out.
type sendLog struct {
	mu    sync.Mutex
	times []time.Time // oldest first, at most budgetSends
}

func (l *sendLog) add(t time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.times = append(l.times, t)
	if len(l.times) > budgetSends {
		l.times = l.times[len(l.times)-budgetSends:]
	}
}

// since counts the sends after t (at most budgetSends).
func (l *sendLog) since(t time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.times {
		if s.After(t) {
			n++
		}
	}
	return n
}

// spareBudget says whether the reaction buttons may be sent now: always
// ("on"), never ("off"), or ("auto") only when no command of the room
// waits for its reply, the bot's recent sends leave room in the
// homeserver's burst, and the homeserver has not rate-limited the bot
// lately: a reply never waits behind a decoration.
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
	last := a.limitedAt.Load()
	if last == 0 && !a.limitedEver.Load() {
		return true // a homeserver that has never rate-limited the bot
	}
	if a.sends.since(time.Now().Add(-a.budget.window)) >= budgetSends {
		return false
	}
	return last == 0 || time.Since(time.UnixMilli(last)) > a.budget.calm
}

// budget holds calmFor and budgetWindow (shorter in tests).
type budget struct{ calm, window time.Duration }

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
			a.sends.add(time.Now())
			evtID = resp.EventID
			return nil
		})
	})
	return evtID, err
}

// deliverSecret sends a secret roll to the direct room of the roller and the
// origin room's GMs.
func (a *Adapter) deliverSecret(ctx context.Context, t target, secret *reply.Reply, namedGMs []string) error {
	room, err := a.secretRoom(ctx, t.room, t.mention, namedGMs)
	if err != nil {
		return err
	}
	c := notice(secret)
	if t.mention != "" {
		c.Mentions = &event.Mentions{UserIDs: []id.UserID{t.mention}}
	}
	_, err = a.send(ctx, room, event.EventMessage, c, a.txnID(t.txn, "secret"))
	return err
}

// secretRoom returns the room where roller's secret rolls of origin go:
// the one recorded, else one already there (a direct room with the roller
// alone when there is no GM, or a room this bot made for them, found by
// its secretMarker: a creation cut short by a crash or by an error answer
// that came after the homeserver made the room), else a new one (encrypted
// when origin is). Creating is bounded (secretRoomAttempts within
// Config.SecretRoomFor) and looks again for the room before each retry:
// CreateRoom is not idempotent. It runs in origin's worker: other rooms
// are answered meanwhile.
func (a *Adapter) secretRoom(ctx context.Context, origin id.RoomID, roller id.UserID, namedGMs []string) (id.RoomID, error) {
	wanted := []id.UserID{roller}
	seen := map[id.UserID]bool{roller: true, a.cli.UserID: true}
	gms := a.gms(ctx, origin)
	for _, s := range namedGMs { // GMs named with /gm add
		if u := id.UserID(s); strings.HasPrefix(s, "@") && strings.Contains(s, ":") {
			gms = append(gms, u)
		}
	}
	for _, gm := range gms {
		if !seen[gm] {
			seen[gm] = true
			wanted = append(wanted, gm)
		}
	}
	key := keySecret(origin, roller)
	v, ok, err := a.state.State(ctx, key)
	if err != nil {
		return "", fmt.Errorf("load secret room: %w", err)
	}
	if ok && v != "" {
		room := id.RoomID(v)
		if me, err := a.cli.StateStore.GetMember(ctx, room, a.cli.UserID); err == nil && me != nil && me.Membership == event.MembershipJoin {
			a.inviteMissing(ctx, room, wanted)
			return room, nil
		}
	}
	use := func(room id.RoomID) (id.RoomID, error) {
		if err := a.state.SetState(ctx, key, string(room)); err != nil {
			return "", fmt.Errorf("save secret room: %w", err)
		}
		a.inviteMissing(ctx, room, wanted)
		return room, nil
	}
	if room := a.findSecretRoom(ctx, origin, roller, wanted); room != "" {
		return use(room)
	}
	marker := secretMarker{Origin: origin, Roller: roller}
	req := &mautrix.ReqCreateRoom{Preset: "private_chat", Name: "🎲 Zaria", Invite: wanted, IsDirect: len(wanted) == 1,
		InitialState: []*event.Event{{Type: secretMarkerType, StateKey: ptr(""), Content: event.Content{Parsed: &marker}}}}
	if enc, _ := a.cli.StateStore.IsEncrypted(ctx, origin); enc && a.crypto != nil {
		req.InitialState = append(req.InitialState, &event.Event{
			Type:    event.StateEncryption,
			Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}},
		})
	}
	cctx, cancel := context.WithTimeout(ctx, a.cfg.SecretRoomFor)
	defer cancel()
	bo := a.newBackoff()
	for attempt := 1; ; attempt++ {
		resp, err := a.cli.CreateRoom(cctx, req)
		if err == nil {
			return use(resp.RoomID)
		}
		if !temporary(err) || attempt >= secretRoomAttempts || cctx.Err() != nil {
			return "", fmt.Errorf("create secret room (attempt %d of %d): %w", attempt, secretRoomAttempts, err)
		}
		wait, limited := retryAfter(err)
		if limited {
			a.rateLimited(ctx)
		}
		a.log.Debug("create secret room failed; looking for it before trying again", "room", origin, "attempt", attempt, "err", err)
		if !sleep(cctx, bo.After(wait, limited)) {
			return "", fmt.Errorf("create secret room: gave up after %v: %w", a.cfg.SecretRoomFor, err)
		}
		if room := a.findSecretRoom(cctx, origin, roller, wanted); room != "" {
			return use(room)
		}
	}
}

// secretRoomAttempts bounds the CreateRoom calls for one secret room.
const secretRoomAttempts = 4

// maxRoomScan bounds how many of the bot's rooms findSecretRoom looks at.
const maxRoomScan = 500

// secretMarkerType is the state event that marks a secret-roll room with
// the room and the roller it is for.
var secretMarkerType = event.Type{Type: "org.zaria.secret", Class: event.StateEventType}

type secretMarker struct {
	Origin id.RoomID `json:"origin"`
	Roller id.UserID `json:"roller"`
}

func ptr[T any](v T) *T { return &v }

// findSecretRoom looks among the bot's rooms for one that can take
// roller's secret rolls of origin: marked for them, or (no GM to add) a
// direct room with the roller alone.
func (a *Adapter) findSecretRoom(ctx context.Context, origin id.RoomID, roller id.UserID, wanted []id.UserID) id.RoomID {
	joined, err := a.cli.JoinedRooms(ctx)
	if err != nil {
		a.log.Warn("list joined rooms", "err", err)
		return ""
	}
	want := map[id.UserID]bool{a.cli.UserID: true}
	for _, u := range wanted {
		want[u] = true
	}
	for i, room := range joined.JoinedRooms {
		if i >= maxRoomScan || ctx.Err() != nil {
			break
		}
		if room == origin {
			continue
		}
		members, _ := a.cli.StateStore.GetRoomJoinedOrInvitedMembers(ctx, room)
		if len(members) > 0 {
			same := len(members) <= len(want)
			for _, m := range members {
				same = same && want[m]
			}
			if !same {
				continue // someone else is in it
			}
			if len(wanted) == 1 && len(members) == 2 {
				if d, _, _ := a.state.State(ctx, keyDirect(room)); d == "1" {
					return room
				}
			}
		}
		var m secretMarker
		if err := a.cli.StateEvent(ctx, room, secretMarkerType, "", &m); err == nil && m.Origin == origin && m.Roller == roller {
			return room
		}
	}
	return ""
}

// inviteMissing invites those of wanted who are neither in room nor invited.
func (a *Adapter) inviteMissing(ctx context.Context, room id.RoomID, wanted []id.UserID) {
	for _, u := range wanted {
		m, err := a.cli.StateStore.GetMember(ctx, room, u)
		if err == nil && m != nil && (m.Membership == event.MembershipJoin || m.Membership == event.MembershipInvite) {
			continue
		}
		if _, err := a.cli.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: u}); err != nil {
			a.log.Warn("invite to secret room", "room", room, "user", u, "err", err)
		} else if err := a.cli.StateStore.SetMembership(ctx, room, u, event.MembershipInvite); err != nil {
			a.log.Warn("cache membership", "room", room, "err", err)
		}
	}
}

// gms lists the members of room with a power level that makes them GMs.
func (a *Adapter) gms(ctx context.Context, room id.RoomID) []id.UserID {
	pl, err := a.powerLevels(ctx, room)
	if err != nil || pl == nil {
		return nil
	}
	members, err := a.cli.StateStore.GetRoomJoinedOrInvitedMembers(ctx, room)
	if err != nil {
		a.log.Warn("list members", "room", room, "err", err)
		return nil
	}
	var out []id.UserID
	for _, m := range members {
		if m != a.cli.UserID && pl.GetUserLevel(m) >= gmLevel {
			out = append(out, m)
		}
	}
	return out
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
	mime := f.MIME
	if mime == "" {
		mime = "application/octet-stream"
	}
	c := &event.MessageEventContent{MsgType: event.MsgFile, Body: f.Name, FileName: f.Name, Info: &event.FileInfo{MimeType: mime, Size: len(f.Data)}}
	if err := a.upload(ctx, t.room, c, f.Data, mime, f.Name); err != nil {
		return err
	}
	relate(c, t)
	_, err := a.send(ctx, t.room, event.EventMessage, c, a.txnID(t.txn, "file"))
	return err
}
