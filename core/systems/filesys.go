package systems

import (
	"context"
	"errors"
	"maps"
	"math/big"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/engine"
)

// The systems that run from their shipped file alone, with no package of
// their own: the file's inputs read the chat's words (engine.Parse), its
// check rolls and names the outcome in the chat's language, and its exact
// odds are the engine's. docs/coc.md, v5.md, wfrp.md, pbta.md, fate.md
// and sw.md say how each reads its rules.
//
// How a roll is written is the file's (its show section: the faces'
// texts, the separators, the total's and the level's texts), and so are
// the example an error gives and the development phase (development.go): no
// code here names a system. A check's facts for --json are the
// reply.Check's (outcome, dice, total, level) and, in rep.Data, the
// values the file's show names (V5's "successes", Fate's "ladder").
// Register (register.go) adds their commands, as it does every system's.

// fileChoices lists what a pad button may ask for at a place of a file
// system's command: the named values of the first input that the place
// can take, read as the command reads them (the words around it parse
// with the value in its place). An input with prefixes is offered only
// right after one of them: "/fate +3 vs {x}" offers the ladder,
// "/coc 65 {x}" the levels, "/sw {x} +1" the trait dice; "/coc {x}" (the
// skill) nothing.
func fileChoices(key string) command.ChoicesFunc {
	return func(_ context.Context, req *command.Request, words []string, i int) (*command.ChoiceList, error) {
		s := engine.MustBuiltin(key)
		prev := ""
		if i > 0 {
			prev = fold.Key(words[i-1])
		}
		for _, in := range s.File.Inputs {
			if len(in.Named) == 0 {
				continue
			}
			afterPrefix := false
			for _, p := range in.Prefixes {
				afterPrefix = afterPrefix || fold.Key(p) == prev
			}
			if len(in.Prefixes) > 0 && !afterPrefix {
				continue
			}
			value := func(nv engine.NamedValue) string {
				if afterPrefix {
					return strconv.Itoa(nv.Value)
				}
				return strings.ReplaceAll(fold.Key(nv.Names.EN), " ", "-")
			}
			try := append([]string(nil), words...)
			try[i] = value(in.Named[0])
			if _, err := s.Parse(try); err != nil {
				continue
			}
			out := &command.ChoiceList{Kind: command.ChoiceDifficulty}
			for _, nv := range in.Named {
				c := command.Choice{Label: nv.Names.In(req.Lang), Value: value(nv)}
				if afterPrefix {
					c.Label += " (" + engine.SignedText(c.Value) + ")"
				} else {
					c.Typed = nv.Names.In(req.Lang)
				}
				out.Choices = append(out.Choices, c)
			}
			return out, nil
		}
		return nil, nil
	}
}

// fileCheck is a check's words read: the system, what was typed, whose.
type fileCheck struct {
	key    string
	sys    *engine.System
	p      *engine.Parsed
	text   string
	labels [2]map[string][]string // each side's terms as typed (seed systems)
	rules  map[string]string      // the chat's house rules (seed systems)
}

// readFile parses a file system's words ("?" taken off) by the chat's
// fork of it, or the shipped file (forks nil, or no fork), localizing the
// engine's errors: the word, the input and its range, a requirement of
// the file the inputs break.
func readFile(ctx context.Context, req *command.Request, forks Forks, key, args string) (fileCheck, error) {
	fork, err := chatSystem(ctx, req, forks, key)
	if err != nil {
		return fileCheck{}, err
	}
	s := fileOrBook(fork, key)
	words := tokenize(args).toks
	p, err := s.ParseWords(words) // a check by its word, if the file gives words
	if err != nil {
		return fileCheck{}, fileParseErr(req, s, err)
	}
	// A sheet key (/coc buscar-libros) is read from whose sheet the words name.
	if _, err := s.Resolve(&p.Active, func(k string) (int, error) {
		return sheetNumber(ctx, req, s, p.Active, k)
	}); err != nil {
		return fileCheck{}, fileParseErr(req, s, err)
	}
	if err := s.Require(p.Check, s.Params(p)); err != nil {
		return fileCheck{}, fileParseErr(req, s, err)
	}
	return fileCheck{key: key, sys: s, p: p, text: strings.Join(words, " ")}, nil
}

// sheetNumber is the number the sheet value k gives a check: its
// number, or, for an input with named values, one of them, by its value
// or one of its names as the chat would type it (Savage Worlds' trait
// die: "Agilidad d8" reads 8 for /sw agilidad; "5" is no trait die).
func sheetNumber(ctx context.Context, req *command.Request, s *engine.System, sd engine.Side, k string) (int, error) {
	var in *engine.Input
	for key, ts := range sd.Terms {
		for _, t := range ts {
			if t.Key != k {
				continue
			}
			for i := range s.File.Inputs {
				if def := &s.File.Inputs[i]; def.Key == key && len(def.Named) > 0 {
					in = def
				}
			}
		}
	}
	if in == nil {
		return req.SheetInt(ctx, sd.Who, k)
	}
	text, err := req.SheetText(ctx, sd.Who, k)
	if _, isUser := command.AsUserError(err); isUser {
		// No sheet value of that name: a word the input does not read
		// ("/sw d5": no trait die), as without a sheet.
		return 0, &engine.ParseError{Kind: "word", Input: in, Got: k}
	}
	if err != nil {
		return 0, err
	}
	var names []string
	for _, nv := range in.Named {
		for _, c := range append([]string{nv.Names.ES, nv.Names.EL, nv.Names.EN, strconv.Itoa(nv.Value)}, nv.Keywords...) {
			if fold.Key(c) == fold.Key(text) {
				return nv.Value, nil
			}
		}
		names = append(names, nv.Names.In(req.Lang))
	}
	return 0, command.Errorf("filesys.error.sheet_named", "name", clip(k), "value", clip(text), "what", in.Names.In(req.Lang),
		"choices", strings.Join(names, ", "), "example", in.Named[len(in.Named)/2].Names.In(req.Lang))
}

// sheetValue is the sheet key a check read for on (an input, or an
// input's part "skill.adjust"), "" when typed as a number: what a
// success marks (development.go). An input alone is its first term's.
func (c fileCheck) sheetValue(on string) string {
	in, part, _ := strings.Cut(on, ".")
	ts := c.p.Active.Terms[in]
	if part == "" {
		if len(ts) > 0 {
			return ts[0].Key
		}
		return ""
	}
	for _, def := range c.sys.File.Inputs {
		for i, pt := range def.Parts {
			if def.Key == in && pt.Key == part && len(ts) == len(def.Parts) {
				return ts[i].Key
			}
		}
	}
	return ""
}

func fileParseErr(req *command.Request, s *engine.System, err error) error {
	if ue := unmetErr(err, req.Lang); ue != nil {
		return ue
	}
	var pe *engine.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	ex := strings.TrimSpace("/" + s.File.Command + " " + s.Example(req.Lang))
	what := ""
	if pe.Input != nil {
		what = pe.Input.Names.In(req.Lang)
	}
	switch pe.Kind {
	case "range":
		return command.Errorf("filesys.error.range", "what", what, "min", num(pe.Min), "max", num(pe.Max), "got", clip(pe.Got))
	case "twice":
		return command.Errorf("filesys.error.twice", "what", what, "got", clip(pe.Got))
	case "missing":
		return command.Errorf("filesys.error.missing", "what", what, "example", ex)
	}
	return command.Errorf("filesys.error.word", "got", clip(pe.Got), "example", ex)
}

func fileHandler(key string, forks Forks) command.HandlerFunc {
	return func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
		// The file's development phase: /coc mejorar (development.go).
		if words := tokenize(req.Args).toks; len(words) > 0 {
			if s := engine.MustBuiltin(key); s.IsDevelopment(words[0]) {
				return devPhase(ctx, req, s, words[1:])
			}
		}
		c, err := readFile(ctx, req, forks, key, req.Args)
		if err != nil {
			return nil, err
		}
		rep, res, err := rollFile(req, c)
		if err != nil {
			return nil, err
		}
		devMark(ctx, req, c, res, rep)                           // development.go
		if err := fileMarks(ctx, req, c, res, rep); err != nil { // marks.go
			return nil, err
		}
		return finish(req, forWho(rep, c.p.Active.Who), true), nil
	}
}

func (c fileCheck) params() engine.Params {
	pr := c.sys.Params(c.p)
	pr.Rules = c.rules
	return pr
}

// rollFile rolls the check and writes its reply as the file lays it
// out (its show's reply lines, engine/layout.go), or, for a file without
// a layout, as the plain look writes it (plainLines); then the exact
// chance. The --json facts are the check's: its outcome, dice, total,
// level and chance.
func rollFile(req *command.Request, c fileCheck) (*reply.Reply, *engine.Result, error) {
	res, err := c.sys.Roll(c.p.Check, c.params(), req.Rand)
	if err != nil {
		return nil, nil, engineRefusal(err)
	}
	rep, ck := checkFacts(req, c.sys, res)
	if !c.sys.HasLayout(res.Check) {
		plainLines(req, c, res, rep)
		if res.Outcome != "" {
			p, exact, err := c.sys.Chance(c.p.Check, c.params())
			if err != nil {
				return nil, nil, err
			}
			setChance(ck, p)
			ck.Approx = !exact
			rep.Add(oddsLine(req, "sys.odds.chance", p)...)
		}
		rep.Check = ck
		return rep, res, nil
	}
	if err := layoutCheck(req, c.sys, res, c.p, c.params(), c.labels, ck, rep); err != nil {
		return nil, nil, err
	}
	return rep, res, nil
}

// checkFacts is the reply of res, rolled by file sys, before its lines:
// the --json values and the check's facts (outcome, dice, total, level,
// margin).
func checkFacts(req *command.Request, sys *engine.System, res *engine.Result) (*reply.Reply, *reply.Check) {
	rep := &reply.Reply{Data: sys.JSONValues(res, req.Lang)}
	ck := newCheck(sys.File.System, res.Outcome, res.Dice)
	ck.Sides = res.Sides
	if res.Total != nil && res.Total.IsInt() {
		ck.Total = intp(int(res.Total.Num().Int64()))
	}
	if res.Level != nil && res.Outcome != "" {
		ck.Level = intp(*res.Level)
	}
	if m, ok := sys.Margin(res); ok {
		ck.Margin = &m
	}
	return rep, ck
}

// layoutCheck writes res by its file's layout into rep, with ck its
// --json facts: the layout writes the chance where it names it, and
// --json gives it then; an opposed check's winner too, and the outcome
// by the file's word for it.
func layoutCheck(req *command.Request, sys *engine.System, res *engine.Result, p *engine.Parsed, pr engine.Params, labels [2]map[string][]string, ck *reply.Check, rep *reply.Reply) error {
	ck.Winner = sys.JSONWinner(res, pr)
	ck.Outcome = sys.JSONOutcome(res, pr)
	if err := layoutLines(req, sys, res, p, pr, labels, ck, rep); err != nil {
		return err
	}
	rep.Check = ck
	return nil
}

// LayoutReply is the reply of res, rolled by a chat's own file sys (a
// fork.Options.Layout) from p with params pr, as its show.reply lays it
// out, with the --json facts a shipped file's roll gives; labels are
// each side's terms as typed.
func LayoutReply(req *command.Request, sys *engine.System, res *engine.Result, p *engine.Parsed, pr engine.Params, labels [2]map[string][]string) (*reply.Reply, error) {
	rep, ck := checkFacts(req, sys, res)
	if err := layoutCheck(req, sys, res, p, pr, labels, ck, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// layoutLines adds to rep the lines file sys lays out for res, rolled
// from p with params pr (labels: each side's terms as typed); the chance
// a line writes is ck's too (--json).
func layoutLines(req *command.Request, sys *engine.System, res *engine.Result, p *engine.Parsed, pr engine.Params, labels [2]map[string][]string, ck *reply.Check, rep *reply.Reply) error {
	return layoutWith(req, sys, res, p, pr, engine.ReplyIn{Labels: labels}, ck, rep)
}

// layoutNamed is layoutLines with the names the bot gives the layout (a
// character's, a combatant's: the "name" formatter's) and no terms typed.
func layoutNamed(req *command.Request, sys *engine.System, res *engine.Result, p *engine.Parsed, pr engine.Params, names map[string]string, ck *reply.Check, rep *reply.Reply) error {
	return layoutWith(req, sys, res, p, pr, engine.ReplyIn{Names: names}, ck, rep)
}

// layoutWith is layoutLines with in's labels and names.
func layoutWith(req *command.Request, sys *engine.System, res *engine.Result, p *engine.Parsed, pr engine.Params, in engine.ReplyIn, ck *reply.Check, rep *reply.Reply) error {
	var (
		chance    *big.Rat
		exact     bool
		chanceErr error
	)
	exactChance := func() *big.Rat {
		if chance == nil && chanceErr == nil {
			chance, exact, chanceErr = sys.Chance(res.Check, pr)
		}
		return chance
	}
	in.Lang, in.Command, in.Prefix, in.Percent, in.ChanceRat = req.Lang, typedCommand(req), req.TypedPrefix(), req.Percent, exactChance
	in.T = func(key string, args map[string]any) string {
		kv := make([]any, 0, 2*len(args))
		for k, v := range args {
			kv = append(kv, k, v)
		}
		return req.T(key, kv...)
	}
	in.SetChance = func(p *big.Rat, exact bool) {
		setChance(ck, p)
		ck.Approx = !exact
	}
	in.Chance = func() string {
		p := exactChance()
		if p == nil {
			return ""
		}
		setChance(ck, p)
		ck.Approx = !exact
		return req.Percent(p)
	}
	for _, l := range sys.Layout(res, p, pr, in) {
		line := make(reply.Line, len(l))
		for i, sp := range l {
			line[i] = reply.Span{Style: spanStyle[sp.Style], Text: sp.Text}
		}
		rep.Add(line...)
	}
	return chanceErr
}

// spanStyle is a layout's style as a reply's.
var spanStyle = map[string]reply.Style{"": reply.Plain, "bold": reply.Bold, "italic": reply.Italic}

// typedCommand is the command as typed, its words trimmed: "/kh 6 +2s".
func typedCommand(req *command.Request) string {
	return strings.TrimSpace(req.TypedPrefix() + req.Alias + " " + strings.TrimSpace(req.Args))
}

// plainLines is the plain look of a roll: the dice and the total, the
// further results' names, the outcome and its level.
func plainLines(req *command.Request, c fileCheck, res *engine.Result, rep *reply.Reply) {
	line := reply.Line{reply.T("🎲 " + c.sys.DiceText(res))}
	if res.Total != nil && res.Total.IsInt() {
		t := int(res.Total.Num().Int64())
		if len(res.Dice) != 1 || res.Dice[0] != t { // "🎲 62", not "🎲 62 → 62"
			line = append(line, reply.T(" → "))
		} else {
			line = reply.Line{reply.T("🎲 ")}
		}
		line = append(line, reply.B(c.sys.TotalText(t, req.Lang)))
	}
	for _, name := range c.sys.AlsoNames(res, req.Lang) {
		line = append(line, reply.T(" "+name))
	}
	rep.Add(line...)
	if res.Outcome == "" {
		return
	}
	out := reply.Line{reply.B(c.sys.OutcomeName(res.Outcome, req.Lang))}
	if res.Level != nil {
		if text, shown := c.sys.LevelText(*res.Level, req.Lang); shown && text != "" {
			out = append(out, reply.T(" · "+text))
		} else if shown {
			out = append(out, reply.T(" · "+req.T("filesys.level", "n", engine.Signed(*res.Level))))
		}
	}
	rep.Add(out...)
}

// fileOdds is /odds of a file system: the chance of the check and of each
// outcome, and the distribution of its total.
func fileOdds(ctx context.Context, req *command.Request, forks Forks, key, args string) (*CheckOdds, error) {
	c, err := readFile(ctx, req, forks, key, args)
	if err != nil {
		return nil, err
	}
	od, err := c.sys.Odds(c.p.Check, c.params())
	if err != nil {
		return nil, engineRefusal(err)
	}
	co := &CheckOdds{Subject: c.text, TotalAxis: true, XLabel: req.T("filesys.total"), Approx: !od.Exact}
	if od.Exact {
		co.Levels = fileLevels(req, c)
	}
	if p, ok := od.Outcomes[""]; !ok || p.Cmp(big.NewRat(1, 1)) != 0 {
		co.Target = req.T("filesys.success")
		if co.Levels == nil {
			co.Chance = od.Success
		}
		for _, o := range c.sys.File.Outcomes {
			if p := od.Outcomes[o.Key]; p != nil && p.Sign() > 0 {
				co.Outcomes = append(co.Outcomes, OddsRow{Label: o.Names.In(req.Lang), P: p})
			}
		}
	}
	// A further result that some rolls lack (Year Zero's damage, a
	// glitch) has its outcomes' chances too; one every roll gives (Fate's
	// ladder) is a reading of the total the chart already draws.
	for _, ck := range c.sys.File.Checks {
		if ck.Key != c.p.Check {
			continue
		}
		for _, a := range ck.Also {
			m := od.Also[a.Key]
			if none := m[""]; none == nil || none.Sign() == 0 {
				continue
			}
			for _, o := range c.sys.File.Outcomes {
				if p := m[o.Key]; p != nil && p.Sign() > 0 {
					co.Also = append(co.Also, OddsRow{Label: o.Names.In(req.Lang), P: p})
				}
			}
		}
	}
	if len(od.Totals) > 0 {
		lo, hi := od.Totals[0].Total, od.Totals[len(od.Totals)-1].Total
		if lo.IsInt() && hi.IsInt() {
			co.DistMin = lo.Num().Int64()
			co.Dist = make([]*big.Rat, hi.Num().Int64()-co.DistMin+1)
			for i := range co.Dist {
				co.Dist[i] = new(big.Rat)
			}
			for _, t := range od.Totals {
				if t.Total.IsInt() {
					co.Dist[t.Total.Num().Int64()-co.DistMin] = t.P
				}
			}
		}
	}
	return co, nil
}

// engineRefusal is the engine's refusal of a roll of these values (a
// pool's count that is no whole number, a pool past its limit) as the
// user's message, in the chat's language; any other error as it is.
func engineRefusal(err error) error {
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return err
	}
	var kv []any
	for k, v := range ee.Vars() {
		kv = append(kv, k, v)
	}
	return command.Errorf(ee.Key, kv...)
}

// MaxOddsLevels is how many values of a check's target /odds tries for
// its table of chances when no target is typed ("/odds bw 4 gris": Ob 1
// to 12); a target with more values gets no table.
const MaxOddsLevels = 40

// fileLevels is the chance of success at each value of the check's
// first optional number input left out (the target: Burning Wheel's
// obstacle, a difficulty), as /odds zaria gives it at each DC: the
// values a requirement refuses skipped, runs of three or more of the
// same chance in one row. Nil when the check has no such input, when
// it has more than MaxOddsLevels values, or when a chance is sampled.
func fileLevels(req *command.Request, c fileCheck) []OddsRow {
	in := targetInput(c)
	if in == nil {
		return nil
	}
	lo, hi := *in.Min, *in.Max
	if in.Chat != nil {
		lo, hi = in.Chat.Min, in.Chat.Max
	}
	if hi-lo+1 > MaxOddsLevels {
		return nil
	}
	name := in.Names.In(req.Lang)
	var rows []OddsRow
	for v := lo; v <= hi; v++ {
		pr := c.params()
		pr.Inputs = maps.Clone(pr.Inputs)
		pr.Inputs[in.Key] = v
		if c.sys.Require(c.p.Check, pr) != nil {
			continue
		}
		od, err := c.sys.Odds(c.p.Check, pr)
		if err != nil || !od.Exact {
			return nil
		}
		r := OddsRow{Label: name + " " + num(v), P: od.Success, dc: v}
		for _, nv := range in.Named {
			if nv.Value == v {
				r.Name = nv.Names.In(req.Lang)
			}
		}
		rows = append(rows, r)
	}
	return mergeRunsBy(rows, func(r string) string { return name + " " + r })
}

// targetInput is the check's first optional number input of the active
// side that the words left out; nil when none.
func targetInput(c fileCheck) *engine.Input {
	for _, ck := range c.sys.File.Checks {
		if ck.Key != c.p.Check {
			continue
		}
		for _, k := range ck.Inputs {
			for i := range c.sys.File.Inputs {
				in := &c.sys.File.Inputs[i]
				if in.Key != k || !in.Optional || in.Passive || in.Type != "number" || in.Min == nil || in.Max == nil {
					continue
				}
				if _, given := c.p.Active.Inputs[k]; !given {
					return in
				}
			}
		}
	}
	return nil
}
