package main

import (
	"context"
	"log/slog"
	"strconv"

	"zaria/adapters/matrix"
	"zaria/adapters/telegram"
	"zaria/adapters/web"
	"zaria/configs"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/companion"
	"zaria/core/reply"
	"zaria/storage/sqlite"
)

// The web companion's wiring: what adapters/web reads from the store,
// asks the router and hands to the chat adapters.

// webSheets reads the chat's sheets and named GMs for the companion.
type webSheets struct{ db *sqlite.DB }

func (s webSheets) Characters(ctx context.Context, chat core.ChatRef) ([]web.Character, error) {
	list, err := s.db.ListCharacters(ctx, chat)
	if err != nil {
		return nil, err
	}
	out := make([]web.Character, len(list))
	for i, c := range list {
		w := web.Character{Name: c.Name, Owner: c.Owner, OwnerName: c.OwnerName, System: c.System, Active: c.Active}
		for _, v := range c.Values {
			w.Values = append(w.Values, web.Value{Name: v.Name, Text: v.Text})
		}
		out[i] = w
	}
	return out, nil
}

func (s webSheets) IsGM(ctx context.Context, chat core.ChatRef, user string) (bool, error) {
	return s.db.IsGM(ctx, chat, user)
}

// Shortcuts lists user's pad buttons (theirs, then the chat's) and saved
// rolls (theirs, then the chat's) for the dice screen.
func (s webSheets) Shortcuts(ctx context.Context, chat core.ChatRef, user string) ([]web.Shortcut, error) {
	var out []web.Shortcut
	for _, owner := range []string{user, ""} {
		bs, err := s.db.PadButtons(ctx, chat, owner)
		if err != nil {
			return nil, err
		}
		for _, b := range bs {
			out = append(out, web.Shortcut{Label: b.Label, Button: b.ID})
		}
	}
	for _, owner := range []string{user, ""} {
		as, err := s.db.ListAliases(ctx, chat, owner)
		if err != nil {
			return nil, err
		}
		for _, a := range as {
			out = append(out, web.Shortcut{Label: a.Name, Alias: a.Name})
		}
	}
	return out, nil
}

// webChoices lists a check's difficulties through the router.
type webChoices struct{ r *command.Router }

func (c webChoices) Choices(ctx context.Context, msg core.Message, text, ph string) ([]web.Choice, error) {
	l, err := c.r.Choices(ctx, msg, text, ph)
	if err != nil || l == nil {
		return nil, err
	}
	out := make([]web.Choice, len(l.Choices))
	for i, ch := range l.Choices {
		out[i] = web.Choice{Label: ch.Label, Value: ch.Value}
	}
	return out, nil
}

// telegramMembers asks the Telegram adapter's getChatMember.
type telegramMembers struct{ a *telegram.Adapter }

func (m telegramMembers) Member(ctx context.Context, chat core.ChatRef, user string) (member, admin bool, err error) {
	c, err1 := strconv.ParseInt(chat.ID, 10, 64)
	u, err2 := strconv.ParseInt(user, 10, 64)
	if err1 != nil || err2 != nil {
		return false, false, nil
	}
	status, err := m.a.ChatMember(ctx, c, u)
	if err != nil {
		return false, false, err
	}
	switch status {
	case "creator", "administrator":
		return true, true, nil
	case "member", "restricted":
		return true, false, nil
	}
	return false, false, nil
}

// webLinker is /app's Linker: the companion's link once it is wired.
type webLinker struct{ a *web.Adapter }

func (l *webLinker) Link(ctx context.Context, msg core.Message) (companion.Link, error) {
	if l.a == nil {
		return companion.Link{}, companion.ErrUnavailable
	}
	u, private, err := l.a.Link(ctx, msg)
	if web.ErrUnavailable(err) {
		return companion.Link{}, companion.ErrUnavailable
	}
	return companion.Link{URL: u, Private: private, Minutes: l.a.LinkMinutes(), Widget: l.a.WidgetURL(ctx, msg)}, err
}

// matrixMembers asks the Matrix adapter's room state.
type matrixMembers struct{ a *matrix.Adapter }

func (m matrixMembers) Member(ctx context.Context, chat core.ChatRef, user string) (member, admin bool, err error) {
	return m.a.RoomMember(ctx, chat.ID, user)
}

// posterFunc adapts a function to web.Poster.
type posterFunc func(ctx context.Context, msg core.Message, rep *reply.Reply) error

func (f posterFunc) Post(ctx context.Context, msg core.Message, rep *reply.Reply) error {
	return f(ctx, msg, rep)
}

// newWeb builds the companion when web.url is set (nil otherwise) and
// registers /app on the router.
func newWeb(cfg configs.Config, router *command.Router, db *sqlite.DB, tg *telegram.Adapter, mx *matrix.Adapter, logger *slog.Logger) (*web.Adapter, error) {
	link := &webLinker{}
	companion.Register(router, link)
	if !cfg.Web.Enabled() {
		return nil, nil
	}
	d := web.Deps{Port: router, Sheets: webSheets{db}, Choices: webChoices{router}, Pads: webSheets{db}, State: db, Logger: logger,
		Posters: map[string]web.Poster{}, Members: map[string]web.Members{}, Private: map[string]web.Private{}}
	if tg != nil {
		d.TelegramToken = cfg.Telegram.Token
		d.TelegramBot = tg.BotName
		d.Posters["telegram"] = posterFunc(tg.Post)
		d.Members["telegram"] = telegramMembers{tg}
	}
	if mx != nil {
		d.Posters["matrix"] = posterFunc(mx.Post)
		d.Members["matrix"] = matrixMembers{mx}
		d.Private["matrix"] = mx
	}
	a, err := web.New(cfg.Web, d)
	if err != nil {
		return nil, err
	}
	link.a = a
	return a, nil
}
