// Package systems answers the chat commands of the five game systems
// (/zaria, /daegon, /rq, /kh, /dh). The rules of the Ζαριά, Daegon, RQ
// and Kingdom Hearts are system files run by core/systems/engine
// (docs/systems-format.md), named in Go by one package per system;
// Dungeon Hack's are Go (package dungeonhack). The words the user typed
// are read by the engine from each file's inputs (seedparse.go: every
// error named as the file's errors: say; docs/systems-format.md#chat-grammar);
// this package reads character sheets and builds the localized replies.
//
// Every command runs one skeleton, sysCheck (check.go): split the words,
// refuse a keyword left without its value, read (parse the words, read
// the sheet values), roll, then name the character and add the buttons.
// Each system's file (zariacmd.go, daegoncmd.go, rqcmd.go, khcmd.go,
// dhcmd.go) declares its steps in one function (zariaCmd, daegonCmd, …);
// /odds (odds.go) runs the same read.
//
// Common to every command: words match without case or accents in es, el
// and en; "vs", "contra", "εναντίον", "κατά" separate the active (left) and
// passive sides; a "?" anywhere adds the exact odds line; "@Drake" or a
// leading character name reads that character's sheet instead of the
// sender's active one. Every reply carries a reply.Check (also without "?").
//
// Choices where the rules are silent (each system's page under docs/):
//   - /daegon with no difficulty uses D2 (media) and says so; Check.Level is
//     −1 for a failure.
//   - Check.Dice are always the faces rolled (1..N: a Daegon "0" is the face
//     10), so the CLI's --dice can replay a --json answer; Check.Sides gives
//     each die's size for the roll history.
//   - /zaria with no DC rolls and totals (epics still shown); Check.Total is
//     omitted when media_exacta leaves half a point.
//   - /kh named tiers stand for their lowest DC (difícil = 12).
//   - /dh ataque has no outcome: Check.Total is the damage and Check.Chance
//     the chance of damage above the Penetración. /dh uso: success = the die
//     holds. /dh repara: success = every DB restored; a die that can never
//     beat the score (d4 vs 4+) is stated, not rolled ("impossible").
//
// Dungeon Hack sheet values (read, and written when the sender has an
// active character): arma, armadura, db (intact DB), db-rotos, uso-arma,
// uso-armadura ("d8" or "agotado"), dado-db ("d6"/"d4").
package systems

import (
	"cmp"
	"context"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/engine"
)

// input is a command's arguments split into words, with the trailing "?"
// (show the odds) taken off.
type input struct {
	toks []string
	odds bool
}

func tokenize(args string) input {
	s := strings.TrimSpace(args)
	s = strings.TrimLeft(s, "¿")
	in := input{}
	// ";" and U+037E are the Greek question mark.
	for strings.HasSuffix(s, "?") || strings.HasSuffix(s, ";") || strings.HasSuffix(s, "\u037e") {
		in.odds = true
		_, size := utf8.DecodeLastRuneInString(s)
		s = strings.TrimSpace(s[:len(s)-size])
	}
	for _, f := range strings.Fields(s) {
		// "4+2? dc15": a "?" anywhere asks for the odds.
		if t := strings.TrimRight(f, "?"); t != f {
			in.odds = true
			if f = t; f == "" {
				continue
			}
		}
		in.toks = append(in.toks, f)
	}
	return in
}

// isVs reports whether a word means "against" in any language.
func isVs(w string) bool {
	switch fold.Key(w) {
	case "vs", "vs.", "v", "v.", "contra", "versus", "against", "εναντιον", "κατα":
		return true
	}
	return false
}

// splitVs cuts the words at "vs"/"contra"/"εναντίον"/"κατά". The left side is
// always the active one.
func splitVs(toks []string) (left, right []string, vs bool, err error) {
	for i, t := range toks {
		if isVs(t) {
			if vs {
				return nil, nil, false, command.Errorf("sys.error.two_vs")
			}
			left, right, vs = toks[:i], toks[i+1:], true
		}
	}
	if !vs {
		return toks, nil, false, nil
	}
	return left, right, true, nil
}

// takeWho takes a leading "@Drake" off the words.
func takeWho(toks []string) (who string, rest []string) {
	if len(toks) > 0 && strings.HasPrefix(toks[0], "@") && len(toks[0]) > 1 {
		return toks[0][1:], toks[1:]
	}
	return "", toks
}

// atoi parses a signed integer, accepting a leading "+" and the Unicode minus.
func atoi(s string) (int, bool) {
	s = strings.ReplaceAll(s, "−", "-")
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil || n > 1_000_000 || n < -1_000_000 {
		return 0, false
	}
	return n, true
}

// looksLikeName reports whether a word may be a character's name: no
// digits, no "+", not a keyword such as "npc".
func looksLikeName(s string) bool {
	if isNPCWord(s) || isVs(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsDigit(r) || r == '+' {
			return false
		}
	}
	return true
}

// named is a word a user may type for a value (a difficulty): its label
// keys in the catalogs (all three languages are accepted) and extra
// spellings (Latin transliterations, abbreviations).
type named struct {
	val    int
	keys   []string       // catalog keys whose text in es, el and en names the value
	names  []engine.Names // names of the value in es, el and en (a system file's)
	extras []string
}

// labels are n's names in es, el and en: its own, then its catalog
// keys' texts.
func (n named) labels(tr command.Translator) []engine.Names {
	out := append([]engine.Names(nil), n.names...)
	for _, k := range n.keys {
		out = append(out, engine.Names{ES: tr.Translate("es", k, nil), EL: tr.Translate("el", k, nil), EN: tr.Translate("en", k, nil)})
	}
	return out
}

// matchNamed finds a named value for words, in any language, ignoring case
// and accents. The error names the closest labels.
func matchNamed(req *command.Request, words string, names []named, errKey string, kv ...any) (int, error) {
	w := fold.Key(words)
	// Extra spellings first: they need no translation.
	for _, n := range names {
		for _, c := range n.extras {
			if fold.Key(c) == w {
				return n.val, nil
			}
		}
	}
	tr := req.Router().Translator()
	for _, n := range names {
		for _, lb := range n.labels(tr) {
			for _, l := range core.Langs() {
				if fold.Key(lb.In(l)) == w {
					return n.val, nil
				}
			}
		}
	}
	// Greek names are typed as a sentence declines them: "εναντίον
	// θώρακα" for the armour "θώρακας" (a masculine noun's accusative drops
	// its final ς).
	if stem := engine.GreekStem(w); strings.IndexFunc(w, func(r rune) bool { return unicode.Is(unicode.Greek, r) }) >= 0 {
		for _, n := range names {
			for _, lb := range n.labels(tr) {
				if engine.GreekStem(fold.Key(lb.EL)) == stem {
					return n.val, nil
				}
			}
		}
	}
	return 0, suggestNamed(req, words, names, errKey, kv...)
}

// suggestNamed is matchNamed's error for words that name nothing: errKey,
// or errKey+"_suggest" with the closest label.
func suggestNamed(req *command.Request, words string, names []named, errKey string, kv ...any) error {
	w := fold.Key(words)
	tr := req.Router().Translator()
	kv = append(kv, "got", clip(words))
	if utf8.RuneCountInString(w) > 60 {
		// Far longer than any label: nothing can be close, skip the search.
		return command.Errorf(errKey, kv...)
	}
	// Not found: suggest the closest label, the chat's language first, and
	// name it in the chat's language whatever language it was close to
	// ("foo" is nearest the Spanish "hoz": a Greek chat is offered "δρεπάνι").
	var all []string
	shown := map[string]string{} // folded label → the chat's name for it
	add := func(label, own string) {
		all = append(all, label)
		if _, ok := shown[fold.Key(label)]; !ok {
			shown[fold.Key(label)] = own
		}
	}
	for _, n := range names {
		for _, lb := range n.labels(tr) {
			add(lb.In(req.Lang), lb.In(req.Lang))
		}
	}
	for _, n := range names {
		// An extra spelling that is one of the item's names in some
		// language (a table key such as "hoz") is shown in the chat's
		// language; one that is not (a transliteration such as "metrio")
		// is suggested as it is.
		translations := map[string]string{}
		for _, lb := range n.labels(tr) {
			for _, l := range core.Langs() {
				translations[fold.Key(lb.In(l))] = lb.In(req.Lang)
			}
		}
		for _, e := range n.extras {
			add(e, cmp.Or(translations[fold.Key(e)], e))
		}
		for _, lb := range n.labels(tr) {
			for _, l := range core.Langs() {
				add(lb.In(l), lb.In(req.Lang))
			}
		}
	}
	if s := fold.Closest(words, all, 1); len(s) > 0 {
		return command.Errorf(errKey+"_suggest", append(kv, "suggestion", strings.ToLower(cmp.Or(shown[fold.Key(s[0])], s[0])))...)
	}
	return command.Errorf(errKey, kv...)
}

// isSuggestion reports whether err is a "did you mean" user error.
func isSuggestion(err error) bool {
	ue, ok := command.AsUserError(err)
	return ok && strings.HasSuffix(ue.Key, "_suggest")
}

// hints are the template arguments of the commands a reply suggests:
// "pre" is the prefix the user typed, "zcmd" the Ζαριά command, by its
// Greek alias in a Greek chat when the prefix takes any name ("!ζ"), by its
// Latin name after "/" (Telegram takes only Latin command names).
func hints(req *command.Request) []any {
	p := req.TypedPrefix()
	z := "zaria"
	if req.Lang == "el" && p != "/" {
		z = "ζ"
	}
	return []any{"pre", p, "zcmd", p + z}
}

// hinted adds the hints' arguments to a user error.
func hinted(req *command.Request, err error) error {
	ue, ok := command.AsUserError(err)
	if !ok {
		return err
	}
	// One minus sign in every reply: "has puesto −100", not "-100".
	for k, v := range ue.Args {
		if n, ok := v.(int); ok && n < 0 {
			ue.Args[k] = num(n)
		}
	}
	return command.Hint(err, hints(req)...)
}

// withHints makes a handler's user errors name commands as the user types
// them (see hints).
func withHints(h command.HandlerFunc) command.HandlerFunc {
	return func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
		rep, err := h(ctx, req)
		return rep, hinted(req, err)
	}
}

// maxWho is the longest name forWho shows: a character name's limit.
const maxWho = 32

// forWho names the character a roll was made for, when it is not the
// sender's active one: "Orc: 🎲 …".
//
// who is the word as typed, and a roll that reads no sheet never looks the
// character up: it is cleaned (no bidirectional or zero-width character
// can turn the bot's line around) and cut to a character name's length.
func forWho(rep *reply.Reply, who string) *reply.Reply {
	who = fold.Cut(fold.Clean(strings.TrimPrefix(who, "@")), maxWho)
	if rep == nil || who == "" || len(rep.Lines) == 0 {
		return rep
	}
	rep.Lines[0] = append(reply.Line{reply.B(who + ": ")}, rep.Lines[0]...)
	return rep
}

// clip keeps user text in error messages short.
func clip(s string) string { return fold.CutWord(s, 31) }

// capFirst capitalizes the first letter, for a name that starts a line.
func capFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+utf8.RuneLen(r):]
	}
	return s
}

// newCheck fills the machine-readable facts of a roll. dice are the faces
// rolled (1..N, replayable with --dice); sides gives each die's N (a single
// value stands for every die).
func newCheck(system, outcome string, dice []int, sides ...int) *reply.Check {
	if dice == nil {
		dice = []int{}
	}
	s := make([]int, len(dice))
	for i := range s {
		switch {
		case i < len(sides):
			s[i] = sides[i]
		case len(sides) == 1:
			s[i] = sides[0]
		}
	}
	return &reply.Check{System: system, Outcome: outcome, Dice: dice, Sides: s}
}

// repeat returns n copies of v.
func repeat(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func setChance(c *reply.Check, p *big.Rat) {
	f, _ := p.Float64()
	c.Chance = &f
	c.ChanceExact = p.RatString()
	if !strings.Contains(c.ChanceExact, "/") {
		c.ChanceExact += "/1"
	}
}

func intp(v int) *int { return &v }

// finish adds the buttons: 🎲 again to every check that rolled dice, and
// 📊 to a check whose system has a distribution to draw (Charted) and that
// is one of the checks drawn (charted: a Dungeon Hack attack, not its
// usage die): the picture of that check, with its result marked, rolled
// again never (roll.RegisterSystemOdds). Every check states its exact
// chance in its reply, in its last line; "?" is still accepted and
// changes nothing.
func finish(req *command.Request, rep *reply.Reply, charted bool) *reply.Reply {
	if rep.Check != nil && len(rep.Check.Dice) > 0 { // nothing to roll again in "/dh pen 17"
		rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonAgain, Label: req.T("sys.button.again")})
		if charted && slices.Contains(Charted(), rep.Check.System) {
			rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonOdds, Label: req.T("dice.button.odds")})
		}
	}
	return rep
}

// oddsLine is "Probabilidad: 45 %".
func oddsLine(req *command.Request, key string, p *big.Rat) reply.Line {
	return reply.Line{reply.T("📊 " + req.T(key, "pct", req.Percent(p)))}
}

// keyword is a word that needs a value after it ("dc" 15, "vs" 4+4, a
// Daegon "d" 3), and what to suggest when it has none.
type keyword struct {
	is     func(string) bool
	sample func(*command.Request) string // the value to suggest
	glued  bool                          // "dc15", not "dc 15"
}

var (
	kwVs = func(sample func(*command.Request) string) keyword {
		return keyword{is: isVs, sample: sample}
	}
	kwDC = func(n string) keyword {
		return keyword{is: func(w string) bool {
			switch fold.Key(w) {
			case "dc", "cd", "δκ":
				return true
			}
			return false
		}, sample: func(*command.Request) string { return n }, glued: true}
	}
)

func sampleText(s string) func(*command.Request) string {
	return func(*command.Request) string { return s }
}

// missingValue is a clear error for a keyword left without its value
// ("/kh 6 dc", "/zaria 4+2 vs"): it names the word and shows the command
// as typed with a value where it was missing. A keyword is without value
// when it ends the words or another keyword follows it.
func missingValue(req *command.Request, toks []string, kws ...keyword) error {
	isKW := func(w string) (keyword, bool) {
		for _, k := range kws {
			if k.is(w) {
				return k, true
			}
		}
		return keyword{}, false
	}
	for i, t := range toks {
		k, ok := isKW(t)
		if !ok || i == 0 { // the first word is what is rolled, never a keyword
			continue
		}
		if i+1 < len(toks) {
			if _, next := isKW(toks[i+1]); !next {
				continue
			}
		}
		fixed := append([]string{}, toks[:i]...)
		if k.glued {
			fixed = append(fixed, t+k.sample(req))
		} else {
			fixed = append(fixed, t, k.sample(req))
		}
		fixed = append(fixed, toks[i+1:]...)
		example := req.TypedPrefix() + cmp.Or(req.Alias, req.Name) + " " + strings.Join(fixed, " ")
		return command.Errorf("sys.error.needs_value", "word", clip(t), "example", clip2(example))
	}
	return nil
}

// clip2 keeps a suggested command short enough to read on a phone.
func clip2(s string) string { return fold.CutWord(s, 81) }

// num writes an integer with the typographic minus sign: "−40", "12".
func num(n int) string {
	if n < 0 {
		// Not strconv.Itoa(-n): -n overflows for the smallest int, which a
		// sheet value may hold ("−-9223372036854775808").
		return "−" + strings.TrimPrefix(strconv.Itoa(n), "-")
	}
	return strconv.Itoa(n)
}
