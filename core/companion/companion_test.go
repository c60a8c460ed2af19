package companion_test

import (
	"context"
	"testing"

	"zaria/core"
	"zaria/core/companion"
	"zaria/internal/chattest"
)

// room stands for the platform's room: it records what the bot was asked
// to do with the widget, and refuses as a room with the bot at power
// level 0 does when power is set.
type room struct {
	calls []bool
	power *companion.PowerError
}

func (r *room) SetWidget(ctx context.Context, msg core.Message, on bool) error {
	if r.power != nil {
		return r.power
	}
	r.calls = append(r.calls, on)
	return nil
}

type noLink struct{}

func (noLink) Link(context.Context, core.Message) (companion.Link, error) {
	return companion.Link{}, companion.ErrUnavailable
}

// TestAppWidget: /app widget and its removal in the three languages'
// words, for a GM only; a player is refused and nothing is asked of the
// room; a bot without the power is told which level it needs.
func TestAppWidget(t *testing.T) {
	h := chattest.New(t, chattest.Limits{})
	r := &room{}
	companion.Register(h.R, noLink{}, r)
	chat := core.ChatRef{Platform: "matrix", ID: "!r:example.org"}
	gm := core.User{ID: "@ana:example.org", Name: "Ana"}
	player := core.User{ID: "@beto:example.org", Name: "Beto"}

	chattest.Contains(t, h.OK(chat, gm, true, "/app widget"), "The table is now a widget of this room", "/app widget off")
	h.Fails(chat, player, false, "/ficha widget quitar", "Only a GM can add or remove the room's widget")
	chattest.Contains(t, h.OK(chat, gm, true, "/ficha widget quitar"), "widget has been removed")
	chattest.Contains(t, h.OK(chat, gm, true, "/εφαρμογή μικροεφαρμογή"), "is now a widget")
	chattest.Contains(t, h.OK(chat, gm, true, "/εφαρμογή ΜΙΚΡΟΕΦΑΡΜΟΓΗ αφαίρεση"), "removed")
	h.Fails(chat, gm, true, "/app widget now please", "/app widget off removes it")
	if want := []bool{true, false, true, false}; len(r.calls) != len(want) {
		t.Fatalf("the room was asked %v, want %v", r.calls, want)
	} else {
		for i := range want {
			if r.calls[i] != want[i] {
				t.Fatalf("the room was asked %v, want %v", r.calls, want)
			}
		}
	}
	r.power = &companion.PowerError{Need: 50, Have: 0}
	h.Fails(chat, gm, true, "/app widget", "that needs power level 50 and mine is 0")
	// Without a widget (no platform serves one), /app widget says so.
	h2 := chattest.New(t, chattest.Limits{})
	companion.Register(h2.R, noLink{}, nil)
	h2.Fails(chat, gm, true, "/app widget", "only add the widget in a Matrix room")
}
