package main

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"zaria/adapters/chart"
	"zaria/adapters/matrix"
	"zaria/adapters/telegram"
	"zaria/adapters/web"
	"zaria/configs"
	"zaria/core"
	"zaria/core/ask"
	"zaria/core/command"
	"zaria/core/companion"
	"zaria/core/deck"
	"zaria/core/fold"
	"zaria/core/initiative"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/sheet"
	"zaria/core/systems"
	"zaria/core/systems/fork"
	"zaria/core/table"
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
			switch {
			case w.HP == nil && sheet.IsHitPoints(v.Name):
				if hp, ok := parseHP(v.Text); ok {
					hp.Name = v.Name
					w.HP = &hp
					continue
				}
			case strings.HasPrefix(v.Name, sheet.MarkPrefix):
				w.Marks = append(w.Marks, web.Value{Name: strings.TrimPrefix(v.Name, sheet.MarkPrefix), Text: v.Text})
				continue
			case sheet.IsConditions(v.Name):
				for _, k := range initiative.ParseConditions(v.Text) {
					w.Conditions = append(w.Conditions, web.Condition{Name: k.Name, Rounds: k.Rounds})
				}
				continue
			}
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

// PadButtons lists a pad's buttons in order for the pad editor: owner's
// (a user id), or the chat's ("").
func (s webSheets) PadButtons(ctx context.Context, chat core.ChatRef, owner string) ([]web.PadButton, error) {
	bs, err := s.db.PadButtons(ctx, chat, owner)
	if err != nil {
		return nil, err
	}
	out := make([]web.PadButton, len(bs))
	for i, b := range bs {
		out[i] = web.PadButton{ID: b.ID, Label: b.Label, Command: b.Command}
	}
	return out, nil
}

// parseHP reads a hit points value as /pj does ("9/12" or "9").
func parseHP(text string) (web.HP, bool) {
	cur, maxV, hasMax, ok := sheet.ParseHitPoints(text)
	return web.HP{Cur: cur, Max: maxV, HasMax: hasMax}, ok
}

// webAsks reads the chat's open requests for a roll as a user sees them
// (core/ask.Open: the buttons the core lets that user press).
type webAsks struct{ db *sqlite.DB }

func (w webAsks) Open(ctx context.Context, chat core.ChatRef, user string, gm bool) ([]web.Ask, error) {
	ps, err := ask.Open(ctx, w.db, chat, user, gm)
	if err != nil {
		return nil, err
	}
	out := make([]web.Ask, 0, len(ps))
	for _, p := range ps {
		a := web.Ask{ID: p.ID, Check: p.Check, Blind: p.Blind, GMName: p.GMName, Waiting: p.Waiting, Close: p.Close}
		for _, b := range p.Buttons {
			a.Buttons = append(a.Buttons, web.AskButton{Key: b.Key, Name: b.Name, Mine: b.Mine})
		}
		out = append(out, a)
	}
	return out, nil
}

// webFights is the chat's turn order as a user may see it, as the core
// makes it (initiative.Service.View): the open one, or the last one as
// it ended, with until when it may be reopened.
type webFights struct{ s *initiative.Service }

func (f webFights) Order(ctx context.Context, chat core.ChatRef, who web.Viewer) (web.Order, bool, error) {
	v, _, err := f.s.View(ctx, chat, initiative.Viewer{User: who.User, GM: who.GM})
	if err != nil {
		return web.Order{}, false, err
	}
	out := web.Order{Round: v.Round, CanNext: v.CanNext, UndoUntil: v.UndoUntil}
	for _, c := range v.Combatants {
		wc := web.Combatant{Name: c.Name, Init: c.Init, Current: c.Current, Mine: c.Mine, Character: c.Character,
			HP: c.HP, Cur: c.Cur, Max: c.Max, Mark: c.Mark}
		for _, k := range c.Conditions {
			wc.Conditions = append(wc.Conditions, web.Condition{Name: k.Name, Rounds: k.Rounds})
		}
		out.Combatants = append(out.Combatants, wc)
	}
	return out, v.Open, nil
}

// webRules reads the chat's forks and own systems for the rules screen,
// in the screen's language.
type webRules struct {
	db   *sqlite.DB
	port *command.Router
}

func (r webRules) Rules(ctx context.Context, chat core.ChatRef, lang string) ([]web.RuleSet, error) {
	fs, err := r.db.Forks(ctx, chat)
	if err != nil {
		return nil, err
	}
	vs, err := fork.Views(fs, fork.Texts{Lang: lang, T: func(key string, kv ...any) string { return r.port.Text(lang, key, kv...) }})
	if err != nil {
		return nil, err
	}
	out := make([]web.RuleSet, 0, len(vs))
	for _, v := range vs {
		rs := web.RuleSet{Key: v.Key, Title: v.Title, Command: v.Command, Changes: v.Changes}
		for _, n := range v.Numbers {
			rs.Numbers = append(rs.Numbers, web.RuleNumber{Key: n.Key, Name: n.Name, Value: n.Value, Min: n.Min, Max: n.Max})
		}
		for _, n := range v.Names {
			rs.Names = append(rs.Names, web.RuleName{Key: n.Key, Name: n.Name})
		}
		for _, b := range v.Bands {
			rs.Bands = append(rs.Bands, web.RuleBand{Key: b.Key, Name: b.Name, Op: b.Op, Value: b.Value})
		}
		for _, t := range v.Tables {
			rs.Tables = append(rs.Tables, web.RuleTable{Key: t.Key, RowFrom: t.RowFrom, RowTo: t.RowTo, ColFrom: t.ColFrom, ColTo: t.ColTo, Cells: t.Cells})
		}
		for _, h := range v.Rules {
			c := web.RuleChoice{Key: h.Key, Name: h.Name, Value: h.Value}
			for _, ch := range h.Choices {
				c.Choices = append(c.Choices, web.RuleName{Key: ch.Key, Name: ch.Name})
			}
			rs.Choices = append(rs.Choices, c)
		}
		out = append(out, rs)
	}
	return out, nil
}

// webTables reads the chat's random tables and decks.
type webTables struct{ db *sqlite.DB }

func (t webTables) Tables(ctx context.Context, chat core.ChatRef) ([]web.Table, error) {
	list, err := t.db.ListTables(ctx, chat)
	if err != nil {
		return nil, err
	}
	out := make([]web.Table, len(list))
	for i, x := range list {
		src := x.Source()
		out[i] = web.Table{Name: x.Name, Dice: src.Dice, Rows: src.Rows}
	}
	return out, nil
}

// Decks lists the chat's decks and the built-in ones it has not drawn from.
func (t webTables) Decks(ctx context.Context, chat core.ChatRef) ([]web.Deck, error) {
	list, err := t.db.ListDecks(ctx, chat)
	if err != nil {
		return nil, err
	}
	var out []web.Deck
	seen := map[string]bool{}
	for _, d := range list {
		seen[d.Kind] = true
		out = append(out, web.Deck{Name: d.Name, Kind: d.Kind, Left: d.Left(), Total: d.Size()})
	}
	for _, k := range deck.Kinds() {
		if !seen[k] {
			d := deck.Deck{Kind: k}
			out = append(out, web.Deck{Kind: k, Left: d.Size(), Total: d.Size()})
		}
	}
	return out, nil
}

// webForms is the dice screen's tray (core/roll) and checks
// (core/systems.Forms, from the system files), as the page draws them.
type webForms struct{ r *command.Router }

func (webForms) Tray() web.Tray {
	t := roll.DiceTray()
	return web.Tray{Dice: t.Dice, MaxCount: t.MaxCount, AdvCount: t.AdvCount, AdvSides: t.AdvSides}
}

func (f webForms) Forms(ctx context.Context, msg core.Message) ([]web.Form, error) {
	fs, err := systems.Forms(ctx, f.r, msg)
	if err != nil {
		return nil, err
	}
	out := make([]web.Form, len(fs))
	for i, x := range fs {
		out[i] = web.Form{Key: x.Key, Command: x.Command, Title: x.Title, Fields: webFields(x.Fields)}
	}
	return out, nil
}

func webFields(fs []systems.Field) []web.Field {
	var out []web.Field
	for _, x := range fs {
		f := web.Field{Key: x.Key, Label: x.Label, Kind: x.Kind, Min: x.Min, Max: x.Max, Default: x.Default, Optional: x.Optional,
			Parts: webFields(x.Parts), Before: x.Before, Prefix: x.Prefix, Suffix: x.Suffix, Word: x.Word}
		for _, c := range x.Choices {
			f.Choices = append(f.Choices, web.Choice{Label: c.Label, Value: c.Value, Group: c.Group})
		}
		out = append(out, f)
	}
	return out
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

// webLinker is /app's Linker: the companion's link once it is wired. On
// Telegram the link is a button under /app's reply (the adapter draws it:
// web_app in a private chat, url to the Mini App's direct link in a
// group).
type webLinker struct {
	a  *web.Adapter
	mx roomWidgets // nil without Matrix
}

// roomWidgets is the Matrix adapter's room widget state event.
type roomWidgets interface {
	SetWidget(ctx context.Context, room, widgetID, name, url string) error
}

// widgetID is the state key of the companion's widget in a room.
const widgetID = "zaria_table"

// SetWidget is /app widget (companion.Widgets): the Matrix adapter adds
// the room widget whose URL the companion gives, or removes it.
func (l *webLinker) SetWidget(ctx context.Context, msg core.Message, on bool) error {
	if l.a == nil || l.mx == nil || msg.Chat.Platform != "matrix" {
		return companion.ErrUnavailable
	}
	u := l.a.WidgetURL(ctx, msg)
	if u == "" {
		return companion.ErrUnavailable
	}
	if !on {
		u = ""
	}
	err := l.mx.SetWidget(ctx, msg.Chat.ID, widgetID, "🎲 Zaria", u)
	if pe := (*matrix.PowerError)(nil); errors.As(err, &pe) {
		return &companion.PowerError{Need: pe.Need, Have: pe.Have}
	}
	return err
}

func (l *webLinker) Link(ctx context.Context, msg core.Message) (companion.Link, error) {
	if l.a == nil {
		return companion.Link{}, companion.ErrUnavailable
	}
	u, private, err := l.a.Link(ctx, msg)
	if web.ErrUnavailable(err) {
		return companion.Link{}, companion.ErrUnavailable
	}
	if err == nil && msg.Chat.Platform == "telegram" {
		return companion.Link{URL: u, Button: true, App: l.a.AppURL()}, nil
	}
	return companion.Link{URL: u, Private: private, Minutes: l.a.LinkMinutes(), Widget: l.a.WidgetURL(ctx, msg)}, err
}

// matrixMembers asks the Matrix adapter's room state.
type matrixMembers struct{ a *matrix.Adapter }

func (m matrixMembers) Member(ctx context.Context, chat core.ChatRef, user string) (member, admin bool, err error) {
	return m.a.RoomMember(ctx, chat.ID, user)
}

// MemberName is user's display name in the room (web.Namer).
func (m matrixMembers) MemberName(ctx context.Context, chat core.ChatRef, user string) string {
	return m.a.RoomMemberName(ctx, chat.ID, user)
}

// posterFunc adapts a function to web.Poster.
type posterFunc func(ctx context.Context, msg core.Message, rep *reply.Reply) error

func (f posterFunc) Post(ctx context.Context, msg core.Message, rep *reply.Reply) error {
	return f(ctx, msg, rep)
}

// newWeb builds the companion when web.url is set (nil otherwise) and
// registers /app on the router. now is its clock (sessions, initData's
// age, membership answers' age).
func newWeb(cfg configs.Config, router *command.Router, db *sqlite.DB, tg *telegram.Adapter, mx *matrix.Adapter, logger *slog.Logger, now func() time.Time) (*web.Adapter, error) {
	link := &webLinker{}
	companion.Register(router, link, link)
	if !cfg.Web.Enabled() {
		return nil, nil
	}
	d := web.Deps{Port: router, Sheets: webSheets{db}, Forms: webForms{router}, Pads: webSheets{db}, State: db,
		Fights: webFights{initiative.New(db, initiative.Options{Fighters: newSheets(db), Logger: logger})}, Tables: webTables{db}, Rules: webRules{db, router}, Asks: webAsks{db}, Logger: logger,
		Posters: map[string]web.Poster{}, Members: map[string]web.Members{}, Private: map[string]web.Private{},
		Chart: chart.PNG, Now: now, UserName: fold.UserName,
		Limits: web.Limits{Rows: table.MaxRows, Cards: deck.MaxCards, Combatants: initiative.MaxCombatants, Rounds: initiative.MaxRounds, Bound: fork.MaxBound}}
	if tg != nil {
		d.TelegramToken = cfg.Telegram.Token
		d.TelegramBot = tg.BotName
		d.Posters["telegram"] = posterFunc(tg.Post)
		d.Members["telegram"] = telegramMembers{tg}
		d.TelegramMenu = func(ctx context.Context, appURL string) error {
			return tg.SetMenuButton(ctx, "🎲 Zaria", appURL)
		}
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
	if mx != nil {
		link.mx = mx
	}
	return a, nil
}
