// Package systemstest reads the copies of the rules' tables (docs/*.md) kept in the
// systems' testdata folders, for tests that check the Go tables cell by cell.
package systemstest

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TSV returns the tab-separated rows of path, skipping blank lines and
// lines starting with "#".
func TSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, strings.Split(l, "\t"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
