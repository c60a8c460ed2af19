package telegramtest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// MenuButton is a menu button set with setChatMenuButton.
type MenuButton struct {
	Type string // "commands", "web_app" or "default"
	Text string // a web_app button's label
	URL  string // a web_app button's page
}

// MenuButtons returns the menu buttons set with setChatMenuButton, by
// private chat id; 0 is the bot's default for every private chat.
func (s *Server) MenuButtons() map[int64]MenuButton {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int64]MenuButton, len(s.menus))
	for k, v := range s.menus {
		out[k] = v
	}
	return out
}

// setMenuButton answers setChatMenuButton as documented: chat_id, if
// given, is a private chat ("Unique identifier for the target private
// chat. If not specified, default bot's menu button will be changed");
// menu_button is a MenuButton object, a web_app one with a text and an
// HTTPS url; without it, the default.
func (s *Server) setMenuButton(w http.ResponseWriter, p map[string]string) {
	var chat int64
	if c := p["chat_id"]; c != "" {
		id, err := strconv.ParseInt(c, 10, 64)
		if err != nil || id <= 0 {
			s.refuse(w, "chat not found")
			return
		}
		chat = id
	}
	mb := MenuButton{Type: "default"}
	if raw := p["menu_button"]; raw != "" {
		var m struct {
			Type   string `json:"type"`
			Text   string `json:"text"`
			WebApp *struct {
				URL string `json:"url"`
			} `json:"web_app"`
		}
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			s.refuse(w, "can't parse menu button JSON object")
			return
		}
		switch m.Type {
		case "commands", "default":
		case "web_app":
			if strings.TrimSpace(m.Text) == "" || m.WebApp == nil {
				s.refuse(w, "BUTTON_TYPE_INVALID")
				return
			}
			if u, err := url.Parse(m.WebApp.URL); err != nil || u.Scheme != "https" || u.Host == "" {
				s.refuse(w, "BUTTON_URL_INVALID")
				return
			}
			mb.Text, mb.URL = m.Text, m.WebApp.URL
		default:
			s.refuse(w, "unsupported menu button type")
			return
		}
		mb.Type = m.Type
	}
	s.mu.Lock()
	if s.menus == nil {
		s.menus = map[int64]MenuButton{}
	}
	s.menus[chat] = mb
	s.mu.Unlock()
	ok(w, true)
}
