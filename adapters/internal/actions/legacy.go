package actions

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"zaria/core/reply"
)

// The records and tokens of the release before this package, read here
// and nowhere else. Nothing writes them any more; they age out with the
// pruning of their keys.
//
// Telegram callback data and inline result ids:
//
//	b:<16 hex>:a | b:<16 hex>:o   the again / odds button of a stored
//	                              buttonRec (under the Set prefix)
//	p:<id> | p:<id>:<v>|<v>…      a pad button (ActRun), values inline
//	P:<16 hex>                    a pad choice kept at <legacy>pa.<key>
//	a:<command> | o:<command>     again / odds of a command (no total)
//	c:<command>                   a recent roll offered inline
//	r:<16 hex>                    one kept at <legacy>ir.<key>
//
// Records (JSON objects without "v"):
//
//	{"c","al","o","oc","n",…}     Telegram's buttonRec: the View is the
//	                              record itself (its "w","t","al","s"); its
//	                              "o", the roll's odds, the odds Action's
//	{"b","v"}                     Telegram's pad choice
//	{"u","c"}                     Telegram's recent roll
//	{"cmd","odds","odds_cmd","actual","thread"}   Matrix's re-roll record
//	{"actions":[{"button","values"}],"buttons","thread"}   Matrix's pad
//
// A Matrix record's View is its thread.

// legacyRecord holds every field of the earlier records.
type legacyRecord struct {
	// Telegram buttonRec
	C  string          `json:"c"`
	AL string          `json:"al"`
	O  json.RawMessage `json:"o"`
	OC string          `json:"oc"`
	N  *int64          `json:"n"`
	// Telegram pad choice
	B int64    `json:"b"`
	V []string `json:"v"`
	// Telegram recent roll
	U string `json:"u"`
	// Matrix re-roll record
	Cmd     string `json:"cmd"`
	Odds    bool   `json:"odds"`
	OddsCmd string `json:"odds_cmd"`
	Actual  *int64 `json:"actual"`
	Thread  string `json:"thread"`
	// Matrix pad record
	Actions []struct {
		Button int64    `json:"button"`
		Values []string `json:"values"`
	} `json:"actions"`
	Buttons []int64 `json:"buttons"`
}

// legacySet reads a record of the release before as a Set.
func legacySet(raw []byte) (Set, bool) {
	var r legacyRecord
	if json.Unmarshal(raw, &r) != nil {
		return Set{}, false
	}
	var s Set
	switch {
	case r.Cmd != "": // Matrix re-roll
		s.Actions = append(s.Actions, reply.Action{Kind: reply.ActAgain, Command: r.Cmd})
		if r.Odds {
			s.Actions = append(s.Actions, reply.Action{Kind: reply.ActOdds, Command: cmpOr(r.OddsCmd, r.Cmd), Actual: r.Actual})
		}
		s.View = r.Thread
	case len(r.Actions) > 0 || len(r.Buttons) > 0: // Matrix pad
		for _, p := range r.Actions {
			s.Actions = append(s.Actions, reply.Action{Kind: reply.ActRun, Button: p.Button, Values: p.Values})
		}
		if len(r.Actions) == 0 {
			for _, b := range r.Buttons {
				s.Actions = append(s.Actions, reply.Action{Kind: reply.ActRun, Button: b})
			}
		}
		s.View = r.Thread
	case r.U != "" && r.C != "": // Telegram recent roll
		s.Actions = []reply.Action{{Kind: reply.ActAgain, Command: r.C}}
	case r.C != "": // Telegram buttonRec
		if r.AL != "" {
			s.Actions = append(s.Actions, reply.Action{Kind: reply.ActAgain, Command: r.C})
		}
		if len(r.O) > 0 && string(r.O) != "null" {
			// Its "o" held the roll's odds as the Action's Odds holds them.
			var o reply.RollOdds
			if json.Unmarshal(r.O, &o) != nil {
				return Set{}, false
			}
			s.Actions = append(s.Actions, reply.Action{Kind: reply.ActOdds, Command: cmpOr(r.OC, r.C), Actual: r.N, Odds: &o})
		}
		s.View = string(raw)
	case r.B > 0: // Telegram pad choice
		s.Actions = []reply.Action{{Kind: reply.ActRun, Button: r.B, Values: r.V}}
	default:
		return Set{}, false
	}
	for _, a := range s.Actions {
		if !a.Valid() {
			return Set{}, false
		}
	}
	return s, len(s.Actions) > 0
}

// legacyPlace is the place in set of an old "b:<id>:a|o" token's button.
func legacyPlace(set Set, place string) int {
	want := map[string]reply.ActionKind{"a": reply.ActAgain, "o": reply.ActOdds}[place]
	for i, a := range set.Actions {
		if want != "" && a.Kind == want {
			return i
		}
	}
	return -1
}

// legacyToken reads the other tokens of the release before.
func (s *Store) legacyToken(ctx context.Context, token string) (Pressed, bool) {
	one := func(a reply.Action) (Pressed, bool) {
		if !a.Valid() {
			return Pressed{}, false
		}
		return Pressed{Action: a, Set: Set{Actions: []reply.Action{a}}}, true
	}
	kind, rest, ok := strings.Cut(token, ":")
	if !ok || !utf8.ValidString(rest) {
		return Pressed{}, false
	}
	switch kind {
	case "a", "c":
		return one(reply.Action{Kind: reply.ActAgain, Command: rest})
	case "o":
		// It ran the command with " ?" once: now the odds, nothing rolled.
		return one(reply.Action{Kind: reply.ActOdds, Command: rest})
	case "p":
		idPart, vals, hasVals := strings.Cut(rest, ":")
		id, err := strconv.ParseInt(idPart, 10, 64)
		if err != nil || strconv.FormatInt(id, 10) != idPart {
			return Pressed{}, false
		}
		a := reply.Action{Kind: reply.ActRun, Button: id}
		if hasVals {
			a.Values = strings.Split(vals, "|")
		}
		return one(a)
	case "P", "r":
		if s.legacy == "" || !hex16.MatchString(rest) {
			return Pressed{}, false
		}
		key := s.legacy + map[string]string{"P": "pa.", "r": "ir."}[kind] + rest
		set, ok := s.GetAt(ctx, key)
		if !ok || len(set.Actions) != 1 {
			return Pressed{}, false
		}
		return one(set.Actions[0])
	}
	return Pressed{}, false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
