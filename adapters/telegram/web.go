package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
	"zaria/core/reply"
)

// What the web companion (adapters/web) asks of the Telegram adapter,
// wired by cmd/zaria: post a reply in a chat as the bot answers a typed
// command, ask whether a user belongs to a chat, and the bot's user name
// for the Mini App's link.

// ErrNotRunning is returned by Post before the bot has started (or after
// it stopped).
var ErrNotRunning = errors.New("telegram: the bot is not running")

// webState is the adapter's state for the web companion.
type webState struct {
	started chan struct{} // closed once Run has its journal and sender
	next    atomic.Int64  // the next synthetic update id of a post (negative)
}

func newWebState() *webState {
	w := &webState{started: make(chan struct{})}
	// Posts are journaled like updates, under negative ids that no
	// Telegram update has and that do not repeat across restarts.
	w.next.Store(-time.Now().UnixMicro())
	return w
}

func (w *webState) start() { close(w.started) }

func (w *webState) ready() bool {
	select {
	case <-w.started:
		return true
	default:
		return false
	}
}

// Post sends rep in msg.Chat exactly as the reply to msg would be sent
// had msg been typed there (in its forum topic, msg.Thread; secret rolls
// delivered privately, buttons, charts), through the same journal and send queue with its flood limits.
// It returns once the reply is journaled, before it is delivered.
func (a *Adapter) Post(ctx context.Context, msg core.Message, rep *reply.Reply) error {
	if !a.web.ready() {
		return ErrNotRunning
	}
	chatID, err := strconv.ParseInt(msg.Chat.ID, 10, 64)
	if err != nil || msg.Chat.Platform != "telegram" {
		return fmt.Errorf("telegram: post to %s: not a Telegram chat", msg.Chat)
	}
	uid, _ := strconv.ParseInt(msg.From.ID, 10, 64)
	from := who{id: msg.From.ID, name: msg.From.Name, numeric: uid, lang: msg.LangHint}
	e := &entry{Update: int(a.web.next.Add(-1)), thread: threadID(msg.Thread)}
	a.out.answer(ctx, e, msg, &tgbotapi.Chat{ID: chatID}, 0, from, rep)
	a.putInThread(e, chatID, e.thread)
	if len(e.Ops) == 0 {
		return nil
	}
	return a.post(ctx, e)
}

// ChatMember is a user's status in a chat by getChatMember: "creator",
// "administrator", "member", "restricted" (still a member), "left" or
// "kicked"; a restricted user who left is "left".
func (a *Adapter) ChatMember(ctx context.Context, chat, user int64) (string, error) {
	var m struct {
		Status   string `json:"status"`
		IsMember *bool  `json:"is_member"`
	}
	ctx, cancel := context.WithTimeout(ctx, min(a.cfg.RequestTimeout, 10*time.Second))
	defer cancel()
	err := a.c.callJSON(ctx, "getChatMember", map[string]string{
		"chat_id": strconv.FormatInt(chat, 10), "user_id": strconv.FormatInt(user, 10)}, &m)
	if err != nil {
		return "", err
	}
	if m.Status == "restricted" && m.IsMember != nil && !*m.IsMember {
		return "left", nil
	}
	return m.Status, nil
}

// BotName is the bot's user name ("ZariaBot"), known once it has started;
// "" before.
func (a *Adapter) BotName() string {
	if !a.web.ready() {
		return ""
	}
	return a.botName
}

// SetMenuButton makes the bot's menu button in private chats (the
// default for every private chat, setChatMenuButton without chat_id) a
// web_app button labelled text that opens appURL. It waits until the bot
// has started.
func (a *Adapter) SetMenuButton(ctx context.Context, text, appURL string) error {
	select {
	case <-a.web.started:
	case <-ctx.Done():
		return ctx.Err()
	}
	mb, err := json.Marshal(map[string]any{"type": "web_app", "text": text, "web_app": webAppInfo{URL: appURL}})
	if err != nil {
		return fmt.Errorf("telegram: menu button: %w", err)
	}
	var ok bool
	ctx, cancel := context.WithTimeout(ctx, min(a.cfg.RequestTimeout, 10*time.Second))
	defer cancel()
	if err := a.c.callJSON(ctx, "setChatMenuButton", map[string]string{"menu_button": string(mb)}, &ok); err != nil {
		return fmt.Errorf("telegram: setChatMenuButton: %w", err)
	}
	return nil
}

// post records e (a page's post) and queues its replies as an update's
// are (Adapter.record). Not kept, nothing is sent and the page is told.
func (a *Adapter) post(ctx context.Context, e *entry) error {
	if err := a.record(ctx, []*entry{e}, 0, false); err != nil {
		return fmt.Errorf("telegram: post not kept: %w", err)
	}
	return nil
}
