// Package engine runs game systems written as data: one YAML file per
// system (docs/systems-format.md), checked when it is loaded (format,
// limits, every worked example), and one engine for all of them: the
// chat's words read from the file's inputs, a check rolled with an
// injected dice.Source (so that zaria roll --dice replays the rules'
// vectors in their die order), and its exact odds.
//
// The shipped files are in files/ (embedded): Builtin, Shipped,
// ShippedSource. Load reads any other file.
//
// One file per primitive, so that a new one touches little else:
//
//	format.go   the YAML types (strict: unknown fields refused)
//	limits.go   every limit, and Error (a catalog key "engine.…")
//	load.go     loading, validation and compilation of checks and results
//	expr.go     expressions: arithmetic, comparisons, functions, count_while
//	rat.go      exact values (int64 fractions, impossible) and roundings
//	pool.go     rolls: dice pools, explosions, readings, their distributions
//	            (core/dice's odds core: one reading, exploding dice)
//	faces.go    dice whose faces come from the inputs (faces_of), counts
//	            whose threshold does (count_ge(diff))
//	table.go    1-D and 2-D tables with impossible cells
//	check.go    rolling a check, opposed checks, exact odds, the odds cache
//	wide.go     exact odds past int64 (big-integer weights; pools past 10^15 rolls)
//	vectors.go  worked examples
//	parse.go    the chat's words, in any order
//	form.go     a check's fields for a page
//	success.go  a result's success: expression (Call of Cthulhu's level asked)
//	require.go  a check's requirements over its inputs together (Kingdom
//	            Hearts' bonus dice), checked before anything is rolled
//	vsprefix.go "vs 2" as a number input's prefix (Fate, Savage Worlds)
//	poolclass.go a pool read only by counts: core/dice's FoldPool over kinds of face (V5)
//	sheet.go    a system's sheet: the keys a new sheet starts with, and
//	            the development marks an outcome leaves (MarksFor)
//
// A new primitive is usually a reading (pool.go: readingKinds and
// reading.read), a function (expr.go: parser.call) or a field of a step
// (format.go and load.go), with a vector in a test file that uses it.
package engine
