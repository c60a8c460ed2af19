package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zaria system check accepts the shipped Dungeon Hack file, whose
// attack's words are its grammar (dice words, relative prefixes, a
// table lookup, named weapons that give their dice), and refuses one
// whose weapon gives a column its table lacks, naming it.
func TestSystemCheckDHGrammar(t *testing.T) {
	src := filepath.Join("..", "..", "core", "systems", "engine", "files", "dh.yaml")
	if code, out, errs := runZaria(t, "system", "check", src); code != 0 {
		t.Fatalf("check dh.yaml: %d %q %q", code, out, errs)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(b), "inputs: {dmg_n: 1, dmg_s: 2, pen: 3}", "inputs: {dmg_n: 1, dmg_s: 2, pen: 6}", 1)
	if broken == string(b) {
		t.Fatal("no weapon gives in dh.yaml")
	}
	bad := filepath.Join(t.TempDir(), "dh.yaml")
	if err := os.WriteFile(bad, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runZaria(t, "system", "check", bad); code != exitUser || !strings.Contains(errs, "gives") || !strings.Contains(errs, "weapons") {
		t.Fatalf("a weapon giving column 6: %d %q", code, errs)
	}
}
