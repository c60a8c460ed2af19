package fork

import (
	"fmt"
	"math/big"
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
const maxOddsInputs = 24

// OddsMoves compares the odds of old and new at the inputs of the book's
// vectors, in order, and gives the outcomes that move at the first inputs
// where any does (at most 3).
func OddsMoves(old, new *engine.System, lang string) []OddsMove {
	seen := map[string]bool{}
	for _, v := range old.File.Vectors {
		if v.Passive != nil {
			continue
		}
		k := fmt.Sprint(v.Check, v.Inputs, v.Rules)
		if seen[k] {
			continue
		}
		if seen[k] = true; len(seen) > maxOddsInputs {
			return nil
		}
		a, err1 := old.VectorOdds(v)
		b, err2 := new.VectorOdds(v)
		if err1 != nil || err2 != nil || !a.Exact || !b.Exact {
			continue
		}
		var out []OddsMove
		for _, o := range new.File.Outcomes {
			pa, pb := rat(a.Outcomes[o.Key]), rat(b.Outcomes[o.Key])
			if pa.Cmp(pb) != 0 && len(out) < 3 {
				out = append(out, OddsMove{Inputs: inputsText(new, v, lang), Outcome: o.Names.In(lang), Old: pa, New: pb})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
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
