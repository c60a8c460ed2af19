// Package companion is /app (/ficha, !εφαρμογή): the link that opens the
// chat's sheets and dice on the phone (adapters/web). The core only asks
// a Linker for the link; which link a platform gets is the web adapter's.
package companion

import (
	"context"
	"errors"

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
	// Sent: the platform already showed the link in the chat, as a button
	// (Telegram's web_app or url button); /app says nothing more.
	Sent bool
}

// Linker makes the link that opens the companion for msg's sender in
// msg's chat.
type Linker interface {
	Link(ctx context.Context, msg core.Message) (Link, error)
}

// Register adds /app to r.
func Register(r *command.Router, l Linker) {
	r.Register(command.Command{Name: "app", Aliases: []string{"ficha", "εφαρμογή", "companion"},
		Handler: command.HandlerFunc(func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
			link, err := l.Link(ctx, req.Msg)
			if errors.Is(err, ErrUnavailable) {
				return nil, command.Errorf("web.app.unavailable")
			}
			if err != nil {
				return nil, err
			}
			if link.Sent {
				return nil, nil
			}
			if link.Private {
				rep := reply.Text(req.T("web.app.sent_private", "minutes", link.Minutes))
				if link.Widget != "" {
					rep.Add(reply.T(req.T("web.app.widget", "command", "/addwidget "+link.Widget)))
				}
				return rep, nil
			}
			rep := &reply.Reply{}
			rep.Add(reply.T(req.T("web.app.open")))
			rep.Add(reply.T(link.URL))
			return rep, nil
		})})
}
