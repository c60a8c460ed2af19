package fold

import (
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
