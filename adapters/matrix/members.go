package matrix

import (
	"context"
	"strconv"
	"strings"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// onMember joins rooms on invite, records when the bot joined (history
// before it is never answered), and notes being kicked.
func (a *Adapter) onMember(ctx context.Context, evt *event.Event) {
	if evt.GetStateKey() != string(a.cli.UserID) {
		a.leaveIfAlone(ctx, evt)
		return
	}
	mem := evt.Content.AsMember()
	room := evt.RoomID
	switch mem.Membership {
	case event.MembershipInvite:
		if evt.Mautrix.EventSource&event.SourceInvite == 0 {
			return
		}
		if !a.allowed(evt.Sender) {
			a.log.Info("invite declined: inviter not allowed", "room", room, "inviter", evt.Sender)
			if _, err := a.cli.LeaveRoom(ctx, room); err != nil {
				a.log.Warn("decline invite", "room", room, "err", err)
			}
			return
		}
		if mem.IsDirect {
			if err := a.state.SetState(ctx, keyDirect(room), "1"); err != nil {
				a.log.Error("save direct room", "room", room, "err", err)
			}
		}
		err := a.retry(ctx, "join "+string(room), func() error {
			return a.authed(ctx, func() error {
				_, err := a.cli.JoinRoomByID(ctx, room)
				return err
			})
		})
		if err != nil {
			if ctx.Err() == nil {
				a.log.Warn("join room", "room", room, "inviter", evt.Sender, "err", err)
			}
			return
		}
		a.log.Info("joined room", "room", room, "inviter", evt.Sender)
	case event.MembershipJoin:
		if ts, ok := a.ownJoin(evt); ok {
			a.raiseFloor(ctx, room, ts)
		}
	case event.MembershipLeave, event.MembershipBan:
		if evt.Mautrix.EventSource&event.SourceLeave == 0 {
			return
		}
		if evt.Sender != a.cli.UserID {
			a.log.Info("removed from room", "room", room, "by", evt.Sender, "membership", mem.Membership)
		}
		if _, err := a.cli.ForgetRoom(ctx, room); err != nil {
			a.log.Debug("forget room", "room", room, "err", err)
		}
	}
}

// leaveIfAlone leaves (and forgets) a room once the last other member has
// left it: nobody is left to answer (a direct room the user left, a
// secret-roll room whose roller and GMs are gone), and a bot that stays
// keeps receiving the room's state forever. Members invited and not yet
// joined count as members.
func (a *Adapter) leaveIfAlone(ctx context.Context, evt *event.Event) {
	if evt.Mautrix.EventSource&event.SourceJoin == 0 {
		return
	}
	switch evt.Content.AsMember().Membership {
	case event.MembershipLeave, event.MembershipBan:
	default:
		return
	}
	members, err := a.cli.StateStore.GetRoomJoinedOrInvitedMembers(ctx, evt.RoomID)
	if err != nil {
		a.log.Warn("list members", "room", evt.RoomID, "err", err)
		return
	}
	for _, m := range members {
		if m != a.cli.UserID {
			return
		}
	}
	if ctx.Err() != nil {
		return
	}
	err = a.retry(ctx, "leave "+string(evt.RoomID), func() error {
		_, err := a.cli.LeaveRoom(ctx, evt.RoomID)
		return err
	})
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("leave empty room", "room", evt.RoomID, "err", err)
		}
		return
	}
	a.log.Info("left a room nobody else is in", "room", evt.RoomID)
}

// ownJoin reports whether evt is the bot joining a room (not a profile
// change of a member already in it), and when.
func (a *Adapter) ownJoin(evt *event.Event) (int64, bool) {
	if evt.Type.Type != event.StateMember.Type || evt.GetStateKey() != string(a.cli.UserID) {
		return 0, false
	}
	if m, _ := evt.Content.Raw["membership"].(string); m != string(event.MembershipJoin) {
		if mem, ok := evt.Content.Parsed.(*event.MemberEventContent); !ok || mem.Membership != event.MembershipJoin {
			return 0, false
		}
	}
	if evt.Unsigned.PrevContent != nil {
		if pm, _ := evt.Unsigned.PrevContent.Raw["membership"].(string); pm == string(event.MembershipJoin) {
			return 0, false
		}
	}
	return evt.Timestamp, true
}

// allowed says whether an invite from user is accepted.
func (a *Adapter) allowed(user id.UserID) bool {
	if len(a.cfg.AllowedServers) == 0 && len(a.cfg.AllowedUsers) == 0 {
		return true
	}
	for _, u := range a.cfg.AllowedUsers {
		if strings.EqualFold(u, string(user)) {
			return true
		}
	}
	server := user.Homeserver()
	for _, s := range a.cfg.AllowedServers {
		if strings.EqualFold(s, server) {
			return true
		}
	}
	return false
}

// raiseFloor records that events of room older than ts (ms) are history.
func (a *Adapter) raiseFloor(ctx context.Context, room id.RoomID, ts int64) {
	v, _, err := a.state.State(ctx, keyJoined(room))
	if err != nil {
		a.log.Error("load join time", "room", room, "err", err)
		return
	}
	if parseInt(v) >= ts {
		return
	}
	if err := a.state.SetState(ctx, keyJoined(room), strconv.FormatInt(ts, 10)); err != nil {
		a.log.Error("save join time", "room", room, "err", err)
	}
}

// markHistory makes everything in the first sync of a fresh state history:
// the bot may have answered it in an earlier life it no longer remembers.
func (a *Adapter) markHistory(ctx context.Context, rooms map[id.RoomID]int64) {
	for room, ts := range rooms {
		a.raiseFloor(ctx, room, ts+1)
	}
}
