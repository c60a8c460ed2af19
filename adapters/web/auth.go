package web

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"zaria/core"
)

// who is the identity a request proves: the message it would be in the
// chat, and the chat's token (the one the page's path must name).
type who struct {
	msg   core.Message
	token string
}

// Why a request is refused; the page is told the status only.
var (
	errNoAuth     = errors.New("web: no credentials")
	errUnknownTok = errors.New("web: start_param names no chat zaria issued")
	errNotMember  = errors.New("web: not a member of the chat")
)

// identify reads the request's credentials: "tma <initData>" (Telegram,
// checked on every call) or "Bearer <session>" (a redeemed one-time link).
func (a *Adapter) identify(r *http.Request) (who, error) {
	h := r.Header.Get("Authorization")
	scheme, cred, _ := strings.Cut(h, " ")
	switch strings.ToLower(scheme) {
	case "tma":
		return a.telegram(r.Context(), cred)
	case "bearer":
		s, ok := a.tok.CheckSession(r.Context(), cred)
		if !ok {
			return who{}, errNoAuth
		}
		tok, err := a.tok.ChatToken(r.Context(), s.Chat)
		if err != nil {
			return who{}, err
		}
		msg := core.Message{Chat: s.Chat, From: s.User, Prefix: "!", Sent: a.d.Now()}
		if err := a.checkMember(r.Context(), s.Chat, s.User.ID, &msg.FromGM); err != nil {
			return who{}, err
		}
		return who{token: tok, msg: msg}, nil
	}
	return who{}, errNoAuth
}

// telegram checks a Mini App's initData: the signature with the bot's
// token, its age, the chat its start_param was issued for, and that the
// user is in that chat now (getChatMember, cached MemberTTL).
func (a *Adapter) telegram(ctx context.Context, raw string) (who, error) {
	if a.d.TelegramToken == "" {
		return who{}, errNoAuth
	}
	id, err := ValidateInitData(raw, a.d.TelegramToken, a.cfg.MaxAge, a.d.Now())
	if err != nil {
		return who{}, err
	}
	user := itoa(id.UserID)
	var chat core.ChatRef
	var tok, thread string
	if id.StartParam == "" {
		// Opened from the bot's menu or profile: the private chat.
		chat = core.ChatRef{Platform: "telegram", ID: user}
		if tok, err = a.tok.ChatToken(ctx, chat); err != nil {
			return who{}, err
		}
	} else {
		p, ok, err := a.tok.Place(ctx, id.StartParam)
		if err != nil {
			return who{}, err
		}
		if !ok || p.Platform != "telegram" {
			return who{}, errUnknownTok
		}
		// A token made in a forum topic: the page's rolls go there.
		chat, thread, tok = p.ChatRef, p.Thread, id.StartParam
	}
	msg := core.Message{Chat: chat, From: core.User{ID: user, Name: id.Name}, LangHint: id.Lang,
		Private: chat.ID == user, Thread: thread, Sent: a.d.Now()}
	if !msg.Private {
		if err := a.checkMember(ctx, chat, user, &msg.FromGM); err != nil {
			return who{}, err
		}
	}
	return who{msg: msg, token: tok}, nil
}

// checkMember asks the platform whether user is in chat (cached); admin,
// when not nil, is set to whether they administer it. A platform with no
// Members wired is trusted to have bound the identity to the chat.
func (a *Adapter) checkMember(ctx context.Context, chat core.ChatRef, user string, admin *bool) error {
	m := a.d.Members[chat.Platform]
	if m == nil {
		if chat.Platform == "telegram" {
			return errNotMember // never trust a Telegram chat unchecked
		}
		return nil
	}
	key := chat.String() + "|" + user
	now := a.d.Now()
	a.memMu.Lock()
	ans, ok := a.members[key]
	a.memMu.Unlock()
	if !ok || now.Sub(ans.at) > a.cfg.MemberTTL {
		member, adm, err := m.Member(ctx, chat, user)
		if err != nil {
			return err
		}
		ans = memberAns{member: member, admin: adm, at: now}
		a.memMu.Lock()
		if len(a.members) > 10_000 {
			clear(a.members)
		}
		a.members[key] = ans
		a.memMu.Unlock()
	}
	if !ans.member {
		return errNotMember
	}
	if admin != nil {
		*admin = ans.admin
	}
	return nil
}
