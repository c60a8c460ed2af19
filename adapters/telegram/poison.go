package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
)

// maxCrashes is how many crashes an update may cause: one that was being
// handled when the process died this many times is skipped the next time
// it arrives (TestPoisonUpdateSkippedAfterTwoCrashes).
const maxCrashes = 2

// maxSuspects bounds the updates remembered as having been in flight at a
// crash (the oldest are forgotten).
const maxSuspects = 32

// workMark is stored under <journal key>.work: the update being handled
// now, and the updates that were being handled when an earlier process
// died, with how many times.
type workMark struct {
	Update  int         `json:"u"`
	Crashes map[int]int `json:"c,omitempty"`
}

// poison guards against an update that kills the process (out of memory,
// a crash in a library, kill -9 by a watchdog): it records durably which
// update is being handled before handling it, so that after the restart
// the update that was in flight is known, and one that was in flight
// during maxCrashes crashes is skipped with an apology instead of killing
// the bot again, forever.
type poison struct {
	store StateStore
	key   string

	mu      sync.Mutex
	crashes map[int]int
}

// loadPoison reads the work mark; handled reports updates already in the
// journal (the mark of an update that was finished is not a crash).
func loadPoison(ctx context.Context, store StateStore, key string, handled func(int) bool) (*poison, int, error) {
	p := &poison{store: store, key: key, crashes: map[int]int{}}
	v, ok, err := store.State(ctx, key)
	if err != nil || !ok || v == "" {
		if err != nil {
			err = fmt.Errorf("load telegram work mark: %w", err)
		}
		return p, 0, err
	}
	var m workMark
	if json.Unmarshal([]byte(v), &m) != nil {
		return p, 0, nil // an unreadable mark only loses the count
	}
	for id, n := range m.Crashes {
		if !handled(id) {
			p.crashes[id] = n
		}
	}
	crashed := 0
	if m.Update != 0 && !handled(m.Update) {
		p.crashes[m.Update]++
		crashed = m.Update
	}
	return p, crashed, nil
}

// poisoned reports whether update id was in flight during maxCrashes
// crashes, and how many.
func (p *poison) poisoned(id int) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.crashes[id]
	return n, n >= maxCrashes
}

// begin records durably that update id is being handled now.
func (p *poison) begin(ctx context.Context, id int) error {
	p.mu.Lock()
	if len(p.crashes) > maxSuspects {
		ids := make([]int, 0, len(p.crashes))
		for k := range p.crashes {
			ids = append(ids, k)
		}
		sort.Ints(ids)
		for _, k := range ids[:len(ids)-maxSuspects] {
			delete(p.crashes, k)
		}
	}
	m := workMark{Update: id, Crashes: p.crashes}
	b, err := json.Marshal(m)
	p.mu.Unlock()
	if err != nil {
		return fmt.Errorf("telegram work mark: %w", err)
	}
	// Not fsynced (noSyncStore): the mark is there for crashes of the
	// process, which it survives; a power cut loses at most a count.
	set := p.store.SetState
	if n, ok := p.store.(noSyncStore); ok {
		set = n.SetStateNoSync
	}
	if err := set(ctx, p.key, string(b)); err != nil {
		return fmt.Errorf("save telegram work mark: %w", err)
	}
	return nil
}

// end records that no update is being handled (one was cut at a stop:
// not a crash). A failure only costs a crash count and is not logged.
func (p *poison) end(ctx context.Context) {
	p.mu.Lock()
	b, err := json.Marshal(workMark{Crashes: p.crashes})
	p.mu.Unlock()
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, exitFlush)
		defer cancel()
		_ = p.store.SetState(ctx, p.key, string(b))
	}
}

// forget drops an update once it is in the journal.
func (p *poison) forget(id int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.crashes, id)
}

// updateChat returns the chat an update belongs to, and the message to
// reply to, for the apology; ok=false when it has no chat (inline query).
func updateChat(u update) (chat *tgbotapi.Chat, replyTo int, from *tgbotapi.User, ok bool) {
	switch {
	case u.Message != nil && u.Message.Chat != nil:
		return u.Message.Chat, u.Message.MessageID, u.Message.From, true
	case u.CallbackQuery != nil && u.CallbackQuery.Message != nil && u.CallbackQuery.Message.Chat != nil:
		return u.CallbackQuery.Message.Chat, u.CallbackQuery.Message.MessageID, u.CallbackQuery.From, true
	}
	return nil, 0, nil, false
}

// skipPoisoned logs a poisoned update once (its chat and id, never its
// text) and adds the apology to e.
func (a *Adapter) skipPoisoned(ctx context.Context, u update, crashes int, e *entry) {
	if cq := u.CallbackQuery; cq != nil {
		// Stop the button's spinner: every callback query is answered.
		a.answerCallback(ctx, cq.ID, "")
	}
	chat, replyTo, from, ok := updateChat(u)
	if !ok {
		a.log.Error("telegram update skipped: it was being handled each time the bot died", "update", u.UpdateID, "crashes", crashes)
		return
	}
	a.log.Error("telegram update skipped: it was being handled each time the bot died", "update", u.UpdateID, "chat", chat.ID, "crashes", crashes)
	hint := ""
	if from != nil {
		hint = from.LanguageCode
	}
	chat = a.chatOf(ctx, chat)
	lang := a.lang(ctx, core.Message{Chat: core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)}, LangHint: hint})
	a.addReply(ctx, e, chat.ID, replyTo, a.errorReply(lang, "tg.poison.skipped"), "")
}
