package ask

import (
	"context"
	"fmt"

	"zaria/core"
)

// Pending is an open request as one user's page shows it: the buttons
// that user may press now, by the rule a press is answered with
// (mayPress), and whether they may close it. The page draws it; each
// press is still the core's (reply.ActAsk as that user).
type Pending struct {
	ID      int64
	Check   string // "" for a blind request seen by a player, as the chat's message hides it
	Blind   bool
	GMName  string
	Waiting []string // the characters not rolled yet
	Buttons []PendingButton
	Close   bool // a GM: ⏹
}

// PendingButton is one character's button: its key is what the press
// names (reply.Action.Character).
type PendingButton struct {
	Key, Name string
	Mine      bool // the user's own character; else a GM rolling for its owner
}

// Open is chat's open requests, newest first, as user (a GM when gm)
// sees them; a request with nothing for a player to press is left out.
func Open(ctx context.Context, l Lister, chat core.ChatRef, user string, gm bool) ([]Pending, error) {
	rs, err := l.OpenAsks(ctx, chat)
	if err != nil {
		return nil, fmt.Errorf("ask: open requests: %w", err)
	}
	var out []Pending
	for _, r := range rs {
		p := Pending{ID: r.ID, Check: r.Check, Blind: r.Blind, GMName: r.GMName, Close: gm}
		if r.Blind && !gm {
			p.Check = ""
		}
		for _, e := range r.Entries {
			if e.Rolled {
				continue
			}
			p.Waiting = append(p.Waiting, e.Name)
			if mayPress(e, user, gm) {
				p.Buttons = append(p.Buttons, PendingButton{Key: e.Key, Name: e.Name, Mine: e.Owner == user})
			}
		}
		if len(p.Buttons) > 0 || gm {
			out = append(out, p)
		}
	}
	return out, nil
}

// mayPress is who may press a character's button: its owner, or a GM
// rolling for an absent owner.
func mayPress(e Entry, user string, gm bool) bool { return e.Owner == user || gm }
