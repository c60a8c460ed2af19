package i18n_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"zaria/core"
	"zaria/i18n"
)

// Every key the character commands use (core/sheet, gm, history,
// transfer, alias) exists in es, el and en, renders with its
// arguments (no "<no value>", no leftover braces) in both plural forms, and
// fits a phone screen.
func TestCharacterCatalogs(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	keys := usedKeys(t)
	if len(keys) < 80 {
		t.Fatalf("found only %d keys in the sources", len(keys))
	}
	args := map[string]any{
		"name": "Drake", "owner": "Ana", "character": "Drake", "value": "4", "suggestion": "fuerza",
		"max": 10, "got": 12, "old": 2, "systems": "zaria, rq", "system": "RQ", "command": "/pj", "text": "/roll 1d20",
		"target": "rol", "n": 2, "ids": "1, 2", "file": "z.json", "version": 2, "first": "A", "second": "B",
		"keep": 500, "users": 3, "need": 30, "chi": "1.0", "df": 5, "p": "0.5", "expected": "5.0",
		"low": 1, "lowcount": 3, "other": "Drаke", "date": "9999-12-31T00:00:00Z", "min": 1678, "high": 6, "highcount": 9, "seconds": 2, "names": "Drake, Mira", "flag": "--x", "pre": "/", "field": "value", "cmd": "/stats detalle", "chain": "/a → /b → /c → /d → /roll", "zone": "Europe/Madrid",
		"icon": "❤️", "new": 9, "values": "fuerza = 4 · atletismo = 2", "minutes": 15,
	}
	for _, lang := range core.Langs() {
		have := map[string]bool{}
		for _, k := range cat.Keys(lang) {
			have[k] = true
		}
		for _, k := range keys {
			if !have[k] {
				t.Errorf("%s: key %q missing", lang, k)
				continue
			}
			for _, count := range []int{1, 2, 5} {
				a := map[string]any{"count": count}
				for n, v := range args {
					a[n] = v
				}
				s := cat.Translate(lang, k, a)
				if s == k || s == "" || strings.Contains(s, "<no value>") || strings.Contains(s, "{{") {
					t.Errorf("%s: %q renders as %q", lang, k, s)
				}
				if n := len([]rune(s)); n > 240 {
					t.Errorf("%s: %q is %d characters, too long for a phone", lang, k, n)
				}
			}
		}
	}
}

// usedKeys lists the message keys in the character commands' sources, expanding the
// name kinds of checkName and the two-way choices.
func usedKeys(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"../core/sheet", "../core/gm", "../core/history", "../core/transfer", "../core/alias"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	re := regexp.MustCompile(`"((?:character|gm|alias|import|export|history|stats)\.[a-z_]+)"`)
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			k := m[1]
			if strings.HasSuffix(k, "_") {
				for _, kind := range []string{"character", "value", "alias"} {
					seen[k+kind] = true
				}
				continue
			}
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	return out
}
