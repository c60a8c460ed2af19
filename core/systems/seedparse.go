package systems

import (
	"cmp"
	"context"
	"errors"
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
// first error is the one named). No words at all is the system's usage
// (key.error.usage). The sheet values are read from whose sheet each
// side names, the passive side's from the active one's when it names
// none. Every error is the one the input names for it (its errors: in
// the file), or the engine's generic one (parseErr).
func readSeed(ctx context.Context, req *command.Request, key string, toks []string) (seedCheck, string, error) {
	s := engine.MustBuiltin(key)
	if len(toks) == 0 {
		return seedCheck{}, "", command.Errorf(key + ".error.usage")
	}
	p, err := s.Parse(toks)
	if err != nil && len(toks) > 1 && !strings.HasPrefix(toks[0], "@") && looksLikeName(toks[0]) {
		if p2, err2 := s.Parse(toks[1:]); err2 == nil && p2.Active.Who == "" {
			p, err = p2, nil
			p.Active.Who = toks[0]
		}
	}
	if err != nil {
		return seedCheck{}, "", seedErr(req, key, toks, err)
	}
	c := seedCheck{sys: s, p: p}
	sides := []*engine.Side{&p.Active, p.Passive}
	for i, sd := range sides {
		if sd == nil {
			continue
		}
		who := cmp.Or(sd.Who, p.Active.Who)
		c.labels[i], err = s.Resolve(sd, func(k string) (int, error) { return req.SheetInt(ctx, who, k) })
		if err != nil {
			return seedCheck{}, "", seedErr(req, key, toks, err)
		}
	}
	return c, p.Active.Who, nil
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

// seedErr names what is wrong in a seed system's words: the message its
// input names for that kind of error, with the input's name ("what"),
// its range ("min", "max") and what was typed ("got"); a word that names
// none of an input's values, the closest one (suggestName); else the
// generic message.
func seedErr(req *command.Request, key string, toks []string, err error) error {
	var pe *engine.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	if in := pe.Unnamed; pe.Kind == "word" && pe.Input == nil && in != nil && in.Errors["name"] != "" {
		return suggestName(req, in, strings.Join(pe.Rest, " "), in.Errors["name"])
	}
	if in := pe.Input; in != nil && in.Errors[pe.Kind] != "" {
		got := clip(pe.Got)
		if pe.Kind == "range" {
			got = num(pe.Value)
		}
		return command.Errorf(in.Errors[pe.Kind], "what", in.Names.In(req.Lang), "min", num(pe.Min), "max", num(pe.Max), "got", got)
	}
	switch pe.Kind {
	case "range":
		return command.Errorf("filesys.error.range", "what", pe.Input.Names.In(req.Lang), "min", num(pe.Min), "max", num(pe.Max), "got", num(pe.Value))
	case "twice":
		return command.Errorf("filesys.error.twice", "what", pe.Input.Names.In(req.Lang), "got", clip(pe.Got))
	case "vs":
		n := 0
		for _, w := range toks {
			if engine.IsVs(w) {
				n++
			}
		}
		if n > 1 {
			return command.Errorf("sys.error.two_vs")
		}
	}
	return command.Errorf(key + ".error.usage")
}

// suggestName is the error of words that name none of an input's
// values: errKey with what was typed ("got"), or errKey+"_suggest" with
// the closest value, named in the chat's language ("suggestion").
func suggestName(req *command.Request, in *engine.Input, got, errKey string) error {
	var all []string
	shown := map[string]string{} // folded name → the chat's name of its value
	for _, nv := range in.Named {
		own := nv.Names.In(req.Lang)
		for _, c := range append([]string{own, nv.Names.ES, nv.Names.EL, nv.Names.EN}, nv.Keywords...) {
			all = append(all, c)
			if _, ok := shown[fold.Key(c)]; !ok {
				shown[fold.Key(c)] = own
			}
		}
	}
	if utf8.RuneCountInString(fold.Key(got)) <= 60 { // far longer than any name: nothing is close
		if s := fold.Closest(got, all, 1); len(s) > 0 {
			return command.Errorf(errKey+"_suggest", "got", clip(got), "suggestion", strings.ToLower(shown[fold.Key(s[0])]))
		}
	}
	return command.Errorf(errKey, "got", clip(got))
}
