package telegram

import (
	"context"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
)

// The poison quarantine is the adapters' shared one
// (adapters/internal/journal): before an update is handled, the work mark
// <journal key>.work records durably that it is being handled, so that
// after a death the update that was in flight is known, and one that was
// in flight during MaxCrashes deaths is skipped with an apology instead of
// killing the bot again, forever (TestPoisonUpdateSkippedAfterTwoCrashes).
// Telegram handles one update at a time: one lane, Adapter.work.

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
func (a *inbound) skipPoisoned(ctx context.Context, u update, crashes int, e *entry) {
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
	a.out.addReply(ctx, e, chat.ID, replyTo, a.out.errorReply(lang, "tg.poison.skipped"), "")
}
