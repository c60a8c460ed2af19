package systems

import (
	"context"
	"errors"
	"regexp"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/systems/engine"
)

// RQ's characteristics by name (issue 33): the RQ file's sheet declares
// them (kind characteristic, named in es, el and en: FUE, ΔΥΝ, STR …), so
// "/rq con", "/rq c ΣΥΝ" and "/rq con x5" read one from the sheet and
// multiply it (×3 by default, the seed's "x3 normal"), whichever of its
// three names the sheet keeps it under.

var rqMultWord = regexp.MustCompile(`^[xχ×*]\d+$`)

// rqCharacteristic is the RQ file's characteristic word names, in any
// of its three languages, any case, accents or none.
func rqCharacteristic(word string) (engine.SheetKey, bool) {
	k := fold.Key(word)
	for _, sk := range SheetKeys("rq") {
		if sk.Kind != "characteristic" {
			continue
		}
		for _, n := range []string{sk.Names.ES, sk.Names.EL, sk.Names.EN} {
			if fold.Key(n) == k {
				return sk, true
			}
		}
	}
	return engine.SheetKey{}, false
}

// joinRQChar reads a side written in words as the one word parseRQSide
// takes: "c ΣΥΝ" and "ΣΥΝ" are "c:ΣΥΝ", a multiplier after it ("x5") joins
// it ("c:ΣΥΝx5", "c14x5"). It returns that word and the words after it.
func joinRQChar(toks []string) (string, []string) {
	if len(toks) == 0 {
		return "", nil
	}
	side, rest := toks[0], toks[1:]
	switch k := fold.Key(side); {
	case (k == "c" || k == "χ") && len(rest) > 0:
		side, rest = "c:"+rest[0], rest[1:]
	case !rqCharNum.MatchString(k) && !rqCharName.MatchString(k):
		if _, ok := rqCharacteristic(side); !ok {
			return side, rest
		}
		side = "c:" + side
	}
	if len(rest) > 0 && rqMultWord.MatchString(fold.Key(rest[0])) {
		m := []rune(fold.Key(rest[0])) // "x5", "χ5", "×5": the digits after one sign
		side, rest = side+"x"+string(m[1:]), rest[1:]
	}
	return side, rest
}

// rqCharValue reads the characteristic name from who's sheet: under the
// name typed, else, for one of the file's, under any of its names (a sheet
// made in a Greek chat keeps "ΣΥΝ"; "/rq con" finds it).
func rqCharValue(ctx context.Context, req *command.Request, who, name string) (int, error) {
	v, err := req.SheetInt(ctx, who, name)
	sk, known := rqCharacteristic(name)
	if err == nil || !known || !isUnknownValue(err) {
		return v, err
	}
	for _, n := range []string{sk.Names.In(req.Lang), sk.Names.ES, sk.Names.EL, sk.Names.EN} {
		if v, e := req.SheetInt(ctx, who, n); e == nil || !isUnknownValue(e) {
			return v, e
		}
	}
	return 0, err
}

// isUnknownValue is the sheet's "no such value" (with or without a
// suggestion).
func isUnknownValue(err error) bool {
	var ue *command.UserError
	return errors.As(err, &ue) && (ue.Key == "character.value_unknown" || ue.Key == "character.value_unknown_suggest")
}
