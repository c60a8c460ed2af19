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
	"log/slog"
	"slices"
	"strings"
	"unicode/utf8"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/actions"
	ajournal "zaria/adapters/internal/journal"
	"zaria/core"
	"zaria/core/reply"
)

// The outbound side: a reply of the core becomes Matrix events. answer
// records it (the outbox, before anything is sent) and deliver sends it:
// the secret part to its courier, the notice in the room (the buttons'
// Actions inside it), the chart as a picture, the file, then, budget
// allowing, the reactions that stand for the buttons, and the room's
// status message (status.go). It reads nothing of the room and handles no
// event: the inbound side (inbound.go) hands it what to answer and where,
// and it asks the connection (roomSender), the courier (secretQueue) and
// the core (outText) through the small interfaces below. No piece calls
// back up: inbound → outbound → the homeserver.

// outText is what the outbound side asks the core: its own texts (a
// secret roll that found nobody, a missing pad line) in a language, and a
// room's language for a reply the router did not render.
type outText interface {
	Text(lang, key string, kv ...any) string
	Lang(ctx context.Context, chat core.ChatRef, hint string) string
}

// roomSender is what the outbound side asks of the connection
// (homeserver.go, outbox.go): an event sent under its transaction id
// (txnID), a file uploaded, and what an earlier run already
// sent in answer to an event.
type roomSender interface {
	send(ctx context.Context, room id.RoomID, typ event.Type, content any, txn string) (id.EventID, error)
	upload(ctx context.Context, room id.RoomID, c *event.MessageEventContent, data []byte, mime, name string) error
	alreadySent(ctx context.Context, t target, since int64) map[string]id.EventID
}

// secretQueue takes a reply's secret part for its courier (secret.go).
type secretQueue interface {
	queueSecret(ctx context.Context, t target, rep *reply.Reply) error
}

// outbound sends replies.
type outbound struct {
	cfg     Config
	text    outText
	hs      roomSender
	secret  secretQueue
	log     *slog.Logger
	state   StateStore
	journal *journal       // the outbox's bound, the newest pads
	acts    *actions.Store // what the buttons of its messages mean
	budget  *budget        // the homeserver's rate limit (reactions wait)
	// busy says a room has commands waiting for their replies (its
	// reactions then wait).
	busy   func(room id.RoomID) bool
	status statusEvents // each room's status message (status.go)
	// txnSalt goes into every transaction id: empty, except in tests that
	// prove no double answer without the homeserver's transaction memory.
	txnSalt string
}

// txnID derives a transaction id from the event being answered, so that a
// retry, even after a restart, is recognized by the homeserver and never
// shows twice.
func (o *outbound) txnID(base id.EventID, part string) string {
	sum := sha256.Sum256([]byte(o.txnSalt + string(base) + "|" + part))
	return "zaria." + hex.EncodeToString(sum[:20])
}

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

// deliver sends everything a reply holds: the secret part privately, the
// notice in the room (carrying the command it came from, for 🎲 re-rolls),
// the file; then, budget allowing, the reaction buttons. Each event names
// what it answers (answersField).
func (o *outbound) deliver(ctx context.Context, t target, rep *reply.Reply) error {
	return o.deliverRest(ctx, t, rep, nil)
}

// deliverRest is deliver without the parts already in the room (sent, by
// part, with their events; see alreadySent): a reply found there is not
// sent again, nor its secret part (queued before it), nor its reaction
// buttons.
func (o *outbound) deliverRest(ctx context.Context, t target, rep *reply.Reply, sent map[string]id.EventID) error {
	var errs []error
	replied, wasSent := sent["reply"]
	if rep.Secret != nil && !wasSent {
		// Queued for its courier: the room's notice does not wait (secret.go).
		if err := o.secret.queueSecret(ctx, t, rep); err != nil {
			errs = append(errs, fmt.Errorf("secret roll: %w", err))
			if ctx.Err() == nil {
				// The room learns that nobody got the result.
				lang := rep.Lang
				if lang == "" {
					lang = o.lang(ctx, t.room)
				}
				c := *rep
				c.Lines = append(slices.Clip(c.Lines), reply.WarningLine(o.text.Text(lang, "mx.secret.failed")))
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
		if p, err := o.chartPicture(ctx, t.room, rep.Chart); err == nil {
			pic = p
		} else {
			if ctx.Err() == nil {
				o.log.Warn("chart picture not sent; sending it as text", "room", t.room, "err", err)
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
			o.savePad(ctx, t, evtID, set)
		default:
			evtID, err = o.hs.send(ctx, t.room, event.EventMessage, content, o.txnID(t.txn, "reply"))
		}
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("reply: %w", err))
		case !wasSent:
			o.savePad(ctx, t, evtID, set) // a pad's only: a re-roll's is in the reply
			offer = keys
		}
	}
	if pic != nil {
		c := pic.content
		relate(c, t)
		if _, err := o.hs.send(ctx, t.room, event.EventMessage, withAnswers(c, t, "chart"), o.txnID(t.txn, "chart")); err != nil {
			errs = append(errs, fmt.Errorf("chart: %w", err))
		}
	}
	if _, ok := sent["file"]; rep.File != nil && !ok {
		if err := o.sendFile(ctx, t, rep.File); err != nil {
			errs = append(errs, fmt.Errorf("file: %w", err))
		}
	}
	if len(offer) > 0 && len(errs) == 0 && o.spare(t.room) {
		for _, key := range offer {
			c := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: evtID, Key: key}}
			if _, err := o.hs.send(ctx, t.room, event.EventReaction, c, o.txnID(t.txn, "offer "+key)); err != nil {
				errs = append(errs, fmt.Errorf("offer %s: %w", key, err))
				break
			}
		}
	}
	if rep.Status != nil {
		if err := o.deliverStatus(ctx, t, rep.Status); err != nil {
			errs = append(errs, fmt.Errorf("status: %w", err))
		}
	}
	err := errors.Join(errs...)
	if err != nil && ctx.Err() == nil {
		o.log.Error("deliver reply", "room", t.room, "event", t.replyTo, "err", err)
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
func (o *outbound) savePad(ctx context.Context, t target, evtID id.EventID, set actions.Set) {
	ls := lines(set)
	if len(ls) == 0 {
		return
	}
	if err := o.acts.PutAt(ctx, keyPad(evtID), set); err != nil {
		o.log.Error("save pad buttons", "room", t.room, "event", evtID, "err", err)
	}
	for _, l := range ls {
		if len(l.Values) > 0 || l.Kind == reply.ActDamage || l.Kind == reply.ActHit {
			return // a list of choices, or a hit's damage: no pad
		}
	}
	for _, u := range []id.UserID{t.mention, ""} {
		if err := o.journal.setBounded(ctx, prefixLastPad, keyLastPad(t.room, t.thread, u), string(evtID)); err != nil {
			o.log.Error("save newest pad", "room", t.room, "event", evtID, "err", err)
		}
		if u == "" {
			break
		}
	}
}

// spare says whether the reaction buttons may be sent now: always
// ("on"), never ("off"), or ("auto") only when no command of the room
// waits for its reply and the homeserver's budget has room to spare: a
// reply never waits behind a decoration.
func (o *outbound) spare(room id.RoomID) bool {
	switch o.cfg.Reactions {
	case ReactionsOn:
		return true
	case ReactionsOff:
		return false
	}
	if o.busy(room) {
		return false
	}
	return o.budget.Spare()
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

// picture is a chart drawn and uploaded, ready to send as m.image.
type picture struct{ content *event.MessageEventContent }

// chartPicture draws c and uploads it (encrypted in encrypted rooms): an
// m.image whose body is the chart in characters.
func (o *outbound) chartPicture(ctx context.Context, room id.RoomID, c *reply.Chart) (*picture, error) {
	if o.cfg.Charts == nil {
		return nil, errors.New("no chart renderer")
	}
	data, err := o.cfg.Charts.PNG(c)
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
	if err := o.hs.upload(ctx, room, content, data, "image/png", "odds.png"); err != nil {
		return nil, err
	}
	return &picture{content: content}, nil
}

// sendFile uploads f (encrypted in encrypted rooms) and sends it as m.file.
func (o *outbound) sendFile(ctx context.Context, t target, f *reply.File) error {
	return o.sendFileAs(ctx, t, f, "file")
}

// sendFileAs is sendFile with its own transaction part: the secret copy
// of a file (a session's log for the GMs) must not share the public
// file's transaction id.
func (o *outbound) sendFileAs(ctx context.Context, t target, f *reply.File, part string) error {
	mime := f.MIME
	if mime == "" {
		mime = "application/octet-stream"
	}
	c := &event.MessageEventContent{MsgType: event.MsgFile, Body: f.Name, FileName: f.Name, Info: &event.FileInfo{MimeType: mime, Size: len(f.Data)}}
	if err := o.hs.upload(ctx, t.room, c, f.Data, mime, f.Name); err != nil {
		return err
	}
	relate(c, t)
	_, err := o.hs.send(ctx, t.room, event.EventMessage, withAnswers(c, t, part), o.txnID(t.txn, part))
	return err
}

// owed is the record of a reply, written before its first send.
type owed struct {
	Reply *reply.Reply `json:"reply"`
}

// record writes rep as the reply to t.txn before anything of it is sent
// (no fsync of its own: it survives the process; the event's journal mark
// that follows is synced).
func (o *outbound) record(ctx context.Context, t target, rep *reply.Reply) {
	b, err := json.Marshal(owed{Reply: recordable(rep)})
	if err == nil {
		err = ajournal.SetLazily(ctx, o.state, keyOut(t.txn), string(b))
	}
	if err == nil {
		err = o.journal.bounded.Wrote(ctx, prefixOut)
	}
	if err != nil {
		o.log.Error("record reply", "room", t.room, "event", t.txn, "err", err)
	}
}

// recordable is rep as deliver reads it, without what no chat shows:
// Data (the CLI's --json only; a chart series' exact fractions are not
// kept either).
func recordable(rep *reply.Reply) *reply.Reply {
	if rep == nil {
		return nil
	}
	c := *rep
	c.Data = nil
	c.Secret = recordable(rep.Secret)
	c.Status = recordable(rep.Status)
	return &c
}

// recorded is the reply recorded for txn, if any.
func (o *outbound) recorded(ctx context.Context, txn id.EventID) (*reply.Reply, bool) {
	v, ok, err := o.state.State(ctx, keyOut(txn))
	if err != nil {
		o.log.Error("load recorded reply", "event", txn, "err", err)
		return nil, false
	}
	if !ok || v == "" {
		return nil, false
	}
	var w owed
	if err := json.Unmarshal([]byte(v), &w); err != nil || w.Reply == nil {
		o.log.Error("recorded reply unreadable", "event", txn, "err", err)
		return nil, false
	}
	return w.Reply, true
}

// answer delivers to t the reply to the event of j: the recorded one when
// an earlier run began it (minus what that run already sent), else the
// one decide gives, recorded first.
func (o *outbound) answer(ctx context.Context, t target, since int64, j *job, decide func() (*reply.Reply, bool)) {
	if j.unsure {
		if rep, ok := o.recorded(ctx, t.txn); ok {
			sent := o.hs.alreadySent(ctx, t, since)
			if ctx.Err() != nil {
				return // stopped while looking: the next run does it
			}
			if _, ok := sent["reply"]; ok {
				o.log.Info("a reply sent before a crash was found; not answering again", "room", t.room, "event", t.txn, "parts", len(sent))
			} else {
				o.log.Info("sending the recorded reply of a command an earlier run was answering", "room", t.room, "event", t.txn, "parts_found", len(sent))
			}
			_ = o.deliverRest(ctx, t, rep, sent) // logged there
			j.done = ctx.Err() == nil
			return
		}
		// No record: the earlier run sent nothing for it (the record
		// comes before any send).
	}
	rep, ok := decide()
	if ok && rep != nil {
		o.record(ctx, t, rep)
		_ = o.deliver(ctx, t, rep) // logged there
	}
	j.done = ctx.Err() == nil
}

// withAnswers is content c (a *event.MessageEventContent or an
// *event.Content) carrying answersField for t and part.
func withAnswers(c any, t target, part string) *event.Content {
	v := map[string]any{"event": string(t.txn), "part": part}
	switch c := c.(type) {
	case *event.Content:
		raw := map[string]any{}
		for k, x := range c.Raw {
			raw[k] = x
		}
		raw[answersField] = v
		return &event.Content{Parsed: c.Parsed, Raw: raw}
	default:
		return &event.Content{Parsed: c, Raw: map[string]any{answersField: v}}
	}
}

// symbols are the reactions a button may have as its own (reply.Button
// Symbol) instead of a keycap: the turn order's ▶ next and ⏹ end, and 🩸
// under a hit that applies its damage. A button with any other symbol
// gets a keycap.
var symbols = []string{"▶\ufe0f", "⏹\ufe0f", "🩸"}

// symbolOf is the reaction of symbols that sym stands for, "" for none.
func symbolOf(sym string) string {
	sym = strings.ReplaceAll(sym, "\ufe0f", "")
	for _, s := range symbols {
		if sym != "" && sym == strings.ReplaceAll(s, "\ufe0f", "") {
			return s
		}
	}
	return ""
}

// A Set's View is the thread of its message; when some of its lines have
// a symbol of their own, a "\n" follows, then each line's reaction
// without variation selectors ("" for a keycap), separated by " ".
func viewOf(thread id.EventID, syms []string) string {
	for _, s := range syms {
		if s != "" {
			return string(thread) + "\n" + strings.ReplaceAll(strings.Join(syms, " "), "\ufe0f", "")
		}
	}
	return string(thread)
}

// parseView reads viewOf's form back (a View of earlier versions is the
// thread alone).
func parseView(v string) (thread id.EventID, syms []string) {
	th, rest, ok := strings.Cut(v, "\n")
	if !ok {
		return id.EventID(v), nil
	}
	return id.EventID(th), strings.Split(rest, " ")
}

// mention adds the users a reply addresses (whose turn it is) to the
// notice's m.mentions, so their clients notify them.
func mention(c *event.MessageEventContent, users []string) {
	for _, u := range users {
		if len(u) > 1 && u[0] == '@' {
			if c.Mentions == nil {
				c.Mentions = &event.Mentions{}
			}
			c.Mentions.Add(id.UserID(u))
		}
	}
}

// lang is the room's language by the router's rule (its /lang setting,
// else the configured default).
func (o *outbound) lang(ctx context.Context, room id.RoomID) string {
	return o.text.Lang(ctx, chatOf(room), "")
}
