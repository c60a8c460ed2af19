package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shellWords splits a command line the way the rules guide writes it: words
// separated by spaces, 'single-quoted' text kept whole.
func shellWords(s string) []string {
	var out []string
	var b strings.Builder
	in, any := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			in, any = !in, true
		case r == ' ' && !in:
			if any {
				out = append(out, b.String())
				b.Reset()
				any = false
			}
		default:
			b.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, b.String())
	}
	return out
}

// docExample is one "$ zaria roll …" line of a page and the answer printed
// under it.
type docExample struct {
	args []string
	want []string
}

// docExamples reads the examples of a page's code blocks, in order.
func docExamples(text string) []docExample {
	var out []docExample
	inBlock := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inBlock = !inBlock
		case !inBlock:
		case strings.HasPrefix(line, "$ zaria "):
			out = append(out, docExample{args: shellWords(strings.TrimPrefix(line, "$ zaria "))})
		case len(out) > 0:
			out[len(out)-1].want = append(out[len(out)-1].want, line)
		}
	}
	return out
}

// TestDocsExamplesAreReal: every example of the rules guide (docs/*.md) is
// what zaria answers today. Each page runs in order in its own folder, so
// that its --db files carry state from one example to the next. /odds and
// a roll with "?" may show only the head of the answer (the console's bar
// chart is left out), and an export is run but not compared (it holds the
// time).
func TestDocsExamplesAreReal(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for _, ex := range docExamples(string(b)) {
			total++
			args := append([]string(nil), ex.args...)
			for i := range args {
				if i > 0 && args[i-1] == "--db" {
					args[i] = filepath.Join(dir, args[i])
				}
			}
			out, errs, _ := zaria(t, "", env(), args...)
			if line := strings.Join(args, " "); !strings.Contains(line, "--seed") && !strings.Contains(line, "--dice") && !strings.Contains(line, "--db") {
				// Without --seed or --dice an example must not roll: twice
				// the same answer, or the page cannot show it. (An example
				// on a --db changes the chat and is not run twice.)
				if again, errs2, _ := zaria(t, "", env(), args...); again+errs2 != out+errs && !strings.Contains(args[len(args)-1], "/export") {
					t.Errorf("docs/%s: zaria %s rolls dice: give it --seed or --dice", filepath.Base(p), strings.Join(ex.args, " "))
				}
			}
			got := strings.Split(strings.TrimRight(out+errs, "\n"), "\n")
			text := args[len(args)-1]
			if strings.HasPrefix(text, "/exportar") || strings.HasPrefix(text, "/export") {
				continue
			}
			want := ex.want
			if (strings.HasPrefix(text, "/odds") || strings.HasSuffix(text, "?")) && len(got) > len(want) {
				got = got[:len(want)]
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("docs/%s: zaria %s\nanswers\n%s\nthe page shows\n%s", filepath.Base(p), strings.Join(ex.args, " "), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	if total < 50 {
		t.Errorf("only %d examples read from docs/", total)
	}
}
