package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/internal/backoff"
	"zaria/core"
	"zaria/core/reply"
)

func (a *inbound) onMessage(ctx context.Context, m *tgbotapi.Message, e *entry) {
	if m.Chat == nil || m.ViaBot != nil {
		return // our own inline results come back as messages via the bot
	}
	switch {
	case m.MigrateToChatID != 0:
		a.migrate(ctx, m.Chat.ID, m.MigrateToChatID)
		return
	case m.MigrateFromChatID != 0:
		a.migrate(ctx, m.MigrateFromChatID, m.Chat.ID)
		return
	}
	// Edited messages never arrive (allowed_updates): an edit never re-rolls.
	text := m.Text
	if text == "" {
		text = m.Caption
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	chat := a.chatOf(ctx, m.Chat)
	private := chat.Type == "private"
	if private && m.From != nil {
		a.padLists.forget(strconv.FormatInt(m.From.ID, 10)) // it may change their pad
	}
	var from who
	gm := false
	switch {
	case m.SenderChat != nil:
		// An anonymous admin (posting as the group) or a channel.
		from = who{id: strconv.FormatInt(m.SenderChat.ID, 10), name: m.SenderChat.Title}
		gm = m.SenderChat.ID == m.Chat.ID
	case m.From != nil && !m.From.IsBot:
		from = userOf(m.From)
		if !private {
			gm = a.admins.isAdmin(ctx, chat.ID, m.From.ID)
		}
	default:
		return
	}
	msg := core.Message{
		Chat:     core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)},
		From:     core.User{ID: from.id, Name: from.name},
		ID:       strconv.Itoa(m.MessageID),
		Text:     text,
		LangHint: from.lang,
		Private:  private,
		FromGM:   gm,
		Thread:   threadRef(e.thread),
		BotName:  a.botName,
		Sent:     time.Unix(int64(m.Date), 0),
	}
	if m.Document != nil && a.takesFile(ctx, msg) {
		t, errRep := a.importText(ctx, m, text, msg)
		if errRep != nil {
			a.out.addReply(ctx, e, chat.ID, m.MessageID, errRep, "")
			return
		}
		msg.Text = t
	}
	rep, ok := a.d.Dispatch(ctx, msg)
	if !ok || rep == nil {
		return
	}
	a.out.answer(ctx, e, msg, chat, m.MessageID, from, rep)
}

// lang is the language of the adapter's own texts in a chat, by the
// router's rule (core.Port.Lang).
func (a *inbound) lang(ctx context.Context, msg core.Message) string {
	return a.d.Lang(ctx, msg.Chat, msg.LangHint)
}

// takesFile reports whether a caption is a command for the bot in this
// chat (its own prefix, not /cmd@OtherBot) that takes the attached
// document's text (/importar).
func (a *inbound) takesFile(ctx context.Context, msg core.Message) bool {
	ft, can := a.d.(fileTaker)
	if !can {
		return false
	}
	name, ok := a.d.Recognize(ctx, msg)
	return ok && name != "" && ft.TakesFile("/"+name)
}

// importText downloads the message's document and appends its text to the
// caption.
func (a *inbound) importText(ctx context.Context, m *tgbotapi.Message, caption string, msg core.Message) (string, *reply.Reply) {
	lang := a.lang(ctx, msg)
	maxKB := a.cfg.MaxImportBytes >> 10
	if int64(m.Document.FileSize) > a.cfg.MaxImportBytes {
		return "", a.out.errorReply(lang, "tg.import.too_big", "max", maxKB)
	}
	rctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
	defer cancel()
	var f tgbotapi.File
	if err := a.c.callJSON(rctx, "getFile", map[string]string{"file_id": m.Document.FileID}, &f); err != nil || f.FilePath == "" {
		a.log.Warn("telegram getFile failed", "err", err)
		return "", a.out.errorReply(lang, "tg.import.failed")
	}
	data, tooBig, err := a.c.download(rctx, f.FilePath, a.cfg.MaxImportBytes)
	switch {
	case err != nil:
		a.log.Warn("telegram file download failed", "err", err)
		return "", a.out.errorReply(lang, "tg.import.failed")
	case tooBig:
		return "", a.out.errorReply(lang, "tg.import.too_big", "max", maxKB)
	case !utf8.Valid(data):
		return "", a.out.errorReply(lang, "tg.import.not_text")
	}
	body := strings.TrimPrefix(string(data), "\ufeff")
	return strings.TrimRight(caption, " \n") + "\n" + body, nil
}

// inlineCommand makes a command of an inline query: "zaria 4+2" names a
// command, "4d6kh3" is given to InlineCommand. from's private chat
// decides (inline queries come from no chat).
func (a *inbound) inlineCommand(ctx context.Context, from who, text string) string {
	t := strings.TrimPrefix(text, "/")
	msg := core.Message{Chat: core.ChatRef{Platform: "telegram", ID: from.id}, Text: "/" + t, BotName: a.botName}
	if name, _ := a.d.Recognize(ctx, msg); name != "" {
		return "/" + t
	}
	return "/" + a.cfg.InlineCommand + " " + text
}

var commandName = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

// setMyCommands' documented limits: at most 100 commands, each 1-32 of
// a-z 0-9 _ (commandName) with a description of 1-256 characters
// (TestCommandMenuWithinTelegramsLimits).
const (
	maxMenuCommands    = 100
	maxMenuDescription = 256
)

// setCommands publishes the command menu in Spanish, Greek and English (for
// clients in those languages) and in the core's default language (for
// the rest, Menu("")). A failure is logged, never fatal.
func (a *inbound) setCommands(ctx context.Context) {
	menu, ok := a.d.(menuLister)
	if !ok {
		return
	}
	for _, code := range []string{"es", "el", "en", ""} {
		var cmds []tgbotapi.BotCommand
		for _, c := range menu.Menu(code) {
			name := c.Local // the name /help shows in code's language, if Telegram takes it
			if !commandName.MatchString(name) {
				name = c.Name
			}
			if !commandName.MatchString(name) || len(cmds) == maxMenuCommands {
				continue
			}
			desc := strings.TrimSpace(c.Description)
			if desc == "" {
				desc = "/" + c.Name // Telegram refuses an empty description
			}
			cmds = append(cmds, tgbotapi.BotCommand{Command: name, Description: clip16(desc, maxMenuDescription)})
		}
		if len(cmds) == 0 {
			continue
		}
		b, _ := json.Marshal(cmds)
		p := map[string]string{"commands": string(b)}
		if code != "" {
			p["language_code"] = code
		}
		rctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
		_, err := a.c.call(rctx, "setMyCommands", p, nil)
		cancel()
		if d, ok := retryAfter(err); ok && backoff.Sleep(ctx, d) == nil {
			rctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
			_, err = a.c.call(rctx, "setMyCommands", p, nil)
			cancel()
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			a.log.Warn("telegram setMyCommands failed", "lang", code, "err", err)
		}
	}
}
