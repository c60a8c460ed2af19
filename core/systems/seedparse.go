package systems

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/systems/engine"
)

// seedCheck is a check of a seed system (Ζαριά, Daegon, RQ, Kingdom
// Hearts) read from its file's inputs: the words parsed (engine.Parse),
// the sheet values read, and the words each sheet value was read from.
type seedCheck struct {
	sys    *engine.System
	p      *engine.Parsed
	labels [2]map[string][]string // each side's terms as typed ("sigilo 12")
}

// readSeed reads a seed system's words from its file's inputs, in any
// order; a first word that is a character's name ("/daegon Drake sigilo
// hard") is read as "@Drake" when the words do not parse otherwise (the
// first error is the one named). The sheet values are read from whose
// sheet each side names, the passive side's from the active one's when
// it names none, and a sheet key whose text gives tagged counts (Kingdom
// Hearts' specialty) is read as more words. Every error is the one the
// file names for it (its inputs' errors: and its own), or the engine's
// generic one (fileParseErr); a sheet key that is missing but close to a
// named value is taken for that value misspelt.
func readSeed(ctx context.Context, req *command.Request, key string, sys *engine.System, toks []string) (seedCheck, string, error) {
	s := sys
	if s == nil {
		s = engine.MustBuiltin(key)
	}
	p, err := s.Parse(toks)
	if err != nil && len(toks) > 1 && !strings.HasPrefix(toks[0], "@") && looksLikeName(toks[0]) {
		if p2, err2 := s.Parse(toks[1:]); err2 == nil && p2.Active.Who == "" {
			p, err = p2, nil
			p.Active.Who = toks[0]
		}
	}
	if err != nil {
		return seedCheck{}, "", seedErr(req, s, err)
	}
	c := seedCheck{sys: s, p: p}
	for i, sd := range []*engine.Side{&p.Active, p.Passive} {
		if sd == nil {
			continue
		}
		who := cmp.Or(sd.Who, p.Active.Who)
		misspelt := func(k string, err error) error {
			if in := unnamed(s, p.Check, sd); in != nil && !namesSheetKey(s, k) {
				if err2 := suggestName(req, in, []string{k}); isSuggestion(err2) {
					return err2
				}
			}
			return err
		}
		c.labels[i], err = s.Resolve(sd, func(k string) (int, error) {
			v, err := sheetInt(ctx, req, s, who, k)
			if _, user := command.AsUserError(err); user {
				return v, misspelt(k, err)
			}
			return v, err
		})
		if err != nil {
			return seedCheck{}, "", seedErr(req, s, err)
		}
		for _, k := range sd.Sheets {
			text, err := req.SheetText(ctx, who, k)
			if _, user := command.AsUserError(err); user {
				return seedCheck{}, "", misspelt(k, err)
			} else if err != nil {
				return seedCheck{}, "", err
			}
			if err := s.More(p.Check, sd, k, text); err != nil {
				return seedCheck{}, "", seedErr(req, s, err)
			}
		}
	}
	// The file's requirements over the inputs together (Kingdom Hearts'
	// bonus dice, a specialty's included), before anything is rolled.
	if err := s.Require(p.Check, s.Params(p)); err != nil {
		return seedCheck{}, "", seedErr(req, s, err)
	}
	return c, p.Active.Who, nil
}

// unmetErr is the message of inputs that break a requirement of the
// file (engine.Unmet), in the chat's language: the file's catalog
// message, or its own text; nil for any other error.
func unmetErr(err error, lang string) error {
	var un *engine.Unmet
	if !errors.As(err, &un) {
		return nil
	}
	key, args := un.Message(lang)
	kv := make([]any, 0, 2*len(args))
	for k, v := range args {
		if n, ok := v.(int); ok {
			v = num(n)
		}
		kv = append(kv, k, v)
	}
	return command.Errorf(key, kv...)
}

// unnamed is the first input of the check that has named values and
// names its error (errors: name) and that the side has not given.
func unnamed(s *engine.System, check string, sd *engine.Side) *engine.Input {
	for _, ck := range s.File.Checks {
		if ck.Key != check {
			continue
		}
		for _, k := range ck.Inputs {
			in := s.Input(k)
			_, given := sd.Inputs[k]
			if in != nil && !given && len(in.Named) > 0 && in.Errors["name"] != "" {
				return in
			}
		}
	}
	return nil
}

// skill is the sheet key a side's input was read from ("" when typed as
// a number).
func (c seedCheck) skill(passive bool, input string) string {
	sd := &c.p.Active
	if passive {
		sd = c.p.Passive
	}
	if ts := sd.Terms[input]; len(ts) == 1 {
		return ts[0].Key
	}
	return ""
}

// seedErr names what is wrong in a seed system's words (or a
// sub-command's: engine.ParseCheck): the message the file names for that
// kind of error, its input's (a range error's "below" or "above" first),
// the check's or its own, with the input's name ("what"),
// its range ("min", "max"), the number or the words typed ("got"), the
// word typed ("typed"), a sheet key and its text ("name", "value"); a
// word that names none of an input's values, the closest one
// (suggestName); inputs that break a requirement, its message
// (unmetErr); else the generic message.
func seedErr(req *command.Request, s *engine.System, err error) error {
	if ue := unmetErr(err, req.Lang); ue != nil {
		return ue
	}
	var pe *engine.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	if in := pe.Unnamed; pe.Kind == "word" && pe.Input == nil && in != nil && in.Errors["name"] != "" {
		if pe.Before != "" {
			if err := suggestName(req, in, append([]string{pe.Before}, pe.Rest...)); isSuggestion(err) {
				return err
			}
		}
		return suggestName(req, in, pe.Rest)
	}
	if in := pe.Input; pe.Kind == "name" && in != nil && in.Rest {
		return suggestRest(req, s, pe)
	}
	var got any = clip(pe.Got)
	msg := ""
	if pe.Kind == "faces" {
		got = pe.Value
		if pe.Number != "" {
			got = clip(pe.Number)
		}
	}
	if in := pe.Input; in != nil {
		if pe.Kind == "range" || pe.Kind == "by" {
			got = pe.Value
			below := pe.Value < pe.Min
			if pe.Number != "" {
				got, below = clip(pe.Number), strings.HasPrefix(strings.ReplaceAll(pe.Number, "−", "-"), "-")
			}
			end := map[bool]string{true: "below", false: "above"}[below]
			if pt := pe.Part; pt != nil {
				msg = cmp.Or(pt.Errors[end], pt.Errors["range"])
			}
			if tm := pe.Times; tm != nil {
				msg = tm.Errors[pe.Kind]
			}
			msg = cmp.Or(msg, in.Errors[end])
		}
		msg = cmp.Or(msg, in.Errors[pe.Kind])
	} else if len(pe.Rest) > 0 {
		got = clip(strings.Join(pe.Rest, " "))
	}
	if pe.Check != nil {
		msg = cmp.Or(msg, pe.Check.Errors[pe.Kind])
	}
	msg = cmp.Or(msg, s.File.Errors[pe.Kind])
	if msg == "" {
		return fileParseErr(req, s, err)
	}
	kv := []any{"min", num(pe.Min), "max", num(pe.Max), "got", got, "typed", clip(pe.Got)}
	if pe.Input != nil {
		kv = append(kv, "what", pe.Input.Names.In(req.Lang))
	}
	if pe.Kind == "sheet" && len(pe.Rest) > 0 {
		kv = append(kv, "name", clip(pe.Got), "value", clip(pe.Rest[0]))
	}
	if pe.First != "" {
		kv = append(kv, "first", clip(pe.First))
	}
	if c := pe.Count; c != nil && c.Min != nil && pe.Input.Min != nil {
		// A dice word's count and sides, each in its range.
		lo, hi := chatLimits(c)
		flo, fhi := chatLimits(pe.Input)
		kv = append(kv, "minn", num(lo), "maxn", num(hi), "mins", num(flo), "maxs", num(fhi))
	}
	return command.Errorf(msg, kv...)
}

// suggestName is the error of words that name none of an input's values
// (its errors' "name"): that message with what was typed ("got"), or
// its "_suggest" with the closest value, named in the chat's language
// ("suggestion").
func suggestName(req *command.Request, in *engine.Input, words []string) error {
	errKey, got := in.Errors["name"], strings.Join(words, " ")
	var all []string
	shown := map[string]string{} // folded name → the chat's name of its value
	// A value's names are shown in the chat's language; a keyword that is
	// none of them (a transliteration: "metrio") as it is.
	for _, nv := range in.Named {
		own := nv.Names.In(req.Lang)
		for _, c := range []string{own, nv.Names.ES, nv.Names.EL, nv.Names.EN} {
			all = append(all, c)
			shown[fold.Key(c)] = own
		}
	}
	for _, nv := range in.Named {
		for _, c := range nv.Keywords {
			all = append(all, c)
			if _, ok := shown[fold.Key(c)]; !ok {
				shown[fold.Key(c)] = c
			}
		}
	}
	if utf8.RuneCountInString(fold.Key(got)) <= 60 { // far longer than any name: nothing is close
		if s := fold.Closest(got, all, 1); len(s) > 0 {
			return command.Errorf(errKey+"_suggest", "got", clip(got), "suggestion", strings.ToLower(shown[fold.Key(s[0])]))
		}
	}
	return command.Errorf(errKey, "got", clip(got), "min", num(*in.Min), "max", num(*in.Max))
}

// sheetInt reads a sheet value under the key typed, else, for a key of
// the file's sheet named in any of its languages (RQ's "con" or "c ΣΥΝ"),
// under each of its names: a sheet made in a Greek chat keeps "ΣΥΝ".
func sheetInt(ctx context.Context, req *command.Request, s *engine.System, who, k string) (int, error) {
	v, err := req.SheetInt(ctx, who, k)
	if err == nil || !isUnknownValue(err) || s.File.Sheet == nil {
		return v, err
	}
	for _, sk := range s.File.Sheet.Keys {
		names := []string{sk.Names.In(req.Lang), sk.Names.ES, sk.Names.EL, sk.Names.EN}
		if !slices.ContainsFunc(names, func(n string) bool { return fold.Key(n) == fold.Key(k) }) {
			continue
		}
		for _, n := range names {
			if v, e := req.SheetInt(ctx, who, n); fold.Key(n) != fold.Key(k) && (e == nil || !isUnknownValue(e)) {
				return v, e
			}
		}
	}
	return 0, err
}

// namesSheetKey reports whether k names a key of the file's sheet in
// one of its languages (RQ's "con"): no misspelt value.
func namesSheetKey(s *engine.System, k string) bool {
	if s.File.Sheet == nil {
		return false
	}
	for _, sk := range s.File.Sheet.Keys {
		for _, n := range []string{sk.Names.ES, sk.Names.EL, sk.Names.EN} {
			if fold.Key(n) == fold.Key(k) {
				return true
			}
		}
	}
	return false
}

// isUnknownValue is the sheet's "no such value" (with or without a
// suggestion).
func isUnknownValue(err error) bool {
	var ue *command.UserError
	return errors.As(err, &ue) && (ue.Key == "character.value_unknown" || ue.Key == "character.value_unknown_suggest")
}

// chatLimits is the range of the number the chat's words give in.
func chatLimits(in *engine.Input) (lo, hi int) {
	if in.Chat != nil {
		return in.Chat.Min, in.Chat.Max
	}
	return *in.Min, *in.Max
}

// suggestRest is the error of a side's leftover words that name none of
// the values of its rest inputs (engine.Input.Rest): the closest value
// of the first of them, in order, that has one close and a "name"
// message, as its "_suggest" in the chat's language; with none close,
// the check's "word" message (words that fit nothing), else the first
// input's "name" message, with what was typed ("got").
func suggestRest(req *command.Request, s *engine.System, pe *engine.ParseError) error {
	got := strings.Join(pe.Rest, " ")
	rests := pe.Rests
	if len(rests) == 0 {
		rests = []*engine.Input{pe.Input}
	}
	for _, in := range rests {
		if in.Errors["name"] == "" {
			continue
		}
		names := make([]named, len(in.Named))
		for i, nv := range in.Named {
			names[i] = named{val: nv.Value, names: []engine.Names{nv.Names}, extras: nv.Keywords}
		}
		if err := suggestNamed(req, got, names, in.Errors["name"]); isSuggestion(err) || len(pe.Rests) < 2 {
			return err
		}
	}
	key := pe.Input.Errors["name"]
	if pe.Check != nil && pe.Check.Errors["word"] != "" {
		key = pe.Check.Errors["word"]
	}
	if key == "" {
		return fileParseErr(req, s, pe)
	}
	return command.Errorf(key, "got", clip(got))
}
