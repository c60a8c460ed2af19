package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outsiderCase is one roll of an outsider file (testdata/outsider): the
// chat's words and the exact chance of each outcome, and of each further
// result's outcomes. An outcome missing from a map has chance 0; "" is
// the rolls with no outcome.
type outsiderCase struct {
	file, words string
	outcomes    map[string]string
	also        map[string]map[string]string
}

// readOutsider is the text of testdata/outsider/name.
func readOutsider(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "outsider", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// checkOutsiderOdds loads each case's file once (it must replay at least
// minVectors vectors), reads the case's words as the command does, gets
// the roll ready with ready (an error is the case's failure) and checks
// its exact odds against the case's.
func checkOutsiderOdds(t *testing.T, cases []outsiderCase, minVectors int, ready func(*System, *Parsed) error) {
	t.Helper()
	systems := map[string]*System{}
	for _, c := range cases {
		s := systems[c.file]
		if s == nil {
			var err error
			if s, err = Load([]byte(readOutsider(t, c.file+".yaml"))); err != nil {
				t.Fatalf("%s: %v", c.file, err)
			}
			if s.VectorCount() < minVectors {
				t.Errorf("%s: %d vectors replayed, the file has more", c.file, s.VectorCount())
			}
			systems[c.file] = s
		}
		p, err := s.ParseWords(strings.Fields(c.words))
		if err != nil {
			t.Errorf("%s %q: %v", c.file, c.words, err)
			continue
		}
		if err := ready(s, p); err != nil {
			t.Errorf("%s %q: %v", c.file, c.words, err)
			continue
		}
		od, err := s.Odds(p.Check, s.Params(p))
		if err != nil {
			t.Errorf("%s %q: %v", c.file, c.words, err)
			continue
		}
		if !od.Exact {
			t.Errorf("%s %q: the odds are sampled, not exact", c.file, c.words)
		}
		sameChances(t, c.file+" "+c.words, od.Outcomes, c.outcomes)
		for k, want := range c.also {
			sameChances(t, c.file+" "+c.words+" "+k, od.Also[k], want)
		}
	}
}
