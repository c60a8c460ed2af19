package engine

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core/dice"
)

// loadOutsider4 loads a file of the fourth outsider (testdata/outsider4):
// its vectors replayed as zaria system check does.
func loadOutsider4(t *testing.T, file string, edits ...string) *System {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "outsider4", file+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(text, edits[i]) {
			t.Fatalf("%s: %q is no longer in the file", file, edits[i])
		}
		text = strings.Replace(text, edits[i], edits[i+1], 1)
	}
	s, err := Load([]byte(text))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

// The fourth outsider's files: Chronicles of Darkness, Burning Wheel,
// Wrath & Glory, Cortex (simplified), Dark Heresy 2e. Each loads (its
// vectors hold), and the chance of success of the chat's words, as the
// command reads them, is the one testdata/outsider4/oddsB.py computes
// on its own (python3 and fractions).
func TestOutsider4Files(t *testing.T) {
	cases := []struct{ file, words, chance string }{
		{"cofd", "5", "83193/100000"},
		{"cofd", "0", "1/10"},
		{"cofd", "10", "9717524751/10000000000"},
		{"bw", "4 ob2", "11/16"},
		{"bw", "4 gris ob2", "8/9"},
		{"bw", "4 white ob3", "125/144"},
		{"bw", "5 ob3 abierta", "343/576"},
		{"wg", "5 dn4", "191/432"},
		{"wg", "5", "97/144"},
		{"wg", "10 δα12", "240955/10077696"},
		{"cortex", "2d8 1d6 10", "185/384"},
		{"cortex", "4d8 3d6 10", "774767/884736"},
		{"dh2", "35", "7/20"},
		{"dh2", "35 +10", "9/20"},
		{"dh2", "35 -10", "1/4"},
		{"dh2", "+10 35", "9/20"},
		{"dh2", "90 +30", "99/100"},
	}
	systems := map[string]*System{}
	for _, f := range []string{"cofd", "bw", "wg", "cortex", "dh2"} {
		systems[f] = loadOutsider4(t, f)
		if n := systems[f].VectorCount(); n < 10 {
			t.Errorf("%s: %d vectors replayed, the file has more", f, n)
		}
	}
	for _, c := range cases {
		s := systems[c.file]
		p, err := s.ParseWords(strings.Fields(c.words))
		if err != nil {
			t.Errorf("%s %q: %v", c.file, c.words, err)
			continue
		}
		got, exact, err := s.Chance(p.Check, s.Params(p))
		if err != nil {
			t.Errorf("%s %q: %v", c.file, c.words, err)
			continue
		}
		want, _ := new(big.Rat).SetString(c.chance)
		if !exact || got.Cmp(want) != 0 {
			t.Errorf("%s %q: chance %s (exact %v), want %s", c.file, c.words, got.RatString(), exact, c.chance)
		}
	}
}

// A pool whose count comes below 0 ("pool - 1" with a pool of 0) rolls
// no dice, as Roll20's 0d6: Wrath & Glory's pool of 0 is the Wrath die
// alone, in a roll, its odds and a vector; never an internal error.
func TestNegativeCountRollsNoDice(t *testing.T) {
	const vec = "  - {name: G5 wrath alone,"
	s := loadOutsider4(t, "wg",
		"{key: pool, type: number, min: 1,", "{key: pool, type: number, min: 0,",
		vec, "  - {name: Z0 no pool, inputs: {pool: \"0\", dn: \"1\"}, dice: [4], expect: {outcome: success, total: \"1\"}}\n"+
			"  - {name: Z0 odds, inputs: {pool: \"0\", dn: \"1\"}, expect: {chance: 1/2}}\n"+vec)
	p, err := s.ParseWords([]string{"0", "dn1"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Roll(p.Check, s.Params(p), dice.NewScripted([]int{5}))
	if err != nil {
		t.Fatalf("0 dn1: %v", err)
	}
	if len(res.Dice) != 1 || res.Dice[0] != 5 || res.Outcome != "success" {
		t.Errorf("0 dn1 with a 5: dice %v, %s; want the Wrath die alone, a success", res.Dice, res.Outcome)
	}
	od, err := s.Odds(p.Check, s.Params(p))
	if err != nil {
		t.Fatalf("0 dn1 odds: %v", err)
	}
	sameChances(t, "0 dn1", od.Outcomes, map[string]string{"success": "1/2", "failure": "1/2"})
	sameChances(t, "0 dn1 wrath", od.Also["wrath"], map[string]string{"critical": "1/6", "complication": "1/6", "": "2/3"})
}

// A number with its sign goes to the first input declared signed: true
// that may take it, wherever it is typed (Dark Heresy 2e's modifier:
// "+10 35" is 35 with +10, as "35 +10"); without a signed input, a sign
// does not change which input a number goes to.
func TestSignedWordToSignedInput(t *testing.T) {
	signed := loadOutsider4(t, "dh2", "default: 0, names: {es: modificador", "default: 0, signed: true, names: {es: modificador")
	plain := loadOutsider4(t, "dh2")
	cases := []struct {
		s         *System
		words     string
		char, mod int
		err       string
	}{
		{signed, "+10 35", 35, 10, ""},
		{signed, "35 +10", 35, 10, ""},
		{signed, "-10 35", 35, -10, ""},
		{signed, "−20 40", 40, -20, ""},
		{signed, "+10", 0, 0, "missing char"},
		{signed, "35 10", 0, 0, `word "10"`},
		{plain, "+10 35", 10, 35, ""},
		{plain, "35 +10", 35, 10, ""},
	}
	for _, c := range cases {
		p, err := c.s.ParseWords(strings.Fields(c.words))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %s", c.words, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.words, err)
			continue
		}
		in := c.s.Params(p).Inputs
		if in["char"] != c.char || in["mod"] != c.mod {
			t.Errorf("%q: char %d, mod %d; want %d, %d", c.words, in["char"], in["mod"], c.char, c.mod)
		}
	}
}

// A vector's input may be a named value as the file writes it, by its
// key or its name (Burning Wheel's "shade: grey", "shade: gris"), as a
// GM writes it; a word that names none still refuses the file.
func TestVectorNamedValue(t *testing.T) {
	const b3 = `inputs: {pool: "4", shade: "3", ob: "3"}`
	for _, shade := range []string{"grey", "Grey", "gris", "γκρίζα"} {
		s := loadOutsider4(t, "bw", b3, `inputs: {pool: "4", shade: `+shade+`, ob: "3"}`)
		if s.VectorCount() < 10 {
			t.Errorf("shade %s: %d vectors", shade, s.VectorCount())
		}
	}
	src, err := os.ReadFile(filepath.Join("testdata", "outsider4", "bw.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load([]byte(strings.Replace(string(src), b3, `inputs: {pool: "4", shade: purple, ob: "3"}`, 1)))
	if err == nil || !strings.Contains(err.Error(), `input shade: "purple" is not a number`) {
		t.Errorf("shade purple: %v", err)
	}
	// The named value's number, not another's: black (4+) fails B3's dice.
	_, err = Load([]byte(strings.Replace(string(src), b3, `inputs: {pool: "4", shade: black, ob: "3"}`, 1)))
	if err == nil || !strings.Contains(err.Error(), "B3 grey") {
		t.Errorf("shade black: %v", err)
	}
}
