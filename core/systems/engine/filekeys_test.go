package engine_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
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
// fileErr(line, format, …), exprErr(pos, format, …), a formula parser's
// p.errorf(format, …), and checkVocabulary's bad(message), a whole
// message passed on to "input %s: %s" (a string argument that is a
// message id is translated too). A helper like bad is listed here.
var formatArg = map[string]int{"fileErr": 1, "exprErr": 1, ".errorf": 0, "bad": 0, "label": 0}

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
	have := map[string]map[string]bool{}
	for _, lang := range []string{"en", "es", "el"} {
		have[lang] = map[string]bool{}
		for _, k := range cat.Keys(lang) {
			have[lang][k] = true
		}
	}
	for _, f := range keys {
		if onlyVerbs.MatchString(f) {
			continue
		}
		key := engine.FileKey(f)
		for _, lang := range []string{"en", "es", "el"} {
			got := cat.Translate(lang, key, nil)
			switch {
			case !have[lang][key]:
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

// A refusal renders in the chat's language through the catalogs: its
// format translated, a formula's refusal inside "at %d: %s" too, and a
// whole message passed on as an argument (checkVocabulary's bad) as
// well; a language the catalogs lack falls back to the English.
func TestFileRefusalRendered(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "outsider", "ironsworn.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, to string
		want     map[string]string
	}{
		{"    type: terms\n", "    type: terms\n    signed: true\n", map[string]string{
			"es": "Línea 9: input mod: signed es para una entrada numérica",
			"el": "Γραμμή 9: input mod: το signed είναι για αριθμητική είσοδο",
			"en": "Line 9: input mod: signed is for a number input",
		}},
		{`is: "min(a.sum + mod, 10)"`, `is: "min(a.sum + mod, 10"`, map[string]string{
			"es": "Línea 32: action: score: en el carácter 20: falta «)»",
			"el": "Γραμμή 32: action: score: στον χαρακτήρα 20: λείπει «)»",
			"en": `Line 32: action: score: at 20: ")" expected`,
		}},
	} {
		_, err := engine.Load([]byte(strings.Replace(string(src), c.from, c.to, 1)))
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v, want a refusal", c.to, err)
		}
		for lang, want := range c.want {
			tr := func(key string) string { return cat.Translate(lang, key, nil) }
			if got := cat.Translate(lang, e.Key, e.VarsIn(tr)); got != want {
				t.Errorf("%s in %s: %q, want %q", c.to, lang, got, want)
			}
		}
		if got, want := e.VarsIn(func(key string) string { return key })["what"], e.Args["what"]; got != want {
			t.Errorf("%s with no catalog: %q, want the English %q", c.to, got, want)
		}
	}
}
