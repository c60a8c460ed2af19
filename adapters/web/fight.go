package web

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"zaria/core"
)

// HP is a sheet's hit points as the companion shows them: the value's
// name on the sheet ("pv", "hp", "ζωή"), its current points and maximum.
type HP struct {
	Name     string
	Cur, Max int
	HasMax   bool
}

// Condition is a condition on a sheet or a combatant, with the rounds it
// still lasts (0: until removed).
type Condition struct {
	Name   string
	Rounds int
}

// Viewer is who looks at the turn order: the user's id, and whether the
// page takes them for a GM.
type Viewer struct {
	User string
	GM   bool
}

// Order is a chat's turn order as a viewer may see it, as the core makes
// it (what the chat hides, an NPC's hit points from players, is hidden).
type Order struct {
	Round int
	// CanNext: the viewer may pass the turn (▶): a GM, or the player
	// whose character's turn it is once the fight has started.
	CanNext    bool
	Combatants []Combatant
	// UndoUntil, for an order that ended (Fights.Order's open false), is
	// when the core stops reopening it (/init undo); zero: nothing to undo.
	UndoUntil time.Time
}

// Combatant is one entry of the turn order as the viewer may see it.
type Combatant struct {
	Name    string
	Init    int
	Current bool // whose turn it is
	Mine    bool // the viewer's own
	// Character: a player's character, its conditions on its sheet;
	// otherwise an NPC, its conditions the order's (the GM's to change).
	Character bool
	// HP is its hit points as the viewer may see them ("9/12"), "" when
	// hidden or not tracked; Cur and Max are their numbers.
	HP       string
	Cur, Max int
	Mark     string // 💀 fallen, 🩸 an NPC badly hurt, or ""
	// Conditions are its sheet's for a character, the order's for an NPC.
	Conditions []Condition
}

// Fights reads a chat's turn order (writes go through Port.Dispatch).
type Fights interface {
	// Order is the chat's open turn order as who may see it; false when
	// none is open (the Order then is the last one as it ended, with
	// UndoUntil while it may be reopened).
	Order(ctx context.Context, chat core.ChatRef, who Viewer) (Order, bool, error)
}

// Table is a chat's random table: its name, dice and rows as a GM types
// them after /tabla crear (one per line, "2-4 text" when ranged).
type Table struct {
	Name string
	Dice string // the dice to keep on an edit ("" when the rows decide)
	Rows []string
}

// Deck is a chat's deck of cards: a GM's, or a built-in one (Kind set).
type Deck struct {
	Name        string
	Kind        string
	Left, Total int
}

// Tables reads a chat's random tables and decks.
type Tables interface {
	Tables(ctx context.Context, chat core.ChatRef) ([]Table, error)
	Decks(ctx context.Context, chat core.ChatRef) ([]Deck, error)
}

// maxDelta is the page's own limit of an HP change (the core has none
// of its own but an int's).
const maxDelta = 999

// Limits are the core's limits that the page's forms check before they
// send a command (the core checks them again): main gives the core's own
// numbers. A zero limit refuses every value it bounds.
type Limits struct {
	Rows       int // a table's rows (table.MaxRows)
	Cards      int // a deck's cards (deck.MaxCards); the body's limit (web.max_body) comes first
	Combatants int // places in the turn order (initiative.MaxCombatants)
	Rounds     int // a condition's rounds (initiative.MaxRounds)
	Bound      int // a fork's band bound or table cell, either sign (fork.MaxBound)
}

// initiative checks what a player may type to join the turn order with
// their own roll or value (/init 14, /init 2d6+1): one word with a digit,
// so that it is never one of /init's sub-commands.
func initiative(s string) bool {
	return word(s) && strings.ContainsAny(s, "0123456789")
}

// condWord checks a condition's name as the page sends it: one word that
// does not start with the sign the command puts before it.
func condWord(s string) bool {
	return word(s) && !strings.HasPrefix(s, "+") && !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "−")
}

// label checks a name that may hold spaces (a combatant, a table, a
// deck): one line of at most 64 characters, no quotes (it is quoted in
// the command), no control or format characters, not a command.
func label(s string) bool {
	if strings.TrimSpace(s) != s || s == "" || utf8.RuneCountInString(s) > 64 || !utf8.ValidString(s) ||
		strings.ContainsAny(s, "\"«»“”:?") || s[0] == '/' || s[0] == '!' || s[0] == '@' {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			return false
		}
	}
	return true
}

// fightCommand builds the chat command of the page's HP, condition,
// turn order, table, deck and undo actions; "" when a field is not
// acceptable.
func (q doReq) fightCommand() string {
	switch q.Op {
	case "hp": // /pj @Drake pv -3
		if word(q.Char) && word(q.Name) && q.N != 0 && q.N >= -maxDelta && q.N <= maxDelta {
			return "/pj @" + q.Char + " " + q.Name + " " + signed(q.N)
		}
	case "cond": // /pj @Drake condition +envenenado 2
		if word(q.Char) && word(q.Name) && !strings.ContainsAny(q.Name[:1], "+-") && q.N >= 0 && q.N <= q.lim.Rounds {
			s := "/pj @" + q.Char + " condition +" + q.Name
			if q.N > 0 {
				s += " " + strconv.Itoa(q.N)
			}
			return s
		}
	case "uncond":
		if word(q.Char) && word(q.Name) && !strings.ContainsAny(q.Name[:1], "+-") {
			return "/pj @" + q.Char + " condition -" + q.Name
		}
	case "npchp": // /init hp "Orco" -5 (GM)
		if label(q.Name) && q.N != 0 && q.N >= -maxDelta && q.N <= maxDelta {
			return `/init hp "` + q.Name + `" ` + signed(q.N)
		}
	case "undo":
		return "/pj undo"
	case "join": // /init, /init 14 (the sender's active character)
		switch {
		case q.Value == "":
			return "/init"
		case initiative(q.Value):
			return "/init " + q.Value
		}
	case "move": // /init move "Orco" 1 (GM)
		if label(q.Name) && q.N >= 1 && q.N <= q.lim.Combatants {
			return `/init move "` + q.Name + `" ` + strconv.Itoa(q.N)
		}
	case "npccond": // /init condition "Orco" +aturdido 2 (GM)
		if label(q.Name) && condWord(q.Value) && q.N >= 0 && q.N <= q.lim.Rounds {
			s := `/init condition "` + q.Name + `" +` + q.Value
			if q.N > 0 {
				s += " " + strconv.Itoa(q.N)
			}
			return s
		}
	case "npcuncond": // /init condition "Orco" -aturdido (GM)
		if label(q.Name) && condWord(q.Value) {
			return `/init condition "` + q.Name + `" -` + q.Value
		}
	case "reopen": // the undo of an ended fight (GM)
		return "/init undo"
	case "next":
		return "/init next"
	case "end":
		return "/init end"
	case "remove":
		if label(q.Name) {
			return `/init remove "` + q.Name + `"`
		}
	case "add": // /init add "Orco 2" 2d6+1 hp 15
		if !label(q.Name) || (q.Value != "" && !word(q.Value)) || q.HP != nil && (*q.HP < 0 || *q.HP > 9999) {
			return ""
		}
		s := `/init add "` + q.Name + `"`
		if q.Value != "" {
			s += " " + q.Value
		}
		if q.HP != nil {
			s += " hp " + strconv.Itoa(*q.HP)
		}
		return s
	case "table":
		if label(q.Name) {
			return "/table " + q.Name
		}
	case "draw":
		if label(q.Name) {
			return "/deck draw " + q.Name
		}
	case "rows": // /table create Name [dice]\nrow\nrow
		rows, ok := linesText(q.Value, q.lim.Rows)
		if !label(q.Name) || !ok || q.Diff != "" && !word(q.Diff) {
			return ""
		}
		s := "/table create " + q.Name
		if q.Diff != "" {
			s += " " + q.Diff
		}
		return s + "\n" + rows
	}
	return q.tableCommand()
}

// posts reports whether the reply of op goes to the chat as well as to
// the page: rolls, draws, hit points, conditions and the turn order are
// the table's to see, and so is a deck shuffled (everyone's next draw
// changes); a sheet, table or deck edit is not.
func posts(op string) bool {
	switch op {
	case "roll", "hp", "cond", "uncond", "next", "end", "remove", "add", "table", "draw", "npchp",
		"join", "move", "npccond", "npcuncond", "reopen", "shuffle":
		return true
	}
	return false
}

// combatantView is a combatant with the page's tools for it.
type combatantView struct {
	Combatant
	// NPC hit points the GM may change with steppers.
	NPC bool
	// Up and Down are the places (from 1) a GM's move takes it to; 0 none.
	Up, Down int
	// OwnConds: its conditions are the order's (not on a sheet), the
	// GM's to change with /init condition.
	OwnConds bool
}

type orderView struct {
	Open       bool
	Round      int
	Combatants []combatantView
	// Joined: the user has a place in the order already.
	Joined bool
	// UndoMinutes, for an ended order, are the minutes left to reopen it.
	UndoMinutes int
	// CanNext: the user may pass the turn (▶), as the core says.
	CanNext bool
	// Ended: the last fight, over; Round and Combatants are how it ended
	// (everyone keeps its summary until the next one).
	Ended bool
}

// endedOf is an ended turn order as the user may see it: how it ended,
// and the minutes it may still be reopened (0: no more).
func endedOf(o Order, now time.Time) *orderView {
	v := orderOf(o) // the core gives no turn and no ▶ in an ended order
	v.Open, v.Ended = false, true
	if now.Before(o.UndoUntil) {
		v.UndoMinutes = int((o.UndoUntil.Sub(now) + time.Minute - 1) / time.Minute)
	}
	return v
}

// orderOf is the screen of the turn order the core gave as the user may
// see it: the places a GM's move takes each row to, and whether the user
// has joined.
func orderOf(o Order) *orderView {
	v := &orderView{Open: true, Round: o.Round, CanNext: o.CanNext}
	for i, c := range o.Combatants {
		cv := combatantView{Combatant: c, OwnConds: !c.Character, NPC: !c.Character && c.HP != ""}
		if i > 0 {
			cv.Up = i
		}
		if i < len(o.Combatants)-1 {
			cv.Down = i + 2
		}
		v.Joined = v.Joined || c.Mine
		v.Combatants = append(v.Combatants, cv)
	}
	return v
}
