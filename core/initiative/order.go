package initiative

import (
	"context"
	"errors"
	"sort"
	"time"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/fold"
)

// Limits of a turn order, each with its own localized message
// (initiative_test.go).
const (
	// MaxCombatants is how many combatants one turn order holds: a big
	// battle of a table of six with their foes, and what one status
	// message shows on a phone.
	MaxCombatants = 30
	// MaxName is the longest combatant name, in characters.
	MaxName = 32
	// MaxConditions is how many conditions one NPC carries at once.
	MaxConditions = 8
	// MaxRounds is the longest a condition may last, in rounds.
	MaxRounds = 99
	// MaxHP bounds an NPC's hit points (and its maximum).
	MaxHP = 99999
	// MaxHits is how many applied damage buttons an order remembers: a
	// long evening's worth of hits on its NPCs.
	MaxHits = 200
	// UndoFor is how long an ended turn order can be reopened (/init deshacer).
	UndoFor = core.UndoFor // the one window of every undo
)

// Condition is a state on a combatant ("envenenado"), with the rounds it
// still lasts (0: until removed).
type Condition struct {
	Name   string `json:"name"`
	Rounds int    `json:"rounds,omitempty"`
}

// Combatant is one entry of the turn order.
type Combatant struct {
	Name string `json:"name"`
	Key  string `json:"key"` // fold.Key of Name: unique within the order
	// Owner is the user id of the player who joined; "" for an NPC the GM added.
	Owner     string `json:"owner,omitempty"`
	OwnerName string `json:"owner_name,omitempty"`
	// Character is true when Name is the owner's character on the sheet
	// (its HP and conditions live there).
	Character bool `json:"character,omitempty"`
	Init      int  `json:"init"`
	// Seq is the order of arrival: the tie rule (equal initiative, the
	// one who joined first acts first) and the GM's moves use it.
	Seq int `json:"seq"`
	// HP and MaxHP of an NPC (nil: not tracked); a player's are on the sheet.
	HP         *int        `json:"hp,omitempty"`
	MaxHP      *int        `json:"max_hp,omitempty"`
	Conditions []Condition `json:"conditions,omitempty"`
}

// Order is a chat's turn order.
type Order struct {
	// Open is false once ended (kept for UndoFor, then forgotten).
	Open bool `json:"open"`
	// Round is 0 before the first turn, then 1, 2…
	Round int `json:"round"`
	// Current is the Key of whose turn it is ("" before the first).
	Current    string      `json:"current,omitempty"`
	Combatants []Combatant `json:"combatants"`
	// Fallen names the combatants removed while the fight ran who were
	// down (at 0 hit points) then, for the summary; those down and still
	// in the order are read from their hit points at the end. (An order
	// stored before Left also named here who only left or was brought to
	// 0 and healed: the summary counts a name here only when it is no
	// longer in the order.)
	Fallen []string `json:"fallen,omitempty"`
	// Left names the combatants removed while the fight ran who were not
	// down: they left, they did not fall.
	Left []string `json:"left,omitempty"`
	// Hits are the Once tokens of the damage buttons (reply.ActHit)
	// already applied, the newest MaxHits: each applies once.
	Hits []string `json:"hits,omitempty"`
	// Ascending is the order of the chat's setting when it was sorted
	// last: lowest first.
	Ascending bool      `json:"ascending,omitempty"`
	NextSeq   int       `json:"next_seq"`
	Started   time.Time `json:"started"`
	Ended     time.Time `json:"ended,omitzero"`
}

// Store keeps each chat's turn order (one per chat). Every write is one
// transaction that holds the write lock from its start.
type Store interface {
	// Initiative returns the chat's order, ErrNone when it has none.
	Initiative(ctx context.Context, chat core.ChatRef) (Order, error)
	// EditInitiative reads the chat's order (ok=false: none; o is then
	// the zero Order), calls edit with it and stores what edit left, all
	// in one write transaction. An edit that returns an error writes
	// nothing and EditInitiative returns that error. An edit that
	// leaves no combatants and Open false deletes the order.
	EditInitiative(ctx context.Context, chat core.ChatRef, edit func(o *Order, ok bool) error) (Order, error)
}

// ErrNone: the chat has no turn order.
var ErrNone = errors.New("initiative: no turn order")

// Sort puts the combatants in turn order: highest initiative first (lowest
// first when Ascending); equal initiative keeps the order of arrival (Seq).
func (o *Order) Sort() {
	sort.SliceStable(o.Combatants, func(i, j int) bool {
		a, b := o.Combatants[i], o.Combatants[j]
		if a.Init != b.Init {
			if o.Ascending {
				return a.Init < b.Init
			}
			return a.Init > b.Init
		}
		return a.Seq < b.Seq
	})
}

// Index finds a combatant by key, -1 when absent.
func (o *Order) Index(key string) int {
	for i, c := range o.Combatants {
		if c.Key == key {
			return i
		}
	}
	return -1
}

// AdvanceSkipping passes the turn as Advance does, past the combatants
// down reports (fallen: they keep their place, not their turn). When
// every combatant is down the turn passes to the next one all the same.
func (o *Order) AdvanceSkipping(down func(c Combatant) bool) (newRound bool) {
	saved := *o
	for range o.Combatants {
		if o.Advance() {
			newRound = true
		}
		if i := o.Index(o.Current); i >= 0 && !down(o.Combatants[i]) {
			return newRound
		}
	}
	*o = saved
	return o.Advance()
}

// SkipFallen moves the turn on from a combatant down reports to the next
// one standing, as AdvanceSkipping does (after a removal passed the turn
// to a fallen one). It reports whether a new round began.
func (o *Order) SkipFallen(down func(c Combatant) bool) (newRound bool) {
	if i := o.Index(o.Current); i < 0 || !down(o.Combatants[i]) {
		return false
	}
	return o.AdvanceSkipping(down)
}

// Advance passes the turn: to the first combatant at the start (round 1),
// else to the next, starting a new round past the last. It reports
// whether a new round began.
func (o *Order) Advance() (newRound bool) {
	if len(o.Combatants) == 0 {
		return false
	}
	i := o.Index(o.Current)
	if o.Round == 0 || i < 0 && o.Current == "" {
		o.Round = max(o.Round, 1)
		o.Current = o.Combatants[0].Key
		return o.Round == 1
	}
	if i < 0 || i+1 >= len(o.Combatants) {
		o.Round++
		o.Current = o.Combatants[0].Key
		return true
	}
	o.Current = o.Combatants[i+1].Key
	return false
}

// Remove takes the combatant with key out; the turn passes to the one
// after it when it was theirs (without counting a new turn).
func (o *Order) Remove(key string) (Combatant, bool) {
	i := o.Index(key)
	if i < 0 {
		return Combatant{}, false
	}
	c := o.Combatants[i]
	o.Combatants = append(o.Combatants[:i:i], o.Combatants[i+1:]...)
	if o.Current == key {
		switch {
		case len(o.Combatants) == 0:
			o.Current = ""
		case i < len(o.Combatants):
			o.Current = o.Combatants[i].Key
		default:
			o.Current = o.Combatants[0].Key
			o.Round++
		}
	}
	return c, true
}

// Move puts the combatant with key at position pos (1-based, clamped) and
// gives it the initiative of its new neighbours, so a later join sorts
// around it as shown.
func (o *Order) Move(key string, pos int) bool {
	i := o.Index(key)
	if i < 0 {
		return false
	}
	c := o.Combatants[i]
	rest := append(o.Combatants[:i:i], o.Combatants[i+1:]...)
	pos = min(max(pos, 1), len(rest)+1) - 1
	// Take the initiative of the one it lands before (or after, at the
	// end), and a Seq that keeps it on that side of the tie.
	switch {
	case pos < len(rest):
		c.Init = rest[pos].Init
		c.Seq = rest[pos].Seq
		for k := pos; k < len(rest); k++ {
			if rest[k].Init == c.Init {
				rest[k].Seq++
			}
		}
	case len(rest) > 0:
		c.Init = rest[len(rest)-1].Init
		c.Seq = rest[len(rest)-1].Seq + 1
	}
	out := make([]Combatant, 0, len(rest)+1)
	out = append(out, rest[:pos]...)
	out = append(out, c)
	out = append(out, rest[pos:]...)
	o.Combatants = out
	o.NextSeq = max(o.NextSeq, maxSeq(out)+1)
	return true
}

func maxSeq(cs []Combatant) int {
	m := 0
	for _, c := range cs {
		m = max(m, c.Seq)
	}
	return m
}

// Check validates an order read from outside (an /importar document) as
// the commands would have built it, and recomputes what is derived
// (keys, Seq counter). It reports false for anything /init could not
// have stored.
func (o *Order) Check() bool {
	if len(o.Combatants) > MaxCombatants || o.Round < 0 || o.Round > 1_000_000 || len(o.Fallen) > 4*MaxCombatants {
		return false
	}
	seen := map[string]bool{}
	curFound := o.Current == ""
	for i := range o.Combatants {
		c := &o.Combatants[i]
		if checkName(c.Name) != nil || c.Init < -999 || c.Init > 999 || c.Seq < 0 || len(c.Owner) > 128 || len(c.OwnerName) > 128 {
			return false
		}
		old := c.Key
		c.Key = fold.Key(c.Name)
		if seen[c.Key] {
			return false
		}
		seen[c.Key] = true
		if o.Current == old && old != "" {
			o.Current, curFound = c.Key, true
		}
		if (c.HP == nil) != (c.MaxHP == nil) || c.HP != nil && (*c.HP < 0 || *c.HP > MaxHP || *c.MaxHP < *c.HP || *c.MaxHP > MaxHP) {
			return false
		}
		if len(c.Conditions) > MaxConditions {
			return false
		}
		for _, k := range c.Conditions {
			if _, err := ParseCondition([]string{"+" + k.Name}); err != nil || k.Rounds < 0 || k.Rounds > MaxRounds {
				return false
			}
		}
	}
	if len(o.Left) > 4*MaxCombatants || len(o.Hits) > MaxHits {
		return false
	}
	for _, f := range append(append([]string(nil), o.Fallen...), o.Left...) {
		if utf8.RuneCountInString(f) > MaxName || fold.Clean(f) != f {
			return false
		}
	}
	for _, h := range o.Hits {
		if h == "" || len(h) > 32 || fold.Clean(h) != h {
			return false
		}
	}
	if !curFound {
		return false
	}
	o.NextSeq = max(o.NextSeq, maxSeq(o.Combatants)+1)
	o.Sort()
	return true
}
