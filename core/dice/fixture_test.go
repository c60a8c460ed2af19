package dice

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// updateFixture rewrites testdata/odds_fixture.json from the code as it
// is: go test -run TestOddsFixture ./core/dice/ -update-odds-fixture.
var updateFixture = flag.Bool("update-odds-fixture", false, "rewrite testdata/odds_fixture.json")

const fixturePath = "testdata/odds_fixture.json"

// fixtureLong is the length of the fractions past which the fixture keeps
// their hash only (100d6's are 69 kB).
const fixtureLong = 8000

// fixtureEntry is one expression's distribution as the odds gave it when
// the fixture was written (issue 40: before the odds of big pools and
// exploding sums were rewritten).
type fixtureEntry struct {
	Expr string `json:"expr"`
	// Kind is "exact", "cut" (an explosion's tail cut: Approx) or
	// "sampled" (no distribution recorded).
	Kind string   `json:"kind"`
	Min  int64    `json:"min,omitempty"`
	P    []string `json:"p,omitempty"` // P(Min+i) as "p/q"
	// Long distributions are recorded by the SHA-256 of their fractions
	// joined by spaces, and how many there are.
	PSHA256 string `json:"p_sha256,omitempty"`
	N       int    `json:"n,omitempty"`
	Chance  string `json:"chance,omitempty"`
}

func fixtureOf(t *testing.T, in string) (fixtureEntry, bool) {
	e, err := Parse(in)
	if err != nil || len(e.dice) == 0 {
		return fixtureEntry{}, false
	}
	o, err := e.Odds(nil)
	if err != nil {
		return fixtureEntry{}, false
	}
	f := fixtureEntry{Expr: in}
	switch {
	case o.Sampled:
		f.Kind = "sampled"
		return f, true
	case o.Approx:
		f.Kind = "cut"
	default:
		f.Kind = "exact"
	}
	f.Min, f.P = o.Min, o.Fractions()
	if all := strings.Join(f.P, " "); len(all) > fixtureLong {
		sum := sha256.Sum256([]byte(all))
		f.PSHA256, f.N, f.P = hex.EncodeToString(sum[:]), len(f.P), nil
	}
	if o.ChanceExact != nil {
		f.Chance = o.ChanceExact.RatString()
	}
	return f, true
}

// fixtureExprs are the expressions the fixture records: every code span of
// the docs (README.md and docs/*.md; a command's name, "?" and the parts of
// "a | b" taken off) and every string literal of this package's tests that
// parses as dice.
func fixtureExprs(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s == "" || seen[s] {
			return
		}
		if e, err := Parse(s); err != nil || len(e.dice) == 0 {
			return
		}
		seen[s] = true
		out = append(out, s)
	}
	docs, _ := filepath.Glob("../../docs/*.md")
	docs = append(docs, "../../README.md")
	span := regexp.MustCompile("`([^`\n]+)`")
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range span.FindAllStringSubmatch(string(b), -1) {
			s := m[1]
			if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "!") || strings.HasPrefix(s, ".") {
				_, s, _ = strings.Cut(s, " ")
			}
			for _, part := range strings.Split(s, "|") {
				add(strings.TrimSuffix(strings.TrimSpace(part), "?"))
			}
		}
	}
	tests, _ := filepath.Glob("*_test.go")
	fset := gotoken.NewFileSet()
	for _, path := range tests {
		f, err := goparser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == gotoken.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && len(s) < 80 {
					add(s)
				}
			}
			return true
		})
	}
	slices.Sort(out)
	return out
}

// TestOddsFixture: nothing that was exact before issue 40 changes by a
// single fraction, nor does any distribution cut where an explosion's tail
// weighs under 10⁻¹²; what was sampled may now be computed.
func TestOddsFixture(t *testing.T) {
	if *updateFixture {
		var all []fixtureEntry
		for _, in := range fixtureExprs(t) {
			if f, ok := fixtureOf(t, in); ok {
				all = append(all, f)
			}
		}
		b, err := json.MarshalIndent(all, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fixturePath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d expressions written", len(all))
	}
	b, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	var all []fixtureEntry
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	if len(all) < 100 {
		t.Fatalf("the fixture holds %d expressions: too few to guard anything", len(all))
	}
	for _, want := range all {
		got, ok := fixtureOf(t, want.Expr)
		switch {
		case !ok:
			t.Errorf("%s: no odds any more", want.Expr)
		case want.Kind == "sampled":
			// anything better is welcome
		case got.Kind != want.Kind:
			t.Errorf("%s: %s, was %s", want.Expr, got.Kind, want.Kind)
		case got.Min != want.Min || !slices.Equal(got.P, want.P) || got.PSHA256 != want.PSHA256 || got.Chance != want.Chance:
			t.Errorf("%s: the distribution changed:\n got min %d %v chance %s\nwant min %d %v chance %s",
				want.Expr, got.Min, got.P, got.Chance, want.Min, want.P, want.Chance)
		}
	}
}
