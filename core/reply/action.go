package reply

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ActionKind says what pressing a button does.
type ActionKind string

const (
	// ActAgain runs Action.Command once more, as whoever presses it.
	ActAgain ActionKind = "again"
	// ActOdds shows the odds and the distribution of the roll Action.Command
	// with its result Action.Actual marked, without rolling anything.
	ActOdds ActionKind = "odds"
	// ActRun runs the pad button Action.Button (a stored command) as
	// whoever presses it, if they may press it.
	ActRun ActionKind = "run"
	// ActReveal shows Action.Secret, a blind roll's result, to whoever
	// presses it when they are a GM of the chat Action.Chat (an admin, or
	// named with /gm), and to anyone else that only the GMs may see it:
	// always as a pop-up for the presser alone (Reply.Alert), never as a
	// message of the chat.
	ActReveal ActionKind = "reveal"
	// ActDamage takes Action.Amount hit points from the sheet of the
	// chat's character Action.Character ("/pj @Drake pv -N"), once per
	// Action.Once, if the presser may edit that sheet (core/sheet): the
	// button under a damage roll against a character.
	ActDamage ActionKind = "damage"
	// ActHit takes Action.Amount hit points from the combatant
	// Action.Character of the chat's turn order, whose hit points the
	// order keeps (an NPC: "/init pv Lobo -N"), once per Action.Once, if
	// the presser may change them (core/initiative: a GM, or the
	// combatant's player): the button under a damage roll against a
	// combatant that is not a character.
	ActHit ActionKind = "hit"
	// ActAsk answers the chat's request for a roll Action.Request (core/ask):
	// rolls its check for the character Action.Character, if the presser
	// owns it or is a GM, or, with no Character, closes the request (⏹,
	// GMs only).
	ActAsk ActionKind = "ask"
	// ActLink opens the web address Action.URL: nothing is pressed, so
	// nothing is kept and the core resolves nothing. An adapter draws it
	// as a link button (Telegram's url button) where its platform has
	// them; Action.App, when set, is the web page a platform that opens
	// apps from a private chat's button (a Telegram Mini App's web_app
	// button) opens there instead. A core service puts one on a reply
	// only for a platform that draws it (the companion's Linker says so).
	ActLink ActionKind = "link"
)

// ActGone is no button the core made: an adapter presses it for a
// button it can no longer resolve (data this bot did not make, a record
// since pruned), and shows what the core answers: that the button no
// longer works, in the chat's language, nothing changed.
const ActGone ActionKind = "gone"

// MaxSecret is the longest Action.Secret, in characters: what a Telegram
// pop-up (answerCallbackQuery's show_alert) holds.
const MaxSecret = 200

// Action is the meaning of a button, resolved by the core
// (command.Router.Press). Adapters only draw the button, keep the Action
// (adapters/internal/actions stores it, Encode gives its stored form) and
// hand it back when it is pressed; they never build a command from it, and
// they draw a button from its Action alone, never from Button.Kind or
// Reply.Command.
//
// An Action is small enough to keep: Again and Odds carry the command
// text (at most the router's input limit), Odds also the roll's four
// figures of odds; Run carries only the stored
// button's id, so a press after a restart, a reorder or an edit runs what
// the pad holds then (or says the button is gone).
//
// Adding a kind of button (turn order "next", a table roll, a blind roll's
// reveal, a web page's request): declare its ActionKind here, give it any
// field it needs on Action (with a tag in actionWire), register its
// handler with command.Router.HandleAction and put a Button with that
// Action on a reply. Encode stores it (as JSON until it is given a short
// code in Encode and DecodeAction, which old stored forms survive), and
// every adapter draws it, keeps it and presses it with no change.
type Action struct {
	Kind ActionKind
	// Command is the normalized command of the reply ("/roll 2d6+1 vs 8"),
	// for Again and Odds.
	Command string
	// Actual is the total the roll gave, marked on the Odds chart; nil
	// when the roll has no single total.
	Actual *int64
	// Odds, for Odds, is the odds of the roll the button is under, as its
	// Check stated them: the core's answer to the press says them in one
	// line (Reply.OddsLine) without rolling again. nil on a button of an
	// earlier version or one made outside the router.
	Odds *RollOdds
	// Button is the id of a pad button, for Run. Ids are never reused.
	Button int64
	// Values, for Run, fill the button's missing values ({objetivo}) in
	// order: the choices its presser made when the core asked for them
	// (a reply whose buttons are Run actions with one more value each).
	// Adapters keep them with the button and hand them back unchanged.
	Values []string
	// Secret, for Reveal, is the result only the GMs may read, at most
	// MaxSecret characters; Chat is the chat (core.ChatRef.String) whose
	// GMs may read it. An Action with a Secret is Private: adapters keep it
	// where only the bot reads it (a stored record under a random id),
	// never in a button's data nor a message's content, which clients show.
	Secret string
	Chat   string
	// Character and Amount, for Damage: whose sheet, how many hit points
	// (for Hit: which combatant of the turn order).
	Character string
	Amount    int
	// Once, for Damage and Hit, names this button's press: the damage is applied
	// at most once per Once (a random token given when the reply is made).
	Once string
	// Request, for Ask, is the id of the chat's request for a roll;
	// Character (its key) the character the button rolls for, "" for ⏹.
	Request int64
	// URL, for Link, is the web address the button opens; App the page
	// opened instead where the platform opens apps from a button.
	URL string
	App string
}

// RollOdds is the odds of one roll, from its Check: the chance of its
// target (exact as "p/q" when known) and its mean.
type RollOdds struct {
	Chance *float64 `json:"c,omitempty"`
	Exact  string   `json:"e,omitempty"`
	Mean   *float64 `json:"m,omitempty"`
	Approx bool     `json:"a,omitempty"`
}

// Private reports whether a holds what only the GMs may read (Secret):
// it is never encoded into a token or a message a client can read.
func (a Action) Private() bool { return a.Secret != "" }

// ButtonRun is the Kind of a pad button (its Action is an ActRun).
const ButtonRun = "run"

// ActionVersion is the version of Encode's format, its first byte.
const ActionVersion = '1'

// Encode is the compact stored form of a, version 1: "1" and then
//
//	a<command>                 ActAgain
//	o<actual> <command>        ActOdds without Odds (<actual> empty when there is none)
//	r<button>[:<v>|<v>…]       ActRun, each value with "\" before a "|" or "\"
//	{…}                        any other kind, and ActOdds with Odds: the Action as JSON (actionWire)
//
// ("1a/roll 2d6", "1o7 /roll 2d6 vs 8", "1r12:cuero"). DecodeAction reads
// it back; a stored form of another version is refused, never guessed.
func (a Action) Encode() string {
	switch a.Kind {
	case ActAgain:
		return "1a" + a.Command
	case ActOdds:
		if a.Odds != nil {
			break
		}
		n := ""
		if a.Actual != nil {
			n = strconv.FormatInt(*a.Actual, 10)
		}
		return "1o" + n + " " + a.Command
	case ActRun:
		s := "1r" + strconv.FormatInt(a.Button, 10)
		if len(a.Values) > 0 {
			esc := make([]string, len(a.Values))
			for i, v := range a.Values {
				esc[i] = strings.NewReplacer(`\`, `\\`, `|`, `\|`).Replace(v)
			}
			s += ":" + strings.Join(esc, "|")
		}
		return s
	}
	b, _ := json.Marshal(actionWire{Kind: a.Kind, Command: a.Command, Actual: a.Actual, Odds: a.Odds, Button: a.Button, Values: a.Values,
		Secret: a.Secret, Chat: a.Chat,
		Character: a.Character, Amount: a.Amount, Once: a.Once, Request: a.Request, URL: a.URL, App: a.App})
	return "1" + string(b)
}

// actionWire is the JSON form of an Action of a kind without a short code.
type actionWire struct {
	Kind    ActionKind `json:"k"`
	Command string     `json:"c,omitempty"`
	Actual  *int64     `json:"n,omitempty"`
	Odds    *RollOdds  `json:"o,omitempty"`
	Button  int64      `json:"b,omitempty"`
	Values  []string   `json:"v,omitempty"`
	Secret  string     `json:"s,omitempty"`
	Chat    string     `json:"h,omitempty"`
	// Damage's.
	Character string `json:"ch,omitempty"`
	Amount    int    `json:"am,omitempty"`
	Once      string `json:"id,omitempty"`
	// Ask's.
	Request int64 `json:"rq,omitempty"`
	// Link's.
	URL string `json:"u,omitempty"`
	App string `json:"ap,omitempty"`
}

// ErrAction is DecodeAction's error: s is not an Action this version stores.
var ErrAction = errors.New("reply: not a stored action")

// DecodeAction reads an Action stored by Encode. It checks what a press
// relies on: a command starts with "/" or "!", a pad button id is
// positive, every text is UTF-8.
func DecodeAction(s string) (Action, error) {
	if len(s) < 2 || s[0] != ActionVersion || !utf8.ValidString(s) {
		return Action{}, ErrAction
	}
	body := s[2:]
	var a Action
	switch s[1] {
	case 'a':
		a = Action{Kind: ActAgain, Command: body}
	case 'o':
		n, cmd, ok := strings.Cut(body, " ")
		if !ok {
			return Action{}, ErrAction
		}
		a = Action{Kind: ActOdds, Command: cmd}
		if n != "" {
			v, err := strconv.ParseInt(n, 10, 64)
			if err != nil {
				return Action{}, ErrAction
			}
			a.Actual = &v
		}
	case 'r':
		id, vals, hasVals := strings.Cut(body, ":")
		b, err := strconv.ParseInt(id, 10, 64)
		if err != nil || strconv.FormatInt(b, 10) != id {
			return Action{}, ErrAction
		}
		a = Action{Kind: ActRun, Button: b}
		if hasVals {
			a.Values = splitValues(vals)
		}
	case '{':
		var w actionWire
		if err := json.Unmarshal([]byte(s[1:]), &w); err != nil || w.Kind == "" {
			return Action{}, ErrAction
		}
		a = Action{Kind: w.Kind, Command: w.Command, Actual: w.Actual, Odds: w.Odds, Button: w.Button, Values: w.Values,
			Secret: w.Secret, Chat: w.Chat,
			Character: w.Character, Amount: w.Amount, Once: w.Once, Request: w.Request, URL: w.URL, App: w.App}
	default:
		return Action{}, ErrAction
	}
	if !a.Valid() {
		return Action{}, ErrAction
	}
	return a, nil
}

// Valid reports whether a can be pressed at all: Again and Odds name a
// command, Run a pad button, Reveal a secret of a chat; Gone never is a
// button's, so never valid.
func (a Action) Valid() bool {
	switch a.Kind {
	case ActAgain, ActOdds:
		return len(a.Command) > 1 && (a.Command[0] == '/' || a.Command[0] == '!')
	case ActRun:
		return a.Button > 0
	case ActReveal:
		return a.Secret != "" && a.Chat != "" && utf8.RuneCountInString(a.Secret) <= MaxSecret
	case ActDamage, ActHit:
		return a.Character != "" && a.Amount > 0 && a.Once != ""
	case ActAsk:
		return a.Request > 0
	case ActLink:
		return a.URL != ""
	case ActGone:
		return false // pressed by an adapter, never kept nor read from a token
	}
	return a.Kind != ""
}

// splitValues reads "<v>|<v>…" with "\" escapes.
func splitValues(s string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '|':
			out = append(out, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(out, b.String())
}
