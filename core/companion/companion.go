// Package companion is /app (/ficha, !εφαρμογή): the link that opens the
// chat's sheets and dice on the phone (adapters/web). The core only asks
// a Linker for the link; which link a platform gets is the web adapter's.
package companion

import (
	"context"
	"errors"
	"strings"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
)

// ErrUnavailable is a Linker's answer for a chat it has no link for (a
// platform the companion does not serve yet, or no public URL set).
var ErrUnavailable = errors.New("companion: no link for this chat")

// Link is what a Linker made: the link to show in the chat, or (Private)
// a link it already sent to the sender alone, which the chat must not see
// (a one-time link stands for its user).
type Link struct {
	URL     string
	Private bool
	Minutes int    // how long a private link works
	Widget  string // the room widget's URL, for GMs (Matrix), or ""
	// Button: the platform opens URL from a button under the reply
	// (Telegram's url button): /app answers with its line and a link
	// button (reply.ActLink) instead of the address as text. App is the
	// page a private chat's button opens instead (the Mini App's).
	Button bool
	App    string
}

// Linker makes the link that opens the companion for msg's sender in
// msg's chat.
type Linker interface {
	Link(ctx context.Context, msg core.Message) (Link, error)
}

// Widgets puts the companion in a room as a widget (Matrix: the state
// event Element reads), for /app widget.
type Widgets interface {
	// SetWidget adds (on) or removes the widget of msg's chat. It answers
	// ErrUnavailable where there is no widget (not a Matrix room, no
	// public URL), *PowerError when the bot may not change the room.
	SetWidget(ctx context.Context, msg core.Message, on bool) error
}

// PowerError says the bot's power level in the room is below the one
// the room asks to change its widgets.
type PowerError struct{ Need, Have int }

func (e *PowerError) Error() string { return "companion: the bot lacks the power to add the widget" }

// subs are /app's sub-commands: widget (el: μικροεφαρμογή, Element's
// Greek word); offWords the word after it that removes the widget.
var (
	subs = command.NewSubs(
		command.Sub{Name: "widget", Words: map[string][]string{"es": {"widget"}, "el": {"μικροεφαρμογή"}, "en": {"widget"}}},
	)
	offWords = command.NewSubs(
		command.Sub{Name: "off", Words: map[string][]string{"es": {"quitar", "borrar"}, "el": {"αφαίρεση", "αφαίρεσε"}, "en": {"off", "remove"}}},
	)
)

// widget is /app widget [off]: a GM has the bot add (or remove) the
// room's widget.
func widget(ctx context.Context, req *command.Request, w Widgets, args []string) (*reply.Reply, error) {
	on := true
	switch {
	case len(args) == 2 && offWords.Is(args[1], "off"):
		on = false
	case len(args) != 1:
		return nil, command.Errorf("web.widget.usage", command.PrefixHint(req)...)
	}
	if !req.IsGM {
		return nil, command.Errorf("web.widget.gm_only")
	}
	if w == nil {
		return nil, command.Errorf("web.widget.unavailable")
	}
	err := w.SetWidget(ctx, req.Msg, on)
	var pe *PowerError
	switch {
	case errors.Is(err, ErrUnavailable):
		return nil, command.Errorf("web.widget.unavailable")
	case errors.As(err, &pe):
		return nil, command.Errorf("web.widget.power", "need", pe.Need, "have", pe.Have)
	case err != nil:
		return nil, err
	case !on:
		return reply.Text(req.T("web.widget.removed")), nil
	}
	return reply.Text(req.TP("web.widget.added")), nil
}

// Register adds /app to r; w (nil where no platform has widgets) serves
// /app widget.
func Register(r *command.Router, l Linker, w Widgets) {
	r.Register(command.Command{Name: "app", Aliases: []string{"ficha", "εφαρμογή", "companion"},
		Handler: command.HandlerFunc(func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
			if args := strings.Fields(req.Args); len(args) > 0 && subs.Is(args[0], "widget") {
				return widget(ctx, req, w, args)
			}
			link, err := l.Link(ctx, req.Msg)
			if errors.Is(err, ErrUnavailable) {
				return nil, command.Errorf("web.app.unavailable")
			}
			if err != nil {
				return nil, err
			}
			if link.Button {
				rep := reply.Text(req.T("web.app.open"))
				rep.Buttons = []reply.Button{{Label: req.T("web.app.button"),
					Action: &reply.Action{Kind: reply.ActLink, URL: link.URL, App: link.App}}}
				return rep, nil
			}
			if link.Private {
				rep := reply.Text(req.T("web.app.sent_private", "minutes", link.Minutes))
				if link.Widget != "" {
					rep.Add(reply.T(req.T("web.app.widget", "command", "/addwidget "+link.Widget)))
					if w != nil {
						rep.Add(reply.T(req.TP("web.widget.hint")))
					}
				}
				return rep, nil
			}
			rep := &reply.Reply{}
			rep.Add(reply.T(req.T("web.app.open")))
			rep.Add(reply.T(link.URL))
			return rep, nil
		}), Subs: subs})
}
