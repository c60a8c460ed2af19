package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/internal/actions"
	"zaria/adapters/internal/backoff"
	ajournal "zaria/adapters/internal/journal"
	"zaria/core"
	"zaria/core/reply"
)

// Dispatcher is what the adapter asks of the core: the part of core.Port
// (documented there as the manual for adapter authors) it cannot serve
// without. *command.Router implements it, and every optional capability
// below.
type Dispatcher interface {
	Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool)
	Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool)
	Recognize(ctx context.Context, msg core.Message) (name string, ok bool)
	Lang(ctx context.Context, chat core.ChatRef, hint string) string
	Text(lang, key string, kv ...any) string
}

// The core's optional capabilities, each checked at run time where it is
// used (as mautrix's bridgev2 does with its network connector's): a core
// without one serves the rest.
type (
	// menuLister publishes the command menu (setMyCommands); without it
	// none is published.
	menuLister interface {
		Menu(lang string) []core.MenuItem
	}
	// fileTaker tells which captions take an attached document's text
	// (/importar); without it no document is downloaded and the caption
	// is a command like any other.
	fileTaker interface {
		TakesFile(text string) bool
	}
	// recentLister lists a user's recent rolls, offered by an empty
	// inline query; without it that query lists their pad only.
	recentLister interface {
		Recent(ctx context.Context, msg core.Message, n int) []string
	}
)

// Adapter serves one Telegram bot.
type Adapter struct {
	cfg    Config
	d      Dispatcher
	state  StateStore
	log    *slog.Logger
	c      *client
	acts   *actions.Store // what the buttons mean (buttons.go)
	out    *outbox        // replies → Bot API operations (outbound.go)
	admins *admins

	now     func() time.Time // the clock, for the idle-week rule (tests)
	running atomic.Bool
	botName string
	botID   int64
	j       *journal
	poison  *ajournal.Quarantine // the work mark (poison.go)
	work    string               // its key
	send    *sender
	baseCtx context.Context // Run's context, for webhook requests
	// hard ends DrainTimeout after Run's context (the stop): work begun
	// before the stop (an update being handled, the sending) ends by then.
	hard context.Context
	whMu sync.Mutex // webhook updates are handled one at a time

	queued atomic.Int64 // replies waiting to be sent
	floods atomic.Int64 // 429 answers to sends

	saveFailing atomic.Bool // the last journal write failed (logged once)
	// unrecorded: the journal failed for longer than holdUnkept and polled
	// replies are sent without waiting for it (keep).
	unrecorded atomic.Bool

	full atomic.Int64 // webhook deliveries refused with 503 because the send queue was full
	in   *inbound     // updates → the core's messages and presses (inbound.go)
	web  *webState    // what the web companion asks of the adapter (web.go)
}

// update is an update with what the Bot API library cannot read.
type update struct {
	tgbotapi.Update
	// thread is the forum topic (message_thread_id) of the message, or of
	// the message whose button was pressed; 0 outside topics.
	thread int
}

// rawExtra is what decodeUpdates reads beside the library.
type rawExtra struct {
	Message  *topicOf `json:"message"`
	Callback *struct {
		Message *topicOf `json:"message"`
	} `json:"callback_query"`
}

// topicOf is the forum topic fields of a message: message_thread_id,
// is_topic_message and the chat's is_forum.
type topicOf struct {
	Thread int  `json:"message_thread_id"`
	Topic  bool `json:"is_topic_message"`
	Chat   struct {
		Forum bool `json:"is_forum"`
	} `json:"chat"`
}

// thread is the message's topic: its message_thread_id when it is a
// topic message, or any message_thread_id in a forum (is_forum), where
// threads are topics. Outside forums a message_thread_id is a reply
// thread, not a topic, and a send may not name it. Should Telegram not
// know the topic, the send goes without it (dropOnRefusal).
func (m *topicOf) thread() int {
	if m == nil || m.Thread <= 0 || (!m.Topic && !m.Chat.Forum) {
		return 0
	}
	return m.Thread
}

func (x rawExtra) thread() int {
	if t := x.Message.thread(); t != 0 {
		return t
	}
	if x.Callback != nil {
		return x.Callback.Message.thread()
	}
	return 0
}

// saveResult logs a failed journal write once per incident (a full disk
// would otherwise log it for every update) and its end.
func (a *Adapter) saveResult(err error, msg string) {
	switch {
	case err != nil && a.saveFailing.CompareAndSwap(false, true):
		a.log.Error(msg+"; further failures are not logged until a save works again", "err", err)
	case err != nil:
		a.log.Debug(msg, "err", err)
	case a.saveFailing.CompareAndSwap(true, false):
		a.log.Info("telegram state saved again")
	}
}

// QueueDepth is how many replies wait in the send queues (a gauge for
// /metrics; safe to call at any time).
func (a *Adapter) QueueDepth() int64 { return a.queued.Load() }

// FloodWaits is how many sends Telegram answered with 429 Too Many Requests
// since start (a counter for /metrics; safe to call at any time).
func (a *Adapter) FloodWaits() int64 { return a.floods.Load() }

// New checks the configuration and builds an adapter. It does no network
// I/O; Run does.
func New(cfg Config, d Dispatcher, state StateStore, logger *slog.Logger) (*Adapter, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if d == nil || state == nil {
		return nil, errors.New("telegram: a dispatcher and a state store are required")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logger = logger.With("adapter", "telegram")
	c := newClient(cfg.APIURL, cfg.Token, cfg.HTTPClient)
	adm := newAdmins(c, logger, cfg.AdminTTL, min(cfg.RequestTimeout, 5*time.Second))
	return &Adapter{
		cfg: cfg, d: d, state: state, log: logger, c: c,
		now:    time.Now,
		admins: adm,
		out:    &outbox{cfg: cfg, d: d, admins: adm, log: logger},
		web:    newWebState(),
	}, nil
}

// Name is the platform name.
func (a *Adapter) Name() string { return "telegram" }

// Run serves the bot until ctx ends, then keeps sending queued replies for
// at most DrainTimeout. Replies still queued then stay in the journal and
// are sent at the next start. The stop, from ctx's end to Run's return:
// fetching stops at once; an update whose handling had begun is finished
// (its writes and its reply belong together), within the drain time; no
// send starts after DrainTimeout, one in flight then gets sendGrace more;
// the last journal write gets exitFlush. With the defaults that is at most
// 8 + 1 + 1 s, inside the 10 s main allows (TestE2ETelegramSIGTERM).
func (a *Adapter) Run(ctx context.Context) error {
	if !a.running.CompareAndSwap(false, true) {
		return errors.New("telegram: Run called twice")
	}
	a.baseCtx = ctx
	me, err := a.getMe(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	a.botName, a.botID = me.UserName, me.ID
	a.j = newJournal(a.state, fmt.Sprintf("telegram.%d", me.ID), a.cfg.HandledRetention)
	a.acts = actions.New(a.state, a.j.key+".b.", a.j.key+".", a.cfg.MaxButtons, a.log)
	a.out.acts, a.out.botName = a.acts, a.botName
	a.out.state, a.out.key = a.state, a.j.key
	a.in = &inbound{cfg: a.cfg, d: a.d, out: a.out, acts: a.acts, admins: a.admins, c: a.c, log: a.log,
		state: a.state, key: a.j.key, botName: a.botName, now: a.now,
		marks: ajournal.Bounded{St: a.state, Keep: a.cfg.MaxButtons, Every: 256},
		moves: moves{m: map[int64]int64{}}}
	if err := a.j.load(ctx); err != nil {
		var cs *corruptState
		if !errors.As(err, &cs) {
			return err
		}
		a.log.Error(err.Error(), "copy", a.j.key+".unreadable")
	}
	a.work = a.j.key + ".work"
	a.poison = ajournal.New(a.state, func(_ context.Context, item string) bool {
		id, err := strconv.Atoi(item)
		return err == nil && a.j.handled(id)
	})
	crashed, n, err := a.poison.Crashed(ctx, a.work)
	if err != nil {
		return fmt.Errorf("load telegram work mark: %w", err)
	}
	if crashed != "" {
		a.log.Warn("telegram: the previous process died while handling an update", "update", crashed, "times", n)
	}
	a.log.Info("telegram bot started", "bot", a.botName, "mode", a.mode(), "offset", a.j.offset())

	hard, hardCancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hardCancel()
	startDrain := func() { time.AfterFunc(a.cfg.DrainTimeout, hardCancel) }
	stopDrain := context.AfterFunc(ctx, startDrain)
	a.hard = hard
	sendCtx, cancelSend := context.WithCancel(hard)
	defer cancelSend()
	a.send = newSender(sendCtx, a.c, a.j, a.log, a.cfg, &a.queued, &a.floods)
	a.send.now = a.now
	a.in.send = a.send
	a.send.onMigrate = func(old, new int64) { a.in.migrate(sendCtx, old, new) }
	a.send.onSlot = func(chat int64, slot string, res json.RawMessage) { a.out.statusSent(sendCtx, chat, slot, res) }
	a.send.slotID = func(chat int64, slot string) int { return a.out.statusID(sendCtx, chat, slot) }
	flushDone := make(chan struct{})
	flushCtx, stopFlush := context.WithCancel(context.WithoutCancel(ctx))
	go a.flusher(flushCtx, flushDone)

	pending := a.j.pending()
	if len(pending) > 0 {
		// The process before us may have just used this second's slots.
		a.send.notBefore = time.Now().Add(max(a.cfg.ChatInterval, a.cfg.GlobalWindow))
	}
	for _, e := range pending {
		for _, o := range e.Ops {
			if !o.Done {
				a.send.enqueue(e, o)
			}
		}
	}
	a.web.start()
	var bg sync.WaitGroup
	bg.Add(1)
	go func() {
		defer bg.Done()
		a.in.setCommands(ctx)
	}()

	if a.cfg.WebhookURL != "" {
		err = a.runWebhook(ctx)
	} else {
		err = a.poll(ctx)
	}

	if stopDrain() {
		startDrain() // the loop failed by itself: drain from now
	}
	// Drain: keep sending until the queues are empty or the drain time,
	// counted from the stop, is over.
	drained := make(chan struct{})
	go func() {
		a.send.wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-hard.Done():
		left := a.queued.Load()
		<-drained
		a.log.Warn("telegram drain time over; unsent replies stay queued for the next start", "left", left, "after", a.cfg.DrainTimeout)
	}
	bg.Wait()
	stopFlush()
	<-flushDone
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), exitFlush)
	defer cancel()
	if ferr := a.j.flush(fctx); ferr != nil {
		a.log.Error("telegram state not saved at exit", "err", ferr)
	}
	a.log.Info("telegram bot stopped", "sent", a.send.sent.Load(), "retries", a.send.retried.Load(), "undeliverable", a.send.failed.Load())
	return err
}

func (a *Adapter) mode() string {
	if a.cfg.WebhookURL != "" {
		return "webhook"
	}
	return "polling"
}

// flusher writes the journal whenever it changed, one write at a time.
// A failed write is tried again, with backoff: senders wait for it
// (waitSaved).
func (a *Adapter) flusher(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	bo := backoff.New(a.cfg.BackoffMin, a.cfg.BackoffMax)
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.j.dirty:
		}
		wait := a.cfg.SaveInterval
		if err := a.j.flush(ctx); ctx.Err() == nil {
			a.saveResult(err, "telegram state not saved")
			a.journalWritten(err)
			if err != nil {
				wait = max(wait, bo.Next())
				a.j.poke()
			} else {
				bo.Reset()
			}
		}
		// Group the marks of several deliveries into one write: each is
		// a commit with fsync, and the router's writes wait behind it.
		if backoff.Sleep(ctx, wait) != nil {
			return
		}
	}
}

// getMe asks who the bot is, retrying while the network or the server fail.
func (a *Adapter) getMe(ctx context.Context) (tgbotapi.User, error) {
	bo := backoff.New(a.cfg.BackoffMin, a.cfg.BackoffMax)
	for {
		var me tgbotapi.User
		rctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
		err := a.c.callJSON(rctx, "getMe", nil, &me)
		cancel()
		if err == nil {
			if me.UserName == "" {
				return me, errors.New("telegram getMe: the bot has no user name")
			}
			return me, nil
		}
		var ae *APIError
		if errors.As(err, &ae) && (ae.Code == http.StatusUnauthorized || ae.Code == http.StatusNotFound) {
			return me, fmt.Errorf("telegram: the bot token was refused (%d %s); check ZARIA_TELEGRAM_TOKEN", ae.Code, ae.Description)
		}
		if err := a.waitToRetry(ctx, "getMe", err, bo); err != nil {
			return me, err
		}
	}
}

// waitToRetry sleeps before retrying a failed start-up call: Telegram's
// retry_after when it gave one, else the next step of the backoff.
func (a *Adapter) waitToRetry(ctx context.Context, method string, err error, bo *backoff.Backoff) error {
	d := bo.After(retryAfter(err))
	a.log.Warn("telegram "+method+" failed, retrying", "err", err, "in", d)
	return backoff.Sleep(ctx, d)
}

// allowedUpdates are the update kinds the bot asks for.
const allowedUpdates = `["message","callback_query","inline_query","chosen_inline_result"]`

// poll is the long-polling loop.
func (a *Adapter) poll(ctx context.Context) error {
	a.deleteWebhook(ctx)
	bo := backoff.New(a.cfg.BackoffMin, a.cfg.BackoffMax)
	conflicts := 0
	for ctx.Err() == nil {
		if a.send.backlog.Load() >= int64(a.cfg.MaxQueued) {
			a.log.Info("telegram send queue full; fetching paused", "queued", a.queued.Load())
			for a.send.backlog.Load() >= int64(a.cfg.MaxQueued)*3/4 {
				if backoff.Sleep(ctx, 50*time.Millisecond) != nil {
					return nil
				}
			}
		}
		params := map[string]string{
			"offset":          itoa(int64(a.j.pollOffset(a.now()))),
			"timeout":         itoa(int64(a.cfg.PollTimeout / time.Second)),
			"limit":           "100",
			"allowed_updates": allowedUpdates,
		}
		began := time.Now()
		rctx, cancel := context.WithTimeout(ctx, a.cfg.PollTimeout+a.cfg.RequestTimeout)
		var raw []json.RawMessage
		err := a.c.callJSON(rctx, "getUpdates", params, &raw)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var wait time.Duration
			var ae *APIError
			switch d, ok := retryAfter(err); {
			case ok:
				wait = d
				a.log.Warn("telegram getUpdates flood limit", "retry_after", d)
			case errors.As(err, &ae) && ae.Code == http.StatusConflict:
				conflicts++
				wait = bo.Next()
				a.log.Error("telegram 409 Conflict: another process is polling (or a webhook is set) with this bot token; only one instance may run. Retrying.",
					"times", conflicts, "detail", ae.Description, "in", wait)
				if strings.Contains(strings.ToLower(ae.Description), "webhook") {
					a.deleteWebhook(ctx)
				}
			case errors.As(err, &ae) && (ae.Code == http.StatusUnauthorized || ae.Code == http.StatusNotFound):
				return fmt.Errorf("telegram: the bot token was refused (%d %s)", ae.Code, ae.Description)
			default:
				wait = bo.Next()
				a.log.Warn("telegram getUpdates failed, retrying", "err", err, "in", wait)
			}
			if backoff.Sleep(ctx, wait) != nil {
				return nil
			}
			continue
		}
		bo.Reset()
		conflicts = 0
		if len(raw) == 0 && time.Since(began) < a.cfg.PollTimeout/10 {
			// An empty answer long before the timeout: a server that does
			// not long-poll (an emulator, a broken proxy). Do not spin.
			if backoff.Sleep(ctx, 50*time.Millisecond) != nil {
				return nil
			}
			continue
		}
		a.process(ctx, a.decodeUpdates(raw), true)
	}
	return nil
}

// decodeUpdates decodes each update on its own: one the library cannot
// read (a newer Bot API) is kept as an empty update with its id, so the
// offset moves past it instead of fetching it forever.
func (a *Adapter) decodeUpdates(raw []json.RawMessage) []update {
	ups := make([]update, 0, len(raw))
	for _, r := range raw {
		var u update
		var x rawExtra
		if json.Unmarshal(r, &x) == nil {
			u.thread = x.thread()
		}
		if err := json.Unmarshal(r, &u.Update); err != nil {
			var id struct {
				UpdateID int `json:"update_id"`
			}
			if json.Unmarshal(r, &id) != nil || id.UpdateID == 0 {
				a.log.Error("telegram update without an id skipped", "err", err)
				continue
			}
			a.log.Error("telegram update not understood, skipped", "update", id.UpdateID, "err", err)
			u = update{Update: tgbotapi.Update{UpdateID: id.UpdateID}}
		}
		ups = append(ups, u)
	}
	return ups
}

func (a *Adapter) deleteWebhook(ctx context.Context) {
	rctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
	defer cancel()
	if _, err := a.c.call(rctx, "deleteWebhook", map[string]string{"drop_pending_updates": "false"}, nil); err != nil && ctx.Err() == nil {
		a.log.Warn("telegram deleteWebhook failed", "err", err)
	}
}

// process handles a batch of updates: dispatch, record in the journal
// (with the new offset when polling), then queue the replies. It returns
// how many updates it consumed (handled now or before); the rest are left
// for the next start because ctx ended.
func (a *Adapter) process(ctx context.Context, ups []update, polling bool) int {
	var entries []*entry
	next := 0
	consumed := 0
	for _, u := range ups {
		if ctx.Err() != nil {
			break // not handled: fetched again at the next start
		}
		take := func() {
			consumed++
			if polling && u.UpdateID+1 > next {
				next = u.UpdateID + 1
			}
		}
		if a.j.handled(u.UpdateID) {
			take()
			a.log.Debug("telegram update already handled", "update", u.UpdateID)
			continue
		}
		e := &entry{Update: u.UpdateID, thread: u.thread}
		if n, bad, _ := a.poison.Poisoned(ctx, a.work, strconv.Itoa(u.UpdateID)); bad {
			take()
			a.in.skipPoisoned(ctx, u, n, e)
			a.inThread(u, e)
			entries = append(entries, e)
			continue
		}
		if _, err := a.poison.Begin(ctx, a.work, strconv.Itoa(u.UpdateID)); err != nil {
			a.saveResult(err, "telegram work mark not saved")
			if !polling {
				return 0 // not kept: Telegram delivers it again
			}
		}
		// Begun, an update is handled to its end even when the bot is
		// stopping (its writes and its reply belong together), but no
		// longer than the drain time after the stop: unhandled, it is
		// not journaled and Telegram delivers it again.
		hctx, cancel := context.WithTimeout(a.hard, handleTimeout)
		a.handle(hctx, u, e)
		cancel()
		if a.hard.Err() != nil {
			// Not a crash; a failure only costs a crash count.
			ectx, ecancel := context.WithTimeout(context.WithoutCancel(ctx), exitFlush)
			_ = a.poison.Interrupted(ectx, a.work)
			ecancel()
			a.log.Warn("telegram update cut at the end of the drain time; it is handled again at the next start", "update", u.UpdateID)
			break
		}
		take()
		a.inThread(u, e)
		entries = append(entries, e)
	}
	if len(entries) == 0 && next == 0 {
		return consumed
	}
	if a.record(a.hard, entries, next, polling) != nil {
		return 0
	}
	return consumed
}

// record is the one way a reply goes out, for updates and a page's posts
// alike: journal the entries (with the offset next when polling), and
// only once the journal is kept queue their operations. Not kept, nothing
// of them is sent: a reply goes out only once recorded, or whatever
// handles the update again would roll it again. A webhook delivery is
// answered non-2xx and Telegram delivers it again; polling (stopping)
// leaves the offset where it was, and the next start fetches the updates
// again; a page is told its post was not kept.
func (a *Adapter) record(ctx context.Context, entries []*entry, next int, polling bool) error {
	mark := a.j.offsetMark()
	a.j.commit(entries, next, a.now())
	if err := a.keep(ctx, polling); err != nil {
		a.j.uncommit(entries)
		if polling {
			a.j.rewind(mark)
		}
		return err
	}
	for _, e := range entries {
		a.poison.Forget(a.work, strconv.Itoa(e.Update))
	}
	for _, e := range entries {
		for _, o := range e.Ops {
			a.send.enqueue(e, o)
		}
	}
	return nil
}

// holdUnkept is how long polling holds replies back while the journal
// cannot be written, retrying with backoff: a transient failure (the
// database locked, a brief I/O error) never sends an unrecorded reply.
// Past it the replies go out unrecorded (logged once), so a full disk
// does not silence the bot: reads and the "something failed" answers to
// writes keep coming (TestPollingAnswersThroughALongJournalFailure,
// TestE2EDiskFull in cmd/zaria).
const holdUnkept = 5 * time.Second

// keep writes the journal before the replies just committed are sent. A
// webhook delivery or a page's post tries once (Telegram delivers it
// again, the page is told). Polling tries for holdUnkept, fetching
// nothing meanwhile, or until ctx ends (the drain time: an error, nothing
// sent); past it, or at once while a journal failure already outlasted
// it, it reports the replies as kept although they are not: they are
// sent unrecorded, and written with the journal's next working write.
func (a *Adapter) keep(ctx context.Context, polling bool) error {
	bo := backoff.New(a.cfg.BackoffMin, a.cfg.BackoffMax)
	until := time.Now().Add(holdUnkept)
	for {
		fctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
		err := a.j.flush(fctx)
		cancel()
		a.saveResult(err, "telegram state not saved before sending; replies held")
		a.journalWritten(err)
		if err == nil || !polling {
			return err
		}
		if a.unrecorded.Load() || !time.Now().Before(until) {
			if a.unrecorded.CompareAndSwap(false, true) {
				a.log.Error("telegram journal not written for "+holdUnkept.String()+
					"; replies are sent unrecorded until a journal write works again (a crash meanwhile may answer a command again, with another roll)", "err", err)
			}
			return nil
		}
		if backoff.Sleep(ctx, min(bo.Next(), time.Until(until))) != nil {
			return err
		}
	}
}

// journalWritten ends the sending of unrecorded replies (keep) once a
// journal write works again, and says so once.
func (a *Adapter) journalWritten(err error) {
	if err == nil && a.unrecorded.CompareAndSwap(true, false) {
		a.log.Info("telegram journal written again; replies are recorded before they are sent")
	}
}

// handleTimeout bounds the handling of one update once begun (at a stop,
// the drain time bounds it first).
const handleTimeout = 30 * time.Second

// exitFlush bounds the last journal write at exit.
const exitFlush = time.Second

// handle turns one update into ops; it never panics.
func (a *Adapter) handle(ctx context.Context, u update, e *entry) {
	defer func() {
		if v := recover(); v != nil {
			a.log.Error("telegram update handler panic", "update", u.UpdateID, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	switch {
	case u.Message != nil:
		a.in.onMessage(ctx, u.Message, e)
	case u.CallbackQuery != nil:
		a.in.onCallback(ctx, u.CallbackQuery, e)
	case u.InlineQuery != nil:
		a.in.onInline(ctx, u.InlineQuery)
	case u.ChosenInlineResult != nil:
		a.in.onChosen(ctx, u.ChosenInlineResult, e)
	}
}

// inThread puts the update's replies to its chat in its forum topic
// (message_thread_id), including the secret-roll notices sent there when a
// private copy cannot be delivered.
func (a *Adapter) inThread(u update, e *entry) {
	if u.thread == 0 {
		return
	}
	chat, _, _, ok := updateChat(u)
	if !ok {
		return
	}
	a.putInThread(e, chat.ID, u.thread)
}

// putInThread puts e's messages to chat in its forum topic thread.
func (a *Adapter) putInThread(e *entry, chat int64, thread int) {
	if thread <= 0 {
		return
	}
	t := strconv.Itoa(thread)
	var set func(o *op)
	set = func(o *op) {
		if o == nil {
			return
		}
		// An edit stays where its message is: editMessageText has no
		// message_thread_id.
		if o.Method != "editMessageText" && (o.Chat == chat || o.Chat == a.in.resolve(context.Background(), chat)) {
			o.Params["message_thread_id"] = t
		}
		set(o.OnFail)
		for _, f := range o.Fallback {
			set(f)
		}
	}
	for _, o := range e.Ops {
		set(o)
	}
}
