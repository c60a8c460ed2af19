package command

import (
	"context"

	"zaria/core"
	"zaria/core/fold"
)

// Choices is Request.ChoicesFor for a caller outside a command (the web
// companion's dice screen): what the word ph of text may be, in the
// language of msg.Chat, for msg.From. It rolls nothing, writes nothing
// and is not charged to the rate limit, as reading a chat's language is
// not.
func (r *Router) Choices(ctx context.Context, msg core.Message, text, ph string) (*ChoiceList, error) {
	msg.From.Name = fold.Clean(msg.From.Name)
	settings, err := r.cfg.Settings.Settings(ctx, msg.Chat)
	if err != nil {
		settings = core.Settings{}
	}
	req := &Request{Msg: msg, Prefix: "/", Lang: r.resolveLang(ctx, msg, &settings), Settings: settings,
		Budget: NewBudget(r.cfg.Limits.MaxWork), router: r}
	return req.ChoicesFor(ctx, text, ph)
}
