package web

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"zaria/core"
)

// PadButton is a stored pad button as the pad editor shows it.
type PadButton struct {
	ID      int64
	Label   string
	Command string
}

// PadLister lists a pad's buttons in order: a player's (owner their user
// id) or the chat's (owner ""). Pads that also implement it get the pad
// editor screen.
type PadLister interface {
	PadButtons(ctx context.Context, chat core.ChatRef, owner string) ([]PadButton, error)
}

type padView struct {
	Chat     bool // the chat's pad (GMs edit it)
	Editable bool
	Buttons  []padButtonView
}

// padButtonView is a button with its position (1-based) and where ↑ and
// ↓ move it (0: it is first or last).
type padButtonView struct {
	PadButton
	Pos, Up, Down int
}

// padCommand builds the /pad command of the pad editor's actions, with
// the button's position (1-based, read from the store as the action
// arrives) in q.pos; "" when a field is not acceptable.
func (q doReq) padCommand() string {
	pre := "/pad "
	switch q.Scope {
	case "chat":
		pre += "--chat "
	case "":
	default:
		return ""
	}
	switch q.Op {
	case "padadd": // /pad add "Ataque" /roll 1d20+5
		c := strings.TrimSpace(q.Value)
		if !label(q.Name) || !text(c) || strings.ContainsAny(c[:1], "\"«“") {
			return ""
		}
		return pre + `add "` + q.Name + `" ` + c
	case "padrename":
		if q.pos > 0 && label(q.Name) {
			return pre + "rename " + strconv.Itoa(q.pos) + ` "` + q.Name + `"`
		}
	case "padmove":
		if q.pos > 0 && q.N > 0 && q.N <= maxPadButtons {
			return pre + "move " + strconv.Itoa(q.pos) + " " + strconv.Itoa(q.N)
		}
	case "padremove":
		if q.pos > 0 {
			return pre + "remove " + strconv.Itoa(q.pos)
		}
	}
	return ""
}

// maxPadButtons bounds a position the page may ask for (the core's own
// limit on a pad's size is lower).
const maxPadButtons = 100

func padOp(op string) bool {
	return op == "padadd" || op == "padrename" || op == "padmove" || op == "padremove"
}

// padPosition finds q.Button's position in the pad it names, as the
// store has it now (the page may show an older order).
func (a *Adapter) padPosition(ctx context.Context, msg core.Message, q *doReq) {
	pl, ok := a.d.Pads.(PadLister)
	if !ok || q.Op == "padadd" || q.Button <= 0 {
		return
	}
	owner := msg.From.ID
	if q.Scope == "chat" {
		owner = ""
	}
	bs, err := pl.PadButtons(ctx, msg.Chat, owner)
	if err != nil {
		a.log.Error("web pad", "chat", msg.Chat.String(), "err", err)
		return
	}
	if i := slices.IndexFunc(bs, func(b PadButton) bool { return b.ID == q.Button }); i >= 0 {
		q.pos = i + 1
	}
}

// pads reads the user's pad and the chat's for the editor.
func (a *Adapter) pads(ctx context.Context, msg core.Message, gm bool) ([]padView, error) {
	pl := a.d.Pads.(PadLister)
	var out []padView
	for _, owner := range []string{msg.From.ID, ""} {
		bs, err := pl.PadButtons(ctx, msg.Chat, owner)
		if err != nil {
			return nil, err
		}
		v := padView{Chat: owner == "", Editable: owner != "" || gm}
		for i, b := range bs {
			bv := padButtonView{PadButton: b, Pos: i + 1, Up: i}
			if i+1 < len(bs) {
				bv.Down = i + 2
			}
			v.Buttons = append(v.Buttons, bv)
		}
		out = append(out, v)
	}
	return out, nil
}

// padEditor reports whether the pad editor screen is served.
func (a *Adapter) padEditor() bool {
	_, ok := a.d.Pads.(PadLister)
	return ok
}
