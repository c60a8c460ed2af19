package dice

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core/fold"
)

// tokKind is the type of a token.
type tokKind uint8

const (
	tEOF      tokKind = iota
	tNum              // 12
	tDie              // d, D, δ, Δ introducing sides
	tPercent          // % (sides)
	tFudge            // F (sides)
	tIdent            // fuerza, @Drake.fuerza
	tPlus             // +
	tMinus            // - or −
	tStar             // * or × or ·
	tSlash            // / or ÷
	tLParen           // (
	tRParen           // )
	tLabel            // [text]
	tCmp              // = > >= < <=
	tKeep             // k kh kl dh dl
	tReroll           // r ro
	tFail             // f
	tExplode          // ! !! !p
	tTarget           // vs dc cd contra εναντίον κατά
	tFunc             // floor ceil round abs
	tHash             // #
	tQuestion         // ?
	tLBrace           // {
	tRBrace           // }
	tComma            // ,
	tSort             // s sa sd
	tMod              // % between two values
	tPow              // **
	tBound            // min max after a die's sides
	tCrit             // cs cf
	tBad              // anything else
)

// token is one lexeme: src[pos:end] is its text (see parser.text). The
// lexer writes it in place (parser.tok) and the parser reads it there:
// copying tokens around cost more than lexing them.
type token struct {
	num  int64 // tNum (clamped to MaxNumber+1)
	pos  int   // byte offset
	end  int
	kind tokKind
	op   uint8 // by kind: see cmp, keep, once, expl, fn
	glue bool  // no space before this token
}

func (t *token) cmp() CmpOp        { return CmpOp(t.op) }       // tCmp
func (t *token) keep() KeepMode    { return KeepMode(t.op) }    // tKeep
func (t *token) once() bool        { return t.op != 0 }         // tReroll: ro
func (t *token) expl() ExplodeMode { return ExplodeMode(t.op) } // tExplode
func (t *token) fn() Func          { return Func(t.op) }        // tFunc
func (t *token) sort() SortMode    { return SortMode(t.op) }    // tSort
func (t *token) high() bool        { return t.op != 0 }         // tBound: max, tCrit: cs

// lexer reads tokens on demand. The parser says whether it is just after a
// die's sides (modifier mode), where letters are modifiers (kh3, ro1, f1)
// rather than names.
type lexer struct {
	src string
	pos int
}

var keywords = map[string]token{
	"vs":       {kind: tTarget},
	"dc":       {kind: tTarget},
	"cd":       {kind: tTarget},
	"contra":   {kind: tTarget},
	"εναντιον": {kind: tTarget},
	"κατα":     {kind: tTarget},
	"floor":    {kind: tFunc, op: uint8(Floor)},
	"ceil":     {kind: tFunc, op: uint8(Ceil)},
	"round":    {kind: tFunc, op: uint8(Round)},
	"abs":      {kind: tFunc, op: uint8(Abs)},
	"max":      {kind: tFunc, op: uint8(Max)}, // only before '(': see lexWord
	"min":      {kind: tFunc, op: uint8(Min)},
}

// singles are the tokens of one character, whatever follows them.
var singles = [...]struct {
	r    rune
	kind tokKind
}{
	{'+', tPlus}, {'-', tMinus}, {'−', tMinus}, {'–', tMinus},
	{'*', tStar}, {'×', tStar}, {'·', tStar}, {'/', tSlash}, {'÷', tSlash},
	{'(', tLParen}, {')', tRParen}, {'#', tHash},
	{'?', tQuestion}, {';', tQuestion}, {'\u037e', tQuestion}, // ';' and U+037E are the Greek question mark
	{'{', tLBrace}, {'}', tRBrace}, {',', tComma}, // grouped rolls
}

// asciiSingles is singles by byte, for the lexer's common case.
var asciiSingles = func() (a [utf8.RuneSelf]tokKind) {
	for _, s := range singles {
		if s.r < utf8.RuneSelf {
			a[s.r] = s.kind
		}
	}
	return a
}()

// single is the kind of the one-character token r, tEOF when r is none.
func single(r rune) tokKind {
	if r < utf8.RuneSelf {
		return asciiSingles[r]
	}
	for _, s := range singles {
		if s.r == r {
			return s.kind
		}
	}
	return tEOF
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isDieLetter(r rune) bool { return r == 'd' || r == 'D' || r == 'δ' || r == 'Δ' }

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }

func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || isDigit(r) || unicode.Is(unicode.Mn, r)
}

func (l *lexer) peekRune(at int) (rune, int) {
	if at >= len(l.src) {
		return 0, 0
	}
	if c := l.src[at]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(l.src[at:])
}

// next reads the token at the current position into t and advances. mod
// is modifier mode (just after a die's sides); sides is true right after a
// die letter, where '%' and 'F' are sides.
func (l *lexer) next(t *token, mod, sides bool) {
	l.scan(t, mod, sides)
	t.end = l.pos
}

// isSpaceASCII is unicode.IsSpace for bytes below utf8.RuneSelf.
func isSpaceASCII(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// scan is next without the token's end.
func (l *lexer) scan(t *token, mod, sides bool) {
	start := l.pos
	for l.pos < len(l.src) {
		if c := l.src[l.pos]; c < utf8.RuneSelf {
			if !isSpaceASCII(c) {
				break
			}
			l.pos++
			continue
		}
		r, n := utf8.DecodeRuneInString(l.src[l.pos:])
		if !unicode.IsSpace(r) {
			break
		}
		l.pos += n
	}
	*t = token{pos: l.pos, glue: l.pos == start}
	if l.pos >= len(l.src) {
		t.kind = tEOF
		return
	}
	r, n := l.peekRune(l.pos)
	if sides && t.glue {
		switch {
		case r == '%':
			l.pos += n
			t.kind = tPercent
			return
		case r == 'f' || r == 'F':
			l.pos += n
			t.kind = tFudge
			return
		}
	}
	if r == '*' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '*' {
		l.pos += 2
		t.kind = tPow
		return
	}
	if k := single(r); k != tEOF {
		l.pos += n
		t.kind = k
		return
	}
	switch {
	case isDigit(r):
		v := int64(0)
		for l.pos < len(l.src) && isDigit(rune(l.src[l.pos])) {
			if v <= MaxNumber {
				v = v*10 + int64(l.src[l.pos]-'0')
			}
			l.pos++
		}
		t.kind, t.num = tNum, v
		return
	case r == '[':
		end := strings.IndexByte(l.src[l.pos:], ']')
		if end < 0 {
			t.kind = tBad
			l.pos = len(l.src)
			return
		}
		l.pos += end + 1
		t.kind = tLabel
	case r == '=' || r == '>' || r == '<' || r == '≥' || r == '≤':
		l.pos += n
		t.kind = tCmp
		switch r {
		case '=':
			t.op = uint8(EQ)
		case '≥':
			t.op = uint8(GE)
		case '≤':
			t.op = uint8(LE)
		case '>', '<':
			// Roll20's meaning: > is "or greater", < "or less"; >= and <=
			// say the same (docs/dice.md, "Roll20 → zaria").
			t.op = uint8(GE)
			if r == '<' {
				t.op = uint8(LE)
			}
			if l.pos < len(l.src) && l.src[l.pos] == '=' {
				l.pos++
			}
		}
	case r == '!' && mod:
		l.pos += n
		t.kind, t.op = tExplode, uint8(Explode)
		if l.pos < len(l.src) {
			switch l.src[l.pos] {
			case '!':
				l.pos++
				t.op = uint8(Compound)
			case 'p', 'P':
				l.pos++
				t.op = uint8(Penetrate)
			}
		}
	case r == '%':
		l.pos += n
		t.kind = tMod
	case r == '@':
		l.lexName(t)
	case isIdentStart(r):
		if mod && l.lexModifier(t) {
			return
		}
		if isDieLetter(r) {
			r2, _ := l.peekRune(l.pos + n)
			r3, _ := l.peekRune(l.pos + n + 1)
			if isDigit(r2) || r2 == '%' || ((r2 == 'f' || r2 == 'F') && !isIdentRune(r3)) {
				l.pos += n
				t.kind = tDie
				return
			}
		}
		l.lexWord(t)
	default:
		l.pos += n
		t.kind = tBad
	}
	return
}

// parenAt reports whether '(' comes at i, after spaces: max and min are
// functions only there, names elsewhere (a sheet value may be "max").
func (l *lexer) parenAt(i int) bool {
	for i < len(l.src) && isSpaceASCII(l.src[i]) {
		i++
	}
	return i < len(l.src) && l.src[i] == '('
}

// dieAfterCount reports whether a die letter follows directly ("4d6").
func (l *lexer) dieAfterCount() bool {
	r, _ := l.peekRune(l.pos)
	return isDieLetter(r)
}

// lexModifier reads kh3, kl, k, dh, dl, d (glued: drop lowest), r, ro,
// f, s, sa, sd, min, max, cs, cf. The letters must be followed by
// something that is not a letter.
func (l *lexer) lexModifier(t *token) bool {
	end := l.pos
	for end < len(l.src) && end-l.pos < 3 {
		c := l.src[end] | 0x20
		if c < 'a' || c > 'z' {
			break
		}
		end++
	}
	if r, _ := l.peekRune(end); unicode.IsLetter(r) {
		return false
	}
	var low [3]byte // the letters in lower case, without allocating
	for i := l.pos; i < end; i++ {
		low[i-l.pos] = l.src[i] | 0x20
	}
	switch string(low[:end-l.pos]) {
	case "k", "kh":
		t.kind, t.op = tKeep, uint8(KeepHigh)
	case "kl":
		t.kind, t.op = tKeep, uint8(KeepLow)
	case "dh":
		t.kind, t.op = tKeep, uint8(DropHigh)
	case "dl":
		t.kind, t.op = tKeep, uint8(DropLow)
	case "d": // Roll20's bare d: drop lowest (8d100d3), glued to the term
		if !t.glue {
			return false
		}
		t.kind, t.op = tKeep, uint8(DropLow)
	case "min":
		t.kind = tBound
	case "max":
		t.kind, t.op = tBound, 1
	case "cs":
		t.kind, t.op = tCrit, 1
	case "cf":
		t.kind = tCrit
	case "r":
		t.kind = tReroll
	case "ro":
		t.kind, t.op = tReroll, 1
	case "f":
		t.kind = tFail
	case "s", "sa":
		t.kind, t.op = tSort, uint8(SortAsc)
	case "sd":
		t.kind, t.op = tSort, uint8(SortDesc)
	default:
		return false
	}
	l.pos = end
	return true
}

// lexWord reads a keyword (vs, dc12, floor) or a name (fuerza, fue_2).
func (l *lexer) lexWord(t *token) {
	start := l.pos
	end := l.pos
	for end < len(l.src) {
		r, n := l.peekRune(end)
		if !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) {
			break
		}
		end += n
	}
	if kw, ok := keyword(l.src[start:end]); ok && end > start {
		if r, _ := l.peekRune(end); !isIdentStart(r) && (kw.kind != tFunc || (Func(kw.op) != Max && Func(kw.op) != Min) || l.parenAt(end)) {
			t.kind, t.op = kw.kind, kw.op
			l.pos = end
			return
		}
	}
	for end < len(l.src) {
		r, n := l.peekRune(end)
		if !isIdentRune(r) {
			break
		}
		end += n
	}
	l.pos = end
	t.kind = tIdent
}

// keyword looks a word of letters up in keywords, case- and
// accent-insensitively. An ASCII word needs no fold.Key (its folding is its
// lower case): looked up from a stack buffer, it allocates nothing.
func keyword(w string) (token, bool) {
	var buf [8]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			kw, ok := keywords[fold.Key(w)]
			return kw, ok
		}
		if i == len(buf) {
			return token{}, false // longer than any ASCII keyword
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	kw, ok := keywords[string(buf[:len(w)])]
	return kw, ok
}

// ReadsAsKeyword reports whether a roll reads the word w, or its start, as
// a word of the notation (vs, dc12, floor, contra) rather than as a name:
// a sheet value called so could never be rolled ("1d20+vs"), so /pj
// refuses the name. It follows lexWord.
func ReadsAsKeyword(w string) bool {
	l := lexer{src: w}
	var t token
	l.lexWord(&t)
	return t.kind != tIdent
}

// lexName reads @Who.name or @Who:name.
func (l *lexer) lexName(t *token) {
	l.pos++ // '@'
	whoStart := l.pos
	for l.pos < len(l.src) {
		r, n := l.peekRune(l.pos)
		if !isIdentRune(r) {
			break
		}
		l.pos += n
	}
	who := l.src[whoStart:l.pos]
	if who == "" || l.pos >= len(l.src) || (l.src[l.pos] != '.' && l.src[l.pos] != ':') {
		t.kind = tBad
		return
	}
	l.pos++
	nameStart := l.pos
	if r, _ := l.peekRune(l.pos); !isIdentStart(r) {
		t.kind = tBad
		return
	}
	for l.pos < len(l.src) {
		r, n := l.peekRune(l.pos)
		if !isIdentRune(r) {
			break
		}
		l.pos += n
	}
	t.kind = tIdent
	_ = nameStart
}
