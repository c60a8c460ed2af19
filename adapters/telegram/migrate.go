package telegram

import (
	"context"
	"strconv"
	"sync"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
)

// ChatMover moves a chat's stored data (characters, settings, GMs,
// aliases, history) to another chat id and sets the adapter's state keys,
// in one transaction, idempotently (*sqlite.DB). When the state store has
// it, a group that becomes a supergroup keeps its campaign.
type ChatMover interface {
	MoveChat(ctx context.Context, from, to core.ChatRef, state map[string]string) (bool, error)
}

// moves remembers which basic groups became which supergroups
// (<journal key>.moved.<old id> in the state store): the old id then
// resolves to the new one, for the data and for sends.
type moves struct {
	mu sync.Mutex
	m  map[int64]int64 // 0: looked up, not moved
}

func (a *inbound) movedKey(old int64) string { return a.key + ".moved." + itoa(old) }

// resolve returns the supergroup a basic group became, or id itself.
func (a *inbound) resolve(ctx context.Context, id int64) int64 {
	a.moves.mu.Lock()
	to, known := a.moves.m[id]
	a.moves.mu.Unlock()
	if !known {
		v, ok, err := a.state.State(ctx, a.movedKey(id))
		if err != nil {
			return id // not cached: asked again next time
		}
		if ok {
			to, _ = strconv.ParseInt(v, 10, 64)
		}
		a.moves.mu.Lock()
		if len(a.moves.m) > 10_000 {
			a.moves.m = map[int64]int64{}
		}
		a.moves.m[id] = to
		a.moves.mu.Unlock()
	}
	if to == 0 {
		return id
	}
	return to
}

// chatOf is chat as the bot works with it: a basic group that became a
// supergroup is that supergroup.
func (a *inbound) chatOf(ctx context.Context, chat *tgbotapi.Chat) *tgbotapi.Chat {
	if chat == nil || chat.Type != "group" {
		return chat
	}
	if to := a.resolve(ctx, chat.ID); to != chat.ID {
		c := *chat
		c.ID, c.Type = to, "supergroup"
		return &c
	}
	return chat
}

// migrate moves basic group old to supergroup new: the stored data, the
// record that old now means new, and the send queue (its flood limits go
// with it). Both service messages (migrate_to_chat_id in the old chat,
// migrate_from_chat_id in the new one), a 400 with migrate_to_chat_id and
// a restart may each call it: it is idempotent.
func (a *inbound) migrate(ctx context.Context, old, new int64) {
	if old == 0 || new == 0 || old == new {
		return
	}
	a.send.moveChat(old, new)
	state := map[string]string{a.movedKey(old): itoa(new)}
	from := core.ChatRef{Platform: "telegram", ID: itoa(old)}
	to := core.ChatRef{Platform: "telegram", ID: itoa(new)}
	var err error
	moved := false
	if mv, ok := a.state.(ChatMover); ok {
		moved, err = mv.MoveChat(ctx, from, to, state)
	} else {
		err = a.state.SetState(ctx, a.movedKey(old), itoa(new))
	}
	if err != nil {
		a.log.Error("telegram group became a supergroup, but its data was not moved", "chat", old, "new_chat", new, "err", err)
		return
	}
	a.moves.mu.Lock()
	a.moves.m[old] = new
	a.moves.mu.Unlock()
	a.admins.forget(old)
	if moved {
		a.log.Info("telegram group became a supergroup; its characters, settings and history moved with it", "chat", old, "new_chat", new)
	}
}
