package web

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"zaria/core/reply"
)

// tableCommand builds the chat command of the tables screen's edits
// (rename and delete a table; create, shuffle and delete a deck); ""
// when a field is not acceptable. Who may do each is the core's
// (/tabla and /mazo: a GM edits, anyone shuffles).
func (q doReq) tableCommand() string {
	switch q.Op {
	case "tablerename": // /table rename Botín: Botín viejo (the colon ends the old name)
		if label(q.Name) && label(q.Value) {
			return "/table rename " + q.Name + ": " + q.Value
		}
	case "tabledelete":
		if label(q.Name) {
			return "/table delete " + q.Name
		}
	case "deckcreate": // /deck create Botín\ncard\ncard
		if cards, ok := linesText(q.Value, q.lim.Cards); ok && label(q.Name) {
			return "/deck create " + q.Name + "\n" + cards
		}
	case "shuffle":
		if label(q.Name) {
			return "/deck shuffle " + q.Name
		}
	case "deckdelete":
		if label(q.Name) {
			return "/deck delete " + q.Name
		}
	}
	return ""
}

// linesText checks a list of lines (a table's rows, a deck's cards): up
// to most non-empty lines, each a value the page may send, none a
// command; it returns them joined by "\n".
func linesText(s string, most int) (string, bool) {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if !text(l) || l[0] == '/' || l[0] == '!' {
			return "", false
		}
		out = append(out, l)
	}
	if len(out) == 0 || len(out) > most {
		return "", false
	}
	return strings.Join(out, "\n"), true
}

// historyCommands are the commands of a /historial reply's lines, in
// their order ("" for its title), and their totals (nil: none): the
// rolls whose picture the history screen offers, with the result it
// marks. The core gives them whole in the reply's Rolls.
func historyCommands(rep *reply.Reply) ([]string, []*int) {
	rolls := rep.Rolls
	if len(rolls) == 0 || len(rolls) != len(rep.Lines)-1 {
		return nil, nil
	}
	cmds := make([]string, len(rep.Lines))
	totals := make([]*int, len(rep.Lines))
	for i, r := range rolls {
		if chartCommand(r.Command) {
			cmds[i+1] = r.Command
			if t := r.Total; t != nil && *t >= -maxActual && *t <= maxActual {
				v := *t
				totals[i+1] = &v
			}
		}
	}
	return cmds, totals
}

// maxActual bounds the result a picture marks (a mark only: the odds
// are the command's).
const maxActual = 1_000_000_000

// chartCommand checks a roll's command the page asks the picture of: one
// line of at most 200 characters (the history keeps no more) that is a
// command.
func chartCommand(c string) bool {
	return text(c) && utf8.RuneCountInString(c) <= 200 && (c[0] == '/' || c[0] == '!') && strings.TrimSpace(c) == c
}

type chartReq struct {
	Command string `json:"command"`
	// Actual, when set, is the roll's total, marked on the picture as
	// the chat's 📊 button marks it.
	Actual *int64 `json:"actual,omitempty"`
}

// chart answers the picture of a roll's distribution (POST
// /c/<tok>/chart {"command": "/roll 2d6+1", "actual": 9}): the chat's 📊
// odds button on that command with that result, pressed as the user (core.Port.Press with an odds
// action: nothing rolled, nothing logged, in their allowance and within
// the work budget), drawn as the chat adapters draw it. A PNG
// (image/png) when the core gives a chart; otherwise its reply as the
// page's JSON (the core's "no odds for this", a table's rows).
func (a *Adapter) chart(w http.ResponseWriter, r *http.Request) {
	id, ok := a.caller(w, r)
	if !ok {
		return
	}
	var q chartReq
	if !readJSON(w, r, &q) {
		return
	}
	if !chartCommand(q.Command) || a.d.Chart == nil || q.Actual != nil && (*q.Actual < -maxActual || *q.Actual > maxActual) {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	ctx := r.Context()
	msg := id.msg
	msg.Text = ""
	rep, ok := a.d.Port.Press(ctx, msg, reply.Action{Kind: reply.ActOdds, Command: q.Command, Actual: q.Actual})
	if !ok || rep == nil {
		lang := a.d.Port.Lang(ctx, msg.Chat, msg.LangHint)
		writeJSON(w, doResp{Error: true, Lines: linesJSON([]reply.Line{{reply.T(a.d.Port.Text(lang, "web.err.busy"))}})})
		return
	}
	if rep.Error || rep.Chart == nil {
		writeJSON(w, doResp{Lines: linesJSON(rep.Lines), Error: rep.Error})
		return
	}
	// One picture drawn at a time: each is a few tens of milliseconds
	// of CPU, and the allowance bounds each user, not the whole page.
	select {
	case a.charts <- struct{}{}:
	case <-ctx.Done():
		return
	}
	img, err := a.d.Chart(rep.Chart)
	<-a.charts
	if err != nil {
		a.log.Error("web chart", "chat", msg.Chat.String(), "err", err)
		// The chart in characters, as a chat adapter sends when its
		// picture fails.
		writeJSON(w, doResp{Lines: linesJSON(reply.WithChartText(rep).Lines)})
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(img)
}
