package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"zaria/core"
)

// who is the identity a request proves: the message it would be in the
// chat, and the chat's token (the one the page's path must name). sess is
// the session it came with ("Bearer"), nil for Telegram's initData.
type who struct {
	msg   core.Message
	token string
	sess  *session
}

// Why a request is refused; the page is told the status only.
var (
	errNoAuth     = errors.New("web: no credentials")
	errUnknownTok = errors.New("web: start_param names no chat zaria issued")
	errNotMember  = errors.New("web: not a member of the chat")
	errNoPlatform = errors.New("web: the chat's platform is not running here: membership cannot be checked")
	errBusy       = errors.New("web: too many membership checks for this chat")
)

// identify reads the request's credentials: "tma <initData>" (Telegram's
// signed launch data, within web.max_age) or "Bearer <session>" (what
// initData, a one-time link or the widget's OpenID token was traded for).
// Either way the user must be in the chat now.
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
		return a.fromSession(r.Context(), s)
	}
	return who{}, errNoAuth
}

// fromSession is the identity a valid session vouches for, once the user
// is found in the chat.
func (a *Adapter) fromSession(ctx context.Context, s session) (who, error) {
	tok := s.Token
	if tok == "" {
		var err error
		if tok, err = a.tok.ChatToken(ctx, s.Chat); err != nil {
			return who{}, err
		}
	}
	name := s.User.Name
	if n, ok := a.d.Members[s.Chat.Platform].(Namer); ok {
		name = n.MemberName(ctx, s.Chat, s.User.ID) // as the chat names them now
	}
	from := core.User{ID: s.User.ID, Name: a.displayName(name, s.User.ID)}
	msg := core.Message{Chat: s.Chat, From: from, LangHint: s.Lang, Thread: s.Thread, Sent: a.d.Now(),
		Private: s.Chat.Platform == "telegram" && s.Chat.ID == s.User.ID}
	if s.Chat.Platform == "matrix" {
		msg.Prefix = "!"
	}
	if !msg.Private {
		if err := a.checkMember(ctx, s.Chat, s.User.ID, &msg.FromGM); err != nil {
			return who{}, err
		}
	} else if a.d.Members[s.Chat.Platform] == nil {
		return who{}, errNoPlatform
	}
	return who{token: tok, msg: msg, sess: &s}, nil
}

// displayName is a platform's display name cleaned as the core cleans
// every name (Deps.UserName: no line break, control or bidi character
// can make the page's «📱 name: command» header two lines or turn it
// around), the user's id when nothing is left.
func (a *Adapter) displayName(name, id string) string {
	if n := a.d.UserName(name); n != "" {
		return n
	}
	return id
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
	msg := core.Message{Chat: chat, From: core.User{ID: user, Name: a.displayName(id.Name, user)}, LangHint: id.Lang,
		Private: chat.ID == user, Thread: thread, Sent: a.d.Now()}
	if !msg.Private {
		if err := a.checkMember(ctx, chat, user, &msg.FromGM); err != nil {
			return who{}, err
		}
	} else if a.d.Members["telegram"] == nil {
		return who{}, errNoPlatform
	}
	return who{msg: msg, token: tok}, nil
}

// Membership checks: an answer is kept web.member_ttl; a platform's error
// (the bot removed from the chat, the platform down) memberErrTTL, so that
// a refused page cannot make one platform call per request; and once a
// chat has had memberCalls checks that found no member (refused or
// failed) in memberWindow, it gets no more calls until the window ends:
// its members already known are still served.
const (
	memberErrTTL = 15 * time.Second
	memberCalls  = 30
	memberWindow = time.Minute
	memberKeep   = 10_000 // answers kept before the cache is emptied
)

// members caches the platforms' membership answers.
type members struct {
	mu    sync.Mutex
	ans   map[string]memberAns // chat|user → answer
	calls map[string]callCount // chat → checks that found no member, this window
}

type memberAns struct {
	member, admin bool
	err           error
	at            time.Time
}

type callCount struct {
	from time.Time
	n    int
}

// checkMember asks the platform whether user is in chat (cached); admin,
// when not nil, is set to whether they administer it. A platform with no
// Members wired (its adapter not running here) vouches for no one.
func (a *Adapter) checkMember(ctx context.Context, chat core.ChatRef, user string, admin *bool) error {
	m := a.d.Members[chat.Platform]
	if m == nil {
		return errNoPlatform
	}
	key := chat.String() + "|" + user
	now := a.d.Now()
	c := &a.members
	c.mu.Lock()
	ans, ok := c.ans[key]
	fresh := ok && now.Sub(ans.at) <= a.cfg.MemberTTL && (ans.err == nil || now.Sub(ans.at) <= memberErrTTL)
	if !fresh {
		cc := c.calls[chat.String()]
		if now.Sub(cc.from) <= memberWindow && cc.n >= memberCalls {
			c.mu.Unlock()
			return errBusy
		}
	}
	c.mu.Unlock()
	if !fresh {
		member, adm, err := m.Member(ctx, chat, user)
		ans = memberAns{member: member, admin: adm, err: err, at: now}
		if ctx.Err() != nil {
			return ctx.Err() // the caller gave up: nothing learnt
		}
		c.mu.Lock()
		if len(c.ans) > memberKeep {
			clear(c.ans)
		}
		c.ans[key] = ans
		if err != nil || !member {
			cc := c.calls[chat.String()]
			if now.Sub(cc.from) > memberWindow {
				cc = callCount{from: now}
			}
			cc.n++
			if len(c.calls) > memberKeep {
				clear(c.calls)
			}
			c.calls[chat.String()] = cc
		}
		c.mu.Unlock()
	}
	if ans.err != nil {
		return ans.err
	}
	if !ans.member {
		return errNotMember
	}
	if admin != nil {
		*admin = ans.admin
	}
	return nil
}
