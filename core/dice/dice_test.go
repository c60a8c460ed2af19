package dice

import (
	"errors"
	"strings"
	"testing"

	"zaria/core/reply"
)

func show(t *testing.T, res *Result, i int) string {
	t.Helper()
	return reply.PlainText(&reply.Reply{Lines: []reply.Line{res.Spans(i, RenderOptions{})}})
}

func names(who, name string) (int, error) {
	switch who + "." + name {
	case ".fuerza":
		return 3, nil
	case ".δύναμη":
		return 2, nil
	case "Drake.fuerza":
		return 5, nil
	case ".fue_2":
		return -1, nil
	case "Δράκος.δύναμη":
		return 4, nil
	}
	return 0, errors.New("no such value")
}

// TestRollScripted rolls each feature with exact dice and checks what the
// user sees.
func TestRollScripted(t *testing.T) {
	cases := []scriptCase{
		{"2d6+3", []int{4, 2}, "[4, 2] + 3 = 9", 9},
		{"d20", []int{17}, "[17] = 17", 17},
		{"D20", []int{17}, "[17] = 17", 17},
		{"2δ6", []int{1, 6}, "[1, 6] = 7", 7},
		{"2Δ6", []int{1, 6}, "[1, 6] = 7", 7},
		{"d%", []int{100}, "[100] = 100", 100},
		{"d%", []int{0}, "[100] = 100", 100},      // 00 on a percentile die
		{"2d10", []int{0, 7}, "[10, 7] = 17", 17}, // the face that reads 0
		{"1d%+1", []int{37}, "[37] + 1 = 38", 38},
		{"4dF", []int{1, 2, 3, 3}, "[-, 0, +, +] = 1", 1},
		{"4df+1", []int{1, 1, 1, 1}, "[-, -, -, -] + 1 = -3", -3},
		{"4d6kh3", []int{6, 2, 5, 4}, "[6, (2), 5, 4] = 15", 15},
		{"4d6k3", []int{6, 2, 5, 4}, "[6, (2), 5, 4] = 15", 15},
		{"4d6KH3", []int{6, 2, 5, 4}, "[6, (2), 5, 4] = 15", 15},
		{"2d20kh", []int{3, 18}, "[(3), 18] = 18", 18},
		{"2d20kl1", []int{3, 18}, "[3, (18)] = 3", 3},
		{"4d6dl1", []int{6, 2, 5, 4}, "[6, (2), 5, 4] = 15", 15},
		{"4d6dh1", []int{6, 2, 5, 4}, "[(6), 2, 5, 4] = 11", 11},
		{"3d6kh1", []int{5, 5, 1}, "[5, (5), (1)] = 5", 5}, // ties: the earlier die is kept
		{"3d6kl1", []int{1, 5, 1}, "[1, (5), (1)] = 1", 1},
		{"2d6!", []int{6, 3, 2}, "[6!, 3, 2] = 11", 11},
		{"1d6!>=5", []int{5, 6, 1}, "[5!, 6!, 1] = 12", 12},
		{"1d6!>4", []int{5, 2}, "[5!, 2] = 7", 7},
		{"1d6!=6", []int{6, 6, 1}, "[6!, 6!, 1] = 13", 13},
		{"1d6!<2", []int{1, 1, 4}, "[1!, 1!, 4] = 6", 6},
		{"1d6!5", []int{5, 5, 2}, "[5!, 5!, 2] = 12", 12},
		{"2d6!!", []int{6, 6, 2, 3}, "[6!+6!+2, 3] = 17", 17},
		{"1d6!p", []int{6, 6, 3}, "[6!, 6-1!, 3-1] = 13", 13},
		{"4d6r1", []int{1, 1, 5, 2, 3, 4}, "[1↻1↻5, 2, 3, 4] = 14", 14},
		{"2d6ro", []int{1, 1, 3}, "[1↻1, 3] = 4", 4},
		{"2d6ro<3", []int{2, 1, 4}, "[2↻1, 4] = 5", 5},
		{"2d6r<=2", []int{2, 1, 6, 3}, "[2↻1↻6, 3] = 9", 9},
		{"8d10>=7", []int{7, 1, 10, 3, 8, 6, 2, 9}, "[7✓, 1, 10✓, 3, 8✓, 6, 2, 9✓] = 4", 4},
		{"8d10 >= 7", []int{7, 1, 10, 3, 8, 6, 2, 9}, "[7✓, 1, 10✓, 3, 8✓, 6, 2, 9✓] = 4", 4},
		{"5d10>=7f<=1", []int{7, 1, 10, 1, 5}, "[7✓, 1✗, 10✓, 1✗, 5] = 0", 0},
		{"5d10>7f1", []int{7, 1, 10, 1, 5}, "[7✓, 1✗, 10✓, 1✗, 5] = 0", 0}, // Roll20: >7 is 7 or more
		{"5d10>=8f1", []int{7, 1, 10, 1, 5}, "[7, 1✗, 10✓, 1✗, 5] = -1", -1},
		{"3d6<3", []int{1, 2, 3}, "[1✓, 2✓, 3✓] = 3", 3}, // Roll20: <3 is 3 or less
		{"3d6<=2", []int{1, 2, 3}, "[1✓, 2✓, 3] = 2", 2},
		{"3d6<=3", []int{1, 2, 3}, "[1✓, 2✓, 3✓] = 3", 3},
		{"3d6=6", []int{6, 2, 6}, "[6✓, 2, 6✓] = 2", 2},
		{"4d10!>=8", []int{8, 1, 3, 10, 9, 2, 5}, "[8!, 1, 3, 10!, 9!, 2, 5] = 38", 38},
		{"4d10! >=8", []int{8, 1, 3, 10, 9}, "[8✓, 1, 3, 10!✓, 9✓] = 3", 3},
		{"4d6!kh3", []int{6, 1, 2, 3, 4}, "[6!, (1), (2), 3, 4] = 13", 13}, // Roll20: the 1 the 6 added is a die of its own
		// s, sa, sd show the dice in order, lowest or highest first; the
		// total is the same (Roll20's sort)
		{"8d6s", []int{3, 6, 1, 4, 2, 6, 5, 1}, "[1, 1, 2, 3, 4, 5, 6, 6] = 28", 28},
		{"8d6sa", []int{3, 6, 1, 4, 2, 6, 5, 1}, "[1, 1, 2, 3, 4, 5, 6, 6] = 28", 28},
		{"8d6sd", []int{3, 6, 1, 4, 2, 6, 5, 1}, "[6, 6, 5, 4, 3, 2, 1, 1] = 28", 28},
		{"8D6SD", []int{3, 6, 1, 4, 2, 6, 5, 1}, "[6, 6, 5, 4, 3, 2, 1, 1] = 28", 28},
		{"8d6 sd", []int{3, 6, 1, 4, 2, 6, 5, 1}, "[6, 6, 5, 4, 3, 2, 1, 1] = 28", 28},
		{"4d6kh3sd", []int{2, 6, 4, 5}, "[6, 5, 4, (2)] = 15", 15},
		{"4d6dl1s", []int{2, 6, 4, 5}, "[(2), 4, 5, 6] = 15", 15},
		{"3d6kh1s", []int{5, 1, 5}, "[(1), 5, (5)] = 5", 5},          // ties: the earlier die first (the one kept)
		{"4d6!s", []int{6, 1, 2, 3, 4}, "[1, 2, 3, 4, 6!] = 16", 16}, // each die on its own, as kh ranks them
		{"4d6!kh3sd", []int{6, 1, 2, 3, 4}, "[6!, 4, 3, (2), (1)] = 13", 13},
		{"3d6!!sd", []int{2, 6, 3, 5}, "[6!+3, 5, 2] = 16", 16},
		{"4d6r1s", []int{5, 1, 3, 2, 4}, "[2, 1↻3, 4, 5] = 14", 14},
		{"8d10>=7sd", []int{7, 1, 10, 3, 8, 6, 2, 9}, "[10✓, 9✓, 8✓, 7✓, 6, 3, 2, 1] = 4", 4},
		{"4dFs", []int{3, 1, 2, 1}, "[-, -, 0, +] = -1", -1},
		{"3d6s+1d4", []int{4, 2, 6, 3}, "[2, 4, 6] + [3] = 15", 15},
		{"2d6+1d4", []int{3, 4, 2}, "[3, 4] + [2] = 9", 9},
		{"2d6[fuego]+1d4[frío]", []int{3, 4, 2}, "[3, 4] fuego + [2] frío = 9", 9},
		{"2d6 [fuego] + 2", []int{3, 4}, "[3, 4] fuego + 2 = 9", 9},
		{"1d20+fuerza", []int{12}, "[12] + fuerza (3) = 15", 15},
		{"1d20+δύναμη", []int{12}, "[12] + δύναμη (2) = 14", 14},
		{"1d20+@Drake.fuerza", []int{12}, "[12] + @Drake.fuerza (5) = 17", 17},
		{"1d20+@Drake:fuerza", []int{12}, "[12] + @Drake.fuerza (5) = 17", 17},
		{"1d20+fue_2", []int{12}, "[12] + fue_2 (-1) = 11", 11},
		{"1δ20+@Δράκος:δύναμη", []int{12}, "[12] + @Δράκος.δύναμη (4) = 16", 16},
		{"(1d6+2)*3", []int{4}, "([4] + 2) * 3 = 18", 18},
		{"1d6+2*3", []int{4}, "[4] + 2 * 3 = 10", 10},
		{"10-2-3", nil, "10 - 2 - 3 = 5", 5},
		{"10-(2-3)", nil, "10 - (2 - 3) = 11", 11},
		{"2*3+4*5", nil, "2 * 3 + 4 * 5 = 26", 26},
		{"-1d6", []int{4}, "-[4] = -4", -4},
		// A sign before the first term followed by "+" kept its term and
		// lost the sign: "-10+1" was "10 + 1 = 11", "-1d6+10" "[4] + 10 = 14".
		{"-10+1", nil, "-10 + 1 = -9", -9},
		{"-1d6+10", []int{4}, "-[4] + 10 = 6", 6},
		{"-2*3+1", nil, "-2 * 3 + 1 = -5", -5},
		{"1+-2+3", nil, "1 + -2 + 3 = 2", 2},
		{"--2+3", nil, "--2 + 3 = 5", 5},
		{"-fuerza+1", nil, "-fuerza (3) + 1 = -2", -2},
		{"7/2", nil, "7 / 2 = 3", 3},
		{"-7/2", nil, "-7 / 2 = -4", -4},
		{"floor(7/2)", nil, "floor(7 / 2) = 3", 3},
		{"ceil(7/2)", nil, "ceil(7 / 2) = 4", 4},
		{"round(5/2)", nil, "round(5 / 2) = 3", 3},
		{"round(-5/2)", nil, "round(-5 / 2) = -2", -2},
		{"round(7/3)", nil, "round(7 / 3) = 2", 2},
		{"abs(1d6-5)", []int{2}, "abs([2] - 5) = 3", 3},
		{"ceil(1d6/2)", []int{5}, "ceil([5] / 2) = 3", 3},
		{"  1d20 + 5  ", []int{10}, "[10] + 5 = 15", 15},
		{"2d6 × 2 ÷ 2 − 1", []int{3, 4}, "[3, 4] * 2 / 2 - 1 = 6", 6},
	}
	for _, c := range cases {
		rollScripted(t, c)
	}
	// Names are passed as typed; the sheets fold them.
	if e, err := Parse("1d20 + FUERZA"); err != nil {
		t.Errorf("Parse(%q): %v", "1d20 + FUERZA", err)
	} else if len(e.names) != 1 || e.names[0].Name != "FUERZA" {
		t.Errorf("%q: names %v", "1d20 + FUERZA", e.names)
	}
}

// scriptCase is an expression rolled with exact dice, what the user sees
// of its first repetition and its total.
type scriptCase struct {
	in    string
	dice  []int
	want  string
	total int64
}

// rollScripted rolls c.in with c.dice (names from names) and checks what
// the user sees, the total, and that every scripted die was drawn, each
// once.
func rollScripted(t *testing.T, c scriptCase) {
	t.Helper()
	e, err := Parse(c.in)
	if err != nil {
		t.Errorf("Parse(%q): %v", c.in, err)
		return
	}
	src := NewScripted(c.dice)
	res, err := e.Roll(src, names)
	if err != nil {
		t.Errorf("Roll(%q): %v", c.in, err)
		return
	}
	if got := show(t, res, 0); got != c.want {
		t.Errorf("%q shows %q, want %q", c.in, got, c.want)
	}
	if res.Total() != c.total {
		t.Errorf("%q total %d, want %d", c.in, res.Total(), c.total)
	}
	if src.Used() != len(c.dice) || src.Err() != nil {
		t.Errorf("%q used %d of %d scripted dice (err %v)", c.in, src.Used(), len(c.dice), src.Err())
	}
	if res.Draws != len(c.dice) {
		t.Errorf("%q counted %d draws, want %d", c.in, res.Draws, len(c.dice))
	}
}

func TestParseParts(t *testing.T) {
	cases := []struct {
		in                  string
		repeat              int
		text, target, label string
		ask                 bool
	}{
		{"1d20+5 # ataque", 1, "1d20+5", "", "ataque", false},
		{"1d20+5 #ataque con espada", 1, "1d20+5", "", "ataque con espada", false},
		{"3d6 dc12 ?", 1, "3d6", "12", "", true},
		{"3d6 dc12?", 1, "3d6", "12", "", true},
		{"3d6 DC 12", 1, "3d6", "12", "", false},
		{"3d6 vs 12", 1, "3d6", "12", "", false},
		{"3d6 VS12", 1, "3d6", "12", "", false},
		{"3d6 cd 12", 1, "3d6", "12", "", false},
		{"3d6 contra 12", 1, "3d6", "12", "", false},
		{"3d6 εναντίον 12", 1, "3d6", "12", "", false},
		{"3d6 εναντιον 12", 1, "3d6", "12", "", false},
		{"3d6 κατά 12", 1, "3d6", "12", "", false},
		{"3d6 ΚΑΤΑ 12", 1, "3d6", "12", "", false},
		{"1d20+2 vs 10+fuerza # golpe ?", 1, "1d20+2", "10+fuerza", "golpe", true},
		{"1d20 vs 12 [ataque]", 1, "1d20", "12", "ataque", false},
		{"6#4d6kh3", 6, "4d6kh3", "", "", false},
		{"20#1d20", 20, "1d20", "", "", false},
		{"3#1d20+5 vs 15 # ataques", 3, "1d20+5", "15", "ataques", false},
		{"8d10>=7 vs 3 ?", 1, "8d10>=7", "3", "", true},
		{"2 # dos", 1, "2", "", "dos", false},
		{"1d20 # ¿me ve?", 1, "1d20", "", "¿me ve?", false},
		{"1d20 # ¿me ve? ?", 1, "1d20", "", "¿me ve?", true},
		{"3d6 dc12;", 1, "3d6", "12", "", true},
		{"3d6 κατά 12 \u037e", 1, "3d6", "12", "", true},
		{"1d20 # επίθεση;", 1, "1d20", "", "επίθεση", true},
		// Invisible characters a keyboard or a paste leaves (zero-width
		// space, bidi marks, soft hyphen, BOM) are not part of the roll:
		// "1\u200bd6" was refused as «1d6», a message that showed no fault.
		{"1\u200bd6", 1, "1d6", "", "", false},
		{"\ufeff2d6\u200e+1\u00ad vs 1\u20602", 1, "2d6+1", "12", "", false},
		{"\u202e1d20 # a\u2066b", 1, "1d20", "", "ab", false},
	}
	for _, c := range cases {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if e.Repeat != c.repeat || e.Text != c.text || e.TargetText != c.target || e.Label != c.label || e.Ask != c.ask {
			t.Errorf("Parse(%q) = repeat %d text %q target %q label %q ask %v; want %d %q %q %q %v",
				c.in, e.Repeat, e.Text, e.TargetText, e.Label, e.Ask, c.repeat, c.text, c.target, c.label, c.ask)
		}
	}
}

func TestTargetAndRepeat(t *testing.T) {
	e, err := Parse("3#1d20+2 vs 10+fuerza")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Roll(NewScripted([]int{11, 10, 20}), names)
	if err != nil {
		t.Fatal(err)
	}
	if res.Target != 13 {
		t.Fatalf("target %d, want 13", res.Target)
	}
	want := []struct {
		s  string
		ok bool
	}{{"[11] + 2 = 13", true}, {"[10] + 2 = 12", false}, {"[20] + 2 = 22", true}}
	for i, w := range want {
		if got := show(t, res, i); got != w.s || res.Success(i) != w.ok {
			t.Errorf("roll %d: %q success %v, want %q %v", i, got, res.Success(i), w.s, w.ok)
		}
	}
	if got := res.Values(); len(got) != 3 || got[0] != 11 || got[2] != 20 {
		t.Errorf("Values = %v", got)
	}
}

// TestErrors checks that every bad input and every limit gives its own
// error code, before any die is rolled where the notation shows it.
func TestErrors(t *testing.T) {
	parseErrors(t, []errCase{
		{"", CodeEmpty, ""},
		{"   ", CodeEmpty, ""},
		{"2d", CodeSyntax, "2d"},
		{"2d6+", CodeUnexpectedEnd, ""},
		{"2d6 5", CodeSyntax, "5"},
		{"2x6", CodeSyntax, "2x6"},
		{"hola mundo", CodeSyntax, "mundo"},
		{"(1d6+2", CodeUnclosed, "("},
		{"2d6[fuego", CodeUnclosed, "["},
		{"1d6)", CodeSyntax, ")"},
		{"floor 3", CodeSyntax, "3"},
		{"1d20+5 >= 15", CodeCompareOutside, ">="},
		{"1d20 vs 1d6", CodeTargetDice, "1d6"},
		{"0d6", CodeNoDice, "0d6"},
		{"2d0", CodeNoSides, "2d0"},
		{"101d6", CodeTooManyDice, "101d6"},
		{"1d1001", CodeTooManySides, "1d1001"},
		{"21#1d6", CodeRepeat, ""},
		{"0#1d6", CodeRepeat, ""},
		{"20#60d6", CodeTooManyDraws, ""},
		{"1d1!", CodeExplodeAlways, "1d1!"},
		{"1d6!>=1", CodeExplodeAlways, "1d6!>=1"},
		{"1d6r<3!>=3", CodeExplodeAlways, "1d6r<3!>=3"},
		{"1d6r<7", CodeRerollAlways, "1d6r<7"},
		{"1d1r", CodeRerollAlways, "1d1r"},
		{"2d6kh0", CodeKeepCount, "2d6kh0"},
		{"2d6dl2", CodeKeepCount, "2d6dl2"},
		{"2d6!!!", CodeDuplicate, "!"},
		{"4d6kh3kl1", CodeKeepTwice, "4d6kh3kl1"},
		{"4d6dl1kh2", CodeKeepTwice, "4d6dl1kh2"}, // was "«kh» appears twice"
		{"8d6s sd", CodeDuplicate, "sd"},
		{"8d6sdsd", CodeSyntax, "8d6sdsd"},
		{"8d6sx", CodeSyntax, "8d6sx"},
		{"4d6>3>4", CodeDuplicate, ">"},
		{"4d6f1", CodeFailureAlone, "4d6f1"},
		{"1d6+1234567", CodeNumberTooBig, "1234567"},
		{strings.Repeat("(", 30) + "1" + strings.Repeat(")", 30), CodeTooDeep, ""},
		{strings.Repeat("-", 30) + "1", CodeTooDeep, ""},
		{strings.TrimSuffix(strings.Repeat("1+", 101), "+"), CodeTooManyTerms, ""},
		{strings.TrimSuffix(strings.Repeat("d6+", 21), "+"), CodeTooManyGroups, ""},
		{strings.Repeat("1", 501), CodeTooLong, ""},
		{"1d6 # " + strings.Repeat("a", 101), CodeLabelTooLong, ""},
		{"1d6[" + strings.Repeat("a", 101) + "]", CodeLabelTooLong, ""},
		{strings.Repeat("a", 41), CodeNameTooLong, ""},
		{"@Drake", CodeSyntax, "@Drake"},
		// Quotes are cut by characters, never inside a Greek letter's bytes
		// or short of a whole word (was 12 bytes: «πλεονέ», «desventajosa»).
		{"1δ20 πλεονέκτημα", CodeSyntax, "πλεονέκτημα"},
		{"1d20 desventajosamente", CodeSyntax, "desventajosamente"},
		{"1d20 " + strings.Repeat("ά", 30), CodeSyntax, strings.Repeat("ά", 24) + "…"},
		{"1d6 vs", CodeUnexpectedEnd, ""},
		{"#", CodeSyntax, "#"},
	})
}

// errCase is a text Parse refuses: the error's code and, unless empty,
// the text it points at.
type errCase struct {
	in   string
	code string
	near string
}

func parseErrors(t *testing.T, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		_, err := Parse(c.in)
		e, ok := AsError(err)
		if !ok {
			t.Errorf("Parse(%q) = %v, want a %s error", c.in, err, c.code)
			continue
		}
		if e.Code != c.code || (c.near != "" && e.Near != c.near) {
			t.Errorf("Parse(%q) = %s near %q, want %s near %q", c.in, e.Code, e.Near, c.code, c.near)
		}
	}
}

func TestRollErrors(t *testing.T) {
	cases := []struct {
		in   string
		dice []int
		code string
	}{
		{"1d6/(1d2-1)", []int{3, 1}, CodeDivZero},
		{"1000000*1000000*10000", nil, CodeOverflow},
		{"1d2!", rep(2, 1001), CodeTooManyDraws},
		{"100d6r<5", rep(1, 1001), CodeTooManyDraws},
	}
	for _, c := range cases {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		_, err = e.Roll(NewScripted(c.dice), names)
		if ce, ok := AsError(err); !ok || ce.Code != c.code {
			t.Errorf("Roll(%q) = %v, want %s", c.in, err, c.code)
		}
	}
	// A script that runs out is the source's error, not a random roll.
	e, _ := Parse("3d6")
	if _, err := e.Roll(NewScripted([]int{1, 2}), nil); !errors.Is(err, ErrSource) || !errors.Is(err, ErrScriptExhausted) {
		t.Errorf("short script: %v", err)
	}
	if _, err := e.Roll(NewScripted([]int{1, 2, 7}), nil); !errors.Is(err, ErrScriptRange) {
		t.Errorf("bad script: %v", err)
	}
	// Lookup errors pass through.
	e, _ = Parse("1d20+sabiduría")
	if _, err := e.Roll(NewScripted([]int{1}), names); err == nil || err.Error() != "no such value" {
		t.Errorf("lookup error: %v", err)
	}
}

func rep(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestSummary: a term with too many dice shows its sum.
func TestSummary(t *testing.T) {
	e, _ := Parse("50d6+1d4")
	res, err := e.Roll(Seeded(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := show(t, res, 0)
	if !strings.HasPrefix(got, "[Σ ") || strings.Count(got, ",") != 0 {
		t.Errorf("summary: %q", got)
	}
	all := reply.PlainText(&reply.Reply{Lines: []reply.Line{res.Spans(0, RenderOptions{MaxDice: 100})}})
	if strings.Count(all, ",") != 49 {
		t.Errorf("full: %q", all)
	}
}

// TestRollRerollChains checks how rerolled faces and compound parts are
// kept apart per die in chains, repetitions and several terms (each die
// finds its own in Result.extra).
func TestRollRerollChains(t *testing.T) {
	cases := []struct {
		in   string
		dice []int
		want []string // rendered, one per repetition
	}{
		{"2d6!r1", []int{1, 6, 1, 3, 4}, []string{"[1↻6!, 1↻3, 4] = 13"}},
		{"2d6!!r1", []int{1, 6, 1, 6, 2, 4}, []string{"[1↻1↻6!+6!+2, 4] = 18"}},
		{"3d6!pro1kh2", []int{1, 6, 1, 2, 5, 3}, []string{"[1↻6!, (1↻2-1), 5, (3)] = 11"}},
		{"2#2d6!!r1", []int{1, 6, 1, 6, 2, 4, 6, 3, 1, 1, 2}, []string{"[1↻1↻6!+6!+2, 4] = 18", "[6!+3, 1↻1↻2] = 11"}},
		{"4d6r1kh3+2d6!!ro<=1", []int{1, 2, 6, 1, 5, 3, 1, 6, 6, 2, 4}, []string{"[(1↻2), 6, 1↻5, 3] + [1↻6!+6!+2, 4] = 32"}},
	}
	for _, c := range cases {
		e, err := Parse(c.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.in, err)
		}
		res, err := e.Roll(NewScripted(c.dice), nil)
		if err != nil {
			t.Fatalf("Roll(%q): %v", c.in, err)
		}
		for i, w := range c.want {
			if got := show(t, res, i); got != w {
				t.Errorf("%q roll %d: %q, want %q", c.in, i, got, w)
			}
		}
	}
	e, _ := Parse("2d6!!r1")
	res, _ := e.Roll(NewScripted([]int{1, 6, 1, 6, 2, 4}), nil)
	d := res.Dice[0]
	if r, p := res.Rerolled(d), res.Parts(d); len(r) != 2 || r[0] != 1 || r[1] != 1 || len(p) != 3 || p[0] != 6 || p[2] != 2 {
		t.Errorf("die 0: rerolled %v parts %v, want [1 1] [6 6 2]", r, p)
	}
	if r, p := res.Rerolled(res.Dice[1]), res.Parts(res.Dice[1]); len(r) != 0 || len(p) != 0 {
		t.Errorf("die 1: rerolled %v parts %v, want none", r, p)
	}
}

// TestResultShapes checks that every size of roll gets room for its dice
// and exactly its terms.
func TestResultShapes(t *testing.T) {
	for nt := 0; nt <= 4; nt++ {
		for nd := 0; nd <= 40; nd++ {
			r := newResult(nd, nt)
			if len(r.Dice) != 0 || cap(r.Dice) < nd || len(r.terms) != nt {
				t.Errorf("newResult(%d, %d): dice %d/%d, terms %d", nd, nt, len(r.Dice), cap(r.Dice), len(r.terms))
			}
		}
	}
}

// TestAllocations keeps the common rolls at one allocation for Parse (the
// Expr with its first term; one more per other node) and one for Roll.
func TestAllocations(t *testing.T) {
	src := Seeded(1)
	for _, c := range []struct {
		in    string
		parse float64
	}{{"1d100", 1}, {"4d6kh3", 1}, {"10d6", 1}, {"8d10>=7", 1}, {"1d100<=45", 1}, {"3d6 dc12", 2}, {"1d20 VS 12", 2}} {
		parse := testing.AllocsPerRun(100, func() { _, _ = Parse(c.in) })
		e, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		roll := testing.AllocsPerRun(100, func() { _, _ = e.Roll(src, nil) })
		if parse != c.parse || roll != 1 {
			t.Errorf("%s: Parse %v allocations, Roll %v; want %v and 1", c.in, parse, roll, c.parse)
		}
	}
}

// TestNestingCountsWhatIsTyped: issue 10. The limit said 20 where only 9
// parentheses were accepted (each was counted twice); now each
// parenthesis, function call and sign is one level, as a user counts.
func TestNestingCountsWhatIsTyped(t *testing.T) {
	nest := func(open string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(")", strings.Count(strings.Repeat(open, n), "("))
	}
	for _, c := range []struct {
		in   string
		deep bool
	}{
		{nest("(", MaxDepth), false},
		{nest("(", MaxDepth+1), true},
		{nest("-", MaxDepth), false},
		{nest("-", MaxDepth+1), true},
		{nest("+", MaxDepth+1), true},
		{nest("floor(", MaxDepth), false},
		{nest("abs(", MaxDepth+1), true},
		{nest("-(", MaxDepth/2), false},
		{nest("-(", MaxDepth/2) + "+1", false},
		{"2*" + nest("(-", MaxDepth/2+1), true},
		{"1d6+" + nest("(", MaxDepth) + " vs " + nest("(", MaxDepth), false},
		{"1d6 vs " + nest("(", MaxDepth+1), true},
	} {
		_, err := Parse(c.in)
		de, _ := AsError(err)
		switch {
		case c.deep && (de == nil || de.Code != CodeTooDeep || de.Max != MaxDepth):
			t.Errorf("%s: %v, want too deep (max %d)", c.in, err, MaxDepth)
		case !c.deep && err != nil:
			t.Errorf("%s: %v", c.in, err)
		}
	}
	// The value is right at the limit.
	e, err := Parse(nest("-", MaxDepth))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := e.Roll(Seeded(1), nil); err != nil || res.Total() != 1 {
		t.Errorf("20 minus signs: %v %v", res, err)
	}
}
