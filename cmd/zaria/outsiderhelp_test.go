package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outsiderPath is the path of the outsider file name
// (core/systems/engine/testdata/outsider: games the project does not
// ship, written from docs/systems-format.md alone).
func outsiderPath(name string) string {
	return filepath.Join("..", "..", "core", "systems", "engine", "testdata", "outsider", name)
}

// readOutsider is the text of the outsider file name.
func readOutsider(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(outsiderPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// wantSystemTry runs zaria system try with the dice on the outsider
// file and the words, and fails unless it exits 0 and writes each of
// want and none of not.
func wantSystemTry(t *testing.T, dice, file, words string, want []string, not ...string) {
	t.Helper()
	code, out, errs := runZaria(t, "system", "try", "--dice", dice, outsiderPath(file), words)
	ok := code == 0
	for _, w := range want {
		ok = ok && strings.Contains(out, w)
	}
	for _, n := range not {
		ok = ok && !strings.Contains(out, n)
	}
	if !ok {
		t.Errorf("system try %s %q: exit %d: %s%s", file, words, code, out, errs)
	}
}
