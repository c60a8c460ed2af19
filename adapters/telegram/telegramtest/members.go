package telegramtest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// SetMember makes user a member of chat for getChatMember (the chat's
// administrators, SetAdmins, are members too).
func (s *Server) SetMember(chat, user int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.members == nil {
		s.members = map[int64]map[int64]bool{}
	}
	if s.members[chat] == nil {
		s.members[chat] = map[int64]bool{}
	}
	s.members[chat][user] = true
}

// Leave makes user leave chat: getChatMember says "left" from now on.
func (s *Server) Leave(chat, user int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.members[chat], user)
}

// Kick removes the bot from chat: getChatMember about it answers 403 as
// Telegram does ("Forbidden: bot was kicked from the supergroup chat").
func (s *Server) Kick(chat int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kicked == nil {
		s.kicked = map[int64]bool{}
	}
	s.kicked[chat] = true
}

// chatMember answers getChatMember: "administrator" for the chat's
// administrators, "member" for its members, "left" for anyone else.
func (s *Server) chatMember(w http.ResponseWriter, params map[string]string) {
	chat, err1 := strconv.ParseInt(params["chat_id"], 10, 64)
	user, err2 := strconv.ParseInt(params["user_id"], 10, 64)
	if err1 != nil || err2 != nil {
		reply(w, 400, "Bad Request: invalid user_id specified", 0)
		return
	}
	s.mu.Lock()
	if s.kicked[chat] {
		s.mu.Unlock()
		reply(w, 403, "Forbidden: bot was kicked from the supergroup chat", 0)
		return
	}
	status := "left"
	switch {
	case slices.Contains(s.admins[chat], user):
		status = "administrator"
	case s.members[chat][user]:
		status = "member"
	}
	s.mu.Unlock()
	ok(w, tgbotapi.ChatMember{User: &tgbotapi.User{ID: user, FirstName: fmt.Sprintf("User%d", user)}, Status: status})
}
