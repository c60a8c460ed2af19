package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outsider3 reads a file of the third outsider (testdata/outsider3:
// GURPS, Traveller, Pendragon, Exalted 3e, Mörk Borg, written from
// docs/systems-format.md alone; oddsA.py computes their chances).
func outsider3(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "outsider3", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// Every file of the third outsider loads, so each of its vectors holds
// (Load replays them all: a chance that is not oddsA.py's refuses the
// file), and a vector changed to a wrong outcome or chance refuses it.
func TestOutsider3Files(t *testing.T) {
	for _, f := range []struct {
		name    string
		vectors int
		good    string // a vector's expectation, and a wrong one
		bad     string
	}{
		{"gurps", 28, "expect: {chance: 3527/7776, odds: {tie: 361/3888}}", "expect: {chance: 3528/7776, odds: {tie: 361/3888}}"},
		{"traveller", 16, "", ""},
		{"pendragon", 24, "", ""},
		{"exalted", 18, "expect: {chance: 98/125, odds: {botch: 91/1000}}", "expect: {chance: 98/125, odds: {botch: 92/1000}}"},
		{"morkborg", 15, "expect: {outcome: crit, total: \"17\"}", "expect: {outcome: success, total: \"17\"}"},
	} {
		src := outsider3(t, f.name)
		s, err := Load(src)
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		if s.VectorCount() != f.vectors {
			t.Errorf("%s: %d vectors, want %d", f.name, s.VectorCount(), f.vectors)
		}
		if f.good == "" {
			continue
		}
		if !strings.Contains(string(src), f.good) {
			t.Fatalf("%s: the vector %q changed", f.name, f.good)
		}
		if _, err := Load([]byte(strings.Replace(string(src), f.good, f.bad, 1))); err == nil {
			t.Errorf("%s: a wrong vector (%s) loads", f.name, f.bad)
		}
	}
}

// A vector's chance on a check whose odds are sampled (Exalted's 16
// dice: past the exact budget) can never hold: the file is refused
// saying so, whether the fraction is the sample's or the exact one.
func TestSampledChanceVectorRefused(t *testing.T) {
	src := string(outsider3(t, "exalted"))
	const last = "  - {name: E18 odds tn10, inputs: {pool: \"4\", tn: \"10\"}, expect: {chance: 3439/10000, odds: {botch: 493/2000}}}\n"
	if !strings.Contains(src, last) {
		t.Fatal("the file's last vector changed")
	}
	for _, x := range []string{"{chance: 1/2}", "{odds: {botch: 1/1000}}"} {
		bad := strings.Replace(src, last, last+"  - {name: E19 sixteen dice, inputs: {pool: \"16\"}, expect: "+x+"}\n", 1)
		_, err := Load([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), "E19") || !strings.Contains(err.Error(), "whose odds are sampled (≈)") {
			t.Errorf("%s: %v", x, err)
		}
	}
}

// A named value the chat could never type is refused when the file
// loads: a name of more than MaxNamedWords words (the chat reads up to
// four), and a prefix that does not start with a letter ("8+": "8+6"
// is read as a+b).
func TestUntypableWordsRefused(t *testing.T) {
	src := string(outsider3(t, "morkborg"))
	const name = "en: Should not be possible}"
	const prefix = "prefixes: [dr, dif, δυσκ, ΒΔ]"
	if !strings.Contains(src, name) || !strings.Contains(src, prefix) {
		t.Fatal("the file's words changed")
	}
	for _, c := range []struct{ old, new, want string }{
		{name, "en: Should really not be possible}", `named value impossible: "Should really not be possible" has 5 words, and the chat reads a name of at most 4`},
		{"keywords: [pretty simple]", "keywords: [a pretty simple one here]", `"a pretty simple one here" has 5 words`},
		{prefix, "prefixes: [dr, 8+]", `prefix "8+" does not start with a letter`},
		{prefix, "prefixes: [dr, +]", `prefix "+" does not start with a letter`},
	} {
		_, err := Load([]byte(strings.Replace(src, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.new, err)
		}
	}
	// Four words are typed, and read.
	s, err := Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Parse(strings.Fields("+1 should not be possible"))
	if err != nil || p.Active.Inputs["dr"] != 18 {
		t.Errorf("four words: %+v %v", p, err)
	}
}
