package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"zaria/adapters/internal/backoff"
	ajournal "zaria/adapters/internal/journal"
)

// sender delivers ops: one FIFO queue and one worker per chat, so a slow
// chat never delays another, and replies in a chat keep their order. Each
// send waits for the chat's slot (one per ChatInterval), the group's
// (GroupLimit per GroupWindow) and the global one.
type sender struct {
	c      *client
	j      *journal
	log    *slog.Logger
	cfg    Config
	global *window

	mu    sync.Mutex
	chats map[int64]*chatQueue
	swept time.Time       // when gc last looked for idle queues
	ctx   context.Context // ends when the drain time is over
	wg    sync.WaitGroup

	sent, retried, failed atomic.Int64
	queued, floods        *atomic.Int64 // the adapter's gauges: replies waiting, 429s received
	// backlog counts at most perChatBacklog waiting replies per chat: what
	// polling pauses on, so one flooded chat cannot stall the others.
	backlog atomic.Int64

	// notBefore holds every send until then (set before the first enqueue):
	// after a restart with replies pending, the previous process may have
	// used this second's chat and global slots.
	notBefore time.Time

	now       func() time.Time
	onMigrate func(old, new int64)                                  // a send learnt that a group became a supergroup
	onSlot    func(chat int64, slot string, result json.RawMessage) // a status message was sent (status.go)
	slotID    func(chat int64, slot string) int                     // the status message of a slot, 0 if none (status.go)
	moved     map[int64]int64                                       // basic group → supergroup, for queues
}

// perChatBacklog is how many of a chat's waiting replies count towards
// MaxQueued: a group may get 20 a minute.
const perChatBacklog = 20

type chatQueue struct {
	items   []item
	running bool
	chat    *window
	group   *window // nil for private chats
	last    time.Time
}

type item struct {
	e *entry
	o *op
}

func newSender(ctx context.Context, c *client, j *journal, log *slog.Logger, cfg Config, queued, floods *atomic.Int64) *sender {
	return &sender{
		c: c, j: j, log: log, cfg: cfg, ctx: ctx, queued: queued, floods: floods,
		global: newWindow(cfg.GlobalLimit, cfg.GlobalWindow),
		chats:  map[int64]*chatQueue{},
		moved:  map[int64]int64{},
		now:    time.Now,
	}
}

// moveChat makes old's queue (and its flood limits) the queue of new: a
// group that became a supergroup keeps its send slots.
func (s *sender) moveChat(old, new int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.moved[old] = new
	if q := s.chats[old]; q != nil && s.chats[new] == nil {
		s.chats[new] = q
	}
}

// enqueue adds an op at the end of its chat's queue.
func (s *sender) enqueue(e *entry, o *op) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if to, ok := s.moved[o.Chat]; ok {
		s.j.edit(e, func() { o.Chat = to })
	}
	q := s.chats[o.Chat]
	if q == nil {
		if now := time.Now(); now.Sub(s.swept) >= s.idle() {
			s.gc(now)
		}
		q = &chatQueue{chat: newWindow(1, s.cfg.ChatInterval)}
		if o.Chat < 0 {
			q.group = newWindow(s.cfg.GroupLimit, s.cfg.GroupWindow)
		}
		s.chats[o.Chat] = q
	}
	q.items = append(q.items, item{e, o})
	s.queued.Add(1)
	if len(q.items) <= perChatBacklog {
		s.backlog.Add(1)
	}
	if !q.running {
		q.running = true
		s.wg.Add(1)
		go s.work(q)
	}
}

// idle is how long after its last send a chat's queue holds nothing its
// next send would wait for: every slot it took is free again.
func (s *sender) idle() time.Duration { return max(s.cfg.GroupWindow, s.cfg.ChatInterval) }

// gc forgets the queues idle for longer than idle (a new one, made at the
// chat's next reply, is the same: empty windows), so the sender keeps
// only the chats that sent within the last window, not every chat it ever
// answered (issue 29: ~460 B a chat, 4.6 MB at 10,000 chats). It runs
// when a new chat's queue is made, at most once per idle: a walk of the
// map per minute in production. Called with s.mu.
func (s *sender) gc(now time.Time) {
	s.swept = now
	horizon := now.Add(-s.idle())
	for id, q := range s.chats {
		if !q.running && len(q.items) == 0 && q.last.Before(horizon) {
			delete(s.chats, id)
		}
	}
}

// wait blocks until every queue is empty or the send context ended.
func (s *sender) wait() { s.wg.Wait() }

func (s *sender) work(q *chatQueue) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		if len(q.items) == 0 || s.ctx.Err() != nil {
			q.running = false
			s.mu.Unlock()
			return
		}
		it := q.items[0]
		s.mu.Unlock()
		if err := s.deliver(q, it); err != nil {
			// Shutting down: the op stays pending in the journal and is
			// sent at the next start.
			s.mu.Lock()
			q.running = false
			s.mu.Unlock()
			return
		}
		s.mu.Lock()
		if len(q.items) <= perChatBacklog {
			s.backlog.Add(-1)
		}
		// Cleared, not only skipped: the backing array would keep the
		// sent entry (its ops, texts and keyboards) for as long as the
		// chat's queue lives (issue 29: ~0.5 KB per chat at rest).
		q.items[0] = item{}
		q.items = q.items[1:]
		if len(q.items) == 0 {
			q.items = nil
		}
		s.queued.Add(-1)
		q.last = time.Now()
		s.mu.Unlock()
	}
}

var parseEntitiesErr = regexp.MustCompile(`(?i)can't parse entities|unsupported start tag|can't find end tag`)

// deliver sends one op until it is delivered or cannot be; it returns an
// error only when the send context ends.
func (s *sender) deliver(q *chatQueue, it item) error {
	ctx := s.ctx
	bo := backoff.New(s.cfg.BackoffMin, s.cfg.BackoffMax)
	if err := backoff.Sleep(ctx, time.Until(s.notBefore)); err != nil {
		return err
	}
	if it.o.SlotEdit {
		// A status: an edit of the slot's message if it has one now; not
		// sent at all when a newer one of the same slot waits behind it.
		if s.superseded(q, it) {
			s.j.done(it.e, it.o)
			return nil
		}
		if id := s.slotIDOf(it.o); id != 0 {
			s.j.edit(it.e, func() { *it.o = *slotEditOp(it.o, id) })
		}
	}
	for {
		if err := q.chat.acquire(ctx); err != nil {
			return err
		}
		if q.group != nil {
			if err := q.group.acquire(ctx); err != nil {
				q.chat.release()
				return err
			}
		}
		if err := s.global.acquire(ctx); err != nil {
			if q.group != nil {
				q.group.release()
			}
			q.chat.release()
			return err
		}
		s.j.mu.Lock()
		method, chat, doc := it.o.Method, it.o.Chat, it.o.Doc
		noChat := it.o.NoChat
		params := make(map[string]string, len(it.o.Params)+1)
		for k, v := range it.o.Params {
			params[k] = v
		}
		s.j.mu.Unlock()
		if !noChat {
			params["chat_id"] = itoa(chat)
		}
		// A send in flight when the drain time ends gets sendGrace more:
		// cut, Telegram may have delivered it and the next start would
		// send it again.
		rctx, cancel := withGrace(ctx, sendGrace, s.cfg.RequestTimeout)
		res, err := s.c.call(rctx, method, params, doc)
		cancel()
		s.global.release()
		if q.group != nil {
			q.group.release()
		}
		q.chat.release()

		if err == nil {
			s.sent.Add(1)
			if it.o.Slot != "" && s.onSlot != nil {
				s.onSlot(chat, it.o.Slot, res)
			}
			// The next message of this chat leaves only once this one is
			// recorded as sent: a crash can repeat at most one message
			// per chat.
			return s.j.waitSaved(ctx, s.j.done(it.e, it.o))
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.retried.Add(1)
		if d, ok := retryAfter(err); ok {
			s.floods.Add(1)
			s.log.Warn("telegram flood limit, waiting", "chat", chat, "retry_after", d)
			if err := backoff.Sleep(ctx, d); err != nil {
				return err
			}
			continue
		}
		var ae *APIError
		if errors.As(err, &ae) && ae.MigrateTo != 0 {
			s.log.Info("telegram group became a supergroup", "chat", chat, "new_chat", ae.MigrateTo)
			s.j.edit(it.e, func() { it.o.Chat = ae.MigrateTo })
			if s.onMigrate != nil {
				s.onMigrate(chat, ae.MigrateTo)
			}
			continue
		}
		if errors.As(err, &ae) && ae.Code == 400 && params["parse_mode"] != "" && parseEntitiesErr.MatchString(ae.Description) {
			s.log.Error("telegram refused our HTML, sending plain text", "chat", chat, "err", err)
			s.j.edit(it.e, func() {
				delete(it.o.Params, "parse_mode")
				for _, k := range []string{"text", "caption"} {
					if t, ok := it.o.Params[k]; ok {
						it.o.Params[k] = stripHTML(t)
					}
				}
			})
			continue
		}
		if drop := dropOnRefusal(err, params); drop != nil {
			// The message replied to is gone (Telegram ignores
			// allow_sending_without_reply in forum topics), or the topic
			// is: the reply is sent without it rather than lost.
			s.log.Warn("telegram send refused, sending without "+drop[0], "chat", chat, "method", method, "err", err)
			s.j.edit(it.e, func() {
				for _, k := range drop {
					delete(it.o.Params, k)
				}
			})
			continue
		}
		if isNotModified(err) {
			// An edit that changes nothing: the message already shows it.
			s.j.done(it.e, it.o)
			return nil
		}
		if permanent(err) {
			s.failed.Add(1)
			s.log.Error("telegram reply not deliverable", "chat", chat, "method", method, "err", err)
			if f := it.o.OnFail; f != nil && s.firstNotice(f.Chat, chat) {
				s.j.addOp(it.e, f)
				s.enqueue(it.e, f)
			}
			if len(it.o.Fallback) > 0 {
				s.log.Info("telegram sending the text form instead", "chat", chat, "method", method)
			}
			for _, f := range it.o.Fallback {
				s.j.addOp(it.e, f)
				s.enqueue(it.e, f)
			}
			s.j.done(it.e, it.o)
			return nil
		}
		wait := bo.Next()
		s.log.Warn("telegram send failed, retrying", "chat", chat, "method", method, "err", err, "in", wait)
		if err := backoff.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// dropOnRefusal names the parameters to leave off when Telegram refuses a
// send for the message it replies to ("message to be replied not found"),
// for its topic ("message thread not found") or for its keyboard ("text
// buttons are unallowed in the inline keyboard", BUTTON_DATA_INVALID,
// "reply markup is too long"…: the words are read without buttons); nil
// for other errors or when the send has no such parameter.
func dropOnRefusal(err error, params map[string]string) []string {
	var ae *APIError
	if !errors.As(err, &ae) || ae.Code != 400 {
		return nil
	}
	d := strings.ToLower(ae.Description)
	switch {
	case strings.Contains(d, "message to be replied not found") || strings.Contains(d, "replied message not found"):
		if params["reply_parameters"] != "" || params["reply_to_message_id"] != "" {
			return []string{"reply_parameters", "reply_to_message_id", "allow_sending_without_reply"}
		}
	case strings.Contains(d, "message thread not found"):
		if params["message_thread_id"] != "" {
			return []string{"message_thread_id"}
		}
	case strings.Contains(d, "message is not modified"):
		// An edit that changes nothing names the reply markup too: it is
		// no refusal of it (isNotModified).
	case strings.Contains(d, "button") || strings.Contains(d, "keyboard") || strings.Contains(d, "reply markup") ||
		strings.Contains(d, "reply_markup") || strings.Contains(d, "placeholder"):
		if params["reply_markup"] != "" {
			return []string{"reply_markup"}
		}
	}
	return nil
}

// isNotModified is Telegram's answer to an edit that changes nothing.
func isNotModified(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Code == 400 && strings.Contains(strings.ToLower(ae.Description), "message is not modified")
}

// sendGrace is how long a send in flight may finish after the drain time.
const sendGrace = time.Second

// withGrace is a context with the given timeout that also ends grace
// after ctx ends.
func withGrace(ctx context.Context, grace, timeout time.Duration) (context.Context, context.CancelFunc) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(grace, cancel)
		context.AfterFunc(rctx, func() { t.Stop() })
	})
	return rctx, func() { stop(); cancel() }
}

// noticeEvery is how often the group hears that the bot cannot write
// privately to one of its people (a secret roll's copy): once per person
// and chat, then again only after this long (TestSecretNoticeOncePerDay).
const noticeEvery = 24 * time.Hour

// firstNotice reports whether the notice that user cannot get private
// messages is due in chat, and records it (<journal key>.nodm.<chat>.<user>).
func (s *sender) firstNotice(chat, user int64) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), s.cfg.RequestTimeout)
	defer cancel()
	key := s.j.key + ".nodm." + itoa(chat) + "." + itoa(user)
	now := s.now()
	if v, ok, err := s.j.store.State(ctx, key); err == nil && ok {
		if t, err := time.Parse(time.RFC3339, v); err == nil && now.Sub(t) < noticeEvery && t.Before(now.Add(time.Minute)) {
			return false
		}
	}
	if err := s.j.store.SetState(ctx, key, now.UTC().Format(time.RFC3339)); err != nil {
		s.log.Warn("telegram notice record not saved", "err", err)
	}
	if rand.N(64) == 0 {
		if err := ajournal.Prune(ctx, s.j.store, s.j.key+".nodm.", 10_000); err != nil {
			s.log.Warn("telegram state not pruned", "err", err)
		}
	}
	return true
}

// superseded reports whether a newer status of it's slot waits in q
// behind it (op.SlotEdit): that one shows the newer state, this one need
// not be sent.
func (s *sender) superseded(q *chatQueue, it item) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, later := range q.items {
		if later.o != it.o && later.o.SlotEdit && later.o.Slot == it.o.Slot && later.o.Chat == it.o.Chat && !later.o.Done {
			return true
		}
	}
	return false
}

// slotIDOf is the message of o's status slot, 0 when none is known.
func (s *sender) slotIDOf(o *op) int {
	if s.slotID == nil {
		return 0
	}
	s.j.mu.Lock()
	chat, slot := o.Chat, o.Slot
	s.j.mu.Unlock()
	return s.slotID(chat, slot)
}
