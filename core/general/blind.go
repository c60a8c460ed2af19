package general

import (
	"context"
	"strings"
	"unicode/utf8"

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
	header := req.T("blind.private_header", "name", name)
	if req.IsGM {
		// A GM who rolls blind sees the result in this copy: the copy
		// does not say they did not.
		header = req.T("blind.private_header_gm", "name", name)
	}
	secret.Lines = append([]reply.Line{{reply.I("🙈 " + header)}}, inner.Lines...)
	secret.Buttons = nil
	public := reply.Line{reply.T("🙈 " + req.T("blind.public", "name", name))}
	if c := inner.Check; c != nil && c.System == "dice" && c.Outcome == "" {
		// What was typed: "1d20+5", not the "/roll 1d20+5" it runs.
		shown := text
		if text == "/roll "+req.Args {
			shown = req.Args
		}
		public = reply.Line{reply.T("🙈 " + req.T("blind.public_what", "name", name) + " "), reply.C(shown)}
	}
	rep := &reply.Reply{
		Lines:    []reply.Line{public, {reply.I(req.T("blind.only_gms"))}},
		Secret:   &secret,
		SecretTo: req.NamedGMs(ctx),
		Blind:    true,
		Command:  "/" + req.Alias + " " + req.Args, // as typed: /ciega
	}
	if s := revealText(inner); s != "" {
		rep.Buttons = []reply.Button{{Kind: string(reply.ActReveal), Label: "🙈 " + req.T("blind.gm_button"),
			Action: &reply.Action{Kind: reply.ActReveal, Secret: s, Chat: req.Msg.Chat.String()}}}
	}
	return rep, nil
}

// revealText is what the 🙈 GM button's pop-up shows: the result as the
// GMs' private copy has it, one line per line, cut to reply.MaxSecret
// characters (the private copy has it whole).
func revealText(inner *reply.Reply) string {
	s := strings.TrimSpace(reply.PlainText(&reply.Reply{Lines: inner.Lines}))
	if utf8.RuneCountInString(s) > reply.MaxSecret {
		s = string([]rune(s)[:reply.MaxSecret-1]) + "…"
	}
	return s
}

// reveal answers a press of a blind roll's 🙈 GM button: the result for a
// GM of the chat the roll was made in (an admin or named with /gm, as a
// command sees them), "only the GMs" for anyone else, and for a press
// anywhere else (the message forwarded): always as a pop-up for the
// presser alone (Reply.Alert), never a message of the chat.
func reveal(_ context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
	rep := reply.Text("🙈 " + req.T("blind.gm_only"))
	if req.IsGM && !req.Msg.Private && req.Msg.Chat.String() == a.Chat {
		rep = reply.Text(a.Secret)
	}
	rep.Alert = true
	return rep, nil
}
