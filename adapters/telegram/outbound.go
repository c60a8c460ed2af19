package telegram

import (
	"context"
	"encoding/json"
	"html"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/internal/actions"
	"zaria/core"
	"zaria/core/reply"
)

// The outbound side: a reply of the core becomes Bot API operations
// (sendMessage split at Telegram's length, sendPhoto for a chart,
// sendDocument for a file, the inline keyboard of its buttons, the reply
// keyboard, a secret roll's private copies) added to the update's journal
// entry, which the sender delivers. It reads nothing from Telegram and
// calls no Bot API method: the inbound side (handle.go, buttons.go,
// pads.go, inline.go) hands it what to answer and where.

// outText is what the outbound side asks the core: its own texts (the
// secret roll's header, the notice when a GM cannot be written to) in a
// language, and a chat's language for a reply built outside the router.
type outText interface {
	Text(lang, key string, kv ...any) string
	Lang(ctx context.Context, chat core.ChatRef, hint string) string
}

// outbox turns replies into operations.
type outbox struct {
	cfg     Config
	d       outText
	admins  *admins        // who gets a secret roll's copy
	acts    *actions.Store // keeps what the buttons mean (set by Run)
	log     *slog.Logger
	botName string // set by Run

	// The chats' status messages (status.go): where their ids are kept.
	state StateStore // set by Run
	key   string     // the journal's key prefix, set by Run
	slots statusSlots
}

// lang is a chat's language, by the router's rule.
func (o *outbox) lang(ctx context.Context, msg core.Message) string {
	return o.d.Lang(ctx, msg.Chat, msg.LangHint)
}

// answer turns a reply into ops for the chat (and, for a secret roll, for
// the roller and the chat's GMs).
func (o *outbox) answer(ctx context.Context, e *entry, msg core.Message, chat *tgbotapi.Chat, replyTo int, from who, rep *reply.Reply) {
	if rep.Status != nil {
		if m := o.mergeStatus(rep); m != nil && (rep.Secret == nil || !msg.Private) {
			// One send: the reply with the status under it (status.go).
			defer markSlot(e, len(e.Ops), chat.ID, topicSlot(rep.Status.Slot, e.thread))
			rep = m
		} else {
			defer o.addStatus(ctx, e, chat.ID, replyTo, rep.Status)
			if len(rep.Lines) == 0 && rep.Secret == nil {
				return
			}
		}
	}
	if len(rep.Mention) > 0 {
		defer mentionIn(e, len(e.Ops), rep.Mention)
	}
	if rep.Secret == nil {
		o.addReply(ctx, e, chat.ID, replyTo, rep, from.name)
		return
	}
	if msg.Private {
		o.addReply(ctx, e, chat.ID, replyTo, rep.Secret, from.name)
		return
	}
	if len(rep.Lines) > 0 || rep.File != nil {
		// The notice keeps its buttons (a blind roll's 🙈 GM, whose
		// result is kept in a record under a random id, never in the
		// button's data).
		o.addReply(ctx, e, chat.ID, replyTo, &reply.Reply{Lines: rep.Lines, File: rep.File, Buttons: rep.Buttons}, from.name)
	}
	lang := o.replyLang(ctx, rep, msg)
	title := chat.Title
	if title == "" {
		title = chat.UserName
	}
	header := reply.Line{reply.I(o.d.Text(lang, "tg.secret.header", "name", from.name, "chat", title))}
	lines := append([]reply.Line{header}, rep.Secret.Lines...)
	type person struct {
		id   int64
		name string
	}
	var to []person
	seen := map[int64]bool{}
	// A blind roll's result goes to the GMs only: the roller gets it as
	// an admin or a named GM, never as the roller.
	if from.numeric != 0 && !rep.Blind {
		to = append(to, person{from.numeric, from.name})
		seen[from.numeric] = true
	}
	for _, u := range o.admins.list(ctx, chat.ID) {
		if !seen[u.id] {
			seen[u.id] = true
			to = append(to, person{u.id, u.name})
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
		ops := o.messageOps(p.id, 0, lines, "")
		if len(ops) == 0 {
			continue
		}
		hint := o.d.Text(lang, "tg.secret.cannot_dm", "name", p.name, "bot", o.botName)
		ops[0].OnFail = o.messageOps(chat.ID, replyTo, []reply.Line{reply.WarningLine(hint)}, "")[0]
		e.Ops = append(e.Ops, ops...)
		if f := rep.Secret.File; f != nil {
			// A file only the GMs may read (a session's full log).
			e.Ops = append(e.Ops, &op{Method: "sendDocument", Chat: p.id, Params: map[string]string{}, Doc: &document{Name: f.Name, Data: f.Data}})
		}
	}
}

// addReply adds the ops of a plain reply: text (split if needed) with the
// buttons on its last message, then the file.
func (o *outbox) addReply(ctx context.Context, e *entry, chat int64, replyTo int, rep *reply.Reply, who string) {
	if rep.Keyboard != nil && !rep.Error && rep.File == nil && rep.Chart == nil {
		o.addKeyboardReply(e, chat, replyTo, rep)
		return
	}
	kb := ""
	if len(pressable(rep)) > 0 || len(links(rep)) > 0 {
		chunks := splitHTML(rep.Lines, o.cfg.MaxMessage)
		last := ""
		if len(chunks) > 0 && rep.File == nil {
			last = chunks[len(chunks)-1]
		}
		kb = o.keyboard(ctx, chat, rep, who, last)
	}
	if rep.Chart != nil && rep.File == nil {
		o.addChart(ctx, e, chat, replyTo, rep, kb)
		return
	}
	if rep.File == nil {
		e.Ops = append(e.Ops, o.messageOps(chat, replyTo, rep.Lines, kb)...)
		return
	}
	params := map[string]string{}
	setReplyTo(params, replyTo)
	chunks := splitHTML(rep.Lines, o.cfg.MaxMessage)
	if len(chunks) == 1 && utf16Len(stripHTML(chunks[0])) <= 1024 {
		params["caption"] = chunks[0]
		params["parse_mode"] = "HTML"
	} else {
		e.Ops = append(e.Ops, o.messageOps(chat, replyTo, rep.Lines, "")...)
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
func (o *outbox) addChart(ctx context.Context, e *entry, chat int64, replyTo int, rep *reply.Reply, kb string) {
	textForm := reply.WithChartText(rep).Lines
	var img []byte
	if o.cfg.Charts != nil {
		lang := o.replyLang(ctx, rep, core.Message{Chat: core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat, 10)}})
		var err error
		img, err = o.cfg.Charts.PNG(ctx, rep.Chart, lang)
		if err != nil {
			o.log.Error("telegram chart not drawn, sending its text form", "chat", chat, "err", err)
			img = nil
		}
	}
	if len(img) == 0 {
		e.Ops = append(e.Ops, o.messageOps(chat, replyTo, textForm, kb)...)
		return
	}
	params := map[string]string{}
	setReplyTo(params, replyTo)
	photo := &op{Method: "sendPhoto", Chat: chat, Params: params, Doc: &document{Field: "photo", Name: "odds.png", MIME: "image/png", Data: img}}
	chunks := splitHTML(rep.Lines, o.cfg.MaxMessage)
	if len(chunks) == 1 && utf16Len(stripHTML(chunks[0])) <= maxCaption {
		params["caption"] = chunks[0]
		params["parse_mode"] = "HTML"
		if kb != "" {
			params["reply_markup"] = kb
		}
		photo.Fallback = o.messageOps(chat, replyTo, textForm, kb)
		e.Ops = append(e.Ops, photo)
		return
	}
	// Too long for a caption: the picture, then the text (with the
	// buttons); the chart in characters only if the picture fails.
	photo.Fallback = o.messageOps(chat, 0, rep.Chart.Text, "")
	e.Ops = append(e.Ops, photo)
	e.Ops = append(e.Ops, o.messageOps(chat, replyTo, rep.Lines, kb)...)
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
func (o *outbox) messageOps(chat int64, replyTo int, lines []reply.Line, keyboard string) []*op {
	chunks := splitHTML(lines, o.cfg.MaxMessage)
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

// replyLang is the language rep was rendered in (Reply.Lang), or for a
// reply from outside the router the chat's language.
func (o *outbox) replyLang(ctx context.Context, rep *reply.Reply, msg core.Message) string {
	if rep.Lang != "" {
		return rep.Lang
	}
	return o.lang(ctx, msg)
}

func (o *outbox) errorReply(lang, key string, kv ...any) *reply.Reply {
	return reply.Warning(lang, o.d.Text(lang, key, kv...))
}

// pressable are the buttons of rep that mean something when pressed (an
// Action the core resolves) and show something: Telegram refuses a whole
// message for one button without text.
func pressable(rep *reply.Reply) []reply.Button {
	if rep.Error {
		return nil
	}
	var out []reply.Button
	for _, b := range rep.Buttons {
		if b.Action != nil && b.Action.Valid() && b.Action.Kind != reply.ActLink && strings.TrimSpace(b.Label) != "" {
			out = append(out, b)
		}
	}
	return out
}

// links are rep's link buttons (reply.ActLink): drawn as url buttons
// under the others, never kept, never pressed.
func links(rep *reply.Reply) []reply.Button {
	var out []reply.Button
	for _, b := range rep.Buttons {
		if !rep.Error && b.Action != nil && b.Action.Kind == reply.ActLink && b.Action.Valid() && strings.TrimSpace(b.Label) != "" {
			out = append(out, b)
		}
	}
	return out
}

// keyboard builds the inline keyboard of a reply in chat (or "") and
// keeps what its buttons mean. text is the HTML of the message it goes
// on; who is the roller.
func (o *outbox) keyboard(ctx context.Context, chat int64, rep *reply.Reply, who, text string) string {
	rows := o.buttonRows(ctx, pressable(rep), who, text, "")
	ls := links(rep)
	if len(rows) == 0 && len(ls) == 0 {
		return ""
	}
	if n := len(rep.Buttons); n > maxKeyboardButtons {
		o.log.Warn("telegram keyboard cut to Telegram's limit", "buttons", n, "max", maxKeyboardButtons)
	}
	if len(ls) == 0 {
		kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(rows...))
		return string(kb)
	}
	// go-telegram-bot-api v5.5.1 predates web_app buttons: the rows are
	// written here.
	all := make([][]any, 0, len(rows)+len(ls))
	for _, r := range rows {
		row := make([]any, len(r))
		for i := range r {
			row[i] = r[i]
		}
		all = append(all, row)
	}
	for _, b := range ls {
		all = append(all, []any{linkButton(chat, b)})
	}
	kb, _ := json.Marshal(map[string][][]any{"inline_keyboard": all})
	return string(kb)
}

// appButton is a button that opens a page: url, or web_app (a Mini App).
type appButton struct {
	Text   string      `json:"text"`
	URL    string      `json:"url,omitempty"`
	WebApp *webAppInfo `json:"web_app,omitempty"`
}

type webAppInfo struct {
	URL string `json:"url"`
}

// linkButton draws a link button in chat: in a private chat (a positive
// id) a web_app button to its Action's App page when that is HTTPS
// (Telegram signs the launch data for that chat; its rule for Mini
// Apps), else a url button to its URL (Telegram refuses web_app buttons
// in groups).
func linkButton(chat int64, b reply.Button) appButton {
	if chat > 0 && strings.HasPrefix(b.Action.App, "https://") {
		return appButton{Text: b.Label, WebApp: &webAppInfo{URL: b.Action.App}}
	}
	return appButton{Text: b.Label, URL: b.Action.URL}
}

// buttonRows stores bs and lays them out, each button's data prefix and
// its token. A keyboard with an odds button keeps a view of the message
// (text: its HTML), for the odds line to be added to it.
func (o *outbox) buttonRows(ctx context.Context, bs []reply.Button, who, text, prefix string) [][]tgbotapi.InlineKeyboardButton {
	if len(bs) == 0 {
		return nil
	}
	if len(bs) > maxKeyboardButtons {
		bs = bs[:maxKeyboardButtons]
	}
	set := actions.Set{}
	labels := make([]string, len(bs))
	for i, b := range bs {
		set.Actions = append(set.Actions, *b.Action)
		labels[i] = b.Label
		if b.Action.Kind == reply.ActOdds && set.View == "" {
			v, _ := json.Marshal(oddsView{Who: who, Text: text, Labels: labels})
			set.View = string(v)
		}
	}
	toks := o.acts.Tokens(ctx, set, maxCallbackData-len(prefix))
	for i := range toks {
		toks[i] = prefix + toks[i]
	}
	return layout(labels, toks, set.Actions)
}

// layout puts the buttons in rows: a roll's again and odds side by side;
// a pad's two per row when both labels are short, else one per row, in
// order.
func layout(labels, data []string, acts []reply.Action) [][]tgbotapi.InlineKeyboardButton {
	roll := true
	for _, act := range acts {
		if act.Kind != reply.ActAgain && act.Kind != reply.ActOdds {
			roll = false
		}
	}
	var rows [][]tgbotapi.InlineKeyboardButton
	if pressOnly(acts) {
		// A tray of dice, a status message's ▶ ⏹: four to a row.
		for i := range labels {
			if len(rows) == 0 || len(rows[len(rows)-1]) == 4 {
				rows = append(rows, nil)
			}
			rows[len(rows)-1] = append(rows[len(rows)-1], tgbotapi.NewInlineKeyboardButtonData(labels[i], data[i]))
		}
		return rows
	}
	if roll {
		var row []tgbotapi.InlineKeyboardButton
		for i := range labels {
			row = append(row, tgbotapi.NewInlineKeyboardButtonData(labels[i], data[i]))
		}
		return append(rows, row)
	}
	prevShort := false
	for i := range labels {
		btn := tgbotapi.NewInlineKeyboardButtonData(labels[i], data[i])
		short := utf8.RuneCountInString(labels[i]) <= shortLabel
		if short && prevShort && len(rows) > 0 && len(rows[len(rows)-1]) == 1 {
			rows[len(rows)-1] = append(rows[len(rows)-1], btn)
			prevShort = false
			continue
		}
		rows = append(rows, []tgbotapi.InlineKeyboardButton{btn})
		prevShort = short
	}
	return rows
}

// pressOnly reports whether acts are all actions the core resolves by
// their kind alone (no roll to repeat, no pad button): a dice tray, a
// turn order's buttons.
func pressOnly(acts []reply.Action) bool {
	for _, act := range acts {
		switch act.Kind {
		case reply.ActAgain, reply.ActOdds, reply.ActRun:
			return false
		}
	}
	return len(acts) > 0
}

// addKeyboardReply adds the ops of a reply that shows or hides a reply
// keyboard: its text, the keyboard on the last message, which replies to
// the asker's message (so a selective keyboard reaches them).
func (o *outbox) addKeyboardReply(e *entry, chat int64, replyTo int, rep *reply.Reply) {
	kb := replyKeyboard(rep.Keyboard, chat < 0)
	ops := o.messageOps(chat, replyTo, rep.Lines, kb)
	if kb != "" && len(ops) > 1 {
		setReplyTo(ops[len(ops)-1].Params, replyTo)
	}
	e.Ops = append(e.Ops, ops...)
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

// utf16Len is the length Telegram counts: UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// token is a piece of a message: closed HTML with its visible length.
type token struct {
	html    string
	n       int
	newline bool // starts a new reply line
}

// splitHTML renders lines as Telegram HTML in messages of at most limit
// visible characters each. It cuts between lines when it can, else between
// spans, else inside a span's text at a space; a cut is never inside a tag
// or an entity, because each piece is escaped and tagged on its own.
func splitHTML(lines []reply.Line, limit int) []string {
	if limit < 16 {
		limit = 16
	}
	var out []string
	var b strings.Builder
	n := 0
	add := func(t token) {
		need := t.n
		if t.newline && n > 0 {
			need++
		}
		if n > 0 && n+need > limit {
			out = append(out, b.String())
			b.Reset()
			n = 0
		}
		if t.newline && b.Len() > 0 {
			b.WriteByte('\n')
			n++
		}
		b.WriteString(t.html)
		n += t.n
	}
	for li, l := range lines {
		var toks []token
		total := 0
		for _, sp := range l {
			for _, piece := range cutText(sp.Text, limit) {
				h := reply.HTML(&reply.Reply{Lines: []reply.Line{{{Style: sp.Style, Text: piece}}}}, "")
				toks = append(toks, token{html: h, n: utf16Len(piece)})
				total += utf16Len(piece)
			}
		}
		if total <= limit {
			// A line that fits in a message is never cut.
			var h strings.Builder
			for _, t := range toks {
				h.WriteString(t.html)
			}
			add(token{html: h.String(), n: total, newline: li > 0})
			continue
		}
		for i, t := range toks {
			t.newline = i == 0 && li > 0
			add(t)
		}
	}
	if b.Len() > 0 || len(out) == 0 {
		out = append(out, b.String())
	}
	// Telegram refuses empty and whitespace-only texts.
	kept := out[:0]
	for _, s := range out {
		if strings.TrimSpace(s) != "" {
			kept = append(kept, s)
		}
	}
	return kept
}

// cutText cuts s into pieces of at most limit UTF-16 units, at the last
// space before the limit when there is one.
func cutText(s string, limit int) []string {
	var out []string
	for utf16Len(s) > limit {
		cut, n, lastSpace := 0, 0, -1
		for i, r := range s {
			if n+utf16.RuneLen(r) > limit {
				break
			}
			n += utf16.RuneLen(r)
			cut = i + utf8.RuneLen(r)
			if r == ' ' || r == '\n' {
				lastSpace = cut
			}
		}
		// Cut after a space, unless all before it is blank: a whitespace-only
		// part would be refused by Telegram and its spaces lost.
		if lastSpace > 0 && strings.TrimSpace(s[:lastSpace]) != "" {
			cut = lastSpace
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

func stripHTML(s string) string { return html.UnescapeString(tagRE.ReplaceAllString(s, "")) }
