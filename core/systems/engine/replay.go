package engine

import (
	"fmt"
	"math/big"

	"zaria/core/dice"
)

// Replay gives what vector v gets from s: v's Expect with each field v
// sets replaced by what the check gives. A fork of a system rewrites the
// book's vectors with it, so the fork is a file whose vectors hold
// (docs/systems-format.md#forks).
func (s *System) Replay(v Vector) (Expect, error) {
	c, err := s.check(v.Check)
	if err != nil {
		return Expect{}, err
	}
	pr := Params{Rules: v.Rules}
	if pr.Inputs, err = s.vectorInputs(v.Inputs); err != nil {
		return Expect{}, err
	}
	if pr.Passive, err = s.vectorInputs(v.Passive); err != nil {
		return Expect{}, err
	}
	x := v.Expect
	out := Expect{Winner: x.Winner}
	if x.Chance != "" {
		od, err := s.Odds(c.def.Key, pr)
		if err != nil {
			return Expect{}, err
		}
		if !od.Exact {
			return Expect{}, fmt.Errorf("vector %s: the chance is not exact", v.Name)
		}
		out.Chance = od.Success.RatString()
	}
	if x.Odds != nil {
		od, err := s.Odds(c.def.Key, pr)
		if err != nil {
			return Expect{}, err
		}
		if !od.Exact {
			return Expect{}, fmt.Errorf("vector %s: the odds are not exact", v.Name)
		}
		out.Odds = map[string]string{}
		for k := range x.Odds {
			p, err := s.outcomeChance(c, od, k)
			if err != nil {
				return Expect{}, fmt.Errorf("vector %s: %w", v.Name, err)
			}
			out.Odds[k] = p.RatString()
		}
	}
	if len(v.Dice) == 0 {
		return out, nil
	}
	src := dice.NewScripted(v.Dice)
	r, err := s.Roll(c.def.Key, pr, src)
	if err != nil {
		return Expect{}, err
	}
	if err := src.Err(); err != nil {
		return Expect{}, fmt.Errorf("vector %s: %w", v.Name, err)
	}
	if src.Used() != len(v.Dice) {
		return Expect{}, fmt.Errorf("vector %s: %d dice given, the check rolled %d", v.Name, len(v.Dice), src.Used())
	}
	if x.Outcome != nil {
		o := r.Outcome
		out.Outcome = &o
	}
	if x.Total != nil && r.Total != nil {
		t := r.Total.RatString()
		out.Total = &t
	}
	if x.Level != nil && r.Level != nil {
		l := *r.Level
		out.Level = &l
	}
	if x.Winner != "" {
		out.Winner = r.Winner
	}
	if x.Also != nil {
		out.Also = map[string]string{}
		for k := range x.Also {
			out.Also[k] = r.Also[k] // "": none
		}
	}
	if x.Values != nil {
		out.Values = map[string]string{}
		for k := range x.Values {
			if got := r.Values[k]; got != nil {
				out.Values[k] = new(big.Rat).Set(got).RatString()
			}
		}
	}
	return out, nil
}

// VectorOdds are the exact odds of vector v's check with its inputs and
// house rules (its dice aside): what a fork's change moves.
func (s *System) VectorOdds(v Vector) (*Odds, error) {
	c, err := s.check(v.Check)
	if err != nil {
		return nil, err
	}
	pr := Params{Rules: v.Rules}
	if pr.Inputs, err = s.vectorInputs(v.Inputs); err != nil {
		return nil, err
	}
	if pr.Passive, err = s.vectorInputs(v.Passive); err != nil {
		return nil, err
	}
	return s.Odds(c.def.Key, pr)
}
