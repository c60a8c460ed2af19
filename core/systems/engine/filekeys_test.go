package engine_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"zaria/core/systems/engine"
	"zaria/i18n"
)

// formatArg is where the format is among a refusal's arguments:
// fileErr(line, format, …), exprErr(pos, format, …) and a formula
// parser's p.errorf(format, …).
var formatArg = map[string]int{"fileErr": 1, "exprErr": 1, ".errorf": 0}

// sourceFormats are the format literals of every refusal (formatArg) in
// the engine's Go files (tests left out), each with where it is written.
func sourceFormats(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := ""
			switch f := call.Fun.(type) {
			case *ast.Ident:
				name = f.Name
			case *ast.SelectorExpr:
				name = "." + f.Sel.Name
			}
			at, ok := formatArg[name]
			if !ok || len(call.Args) <= at {
				return true
			}
			pos := fset.Position(call.Pos())
			where := fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
			if id, ok := call.Args[at].(*ast.Ident); ok && id.Name == "format" {
				return true // a wrapper passing its own format on: its callers are read
			}
			lit, ok := call.Args[at].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: %s's format is not a string literal: it is the message's id in the catalogs", where, strings.TrimPrefix(name, "."))
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if _, ok := out[s]; !ok {
				out[s] = where
			}
			return true
		})
	}
	return out
}

// verbRE is one printf verb: %%, or %[n] flags width precision letter.
var verbRE = regexp.MustCompile(`%(?:%|(?:\[(\d+)\])?[-+# 0]*\d*(?:\.\d+)?([a-zA-Z]))`)

// verbs lists a format's verbs by the argument each prints, as Sprintf
// reads them (%[2]s moves the count on): "1:s 2:d". %q and %s are one,
// a quoted text (a translation may write «%s»).
func verbs(f string) string {
	var out []string
	next := 1
	for _, m := range verbRE.FindAllStringSubmatch(f, -1) {
		if m[0] == "%%" {
			continue
		}
		if m[1] != "" {
			next, _ = strconv.Atoi(m[1])
		}
		v := m[2]
		if v == "q" {
			v = "s"
		}
		out = append(out, fmt.Sprintf("%d:%s", next, v))
		next++
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// onlyVerbs is a format that passes another error on ("%v"): nothing of
// its own to translate.
var onlyVerbs = regexp.MustCompile(`^(%[a-z] ?)+$`)

// Every file refusal's format has its translation in es and el, with the
// same verbs for the same arguments, and English as written; a catalog
// key of a format no longer in the source is reported too. A failure
// prints the catalog lines to add, in i18n/locales/enginefile.*.toml.
func TestFileRefusalsTranslated(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	formats := sourceFormats(t)
	if len(formats) < 100 {
		t.Fatalf("only %d fileErr formats found: is the test reading the engine's files?", len(formats))
	}
	missing := map[string][]string{} // lang → catalog lines to add
	n := 0
	keys := make([]string, 0, len(formats))
	for f := range formats {
		keys = append(keys, f)
	}
	sort.Strings(keys)
	for _, f := range keys {
		if onlyVerbs.MatchString(f) {
			continue
		}
		key := engine.FileKey(f)
		for _, lang := range []string{"en", "es", "el"} {
			got := cat.Translate(lang, key, nil)
			switch {
			case got == key || (lang != "en" && got == f && strings.ContainsAny(f, "abcdefghijklmnopqrstuvwxyz")):
				n++
				missing[lang] = append(missing[lang], fmt.Sprintf("# %s\n%s = %s", formats[f], strconv.Quote(key), strconv.Quote(f)))
			case lang == "en" && got != f:
				t.Errorf("en: %s is %q, not the format as written (%s)", strconv.Quote(key), got, formats[f])
			case verbs(got) != verbs(f):
				t.Errorf("%s: %s has verbs %q, the format %q (%s)", lang, strconv.Quote(key), verbs(got), verbs(f), formats[f])
			}
		}
	}
	if n > 0 {
		var b strings.Builder
		for _, lang := range []string{"en", "es", "el"} {
			if len(missing[lang]) > 0 {
				fmt.Fprintf(&b, "\n--- i18n/locales/enginefile.%s.toml\n%s\n", lang, strings.Join(missing[lang], "\n"))
			}
		}
		t.Errorf("%d file refusals lack their catalog line: add these (en as written; es and el translated, keeping the verbs: %%[2]s reorders them)%s", n, b.String())
	}
	for _, lang := range []string{"en", "es", "el"} {
		for _, k := range cat.Keys(lang) {
			if f, ok := strings.CutPrefix(k, engine.FileKey("")); ok {
				if _, used := formats[f]; !used {
					t.Errorf("%s: %s is no fileErr format of the engine any more: remove it", lang, strconv.Quote(k))
				}
			}
		}
	}
}
