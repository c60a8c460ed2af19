package matrix

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/backoff"
	"zaria/core/reply"
)

// keyMaking records a secret room being made for room and roller (the
// time it started, unix ms): a room the bot made then and holds alone is
// that one, half made (see adoptHalfMade).
func keyMaking(room id.RoomID, user id.UserID) string {
	return "matrix/secret_making/" + string(room) + "/" + string(user)
}

// queueSecret puts a reply's secret part in the queue (see courier). A blind
// roll's goes to the room's GMs alone: the queue's roller "", whose
// secret room the roller is in only as a GM. A secret file (a session's
// whole log, for the GMs) is not queued: it goes at once to that room.
func (a *Adapter) queueSecret(ctx context.Context, t target, rep *reply.Reply) error {
	roller := t.mention
	if rep.Blind {
		roller = ""
	}
	if f := rep.Secret.File; f != nil {
		room, err := a.secretRoom(ctx, t.room, roller, rep.SecretTo)
		if err != nil {
			return err
		}
		c := notice(rep.Secret)
		if _, err := a.send(ctx, room, event.EventMessage, c, a.out.txnID(t.txn, "secret")); err != nil {
			return err
		}
		return a.out.sendFileAs(ctx, target{room: room, txn: t.txn}, f, "secret file")
	}
	c := notice(rep.Secret)
	s := pendingSecret{Cmd: t.txn, Origin: t.room, Roller: roller, GMs: rep.SecretTo, Body: c.Body, HTML: c.FormattedBody, Lang: rep.Lang}
	return a.courier.enqueue(ctx, s)
}

// secretRoom returns the room where roller's secret rolls of origin go:
// origin itself when it is a direct chat with the roller alone, the one
// recorded, else one already there (a direct room with the
// roller alone when there is no GM, or a room this bot made for them,
// found by its secretMarker), else one half made (adoptHalfMade), else a
// new one (encrypted when origin is). CreateRoom is not idempotent: it is
// called only when the homeserver's budget is expected to take the whole
// creation (budget.Wait), and after a failure the room is looked for before
// another try. Bounded by ctx only.
func (a *Adapter) secretRoom(ctx context.Context, origin id.RoomID, roller id.UserID, namedGMs []string) (id.RoomID, error) {
	var wanted []id.UserID // roller "": a blind roll's room, of the GMs alone
	if roller != "" {
		wanted = append(wanted, roller)
	}
	seen := map[id.UserID]bool{roller: true, a.cli.UserID: true}
	gms := a.gms(ctx, origin)
	for _, s := range namedGMs { // GMs named with /gm add
		if u := id.UserID(s); strings.HasPrefix(s, "@") && strings.Contains(s, ":") {
			gms = append(gms, u)
		}
	}
	for _, gm := range gms {
		if !seen[gm] {
			seen[gm] = true
			wanted = append(wanted, gm)
		}
	}
	if len(wanted) == 0 {
		return "", errors.New("a blind roll, and the room has no GM")
	}
	if d, _, _ := a.state.State(ctx, keyDirect(origin)); roller != "" && d == "1" && len(wanted) == 1 && a.onlyUs(ctx, origin, roller) {
		return origin, nil
	}
	key := keySecret(origin, roller)
	v, ok, err := a.state.State(ctx, key)
	if err != nil {
		return "", fmt.Errorf("load secret room: %w", err)
	}
	if ok && v != "" {
		room := id.RoomID(v)
		if me, err := a.cli.StateStore.GetMember(ctx, room, a.cli.UserID); err == nil && me != nil && me.Membership == event.MembershipJoin {
			a.inviteMissing(ctx, room, wanted)
			return room, nil
		}
	}
	use := func(room id.RoomID) (id.RoomID, error) {
		if err := a.state.SetState(ctx, key, string(room)); err != nil {
			return "", fmt.Errorf("save secret room: %w", err)
		}
		if err := a.state.SetState(context.WithoutCancel(ctx), keyMaking(origin, roller), ""); err != nil {
			a.log.Warn("secret room record", "err", err)
		}
		a.inviteMissing(ctx, room, wanted)
		return room, nil
	}
	if room := a.findSecretRoom(ctx, origin, roller, wanted); room != "" {
		return use(room)
	}

	a.courier.making.Lock()
	defer a.courier.making.Unlock()
	encrypted := false
	if enc, _ := a.cli.StateStore.IsEncrypted(ctx, origin); enc && a.crypto != nil {
		encrypted = true
	}
	marker := secretMarker{Origin: origin, Roller: roller}
	if room := a.adoptHalfMade(ctx, origin, roller, marker, encrypted); room != "" {
		return use(room)
	}
	// Recorded before asking: a crash or a lost answer leaves a room only
	// this record can tell apart.
	if err := a.state.SetState(ctx, keyMaking(origin, roller), fmt.Sprint(time.Now().Add(-time.Second).UnixMilli())); err != nil {
		return "", fmt.Errorf("save secret room record: %w", err)
	}
	req := &mautrix.ReqCreateRoom{Preset: "private_chat", Name: secretRoomName, Invite: wanted, IsDirect: len(wanted) == 1,
		InitialState: []*event.Event{{Type: secretMarkerType, StateKey: ptr(""), Content: event.Content{Parsed: &marker}}}}
	if encrypted {
		req.InitialState = append(req.InitialState, &event.Event{
			Type:    event.StateEncryption,
			Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}},
		})
	}
	bo := a.newBackoff()
	for attempt := 1; ; attempt++ {
		// The creation and the creator's join, each one action.
		for d := a.budget.Wait(2); d > 0; d = a.budget.Wait(2) {
			a.log.Debug("secret room: waiting for the homeserver's budget", "wait", d)
			if backoff.Sleep(ctx, d) != nil {
				return "", fmt.Errorf("create secret room: %w", ctx.Err())
			}
		}
		resp, err := a.cli.CreateRoom(ctx, req)
		if err == nil {
			a.budget.Spend(2)
			return use(resp.RoomID)
		}
		if !temporary(err) || ctx.Err() != nil {
			return "", fmt.Errorf("create secret room (attempt %d): %w", attempt, err)
		}
		wait, limited := retryAfter(err)
		if limited {
			a.rateLimited(ctx, wait)
		}
		a.log.Debug("create secret room failed; looking for it before trying again", "room", origin, "attempt", attempt, "retry_after", wait, "err", err)
		if backoff.Sleep(ctx, bo.After(wait, limited)) != nil {
			return "", fmt.Errorf("create secret room: %w", err)
		}
		if room := a.findSecretRoom(ctx, origin, roller, wanted); room != "" {
			return use(room)
		}
		if room := a.adoptHalfMade(ctx, origin, roller, marker, encrypted); room != "" {
			return use(room)
		}
	}
}

// secretRoomName is the name of the rooms made for secret rolls.
const secretRoomName = "🎲 Zaria"

// onlyUs reports whether nobody but roller and the bot is in room (joined
// or invited): a direct chat, where a secret roll's result may stay.
func (a *Adapter) onlyUs(ctx context.Context, room id.RoomID, roller id.UserID) bool {
	members, err := a.cli.StateStore.GetRoomJoinedOrInvitedMembers(ctx, room)
	if err != nil || len(members) == 0 {
		return false
	}
	for _, m := range members {
		if m != roller && m != a.cli.UserID {
			return false
		}
	}
	return true
}

// adoptHalfMade finds a secret room for origin and roller whose making was
// cut short (the bot died, or the answer to /createRoom was lost or an
// error, after the homeserver made the room and joined the bot to it):
// made by the bot since keyMaking's time, nobody else in it, no marker for
// anyone else. It finishes it (marker, encryption, name; the invites are
// the caller's) and returns it; "" when there is none.
func (a *Adapter) adoptHalfMade(ctx context.Context, origin id.RoomID, roller id.UserID, marker secretMarker, encrypted bool) id.RoomID {
	v, _, err := a.state.State(ctx, keyMaking(origin, roller))
	if err != nil || v == "" {
		return ""
	}
	since := parseInt(v)
	joined, err := a.cli.JoinedRooms(ctx)
	if err != nil {
		a.log.Warn("list joined rooms", "err", err)
		return ""
	}
	for i, room := range joined.JoinedRooms {
		if i >= maxRoomScan || ctx.Err() != nil {
			break
		}
		if room == origin {
			continue
		}
		if ms, _ := a.cli.StateStore.GetRoomJoinedOrInvitedMembers(ctx, room); len(ms) > 1 {
			continue
		}
		create, err := a.cli.FullStateEvent(ctx, room, event.StateCreate, "")
		if err != nil || create.Sender != a.cli.UserID || create.Timestamp < since {
			continue
		}
		members, err := a.cli.JoinedMembers(ctx, room)
		if err != nil || len(members.Joined) != 1 {
			continue
		}
		var m secretMarker
		if err := a.cli.StateEvent(ctx, room, secretMarkerType, "", &m); err == nil && (m.Origin != origin || m.Roller != roller) {
			continue // another's
		}
		a.log.Info("finishing a secret room whose making was cut short", "room", room, "origin", origin)
		if err := a.finishRoom(ctx, room, marker, encrypted); err != nil {
			a.log.Warn("finish secret room", "room", room, "err", err)
			return ""
		}
		return room
	}
	return ""
}

// finishRoom sends the state a secret room is made with.
func (a *Adapter) finishRoom(ctx context.Context, room id.RoomID, marker secretMarker, encrypted bool) error {
	type state struct {
		typ     event.Type
		content any
	}
	states := []state{
		{event.StateJoinRules, &event.JoinRulesEventContent{JoinRule: event.JoinRuleInvite}},
		{event.StateHistoryVisibility, &event.HistoryVisibilityEventContent{HistoryVisibility: event.HistoryVisibilityShared}},
		{secretMarkerType, &marker},
		{event.StateRoomName, &event.RoomNameEventContent{Name: secretRoomName}},
	}
	if encrypted {
		states = append(states, state{event.StateEncryption, &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}})
	}
	for _, s := range states {
		err := a.retry(ctx, "finish secret room", func() error {
			_, err := a.cli.SendStateEvent(ctx, room, s.typ, "", s.content)
			if err == nil {
				a.budget.Spend(1)
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("%s: %w", s.typ.Type, err)
		}
	}
	return nil
}

// maxRoomScan bounds how many of the bot's rooms findSecretRoom looks at.
const maxRoomScan = 500

// secretMarkerType is the state event that marks a secret-roll room with
// the room and the roller it is for.
var secretMarkerType = event.Type{Type: "org.zaria.secret", Class: event.StateEventType}

type secretMarker struct {
	Origin id.RoomID `json:"origin"`
	Roller id.UserID `json:"roller"`
}

func ptr[T any](v T) *T { return &v }

// findSecretRoom looks among the bot's rooms for one that can take
// roller's secret rolls of origin: marked for them, or (no GM to add) a
// direct room with the roller alone.
func (a *Adapter) findSecretRoom(ctx context.Context, origin id.RoomID, roller id.UserID, wanted []id.UserID) id.RoomID {
	joined, err := a.cli.JoinedRooms(ctx)
	if err != nil {
		a.log.Warn("list joined rooms", "err", err)
		return ""
	}
	want := map[id.UserID]bool{a.cli.UserID: true}
	for _, u := range wanted {
		want[u] = true
	}
	for i, room := range joined.JoinedRooms {
		if i >= maxRoomScan || ctx.Err() != nil {
			break
		}
		if room == origin {
			continue
		}
		members, _ := a.cli.StateStore.GetRoomJoinedOrInvitedMembers(ctx, room)
		if len(members) > 0 {
			same := len(members) <= len(want)
			for _, m := range members {
				same = same && want[m]
			}
			if !same {
				continue // someone else is in it
			}
			if len(wanted) == 1 && len(members) == 2 {
				if d, _, _ := a.state.State(ctx, keyDirect(room)); d == "1" {
					return room
				}
			}
		}
		var m secretMarker
		if err := a.cli.StateEvent(ctx, room, secretMarkerType, "", &m); err == nil && m.Origin == origin && m.Roller == roller {
			return room
		}
	}
	return ""
}

// inviteMissing invites those of wanted who are neither in room nor invited.
func (a *Adapter) inviteMissing(ctx context.Context, room id.RoomID, wanted []id.UserID) {
	for _, u := range wanted {
		m, err := a.cli.StateStore.GetMember(ctx, room, u)
		if err == nil && m != nil && (m.Membership == event.MembershipJoin || m.Membership == event.MembershipInvite) {
			continue
		}
		err = a.retry(ctx, "invite to secret room", func() error {
			_, err := a.cli.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: u})
			return err
		})
		if err != nil {
			a.log.Warn("invite to secret room", "room", room, "user", u, "err", err)
			continue
		}
		a.budget.Spend(1)
		if err := a.cli.StateStore.SetMembership(ctx, room, u, event.MembershipInvite); err != nil {
			a.log.Warn("cache membership", "room", room, "err", err)
		}
	}
}

// gms lists the members of room with a power level that makes them GMs.
func (a *Adapter) gms(ctx context.Context, room id.RoomID) []id.UserID {
	pl, err := a.in.powerLevels(ctx, room)
	if err != nil || pl == nil {
		return nil
	}
	members, err := a.cli.StateStore.GetRoomJoinedOrInvitedMembers(ctx, room)
	if err != nil {
		a.log.Warn("list members", "room", room, "err", err)
		return nil
	}
	var out []id.UserID
	for _, m := range members {
		if m != a.cli.UserID && pl.GetUserLevel(m) >= gmLevel {
			out = append(out, m)
		}
	}
	return out
}
