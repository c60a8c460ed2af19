package telegramtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// This file follows the Bot API documentation
// (https://core.telegram.org/bots/api) for group upgrades
// (migrate_to_chat_id / migrate_from_chat_id, and the 400 with
// parameters.migrate_to_chat_id for sends to the old group), inline mode
// (answerInlineQuery, chosen_inline_result, which carries an
// inline_message_id only when the message has an inline keyboard, and
// callback queries from inline messages), editMessageText (by chat and
// message id, or by inline_message_id) and forum topics
// (message_thread_id and is_topic_message on messages; a send with a
// message_thread_id to a chat without topics fails with "message thread
// not found").

// Edit is one editMessageText the server accepted.
type Edit struct {
	Chat      int64  // 0 for an inline message
	MessageID int    // 0 for an inline message
	InlineID  string // inline_message_id, "" for a chat message
	Text      string
	Visible   string
	Markup    string // reply_markup, "" when the edit removed the keyboard
	At        time.Time
}

type inlineResult struct {
	Text   string // input_message_content.message_text
	HTML   bool
	Markup string // reply_markup JSON, "" if none
	Title  string
	Desc   string
}

// InlineResult is one result of the last answerInlineQuery, as a user's
// client shows it before choosing.
type InlineResult struct {
	ID, Title, Description, Text string
	HasKeyboard                  bool
}

// BasicGroup is a basic group (type "group", id < 0), the kind Telegram
// upgrades to a supergroup.
func BasicGroup(id int64) *tgbotapi.Chat {
	return &tgbotapi.Chat{ID: id, Type: "group", Title: fmt.Sprintf("Grupo %d", -id)}
}

// SetForum makes supergroup chat a forum (topics on): sends may carry a
// message_thread_id there.
func (s *Server) SetForum(chat int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forums[chat] = true
}

// pushMessage queues a message update with extra top-level message fields
// the library does not know (message_thread_id, migrate ids) and records
// it for Unanswered when it is a text message.
func (s *Server) pushMessage(key string, m *tgbotapi.Message, extra map[string]any) int {
	b, _ := json.Marshal(m)
	var fields map[string]any
	_ = json.Unmarshal(b, &fields)
	for k, v := range extra {
		fields[k] = v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queue(func(id int) []byte {
		raw, _ := json.Marshal(map[string]any{"update_id": id, key: fields})
		if m.Text != "" && key == "message" {
			s.updates[id] = &Update{ID: id, Chat: m.Chat.ID, MessageID: m.MessageID, Text: m.Text, Pushed: time.Now()}
		}
		return raw
	})
}

func (s *Server) newMessage(chat *tgbotapi.Chat, from User, text string) *tgbotapi.Message {
	s.mu.Lock()
	id := s.nextMsg
	s.nextMsg++
	s.mu.Unlock()
	m := &tgbotapi.Message{MessageID: id, From: from.API(), Chat: chat, Date: int(time.Now().Unix()), Text: text}
	if strings.HasPrefix(text, "/") {
		word, _, _ := strings.Cut(text, " ")
		m.Entities = []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: len(utf16.Encode([]rune(word)))}}
	}
	return m
}

// SayInTopic makes from send text in topic thread of forum supergroup
// chat; it returns the message id.
func (s *Server) SayInTopic(chat int64, thread int, from User, text string) int {
	c := Group(chat)
	m := s.newMessage(c, from, text)
	s.pushMessage("message", m, map[string]any{"message_thread_id": thread, "is_topic_message": true,
		"chat": map[string]any{"id": c.ID, "type": c.Type, "title": c.Title, "is_forum": true}})
	return m.MessageID
}

// PressInTopic is Press for a bot message sent in a forum topic.
func (s *Server) PressInTopic(msg Sent, from User, data string) int {
	c := Group(msg.Chat)
	cq := map[string]any{
		"id": fmt.Sprintf("cb%d", time.Now().UnixNano()), "from": from.API(), "data": data, "chat_instance": "ci",
		"message": map[string]any{"message_id": msg.ID, "date": msg.At.Unix(), "text": msg.Visible, "from": s.bot,
			"message_thread_id": msg.Thread, "is_topic_message": true,
			"chat": map[string]any{"id": c.ID, "type": c.Type, "title": c.Title, "is_forum": true}},
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queue(func(id int) []byte {
		raw, _ := json.Marshal(map[string]any{"update_id": id, "callback_query": cq})
		return raw
	})
}

// MigrateTo delivers the service message Telegram posts in basic group
// old when it becomes supergroup new, and from then on refuses sends to
// old with 400 and parameters.migrate_to_chat_id.
func (s *Server) MigrateTo(old, new int64, by User) int {
	s.mu.Lock()
	s.migrated[old] = new
	s.mu.Unlock()
	m := s.newMessage(BasicGroup(old), by, "")
	return s.pushMessage("message", m, map[string]any{"migrate_to_chat_id": new})
}

// MigrateFrom delivers the service message Telegram posts in the new
// supergroup new, which was basic group old.
func (s *Server) MigrateFrom(old, new int64, by User) int {
	s.mu.Lock()
	s.migrated[old] = new
	s.mu.Unlock()
	m := s.newMessage(Group(new), by, "")
	return s.pushMessage("message", m, map[string]any{"migrate_from_chat_id": old})
}

// InlineQuery makes from type "@bot query"; it returns the query id.
func (s *Server) InlineQuery(from User, query string) string {
	id := fmt.Sprintf("iq%d", time.Now().UnixNano())
	s.Push(tgbotapi.Update{InlineQuery: &tgbotapi.InlineQuery{ID: id, From: from.API(), Query: query}})
	return id
}

// InlineResults returns the results of the last answerInlineQuery.
func (s *Server) InlineResults() []InlineResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []InlineResult
	for id, r := range s.results {
		out = append(out, InlineResult{ID: id, Title: r.Title, Description: r.Desc, Text: r.Text, HasKeyboard: r.Markup != ""})
	}
	return out
}

func (s *Server) answerInline(w http.ResponseWriter, p map[string]string) {
	if p["inline_query_id"] == "" {
		reply(w, 400, "Bad Request: QUERY_ID_INVALID", 0)
		return
	}
	var results []struct {
		Type    string          `json:"type"`
		ID      string          `json:"id"`
		Title   string          `json:"title"`
		Desc    string          `json:"description"`
		Markup  json.RawMessage `json:"reply_markup"`
		Content struct {
			Text      string `json:"message_text"`
			ParseMode string `json:"parse_mode"`
		} `json:"input_message_content"`
	}
	if err := json.Unmarshal([]byte(p["results"]), &results); err != nil {
		reply(w, 400, "Bad Request: can't parse inline query results JSON object", 0)
		return
	}
	// "No more than 50 results per query are allowed."
	if len(results) > 50 {
		reply(w, 400, "Bad Request: RESULTS_TOO_MUCH", 0)
		return
	}
	got := map[string]inlineResult{}
	for _, r := range results {
		if r.ID == "" || len(r.ID) > 64 || got[r.ID].Title != "" {
			reply(w, 400, "Bad Request: RESULT_ID_INVALID", 0)
			return
		}
		if r.Type != "article" || r.Title == "" || strings.TrimSpace(r.Content.Text) == "" {
			reply(w, 400, "Bad Request: MESSAGE_EMPTY", 0)
			return
		}
		ir := inlineResult{Text: r.Content.Text, HTML: r.Content.ParseMode == "HTML", Title: r.Title, Desc: r.Desc}
		if len(r.Markup) > 0 && string(r.Markup) != "null" {
			if desc := badKeyboard(string(r.Markup), false); desc != "" {
				reply(w, 400, "Bad Request: "+desc, 0)
				return
			}
			ir.Markup = string(r.Markup)
		}
		got[r.ID] = ir
	}
	s.mu.Lock()
	s.results = got
	s.mu.Unlock()
	ok(w, true)
}

// Choose makes from pick result id of the last inline answer: the message
// is posted (in a chat the bot does not see) and chosen_inline_result is
// delivered. It returns the inline_message_id, "" when the result has no
// inline keyboard (Telegram then gives none).
func (s *Server) Choose(from User, resultID, query string) (string, error) {
	s.mu.Lock()
	r, found := s.results[resultID]
	if !found {
		s.mu.Unlock()
		return "", fmt.Errorf("telegramtest: no inline result %q", resultID)
	}
	inlineID := ""
	if r.Markup != "" {
		inlineID = fmt.Sprintf("im%d", len(s.inline)+1)
		vis := r.Text
		if r.HTML {
			vis, _ = Visible(r.Text)
		}
		s.inline[inlineID] = vis
	}
	s.mu.Unlock()
	s.Push(tgbotapi.Update{ChosenInlineResult: &tgbotapi.ChosenInlineResult{ResultID: resultID, From: from.API(), InlineMessageID: inlineID, Query: query}})
	return inlineID, nil
}

// PressInline makes from press a button of inline message id.
func (s *Server) PressInline(inlineID string, from User, data string) int {
	return s.Push(tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{
		ID: fmt.Sprintf("cb%d", time.Now().UnixNano()), From: from.API(), Data: data, InlineMessageID: inlineID, ChatInstance: "ci",
	}})
}

// InlineText is the visible text of inline message id now.
func (s *Server) InlineText(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inline[id]
}

// Edits returns the accepted editMessageText calls, in order.
func (s *Server) Edits() []Edit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Edit(nil), s.edits...)
}

func (s *Server) editText(w http.ResponseWriter, p map[string]string) {
	text := p["text"]
	if strings.TrimSpace(text) == "" {
		reply(w, 400, "Bad Request: message text is empty", 0)
		return
	}
	vis := text
	if p["parse_mode"] == "HTML" {
		v, err := Visible(text)
		if err != nil {
			reply(w, 400, "Bad Request: "+err.Error(), 0)
			return
		}
		vis = v
	}
	if rm := p["reply_markup"]; rm != "" {
		if desc := badKeyboard(rm, p["chat_id"] != "" && !strings.HasPrefix(p["chat_id"], "-")); desc != "" {
			reply(w, 400, "Bad Request: "+desc, 0)
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := Edit{InlineID: p["inline_message_id"], Text: text, Visible: vis, Markup: p["reply_markup"], At: time.Now()}
	if e.InlineID != "" {
		cur, found := s.inline[e.InlineID]
		switch {
		case !found:
			reply(w, 400, "Bad Request: MESSAGE_ID_INVALID", 0)
		case cur == vis && e.Markup == "":
			reply(w, 400, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message", 0)
		default:
			s.inline[e.InlineID] = vis
			s.edits = append(s.edits, e)
			ok(w, true)
		}
		return
	}
	chat, err1 := strconv.ParseInt(p["chat_id"], 10, 64)
	msg, err2 := strconv.Atoi(p["message_id"])
	if err1 != nil || err2 != nil {
		reply(w, 400, "Bad Request: message to edit not found", 0)
		return
	}
	e.Chat, e.MessageID = chat, msg
	cur := ""
	found := false
	for _, m := range s.sent {
		if m.Chat == chat && m.ID == msg {
			cur, found = m.Visible, true
		}
	}
	for _, x := range s.edits {
		if x.Chat == chat && x.MessageID == msg {
			cur = x.Visible
		}
	}
	if !found {
		reply(w, 400, "Bad Request: message to edit not found", 0)
		return
	}
	if cur == vis {
		reply(w, 400, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message", 0)
		return
	}
	s.edits = append(s.edits, e)
	s.cond.Broadcast()
	ok(w, tgbotapi.Message{MessageID: msg, Chat: &tgbotapi.Chat{ID: chat}, From: &s.bot, Text: vis, Date: int(time.Now().Unix())})
}
