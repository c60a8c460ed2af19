package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
	"zaria/core/reply"
)

// sender of a message as the core sees it.
type who struct {
	id      string
	name    string
	numeric int64 // Telegram user id, 0 for a chat posting as itself
	lang    string
}

func userOf(u *tgbotapi.User) who {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.UserName
	}
	return who{id: strconv.FormatInt(u.ID, 10), name: name, numeric: u.ID, lang: u.LanguageCode}
}

func (a *Adapter) onMessage(ctx context.Context, m *tgbotapi.Message, e *entry) {
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
		BotName:  a.botName,
		Sent:     time.Unix(int64(m.Date), 0),
	}
	if m.Document != nil && a.takesFile(ctx, msg) {
		t, errRep := a.importText(ctx, m, text, msg)
		if errRep != nil {
			a.addReply(ctx, e, chat.ID, m.MessageID, errRep, "")
			return
		}
		msg.Text = t
	}
	rep, ok := a.d.Dispatch(ctx, msg)
	if !ok || rep == nil {
		return
	}
	a.answer(ctx, e, msg, chat, m.MessageID, from, rep)
}

// answer turns a reply into ops for the chat (and, for a secret roll, for
// the roller and the chat's GMs).
func (a *Adapter) answer(ctx context.Context, e *entry, msg core.Message, chat *tgbotapi.Chat, replyTo int, from who, rep *reply.Reply) {
	if rep.Status != nil {
		defer a.addStatus(ctx, e, chat.ID, replyTo, rep.Status)
		if len(rep.Lines) == 0 {
			return
		}
	}
	if len(rep.Mention) > 0 {
		defer mentionIn(e, len(e.Ops), rep.Mention)
	}
	if rep.Secret == nil {
		a.addReply(ctx, e, chat.ID, replyTo, rep, from.name)
		return
	}
	if msg.Private {
		a.addReply(ctx, e, chat.ID, replyTo, rep.Secret, from.name)
		return
	}
	if len(rep.Lines) > 0 {
		a.addReply(ctx, e, chat.ID, replyTo, &reply.Reply{Lines: rep.Lines}, from.name)
	}
	lang := a.replyLang(ctx, rep, msg)
	title := chat.Title
	if title == "" {
		title = chat.UserName
	}
	header := reply.Line{reply.I(a.d.Text(lang, "tg.secret.header", "name", from.name, "chat", title))}
	lines := append([]reply.Line{header}, rep.Secret.Lines...)
	type person struct {
		id   int64
		name string
	}
	var to []person
	if from.numeric != 0 {
		to = append(to, person{from.numeric, from.name})
	}
	seen := map[int64]bool{from.numeric: true}
	for _, u := range a.admins.list(ctx, chat.ID) {
		if !seen[u.ID] {
			seen[u.ID] = true
			to = append(to, person{u.ID, userOf(&u).name})
		}
	}
	// GMs named with /gm add, known to the core by their Telegram user id.
	for _, s := range rep.SecretTo {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 && !seen[id] {
			seen[id] = true
			to = append(to, person{id, s})
		}
	}
	for _, p := range to {
		ops := a.messageOps(p.id, 0, lines, "")
		if len(ops) == 0 {
			continue
		}
		hint := a.d.Text(lang, "tg.secret.cannot_dm", "name", p.name, "bot", a.botName)
		ops[0].OnFail = a.messageOps(chat.ID, replyTo, []reply.Line{{reply.T("⚠️ " + hint)}}, "")[0]
		e.Ops = append(e.Ops, ops...)
	}
}

// addReply adds the ops of a plain reply: text (split if needed) with the
// buttons on its last message, then the file.
func (a *Adapter) addReply(ctx context.Context, e *entry, chat int64, replyTo int, rep *reply.Reply, who string) {
	if rep.Keyboard != nil && !rep.Error && rep.File == nil && rep.Chart == nil {
		a.addKeyboardReply(e, chat, replyTo, rep)
		return
	}
	kb := ""
	if hasRunButtons(rep) && !rep.Error {
		kb = a.padKeyboard(ctx, rep)
	} else if hasPressButtons(rep) && !rep.Error {
		kb = statusKeyboard(rep.Buttons) // a pad's tray (status.go)
	} else if rep.Command != "" && len(rep.Buttons) > 0 && !rep.Error {
		chunks := splitHTML(rep.Lines, a.cfg.MaxMessage)
		last := ""
		if len(chunks) > 0 && rep.File == nil {
			last = chunks[len(chunks)-1]
		}
		kb = a.keyboard(ctx, rep, who, last)
	}
	if rep.Chart != nil && rep.File == nil {
		a.addChart(ctx, e, chat, replyTo, rep, kb)
		return
	}
	if rep.File == nil {
		e.Ops = append(e.Ops, a.messageOps(chat, replyTo, rep.Lines, kb)...)
		return
	}
	params := map[string]string{}
	setReplyTo(params, replyTo)
	chunks := splitHTML(rep.Lines, a.cfg.MaxMessage)
	if len(chunks) == 1 && utf16Len(stripHTML(chunks[0])) <= 1024 {
		params["caption"] = chunks[0]
		params["parse_mode"] = "HTML"
	} else {
		e.Ops = append(e.Ops, a.messageOps(chat, replyTo, rep.Lines, "")...)
	}
	if kb != "" {
		params["reply_markup"] = kb
	}
	name := rep.File.Name
	if name == "" {
		name = "zaria.txt"
	}
	e.Ops = append(e.Ops, &op{Method: "sendDocument", Chat: chat, Params: params, Doc: &document{Name: name, Data: rep.File.Data}})
}

// maxCaption is Telegram's longest photo or document caption, in UTF-16
// units after entity parsing.
const maxCaption = 1024

// addChart adds the ops of a reply with a chart: the picture (sendPhoto,
// drawn now, so a resend after a restart sends the same bytes) with the
// reply's text as its caption when it fits, else the picture and then the
// text. When the picture cannot be drawn (no renderer, an error) or
// Telegram refuses it (no right to send photos, 400/403), the text form is
// sent instead: the text with the chart in characters
// (TestChartPhotoFallsBackToText).
func (a *Adapter) addChart(ctx context.Context, e *entry, chat int64, replyTo int, rep *reply.Reply, kb string) {
	textForm := reply.WithChartText(rep).Lines
	var img []byte
	if a.cfg.Charts != nil {
		lang := a.replyLang(ctx, rep, core.Message{Chat: core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat, 10)}})
		var err error
		img, err = a.cfg.Charts.PNG(ctx, rep.Chart, lang)
		if err != nil {
			a.log.Error("telegram chart not drawn, sending its text form", "chat", chat, "err", err)
			img = nil
		}
	}
	if len(img) == 0 {
		e.Ops = append(e.Ops, a.messageOps(chat, replyTo, textForm, kb)...)
		return
	}
	params := map[string]string{}
	setReplyTo(params, replyTo)
	photo := &op{Method: "sendPhoto", Chat: chat, Params: params, Doc: &document{Field: "photo", Name: "odds.png", MIME: "image/png", Data: img}}
	chunks := splitHTML(rep.Lines, a.cfg.MaxMessage)
	if len(chunks) == 1 && utf16Len(stripHTML(chunks[0])) <= maxCaption {
		params["caption"] = chunks[0]
		params["parse_mode"] = "HTML"
		if kb != "" {
			params["reply_markup"] = kb
		}
		photo.Fallback = a.messageOps(chat, replyTo, textForm, kb)
		e.Ops = append(e.Ops, photo)
		return
	}
	// Too long for a caption: the picture, then the text (with the
	// buttons); the chart in characters only if the picture fails.
	photo.Fallback = a.messageOps(chat, 0, rep.Chart.Text, "")
	e.Ops = append(e.Ops, photo)
	e.Ops = append(e.Ops, a.messageOps(chat, replyTo, rep.Lines, kb)...)
}

// setReplyTo makes a send a reply to message replyTo of the same chat
// (reply_parameters, Bot API 7.0; the older reply_to_message_id is no
// longer documented), sent even when that message is gone. In a forum
// topic Telegram ignores allow_sending_without_reply; the sender then
// sends without the reply (TestReplyToDeletedMessageInTopic).
func setReplyTo(p map[string]string, replyTo int) {
	if replyTo > 0 {
		p["reply_parameters"] = `{"message_id":` + strconv.Itoa(replyTo) + `,"allow_sending_without_reply":true}`
	}
}

// noPreview is link_preview_options with previews off (the documented
// successor of disable_web_page_preview).
const noPreview = `{"is_disabled":true}`

// messageOps renders lines as one or more sendMessage ops.
func (a *Adapter) messageOps(chat int64, replyTo int, lines []reply.Line, keyboard string) []*op {
	chunks := splitHTML(lines, a.cfg.MaxMessage)
	ops := make([]*op, 0, len(chunks))
	for i, c := range chunks {
		p := map[string]string{"text": c, "parse_mode": "HTML", "link_preview_options": noPreview}
		if i == 0 {
			setReplyTo(p, replyTo)
		}
		if i == len(chunks)-1 && keyboard != "" {
			p["reply_markup"] = keyboard
		}
		ops = append(ops, &op{Method: "sendMessage", Chat: chat, Params: p})
	}
	return ops
}

// lang is the language of the adapter's own texts in a chat, by the
// router's rule (core.Port.Lang).
func (a *Adapter) lang(ctx context.Context, msg core.Message) string {
	return a.d.Lang(ctx, msg.Chat, msg.LangHint)
}

// replyLang is the language rep was rendered in (Reply.Lang), or for a
// reply from outside the router the chat's language.
func (a *Adapter) replyLang(ctx context.Context, rep *reply.Reply, msg core.Message) string {
	if rep.Lang != "" {
		return rep.Lang
	}
	return a.lang(ctx, msg)
}

func (a *Adapter) errorReply(lang, key string, kv ...any) *reply.Reply {
	return &reply.Reply{Lines: []reply.Line{{reply.T("⚠️ " + a.d.Text(lang, key, kv...))}}, Error: true, Lang: lang}
}

// takesFile reports whether a caption is a command for the bot in this
// chat (its own prefix, not /cmd@OtherBot) that takes the attached
// document's text (/importar).
func (a *Adapter) takesFile(ctx context.Context, msg core.Message) bool {
	name, ok := a.d.Recognize(ctx, msg)
	return ok && name != "" && a.d.TakesFile("/"+name)
}

// importText downloads the message's document and appends its text to the
// caption.
func (a *Adapter) importText(ctx context.Context, m *tgbotapi.Message, caption string, msg core.Message) (string, *reply.Reply) {
	lang := a.lang(ctx, msg)
	maxKB := a.cfg.MaxImportBytes >> 10
	if int64(m.Document.FileSize) > a.cfg.MaxImportBytes {
		return "", a.errorReply(lang, "tg.import.too_big", "max", maxKB)
	}
	rctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
	defer cancel()
	var f tgbotapi.File
	if err := a.c.callJSON(rctx, "getFile", map[string]string{"file_id": m.Document.FileID}, &f); err != nil || f.FilePath == "" {
		a.log.Warn("telegram getFile failed", "err", err)
		return "", a.errorReply(lang, "tg.import.failed")
	}
	data, tooBig, err := a.c.download(rctx, f.FilePath, a.cfg.MaxImportBytes)
	switch {
	case err != nil:
		a.log.Warn("telegram file download failed", "err", err)
		return "", a.errorReply(lang, "tg.import.failed")
	case tooBig:
		return "", a.errorReply(lang, "tg.import.too_big", "max", maxKB)
	case !utf8.Valid(data):
		return "", a.errorReply(lang, "tg.import.not_text")
	}
	body := strings.TrimPrefix(string(data), "\ufeff")
	return strings.TrimRight(caption, " \n") + "\n" + body, nil
}

// onCallback runs a button: "again", "odds" or a pad's, for whoever
// pressed it, or the placeholder of an inline roll.
func (a *Adapter) onCallback(ctx context.Context, cq *tgbotapi.CallbackQuery, u update, e *entry) {
	if cq.From == nil {
		return
	}
	from := userOf(cq.From)
	if cq.Message != nil && cq.Message.Chat != nil && cq.Message.Chat.Type == "private" {
		a.padLists.forget(from.id) // a button there may run /pad add
	}
	if strings.HasPrefix(cq.Data, "i:") && cq.InlineMessageID != "" && !cq.From.IsBot {
		a.onInlineButton(ctx, cq, e)
		return
	}
	if cq.Message != nil && cq.Message.Chat != nil && !cq.From.IsBot {
		if act, ok := pressAction(cq.Data); ok {
			a.onStatusButton(ctx, cq, e, act)
			return
		}
		if act, ok := a.padAction(ctx, cq.Data); ok {
			a.onPadButton(ctx, cq, e, act)
			return
		}
		if id, kind, rec, ok := a.loadButton(ctx, cq.Data); ok {
			a.onButton(ctx, cq, u, e, id, kind, rec)
			return
		}
	}
	cmd, ok := a.buttons.command(cq.Data)
	if !ok || cq.Message == nil || cq.Message.Chat == nil || cq.From.IsBot {
		var chat core.ChatRef
		if cq.Message != nil && cq.Message.Chat != nil {
			chat = core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(a.chatOf(ctx, cq.Message.Chat).ID, 10)}
		}
		a.answerCallback(ctx, cq.ID, a.d.Text(a.lang(ctx, core.Message{Chat: chat, LangHint: from.lang}), "tg.button.stale"))
		return
	}
	chat := a.chatOf(ctx, cq.Message.Chat)
	private := chat.Type == "private"
	msg := core.Message{
		Chat:     core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)},
		From:     core.User{ID: from.id, Name: from.name},
		ID:       strconv.Itoa(cq.Message.MessageID),
		Text:     cmd,
		LangHint: from.lang,
		Private:  private,
		FromGM:   !private && a.admins.isAdmin(ctx, chat.ID, cq.From.ID),
		BotName:  a.botName,
	}
	// Answer first: the spinner stops at once, however long the odds take.
	a.answerCallback(ctx, cq.ID, "")
	rep, ok := a.d.Dispatch(ctx, msg)
	if ok && rep != nil {
		a.answer(ctx, e, msg, chat, cq.Message.MessageID, from, rep)
	}
}

// answerCallback stops the button's spinner (Telegram waits about 15 s)
// and shows text as a toast, cut to Telegram's 0-200 characters
// (maxToast; TestToastCutToTelegramsLimit).
func (a *Adapter) answerCallback(ctx context.Context, id, text string) {
	p := map[string]string{"callback_query_id": id}
	if text != "" {
		p["text"] = clip16(text, maxToast)
	}
	a.quickCall(ctx, "answerCallbackQuery", p)
}

// quickCall makes a call that only matters for a few seconds (callback and
// inline answers): one retry after a short retry_after, then give up.
func (a *Adapter) quickCall(ctx context.Context, method string, p map[string]string) {
	for try := 0; try < 2; try++ {
		rctx, cancel := context.WithTimeout(ctx, min(a.cfg.RequestTimeout, 10*time.Second))
		_, err := a.c.call(rctx, method, p, nil)
		cancel()
		if err == nil {
			return
		}
		d, ok := retryAfter(err)
		if !ok || d > 5*time.Second || try == 1 {
			a.log.Warn("telegram "+method+" failed", "err", err)
			return
		}
		if sleep(ctx, d) != nil {
			return
		}
	}
}

// inlineCommand makes a command of an inline query: "zaria 4+2" names a
// command, "4d6kh3" is given to InlineCommand. from's private chat
// decides (inline queries come from no chat).
func (a *Adapter) inlineCommand(ctx context.Context, from who, text string) string {
	t := strings.TrimPrefix(text, "/")
	msg := core.Message{Chat: core.ChatRef{Platform: "telegram", ID: from.id}, Text: "/" + t, BotName: a.botName}
	if name, _ := a.d.Recognize(ctx, msg); name != "" {
		return "/" + t
	}
	return "/" + a.cfg.InlineCommand + " " + text
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// clip16 is clip counting UTF-16 code units, as Telegram counts
// characters (an emoji outside the BMP is two).
func clip16(s string, n int) string {
	if utf16Len(s) <= n {
		return s
	}
	used := utf16Len("…")
	for i, r := range s {
		if used+utf16.RuneLen(r) > n {
			return s[:i] + "…"
		}
		used += utf16.RuneLen(r)
	}
	return s
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
func (a *Adapter) setCommands(ctx context.Context) {
	for _, code := range []string{"es", "el", "en", ""} {
		var cmds []tgbotapi.BotCommand
		for _, c := range a.d.Menu(code) {
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
		if d, ok := retryAfter(err); ok && sleep(ctx, d) == nil {
			rctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
			_, err = a.c.call(rctx, "setMyCommands", p, nil)
			cancel()
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			a.log.Warn("telegram setMyCommands failed", "lang", code, "err", err)
		}
	}
}
