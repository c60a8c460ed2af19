package fork

import (
	"fmt"
	"maps"
	"math/big"
	"strconv"
	"strings"

	"zaria/core/systems/engine"
)

// OddsMove is an outcome whose chance a change moves, at one vector's
// inputs.
type OddsMove struct {
	Inputs   string // the vector's inputs in the chat's language: "habilidad 45, dificultad −30"
	Outcome  string // the outcome's name
	Old, New *big.Rat
}

// maxOddsInputs bounds the inputs whose odds a change compares.
const maxOddsInputs = 256

// OddsMoves compares the odds of old and new at the inputs of the book's
// vectors, then at inputs across each input's range, in order, and gives
// the outcomes that move at the first inputs where any does (at most 3).
func OddsMoves(old, new *engine.System, lang string) []OddsMove {
	seen := map[string]bool{}
	for _, v := range candidates(old) {
		k := fmt.Sprint(v.Check, v.Inputs, v.Rules)
		if seen[k] {
			continue
		}
		if seen[k] = true; len(seen) > maxOddsInputs {
			return nil
		}
		if out := movesAt(old, new, v, v, inputsText(new, v, lang), lang); len(out) > 0 {
			return out
		}
	}
	return nil
}

// movesAt are the outcomes (at most 3) whose chance differs between old
// at va's inputs and new at vb's, shown at inputs text.
func movesAt(old, new *engine.System, va, vb engine.Vector, text, lang string) []OddsMove {
	a, err1 := old.VectorOdds(va)
	b, err2 := new.VectorOdds(vb)
	if err1 != nil || err2 != nil || !a.Exact || !b.Exact {
		return nil
	}
	var out []OddsMove
	for _, o := range new.File.Outcomes {
		pa, pb := rat(a.Outcomes[o.Key]), rat(b.Outcomes[o.Key])
		if pa.Cmp(pb) != 0 && len(out) < 3 {
			out = append(out, OddsMove{Inputs: text, Outcome: o.Names.In(lang), Old: pa, New: pb})
		}
	}
	return out
}

// NamedMoves are the odds a named value's change c moves: what the name
// gave in old against what it gives in new, at the inputs of the first
// book vector (or candidate) that reads the input, shown with the name
// ("atributo + habilidad 4+2, CD media").
func NamedMoves(old, new *engine.System, c Change, lang string) []OddsMove {
	of, nf := old.File, new.File
	ov, _, _ := namedOf(&of, c.Key, c.Named)
	nv, _, _ := namedOf(&nf, c.Key, c.Named)
	if ov == nil || nv == nil {
		return nil
	}
	at := func(v engine.Vector, val string) engine.Vector {
		in := maps.Clone(v.Inputs)
		in[c.Key] = val
		v.Inputs = in
		return v
	}
	for i, v := range candidates(old) {
		if i >= maxOddsInputs {
			break
		}
		if _, ok := v.Inputs[c.Key]; !ok {
			continue
		}
		text := inputsText(new, at(v, nv.Names.In(lang)), lang)
		if out := movesAt(old, new, at(v, strconv.Itoa(ov.Value)), at(v, strconv.Itoa(nv.Value)), text, lang); len(out) > 0 {
			return out
		}
	}
	return nil
}

// candidates are the inputs to compare: the book's vectors of one side,
// then, for each check of one side, every combination of a few values of
// each of its number inputs (all of a short range, else its ends, its
// default and its named values).
func candidates(s *engine.System) []engine.Vector {
	var out []engine.Vector
	for _, v := range s.File.Vectors {
		if v.Passive == nil {
			out = append(out, v)
		}
	}
	ins := map[string]engine.Input{}
	for _, in := range s.File.Inputs {
		ins[in.Key] = in
	}
	for _, c := range s.File.Checks {
		if c.Opposed != nil {
			continue
		}
		combos := []map[string]string{{}}
		for _, k := range c.Inputs {
			vals := values(ins[k])
			if len(vals) == 0 {
				continue
			}
			var next []map[string]string
			for _, m := range combos {
				for _, v := range vals {
					if len(next) >= maxOddsInputs {
						break
					}
					n := map[string]string{k: v}
					for a, b := range m {
						n[a] = b
					}
					next = append(next, n)
				}
			}
			combos = next
		}
		for _, m := range combos {
			out = append(out, engine.Vector{Check: c.Key, Inputs: m})
		}
	}
	return out
}

// values are the values of a number input to compare the odds at.
func values(in engine.Input) []string {
	if in.Type != "number" || in.Min == nil || in.Max == nil {
		return nil
	}
	lo, hi := *in.Min, *in.Max
	var vs []int
	if hi-lo <= 20 {
		for v := lo; v <= hi; v++ {
			vs = append(vs, v)
		}
	} else {
		if in.Default != nil {
			vs = append(vs, *in.Default)
		}
		for _, n := range in.Named {
			vs = append(vs, n.Value)
		}
		vs = append(vs, lo, lo+(hi-lo)/4, lo+(hi-lo)/2, hi-(hi-lo)/4, hi)
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.Itoa(v)
	}
	return out
}

func rat(p *big.Rat) *big.Rat {
	if p == nil {
		return new(big.Rat)
	}
	return p
}

// inputsText is "habilidad 45, dificultad −30".
func inputsText(s *engine.System, v engine.Vector, lang string) string {
	var parts []string
	for _, in := range s.File.Inputs {
		if val, ok := v.Inputs[in.Key]; ok {
			parts = append(parts, in.Names.In(lang)+" "+strings.Replace(val, "-", "−", 1))
		}
	}
	return strings.Join(parts, ", ")
}
