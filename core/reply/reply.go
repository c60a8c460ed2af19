// Package reply is the platform-neutral answer the core gives to a chat
// message: lines of styled, already localized text, optional buttons, and
// the machine-readable facts of a check for --json. Adapters render it with
// Plain or HTML and never look inside the text.
package reply

// Style of a span of text.
type Style uint8

const (
	Plain Style = iota
	Bold
	Italic
	Code
)

// Span is a run of text with one style. Text is raw (unescaped) user-visible text.
type Span struct {
	Style Style
	Text  string
}

// Line is one line of a reply.
type Line []Span

// Button kinds that adapters know how to wire.
const (
	ButtonAgain = "again" // re-run Reply.Command for whoever presses it
	ButtonOdds  = "odds"  // run Reply.Command with the odds shown
)

// Button is an action offered under a reply (Telegram inline keyboard,
// Matrix reaction, console numbered option).
type Button struct {
	// Kind is the core's own name for the button (ButtonAgain, ButtonOdds
	// or ButtonRun), for the router to fill its Action; adapters read
	// only Label and Action.
	Kind  string
	Label string // localized label
	// Symbol, when set, is one emoji that stands for the button where a
	// platform offers buttons as reactions (Matrix: the turn order's ▶
	// and ⏹); adapters that know no such symbol, and buttons without one,
	// use their own (a keycap by the button's place).
	Symbol string
	// Action is what pressing the button does; adapters hand it to
	// command.Router.Press. The router fills it for ButtonAgain and
	// ButtonOdds; nil only on a reply built outside the router.
	Action *Action
}

// Check carries the facts of a resolved roll for --json and for logs.
type Check struct {
	System  string `json:"system"`
	Outcome string `json:"outcome,omitempty"`
	Dice    []int  `json:"dice"`
	// Sides[i] is the number of faces of Dice[i] (0 or missing: unknown),
	// for the roll history's fairness report. Not part of the CLI's JSON.
	Sides  []int    `json:"-"`
	Total  *int     `json:"total,omitempty"`
	Chance *float64 `json:"chance,omitempty"`
	// ChanceExact is the exact chance as a fraction "p/q" when known.
	ChanceExact string `json:"chance_exact,omitempty"`
	Approx      bool   `json:"approx,omitempty"`
	Level       *int   `json:"level,omitempty"`
	Winner      string `json:"winner,omitempty"`
	// Table and Row: the random table rolled and the row it gave, its
	// dice inside rolled (/tabla).
	Table string `json:"table,omitempty"`
	Row   string `json:"row,omitempty"`
	// Deck and Cards: the deck drawn from and the cards drawn (/mazo);
	// Left is how many cards the deck still holds.
	Deck  string   `json:"deck,omitempty"`
	Cards []string `json:"cards,omitempty"`
	Left  *int     `json:"left,omitempty"`
	// Pick is what /elegir chose.
	Pick string `json:"pick,omitempty"`
	// Margin is how far the roll was from what it needed, when the
	// system says (a target of /roll, a Ζαριά DC): positive above it,
	// negative below. A request for a roll (core/ask) sums it up; not part
	// of the CLI's JSON of a roll (the request's has it).
	Margin *float64 `json:"-"`
	Mean   *float64 `json:"mean,omitempty"`
}

// File is a document attached to a reply (an export).
type File struct {
	Name string
	MIME string
	Data []byte
}

// Reply is what the core answers.
type Reply struct {
	Lines   []Line
	Buttons []Button
	// Command is the normalized command that produced this reply, for the
	// router to fill its buttons' Actions and for the roll history;
	// adapters never read it (a button's Action carries what it runs).
	Command string
	Check   *Check
	File    *File
	// Chart, when set, is a distribution to show as a picture (see Chart).
	Chart *Chart
	// Keyboard, when set, replaces (or, Hide, restores) the user's phone keyboard (see Keyboard).
	Keyboard *Keyboard
	// Secret, when set, is the real result of a secret roll, for the roller
	// and the chat's GMs only: adapters deliver it privately to the roller,
	// the chat's administrators and SecretTo, and post Lines (a short
	// public notice) in the chat; in a private chat they send Secret
	// instead of Lines. Nobody else may see it.
	Secret *Reply
	// SecretTo lists the platform user ids of the chat's named GMs (/gm add):
	// they receive Secret too, besides the roller and the chat's admins,
	// whom the adapter knows.
	SecretTo []string
	// Blind, with Secret, is a blind roll (/ciega): Secret goes to the
	// chat's GMs only (its admins and SecretTo), never to the roller
	// unless they are a GM; the roller and the chat see Lines, which hold
	// no result.
	Blind bool
	// Alert marks the answer to a press that is for the presser's eyes
	// only (a blind roll's 🙈 GM): a pop-up (Telegram's show_alert, the
	// console's own line), never a message of the chat. An adapter that
	// cannot show a reply to the presser alone shows nothing.
	Alert bool
	// Error marks a reply that reports a user error (exit status 2 in the CLI).
	Error bool
	// Head, when set, is how many of Lines summarize the reply before
	// its tables (an odds reply's roll and its mean or chance, not the
	// table's heading that follows): what a compact view shows (the
	// page's dice screen). 0: the reply has no such summary.
	Head int
	// OddsLine, on the answer to a 📊 press (reply.ActOdds), is the odds
	// of the roll pressed in one localized line, as "/roll … ?" states
	// them ("📊 Chance: 37.5% · mean 10.5"): what a platform that adds the
	// odds to the roll's own message (Telegram) adds there, and toasts.
	// It is set whatever the rest of the answer (the command may have no
	// picture of its odds: Lines then say so); "" when the button carried
	// no odds (one of an earlier version): the reply is the answer.
	OddsLine string
	// Lang is the language the router rendered the reply in ("es", "el",
	// "en"; also set on Secret): an adapter writes any text it adds to the
	// reply (a header, a notice) in it. "" on a reply built outside the
	// router.
	Lang string
	// Status, when set, is the chat's status message of its Slot (the
	// turn order): adapters edit that one message in place (Telegram
	// editMessageText, Matrix an m.replace edit, the console reprints it)
	// instead of posting a new one each time; Lines, when there are any,
	// are posted as usual (an announcement that notifies).
	Status *Reply
	// Slot names the status message a Status reply replaces (SlotInitiative).
	Slot string
	// Post, on a Status, asks for it to be posted anew at the bottom of
	// the chat instead of edited far up (/init ver): the new message is
	// the live one from then on, the old one is no longer edited.
	Post bool
	// Mention lists the platform user ids the reply addresses (whose turn
	// it is): adapters that can notify them do.
	Mention []string
	// Rolls, on a chat's history (/historial), is the roll of each line
	// after the title, in the lines' order: whole, where a line cuts its
	// command at 50 characters (the page draws a roll's picture from it).
	Rolls []Logged
	// Data is machine-readable facts of the reply besides Check (the turn
	// order, a changed value), for --json. Not shown.
	Data map[string]any
}

// Logged is one roll of a chat's history. Its fields are declared in
// the order of their names so that --json prints them as it printed the
// map they replace.
type Logged struct {
	Command string `json:"command"` // whole, as it was run
	Result  string `json:"result"`
	Time    string `json:"time"`            // RFC 3339, in the chat's zone
	Total   *int   `json:"total,omitempty"` // the roll's total, when it has one
	User    string `json:"user"`
}

// Text makes a one-line plain reply.
func Text(s string) *Reply { return &Reply{Lines: []Line{{{Text: s}}}} }

// Add appends a line made of spans.
func (r *Reply) Add(spans ...Span) *Reply {
	r.Lines = append(r.Lines, Line(spans))
	return r
}

// T, B, I and C build spans.
func T(s string) Span { return Span{Style: Plain, Text: s} }
func B(s string) Span { return Span{Style: Bold, Text: s} }
func I(s string) Span { return Span{Style: Italic, Text: s} }
func C(s string) Span { return Span{Style: Code, Text: s} }
