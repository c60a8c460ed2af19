package initiative_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"zaria/core"
	"zaria/i18n"
)

// Every key /init uses exists in es, el and en and renders with its
// arguments (no "<no value>", no leftover braces) in both plural forms.
func TestInitiativeCatalogs(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`"(init\.[a-z_.]+)"`)
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			k := m[1]
			if strings.HasSuffix(k, ".") { // "init.what." + what
				for _, w := range []string{"add", "start", "remove", "move", "end", "undo", "hp", "condition"} {
					seen[k+w] = true
				}
				continue
			}
			seen[k] = true
		}
	}
	if len(seen) < 50 {
		t.Fatalf("only %d keys found", len(seen))
	}
	args := map[string]any{"name": "Orco", "init": 12, "round": 3, "rounds": 3, "user": "Ana", "condition": "aturdido",
		"old": 15, "new": 9, "max": 30, "got": 33, "pos": 1, "expr": "1d20", "what": "x", "suggestion": "Orco",
		"fallen": "Orco 2", "minutes": 15, "pre": "/"}
	for _, lang := range core.Langs() {
		have := map[string]bool{}
		for _, k := range cat.Keys(lang) {
			have[k] = true
		}
		for k := range seen {
			if !have[k] {
				t.Errorf("%s: key %q missing", lang, k)
				continue
			}
			for _, n := range []int{1, 2, 5} {
				a := map[string]any{"count": n}
				for x, v := range args {
					a[x] = v
				}
				if s := cat.Translate(lang, k, a); s == k || strings.Contains(s, "<no value>") || strings.Contains(s, "{{") {
					t.Errorf("%s: %q renders as %q", lang, k, s)
				}
			}
		}
	}
}
