package ask

import (
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
)

// render draws the request's message: its head, one numbered line per
// character (the Matrix keycap and the console number of its button),
// whom it waits for, and once closed its summary. gm draws the GMs' view
// of a blind request (the results); the table's view of one shows only
// who rolled.
func render(req *command.Request, r Request, gm bool) *reply.Reply {
	rep := &reply.Reply{Slot: SlotPrefix + strconv.FormatInt(r.ID, 10)}
	id := "#" + strconv.FormatInt(r.ID, 10)
	hidden := r.Blind && !gm
	switch {
	case hidden:
		rep.Add(reply.T("🙈 "+id+" · "), reply.B(req.T("ask.head_blind", "gm", r.GMName)))
	case r.Blind:
		rep.Add(reply.T("🙈 "+id+" · "), reply.B(req.T("ask.head_blind", "gm", r.GMName)), reply.T(" "), reply.C(r.Check))
	default:
		rep.Add(reply.T("📣 "+id+" · "), reply.B(req.T("ask.head", "gm", r.GMName)), reply.T(" "), reply.C(r.Check))
	}
	var waiting, missing []string
	for i, e := range r.Entries {
		n := strconv.Itoa(i+1) + ". "
		switch {
		case !e.Rolled:
			rep.Add(reply.T(n + "⏳ " + e.Name))
			waiting = append(waiting, e.Name)
		case hidden:
			rep.Add(reply.T(n + "✔ " + e.Name + " · " + req.T("ask.rolled")))
		default:
			rep.Add(resultLine(req, n, e)...)
		}
		if !e.Rolled {
			missing = append(missing, e.Name)
		}
	}
	if !r.Closed {
		if len(waiting) > 0 {
			rep.Add(reply.I(req.T("ask.waiting", "names", strings.Join(waiting, ", "))))
		}
		for _, e := range r.Entries {
			label := "🎲 " + e.Name
			if e.Rolled {
				label = "✔ " + e.Name
			}
			rep.Buttons = append(rep.Buttons, reply.Button{Kind: string(reply.ActAsk), Label: short(label, 30),
				Action: &reply.Action{Kind: reply.ActAsk, Request: r.ID, Character: e.Key}})
		}
		rep.Buttons = append(rep.Buttons, reply.Button{Kind: string(reply.ActAsk), Label: "⏹ " + req.T("ask.close_button"), Symbol: "⏹",
			Action: &reply.Action{Kind: reply.ActAsk, Request: r.ID}})
		if r.Chances != "" {
			// The chances in a pop-up for a GM (a blind roll's 🙈 GM
			// button): on Telegram, for a GM who never opened a private
			// chat with the bot. Adapters that cannot show a pop-up leave
			// it out (Matrix: the GMs' room has them).
			rep.Buttons = append(rep.Buttons, reply.Button{Kind: string(reply.ActReveal), Label: "📊 " + req.T("ask.chances_button"),
				Action: &reply.Action{Kind: reply.ActReveal, Secret: r.Chances, Chat: req.Msg.Chat.String()}})
		}
		return rep
	}
	rep.Add(reply.T("⏹ "), reply.B(req.T("ask.closed_head")), reply.T(" · "+summary(req, r, hidden, missing)))
	return rep
}

// resultLine is one character's result: ✅ or ❌ when the check says, the
// total, the margin, and whether a GM rolled it.
func resultLine(req *command.Request, n string, e Entry) []reply.Span {
	mark := "🎲"
	if e.Success != nil {
		mark = "❌"
		if *e.Success {
			mark = "✅"
		}
	}
	spans := []reply.Span{reply.T(n + mark + " "), reply.B(e.Name)}
	var parts []string
	if e.Total != nil {
		parts = append(parts, minus(strconv.Itoa(*e.Total)))
	}
	if e.Margin != nil {
		parts = append(parts, signed(req.Lang, *e.Margin))
	}
	if len(parts) > 0 {
		spans = append(spans, reply.T(": "+strings.Join(parts, " · ")))
	}
	if e.ByGM {
		spans = append(spans, reply.I(" ("+req.T("ask.by_gm")+")"))
	}
	return spans
}

// summary is the closing line: how many succeeded, the best and the
// worst margin, who did not roll (the table's view of a blind request:
// how many rolled, and who did not).
func summary(req *command.Request, r Request, hidden bool, missing []string) string {
	rolled, known, ok := 0, 0, 0
	var best, worst *float64
	for _, e := range r.Entries {
		if !e.Rolled {
			continue
		}
		rolled++
		if e.Success != nil {
			known++
			if *e.Success {
				ok++
			}
		}
		if m := e.Margin; m != nil {
			if best == nil || *m > *best {
				best = m
			}
			if worst == nil || *m < *worst {
				worst = m
			}
		}
	}
	var parts []string
	switch {
	case rolled == 0:
		parts = append(parts, req.T("ask.nobody"))
	case hidden || known == 0:
		parts = append(parts, req.T("ask.rolled_count", "done", rolled, "count", len(r.Entries)))
	default:
		parts = append(parts, req.T("ask.succeeded", "ok", ok, "count", known))
	}
	if !hidden && best != nil {
		parts = append(parts, req.T("ask.margins", "best", signed(req.Lang, *best), "worst", signed(req.Lang, *worst)))
	}
	if len(missing) > 0 && rolled > 0 {
		parts = append(parts, req.T("ask.missing", "names", strings.Join(missing, ", ")))
	}
	return strings.Join(parts, " · ")
}

// signed writes a margin with its sign, a decimal comma in Spanish and
// Greek: "+2", "−4", "−0,5".
func signed(lang string, m float64) string {
	s := strconv.FormatFloat(m, 'f', -1, 64)
	if lang == "es" || lang == "el" {
		s = strings.ReplaceAll(s, ".", ",")
	}
	if m > 0 {
		return "+" + s
	}
	return minus(s)
}

// minus writes a negative number with the minus sign the bot's replies use.
func minus(s string) string { return strings.Replace(s, "-", "−", 1) }

// jsonOf is the request as `zaria roll --json` gives it ("request").
func jsonOf(r Request) map[string]any {
	names := make([]string, len(r.Entries))
	results := make([]map[string]any, 0, len(r.Entries))
	for i, e := range r.Entries {
		names[i] = e.Name
		res := map[string]any{"character": e.Name, "rolled": e.Rolled}
		if e.Rolled {
			res["by_gm"] = e.ByGM
			if e.Total != nil {
				res["total"] = *e.Total
			}
			if e.Outcome != "" {
				res["outcome"] = e.Outcome
			}
			if e.Success != nil {
				res["success"] = *e.Success
			}
			if e.Margin != nil {
				res["margin"] = *e.Margin
			}
		}
		results = append(results, res)
	}
	return map[string]any{"id": r.ID, "check": r.Check, "blind": r.Blind, "closed": r.Closed,
		"characters": names, "results": results}
}
