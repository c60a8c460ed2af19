package pad

import (
	"context"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
)

// The roll keyboard: /pad teclado (/pad keyboard, /κουμπιά πληκτρολόγιο)
// answers with the pad's commands as a reply.Keyboard, which Telegram
// draws as a reply keyboard: the phone's keyboard replaced by the pad's
// rolls, each key sending its command as the user's own message, so the
// whole table sees what was rolled and by whom. In a group it is
// Selective: only the user who asked gets it. /pad ocultar (hide,
// απόκρυψη) gives the phone keyboard back. The reply's lines list the
// keys as commands to type, for the platforms without such keyboards. A
// button that asks a value when pressed has no text to send: the reply
// names it and it stays on the pad.

// The keyboard's sub-commands (their words: subs, pad.go).
const (
	subKeyboard = "keyboard"
	subHide     = "hide"
)

// keyboard answers /pad teclado and /pad ocultar for owner's pad (the
// chat's when owner is ""): anyone may ask for either keyboard, it only
// sends commands they could type.
func (s *Service) keyboard(ctx context.Context, req *command.Request, owner, sub, rest string) (*reply.Reply, error) {
	if rest != "" {
		return nil, errorf(req, "pad.err.usage")
	}
	selective := !req.Msg.Private
	if sub == subHide {
		rep := reply.Text(req.T("pad.keyboard.hidden", "cmd", cmdName(req)))
		rep.Keyboard = &reply.Keyboard{Hide: true, Selective: selective}
		return rep, nil
	}
	flag := ""
	if owner == "" {
		flag = " " + chatFlag
	}
	bs, err := s.store.PadButtons(ctx, req.Msg.Chat, owner)
	if err != nil {
		return nil, err
	}
	if len(bs) == 0 {
		return nil, command.Errorf("pad.err.empty_pad", "cmd", cmdName(req)+flag)
	}
	rep := &reply.Reply{}
	if owner == "" {
		rep.Add(reply.B(req.T("pad.keyboard.title_chat")))
	} else {
		rep.Add(reply.B(req.T("pad.keyboard.title", "who", s.byline(ctx, req, owner, req.Msg.From.Name))))
	}
	kb := &reply.Keyboard{Selective: selective, Placeholder: req.T("pad.keyboard.placeholder")}
	seen := map[string]bool{}
	var asking []string
	for _, b := range bs {
		if seen[b.Command] {
			continue
		}
		seen[b.Command] = true
		// A button that asks a value when pressed ({objetivo}, a saved
		// roll's missing word) has no text to send: it stays on the pad.
		if p, err := planOf(ctx, req, b.Command); err != nil || len(p.slots) > 0 {
			if _, isUser := command.AsUserError(err); err != nil && !isUser {
				return nil, err
			}
			asking = append(asking, "«"+b.Label+"»")
			continue
		}
		kb.Keys = append(kb.Keys, b.Command)
		rep.Add(reply.T(strconv.Itoa(len(kb.Keys))+". "), reply.B(b.Label), reply.T(" · "), reply.C(b.Command))
	}
	if len(kb.Keys) == 0 {
		return nil, command.Errorf("pad.err.keyboard_all_ask", "cmd", cmdName(req)+flag)
	}
	if len(asking) > 0 {
		rep.Add(reply.I(req.T("pad.keyboard.asking", "labels", strings.Join(asking, ", "), "cmd", cmdName(req)+flag)))
	}
	rep.Add(reply.I(req.T("pad.keyboard.hint")))
	rep.Add(reply.I(req.T("pad.keyboard.how_to_hide", "cmd", cmdName(req))))
	rep.Keyboard = kb
	return rep, nil
}
