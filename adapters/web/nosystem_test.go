package web

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"zaria/core/systems/engine"
)

// TestNamesNoSystem: issue 33, the page's forms come from the file. The
// web adapter (its code, pages, script and style; not its tests, nor
// its README's examples) names no system: not a file's key, command, alias or title in any
// language, nor Dungeon Hack's (its attack is its file's form). A system added as a file is offered without a line here.
func TestNamesNoSystem(t *testing.T) {
	names := []string{"dh", "dungeon hack", "dungeonhack", "runequest"}
	for _, key := range engine.Shipped() {
		f := engine.MustBuiltin(key).File
		names = append(names, f.System, f.Command, f.Title.ES, f.Title.EL, f.Title.EN)
		names = append(names, f.Aliases...)
	}
	// A name as a word of its own ("Kingdom Hearts", not 2d20kh1's kh);
	// a short one ("kh", "z") or the project's own name ("zaria", its
	// import paths and headers) as a string or a command: "kh", 'z',
	// /zaria.
	var long, short []string
	for _, n := range names {
		switch q := regexp.QuoteMeta(strings.ToLower(n)); {
		case len([]rune(n)) < 2: // z, ζ: letters, not names
		case len([]rune(n)) <= 2 || strings.EqualFold(n, "zaria"):
			short = append(short, q)
		default:
			long = append(long, q)
		}
	}
	re := regexp.MustCompile(`(?i)(^|[^\pL\pN_])(` + strings.Join(long, "|") + `)([^\pL\pN_]|$)|` +
		`(^|[^\pL\pN_])(["'\x60/])(` + strings.Join(short, "|") + `)(["'\x60\s]|$)`)
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == "testdata" || path == "webtest" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".md") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if m := re.FindStringSubmatch(line); m != nil {
				t.Errorf("%s:%d names the system %q: %s", path, i+1, m[2]+m[6], strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d files read", checked)
	}
}
