package engine

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// The files of testdata/outsider are games the project does not ship,
// written by a tester from docs/systems-format.md alone: D&D 5e's
// ability check with advantage, Blades in the Dark's action roll,
// a contest with ties, Shadowrun 5e's hits and glitches, Ironsworn's action and progress
// rolls, the Cypher System's task roll. Each loads (every vector of the
// file holds), and its exact odds, read from the chat's words as the
// command reads them, are the ones testdata/outsider/odds.py computes on
// its own (python3 and fractions: every roll enumerated, or Shadowrun's
// pool by the multinomial of hits, 1s and the rest). An outcome missing
// from want has chance 0; "" is the rolls with no outcome.
func TestOutsiderFiles(t *testing.T) {
	cases := []outsiderCase{
		{"dnd5e", "+3 dc15", map[string]string{"success": "9/20", "failure": "11/20"}, nil},
		{"dnd5e", "+3 cd15 ventaja", map[string]string{"success": "279/400", "failure": "121/400"}, nil},
		{"dnd5e", "dc15 +3 μειονέκτημα", map[string]string{"success": "81/400", "failure": "319/400"}, nil},
		{"dnd5e", "-1 dc15 adv dis", map[string]string{"success": "1/4", "failure": "3/4"}, nil},
		{"dnd5e", "+5 vs +3", map[string]string{"success": "229/400", "tie": "9/200", "failure": "153/400"}, nil},
		{"dnd5e", "+5 ventaja vs +3", map[string]string{"success": "5891/8000", "tie": "81/2000", "failure": "357/1600"}, nil},
		{"blades", "0", map[string]string{"full": "1/36", "partial": "2/9", "bad": "3/4"}, nil},
		{"blades", "3", map[string]string{"critical": "2/27", "full": "25/72", "partial": "49/108", "bad": "1/8"}, nil},
		{"blades", "4", map[string]string{"critical": "19/144", "full": "125/324", "partial": "34/81", "bad": "1/16"}, nil},
		{"sr5", "6 t2", map[string]string{"success": "473/729", "failure": "256/729"},
			map[string]map[string]string{"glitch": {"glitch": "7/1296", "critical_glitch": "77/23328", "": "23125/23328"}}},
		{"sr5", "12 umbral 4", map[string]string{"success": "107515/177147", "failure": "69632/177147"},
			map[string]map[string]string{"glitch": {"glitch": "20113/17006112", "critical_glitch": "119561/1088391168", "": "362328125/362797056"}}},
		{"sr5", "12 t4 l3", map[string]string{"failure": "1"}, nil},
		// Past 10^15 rolls (6^20, 6^32): exact in big integers.
		{"sr5", "20 t5", map[string]string{"success": "986166235/1162261467", "failure": "176095232/1162261467"},
			map[string]map[string]string{"glitch": {"glitch": "164771257/1586874322944", "critical_glitch": "2167215299/1828079220031488", "": "1827887236328125/1828079220031488"}}},
		{"sr5", "32 umbral 10", map[string]string{"success": "409186489821739/617673396283947", "failure": "208486906462208/617673396283947"},
			map[string]map[string]string{"glitch": {"glitch": "80535089117115077/31088519960728128454656", "critical_glitch": "11073480701760349/7958661109946400884391936", "": "884293386876678466796875/884295678882933431599104"}}},
		{"sr5", "3", map[string]string{"": "1"},
			map[string]map[string]string{"glitch": {"glitch": "1/36", "critical_glitch": "5/108", "": "25/27"}}},
		{"ironsworn", "2", map[string]string{"strong": "139/600", "weak": "131/300", "miss": "199/600"},
			map[string]map[string]string{"match": {"match": "1/10", "": "9/10"}}},
		{"ironsworn", "5+10", map[string]string{"strong": "81/100", "weak": "9/50", "miss": "1/100"}, nil},
		{"ironsworn", "progreso 6", map[string]string{"strong": "1/4", "weak": "1/2", "miss": "1/4"},
			map[string]map[string]string{"match": {"match": "1/10", "": "9/10"}}},
		{"cypher", "difícil", map[string]string{"success": "9/20", "failure": "11/20"},
			map[string]map[string]string{"special": {"intrusion": "1/20", "damage1": "1/20", "damage2": "1/20", "minor": "1/20", "major": "1/20", "": "3/4"}}},
		{"cypher", "5 f1", map[string]string{"success": "9/20", "failure": "11/20"}, nil},
		{"cypher", "formidable", map[string]string{"failure": "1"}, nil},
		{"cypher", "2 facilita 3", map[string]string{"success": "1"}, nil},
	}
	// Terms ("5+10") are summed by Resolve; no sheet is read.
	zero := func(string) (int, error) { return 0, nil }
	checkOutsiderOdds(t, cases, 8, func(s *System, p *Parsed) error {
		if _, err := s.Resolve(&p.Active, zero); err != nil {
			return err
		}
		if p.Passive != nil {
			_, err := s.Resolve(p.Passive, zero)
			return err
		}
		return nil
	})
}

// sameChances fails unless got gives each key of want its chance, and any
// other key none.
func sameChances(t *testing.T, what string, got map[string]*big.Rat, want map[string]string) {
	t.Helper()
	for k, w := range want {
		r, _ := new(big.Rat).SetString(w)
		if g := got[k]; g == nil || g.Cmp(r) != 0 {
			t.Errorf("%s: %q has chance %s, want %s", what, k, ratStr(g), w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok && g.Sign() != 0 {
			t.Errorf("%s: %q has chance %s, want none", what, k, g.RatString())
		}
	}
}

// A vector expects "" of a further result none of whose overrides
// applies (Ironsworn's match on unequal challenge dice), and names a
// further result the check lacks.
func TestVectorAlsoNone(t *testing.T) {
	src := readOutsider(t, "ironsworn.yaml")
	if !strings.Contains(src, `also: {match: ""}`) {
		t.Fatal("the file no longer expects no match")
	}
	if _, err := Load([]byte(src)); err != nil {
		t.Fatal(err)
	}
	_, err := Load([]byte(strings.Replace(src, `also: {match: ""}`, `also: {match: match}`, 1)))
	if err == nil || !strings.Contains(err.Error(), `match "", expected "match"`) {
		t.Errorf("a match expected of unequal dice: %v", err)
	}
	_, err = Load([]byte(strings.Replace(src, `also: {match: ""}`, `also: {matches: ""}`, 1)))
	if err == nil || !strings.Contains(err.Error(), `no further result "matches"`) {
		t.Errorf("a further result the check lacks: %v", err)
	}
}

// A value of the wrong YAML type (a terms input's default written as
// text) is refused with its line, said once, what goes there and the
// value written.
func TestYAMLErrorLineOnce(t *testing.T) {
	src := readOutsider(t, "ironsworn.yaml")
	_, err := Load([]byte(strings.Replace(src, "default: 0\n", "default: \"0\"\n", 1)))
	var e *Error
	if !errors.As(err, &e) || e.Line != 13 {
		t.Fatalf("got %v, want an error of line 13", err)
	}
	if what := fmt.Sprint(e.Args["what"]); strings.Contains(what, "line") || !strings.Contains(what, "a whole number") || !strings.Contains(what, `"0"`) {
		t.Errorf("the message %q repeats the line or lacks what is wrong", what)
	}
}

// A vector's odds give single outcomes' exact chances, of the check's
// own outcomes or a further result's; a wrong chance, an outcome or a
// further result that does not exist refuses the file.
func TestVectorOdds(t *testing.T) {
	blades, sr := readOutsider(t, "blades.yaml"), readOutsider(t, "sr5.yaml")
	for _, c := range []struct{ src, old, new, want string }{
		{blades, "critical: 2/27,", "critical: 1/27,", "odds of critical 2/27, expected 1/27"},
		{blades, "critical: 2/27,", "crit: 2/27,", `no outcome "crit"`},
		{blades, "critical: 2/27,", "critical: two,", `"two" is not a fraction`},
		{sr, "glitch.glitch: 7/1296", "glitch.glitch: 5/1296", "odds of glitch.glitch 7/1296, expected 5/1296"},
		{sr, "glitch.glitch: 7/1296", "glitches.glitch: 7/1296", `no further result "glitches"`},
		{sr, `"glitch.": 23125/23328`, `"glitch.": 1`, "odds of glitch. 23125/23328, expected 1"},
	} {
		if !strings.Contains(c.src, c.old) {
			t.Fatalf("the file lacks %q", c.old)
		}
		_, err := Load([]byte(strings.Replace(c.src, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.new, err, c.want)
		}
	}
}
