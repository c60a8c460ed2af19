package fork

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/engine"
)

// list is /sistema: the chat's forks and own systems, and what each
// changes against the shipped file.
func (s *Service) list(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	fs, err := s.store.Forks(ctx, req.Msg.Chat)
	if err != nil {
		return nil, fmt.Errorf("forks of %s: %w", req.Msg.Chat, err)
	}
	if len(fs) == 0 {
		return reply.Text(req.T("fork.none", "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.copy")+" rq")), nil
	}
	rep := reply.Text(req.T("fork.list", "count", len(fs)))
	for _, f := range fs {
		sys, err := s.build(req.Msg.Chat, f)
		if err != nil {
			rep.Add(reply.B(f.Key), reply.T(" · "+req.T("fork.broken", "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.original")+" "+f.Key)))
			continue
		}
		if f.Own() {
			rep.Add(reply.B("/"+sys.File.Command), reply.T(" · "+req.T("fork.own", "name", sys.File.Title.In(req.Lang), "count", sys.VectorCount())))
			continue
		}
		rep.Add(reply.B("/"+sys.File.Command), reply.T(" · "+req.T("fork.of", "name", sys.File.Title.In(req.Lang))))
		bs, _ := base(f.Base)
		if len(f.Changes) == 0 {
			rep.Add(reply.I("   " + req.T("fork.unchanged")))
		}
		for _, c := range f.Changes {
			rep.Add(reply.T("   " + describe(texts(req), bs, c) + " → " + valueText(texts(req), sys, c)))
		}
	}
	return rep, nil
}

// original is /sistema original rq: the chat plays the shipped file again.
func (s *Service) original(ctx context.Context, req *command.Request, ws []string) (*reply.Reply, error) {
	key, err := systemKey(req, ws)
	if err != nil {
		return nil, err
	}
	f, _, had, err := s.find(ctx, req.Msg.Chat, key)
	if err != nil {
		return nil, err
	}
	if !had {
		return nil, command.Errorf("fork.err.no_fork", "name", fold.Cut(key, 32), "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.copy")+" "+fold.Cut(key, 32))
	}
	if err := s.store.DeleteFork(ctx, req.Msg.Chat, key); err != nil {
		return nil, fmt.Errorf("delete fork %s of %s: %w", key, req.Msg.Chat, err)
	}
	s.keepUndo(ctx, req, key, f, true)
	rep := reply.Text(req.T("fork.original", "name", key))
	rep.Add(reply.I(req.T("fork.undo_hint", "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.undo"), "minutes", int(UndoFor/time.Minute))))
	return rep, nil
}

// undo brings back the fork as it was before the sender's last change.
func (s *Service) undo(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	noUndo := command.Errorf("fork.err.no_undo", "minutes", int(UndoFor/time.Minute))
	if s.opt.Undo == nil {
		return nil, noUndo
	}
	doc, at, err := s.opt.Undo.TakeUndo(ctx, req.Msg.Chat, req.Msg.From.ID, undoKind)
	if errors.Is(err, core.ErrNotFound) || err == nil && s.opt.Now().Sub(at) > UndoFor {
		return nil, noUndo
	}
	if err != nil {
		return nil, fmt.Errorf("take fork undo: %w", err)
	}
	var u undoDoc
	if err := json.Unmarshal(doc, &u); err != nil {
		return nil, fmt.Errorf("fork undo: %w", err)
	}
	if !u.Had {
		if err := s.store.DeleteFork(ctx, req.Msg.Chat, u.Key); err != nil {
			return nil, fmt.Errorf("delete fork %s of %s: %w", u.Key, req.Msg.Chat, err)
		}
		return reply.Text(req.T("fork.undone_gone", "name", u.Key)), nil
	}
	if err := s.save(ctx, req, Fork{Key: u.Key, Base: u.Base, Changes: u.Changes, Source: u.Source}); err != nil {
		return nil, err
	}
	return reply.Text(req.T("fork.undone", "name", u.Key)), nil
}

// importFile adds a file sent to the chat as its own system: checked as
// zaria system check does (format, limits, every vector as written).
func (s *Service) importFile(ctx context.Context, req *command.Request, text string) (*reply.Reply, error) {
	if strings.TrimSpace(text) == "" {
		return nil, command.Errorf("fork.err.no_file", "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.import"))
	}
	// Reading the file is paid from the message's work budget, a unit a
	// byte; the engine's limits bound its vectors' work.
	if err := req.Budget.Spend(len(text)); err != nil {
		return nil, err
	}
	sys, err := engine.Load([]byte(text))
	if err != nil {
		var ee *engine.Error
		if errors.As(err, &ee) {
			return nil, command.Errorf("fork.err.file", "why", refusal(req, ee))
		}
		return nil, command.Errorf("fork.err.file", "why", err.Error())
	}
	f := sys.File
	key := f.System
	if bs, ok := base(key); ok {
		// Declared a fork of a shipped system: it takes that system's
		// command in this chat, if that command reads forks.
		if !slices.Contains(s.opt.Forkable, key) {
			return nil, command.Errorf("fork.err.no_system", "name", key, "list", strings.Join(s.opt.Forkable, ", "))
		}
		if f.Command != bs.File.Command {
			return nil, command.Errorf("fork.err.fork_command", "name", key, "cmd", "/"+bs.File.Command)
		}
	} else {
		for _, n := range append([]string{f.Command}, f.Aliases...) {
			if s.opt.Taken != nil && s.opt.Taken(n) {
				return nil, command.Errorf("fork.err.shadow", "cmd", "/"+n)
			}
			// Another own system of the chat's (a file sent again with
			// the same system: key replaces it instead).
			other, ok, err := s.Own(ctx, req.Msg.Chat, n)
			if err != nil {
				return nil, err
			}
			if ok && other != key {
				name := other
				if o, err := s.System(ctx, req.Msg.Chat, other); err == nil && o != nil {
					name = o.File.Title.In(req.Lang)
				}
				return nil, command.Errorf("fork.err.own_command", "cmd", "/"+n, "name", name)
			}
		}
	}
	prev, _, had, err := s.find(ctx, req.Msg.Chat, key)
	if err != nil {
		return nil, err
	}
	if err := s.save(ctx, req, Fork{Key: key, Source: []byte(text)}); err != nil {
		return nil, err
	}
	s.keepUndo(ctx, req, key, prev, had)
	rep := reply.Text(req.T("fork.imported", "name", f.Title.In(req.Lang), "cmd", "/"+f.Command, "count", sys.VectorCount()))
	rep.Add(reply.I(req.T("fork.undo_hint", "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.undo"), "minutes", int(UndoFor/time.Minute))))
	return rep, nil
}

// Own finds the chat's own system whose command is name, for the
// router's unknown commands: the words to run it.
func (s *Service) Own(ctx context.Context, chat core.ChatRef, name string) (key string, ok bool, err error) {
	fs, err := s.store.Forks(ctx, chat)
	if err != nil {
		return "", false, fmt.Errorf("forks of %s: %w", chat, err)
	}
	k := strings.ToLower(name)
	for _, f := range fs {
		if !f.Own() {
			continue
		}
		sys, err := s.build(chat, f)
		if err != nil {
			return "", false, err
		}
		if k == sys.File.Command {
			return f.Key, true, nil
		}
		for _, a := range sys.File.Aliases {
			if k == strings.ToLower(a) {
				return f.Key, true, nil
			}
		}
	}
	return "", false, nil
}

// chatFile is the chat's fork or own file of the key ws names; without
// one, an error that says what to type: /sistema and how(key), the
// words that would make it.
func (s *Service) chatFile(ctx context.Context, req *command.Request, ws []string, how func(key string) string) (string, *engine.System, error) {
	key, err := systemKey(req, ws)
	if err != nil {
		return "", nil, err
	}
	sys, err := s.System(ctx, req.Msg.Chat, key)
	if err != nil {
		return "", nil, err
	}
	if sys == nil {
		return "", nil, command.Errorf("fork.err.no_fork", "name", fold.Cut(key, 32), "cmd", req.Prefix+req.Alias+" "+how(key))
	}
	return key, sys, nil
}

// roll is /sistema tirar KEY WORDS: a check of the chat's own system.
func (s *Service) roll(ctx context.Context, req *command.Request, ws []string) (*reply.Reply, error) {
	_, sys, err := s.chatFile(ctx, req, ws, func(string) string { return req.T("fork.word.import") })
	if err != nil {
		return nil, err
	}
	if words := ws[1:]; len(words) > 1 && engine.IsVs(words[len(words)-1]) {
		// "/pen 12 vs": the other side's value is missing, and may be
		// typed as this side's is.
		side := strings.Join(words[:len(words)-1], " ")
		return nil, command.Errorf("sys.error.needs_value", "word", fold.Cut(words[len(words)-1], 32),
			"example", fold.CutWord("/"+sys.File.Command+" "+side+" "+words[len(words)-1]+" "+side, 81))
	}
	p, err := sys.ParseWords(ws[1:])
	if err != nil {
		return nil, wordsErr(req, sys, err)
	}
	// A sheet key among a terms input's parts ("/iron hierro+1") is read
	// from whose sheet the words name; each part and the sum in range.
	var labels [2]map[string][]string
	for i, sd := range []*engine.Side{&p.Active, p.Passive} {
		if sd == nil {
			continue
		}
		l, err := sys.Resolve(sd, func(k string) (int, error) { return req.SheetInt(ctx, sd.Who, k) })
		if err != nil {
			return nil, wordsErr(req, sys, err)
		}
		labels[i] = l
	}
	pr := sys.Params(p)
	// A requirement of the file the inputs break: its message, the
	// file's own text or a catalog's, in the chat's language.
	var un *engine.Unmet
	if err := sys.Require(p.Check, pr); errors.As(err, &un) {
		key, args := un.Message(req.Lang)
		return nil, command.Errorf(key, kvOf(args)...)
	}
	res, err := sys.Roll(p.Check, pr, req.Rand)
	if err != nil {
		// The engine's refusal of these values (a pool's count that is
		// no whole number, a pool past its limit), in the chat's language.
		var ee *engine.Error
		if errors.As(err, &ee) {
			return nil, command.Errorf(ee.Key, kvOf(ee.Vars())...)
		}
		return nil, err
	}
	if s.opt.Layout != nil && sys.HasLayout(res.Check) {
		return s.opt.Layout(req, sys, res, p, pr, labels)
	}
	rep := &reply.Reply{Data: sys.JSONValues(res, req.Lang)}
	line := reply.Line{reply.T("🎲 " + diceText(sys, res, false))}
	total := func(r *big.Rat) string {
		if r.IsInt() {
			return sys.TotalText(int(r.Num().Int64()), req.Lang)
		}
		return r.RatString()
	}
	if res.Total != nil {
		line = append(line, reply.T(" = "), reply.B(total(res.Total)))
	}
	// An opposed check: the passive side's dice apart, and its total
	// when it is a let ("total: total"): "🎲 9 · 2 = 11 vs 🎲 7 · 7 = 14".
	if res.Winner != "" {
		line = append(line, reply.T(" vs 🎲 "+diceText(sys, res, true)))
		if i := slices.IndexFunc(sys.File.Checks, func(c engine.Check) bool { return c.Key == res.Check }); i >= 0 && res.Total != nil {
			if pt := res.Passive[sys.File.Checks[i].Total]; pt != nil {
				line = append(line, reply.T(" = "), reply.B(total(pt)))
			}
		}
	}
	for _, name := range sys.AlsoNames(res, req.Lang) {
		line = append(line, reply.T(" "+name))
	}
	rep.Add(line...)
	if res.Outcome != "" {
		out := reply.Line{reply.B(outcomeName(texts(req), sys, res.Outcome))}
		if res.Level != nil {
			// As a shipped file's: its show's text, else "nivel +2".
			if text, shown := sys.LevelText(*res.Level, req.Lang); shown && text != "" {
				out = append(out, reply.T(" · "+text))
			} else if shown {
				out = append(out, reply.T(" · "+req.T("filesys.level", "n", engine.Signed(*res.Level))))
			}
		}
		rep.Add(out...)
	}
	rep.Check = checkFacts(sys, res)
	// Without an outcome (no DC typed: no band applies) there is no
	// chance of success to give.
	if p, exact, err := sys.Chance(p.Check, pr); err == nil && res.Outcome != "" {
		approx := ""
		if !exact {
			approx = "≈"
		}
		rep.Add(reply.T("📊 " + req.T("fork.chance", "pct", approx+req.Percent(p))))
		f, _ := p.Float64()
		rep.Check.Chance, rep.Check.ChanceExact, rep.Check.Approx = &f, p.RatString(), !exact
		if !strings.Contains(rep.Check.ChanceExact, "/") {
			rep.Check.ChanceExact += "/1"
		}
	}
	return rep, nil
}

// checkFacts is what --json gives of a roll of an own file, as of a
// shipped file's: its outcome, dice, total, level, winner and the
// show's margin.
func checkFacts(sys *engine.System, res *engine.Result) *reply.Check {
	ck := &reply.Check{System: sys.File.System, Outcome: res.Outcome, Dice: res.Dice, Sides: res.Sides, Winner: res.Winner}
	if ck.Dice == nil {
		ck.Dice, ck.Sides = []int{}, []int{}
	}
	if res.Total != nil && res.Total.IsInt() {
		t := int(res.Total.Num().Int64())
		ck.Total = &t
	}
	if res.Level != nil && res.Outcome != "" {
		l := *res.Level
		ck.Level = &l
	}
	if m, ok := sys.Margin(res); ok {
		ck.Margin = &m
	}
	return ck
}

// wordsErr names what is wrong with an own system's words, as the
// shipped systems' commands do: a value out of its input's range, an
// input typed twice or missing, else the word that fits nothing, with
// the file's example (without one, the hint to read the file).
func wordsErr(req *command.Request, sys *engine.System, err error) error {
	return WordsError(req.Lang, sys, err)
}

// WordsError is wordsErr in lang, for a reader without a chat (zaria
// system try): a *command.UserError for a ParseError, else err.
func WordsError(lang string, sys *engine.System, err error) error {
	var pe *engine.ParseError
	if !errors.As(err, &pe) {
		return err // a sheet's answer: no character, no such value
	}
	got := fold.Cut(pe.Got, 32)
	if pe.Input != nil {
		what := pe.Input.Names.In(lang)
		if pe.Part != nil { // a term of a+b out of its part's range
			what = pe.Part.Names.In(lang)
		}
		switch pe.Kind {
		case "range":
			return command.Errorf("filesys.error.range", "what", what, "min", minus(pe.Min), "max", minus(pe.Max), "got", got)
		case "twice":
			return command.Errorf("filesys.error.twice", "what", what, "got", got)
		case "dice": // "11k2": the count's and the sides' ranges
			if pe.Count != nil {
				lo, hi := chatRange(pe.Count)
				flo, fhi := chatRange(pe.Input)
				return command.Errorf("filesys.error.dice", "got", got, "dice", pe.Count.Names.In(lang), "minn", minus(lo), "maxn", minus(hi),
					"faces", what, "mins", minus(flo), "maxs", minus(fhi))
			}
		}
	}
	ex := sys.Example(lang)
	if ex == "" {
		return command.Errorf("fork.err.words", "got", got, "cmd", "/"+sys.File.Command)
	}
	ex = "/" + sys.File.Command + " " + ex
	if pe.Kind == "missing" && pe.Input != nil {
		return command.Errorf("filesys.error.missing", "what", pe.Input.Names.In(lang), "example", ex)
	}
	return command.Errorf("filesys.error.word", "got", got, "example", ex)
}

// chatRange is the range of numbers the chat may type for in.
func chatRange(in *engine.Input) (lo, hi int) {
	switch {
	case in.Chat != nil:
		return in.Chat.Min, in.Chat.Max
	case in.Min != nil && in.Max != nil:
		return *in.Min, *in.Max
	}
	return 0, 0
}

// minus writes an integer with the typographic minus sign: "−10".
func minus(n int) string {
	return strings.Replace(strconv.Itoa(n), "-", "−", 1)
}

// diceText is one side's dice of a roll (the active side's, or all of
// a roll that is not opposed) as the file's show writes them; a file
// without one, each die's number between " · ".
func diceText(sys *engine.System, res *engine.Result, passive bool) string {
	if sys.File.Show != nil {
		return sys.SideDiceText(res, passive)
	}
	from, to := 0, len(res.Dice)
	if res.Winner != "" {
		if passive {
			from = res.PassiveFrom
		} else {
			to = res.PassiveFrom
		}
	}
	faces := make([]string, 0, to-from)
	for _, d := range res.Dice[from:to] {
		faces = append(faces, strconv.Itoa(d))
	}
	return strings.Join(faces, " · ")
}

// Expander runs a chat's own systems by their commands: an unknown
// command that names one is /sistema tirar KEY and its words; any other
// goes to next (saved rolls).
func (s *Service) Expander(next command.AliasExpander) command.AliasExpander {
	return ownExpander{s: s, next: next}
}

type ownExpander struct {
	s    *Service
	next command.AliasExpander
}

func (e ownExpander) ExpandAlias(ctx context.Context, chat core.ChatRef, userID, name, args string, max int) (string, bool, error) {
	key, ok, err := e.s.Own(ctx, chat, name)
	if err != nil {
		return "", false, err
	}
	if ok {
		return strings.TrimSpace("/sistema tirar " + key + " " + args), true, nil
	}
	if e.next == nil {
		return "", false, nil
	}
	return e.next.ExpandAlias(ctx, chat, userID, name, args, max)
}

// show sends the chat's fork or own file as a system file: the fork
// built, its book's examples rewritten, a file zaria system check passes.
func (s *Service) show(ctx context.Context, req *command.Request, ws []string) (*reply.Reply, error) {
	key, sys, err := s.chatFile(ctx, req, ws, func(key string) string { return req.T("fork.word.copy") + " " + fold.Cut(key, 32) })
	if err != nil {
		return nil, err
	}
	rep := reply.Text(req.T("fork.file", "name", sys.File.Title.In(req.Lang), "count", sys.VectorCount()))
	rep.File = &reply.File{Name: key + ".yaml", MIME: "application/yaml", Data: sys.Source}
	return rep, nil
}
