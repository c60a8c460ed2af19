package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runZaria(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	out, errs, code := zaria(t, "", env(), args...)
	return code, out, errs
}

// Every reply of the systems that became files is what the Go code gave:
// testdata/replies_before_files.jsonl was recorded with the binary of
// 85ee367 (before the port), zaria roll --json --dice … in es, el and en,
// rolls, errors, named difficulties in every language and /odds.
func TestRepliesAsBeforeFiles(t *testing.T) {
	b, err := os.ReadFile("testdata/replies_before_files.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var c struct {
			Lang, Dice, Text, Stdout, Stderr string
			Code                             int
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		args := []string{"roll", "--lang", c.Lang, "--json"}
		if c.Dice != "" {
			args = append(args, "--dice", c.Dice)
		}
		out, errs, code := zaria(t, "", env(), append(args, c.Text)...)
		if out != c.Stdout || errs != c.Stderr || code != c.Code {
			t.Errorf("%s %s --dice %s: now %d %q %q\nbefore %d %q %q", c.Lang, c.Text, c.Dice, code, out, errs, c.Code, c.Stdout, c.Stderr)
		}
		n++
	}
	if n < 150 {
		t.Errorf("only %d replies", n)
	}
}

// zaria system list, show and check, as an operator or a GM writing a
// file offline uses them.
func TestSystemCommand(t *testing.T) {
	code, out, _ := runZaria(t, "system", "list")
	if code != 0 || !strings.Contains(out, "zaria\t/zaria\t") {
		t.Fatalf("list: %d %q", code, out)
	}
	code, shown, _ := runZaria(t, "system", "show", "zaria")
	if code != 0 || !strings.HasPrefix(shown, "# Ζαριά") || !strings.Contains(shown, "vectors:") {
		t.Fatalf("show: %d %q", code, shown[:min(len(shown), 200)])
	}
	if code, _, errs := runZaria(t, "system", "show", "nosuch"); code != exitUser || !strings.Contains(errs, `no system "nosuch"`) {
		t.Fatalf("show unknown: %d %q", code, errs)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "zaria.yaml")
	if err := os.WriteFile(good, []byte(shown), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runZaria(t, "system", "check", good)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || !strings.HasSuffix(lines[len(lines)-1], " vectors hold") || strings.HasPrefix(lines[len(lines)-1], "0 ") {
		t.Fatalf("check: %d %q %q", code, out, errs)
	}
	if !strings.Contains(out, "  check: mod (stat 1..10 + skill 0..10), npc [npc pnj μπχ nps], dc 5..30 [dc cd δκ] optional (ridiculously easy 5,") {
		t.Errorf("check does not show the grammar: %q", out)
	}
	// One vector changed: refused, naming it and its line.
	bad := filepath.Join(dir, "bad.yaml")
	changed := strings.Replace(shown, "dice: [3], expect: {outcome: failure", "dice: [3], expect: {outcome: success", 1)
	if changed == shown {
		t.Fatal("the vector to change is not in the file")
	}
	if err := os.WriteFile(bad, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runZaria(t, "system", "check", bad)
	if code != exitUser || !strings.Contains(errs, "Example «Z8» does not hold") || !strings.Contains(errs, "outcome \"failure\", expected \"success\"") {
		t.Fatalf("changed vector: %d %q", code, errs)
	}
	// A limit passed and a malformed file name it, and the line.
	if err := os.WriteFile(bad, []byte(strings.Replace(shown, "faces: 10}", "faces: 5000}", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs = runZaria(t, "system", "check", bad); code != exitUser || !strings.Contains(errs, "5000 faces; from 2 to 1000") {
		t.Fatalf("limit: %d %q", code, errs)
	}
	if err := os.WriteFile(bad, []byte("system: zaria\ntitle: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs = runZaria(t, "system", "check", bad); code != exitUser || !strings.Contains(errs, "Line 2") && !strings.Contains(errs, "Line 3") {
		t.Fatalf("malformed: %d %q", code, errs)
	}
}

// zaria system try reads a check's words from the file's inputs in any
// order, rolls the given dice and gives the exact chance.
func TestSystemTry(t *testing.T) {
	for _, words := range []string{"fuerza+atletismo dc15 @Elara", "dc15 4+2", "4+2 medio"} {
		code, out, errs := runZaria(t, "system", "try", "--dice", "3,8", "zaria", words)
		if !strings.Contains(words, "fuerza") && (code != 0 || !strings.Contains(out, "dice [3 8], total 11, failure") || !strings.Contains(out, "chance = 3/50")) {
			t.Errorf("%q: %d %q %q", words, code, out, errs)
		}
		if strings.Contains(words, "fuerza") && (code != exitUser || !strings.Contains(errs, "goes from 1 to 10")) {
			t.Errorf("%q: sheet keys read 0, a stat out of range: %d %q %q", words, code, out, errs)
		}
	}
	code, out, _ := runZaria(t, "system", "try", "--dice", "9,8,3,10", "daegon", "12 vs 7")
	if code != 0 || !strings.Contains(out, "active wins") || !strings.Contains(out, "chance = 229/250") {
		t.Errorf("daegon opposed: %d %q", code, out)
	}
	if code, _, errs := runZaria(t, "system", "try", "zaria", "4+2 dc40"); code != exitUser || !strings.Contains(errs, "dc40") {
		t.Errorf("out of range: %d %q", code, errs)
	}
}
