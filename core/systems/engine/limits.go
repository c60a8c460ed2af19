package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Limits of a system file (docs/systems-format.md#limits). Each one has a
// message "engine.limit.<name>" in the es, el and en catalogs.
const (
	MaxFileBytes  = 64 << 10 // a file's size
	MaxInputs     = 20       // inputs declared
	MaxNamed      = 48       // named values of one input
	MaxTableCells = 1024     // cells of one table
	MaxTables     = 8
	MaxPoolDice   = 32   // dice of one pool, granted ones included
	MaxCheckDice  = 64   // dice one check may roll, explosions included
	MaxFaces      = 1000 // faces of a die
	MaxExplode    = 10   // explosions of one die
	MaxGrantLevel = 1    // dice granted by granted dice: none
	MaxBands      = 16   // bands and overrides of one result
	MaxSteps      = 32   // steps of a check
	MaxChecks     = 8    // checks of a file
	MaxReadings   = 8    // readings of one pool
	MaxExprLen    = 400  // characters of one expression
	MaxExprDepth  = 24   // nesting of one expression
	MaxCountWhile = 64   // columns count_while may pass
	MaxVectors    = 600
	MaxOutcomes   = 24
	MaxRules      = 8  // house rules
	MaxNumbers    = 16 // numbers a fork may change
	MaxRequires   = 8  // requirements of one check
	MaxGives      = 8  // inputs one named value gives (Input.Gives)
	// MaxNamedWords bounds the words of a named value's name or keyword:
	// the chat reads a name of up to this many words ("muy difícil").
	MaxNamedWords = 4
	// MaxRequireText bounds a requirement's own message, in characters.
	MaxRequireText = 160

	// MaxPoolSequences bounds the sequences enumerated for one pool's exact
	// distribution; OddsBudget the combinations of pools' distributions
	// walked for one check's exact odds. Past either the odds are sampled
	// (OddsSamples rolls) and marked ≈.
	MaxPoolSequences = 1 << 20
	OddsBudget       = 1 << 20
	OddsSamples      = 20000
	// WideFoldBudget bounds the steps of the fold of a pool of more than
	// 10^15 rolls read only by counts (wide.go's foldWork, about 0.7 µs
	// each in big integers): past it the pool is sampled.
	WideFoldBudget = 250_000
)

// Error is a file refused or a check that cannot run: a catalog key
// ("engine.limit.inputs", "engine.error.vector" …), its arguments and,
// for a file, the line it names (0 when none).
//
// A file refused by fileErr also keeps its English format and arguments:
// the format is the message's id (gettext style), FileKey(Format) its key
// in the catalogs, and VarsIn renders it in a chat's language.
type Error struct {
	Key  string
	Args map[string]any
	Line int

	Format string // fileErr's format, English: the message id
	Params []any  // its arguments
	Prefix string // the names at() put before it ("action: ")
}

func (e *Error) Error() string {
	keys := make([]string, 0, len(e.Args))
	for k := range e.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(e.Key)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, e.Args[k])
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " line=%d", e.Line)
	}
	return b.String()
}

// Vars are the catalog message's arguments, "line" included.
func (e *Error) Vars() map[string]any {
	m := map[string]any{"line": e.Line}
	for k, v := range e.Args {
		m[k] = v
	}
	return m
}

// VarsIn is Vars with a file refusal's "what" in a chat's language: tr
// gives the catalog's text of a key, or the key itself when the catalog
// has none (the English format is then used).
func (e *Error) VarsIn(tr func(key string) string) map[string]any {
	m := e.Vars()
	if e.Format != "" {
		m["what"] = e.whatIn(tr)
	}
	return m
}

func (e *Error) whatIn(tr func(key string) string) string {
	f := e.Format
	if t := tr(FileKey(f)); t != "" && t != FileKey(f) {
		f = t
	}
	params := make([]any, len(e.Params))
	for i, p := range e.Params {
		params[i] = p
		switch p := p.(type) {
		case *Error:
			if p.Format != "" {
				params[i] = p.whatIn(tr) // a refusal wrapped ("%v")
			}
		case string:
			if t := tr(FileKey(p)); t != "" && t != FileKey(p) {
				params[i] = t // a message passed on whole ("input %s: %s")
			}
		case fileLabel:
			params[i] = p.in(tr)
		}
	}
	if t := fmt.Sprintf(f, params...); !strings.Contains(t, "%!") {
		return e.Prefix + t
	}
	return e.Prefix + fmt.Sprintf(e.Format, params...) // a translation's verb the argument does not take
}

// fileLabel names a piece of the file in a refusal's argument ("house
// rule %s" in "%s: names in es, el and en"): its format is a message id
// as a refusal's is, so a chat reads the whole refusal in its language.
type fileLabel struct {
	format string
	args   []any
}

// label is the label of format with its arguments (keys of the file).
func label(format string, a ...any) fileLabel { return fileLabel{format: format, args: a} }

// asTyped is a label that is the format's own key, the same in every
// language ("example", "faces").
func asTyped(key string) fileLabel { return fileLabel{format: "%s", args: []any{key}} }

// String is the label in English, as a refusal's "what" is.
func (l fileLabel) String() string { return fmt.Sprintf(l.format, l.args...) }

// in is the label in a chat's language (tr as whatIn's).
func (l fileLabel) in(tr func(key string) string) string {
	f := l.format
	if t := tr(FileKey(f)); t != "" && t != FileKey(f) {
		f = t
	}
	if t := fmt.Sprintf(f, l.args...); !strings.Contains(t, "%!") {
		return t
	}
	return l.String()
}

// FileKey is the catalog key of a file refusal's format:
// "engine.file: " and the English format as written.
func FileKey(format string) string { return "engine.file: " + format }

func limitErr(name string, limit, got int) *Error {
	return &Error{Key: "engine.limit." + name, Args: map[string]any{"max": limit, "got": got}}
}

func fileErr(line int, format string, a ...any) *Error {
	return &Error{Key: "engine.error.file", Args: map[string]any{"what": fmt.Sprintf(format, a...)}, Line: line, Format: format, Params: a}
}

// exprErr is a formula's refusal at a character of it (from 1): its own
// format, the message id as fileErr's, inside "at %d: %s".
func exprErr(pos int, format string, a ...any) *Error {
	inner := fileErr(0, format, a...)
	e := fileErr(0, "at %d: %s", pos, inner)
	e.Args["what"] = fmt.Sprintf("at %d: %s", pos, inner.Args["what"])
	return e
}
