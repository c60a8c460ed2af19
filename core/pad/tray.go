package pad

import (
	"context"
	"slices"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/reply"
)

// A player with no buttons of their own gets a tray on /pad: the standard
// dice and the rolls they made most in this chat, each one tap away.
// Adding a button of their own replaces it.

// ActTray is the action of a tray button: Action.Command is the roll.
const ActTray reply.ActionKind = "pad_tray"

// trayDice are the standard dice of the tray.
var trayDice = []string{"d4", "d6", "d8", "d10", "d12", "d20", "d100"}

// trayFrequent is how many of the player's most-made rolls the tray shows.
const trayFrequent = 4

// trayCommand is the longest command a tray button carries (a Telegram
// button's data holds 64 bytes).
const trayCommand = 48

// tray adds the dice and the player's most-made rolls to rep.
func (s *Service) tray(ctx context.Context, req *command.Request, rep *reply.Reply) {
	rep.Add(reply.T(req.T("pad.tray", "cmd", cmdName(req))))
	for _, d := range trayDice {
		rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonPress, Label: "🎲 " + d,
			Action: &reply.Action{Kind: ActTray, Command: "/roll " + d}})
	}
	var mine []reply.Span
	for _, c := range s.frequent(ctx, req) {
		if len(mine) > 0 {
			mine = append(mine, reply.T(" · "))
		}
		mine = append(mine, reply.C(c))
		label := c
		if utf8.RuneCountInString(label) > MaxLabel {
			label = string([]rune(label)[:MaxLabel-1]) + "…"
		}
		rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonPress, Label: label,
			Action: &reply.Action{Kind: ActTray, Command: c}})
	}
	if len(mine) > 0 {
		rep.Add(append([]reply.Span{reply.T(req.T("pad.tray_mine") + " ")}, mine...)...)
	}
}

// frequent is the sender's most-made rolls that fit a tray button.
func (s *Service) frequent(ctx context.Context, req *command.Request) []string {
	var out []string
	for _, c := range req.Router().Frequent(ctx, req.Msg, 2*trayFrequent) {
		if len(c) <= trayCommand && len(out) < trayFrequent {
			out = append(out, c)
		}
	}
	return out
}

// pressTray rolls a tray button for whoever pressed it: a standard die,
// or one of their own recent rolls (checked again, so a forged press
// runs nothing else).
func (s *Service) pressTray(ctx context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
	ok := false
	for _, d := range trayDice {
		ok = ok || a.Command == "/roll "+d
	}
	if !ok && !slices.Contains(req.Router().Recent(ctx, req.Msg, command.MaxRecent), a.Command) {
		return nil, errorf(req, "pad.notice.gone")
	}
	rep, ran := req.Run(ctx, a.Command)
	if !ran {
		return nil, errorf(req, "pad.notice.gone")
	}
	by := reply.B(s.byline(ctx, req, req.Msg.From.ID, req.Msg.From.Name) + ": ")
	for r := rep; r != nil; r = r.Secret {
		if len(r.Lines) == 0 {
			r.Lines = []reply.Line{{by}}
			continue
		}
		r.Lines[0] = append(reply.Line{by}, r.Lines[0]...)
	}
	return rep, nil
}
