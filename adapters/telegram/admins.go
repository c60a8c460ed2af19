package telegram

import (
	"context"
	"log/slog"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// admins caches each group's administrators (getChatAdministrators): they
// are the chat's GMs.
type admins struct {
	c       *client
	log     *slog.Logger
	ttl     time.Duration
	timeout time.Duration

	mu    sync.Mutex
	chats map[int64]*adminList
}

type adminList struct {
	mu      sync.Mutex // one fetch at a time per chat
	fetched time.Time
	ttl     time.Duration
	users   []admin // humans only
}

// admin is what the bot needs of an administrator: who, and the name a
// notice about them shows. A tgbotapi.User is ~5 times larger, for 10,000
// group chats' lists kept admin_ttl (issue 29).
type admin struct {
	id   int64
	name string
}

func newAdmins(c *client, log *slog.Logger, ttl, timeout time.Duration) *admins {
	return &admins{c: c, log: log, ttl: ttl, timeout: timeout, chats: map[int64]*adminList{}}
}

// list returns the chat's human administrators. On an error it returns the
// last known list (possibly empty) and tries again after a short while.
func (a *admins) list(ctx context.Context, chat int64) []admin {
	a.mu.Lock()
	l := a.chats[chat]
	if l == nil {
		if len(a.chats) > 50_000 {
			a.chats = map[int64]*adminList{}
		}
		l = &adminList{}
		a.chats[chat] = l
	}
	a.mu.Unlock()

	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.fetched.IsZero() && time.Since(l.fetched) < l.ttl {
		return l.users
	}
	cctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	var members []tgbotapi.ChatMember
	err := a.c.callJSON(cctx, "getChatAdministrators", map[string]string{"chat_id": itoa(chat)}, &members)
	l.fetched = time.Now()
	if err != nil {
		a.log.Warn("telegram admin list unavailable", "chat", chat, "err", err)
		l.ttl = min(a.ttl, 30*time.Second)
		return l.users
	}
	l.ttl = a.ttl
	l.users = l.users[:0:0]
	for _, m := range members {
		if m.User != nil && !m.User.IsBot {
			l.users = append(l.users, admin{id: m.User.ID, name: userOf(m.User).name})
		}
	}
	return l.users
}

func (a *admins) isAdmin(ctx context.Context, chat, user int64) bool {
	for _, u := range a.list(ctx, chat) {
		if u.id == user {
			return true
		}
	}
	return false
}

// forget drops a chat's cached list (a group that became a supergroup).
func (a *admins) forget(chat int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.chats, chat)
}
