package web

import (
	"net/http"
	"strings"

	"zaria/core"
	"zaria/core/reply"
)

// Requests for a roll (core/ask): the dice screen shows the chat's open
// ones, each with a button for the user's character (a GM's, for every
// character not rolled yet, and ⏹); a GM asks a new one with a check and,
// optionally, characters. A press is the chat message's button pressed
// as that user (core.Port.Press, reply.ActAsk); a new request is /ask
// typed by that user (core.Port.Dispatch). Who may press what is the
// core's, both on the screen (Asks.Open) and on the press.

// Page limits of a new request, each a 400: the check is one line of at
// most maxAskCheck characters; at most maxAskNames characters named (the
// core's own limit, ask.MaxCharacters, answers with its message above
// its number; the page's picks are from the chat's sheets).
const (
	maxAskCheck = 200
	maxAskNames = 8
)

func askOp(op string) bool { return op == "ask" || op == "askroll" || op == "askclose" }

// askCommand is the command of a request's action: /ask [@A @B] CHECK
// for a new one; for a press, "ask" (not a command: the press names the
// request by Button and the character by Char).
func (q doReq) askCommand() string {
	switch q.Op {
	case "askroll":
		if q.Button > 0 && word(q.Char) {
			return "ask"
		}
		return ""
	case "askclose":
		if q.Button > 0 && q.Char == "" {
			return "ask"
		}
		return ""
	}
	check := strings.TrimSpace(q.Value)
	if !text(check) || len([]rune(check)) > maxAskCheck {
		return ""
	}
	names := strings.FieldsFunc(q.Name, func(r rune) bool { return r == ' ' || r == ',' })
	if len(names) > maxAskNames {
		return ""
	}
	cmd := "/ask "
	for _, n := range names {
		n = strings.TrimPrefix(n, "@")
		if !word(n) {
			return ""
		}
		cmd += "@" + n + " "
	}
	return cmd + check
}

// postAsk hands a request's reply to the chat's adapter as the chat's
// own press or /ask would be sent: the request's message edited (or
// posted, for a new one), the chances and a blind roll's result to the
// GMs. No "📱 Ana" head: the message is the request's, edited in place.
func (a *Adapter) postAsk(r *http.Request, msg core.Message, rep *reply.Reply) (bool, string) {
	lang := a.d.Port.Lang(r.Context(), msg.Chat, msg.LangHint)
	p := a.d.Posters[msg.Chat.Platform]
	if p == nil {
		return false, a.d.Port.Text(lang, "web.err.not_posted")
	}
	if err := p.Post(r.Context(), msg, rep); err != nil {
		a.log.Error("web post request", "chat", msg.Chat.String(), "err", err)
		return false, a.d.Port.Text(lang, "web.err.not_posted")
	}
	return true, ""
}
