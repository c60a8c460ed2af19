package dice

import (
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
	"zaria/internal/cputime"

	"zaria/core/reply"
)

var fuzzSeeds = []string{
	"2d6+3", "4d6kh3", "8d10>=7", "4d6!", "1d100", "d%", "4dF", "3d6 dc12 ?", "6#4d6kh3", "1d20+5 # ataque",
	"2d6[fuego]+1d4[frío]", "2δ6", "3d6!!", "3d6!p", "4d6r1", "4d6ro<3", "8d10>=7f1", "10d10kh3 dc20",
	"floor(7/2)+ceil(7/2)+round(5/2)+abs(-3)", "1d20+fuerza vs 10+@Drake.destreza", "1d20 εναντίον 12", "1d20 κατά 12",
	"2d6 contra 8", "1d20 vs 15 [ataque] ?", "20#50d6", "100d1000", "100d100kh50", "10d6!>=4kh3>=5",
	"1d1!", "1d6r<7", "((((1))))", "-(-(-1d6))", "1d6/(1d2-1)", "100d2!", "100d6!!", "1d1000*1d1000*1d1000",
	"2d", "(", "[", "@", "@a.", "d", "dF", "dfuerza", "#", "?", "1#", "3d6 vs", "vs 3", "4d6kh", "4d6dl", "4d6k0",
	// grouped rolls
	"{1d20, 1d20}kh1 + 5 vs 15 ?", "{3d6+3d4+5, 2d8+4}kh1", "{4d6+3d8}kh1", "{3d20}>15", "{3d20+5, 2d10}>15",
	"{1d6, 1d6, 1d6}dl1>=3f1", "{2d6!+1d8}kh1", "{2d6, 1d12}kl1", "2#{1d6, 1d6}kl1 vs 3 ?", "{2d6+3}", "{4d6!!+2d6r1}dh2>=4",
	// sorted dice
	"8d6s", "8d6sa", "4d6kh3sd", "4d6!sd", "3d6!!r1s", "8d10>=7f1sd", "8d6s sd", "{4d6sa+3d8}kh1", "2d6+s", "4d6dl1s",
	"{10d10>=7, 10d10>=7}kh1", "{1d6, {1d6}}", "{3d20+5}>15", "{", "}", ",", "{1d6,", "{}kh1", "{1d6, 1d6}f", "{1d6}kh2",
	// Roll20's forms of issue 24
	"6d6>4", "3d6>3f1", "{5d6!!}>8", "5d6!!5", "2d20ro<3", "3d6!kh2", "10d6!>=5kl3", "2d6!r1", "1d6!ro1", "2d6!pkh1", "3d4!pdl1>=2", "2d4!p<2kh1",
	"4d6min2", "4d6max5", "3d6min2max5!", "4dFmin0", "3d6cs>5", "1d20cf<2", "1d20cs20cf1", "1d20cs", "4d6min>2",
	"8d100d3", "3d6d1", "3d6d", "2d6d6", "8d6r2r4r6", "8d6ro1ro2", "8d6r1ro2", "6d6r<2r>5", "(1d4)d6", "2d(1d6)",
	"(1d3)d(1d4)kh2", "(2d10)d12", "(0)d6", "(1d4-2)d6", "2d(1d6-1)", "(fuerza)d6", "2d(1d6)!", "(100d6)d6",
	"2d6%4", "-7%3", "1d6%0", "2d6**2", "-2**2", "2**3**2", "2**-1", "10**20", "1d1000**1d1000", "2***3",
	"max(1d20, 1d20)", "min(1d20, 1d20, 1d20)+5", "max(1)", "max()", "max(1,", "1d20+max", "min(max(1d6, 2), 5)",
	"2d6kh3", "{1d6, 1d6}kl5", "{3d20+5}>21", "{3d20+fuerza}<10", "4d6dl1kh2", "4d6[x]kh3", "(4d6)kh3",
	"2d6+3kh1", "8d10≥7", "1d20 ≤ 3", "1d6/2",
}

// FuzzParse parses, rolls, renders and weighs arbitrary text: it must
// never panic, and whatever it answers must be consistent.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		checkOne(t, s, seed)
		checkFastPaths(t, s)
	})
}

// checkFastPaths compares the machine-word odds with math/big's.
func checkFastPaths(t *testing.T, s string) {
	e, err := Parse(s)
	if err != nil {
		return
	}
	names, err := e.resolve(lookupAll)
	if err != nil {
		return
	}
	fast, err1 := (&oddsCtx{names: names}).node(e.Root)
	slow, err2 := (&oddsCtx{names: names, noFast: true}).node(e.Root)
	if err1 != nil || err2 != nil {
		if (err1 == nil) != (err2 == nil) && !errors.Is(err1, errBudget) && !errors.Is(err2, errBudget) {
			t.Fatalf("%q: fast %v, slow %v", s, err1, err2)
		}
		return
	}
	if fast.lo != slow.lo || len(fast.c) != len(slow.c) || fast.den.Cmp(&slow.den) != 0 {
		t.Fatalf("%q: fast and slow distributions differ in shape", s)
	}
	for i := range fast.c {
		if fast.c[i].Cmp(&slow.c[i]) != 0 {
			t.Fatalf("%q: P(%d) fast %v, slow %v", s, fast.lo+int64(i), &fast.c[i], &slow.c[i])
		}
	}
}

// unsorted renders repetition i as if no term had s or sd; ok is false
// when none has.
func unsorted(res *Result, i int) (text string, ok bool) {
	var was []SortMode
	for _, d := range res.Expr.dice {
		was = append(was, d.Sort)
		ok = ok || d.Sort != NoSort
		d.Sort = NoSort
	}
	if ok {
		text = reply.PlainText(&reply.Reply{Lines: []reply.Line{res.Spans(i, RenderOptions{})}})
	}
	for k, d := range res.Expr.dice {
		d.Sort = was[k]
	}
	return text, ok
}

// sameRunes reports whether a and b are the same characters in any order.
func sameRunes(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	slices.Sort(ra)
	slices.Sort(rb)
	return slices.Equal(ra, rb)
}

func lookupAll(who, name string) (int, error) {
	if len(name)%5 == 0 {
		return 0, errors.New("unknown")
	}
	return len(name) - 3, nil
}

func checkOne(t testing.TB, s string, seed uint64) {
	e, err := Parse(s)
	if err != nil {
		if _, ok := AsError(err); !ok {
			t.Fatalf("Parse(%q): %v is not an *Error", s, err)
		}
		return
	}
	if utf8.RuneCountInString(s) > MaxInput {
		t.Fatalf("Parse(%q) accepted %d characters", s, utf8.RuneCountInString(s))
	}
	res, err := e.Roll(Seeded(seed), lookupAll)
	if err != nil {
		if _, ok := AsError(err); !ok && err.Error() != "unknown" {
			t.Fatalf("Roll(%q): %v", s, err)
		}
		return
	}
	if res.Draws > MaxDraws {
		t.Fatalf("Roll(%q) drew %d dice", s, res.Draws)
	}
	for i := range e.Repeat {
		text := reply.PlainText(&reply.Reply{Lines: []reply.Line{res.Spans(i, RenderOptions{})}})
		if !strings.HasSuffix(text, strconv.FormatInt(res.Totals[i], 10)) {
			t.Fatalf("%q renders %q, total %d", s, text, res.Totals[i])
		}
		if plain, ok := unsorted(res, i); ok && !sameRunes(text, plain) {
			t.Fatalf("%q renders %q, without its sorts %q: not the same dice", s, text, plain)
		}
	}
	o, err := e.Odds(lookupAll)
	if err != nil {
		if err != ErrOddsDivZero {
			if _, ok := AsError(err); !ok {
				t.Fatalf("Odds(%q): %v", s, err)
			}
		}
		return
	}
	if !o.Approx && (res.Totals[0] < o.Min || res.Totals[0] > o.Max) {
		t.Fatalf("%q: total %d outside exact range %d..%d", s, res.Totals[0], o.Min, o.Max)
	}
	if o.HasChance && (o.Chance < 0 || o.Chance > 1) {
		t.Fatalf("%q: chance %g", s, o.Chance)
	}
}

// genExpr builds a random expression from the notation's pieces, often at
// or past the limits.
func genExpr(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(8) == 0 {
		b.WriteString(strconv.Itoa(r.IntN(25)) + "#")
	}
	genSum(r, &b, 0)
	switch r.IntN(6) {
	case 0:
		b.WriteString([]string{" vs ", " dc", " contra ", " εναντίον ", " κατά "}[r.IntN(5)] + strconv.Itoa(r.IntN(60)))
	case 1:
		b.WriteString(" # etiqueta")
	}
	if r.IntN(4) == 0 {
		b.WriteString(" ?")
	}
	s := b.String()
	if r.IntN(10) == 0 && len(s) > 0 { // a random mutation
		i := r.IntN(len(s))
		const chars = "()[]{},#?!<>=dkfr+-*/0123456789 "
		s = s[:i] + string(chars[r.IntN(len(chars))]) + s[i:]
	}
	return s
}

func genSum(r *rand.Rand, b *strings.Builder, depth int) {
	n := 1 + r.IntN(3)
	for i := range n {
		if i > 0 {
			b.WriteString([]string{"+", "-", "*", "/"}[r.IntN(4)])
		}
		genTerm(r, b, depth)
	}
}

func genTerm(r *rand.Rand, b *strings.Builder, depth int) {
	switch k := r.IntN(11); {
	case k == 10 && depth < 3:
		b.WriteString("{")
		for i := range 1 + r.IntN(3) {
			if i > 0 {
				b.WriteString(", ")
			}
			genSum(r, b, depth+1)
		}
		b.WriteString("}")
		mods := []string{"", "kh1", "kl1", "dl1", "dh2", "k2", ">=10", "<5f>15", ">3"}
		b.WriteString(mods[r.IntN(len(mods))])
	case k < 6:
		counts := []int{1, 2, 3, 4, 8, 10, 20, 50, 100, 101}
		sides := []string{"2", "4", "6", "8", "10", "12", "20", "100", "1000", "%", "F", "1", "3"}
		c := counts[r.IntN(len(counts))]
		if r.IntN(4) > 0 {
			c = min(c, 10)
		}
		b.WriteString(strconv.Itoa(c) + "d" + sides[r.IntN(len(sides))])
		mods := []string{"kh" + strconv.Itoa(1+r.IntN(3)), "kl1", "dl1", "dh1", "!", "!!", "!p", "!>=5", "r1", "ro<3", ">=5", ">=7f1", "<3", "=6"}
		for range r.IntN(3) {
			b.WriteString(mods[r.IntN(len(mods))])
		}
	case k < 8:
		b.WriteString(strconv.Itoa(r.IntN(30)))
	case k < 9 && depth < 3:
		b.WriteString([]string{"(", "floor(", "ceil(", "round(", "abs("}[r.IntN(5)])
		genSum(r, b, depth+1)
		b.WriteString(")")
	default:
		b.WriteString([]string{"fuerza", "δύναμη", "@Drake.fue", "dex"}[r.IntN(4)])
	}
}

// TestRandomCorpus runs many random expressions through parse, roll,
// render and odds and reports the slowest. It is not a timing test: it
// runs in full only with ZARIA_CORPUS=N (e.g. 1000000), and then fails on a
// panic, an inconsistency, or an answer that took more than
// ZARIA_CORPUS_MAX_MS (default 50 ms) of CPU time on its thread (wall time
// where that is not available), so a busy machine does not count.
// ZARIA_CORPUS_SEED picks another corpus of the same size.
func TestRandomCorpus(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ZARIA_CORPUS"))
	if n == 0 {
		n = 300 // a quick smoke run in every test
	}
	limit := 50 * time.Millisecond
	if ms, err := strconv.Atoi(os.Getenv("ZARIA_CORPUS_MAX_MS")); err == nil {
		limit = time.Duration(ms) * time.Millisecond
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	seed, _ := strconv.ParseUint(os.Getenv("ZARIA_CORPUS_SEED"), 10, 64) // to run a large corpus in chunks
	r := rand.New(rand.NewPCG(uint64(n), 42+seed))
	var worst, worstWall time.Duration
	var worstExpr string
	slow := 0
	for i := range n {
		s := genExpr(r)
		c0, ok := cputime.Thread()
		start := time.Now()
		checkOne(t, s, uint64(i))
		wall := time.Since(start)
		d := wall
		if c1, ok2 := cputime.Thread(); ok && ok2 {
			d = c1 - c0
		}
		worstWall = max(worstWall, wall)
		if d > worst {
			worst, worstExpr = d, s
		}
		if d > limit {
			slow++
		}
	}
	t.Logf("%d expressions; slowest %v of CPU: %q; slowest wall time %v; over %v: %d", n, worst, worstExpr, worstWall, limit, slow)
	if os.Getenv("ZARIA_CORPUS") != "" && slow > 0 {
		t.Errorf("%d expressions took longer than %v (slowest %v: %q)", slow, limit, worst, worstExpr)
	}
}
