package dice

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core/fold"
)

// Parse reads the notation into an expression tree. It never evaluates
// anything and never calls out: named values are resolved by Roll and Odds.
// Every problem is an *Error.
func Parse(text string) (*Expr, error) {
	if len(text) > MaxInput { // never fewer bytes than characters
		if n := utf8.RuneCountInString(text); n > MaxInput {
			return nil, errLimit(CodeTooLong, MaxInput, n)
		}
	}
	text = fold.StripInvisible(text)
	b := &exprBlock{e: Expr{Repeat: 1}}
	p := &parser{src: text, e: &b.e, spare: &b.d}
	p.e.dice = p.e.diceBuf[:0]
	p.lx.src = text
	if err := p.parse(); err != nil {
		return nil, sortFirst(text, err)
	}
	return p.e, nil
}

// sortGlued is a dice term whose sort (s, sa, sd) comes before, and glued
// to, the letters of another modifier: 4d6sdkh3, 8d6sro1.
var sortGlued = regexp.MustCompile(`(?i)^(.*[0-9%f])(s[ad]?)((?:k[hl]?|d[hl]|ro?|f)[0-9<>=].*|(?:k[hl]?|d[hl]|ro?))$`)

// sortFirst turns a syntax error on a term written with its sort before
// another modifier into CodeSortFirst, with text rewritten with that
// term sorted last as what to type: the letters can't be split safely
// (sdh1 is s dh1 or sd h1). Only a rewritten text that parses is offered.
func sortFirst(text string, err error) error {
	e, ok := err.(*Error)
	if !ok || e.Code != CodeSyntax || e.Pos < 0 || e.Pos >= len(text) || e.Near == "" {
		return err
	}
	start := -1 // where Near, the term around Pos, starts
	for i := e.Pos; i >= 0; i-- {
		if strings.HasPrefix(text[i:], e.Near) {
			start = i
			break
		}
	}
	m := sortGlued.FindStringSubmatch(e.Near)
	if start < 0 || m == nil {
		return err
	}
	want := text[:start] + m[1] + m[3] + m[2] + text[start+len(e.Near):]
	if _, perr := Parse(want); perr != nil {
		return err // 4d6sdkh9, 10d10sdf1: the rewritten text breaks another rule
	}
	return &Error{Code: CodeSortFirst, Near: e.Near, Pos: e.Pos, Want: strings.TrimSpace(want)}
}

type parser struct {
	src     string
	lx      lexer
	e       *Expr
	spare   *Dice // the first dice term's node, allocated with the Expr
	at      int   // lexer position before the current token
	tok     token
	have    bool
	hmod    bool
	depth   int
	nodes   int
	draws   int
	inGroup bool // inside a grouped roll's braces
}

// peek returns the current token lexed in the given mode. It points to
// p.tok, which the next peek after advance overwrites: read what you need
// before.
func (p *parser) peek(mod bool) *token {
	if p.have && p.hmod == mod {
		return &p.tok // small enough to inline: most peeks are this
	}
	return p.lex(mod)
}

// lex reads the current token in the given mode into p.tok.
func (p *parser) lex(mod bool) *token {
	p.lx.pos = p.at
	p.lx.next(&p.tok, mod, false)
	p.have, p.hmod = true, mod
	return &p.tok
}

func (p *parser) advance() {
	p.at = p.tok.end
	p.lx.pos = p.at
	p.have = false
}

// text is the token's source text.
func (p *parser) text(t *token) string { return p.src[t.pos:t.end] }

func (p *parser) unexpected(t *token) *Error {
	switch t.kind {
	case tEOF:
		return errAt(CodeUnexpectedEnd, t.pos, strings.TrimSpace(p.src))
	case tCmp:
		return errAt(CodeCompareOutside, t.pos, p.text(t))
	case tBad:
		if strings.HasPrefix(p.text(t), "[") {
			return errAt(CodeUnclosed, t.pos, "[")
		}
	case tRParen, tHash, tQuestion, tStar, tSlash, tPlus, tExplode, tLParen, tLBrace, tRBrace, tComma:
		return errAt(CodeSyntax, t.pos, p.text(t))
	}
	return errAt(CodeSyntax, t.pos, p.near(t.pos))
}

// nearRunes is how many characters an error quote keeps on each side of
// the place it points at: enough for any word a player types (a Greek
// "πλεονέκτημα" is 11 letters, 22 bytes), and a longer run is cut with "…".
const nearRunes = 24

// near is the word at pos, for error messages: it stops at a space or an
// operator, counts characters (not bytes, so a Greek word is never cut in
// half), and marks with "…" a side it had to cut.
func (p *parser) near(pos int) string {
	start, cutStart := pos, false
	for k := 0; start > 0; k++ {
		r, n := utf8.DecodeLastRuneInString(p.src[:start])
		if unicode.IsSpace(r) || strings.ContainsRune("+-*/(){},", r) {
			break
		}
		if k == nearRunes {
			cutStart = true
			break
		}
		start -= n
	}
	end, cutEnd := pos, false
	for k := 0; end < len(p.src); k++ {
		r, n := utf8.DecodeRuneInString(p.src[end:])
		if unicode.IsSpace(r) || (end > pos && strings.ContainsRune("+-*/(){},", r)) {
			break
		}
		if k == nearRunes {
			cutEnd = true
			break
		}
		end += n
	}
	if end == start && end < len(p.src) {
		_, n := utf8.DecodeRuneInString(p.src[end:])
		end += n
	}
	s := p.src[start:end]
	if cutStart {
		s = "…" + s
	}
	if cutEnd {
		s += "…"
	}
	return s
}

func (p *parser) parse() error {
	s := p.src
	// N#expr: digits glued to '#' at the very start.
	lead := len(s) - len(strings.TrimLeftFunc(s, unicode.IsSpace))
	i := lead
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > lead && i < len(s) && s[i] == '#' {
		n := 0
		for _, c := range s[lead:i] {
			if n <= MaxRepeat {
				n = n*10 + int(c-'0')
			}
		}
		if n < 1 || n > MaxRepeat {
			return errLimit(CodeRepeat, MaxRepeat, n)
		}
		p.e.Repeat = n
		p.at = i + 1
	}
	if t := p.peek(false); t.kind == tEOF || t.kind == tHash || t.kind == tQuestion {
		if t.kind == tEOF && p.e.Repeat == 1 {
			return errAt(CodeEmpty, 0, "")
		}
		return p.unexpected(t)
	}
	exprStart := p.peek(false).pos
	root, err := p.additive()
	if err != nil {
		return err
	}
	p.e.Root = root
	p.e.Text = fold.Clean(s[exprStart:p.at]) // echoed in the reply: one line, nothing invisible
	if t := p.peek(false); t.kind == tTarget {
		p.advance()
		ts := p.peek(false).pos
		nd, ng := len(p.e.dice), len(p.e.groups())
		target, err := p.additive()
		if err != nil {
			return err
		}
		if len(p.e.dice) != nd || len(p.e.groups()) != ng {
			return errAt(CodeTargetDice, ts, strings.TrimSpace(s[ts:p.at]))
		}
		// A bracket label after the target labels the whole roll.
		switch n := target.(type) {
		case *Num:
			p.e.Label, n.Label = n.Label, ""
		case *Name:
			p.e.Label, n.Label = n.Label, ""
		}
		p.e.Target = target
		p.e.TargetText = strings.TrimSpace(s[ts:p.at])
		if p.e.Label != "" {
			p.e.TargetText = strings.TrimSpace(p.e.TargetText[:strings.IndexByte(p.e.TargetText, '[')])
		}
	}
	if t := p.peek(false); t.kind == tLabel {
		if err := p.setLabel(&p.e.Label, t); err != nil {
			return err
		}
		p.advance()
	}
	if t := p.peek(false); t.kind == tQuestion {
		p.e.Ask = true
		p.advance()
	}
	if t := p.peek(false); t.kind == tHash {
		// A label is shown beside the bot's own lines: one line, no
		// controls or invisible characters (fold.Clean).
		label := fold.Clean(s[t.end:])
		for _, q := range []string{"?", ";", "\u037e"} {
			// "¿...?" is a Spanish question inside the label, not a request for odds.
			if strings.HasSuffix(label, q) && !(q == "?" && strings.Count(label, "?") <= strings.Count(label, "¿")) {
				p.e.Ask = true
				label = strings.TrimSpace(strings.TrimSuffix(label, q))
				break
			}
		}
		if n := utf8.RuneCountInString(label); n > MaxLabel {
			return errLimit(CodeLabelTooLong, MaxLabel, n)
		}
		if label != "" {
			p.e.Label = label
		}
		return nil
	}
	if t := p.peek(false); t.kind != tEOF {
		return p.unexpected(t)
	}
	return nil
}

func (p *parser) setLabel(dst *string, t *token) error {
	text := p.text(t)
	label := fold.Clean(text[1 : len(text)-1])
	if n := utf8.RuneCountInString(label); n > MaxLabel {
		return errLimit(CodeLabelTooLong, MaxLabel, n)
	}
	*dst = label
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return errLimit(CodeTooDeep, MaxDepth, p.depth)
	}
	return nil
}

func (p *parser) additive() (Node, error) {
	l, err := p.multiplicative()
	if err != nil {
		return nil, err
	}
	for {
		k := p.peek(false).kind
		if k != tPlus && k != tMinus {
			return l, nil
		}
		p.advance()
		r, err := p.multiplicative()
		if err != nil {
			return nil, err
		}
		op := Add
		if k == tMinus {
			op = Sub
		}
		l = &Binary{Op: op, L: l, R: r}
	}
}

func (p *parser) multiplicative() (Node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		k := p.peek(false).kind
		if k != tStar && k != tSlash && k != tMod {
			return l, nil
		}
		p.advance()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		op := Mul
		switch k {
		case tSlash:
			op = Div
		case tMod:
			op = Mod
		}
		l = &Binary{Op: op, L: l, R: r}
	}
}

// unary parses signs and a primary. Each sign is one level of nesting,
// like each parenthesis or function call (see group): the depth counted
// is what the user typed, not how deep the tree comes out.
func (p *parser) unary() (Node, error) {
	// The kind is read now: peek's token is overwritten by the next one
	// (a "-" read after its operand was the "+" that followed it, and
	// "-10+1" came out as 10 + 1).
	switch kind := p.peek(false).kind; kind {
	case tMinus, tPlus:
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		p.advance()
		x, err := p.unary()
		if err != nil || kind == tPlus {
			return x, err
		}
		return &Unary{Op: Sub, X: x}, nil
	}
	return p.power()
}

// power parses a primary and, after "**", its exponent: a sign and
// another power (2**3**2 is 2**9; -2**2 is −4, as in Python).
func (p *parser) power() (Node, error) {
	x, err := p.primary()
	if err != nil || p.peek(false).kind != tPow {
		return x, err
	}
	p.advance()
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	y, err := p.unary()
	if err != nil {
		return nil, err
	}
	return &Binary{Op: Pow, L: x, R: y}, nil
}

func (p *parser) count() error {
	p.nodes++
	if p.nodes > MaxNodes {
		return errLimit(CodeTooManyTerms, MaxNodes, p.nodes)
	}
	return nil
}

func (p *parser) primary() (Node, error) {
	t := p.peek(false)
	switch t.kind {
	case tNum:
		if err := p.count(); err != nil {
			return nil, err
		}
		if t.num > MaxNumber {
			return nil, &Error{Code: CodeNumberTooBig, Pos: t.pos, Near: p.text(t), Max: MaxNumber}
		}
		pos, v := t.pos, t.num
		p.advance()
		if p.lx.dieAfterCount() {
			_, n := p.lx.peekRune(p.at)
			p.at += n
			return p.diceX(pos, int(v), nil)
		}
		if p.at < len(p.src) && p.src[p.at]|0x20 >= 'a' && p.src[p.at]|0x20 <= 'z' || p.at < len(p.src) && p.src[p.at] == '!' {
			if t := p.peek(true); modifierNext(t) && t.kind != tCmp && t.kind != tFail && t.kind != tSort {
				return nil, p.modifierAfter(pos, false) // 2d6+3kh1
			}
		}
		n := &Num{V: v}
		return n, p.optLabel(&n.Label)
	case tDie:
		if err := p.count(); err != nil {
			return nil, err
		}
		pos := t.pos
		p.advance()
		return p.diceX(pos, 1, nil)
	case tIdent:
		if err := p.count(); err != nil {
			return nil, err
		}
		text := p.text(t)
		p.advance()
		n := &Name{Name: text, idx: len(p.e.names)}
		if text[0] == '@' { // @Who.name or @Who:name
			sep := strings.IndexAny(text, ".:")
			n.Who, n.Name = text[1:sep], text[sep+1:]
		}
		if utf8.RuneCountInString(text) > maxNameLen {
			return nil, errLimit(CodeNameTooLong, maxNameLen, utf8.RuneCountInString(text))
		}
		p.e.names = append(p.e.names, n)
		return n, p.optLabel(&n.Label)
	case tFunc:
		fn := t.fn()
		p.advance()
		if o := p.peek(false); o.kind != tLParen {
			return nil, p.unexpected(o)
		}
		if fn == Max || fn == Min {
			return p.args(fn)
		}
		x, err := p.group()
		if err != nil {
			return nil, err
		}
		return &Call{Fn: fn, X: x}, nil
	case tLParen:
		start := p.peek(false).pos
		x, err := p.group()
		if err != nil {
			return nil, err
		}
		if !p.lx.dieAfterCount() {
			if t := p.peek(true); t.kind == tKeep || t.kind == tReroll || t.kind == tExplode {
				if t.glue {
					return nil, p.modifierAfter(start, true) // (4d6)kh3
				}
			}
			return x, nil
		}
		// (1d4)d6: a rolled number of dice
		if err := p.count(); err != nil {
			return nil, err
		}
		_, n := p.lx.peekRune(p.at)
		p.at += n
		p.have = false
		return p.diceX(start, 0, x)
	case tLBrace:
		return p.braces()
	}
	return nil, p.unexpected(t)
}

// args parses max( ) or min( ): one to MaxItems expressions separated
// by commas; the current token is '('.
func (p *parser) args(fn Func) (Node, error) {
	open := p.peek(false).pos
	p.advance()
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	c := &Call{Fn: fn}
	for {
		x, err := p.additive()
		if err != nil {
			return nil, err
		}
		if c.X == nil {
			c.X = x
		} else {
			c.More = append(c.More, x)
		}
		t := p.peek(false)
		if t.kind == tComma {
			p.advance()
			continue
		}
		if t.kind == tRParen {
			p.advance()
			break
		}
		if t.kind == tEOF {
			return nil, errAt(CodeUnclosed, open, "(")
		}
		return nil, p.unexpected(t)
	}
	if n := 1 + len(c.More); n > MaxItems {
		return nil, &Error{Code: CodeTooManyArgs, Pos: open, Near: fn.String() + "(", Max: MaxItems, Got: n}
	}
	return c, nil
}

// braces parses a grouped roll "{a, b, …}" with its modifiers and label;
// the current token is '{'. A group inside a group is refused.
func (p *parser) braces() (Node, error) {
	open := p.peek(false).pos
	if p.inGroup {
		return nil, errAt(CodeGroupNested, open, "{")
	}
	if err := p.count(); err != nil {
		return nil, err
	}
	p.advance()
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.inGroup = true
	first := len(p.e.dice)
	if p.e.grp == nil {
		p.e.grp = &groupSet{}
	}
	g := &Group{off: p.e.grp.items}
	for {
		x, err := p.additive()
		if err != nil {
			return nil, err
		}
		g.Items = append(g.Items, x)
		c := p.peek(false)
		if c.kind == tComma {
			p.advance()
			continue
		}
		if c.kind == tRBrace {
			p.advance()
			break
		}
		if c.kind == tEOF {
			return nil, errAt(CodeUnclosed, open, "{")
		}
		return nil, p.unexpected(c)
	}
	if len(g.Items) > MaxItems { // all of them read, to say how many
		return nil, &Error{Code: CodeGroupTooBig, Pos: open, Near: "{", Max: MaxItems, Got: len(g.Items)}
	}
	p.inGroup = false
	p.depth--
	g.terms = p.e.dice[first:len(p.e.dice):len(p.e.dice)]
	if err := p.groupModifiers(g); err != nil {
		return nil, err
	}
	g.Text = strings.TrimSpace(p.src[open:p.at])
	if err := p.optLabel(&g.Label); err != nil {
		return nil, err
	}
	if err := g.check(open); err != nil {
		return nil, err
	}
	p.e.grp.items += int32(len(g.Items))
	p.e.grp.list = append(p.e.grp.list, g)
	return g, nil
}

// groupModifiers reads a group's kh/kl/dh/dl N, success condition and f.
func (p *parser) groupModifiers(g *Group) error {
	for {
		var err error
		switch t := p.peek(true); t.kind {
		case tKeep:
			err = p.keepSpec(&g.Keep)
		case tCmp:
			err = p.success(&g.Success, &g.succ)
		case tFail:
			// a group's f needs its compare point: f1, f<=3
			err = p.failure(&g.Failure, &g.fail, Cond{})
		default:
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// check decides how a group acts and rejects what it cannot do: a keep
// count out of range, failures without successes, and, with one
// expression and a modifier (which acts on the dice), anything but dice
// terms without their own keep or condition added together, with
// numbers and names added only when it keeps or drops.
func (g *Group) check(pos int) error {
	dice := g.terms
	if g.Failure != nil && g.Success == nil {
		return errAt(CodeFailureAlone, pos, g.Text)
	}
	units := len(g.Items)
	if len(g.Items) == 1 && g.Keep.Mode == NoKeep && g.Success != nil && !perDieSum(g.Items[0], false) {
		// {3d20+5}>21 (Roll20's example): one total, compared as a group
		// of several expressions compares each
		return nil
	}
	if len(g.Items) == 1 && g.Modified() {
		g.PerDie = true
		units = 0
		for _, d := range dice {
			units += d.Count
		}
		if !perDieSum(g.Items[0], g.Success == nil) || len(dice) == 0 {
			return errAt(CodeGroupPerDie, pos, g.Text)
		}
		for _, d := range dice {
			if d.Keep.Mode != NoKeep || d.Success != nil {
				return errAt(CodeGroupPerDie, pos, g.Text)
			}
		}
	}
	code := CodeGroupKeep
	if g.PerDie {
		code = CodeKeepCount // of dice
	}
	return g.Keep.check(units, code, pos, g.Text)
}

// check refuses a keep of fewer than 1, or a drop of all the units there
// are, with code. A keep of more than there are keeps them all (Roll20's
// 2d6kh3).
func (k Keep) check(units int, code string, pos int, near string) error {
	switch k.Mode {
	case KeepHigh, KeepLow:
		if k.N < 1 {
			return &Error{Code: code, Pos: pos, Near: near, Max: units, Got: k.N}
		}
	case DropHigh, DropLow:
		if k.N >= units {
			return &Error{Code: code, Pos: pos, Near: near, Max: units, Got: k.N}
		}
	}
	return nil
}

// bounds is the lowest and highest value n can take, when it has no
// names, groups or explosions (ok false otherwise): what a rolled number
// of dice or sides is checked against before rolling.
func bounds(n Node) (lo, hi int64, ok bool) {
	switch n := n.(type) {
	case *Num:
		return n.V, n.V, true
	case *Dice:
		if n.Explode.Mode != NoExplode || n.CountX != nil || n.SidesX != nil {
			return 0, 0, false
		}
		c := int64(n.Count)
		if n.Pool() {
			return -c, c, true
		}
		vlo, vhi := int64(n.Clamp(n.Min())), int64(n.Clamp(n.Max()))
		lo, hi = c*vlo, c*vhi
		if n.Keep.Mode != NoKeep { // fewer dice count
			lo, hi = min(lo, 0, vlo), max(hi, 0, vhi)
		}
		return lo, hi, true
	case *Unary:
		lo, hi, ok = bounds(n.X)
		return -hi, -lo, ok
	case *Call:
		lo, hi, ok = bounds(n.X)
		for _, x := range n.More {
			l, h, ok2 := bounds(x)
			ok = ok && ok2
			if n.Fn == Max {
				lo, hi = max(lo, l), max(hi, h)
			} else {
				lo, hi = min(lo, l), min(hi, h)
			}
		}
		if n.Fn == Abs {
			if lo < 0 {
				lo, hi = 0, max(-lo, hi)
			}
		} else if n.Fn == Ceil || n.Fn == Round {
			hi++
		}
		return lo, hi, ok
	case *Binary:
		a, b, ok1 := bounds(n.L)
		c, d, ok2 := bounds(n.R)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		switch n.Op {
		case Add:
			return a + c, b + d, true
		case Sub:
			return a - d, b - c, true
		case Mul, Div:
			if n.Op == Div && c <= 0 && d >= 0 {
				return 0, 0, false
			}
			lo, hi = int64(MaxMagnitude), int64(-MaxMagnitude)
			for _, x := range [2]int64{a, b} {
				for _, y := range [2]int64{c, d} {
					v, err := arith(n.Op, x, y, Floor)
					if err != nil {
						return 0, 0, false
					}
					lo, hi = min(lo, v), max(hi, v)
				}
			}
			return lo, hi, true
		case Mod:
			m := max(abs64(c), abs64(d)) - 1
			return min(0, max(a, -m)), max(0, min(b, m)), m >= 0
		}
	}
	return 0, 0, false
}

// perDieSum reports whether n is dice terms (and, when consts, numbers
// and names) joined by '+'.
func perDieSum(n Node, consts bool) bool {
	switch n := n.(type) {
	case *Dice:
		return true
	case *Num, *Name:
		return consts
	case *Binary:
		return n.Op == Add && perDieSum(n.L, consts) && perDieSum(n.R, consts)
	}
	return false
}

// group parses "( expr )"; the current token is '('.
func (p *parser) group() (Node, error) {
	open := p.peek(false).pos
	p.advance()
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	x, err := p.additive()
	if err != nil {
		return nil, err
	}
	if c := p.peek(false); c.kind != tRParen {
		if c.kind == tEOF {
			return nil, errAt(CodeUnclosed, open, "(")
		}
		return nil, p.unexpected(c)
	}
	p.advance()
	return x, nil
}

func (p *parser) optLabel(dst *string) error {
	if t := p.peek(false); t.kind == tLabel {
		// A bracket label at the very end, after a target, belongs to the
		// expression; here it belongs to the term just read.
		if err := p.setLabel(dst, t); err != nil {
			return err
		}
		p.advance()
	}
	return nil
}

// diceX parses the sides and modifiers of a term whose count and die
// letter were read; start is where the term began. countX is a rolled
// number of dice, (1d4)d6, nil when count was written.
func (p *parser) diceX(start, count int, countX Node) (Node, error) {
	d := p.spare
	if d != nil {
		p.spare = nil
	} else {
		d = new(Dice)
	}
	d.DiceMore = noMore
	d.Count, d.pos = count, uint16(start)
	p.lx.pos = p.at
	var st token
	p.lx.next(&st, false, true)
	if !st.glue {
		return nil, errAt(CodeSyntax, start, p.near(start))
	}
	if countX != nil {
		// the limits and the budget cover the most dice it can roll
		near := strings.TrimSpace(p.src[start:st.end])
		lo, hi, ok := bounds(countX)
		switch {
		case !ok:
			return nil, errAt(CodeRolledBound, start, near)
		case hi > MaxDice:
			return nil, &Error{Code: CodeTooManyDice, Pos: start, Near: near, Max: MaxDice, Got: int(min(hi, MaxNumber))}
		case lo < 0:
			return nil, errAt(CodeNoDice, start, near)
		}
		d.more().CountX, d.Count = countX, max(int(hi), 1)
	}
	switch st.kind {
	case tNum:
		if st.num > MaxSides {
			return nil, &Error{Code: CodeTooManySides, Pos: st.pos, Near: p.src[start:st.end], Max: MaxSides, Got: int(min(st.num, MaxNumber))}
		}
		d.Sides = int(st.num)
		p.at, p.have = st.end, false
	case tPercent:
		d.Sides = 100
		p.at, p.have = st.end, false
	case tFudge:
		d.Sides, d.Fudge = 3, true
		p.at, p.have = st.end, false
	case tLParen: // 2d(1d6): a rolled number of sides
		p.at, p.have = st.pos, false
		x, err := p.group()
		if err != nil {
			return nil, err
		}
		lo, hi, ok := bounds(x)
		switch {
		case !ok:
			return nil, errAt(CodeRolledBound, start, p.src[start:p.at])
		case hi > MaxSides:
			return nil, &Error{Code: CodeTooManySides, Pos: start, Near: p.src[start:p.at], Max: MaxSides, Got: int(min(hi, MaxNumber))}
		case lo < 1:
			return nil, errAt(CodeNoSides, start, p.src[start:p.at])
		}
		d.more().SidesX, d.Sides = x, int(hi)
	default:
		return nil, errAt(CodeSyntax, start, p.near(start))
	}
	if d.Count == 0 {
		return nil, errAt(CodeNoDice, start, p.src[start:p.at])
	}
	if d.Count > MaxDice {
		return nil, &Error{Code: CodeTooManyDice, Pos: start, Near: p.src[start:p.at], Max: MaxDice, Got: d.Count}
	}
	if d.Sides == 0 {
		return nil, errAt(CodeNoSides, start, p.src[start:p.at])
	}
	if err := p.modifiers(d); err != nil {
		return nil, err
	}
	d.Text = strings.TrimSpace(p.src[start:p.at])
	labelAt := p.peek(false).pos
	if err := p.optLabel(&d.Label); err != nil {
		return nil, err
	}
	if d.Label != "" && modifierNext(p.peek(true)) {
		return nil, p.labelFirst(start, labelAt, d)
	}
	if err := d.check(start); err != nil {
		return nil, err
	}
	d.idx = int16(len(p.e.dice)) // after the dice of a rolled number of sides
	p.e.dice = append(p.e.dice, d)
	if len(p.e.dice) > MaxGroups {
		return nil, errLimit(CodeTooManyGroups, MaxGroups, len(p.e.dice))
	}
	p.draws += d.Count
	p.e.slots += int32(d.Count)
	if d.Explode.Mode == Explode || d.Explode.Mode == Penetrate {
		p.e.slots += int32(d.Count) // room for a few explosions
	}
	if p.draws*p.e.Repeat > MaxDraws {
		return nil, errLimit(CodeTooManyDraws, MaxDraws, p.draws*p.e.Repeat)
	}
	return d, nil
}

func (p *parser) modifiers(d *Dice) error {
	start := int(d.pos)
	for {
		var err error
		switch t := p.peek(true); t.kind {
		case tExplode:
			if err = p.dup(d.Explode.Mode != NoExplode); err != nil {
				return err
			}
			d.Explode.Mode = t.expl()
			p.advance()
			d.Explode.If, err = p.cond(Cond{Op: EQ, V: int32(d.Max())})
		case tReroll:
			if d.Reroll.On && d.Reroll.Once != t.once() {
				// 8d6r1ro2: which of the two holds for a face?
				return errAt(CodeRerollMixed, start, p.upTo(start, t))
			}
			more := d.Reroll.On
			d.Reroll.On, d.Reroll.Once = true, t.once()
			p.advance()
			var c Cond
			if c, err = p.cond(Cond{Op: EQ, V: int32(d.Min())}); err == nil {
				if more { // several reroll points: 8d6r2r4r6
					m := d.more()
					m.RerollMore = append(m.RerollMore, c)
				} else {
					d.Reroll.If = c
				}
			}
		case tKeep:
			if d.Keep.Mode != NoKeep {
				return p.keepTwice(start, t)
			}
			err = p.keepSpec(&d.Keep)
		case tCmp:
			err = p.success(&d.Success, &d.succ)
		case tFail:
			err = p.failure(&d.Failure, new(Cond), Cond{Op: EQ, V: int32(d.Min())})
		case tSort:
			if err = p.dup(d.Sort != NoSort); err != nil {
				return err
			}
			d.Sort = t.sort()
			p.advance()
		case tBound:
			b := &d.more().MinFace
			if t.high() {
				b = &d.more().MaxFace
			}
			if err = p.dup(b.On); err != nil {
				return err
			}
			p.advance()
			var c Cond
			if c, err = p.cond(Cond{}); err == nil {
				if c.Op != EQ { // 4d6min2, not 4d6min>2
					return errAt(CodeSyntax, start, strings.TrimSpace(p.src[start:p.at]))
				}
				*b = Bound{On: true, V: int(c.V)}
			}
		case tCrit:
			c := &d.more().CritFail
			if t.high() {
				c = &d.more().CritSuccess
			}
			if err = p.dup(c.Op != 0); err != nil {
				return err
			}
			p.advance()
			*c, err = p.cond(Cond{})
		default:
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// keepTwice is the error for a second keep or drop on one term (t):
// 4d6dl1kh2 keeps or drops twice, which one term cannot.
func (p *parser) keepTwice(start int, t *token) error {
	return errAt(CodeKeepTwice, start, p.upTo(start, t))
}

// upTo is the text from start through the modifier t and the number or
// compare point glued to it: what an error about t quotes.
func (p *parser) upTo(start int, t *token) string {
	end := t.end
	p.lx.pos = t.end
	var n token
	if p.lx.next(&n, true, false); n.kind == tCmp && n.glue {
		p.lx.next(&n, true, false)
	}
	if n.kind == tNum && n.glue {
		end = n.end
	}
	return strings.TrimSpace(p.src[start:end])
}

// modifierNext reports whether t, read in modifier mode, is a term's
// modifier glued to what comes before it.
func modifierNext(t *token) bool {
	switch t.kind {
	case tKeep, tReroll, tExplode, tFail, tSort, tBound, tCrit:
		return t.glue
	case tCmp:
		return t.glue
	}
	return false
}

// labelFirst is the error for a term whose label comes before some of its
// modifiers (4d6[fuego]kh3): the label goes last. It offers the roll with
// the label moved after them, when that parses.
func (p *parser) labelFirst(start, labelAt int, d *Dice) error {
	labelEnd := p.at
	if err := p.modifiers(d); err != nil {
		return errAt(CodeSyntax, labelAt, p.near(labelAt))
	}
	mods := p.src[labelEnd:p.at]
	want := p.src[:labelAt] + mods + p.src[labelAt:labelEnd] + p.src[p.at:]
	e := &Error{Code: CodeOrder, Pos: start, Near: strings.TrimSpace(p.src[start:p.at])}
	if _, err := Parse(want); err == nil {
		e.Want = strings.TrimSpace(want)
	}
	return e
}

// modifierAfter is the error for a modifier written after a number or a
// closing parenthesis instead of right after dice (2d6+3kh1, (4d6)kh3);
// for a parenthesis it offers braces, a grouped roll, when that parses.
func (p *parser) modifierAfter(start int, paren bool) error {
	t := p.peek(true)
	end := t.end
	p.lx.pos = t.end
	var n token
	if p.lx.next(&n, true, false); (n.kind == tNum || n.kind == tCmp) && n.glue {
		end = n.end
	}
	e := &Error{Code: CodeOrder, Pos: start, Near: strings.TrimSpace(p.src[start:end])}
	if paren {
		inner := p.src[start:p.at]
		want := p.src[:start] + "{" + inner[1:len(inner)-1] + "}" + p.src[p.at:]
		if _, err := Parse(want); err == nil {
			e.Want = strings.TrimSpace(want)
		}
	}
	p.have = false
	return e
}

// The modifiers a dice term and a group share. Each is called on its
// current token and refuses it when the term or group has it already.

// dup is the error for the current token when seen: a modifier given twice.
func (p *parser) dup(seen bool) error {
	if seen {
		return errAt(CodeDuplicate, p.tok.pos, p.text(&p.tok))
	}
	return nil
}

// keepSpec reads kh/kl/dh/dl (or k) and its count, 1 when none is glued.
func (p *parser) keepSpec(k *Keep) error {
	if err := p.dup(k.Mode != NoKeep); err != nil {
		return err
	}
	k.Mode, k.N = p.tok.keep(), 1
	p.advance()
	if n := p.peek(true); n.kind == tNum && n.glue {
		k.N = int(min(n.num, MaxNumber+1))
		p.advance()
	}
	return nil
}

// success reads a success condition (">=5") into *at and points *dst to it.
func (p *parser) success(dst **Cond, at *Cond) error {
	if err := p.dup(*dst != nil); err != nil {
		return err
	}
	c, err := p.cond(Cond{})
	if err != nil {
		return err
	}
	*at, *dst = c, at
	return nil
}

// failure reads f and its compare point (def when it has none, required
// when def is zero) into *at and points *dst to it.
func (p *parser) failure(dst **Cond, at *Cond, def Cond) error {
	if err := p.dup(*dst != nil); err != nil {
		return err
	}
	p.advance()
	c, err := p.cond(def)
	if err != nil {
		return err
	}
	*at, *dst = c, at
	return nil
}

// cond reads an optional compare point: ">=5", "<2", "=6" or a bare "6"
// (equal). def is used when there is none; a zero def means one is required.
func (p *parser) cond(def Cond) (Cond, error) {
	t := p.peek(true)
	c := Cond{Op: EQ}
	switch {
	case t.kind == tCmp && (t.glue || def.Op == 0):
		c.Op = t.cmp()
		p.advance()
		t = p.peek(true)
	case t.kind == tNum && t.glue:
	default:
		if def.Op == 0 {
			return c, p.unexpected(t)
		}
		return def, nil
	}
	neg := false
	if t.kind == tMinus {
		neg = true
		p.advance()
		t = p.peek(true)
	}
	if t.kind != tNum {
		return c, p.unexpected(t)
	}
	if t.num > MaxNumber {
		return c, &Error{Code: CodeNumberTooBig, Pos: t.pos, Near: p.text(t), Max: MaxNumber}
	}
	c.V = int32(t.num)
	p.advance()
	if neg {
		c.V = -c.V
	}
	return c, nil
}

// check rejects terms that cannot be rolled: keep counts out of range,
// failures without successes, rerolls or explosions that never stop.
func (d *Dice) check(pos int) error {
	d.plain = d.Explode.Mode == NoExplode && !d.Reroll.On && d.DiceMore == noMore // no min, max, rolled count or sides
	if d.Failure != nil && d.Success == nil {
		return errAt(CodeFailureAlone, pos, d.Text)
	}
	units := d.Count
	if d.CountX != nil {
		units = MaxDice // a rolled number of dice: a drop may leave none, a keep keeps what there is
		if d.Keep.Mode == DropHigh || d.Keep.Mode == DropLow {
			units = d.Keep.N + 1
		}
	}
	if err := d.Keep.check(units, CodeKeepCount, pos, d.Text); err != nil {
		return err
	}
	if d.SidesX != nil {
		if d.Reroll.On || d.Explode.Mode != NoExplode {
			// which faces a reroll or explosion spares depends on the sides rolled
			return errAt(CodeRolledBound, pos, d.Text)
		}
		return nil
	}
	if d.Reroll.On && !d.Reroll.Once {
		left := 0 // faces that can stay after rerolls
		for v := d.Min(); v <= d.Max(); v++ {
			if !d.Rerolls(v) {
				left++
			}
		}
		if left == 0 {
			return errAt(CodeRerollAlways, pos, d.Text)
		}
	}
	if d.Explode.Mode != NoExplode {
		stops := false
		for v := d.Min(); v <= d.Max(); v++ {
			stay := !d.Reroll.On || d.Reroll.Once || !d.Rerolls(v)
			if stay && !d.Explode.If.Match(v) {
				stops = true
				break
			}
		}
		if !stops {
			return errAt(CodeExplodeAlways, pos, d.Text)
		}
	}
	return nil
}
