package engine

import (
	"errors"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"zaria/core/dice"
)

// VectorCount is how many worked examples the file holds.
func (s *System) VectorCount() int { return len(s.File.Vectors) }

// runVectors replays every vector; the first that does not hold refuses
// the file, named with what it got and what it expected.
func (s *System) runVectors() error {
	for i := range s.File.Vectors {
		v := &s.File.Vectors[i]
		if err := s.runVector(v); err != nil {
			name := v.Name
			if name == "" {
				name = "#" + strconv.Itoa(i+1)
			}
			var le *Error
			if errors.As(err, &le) && strings.HasPrefix(le.Key, "engine.limit.") {
				le.Args["vector"] = name // a limit the example's dice pass
				return le
			}
			ve := &Error{Key: "engine.error.vector", Args: map[string]any{"vector": name, "what": err.Error()}}
			if fe, ok := err.(*Error); ok && fe.Format != "" {
				// What it got and expected, in the chat's language too.
				ve.Args["what"], ve.Format, ve.Params = fe.Args["what"], "%v", []any{fe}
			}
			return ve
		}
	}
	return nil
}

func (s *System) vectorInputs(m map[string]string) (map[string]int, error) {
	out := map[string]int{}
	for k, val := range m {
		in := s.inputs[k]
		if in == nil {
			return nil, fileErr(0, "no input %q", k)
		}
		sum := 0
		terms := strings.Split(val, "+")
		if in.Type != "terms" && len(terms) > 1 {
			return nil, fileErr(0, "input %s: %q is not a number", k, val)
		}
		if in.Type == "terms" && len(terms) > 1 && len(terms) != len(in.Parts) {
			return nil, fileErr(0, "input %s: %d terms, its parts are %d", k, len(terms), len(in.Parts))
		}
		for j, t := range terms {
			n, err := strconv.Atoi(strings.TrimSpace(t))
			if err != nil && len(terms) == 1 {
				n, err = namedValue(in, t)
			}
			if err != nil {
				return nil, fileErr(0, "input %s: %q is not a number", k, val)
			}
			if len(terms) > 1 && (n < in.Parts[j].Min || n > in.Parts[j].Max) {
				return nil, fileErr(0, "input %s: %s %d outside %d..%d", k, in.Parts[j].Key, n, in.Parts[j].Min, in.Parts[j].Max)
			}
			sum += n
		}
		if in.Type == "flag" && sum != 0 && sum != 1 {
			return nil, fileErr(0, "input %s: a flag is 0 or 1", k)
		}
		if in.Min != nil && (sum < *in.Min || sum > *in.Max) {
			return nil, fileErr(0, "input %s: %d outside %d..%d", k, sum, *in.Min, *in.Max)
		}
		out[k] = sum
	}
	return out, nil
}

func (s *System) runVector(v *Vector) error {
	c, err := s.check(v.Check)
	if err != nil {
		return err
	}
	for k, ch := range v.Rules {
		if h := s.rules[k]; h == nil || h.index(ch) < 0 {
			return fileErr(0, "no house rule %s with a choice %q", k, ch)
		}
	}
	pr := Params{Rules: v.Rules}
	if pr.Inputs, err = s.vectorInputs(v.Inputs); err != nil {
		return err
	}
	if pr.Passive, err = s.vectorInputs(v.Passive); err != nil {
		return err
	}
	if c.opposed != (v.Passive != nil) {
		return fileErr(0, "an opposed check's vector has a passive side, and only it")
	}
	x := v.Expect
	if x.Chance != "" || len(x.Odds) > 0 {
		od, err := s.Odds(c.def.Key, pr)
		if err != nil {
			return err
		}
		if !od.Exact {
			return fileErr(0, "chance or odds of a check whose odds are sampled (≈): a sample is never an exact fraction; give this vector dice instead")
		}
		if x.Chance != "" {
			want, ok := new(big.Rat).SetString(x.Chance)
			if !ok {
				return fileErr(0, "chance %q is not a fraction", x.Chance)
			}
			if od.Success.Cmp(want) != 0 {
				return fileErr(0, "chance %s, expected %s", od.Success.RatString(), want.RatString())
			}
		}
		for _, k := range slices.Sorted(maps.Keys(x.Odds)) {
			want, ok := new(big.Rat).SetString(x.Odds[k])
			if !ok {
				return fileErr(0, "odds of %s: %q is not a fraction", k, x.Odds[k])
			}
			got, err := s.outcomeChance(c, od, k)
			if err != nil {
				return err
			}
			if got.Cmp(want) != 0 {
				return fileErr(0, "odds of %s %s, expected %s", k, got.RatString(), want.RatString())
			}
		}
		if len(v.Dice) == 0 {
			return nil
		}
	}
	if v.Dice == nil { // "dice: []": a check that rolls none
		return fileErr(0, "dice or chance")
	}
	src := dice.NewScripted(v.Dice)
	r, err := s.Roll(c.def.Key, pr, src)
	if err != nil {
		return err
	}
	if err := src.Err(); err != nil {
		return err
	}
	if src.Used() != len(v.Dice) {
		return fileErr(0, "%d dice given, the check rolled %d", len(v.Dice), src.Used())
	}
	if x.Outcome != nil && r.Outcome != *x.Outcome {
		return fileErr(0, "outcome %q, expected %q", r.Outcome, *x.Outcome)
	}
	if x.Total != nil {
		want, ok := new(big.Rat).SetString(*x.Total)
		if !ok {
			return fileErr(0, "total %q is not a number", *x.Total)
		}
		if r.Total == nil || r.Total.Cmp(want) != 0 {
			return fileErr(0, "total %s, expected %s", ratStr(r.Total), *x.Total)
		}
	}
	if x.Level != nil && (r.Level == nil || *r.Level != *x.Level) {
		got := "none"
		if r.Level != nil {
			got = strconv.Itoa(*r.Level)
		}
		return fileErr(0, "level %s, expected %d", got, *x.Level)
	}
	if x.Winner != "" && r.Winner != x.Winner {
		return fileErr(0, "winner %q, expected %q", r.Winner, x.Winner)
	}
	// A further result none of whose overrides or bands applies gives no
	// outcome: "" expects that; a key the check has no further result of
	// is an error.
	for k, want := range x.Also {
		if !slices.ContainsFunc(c.def.Also, func(a Also) bool { return a.Key == k }) {
			return fileErr(0, "no further result %q", k)
		}
		if got := r.Also[k]; got != want {
			return fileErr(0, "%s %q, expected %q", k, got, want)
		}
	}
	for k, want := range x.Values {
		w, ok := new(big.Rat).SetString(want)
		if _, known := c.slots[k]; !known || !ok {
			return fileErr(0, "no value %q, or %q is not a number", k, want)
		}
		if got := r.Values[k]; got == nil || got.Cmp(w) != 0 {
			return fileErr(0, "%s %s, expected %s", k, ratStr(got), want)
		}
	}
	return nil
}

// outcomeChance is the chance in od of an outcome of check c named as
// a vector's odds name it: "critical" of the check's own outcomes,
// "glitch.critical_glitch" of its further result glitch; an empty
// outcome is the rolls with none.
func (s *System) outcomeChance(c *check, od *Odds, key string) (*big.Rat, error) {
	outs, o := od.Outcomes, key
	if also, out, ok := strings.Cut(key, "."); ok {
		if !slices.ContainsFunc(c.def.Also, func(a Also) bool { return a.Key == also }) {
			return nil, fileErr(0, "odds of %s: no further result %q", key, also)
		}
		outs, o = od.Also[also], out
	}
	if o != "" && !slices.ContainsFunc(s.File.Outcomes, func(x Outcome) bool { return x.Key == o }) {
		return nil, fileErr(0, "odds of %s: no outcome %q", key, o)
	}
	if p := outs[o]; p != nil {
		return p, nil
	}
	return new(big.Rat), nil
}

func ratStr(r *big.Rat) string {
	if r == nil {
		return "none"
	}
	return r.RatString()
}

// namedValue is the value of in's named value that t names as the file
// writes it: its key, or its name in es, el or en ("shade: grey").
func namedValue(in *Input, t string) (int, error) {
	t = strings.TrimSpace(t)
	for _, nv := range in.Named {
		if strings.EqualFold(t, nv.Key) || slices.ContainsFunc([]string{nv.Names.ES, nv.Names.EL, nv.Names.EN}, func(n string) bool { return n != "" && strings.EqualFold(t, n) }) {
			return nv.Value, nil
		}
	}
	return 0, errors.New("no named value")
}
