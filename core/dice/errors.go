package dice

import (
	"errors"
	"fmt"
)

// Limits of the notation (docs/dice.md#limits, README "Limits"). Each one has an error Code, a
// message in the catalogs ("dice.err.<code>") and a test.
const (
	MaxInput     = 500        // characters of the text after the command
	MaxDice      = 100        // dice in one term (the N of NdM)
	MaxSides     = 1000       // faces of one die
	MaxDraws     = 1000       // random draws per command, explosions and rerolls included
	MaxRepeat    = 20         // the N of N#expr
	MaxDepth     = 20         // nesting of parentheses, functions and signs
	MaxNodes     = 100        // numbers, dice terms and names in one expression
	MaxGroups    = 20         // dice terms in one expression
	MaxItems     = 10         // expressions in one grouped roll {a, b, …}
	MaxNumber    = 1000000    // an integer literal
	MaxMagnitude = 1 << 50    // any intermediate value (about 10^15)
	MaxLabel     = 100        // characters of a label
	maxNameLen   = 40         // characters of a named value
	minInt       = -(1 << 50) // == -MaxMagnitude
)

// Error codes. The handler maps Code to the catalog key "dice.err."+Code.
const (
	CodeEmpty          = "empty"           // nothing to roll
	CodeSyntax         = "syntax"          // Near: the text that could not be read
	CodeSortFirst      = "sort_first"      // Near: a term with its sort before other modifiers (4d6sdkh3), Want: it sorted last
	CodeUnexpectedEnd  = "unexpected_end"  // the expression stops too early
	CodeUnclosed       = "unclosed"        // a '(' or '[' without its closing pair
	CodeTooLong        = "too_long"        // Max, Got
	CodeTooManyDice    = "too_many_dice"   // Max, Got
	CodeNoDice         = "no_dice"         // 0dN
	CodeTooManySides   = "too_many_sides"  // Max, Got
	CodeNoSides        = "no_sides"        // d0
	CodeTooManyDraws   = "too_many_draws"  // Max
	CodeRepeat         = "repeat"          // Max, Got
	CodeTooDeep        = "too_deep"        // Max
	CodeTooManyTerms   = "too_many_terms"  // Max
	CodeTooManyGroups  = "too_many_groups" // Max
	CodeNumberTooBig   = "number_too_big"  // Max
	CodeOverflow       = "overflow"        // Max
	CodeDivZero        = "div_zero"
	CodeExplodeAlways  = "explode_always" // Near: the term
	CodeRerollAlways   = "reroll_always"  // Near: the term
	CodeKeepCount      = "keep_count"     // Near: the term, Max: the dice
	CodeDuplicate      = "duplicate"      // Near: the modifier given twice
	CodeFailureAlone   = "failure_alone"  // f without a success condition
	CodeTargetDice     = "target_dice"    // dice in the target of vs/dc
	CodeCompareOutside = "compare_outside"
	CodeLabelTooLong   = "label_too_long"   // Max
	CodeNameTooLong    = "name_too_long"    // Max
	CodeGroupTooBig    = "group_too_big"    // Max, Got: expressions in one {…}
	CodeGroupNested    = "group_nested"     // Near: the inner '{'
	CodeGroupPerDie    = "group_per_die"    // Near: the group, one expression that is not dice added together
	CodeGroupKeep      = "group_keep_count" // Near: the group, Max: its expressions
	CodeKeepTwice      = "keep_twice"       // Near: the term up to its second kh/kl/dh/dl
	CodeOrder          = "order"            // Near: the term up to a modifier out of place
	CodeRerollMixed    = "reroll_mixed"     // Near: the term with both r and ro
	CodeRolledBound    = "rolled_bound"     // Near: a rolled number of dice or sides with no known bound
	CodePowNegative    = "pow_negative"     // a ** with a negative exponent
	CodeTooManyArgs    = "too_many_args"    // Near: "max(", Max, Got
)

// Error is a problem with the notation a user typed. It carries everything a
// localized message needs; Error() is for logs only.
type Error struct {
	Code string
	Near string // the offending text, as typed
	Pos  int    // byte offset in the input, -1 if unknown
	Max  int    // the limit, where one applies
	Got  int    // what was asked, where it helps
	Want string // what to type instead, where the error can tell
}

func (e *Error) Error() string {
	return fmt.Sprintf("dice: %s near %q at %d (max %d, got %d)", e.Code, e.Near, e.Pos, e.Max, e.Got)
}

// AsError reports whether err is (or wraps) a notation error.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func errAt(code string, pos int, near string) *Error {
	return &Error{Code: code, Pos: pos, Near: near}
}

func errLimit(code string, max, got int) *Error {
	return &Error{Code: code, Pos: -1, Max: max, Got: got}
}
