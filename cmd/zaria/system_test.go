package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runZaria(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	return code, out.String(), errb.String()
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
