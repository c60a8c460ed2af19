package general

import (
	"context"

	"zaria/core/command"
	"zaria/core/reply"
)

// blind is /ciega (/blind, !τυφλή): a roll only the chat's GMs see. It
// runs what /gmroll runs (rolls, saved rolls, tables and /odds only) and
// answers with a notice for the chat and the roller, who see no number,
// and the result for the GMs (reply.Reply.Blind): the chat's admins and
// its GMs named with /gm add. The notice says what was rolled when it is
// plain dice without a target; a table, a check or a roll with a target
// shows nothing of it, so that a target the GM set stays secret.
//
// A private chat has no GM to tell: /ciega is refused there.
func blind(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if req.Args == "" {
		return nil, command.Errorf("blind.usage")
	}
	if req.Msg.Private {
		return nil, command.Errorf("blind.private")
	}
	text := rollText(req)
	inner, ok := req.RedispatchRoll(ctx, text)
	if !ok || inner == nil {
		return nil, command.Errorf("blind.usage")
	}
	if inner.Error {
		return inner, nil
	}
	name := displayName(req.Msg.From)
	secret := *inner
	secret.Lines = append([]reply.Line{{reply.I("🙈 " + req.T("blind.private_header", "name", name))}}, inner.Lines...)
	secret.Buttons = nil
	public := reply.Line{reply.T("🙈 " + req.T("blind.public", "name", name))}
	if c := inner.Check; c != nil && c.System == "dice" && c.Outcome == "" {
		public = reply.Line{reply.T("🙈 " + req.T("blind.public_what", "name", name) + " "), reply.C(text)}
	}
	return &reply.Reply{
		Lines:    []reply.Line{public, {reply.I(req.T("blind.only_gms"))}},
		Secret:   &secret,
		SecretTo: req.NamedGMs(ctx),
		Blind:    true,
		Command:  "/blind " + req.Args,
	}, nil
}
