package command

import (
	"strings"
	"sync"

	"zaria/core/fold"
)

// Budget is the work one message may cost, whatever path it takes: saved
// rolls expanding into other saved rolls, /gmroll wrapping a command, the
// repeats and dice of a roll, its exact odds, the reply's text. Every
// expensive step asks for its share before doing the work (or, where the
// work is small and bounded by other limits, draws what it used), and a
// step that does not fit answers error.budget in the chat's language.
//
// The unit is about one elementary step, ~0.1 µs on one core: one die
// drawn, one character of text built, one multiply-add of the exact odds.
// The default of Limits.MaxWork (1,000,000) is ~0.1 s of work, far above
// any single command the other limits admit, so it only ever stops paths
// that multiply work. One message is handled on one goroutine; the mutex
// only makes misuse harmless.
type Budget struct {
	mu   sync.Mutex
	max  int
	used int
	// expansions counts the saved rolls expanded for this message.
	expansions int
}

// NewBudget makes a budget of units of work.
func NewBudget(units int) *Budget { return &Budget{max: units} }

// Left is the work still available.
func (b *Budget) Left() int {
	if b == nil {
		return 1 << 62
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.max - b.used
}

// Used is the work spent so far.
func (b *Budget) Used() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Spend takes units of work. When they do not fit it takes nothing and
// returns the localized error.budget (a *UserError). A nil budget never
// runs out (tests and tools that call handlers directly).
func (b *Budget) Spend(units int) error {
	if b == nil || units <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if units > b.max-b.used {
		return Errorf("error.budget", "max", b.max)
	}
	b.used += units
	return nil
}

// loop fails with error.alias_loop when the saved roll name was already
// expanded on the way here (chain, outermost first). It is checked before
// the saved roll is looked up: a name in chain is known to be one.
func loop(chain []string, name string) error {
	key := fold.Key(name)
	for _, prev := range chain {
		if fold.Key(prev) == key {
			path := make([]string, 0, len(chain)+1)
			for _, p := range append(chain[:len(chain):len(chain)], name) {
				path = append(path, "/"+p)
			}
			return Errorf("error.alias_loop", "name", "/"+name, "chain", strings.Join(path, " → "))
		}
	}
	return nil
}

// expand records the expansion of one more saved roll for the message; it
// fails with error.alias_depth when the message already expanded max.
func (b *Budget) expand(max int) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.expansions >= max {
		return Errorf("error.alias_depth", "max", max)
	}
	b.expansions++
	return nil
}
