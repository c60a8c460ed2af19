package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"zaria/core"
	"zaria/core/reply"
)

type valueView struct {
	Name, Text string
	Num        bool
	N          int
}

type sheetView struct {
	Name, OwnerName, System string
	Mine, Editable, Active  bool
	Values                  []valueView
	HP                      *HP
	Conditions              []Condition
	Marks                   []Value
}

// choiceGroup is one <optgroup> of a long list: its label ("" none) and
// its choices.
type choiceGroup struct {
	Label   string
	Choices []Choice
}

// groups splits cs into its contiguous groups.
func groups(cs []Choice) []choiceGroup {
	var out []choiceGroup
	for _, c := range cs {
		if len(out) == 0 || out[len(out)-1].Label != c.Group {
			out = append(out, choiceGroup{Label: c.Group})
		}
		out[len(out)-1].Choices = append(out[len(out)-1].Choices, c)
	}
	return out
}

type screenData struct {
	Lang    string
	T       func(key string, kv ...any) string
	Chat    string
	GM      bool
	Sheets  []sheetView
	Mine    *sheetView // the user's active character (dice screen)
	Tray    *Tray
	Forms   []formView
	Screens []string
	Current string
	Pad     []Shortcut
	Order   *orderView
	Tables  []Table
	Decks   []Deck
	Pads    []padView
	Rules   []RuleSet
	// Bound bounds a rules band's bound and a cell's value (Limits.Bound).
	Bound int
	// Charts: the history offers each roll's distribution picture.
	Charts bool
	// Asks are the chat's open requests for a roll (dice screen); AskForm
	// offers a GM a new one.
	Asks    []Ask
	AskForm bool
}

// screen renders one screen of the chat, server-side, in its language.
func (a *Adapter) screen(w http.ResponseWriter, r *http.Request) {
	id, ok := a.caller(w, r)
	if !ok {
		return
	}
	if !a.reads.allow(id.msg.Chat.Platform+"|"+id.msg.From.ID, a.d.Now()) {
		http.Error(w, a.d.Port.Text(a.d.Port.Lang(r.Context(), id.msg.Chat, id.msg.LangHint), "web.err.busy"), http.StatusTooManyRequests)
		return
	}
	name := r.PathValue("screen")
	switch {
	case name == "sheets" || name == "dice":
	case name == "order" && a.d.Fights != nil:
	case name == "tables" && a.d.Tables != nil:
	case name == "pad" && a.padEditor():
	case name == "rules" && a.d.Rules != nil:
	case name == "history":
	default:
		http.NotFound(w, r)
		return
	}
	ctx := r.Context()
	lang := a.d.Port.Lang(ctx, id.msg.Chat, id.msg.LangHint)
	d := screenData{Lang: lang, T: a.texts(lang), Chat: id.token, Current: name, Screens: []string{"sheets", "dice"}}
	d.GM = id.msg.FromGM || id.msg.Private
	d.Bound = a.d.Limits.Bound
	d.Charts = a.d.Chart != nil
	if !d.GM {
		if gm, err := a.d.Sheets.IsGM(ctx, id.msg.Chat, id.msg.From.ID); err == nil {
			d.GM = gm
		}
	}
	if a.d.Fights != nil {
		o, open, err := a.d.Fights.Order(ctx, id.msg.Chat, Viewer{User: id.msg.From.ID, GM: d.GM})
		if err != nil {
			a.log.Error("web turn order", "chat", id.msg.Chat.String(), "err", err)
		}
		switch now := a.d.Now(); {
		case open:
			d.Screens = append(d.Screens, "order")
			d.Order = orderOf(o)
		case len(o.Combatants) > 0 || now.Before(o.UndoUntil):
			// Ended: everyone keeps how it ended until the next fight,
			// the GM its undo while it lasts.
			d.Screens = append(d.Screens, "order")
			d.Order = endedOf(o, now)
		}
	}
	if a.d.Tables != nil {
		d.Screens = append(d.Screens, "tables")
	}
	if a.padEditor() {
		d.Screens = append(d.Screens, "pad")
	}
	if a.d.Rules != nil {
		// The rules tab shows only in a chat with rules of its own (a
		// fork, an imported system): seven tabs do not fit a 360-px
		// phone, and a chat on the book has nothing to show there (a GM
		// starts a fork in the chat: /sistema copiar).
		var err error
		if d.Rules, err = a.d.Rules.Rules(ctx, id.msg.Chat, lang); err != nil {
			a.log.Error("web rules", "chat", id.msg.Chat.String(), "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		if len(d.Rules) > 0 || name == "rules" {
			d.Screens = append(d.Screens, "rules")
		}
	}
	d.Screens = append(d.Screens, "history")
	if name == "pad" {
		var err error
		if d.Pads, err = a.pads(ctx, id.msg, d.GM); err != nil {
			a.log.Error("web pads", "chat", id.msg.Chat.String(), "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
	}
	if name == "order" && d.Order == nil {
		d.Order = &orderView{} // ended meanwhile: the screen says there is none
	}
	if name == "tables" {
		var err error
		if d.Tables, err = a.d.Tables.Tables(ctx, id.msg.Chat); err == nil {
			d.Decks, err = a.d.Tables.Decks(ctx, id.msg.Chat)
		}
		if err != nil {
			a.log.Error("web tables", "chat", id.msg.Chat.String(), "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		for i := range d.Decks {
			if d.Decks[i].Kind != "" {
				d.Decks[i].Name = a.d.Port.Text(lang, "deck.builtin."+d.Decks[i].Kind)
			}
		}
	}
	chars, err := a.d.Sheets.Characters(ctx, id.msg.Chat)
	if err != nil {
		a.log.Error("web sheets", "chat", id.msg.Chat.String(), "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	for _, c := range chars {
		mine := c.Owner == id.msg.From.ID
		v := sheetView{Name: c.Name, OwnerName: c.OwnerName, System: c.System, Mine: mine, Active: c.Active,
			Editable: mine || d.GM, HP: c.HP, Conditions: c.Conditions, Marks: c.Marks}
		for _, x := range c.Values {
			n, err := strconv.Atoi(strings.TrimSpace(x.Text))
			v.Values = append(v.Values, valueView{Name: x.Name, Text: x.Text, Num: err == nil, N: n})
		}
		d.Sheets = append(d.Sheets, v)
		if mine && c.Active {
			cp := v
			d.Mine = &cp
		}
	}
	// Mine first, then the others (shown to everyone: a chat's sheets
	// are read by all its members; editing is the core's to allow).
	slices.SortStableFunc(d.Sheets, func(x, y sheetView) int {
		switch {
		case x.Mine == y.Mine:
			return 0
		case x.Mine:
			return -1
		}
		return 1
	})
	if name == "dice" && a.d.Asks != nil {
		asks, err := a.d.Asks.Open(ctx, id.msg.Chat, id.msg.From.ID, d.GM)
		if err != nil {
			a.log.Error("web requests", "chat", id.msg.Chat.String(), "err", err)
		}
		d.Asks, d.AskForm = asks, d.GM && !id.msg.Private
	}
	if name == "dice" {
		if a.d.Pads != nil {
			if sc, err := a.d.Pads.Shortcuts(ctx, id.msg.Chat, id.msg.From.ID); err == nil {
				d.Pad = sc
			}
		}
		if a.d.Forms != nil {
			t := a.d.Forms.Tray()
			d.Tray = &t
			fs, err := a.d.Forms.Forms(ctx, id.msg)
			if err != nil {
				a.log.Error("web forms", "chat", id.msg.Chat.String(), "err", err)
			}
			d.Forms = formViews(fs, d.Mine)
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	a.render(w, name+".html", d)
}

// doReq is one action of the page. Every field is checked before it
// becomes a word of a command.
type doReq struct {
	Op    string `json:"op"` // create, rename, delete, use, set, unset, roll, odds
	Char  string `json:"char,omitempty"`
	Name  string `json:"name,omitempty"`
	Value string `json:"value,omitempty"`
	N     int    `json:"n,omitempty"`
	Sides int    `json:"sides,omitempty"`
	Mod   int    `json:"mod,omitempty"`
	// Adv is advantage (1) or disadvantage (-1) on one d20: the roll's
	// "adv" or "dis", which the core reads in every language.
	Adv int `json:"adv,omitempty"`
	// A check of the dice screen: a form's key, a value per field.
	Form   string            `json:"form,omitempty"`
	Fields map[string]string `json:"fields,omitempty"`
	// System is the chat's system a rules screen's action changes.
	System string `json:"system,omitempty"`
	// Part of the system a rules action changes: "" a number, "band",
	// "cell" (of table Name at Row, Col), "rule" (a house rule).
	Part string `json:"part,omitempty"`
	Row  int    `json:"row,omitempty"`
	Col  int    `json:"col,omitempty"`
	// Diff is a table's dice (rows).
	Diff string `json:"diff,omitempty"`
	// A pad button, with the values chosen for its missing ones.
	Button int64    `json:"button,omitempty"`
	Values []string `json:"values,omitempty"`
	// HP of a combatant the GM adds (nil: none).
	HP *int `json:"hp,omitempty"`
	// Scope of a pad edit: "" the user's pad, "chat" the chat's.
	Scope string `json:"scope,omitempty"`
	// pos is Button's position in its pad, read from the store.
	pos int
	// advWord is the chat's word for Adv ("ventaja", "μειονέκτημα"),
	// which the core reads in every chat; "" the English "adv" or "dis".
	advWord string
	// tray is the dice screen's tray, form the check named by Form
	// (nil: none such), both from Deps.Forms.
	tray *Tray
	form *Form
	// lim is the core's limits the forms check (Deps.Limits).
	lim Limits
}

type doResp struct {
	Lines [][]spanJSON `json:"lines"`
	// Choices, when a pad button asks for a value: press one to roll.
	Choices []choiceJSON `json:"choices,omitempty"`
	Error   bool         `json:"error,omitempty"`
	Posted  bool         `json:"posted,omitempty"`
	Note    string       `json:"note,omitempty"`
	// Commands, for the history, are the command of each line's roll
	// ("" for a line that is none), whose picture the page may ask for.
	Commands []string `json:"commands,omitempty"`
	// Totals are those rolls' totals (null: none), marked on the picture.
	Totals []*int `json:"totals,omitempty"`
}

// command builds the chat command equivalent to the page's action, in
// the canonical names the router reads in every language. "" when a
// field is not acceptable.
func (q doReq) command() string {
	switch q.Op {
	case "create":
		if word(q.Name) {
			return "/pj create " + q.Name
		}
	case "marksclear": // the GM's, as in the chat: /pj marks clear
		if word(q.Char) {
			return "/pj marks clear @" + q.Char
		}
	case "rename":
		if word(q.Char) && word(q.Name) {
			return "/pj rename " + q.Char + " " + q.Name
		}
	case "delete":
		if word(q.Char) {
			return "/pj delete " + q.Char
		}
	case "set":
		if word(q.Char) && word(q.Name) && text(q.Value) {
			return "/pj set @" + q.Char + " " + q.Name + " " + strings.TrimSpace(q.Value)
		}
	case "use":
		if word(q.Char) {
			return "/pj use " + q.Char
		}
	case "unset":
		if word(q.Char) && word(q.Name) {
			return "/pj unset @" + q.Char + " " + q.Name
		}
	case "roll", "odds":
		return q.roll()
	case "alias":
		if word(q.Name) {
			return "/" + q.Name
		}
	case "pad":
		if q.Button <= 0 || len(q.Values) > 8 {
			return ""
		}
		for _, v := range q.Values {
			if !word(v) {
				return ""
			}
		}
		return "pad" // not a command: a press of the stored button
	case "history":
		return "/historial"
	case "ask", "askroll", "askclose":
		return q.askCommand()
	}
	if padOp(q.Op) {
		return q.padCommand()
	}
	if q.Op == "rulepreview" || q.Op == "ruleset" || q.Op == "rulename" {
		return q.ruleCommand()
	}
	return q.fightCommand()
}

type choiceJSON struct {
	Label  string   `json:"label"`
	Button int64    `json:"button"`
	Values []string `json:"values"`
}

// roll is the roll of a roll or odds action: the tray's dice, or a
// check's form.
func (q doReq) roll() string {
	if q.Form != "" {
		if q.form == nil || q.form.Key != q.Form {
			return ""
		}
		return q.form.command(q.Fields)
	}
	if q.Mod < -99 || q.Mod > 99 || q.tray == nil || !q.tray.Offers(q.N, q.Sides) {
		return ""
	}
	s := "/roll " + strconv.Itoa(q.N) + "d" + strconv.Itoa(q.Sides)
	if q.Mod != 0 {
		s += signed(q.Mod)
	}
	switch {
	case q.Adv == 0:
	case !q.tray.Takes(q.N, q.Sides):
		return "" // the core's advantage takes one roll only
	case q.Adv != 1 && q.Adv != -1:
		return ""
	case word(q.advWord):
		s += " " + q.advWord
	case q.Adv == 1:
		s += " adv"
	default:
		s += " dis"
	}
	return s
}

// do runs one action as the user, in the chat, through the router: the
// same command, the same rules. A roll is posted in the chat by the
// chat's adapter and the page gets the same reply.
func (a *Adapter) do(w http.ResponseWriter, r *http.Request) {
	id, ok := a.caller(w, r)
	if !ok {
		return
	}
	var q doReq
	if !readJSON(w, r, &q) {
		return
	}
	if padOp(q.Op) {
		a.padPosition(r.Context(), id.msg, &q)
	}
	// The chat's own words, so that the chat's history reads in its
	// language; the core reads every language's in every chat.
	if q.Adv == 1 || q.Adv == -1 {
		lang := a.d.Port.Lang(r.Context(), id.msg.Chat, id.msg.LangHint)
		q.advWord = a.d.Port.Text(lang, map[int]string{1: "web.dice.adv_word", -1: "web.dice.dis_word"}[q.Adv])
	}
	if (q.Op == "roll" || q.Op == "odds") && a.d.Forms != nil {
		t := a.d.Forms.Tray()
		q.tray = &t
		if q.Form != "" {
			q.form = a.form(r.Context(), id.msg, q.Form)
		}
	}
	q.lim = a.d.Limits
	cmd := q.command()
	if cmd == "" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if !padOp(q.Op) {
		lang := a.d.Port.Lang(r.Context(), id.msg.Chat, id.msg.LangHint)
		cmd = chatWords(cmd, func(key string) string { return a.d.Port.Text(lang, key) })
	}
	ctx := r.Context()
	msg := id.msg
	msg.Text = cmd
	var rep *reply.Reply
	if q.Op == "askroll" || q.Op == "askclose" {
		// The chat message's button, pressed as that user.
		msg.Text = ""
		rep, ok = a.d.Port.Press(ctx, msg, reply.Action{Kind: reply.ActAsk, Request: q.Button, Character: q.Char})
	} else if q.Op == "pad" {
		msg.Text = ""
		rep, ok = a.d.Port.Press(ctx, msg, reply.Action{Kind: reply.ActRun, Button: q.Button, Values: q.Values})
	} else if q.Op == "odds" {
		rep, ok = a.d.Port.Press(ctx, msg, reply.Action{Kind: reply.ActOdds, Command: cmd})
		if ok && rep != nil && !rep.Error {
			rep.Lines = oddsSummary(rep)
		}
	} else {
		rep, ok = a.d.Port.Dispatch(ctx, msg)
	}
	if !ok || rep == nil {
		lang := a.d.Port.Lang(ctx, msg.Chat, msg.LangHint)
		// The router said nothing: a flood already warned about.
		writeJSON(w, doResp{Error: true, Lines: linesJSON([]reply.Line{{reply.T(a.d.Port.Text(lang, "web.err.busy"))}})})
		return
	}
	out := doResp{Lines: linesJSON(rep.Lines), Error: rep.Error}
	if askOp(q.Op) && !rep.Error {
		// The request's message, as the chat's is edited.
		if rep.Status != nil && len(rep.Lines) == 0 {
			out.Lines = linesJSON(rep.Status.Lines)
		}
		out.Posted, out.Note = a.postAsk(r, msg, rep)
		writeJSON(w, out)
		return
	}
	if q.Op == "history" && a.d.Chart != nil && !rep.Error {
		out.Commands, out.Totals = historyCommands(rep)
	}
	for _, b := range rep.Buttons {
		if b.Action != nil && b.Action.Kind == reply.ActRun {
			out.Choices = append(out.Choices, choiceJSON{Label: b.Label, Button: b.Action.Button, Values: b.Action.Values})
		}
	}
	rolled := posts(q.Op) || ((q.Op == "pad" || q.Op == "alias") && rep.Command != "")
	if rolled && !rep.Error {
		out.Posted, out.Note = a.post(r, msg, rep, rep.Lang)
	}
	writeJSON(w, out)
}

// post hands a roll's reply to the chat's adapter, headed by who rolled
// it from the companion and the command, as the chat would have seen it
// typed.
func (a *Adapter) post(r *http.Request, msg core.Message, rep *reply.Reply, lang string) (bool, string) {
	p := a.d.Posters[msg.Chat.Platform]
	if p == nil {
		return false, a.d.Port.Text(lang, "web.err.not_posted")
	}
	cmd := msg.Text
	if rep.Command != "" {
		cmd = rep.Command
	}
	head := reply.Line{reply.I(a.d.Port.Text(lang, "web.posted", "name", a.displayName(msg.From.Name, msg.From.ID), "command", cmd))}
	out := *rep
	out.Lines = append([]reply.Line{head}, rep.Lines...)
	if rep.Secret != nil {
		s := *rep.Secret
		s.Lines = append([]reply.Line{head}, s.Lines...)
		out.Secret = &s
	}
	if err := p.Post(r.Context(), msg, &out); err != nil {
		a.log.Error("web post", "chat", msg.Chat.String(), "err", err)
		return false, a.d.Port.Text(lang, "web.err.not_posted")
	}
	return true, ""
}

// oddsSummary keeps the head of an odds reply, as the core marks it
// (reply.Reply.Head: the roll, its chance or mean, not the tables), at
// most three lines for the dice screen.
func oddsSummary(rep *reply.Reply) []reply.Line {
	n := len(rep.Lines)
	if rep.Head > 0 {
		n = min(n, rep.Head)
	}
	return rep.Lines[:min(n, 3)]
}
