package telegram

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/internal/actions"
	"zaria/core"
	"zaria/core/reply"
)

// Inline mode. "@Bot 4d6kh3" offers one article whose text is a
// placeholder ("🎲 Ana rolls 4d6kh3…") with a button: nothing is rolled
// while the user types, so retyping cannot fish for a good number. The
// roll happens when the message is posted (chosen_inline_result, which
// needs BotFather's /setinlinefeedback), by editing the inline message into
// "Ana rolled at 10:52 UTC" and the result. The button rolls too, for its
// author, should the feedback be off. An inline message is rolled once:
// <journal key>.im.<inline message id> marks it (TestInlineRollOnChosen).
//
// "@Bot" alone lists the buttons of the pad the user keeps in their
// private chat with the bot (/pad add there), one article each, under the
// same rule: a placeholder, rolled as the pad button (Press, reply.ActRun)
// once posted (TestInlinePadRolledWhenChosen). After them come the user's
// recent rolls, newest first, each once (core.Port.Recent: the roll
// history of their private chat, where inline rolls are logged), under the
// same rule (TestInlineRecentRolls). A listed result's id and its button's
// data ("i:<user>:" and the token) are tokens of the action store
// (buttons.go): choosing it or pressing its button presses that Action.

const (
	// maxInlineResults is the most results answerInlineQuery takes.
	maxInlineResults = 50
	// maxInlineRecent is how many recent rolls an empty query lists.
	maxInlineRecent = 5
	// maxResultID is the longest inline result id, in bytes.
	maxResultID = 64
)

// onInline answers an inline query with the placeholder article.
func (a *inbound) onInline(ctx context.Context, q *tgbotapi.InlineQuery) {
	if q.From == nil {
		return
	}
	results := []any{}
	if strings.TrimSpace(q.Query) == "" {
		results = a.inlinePad(ctx, userOf(q.From))
		results = append(results, a.inlineRecent(ctx, userOf(q.From), maxInlineResults-len(results))...)
	}
	if text := strings.TrimSpace(q.Query); text != "" {
		from := userOf(q.From)
		lang := a.lang(ctx, core.Message{Chat: core.ChatRef{Platform: "telegram", ID: from.id}, LangHint: from.lang})
		// Nothing is written while the user types: a command too long for
		// the button's data leaves the button saying "wait".
		data := "i:" + from.id
		act := reply.Action{Kind: reply.ActAgain, Command: a.inlineCommand(ctx, from, text)}
		if tok, ok := a.acts.InlineToken(act, maxCallbackData-len(data)-1); ok {
			data += ":" + tok
		}
		results = append(results, a.pendingArticle(lang, from, "q:"+strconv.FormatInt(time.Now().UnixNano(), 36), text, a.d.Text(lang, "tg.inline.description"), data))
	}
	b, _ := json.Marshal(results)
	a.quickCall(ctx, "answerInlineQuery", map[string]string{
		"inline_query_id": q.ID,
		"results":         string(b),
		"cache_time":      "0",
		"is_personal":     "true",
	})
}

// padListTTL is how long the pad an empty inline query listed is reused
// for that user's next empty queries. Listing it is the /pad command,
// which draws on the user's rate limit like anything they send; Telegram
// sends an empty query each time "@Bot" is typed, so without this a few
// openings would spend the burst and the pad would vanish from the list
// (TestInlineListingIsNotARoll). A private pad changes only by what its
// owner does in their private chat, which forgets the copy at once.
const (
	padListTTL = 10 * time.Minute
	// maxPadLists is how many users' listed pads are kept; past it the
	// expired go, then all.
	maxPadLists = 4096
)

// padLists keeps the pads empty inline queries listed, per user id.
type padLists struct {
	mu sync.Mutex
	m  map[string]padList
}

type padList struct {
	at      time.Time
	lang    string
	buttons []reply.Button
}

func (c *padLists) get(user string, now time.Time) (padList, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[user]
	if !ok || now.Sub(l.at) > padListTTL || now.Before(l.at) {
		return padList{}, false
	}
	return l, true
}

func (c *padLists) put(user string, l padList) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]padList{}
	}
	if len(c.m) >= maxPadLists {
		for u, x := range c.m {
			if l.at.Sub(x.at) > padListTTL {
				delete(c.m, u)
			}
		}
		if len(c.m) >= maxPadLists {
			clear(c.m)
		}
	}
	c.m[user] = l
}

// forget drops user's listed pad: they wrote or pressed something in
// their private chat, which may change it.
func (c *padLists) forget(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, user)
}

// inlinePad is the articles of the user's private pad: its buttons as
// the pad command shows them there, none when it is empty.
func (a *inbound) inlinePad(ctx context.Context, from who) []any {
	msg := core.Message{
		Chat:     core.ChatRef{Platform: "telegram", ID: from.id}, // the user's private chat
		From:     core.User{ID: from.id, Name: from.name},
		Text:     "/pad",
		LangHint: from.lang,
		Private:  true,
		BotName:  a.botName,
	}
	results := []any{}
	l, ok := a.padLists.get(from.id, a.now())
	if !ok {
		rep, ok := a.d.Dispatch(ctx, msg)
		if !ok || rep == nil || rep.Error {
			return results
		}
		l = padList{at: a.now(), lang: a.out.replyLang(ctx, rep, msg), buttons: rep.Buttons}
		a.padLists.put(from.id, l)
	}
	lang := l.lang
	prefix := "i:" + from.id + ":"
	for _, b := range l.buttons {
		if b.Action == nil || b.Action.Kind != reply.ActRun || !b.Action.Valid() {
			continue
		}
		if len(results) == maxInlineResults {
			break
		}
		pid, ok := a.acts.InlineToken(*b.Action, min(maxResultID, maxCallbackData-len(prefix)))
		if !ok {
			continue
		}
		kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonData(a.d.Text(lang, "tg.inline.button"), prefix+pid)))
		placeholder := reply.HTML(&reply.Reply{Lines: []reply.Line{{
			reply.T(a.d.Text(lang, "tg.inline.pending", "name", from.name) + " "), reply.B(b.Label),
		}}}, "")
		results = append(results, tgbotapi.InlineQueryResultArticle{
			Type:                "article",
			ID:                  pid,
			Title:               clip(a.d.Text(lang, "tg.inline.title", "roll", b.Label), 100),
			Description:         a.d.Text(lang, "tg.inline.description"),
			InputMessageContent: tgbotapi.InputTextMessageContent{Text: placeholder, ParseMode: "HTML"},
			ReplyMarkup:         &kb,
		})
	}
	return results
}

// privateMessage is the core's Message of from in their private chat with
// the bot, where inline queries are answered.
func (a *inbound) privateMessage(from who, text string) core.Message {
	return core.Message{
		Chat:     core.ChatRef{Platform: "telegram", ID: from.id},
		From:     core.User{ID: from.id, Name: from.name},
		Text:     text,
		LangHint: from.lang,
		Private:  true,
		BotName:  a.botName,
	}
}

// inlineRecent is the articles of from's recent rolls, at most room.
func (a *inbound) inlineRecent(ctx context.Context, from who, room int) []any {
	recent, ok := a.d.(recentLister)
	if room <= 0 || !ok {
		return nil
	}
	msg := a.privateMessage(from, "")
	cmds := recent.Recent(ctx, msg, min(room, maxInlineRecent))
	if len(cmds) == 0 {
		return nil
	}
	lang := a.lang(ctx, msg)
	var results []any
	prefix := "i:" + from.id + ":"
	for _, cmd := range cmds {
		// A long command is one record, the same each time it is listed.
		id := a.acts.Tokens(ctx, actions.Set{Actions: []reply.Action{{Kind: reply.ActAgain, Command: cmd}}},
			min(maxResultID, maxCallbackData-len(prefix)))[0]
		results = append(results, a.pendingArticle(lang, from, id, cmd, a.d.Text(lang, "pad.inline.recent"), prefix+id))
	}
	return results
}

// pendingArticle is an inline result for roll, rolled only when chosen:
// its message says from is rolling it, with a button whose callback data
// is data (the press rolls it, once).
func (a *inbound) pendingArticle(lang string, from who, id, roll, description, data string) tgbotapi.InlineQueryResultArticle {
	kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(a.d.Text(lang, "tg.inline.button"), data)))
	placeholder := reply.HTML(&reply.Reply{Lines: []reply.Line{{
		reply.T(a.d.Text(lang, "tg.inline.pending", "name", from.name) + " "), reply.C(clip(roll, 200)),
	}}}, "")
	return tgbotapi.InlineQueryResultArticle{
		Type:                "article",
		ID:                  id,
		Title:               clip(a.d.Text(lang, "tg.inline.title", "roll", roll), 100),
		Description:         description,
		InputMessageContent: tgbotapi.InputTextMessageContent{Text: placeholder, ParseMode: "HTML"},
		ReplyMarkup:         &kb,
	}
}

// onChosen rolls a posted inline message.
func (a *inbound) onChosen(ctx context.Context, c *tgbotapi.ChosenInlineResult, e *entry) {
	if c.From == nil || c.InlineMessageID == "" {
		return
	}
	from := userOf(c.From)
	if strings.TrimSpace(c.Query) == "" {
		if p, ok := a.acts.Resolve(ctx, c.ResultID); ok {
			a.pressInline(ctx, c.InlineMessageID, from, p.Action, e)
		}
		return
	}
	act := reply.Action{Kind: reply.ActAgain, Command: a.inlineCommand(ctx, from, strings.TrimSpace(c.Query))}
	a.pressInline(ctx, c.InlineMessageID, from, act, e)
}

// onInlineButton is a press of the placeholder's button.
func (a *inbound) onInlineButton(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry) {
	from := userOf(cq.From)
	lang := a.lang(ctx, core.Message{Chat: core.ChatRef{Platform: "telegram", ID: from.id}, LangHint: from.lang})
	rest := strings.TrimPrefix(cq.Data, "i:")
	author, token, _ := strings.Cut(rest, ":")
	if author != from.id {
		a.answerCallback(ctx, cq.ID, a.d.Text(lang, "tg.inline.not_yours"))
		return
	}
	if token == "" {
		a.answerCallback(ctx, cq.ID, a.d.Text(lang, "tg.inline.wait"))
		return
	}
	a.answerCallback(ctx, cq.ID, "")
	if token[0] == '/' || token[0] == '!' {
		token = "c:" + token // the data of an earlier version: the command itself
	}
	if p, ok := a.acts.Resolve(ctx, token); ok {
		a.pressInline(ctx, cq.InlineMessageID, from, p.Action, e)
	}
}

// pressInline presses act (the typed roll, a recent one, a pad button or
// the choice it asked for) into a posted inline message.
func (a *inbound) pressInline(ctx context.Context, inlineID string, from who, act reply.Action, e *entry) {
	a.resolveInline(ctx, inlineID, from, e, func(msg core.Message) (*reply.Reply, bool) {
		return a.d.Press(ctx, msg, act)
	})
}

// resolveInline edits a posted inline message into what run answers, in
// the user's private chat, once. A pad button that asks a value first
// answers with its choices: the message then shows the question with a
// button per choice (data "i:<user>:" and the choice's token) and is not
// marked rolled; the choice rolls it
// (TestInlinePadAsksValue).
func (a *inbound) resolveInline(ctx context.Context, inlineID string, from who, e *entry, run func(core.Message) (*reply.Reply, bool)) {
	key := a.key + ".im." + inlineID
	if _, done, err := a.state.State(ctx, key); err != nil || done {
		if err != nil {
			a.log.Warn("telegram inline roll record not read", "err", err)
		}
		return
	}
	msg := core.Message{
		Chat:     core.ChatRef{Platform: "telegram", ID: from.id}, // the user's private chat
		From:     core.User{ID: from.id, Name: from.name},
		LangHint: from.lang,
		Private:  true,
		BotName:  a.botName,
	}
	rep, ok := run(msg)
	if !ok || rep == nil {
		return
	}
	lang := a.out.replyLang(ctx, rep, msg)
	lines := rep.Lines
	if rep.Secret != nil && len(lines) == 0 {
		lines = rep.Secret.Lines
	}
	when := a.now().UTC().Format("2006-01-02 15:04")
	header := reply.Line{reply.I(a.d.Text(lang, "tg.inline.by", "name", from.name, "time", when))}
	chunks := splitHTML(append([]reply.Line{header}, lines...), a.cfg.MaxMessage)
	if len(chunks) == 0 {
		return
	}
	id, _ := strconv.ParseInt(from.id, 10, 64)
	if hasRunButtons(rep) && !rep.Error {
		rows := a.out.buttonRows(ctx, pressable(rep), "", "", "i:"+from.id+":")
		if len(rows) > 0 {
			kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(rows...))
			e.Ops = append(e.Ops, &op{Method: "editMessageText", Chat: id, NoChat: true, Params: map[string]string{
				"inline_message_id": inlineID, "text": chunks[0], "parse_mode": "HTML", "link_preview_options": noPreview,
				"reply_markup": string(kb),
			}})
			return
		}
	}
	if err := a.state.SetState(ctx, key, when); err != nil {
		a.log.Warn("telegram inline roll record not saved", "err", err)
	}
	if err := a.marks.Wrote(ctx, a.key+".im."); err != nil {
		a.log.Warn("telegram state not pruned", "err", err)
	}
	e.Ops = append(e.Ops, &op{Method: "editMessageText", Chat: id, NoChat: true, Params: map[string]string{
		"inline_message_id": inlineID, "text": chunks[0], "parse_mode": "HTML", "link_preview_options": noPreview,
	}})
	// A secret roll (/gmroll) shows the chat only that it was rolled; its
	// result goes to the roller's private chat, where inline rolls run
	// and where the same command typed answers it (TestInlineSecretRoll).
	if rep.Secret != nil && len(rep.Lines) > 0 && id != 0 {
		e.Ops = append(e.Ops, a.out.messageOps(id, 0, rep.Secret.Lines, "")...)
	}
}
