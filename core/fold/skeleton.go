package fold

import (
	"strings"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// Skeleton is the key under which names that look alike are the same
// name: the Key of the text's compatibility form (NFKC, so that
// full-width "Ｄrake" is "Drake"), mapped through the Unicode confusables
// table of UTS #39 (so that Cyrillic "Drаke" and Greek "Dρake" are too).
// It is for comparing, never for showing: the skeleton of "drake" is
// "drake", but Greek and Cyrillic letters map to their Latin look-alikes
// and some digits and pairs to letters ("0" to "o", "1" to "l", "m" to
// "rn"). It is idempotent: Skeleton(Skeleton(s)) == Skeleton(s).
func Skeleton(s string) string {
	k := Key(norm.NFKC.String(s))
	// The table maps some characters to capitals ("0" to "O") or to a
	// letter with a combining mark ("Ð" to "∂" and a stroke): folding again
	// makes "Dr0ke" and "Droke" one name and the result idempotent.
	return Key(confusables.Skeleton(k))
}

// CapitalSkeleton is Skeleton of the text in capitals: capitals look alike
// that their small letters do not, so Cyrillic "Вob" (В is Ve) and Greek
// "Νick" (Ν is Nu) have another Skeleton than "Bob" and "Nick" (в and ν
// look like no b and no n) but the same CapitalSkeleton. Two names look
// alike when either skeleton is the same; Skeleton stays the key a name
// is found by, as it does not change with the case a user types.
func CapitalSkeleton(s string) string {
	k := Key(confusables.Skeleton(strings.ToUpper(norm.NFKC.String(s))))
	return Key(confusables.Skeleton(k)) // folded again, as Skeleton is
}

// LookAlike reports whether names a and b look alike: the same Skeleton
// or the same CapitalSkeleton.
func LookAlike(a, b string) bool {
	return Skeleton(a) == Skeleton(b) || CapitalSkeleton(a) == CapitalSkeleton(b)
}
