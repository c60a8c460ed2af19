package matrix

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/core"
	"zaria/core/reply"
)

// What the web companion (adapters/web) asks of the Matrix adapter, wired
// by cmd/zaria: post a reply in a room as the answer to a typed command,
// whether a user is in a room, and a private message with a one-time link.

// ErrNotRunning is returned before the bot has logged in.
var ErrNotRunning = errors.New("matrix: the bot is not connected")

// loginLatch opens once the bot has logged in; before, the web companion's
// calls get ErrNotRunning.
type loginLatch struct{ connected chan struct{} }

func newLoginLatch() *loginLatch { return &loginLatch{connected: make(chan struct{})} }

// connect marks the client ready (called once, after login).
func (w *loginLatch) connect() { close(w.connected) }

func (w *loginLatch) ready() bool {
	select {
	case <-w.connected:
		return true
	default:
		return false
	}
}

// Post sends rep in msg.Chat as the answer to msg had it been typed there
// (secret parts privately, buttons, pictures), mentioning its sender.
func (a *Adapter) Post(ctx context.Context, msg core.Message, rep *reply.Reply) error {
	if !a.web.ready() {
		return ErrNotRunning
	}
	if msg.Chat.Platform != "matrix" {
		return fmt.Errorf("matrix: post to %s: not a Matrix room", msg.Chat)
	}
	t := target{room: id.RoomID(msg.Chat.ID), mention: id.UserID(msg.From.ID), txn: id.EventID("web." + randomHex())}
	return a.out.deliver(ctx, t, rep)
}

// RoomMember reports whether user is joined to room now (by the bot's
// state of the room) and whether their power level makes them a GM.
func (a *Adapter) RoomMember(ctx context.Context, room, user string) (member, gm bool, err error) {
	if !a.web.ready() {
		return false, false, ErrNotRunning
	}
	m, err := a.cli.StateStore.GetMember(ctx, id.RoomID(room), id.UserID(user))
	if err != nil {
		return false, false, err
	}
	if m == nil || m.Membership != event.MembershipJoin {
		return false, false, nil
	}
	return true, a.in.powerLevel(ctx, id.RoomID(room), id.UserID(user)) >= gmLevel, nil
}

// RoomMemberName is user's display name in room as the room's messages
// name them (coreMessage): their display name there, else their
// localpart.
func (a *Adapter) RoomMemberName(ctx context.Context, room, user string) string {
	if m, err := a.cli.StateStore.GetMember(ctx, id.RoomID(room), id.UserID(user)); err == nil && m != nil && m.Displayname != "" {
		return m.Displayname
	}
	return id.UserID(user).Localpart()
}

// keyWebDM is the state key of the direct room with user that carries
// the companion's one-time links.
func keyWebDM(user id.UserID) string { return "matrix.web_dm." + string(user) }

// SendPrivately sends text to user alone, in a direct room with the bot
// (made the first time, kept after): a one-time link must reach no one
// else, not even the room's GMs as a secret roll does.
func (a *Adapter) SendPrivately(ctx context.Context, user, text string) error {
	if !a.web.ready() {
		return ErrNotRunning
	}
	u := id.UserID(user)
	room, err := a.directRoom(ctx, u)
	if err != nil {
		return err
	}
	c := notice(reply.Text(text))
	_, err = a.send(ctx, room, event.EventMessage, c, "web."+randomHex())
	return err
}

// directRoom is the bot's direct room with u alone: the one recorded while
// the bot and u are still its only members, else a new one.
func (a *Adapter) directRoom(ctx context.Context, u id.UserID) (id.RoomID, error) {
	v, ok, err := a.state.State(ctx, keyWebDM(u))
	if err != nil {
		return "", fmt.Errorf("load direct room: %w", err)
	}
	if ok && v != "" {
		room := id.RoomID(v)
		members, err := a.cli.StateStore.GetRoomJoinedOrInvitedMembers(ctx, room)
		alone := err == nil && len(members) > 0
		for _, m := range members {
			alone = alone && (m == u || m == a.cli.UserID)
		}
		if alone {
			return room, nil
		}
	}
	var resp *mautrix.RespCreateRoom
	err = a.retry(ctx, "create direct room", func() error {
		return a.authed(ctx, func() (err error) {
			resp, err = a.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "trusted_private_chat", Name: "🎲 Zaria",
				Invite: []id.UserID{u}, IsDirect: true})
			return err
		})
	})
	if err != nil {
		return "", fmt.Errorf("create direct room: %w", err)
	}
	if err := a.state.SetState(ctx, keyWebDM(u), string(resp.RoomID)); err != nil {
		return "", fmt.Errorf("save direct room: %w", err)
	}
	return resp.RoomID, nil
}

func randomHex() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// widgetType is the state event Element Web and Desktop read a room's
// widgets from (/addwidget writes it; state key: the widget's id).
var widgetType = event.Type{Type: "im.vector.modular.widgets", Class: event.StateEventType}

// PowerError is SetWidget's answer when the bot's power level in the
// room is below the one the room asks for the widgets' state event.
type PowerError struct{ Need, Have int }

func (e *PowerError) Error() string {
	return fmt.Sprintf("matrix: the bot needs power level %d in the room, it has %d", e.Need, e.Have)
}

// SetWidget adds to room the widget widgetID, named name, that opens url,
// as Element's /addwidget would (type m.custom, the bot as its creator);
// url "" removes it (the same state event, empty). The bot needs the
// room's power level for that event: *PowerError otherwise, before
// anything is sent.
func (a *Adapter) SetWidget(ctx context.Context, room, widgetID, name, url string) error {
	if !a.web.ready() {
		return ErrNotRunning
	}
	r := id.RoomID(room)
	need, have := gmLevel, 0
	if pl, err := a.in.powerLevels(ctx, r); err == nil && pl != nil {
		need, have = pl.GetEventLevel(widgetType), pl.GetUserLevel(a.cli.UserID)
	}
	if have < need {
		// The room's own word, should the bot's copy be behind.
		pl := &event.PowerLevelsEventContent{}
		if err := a.cli.StateEvent(ctx, r, event.StatePowerLevels, "", pl); err == nil {
			need, have = pl.GetEventLevel(widgetType), pl.GetUserLevel(a.cli.UserID)
		}
		if have < need {
			return &PowerError{Need: need, Have: have}
		}
	}
	content := map[string]any{}
	if url != "" {
		content = map[string]any{"type": "m.custom", "url": url, "name": name, "data": map[string]any{},
			"id": widgetID, "creatorUserId": a.cli.UserID.String(), "waitForIframeLoad": true}
	}
	err := a.retry(ctx, "set room widget", func() error {
		return a.authed(ctx, func() error {
			_, err := a.cli.SendStateEvent(ctx, r, widgetType, widgetID, content)
			if err == nil {
				a.budget.Spend(1)
			}
			return err
		})
	})
	if errors.Is(err, mautrix.MForbidden) {
		// The cached power levels were older than the room's.
		return &PowerError{Need: max(need, have+1), Have: have}
	}
	if err != nil {
		return fmt.Errorf("matrix: set room widget: %w", err)
	}
	return nil
}
