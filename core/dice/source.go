package dice

import (
	crand "crypto/rand"
	"errors"
	"fmt"
	"math/rand/v2"
)

// Source is where die results come from: an integer in [0, n).
type Source interface {
	IntN(n int) int
}

// NewSource returns a fresh ChaCha8 source seeded from crypto/rand. A Source
// is not safe for concurrent use: take one per command.
func NewSource() Source {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		panic(fmt.Sprintf("dice: crypto/rand failed: %v", err)) // the OS has no entropy: nothing sane to do
	}
	return rand.New(rand.NewChaCha8(seed))
}

// Seeded returns a deterministic source for --seed and tests.
func Seeded(seed uint64) Source {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// ErrScriptExhausted and ErrScriptRange match a *ScriptError with errors.Is.
var (
	ErrScriptExhausted = errors.New("not enough scripted dice")
	ErrScriptRange     = errors.New("scripted die out of range")
)

// ScriptError says why scripted dice could not be replayed: too few values
// (Index is then the 1-based number of the die that had no value) or a
// value outside the die (Value on a die of Sides faces).
//
// Running out, Index counts every die drawn, the ones that had no value
// too: the roll needs at least Index values. Values left over are not an
// error (a vector may list a follow-up die the roll did not need).
type ScriptError struct {
	Given     int // how many values were given
	Index     int // the die, counted from 1
	Value     int // the value given for it (out of range)
	Sides     int // its number of faces
	Exhausted bool
}

func (e *ScriptError) Error() string {
	if e.Exhausted {
		return fmt.Sprintf("scripted dice: only %d given, the roll needs at least %d", e.Given, e.Index)
	}
	return fmt.Sprintf("scripted dice: die %d is %d, a d%d gives 1..%d", e.Index, e.Value, e.Sides, e.Sides)
}

// Is makes errors.Is(err, ErrScriptExhausted) and ErrScriptRange work.
func (e *ScriptError) Is(target error) bool {
	return (target == ErrScriptExhausted && e.Exhausted) || (target == ErrScriptRange && !e.Exhausted)
}

// Scripted replays die results given as faces (1..n), in order, as
// the rules' test vectors list them (docs/systems.md); 0 is read as the
// face that shows it, 10 on a d10 and 100 on a d100. A value out of range or running out is
// recorded and reported by Err; the caller must check Err after using it and
// treat a non-nil error as a user error, never as a random roll.
type Scripted struct {
	vals []int
	pos  int
	err  *ScriptError
}

// NewScripted returns a source that yields the given faces in order.
func NewScripted(faces []int) *Scripted { return &Scripted{vals: faces} }

// IntN returns the next scripted face minus one.
func (s *Scripted) IntN(n int) int {
	if s.err != nil {
		if s.err.Exhausted {
			s.err.Index++ // one more die the roll needs
		}
		return 0
	}
	if s.pos >= len(s.vals) {
		s.err = &ScriptError{Given: len(s.vals), Index: s.pos + 1, Exhausted: true}
		return 0
	}
	v := s.vals[s.pos]
	s.pos++
	if v == 0 && (n == 10 || n == 100) {
		v = n // the face that reads 0 on a d10, 00 on a d100 (docs/daegon.md)
	}
	if v < 1 || v > n {
		s.err = &ScriptError{Given: len(s.vals), Index: s.pos, Value: v, Sides: n}
		return 0
	}
	return v - 1
}

// Err reports the first problem met while replaying, as a *ScriptError.
func (s *Scripted) Err() error {
	if s.err == nil {
		return nil
	}
	return s.err
}

// Used is how many values were consumed.
func (s *Scripted) Used() int { return s.pos }
