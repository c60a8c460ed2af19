package initiative

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/fold"
)

// MaxCondition is the longest condition name, in characters.
const MaxCondition = 24

// Change is a condition typed after "estado": +envenenado, +aturdido 2,
// -envenenado.
type Change struct {
	Add    bool
	Name   string
	Rounds int
}

// ParseCondition reads ["+aturdido", "2"] or ["-envenenado"].
func ParseCondition(args []string) (Change, error) {
	if len(args) == 0 || len(args) > 2 {
		return Change{}, command.Errorf("init.condition_usage")
	}
	w := args[0]
	var ch Change
	switch {
	case strings.HasPrefix(w, "+"):
		ch.Add = true
	case strings.HasPrefix(w, "-"), strings.HasPrefix(w, "−"):
	default:
		return Change{}, command.Errorf("init.condition_usage")
	}
	_, size := utf8.DecodeRuneInString(w)
	ch.Name = strings.TrimSpace(w[size:])
	n := utf8.RuneCountInString(ch.Name)
	if n == 0 || fold.Key(ch.Name) == "" || fold.Clean(ch.Name) != ch.Name || strings.ContainsAny(ch.Name, ",()") {
		return Change{}, command.Errorf("init.err.condition_name", "name", fold.Cut(ch.Name, 30))
	}
	if n > MaxCondition {
		return Change{}, command.Errorf("init.err.condition_long", "max", MaxCondition, "got", n)
	}
	if len(args) == 2 {
		if !ch.Add {
			return Change{}, command.Errorf("init.condition_usage")
		}
		r, err := strconv.Atoi(args[1])
		if err != nil || r < 1 || r > MaxRounds {
			return Change{}, command.Errorf("init.err.rounds", "got", fold.Cut(args[1], 12), "max", MaxRounds)
		}
		ch.Rounds = r
	}
	return ch, nil
}

// Apply adds (or renews) or removes the condition in cs.
func (ch Change) Apply(cs []Condition) ([]Condition, error) {
	k := fold.Key(ch.Name)
	for i, c := range cs {
		if fold.Key(c.Name) == k {
			if ch.Add {
				cs[i].Rounds = ch.Rounds
				return cs, nil
			}
			return append(cs[:i:i], cs[i+1:]...), nil
		}
	}
	if !ch.Add {
		return nil, command.Errorf("init.err.condition_absent", "name", fold.Cut(ch.Name, 30))
	}
	if len(cs) >= MaxConditions {
		return nil, command.Errorf("init.err.conditions_full", "max", MaxConditions)
	}
	return append(cs, Condition{Name: ch.Name, Rounds: ch.Rounds}), nil
}

// Said is the reply to a change on who.
func (ch Change) Said(req *command.Request, who string) string {
	switch {
	case !ch.Add:
		return req.T("init.condition_removed", "name", fold.Clean(who), "condition", ch.Name)
	case ch.Rounds > 0:
		return req.T("init.condition_added_rounds", "name", fold.Clean(who), "condition", ch.Name, "count", ch.Rounds)
	default:
		return req.T("init.condition_added", "name", fold.Clean(who), "condition", ch.Name)
	}
}

// FormatConditions writes conditions as a sheet keeps them:
// "envenenado, aturdido (2)".
func FormatConditions(cs []Condition) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name
		if c.Rounds > 0 {
			parts[i] += " (" + strconv.Itoa(c.Rounds) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// ParseConditions reads what FormatConditions wrote; anything else is
// one condition per comma-separated part, without a length.
func ParseConditions(s string) []Condition {
	var out []Condition
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		c := Condition{Name: p}
		if i := strings.LastIndex(p, " ("); i > 0 && strings.HasSuffix(p, ")") {
			if r, err := strconv.Atoi(p[i+2 : len(p)-1]); err == nil && r > 0 {
				c = Condition{Name: p[:i], Rounds: r}
			}
		}
		out = append(out, c)
	}
	return out
}
