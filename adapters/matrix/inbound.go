package matrix

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/cryptohelper"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/actions"
	ajournal "zaria/adapters/internal/journal"
	"zaria/core"
	"zaria/core/reply"
)

// The inbound side: a room's event becomes the core's Message
// (onMessage: a command, a typed pad line "!2", a file's text) or a press
// of a button's Action (onReaction, onRedaction: a reaction that stands
// for it). It reads the room through the Matrix client (members, power
// levels, replied-to files, the bot's own messages' buttons), asks the
// core through inPort, and hands every answer to the outbound side
// (outbound.go), which records it before sending it. The journal says
// what was handled; the connection (Adapter) only queues each event in
// its room (rooms.go) and calls the handler.

// inPort is what the inbound side asks the core: the command's answer, a
// press's, whether a text is a command here (a typed line's prefix, a
// file's caption), whether a command takes a file, and its own texts.
type inPort interface {
	Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool)
	Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool)
	Recognize(ctx context.Context, msg core.Message) (name string, ok bool)
	TakesFile(text string) bool
	Text(lang, key string, kv ...any) string
}

// replyLook is what the inbound side asks of the connection for an event
// a dead run may have answered: whether its reply is in the room
// (outbox.go).
type replyLook interface {
	replyOut(ctx context.Context, evt *event.Event) bool
}

// inbound handles the rooms' events.
type inbound struct {
	cfg     Config
	d       inPort
	out     *outbound
	look    replyLook
	cli     *mautrix.Client // set once logged in, before any event
	crypto  *cryptohelper.CryptoHelper
	state   StateStore
	journal *journal
	acts    *actions.Store
	log     *slog.Logger
	grace   time.Duration // shutdownGrace (shorter in tests)
}

// gmLevel is the room power level that makes a GM (moderators and admins).
const gmLevel = 50

// fresh reports whether a timeline event is new enough to answer.
func (in *inbound) fresh(ctx context.Context, evt *event.Event) bool {
	if evt.Sender == in.cli.UserID || evt.Mautrix.EventSource&event.SourceTimeline == 0 {
		return false
	}
	joined, err := in.journal.joinedAt(ctx, evt.RoomID)
	if err != nil {
		in.log.Error("journal", "room", evt.RoomID, "err", err)
		return false
	}
	return evt.Timestamp >= joined
}

// take starts the handling of evt: not while stopping (the next run
// answers it), with a context that outlives a stop by the grace period,
// and only for an event this run has not already answered (fresh). The
// caller calls cancel when ok.
func (in *inbound) take(ctx context.Context, evt *event.Event) (context.Context, context.CancelFunc, bool) {
	if ctx.Err() != nil {
		return ctx, nil, false
	}
	ctx, cancel := detach(ctx, in.grace)
	if !in.fresh(ctx, evt) {
		cancel()
		return ctx, nil, false
	}
	return ctx, cancel, true
}

// onMessage answers commands.
func (in *inbound) onMessage(ctx context.Context, evt *event.Event) {
	ctx, cancel, ok := in.take(ctx, evt)
	if !ok {
		return
	}
	defer cancel()
	j, ok := in.begin(ctx, evt)
	if !ok {
		return
	}
	defer in.finish(ctx, evt, &j)
	content := evt.Content.AsMessage()
	text, ok := in.commandText(ctx, evt, content)
	if !ok {
		j.done = true
		return
	}
	if prefix, n, ok := in.typedLine(ctx, evt, text); ok && in.pressTyped(ctx, evt, content, prefix, n, &j) {
		return
	}
	t := target{room: evt.RoomID, replyTo: evt.ID, mention: evt.Sender, thread: threadOf(content), txn: evt.ID}
	if rel := content.OptionalGetRelatesTo(); rel != nil && rel.Type == event.RelReplace {
		// An edit (RerunEdits) carries no thread: the edited event does.
		t.thread = in.threadOfEvent(ctx, evt.RoomID, rel.EventID)
	}
	start := time.Now()
	var dispatched time.Duration // 0 for a recorded reply sent again
	in.out.answer(ctx, t, evt.Timestamp, &j, func() (*reply.Reply, bool) {
		msg := in.coreMessage(ctx, evt.RoomID, evt.Sender, evt.ID, text)
		msg.Sent = time.UnixMilli(evt.Timestamp)
		rep, ok := in.d.Dispatch(ctx, msg)
		dispatched = time.Since(start)
		return rep, ok
	})
	in.log.Debug("answered", "room", evt.RoomID, "event", evt.ID, "dispatch", dispatched, "total", time.Since(start))
}

// maxTypedDigits bounds the number of a typed "!n": "!100" is still taken
// (and told the pad's range), "!2026" is left alone.
const maxTypedDigits = 3

// typedLine reads the short form of a pad press, "!2": a command prefix of
// the room (symbols only; the core's Recognize decides whether they are
// one here: "/", "!" or the room's own) and a number, nothing else.
// "!2d6", "! 2", "!2 x" and "!pj set strength 4" are not it; they go on as
// any text does.
func (in *inbound) typedLine(ctx context.Context, evt *event.Event, text string) (prefix string, n int, ok bool) {
	text = strings.TrimSpace(text)
	digits := len(text) - len(strings.TrimRightFunc(text, func(r rune) bool { return r >= '0' && r <= '9' }))
	if digits == 0 || digits > maxTypedDigits || digits == len(text) {
		return "", 0, false
	}
	n, err := strconv.Atoi(text[len(text)-digits:])
	if err != nil {
		return "", 0, false
	}
	prefix = text[:len(text)-digits]
	if strings.IndexFunc(prefix, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) }) >= 0 {
		return "", 0, false // "!pj set strength 4": a prefix is symbols only
	}
	// A command word starts with a letter, so "!2" itself is no command:
	// ask whether the same prefix before a word would be one here.
	probe := core.Message{Chat: chatOf(evt.RoomID), From: core.User{ID: string(evt.Sender)}, Text: prefix + "pad"}
	if _, ok := in.d.Recognize(ctx, probe); !ok {
		return "", 0, false
	}
	return prefix, n, true
}

// pressTyped presses line n of the pad a typed "!n" means, as its sender,
// in answer to that message: the pad it replies to, else the newest pad
// the bot posted in the same thread (or main timeline) for the sender,
// else the newest posted there for anyone. A list of choices counts only
// when replied to. taken=false: there is no pad there, the text goes on
// as any other. A number past the pad's lines gets a short notice.
func (in *inbound) pressTyped(ctx context.Context, evt *event.Event, content *event.MessageEventContent, prefix string, n int, j *job) (taken bool) {
	thread := threadOf(content)
	set, ok := in.typedPad(ctx, evt.RoomID, thread, evt.Sender, content.RelatesTo.GetNonFallbackReplyTo())
	if !ok {
		return false
	}
	t := target{room: evt.RoomID, replyTo: evt.ID, mention: evt.Sender, thread: thread, txn: evt.ID}
	acts := lines(set)
	if n < 1 || n > len(acts) {
		lang := in.out.lang(ctx, evt.RoomID)
		in.out.answer(ctx, t, evt.Timestamp, j, func() (*reply.Reply, bool) {
			return reply.Warning(lang, in.d.Text(lang, "mx.pad.no_line",
				"got", n, "first", prefix+"1", "last", prefix+strconv.Itoa(len(acts)))), true
		})
		return true
	}
	in.press(ctx, evt, acts[n-1], t, j)
	return true
}

// typedPad is the pad a typed "!n" in room's thread presses (see
// pressTyped).
func (in *inbound) typedPad(ctx context.Context, room id.RoomID, thread id.EventID, sender id.UserID, replyTo id.EventID) (actions.Set, bool) {
	if replyTo != "" {
		if set, ok := in.padOf(ctx, room, replyTo); ok {
			return set, true
		}
	}
	for _, u := range []id.UserID{sender, ""} {
		v, ok, err := in.state.State(ctx, keyLastPad(room, thread, u))
		if err != nil {
			in.log.Error("load newest pad", "room", room, "err", err)
		}
		if !ok || v == "" {
			continue
		}
		if set, ok := in.padOf(ctx, room, id.EventID(v)); ok {
			return set, true
		}
	}
	return actions.Set{}, false
}

// job is one event being handled, as the journal knows it.
type job struct {
	crashes int  // runs that died handling it
	unsure  bool // an earlier run started it: its reply may be out
	done    bool // handled: recorded as answered when the handler returns
}

// begin records durably that evt is being handled, before anything is done
// for it. ok=false: evt is not to be handled (already answered, or
// poisoned, which begin deals with).
func (in *inbound) begin(ctx context.Context, evt *event.Event) (job, bool) {
	seen, crashes, unsure, err := in.journal.begin(ctx, evt.RoomID, evt.ID)
	if err != nil {
		in.log.Error("journal", "room", evt.RoomID, "event", evt.ID, "err", err)
	}
	if seen {
		return job{}, false
	}
	if crashes >= ajournal.MaxCrashes {
		in.poisoned(ctx, evt)
		return job{}, false
	}
	return job{crashes: crashes, unsure: unsure}, true
}

// finish records the outcome of a job: answered, or (stopping with the
// reply maybe not out) left for the next run, not counted as a crash.
func (in *inbound) finish(ctx context.Context, evt *event.Event, j *job) {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	var err error
	if j.done {
		err = in.journal.mark(wctx, evt.RoomID, evt.ID)
	} else {
		err = in.journal.interrupted(wctx, evt.RoomID)
	}
	if err != nil {
		in.log.Error("journal", "room", evt.RoomID, "event", evt.ID, "err", err)
	}
}

// poisoned gives up an event that was being handled each of the last
// MaxCrashes times the process died: it is logged (room and event only,
// never its text) and the room gets a short apology in its language.
func (in *inbound) poisoned(ctx context.Context, evt *event.Event) {
	in.log.Warn("skipping an event that was being handled when the bot died, twice", "room", evt.RoomID, "event", evt.ID, "crashes", ajournal.MaxCrashes)
	lang := in.out.lang(ctx, evt.RoomID)
	if in.look.replyOut(ctx, evt) {
		// Its reply is out (it was the kills, not the event): no apology.
		if err := in.journal.mark(ctx, evt.RoomID, evt.ID); err != nil {
			in.log.Error("journal", "room", evt.RoomID, "event", evt.ID, "err", err)
		}
		return
	}
	rep := reply.Warning(lang, in.d.Text(lang, "mx.poison.skipped"))
	t := target{room: evt.RoomID, replyTo: evt.ID, txn: evt.ID + "|poison"}
	_ = in.out.deliver(ctx, t, rep) // logged there
	if err := in.journal.mark(ctx, evt.RoomID, evt.ID); err != nil {
		in.log.Error("journal", "room", evt.RoomID, "event", evt.ID, "err", err)
	}
}

// chatOf is the core's name of a room.
func chatOf(room id.RoomID) core.ChatRef {
	return core.ChatRef{Platform: "matrix", ID: string(room)}
}

// threadOfEvent is the thread root of the event evtID of room, "" when it
// is in no thread (or cannot be fetched). Its relation is read from the
// event as the homeserver has it: in an encrypted room too, m.relates_to
// stays in clear.
func (in *inbound) threadOfEvent(ctx context.Context, room id.RoomID, evtID id.EventID) id.EventID {
	if evtID == "" {
		return ""
	}
	evt, err := in.cli.GetEvent(ctx, room, evtID)
	if err != nil {
		in.log.Debug("fetch edited event", "room", room, "event", evtID, "err", err)
		return ""
	}
	rel, _ := evt.Content.Raw["m.relates_to"].(map[string]any)
	if t, _ := rel["rel_type"].(string); t == string(event.RelThread) {
		root, _ := rel["event_id"].(string)
		return id.EventID(root)
	}
	return ""
}

func threadOf(content *event.MessageEventContent) id.EventID {
	if rel := content.OptionalGetRelatesTo(); rel != nil && rel.Type == event.RelThread {
		return rel.EventID
	}
	return ""
}

// commandText extracts what the router should see, or ok=false for messages
// the bot ignores: notices (other bots), edits (unless configured), emotes.
func (in *inbound) commandText(ctx context.Context, evt *event.Event, content *event.MessageEventContent) (string, bool) {
	if rel := content.OptionalGetRelatesTo(); rel != nil && rel.Type == event.RelReplace {
		if !in.cfg.RerunEdits || content.NewContent == nil {
			return "", false
		}
		content = content.NewContent
	}
	switch content.MsgType {
	case event.MsgText:
		replyTo := content.RelatesTo.GetNonFallbackReplyTo()
		content.RemoveReplyFallback()
		text, ok := in.stripMention(ctx, evt.RoomID, content.Body)
		if !ok || replyTo == "" || strings.ContainsAny(strings.TrimSpace(text), " \n\t") || !in.takesFile(ctx, evt, text) {
			return text, ok
		}
		// A bare command that takes a file answering one ("!importar" as
		// a reply to the export) takes the file's text as its argument.
		if file := in.fileEvent(ctx, evt.RoomID, replyTo); file != nil {
			return in.withFile(ctx, evt, text, file), true
		}
		return text, true
	case event.MsgFile:
		caption := content.GetCaption()
		if caption == "" && content.FileName == "" && isCommand(content.Body) {
			caption = content.Body // a client that puts the command in body
		}
		caption, ok := in.stripMention(ctx, evt.RoomID, caption)
		if !ok || caption == "" {
			return "", false
		}
		if !in.takesFile(ctx, evt, caption) {
			return caption, true // a command that takes no file: the caption alone
		}
		return in.withFile(ctx, evt, caption, content), true
	}
	return "", false
}

// takesFile asks the core whether text is a command of this room (its own
// prefix counts) whose input is an attached file's text.
func (in *inbound) takesFile(ctx context.Context, evt *event.Event, text string) bool {
	name, ok := in.d.Recognize(ctx, core.Message{Chat: chatOf(evt.RoomID), From: core.User{ID: string(evt.Sender)}, Text: text})
	return ok && name != "" && in.d.TakesFile("/"+name)
}

// withFile appends the text of an attached file to a command.
func (in *inbound) withFile(ctx context.Context, evt *event.Event, text string, file *event.MessageEventContent) string {
	data, err := in.download(ctx, file)
	if err != nil {
		in.log.Warn("read attached file", "room", evt.RoomID, "event", evt.ID, "err", err)
		return text
	}
	return text + "\n" + data
}

// fileEvent fetches (and decrypts) the event evtID of room if it is an m.file.
func (in *inbound) fileEvent(ctx context.Context, room id.RoomID, evtID id.EventID) *event.MessageEventContent {
	evt, err := in.cli.GetEvent(ctx, room, evtID)
	if err != nil {
		in.log.Warn("fetch replied-to event", "room", room, "event", evtID, "err", err)
		return nil
	}
	evt.RoomID = room
	evt.Type.Class = event.MessageEventType
	if evt.Type.Type == event.EventEncrypted.Type && in.crypto != nil {
		if err := evt.Content.ParseRaw(evt.Type); err != nil {
			return nil
		}
		if evt, err = in.crypto.Decrypt(ctx, evt); err != nil {
			in.log.Warn("decrypt replied-to event", "room", room, "event", evtID, "err", err)
			return nil
		}
	} else if err := evt.Content.ParseRaw(evt.Type); err != nil {
		return nil
	}
	c, ok := evt.Content.Parsed.(*event.MessageEventContent)
	if !ok || c.MsgType != event.MsgFile {
		return nil
	}
	return c
}

// stripMention turns "Zaria: !roll 2d6" into "!roll 2d6" (and "Zaria: roll
// 2d6" into "/roll 2d6"); other text is passed on as is. ok=false for a
// bare mention.
func (in *inbound) stripMention(ctx context.Context, room id.RoomID, text string) (string, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", false
	}
	names := []string{string(in.cli.UserID), in.cli.UserID.Localpart()}
	if m, err := in.cli.StateStore.GetMember(ctx, room, in.cli.UserID); err == nil && m != nil && m.Displayname != "" {
		names = append(names, m.Displayname)
	}
	lower := strings.ToLower(text)
	for _, n := range names {
		n = strings.ToLower(strings.TrimPrefix(n, "@"))
		rest := strings.TrimPrefix(lower, "@")
		if !strings.HasPrefix(rest, n) {
			continue
		}
		cut := len(text) - len(rest) + len(n)
		after := text[cut:]
		if after != "" && !strings.ContainsAny(after[:1], ":, \t\n") {
			continue // "zariabot" is not a mention of "zaria"
		}
		after = strings.TrimLeft(after, ":, \t\n")
		if after == "" {
			return "", false
		}
		if r, _ := utf8.DecodeRuneInString(after); unicode.IsLetter(r) || unicode.IsDigit(r) {
			after = "/" + after // "Zaria: roll 2d6"; ".roll" keeps a room's own prefix
		}
		return after, true
	}
	return text, true
}

// download fetches (and decrypts) a small text attachment.
func (in *inbound) download(ctx context.Context, content *event.MessageEventContent) (string, error) {
	if content.Info != nil && int64(content.Info.Size) > in.cfg.MaxImportBytes {
		return "", fmt.Errorf("file of %d bytes is over the %d limit", content.Info.Size, in.cfg.MaxImportBytes)
	}
	url := content.URL
	if content.File != nil {
		url = content.File.URL
	}
	uri, err := url.Parse()
	if err != nil {
		return "", fmt.Errorf("file url: %w", err)
	}
	resp, err := in.cli.Download(ctx, uri)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, in.cfg.MaxImportBytes+1))
	if err != nil {
		return "", fmt.Errorf("download: %w", err)
	}
	if int64(len(data)) > in.cfg.MaxImportBytes {
		return "", fmt.Errorf("file over the %d bytes limit", in.cfg.MaxImportBytes)
	}
	if content.File != nil {
		if err := content.File.DecryptInPlace(data); err != nil {
			return "", fmt.Errorf("decrypt file: %w", err)
		}
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("file is not UTF-8 text")
	}
	return string(data), nil
}

// coreMessage builds the router's view of a message.
func (in *inbound) coreMessage(ctx context.Context, room id.RoomID, sender id.UserID, evtID id.EventID, text string) core.Message {
	name := sender.Localpart()
	if m, err := in.cli.StateStore.GetMember(ctx, room, sender); err == nil && m != nil && m.Displayname != "" {
		name = m.Displayname
	}
	direct, _, err := in.state.State(ctx, keyDirect(room))
	if err != nil {
		in.log.Error("load direct flag", "room", room, "err", err)
	}
	return core.Message{
		Chat:    core.ChatRef{Platform: "matrix", ID: string(room)},
		From:    core.User{ID: string(sender), Name: name},
		ID:      string(evtID),
		Text:    text,
		Private: direct == "1",
		FromGM:  in.powerLevel(ctx, room, sender) >= gmLevel,
	}
}

// powerLevel is user's power level in room (0 when unknown).
func (in *inbound) powerLevel(ctx context.Context, room id.RoomID, user id.UserID) int {
	pl, err := in.powerLevels(ctx, room)
	if err != nil || pl == nil {
		return 0
	}
	return pl.GetUserLevel(user)
}

func (in *inbound) powerLevels(ctx context.Context, room id.RoomID) (*event.PowerLevelsEventContent, error) {
	pl, err := in.cli.StateStore.GetPowerLevels(ctx, room)
	if err == nil && pl != nil {
		return pl, nil
	}
	pl = &event.PowerLevelsEventContent{}
	if err := in.cli.StateEvent(ctx, room, event.StatePowerLevels, "", pl); err != nil {
		in.log.Warn("fetch power levels", "room", room, "err", err)
		return nil, err
	}
	if err := in.cli.StateStore.SetPowerLevels(ctx, room, pl); err != nil {
		in.log.Warn("cache power levels", "room", room, "err", err)
	}
	return pl, nil
}

// onReaction resolves a reaction to one of the bot's replies through
// core.Port.Press: 🎲 runs the roll again as the reactor, 📊 shows the odds
// of that roll (its total marked, nothing rolled), a keycap presses that
// line of a pad, a line's own symbol (▶ ⏹ under the turn order) that line.
func (in *inbound) onReaction(ctx context.Context, evt *event.Event) {
	ctx, cancel, ok := in.take(ctx, evt)
	if !ok {
		return
	}
	defer cancel()
	rel := evt.Content.AsReaction().RelatesTo
	key := strings.ReplaceAll(rel.Key, "\ufe0f", "")
	if rel.Type != event.RelAnnotation || (key != againKey && key != oddsKey && keycapNumber(key) == 0 && symbolOf(key) == "") {
		return
	}
	j, ok := in.begin(ctx, evt)
	if !ok {
		return
	}
	defer in.finish(ctx, evt, &j)
	j.done = true // until a reply is sent
	in.tap(ctx, evt, rel.EventID, key, &j, true)
}

// onRedaction answers a user taking back their own reaction to the bot:
// in Element a second tap on one's reaction redacts it, and each tap is a
// press (a third tap reacts again, and presses again). Only a reaction the
// bot answered as a press that repeats counts, by the user who reacted (a
// moderator removing someone's reaction presses nothing): a pad's keycap
// and 🎲 press again; 📊 does not (the same odds a second time tell nothing
// new; reacting again shows them).
func (in *inbound) onRedaction(ctx context.Context, evt *event.Event) {
	ctx, cancel, ok := in.take(ctx, evt)
	if !ok {
		return
	}
	defer cancel()
	redacts := evt.Redacts
	if redacts == "" { // room version 11 puts it in the content
		if c, ok := evt.Content.Parsed.(*event.RedactionEventContent); ok {
			redacts = c.Redacts
		}
	}
	if redacts == "" {
		return
	}
	rec, ok, err := in.journal.tap(ctx, redacts)
	if err != nil {
		in.log.Error("journal", "room", evt.RoomID, "event", evt.ID, "err", err)
	}
	if !ok || rec.By != evt.Sender || rec.Room != evt.RoomID {
		return
	}
	j, ok := in.begin(ctx, evt)
	if !ok {
		return
	}
	defer in.finish(ctx, evt, &j)
	j.done = true // until a reply is sent
	in.tap(ctx, evt, rec.On, rec.Key, &j, false)
	if j.done {
		if err := in.journal.forgetTap(ctx, redacts); err != nil {
			in.log.Error("journal", "room", evt.RoomID, "event", evt.ID, "err", err)
		}
	}
}

// tap presses what the reaction key (without variation selectors) under
// the bot's message on stands for, as evt's sender: evt is the reaction,
// or the redaction of one. remember records the reaction (tapRecord), so
// that taking it back presses again.
func (in *inbound) tap(ctx context.Context, evt *event.Event, on id.EventID, key string, j *job, remember bool) {
	t := target{room: evt.RoomID, replyTo: on, mention: evt.Sender, txn: evt.ID}
	set, ok := in.buttonsOn(ctx, evt.RoomID, on)
	if !ok {
		return
	}
	var act reply.Action
	thread, syms := parseView(set.View)
	switch n := keycapNumber(key); {
	case n > 0:
		acts := lines(set)
		if n > len(acts) {
			return
		}
		act = acts[n-1]
	case symbolOf(key) != "":
		// A line's own symbol (the turn order's ▶ and ⏹).
		acts := lines(set)
		for i, s := range syms {
			if s != "" && s == strings.ReplaceAll(key, "\ufe0f", "") && i < len(acts) {
				act = acts[i]
				break
			}
		}
		if act.Kind == "" {
			return
		}
	default:
		// 🎲 runs the roll again; 📊 shows the odds of that roll, its
		// total marked: nothing is rolled.
		want := map[string]reply.ActionKind{againKey: reply.ActAgain, oddsKey: reply.ActOdds}[key]
		for _, b := range set.Actions {
			if b.Kind == want {
				act = b
				break
			}
		}
		if act.Kind == "" {
			return
		}
	}
	t.thread = thread
	if remember && key != oddsKey {
		// Before the press: a crash after it must not lose the record.
		err := in.journal.saveTap(ctx, evt.ID, tapRecord{Room: evt.RoomID, On: on, Key: key, By: evt.Sender})
		if err != nil {
			in.log.Error("journal", "room", evt.RoomID, "event", evt.ID, "err", err)
		}
	}
	in.press(ctx, evt, act, t, j)
}

// press hands a pressed button's Action to the core for evt's sender and
// delivers the answer to t: the core decides who may press it.
func (in *inbound) press(ctx context.Context, evt *event.Event, act reply.Action, t target, j *job) {
	in.out.answer(ctx, t, evt.Timestamp, j, func() (*reply.Reply, bool) {
		msg := in.coreMessage(ctx, evt.RoomID, evt.Sender, evt.ID, "")
		msg.Sent = time.UnixMilli(evt.Timestamp)
		msg.Prefix = "!"
		return in.d.Press(ctx, msg, act)
	})
}

// buttonsOn is the Set of the buttons of the bot's message msg: kept in
// the action store when it was sent (a pad's), else read from the message
// itself (it carries its Set, so a crash between the send and the store
// loses nothing). Messages of earlier versions carry a re-roll or a pad
// record instead, read by the store's one translation of them.
func (in *inbound) buttonsOn(ctx context.Context, room id.RoomID, msg id.EventID) (actions.Set, bool) {
	for _, key := range []string{keyPad(msg), keyAgain(msg)} {
		if set, ok := in.acts.GetAt(ctx, key); ok {
			return set, true
		}
	}
	raw, ok := in.ownContent(ctx, room, msg)
	if !ok {
		return actions.Set{}, false
	}
	if v, ok := raw[buttonsField].(string); ok {
		return actions.DecodeSet(v)
	}
	for _, field := range []string{againField, padField} {
		if v, ok := raw[field]; ok {
			b, err := json.Marshal(v)
			if err != nil {
				return actions.Set{}, false
			}
			return actions.DecodeSet(string(b))
		}
	}
	return actions.Set{}, false
}

// padOf is the Set of a message of the bot that has lines (a pad, a list
// of choices).
func (in *inbound) padOf(ctx context.Context, room id.RoomID, msg id.EventID) (actions.Set, bool) {
	set, ok := in.buttonsOn(ctx, room, msg)
	return set, ok && len(lines(set)) > 0
}

// ownContent is the raw content of the bot's own event evtID (fetched
// and decrypted).
func (in *inbound) ownContent(ctx context.Context, room id.RoomID, evtID id.EventID) (map[string]any, bool) {
	evt, err := in.cli.GetEvent(ctx, room, evtID)
	if err != nil || evt.Sender != in.cli.UserID {
		return nil, false
	}
	evt.RoomID = room
	evt.Type.Class = event.MessageEventType
	if err := evt.Content.ParseRaw(evt.Type); err != nil {
		return nil, false
	}
	if evt.Type.Type == event.EventEncrypted.Type && in.crypto != nil {
		if evt, err = in.crypto.Decrypt(ctx, evt); err != nil {
			return nil, false
		}
	}
	return evt.Content.Raw, true
}

// shutdownGrace is how long a reply being sent when the adapter stops gets
// to finish. Cutting a send short is worse than waiting: the homeserver may
// have stored the event without remembering the transaction id, and the
// next run would then answer a second time.
const shutdownGrace = 5 * time.Second // Adapter.grace

// detach returns a context that ends at most grace after ctx ends. Called
// on a context already ended, it ends at once: the grace is for work begun
// before the stop, not for work taken after it.
func detach(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	dctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if ctx.Err() != nil {
		cancel()
		return dctx, cancel
	}
	var timer *time.Timer
	var mu sync.Mutex
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		timer = time.AfterFunc(grace, cancel)
		mu.Unlock()
	})
	return dctx, func() {
		stop()
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel()
	}
}

// Reactions that stand for a reply's buttons: againKey re-runs the roll,
// oddsKey runs it with its odds shown.
const (
	againKey = "🎲"
	oddsKey  = "📊"
)

// keycaps are the reactions that stand for a pad's first buttons, in
// order (Matrix has no buttons): 1️⃣ presses the first.
var keycaps = []string{"1\ufe0f\u20e3", "2\ufe0f\u20e3", "3\ufe0f\u20e3", "4\ufe0f\u20e3", "5\ufe0f\u20e3",
	"6\ufe0f\u20e3", "7\ufe0f\u20e3", "8\ufe0f\u20e3", "9\ufe0f\u20e3", "\U0001F51F"}

// keycapNumber is the button number (1-10) a reaction key stands for,
// with or without its variation selectors; 0 for any other key.
func keycapNumber(key string) int {
	key = strings.ReplaceAll(key, "\ufe0f", "")
	for i, k := range keycaps {
		if key == strings.ReplaceAll(k, "\ufe0f", "") {
			return i + 1
		}
	}
	return 0
}

// buttonsField is where a reply's content carries the Set of its buttons
// (actions.EncodeSet): what its reactions, and a typed "!n", press.
const buttonsField = "org.zaria.buttons"

// Where the messages of earlier versions carry their records (read by
// buttonsOn through actions.DecodeSet).
const (
	againField = "org.zaria.again"
	padField   = "org.zaria.pad"
)

// maxPadLines is how many lines of a pad (or of a list of choices) a typed
// "!n" presses: a pad's most buttons. Its first len(keycaps) have a
// keycap.
const maxPadLines = 25

func isCommand(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "!")
}
