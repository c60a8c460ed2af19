package i18n

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"zaria/core"
)

// rawCatalog reads every catalog file: lang → key → plural form → template.
func rawCatalog(t *testing.T) map[string]map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]map[string]string{}
	entries, err := fs.ReadDir(catalogs, "locales")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		parts := strings.Split(e.Name(), ".")
		if len(parts) != 3 || parts[2] != "toml" {
			t.Errorf("catalog file %s is not named <area>.<lang>.toml", e.Name())
			continue
		}
		lang := parts[1]
		data, err := fs.ReadFile(catalogs, path.Join("locales", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if out[lang] == nil {
			out[lang] = map[string]map[string]string{}
		}
		for k, v := range m {
			forms := map[string]string{}
			switch v := v.(type) {
			case string:
				forms["other"] = v
			case map[string]any:
				for f, s := range v {
					if str, ok := s.(string); ok {
						forms[f] = str
					}
				}
			default:
				t.Errorf("%s: key %q has a value of type %T", e.Name(), k, v)
			}
			out[lang][k] = forms
		}
	}
	return out
}

// A catalog file is in a language the bot speaks: a language added to the
// files but not to core.Langs would never be shown.
func TestCatalogLanguagesAreTheBotsLanguages(t *testing.T) {
	for lang := range rawCatalog(t) {
		if !core.IsLang(lang) {
			t.Errorf("catalog files in %q, which is not one of core.Langs %v", lang, core.Langs())
		}
	}
}

func TestCatalogsHaveTheSameKeys(t *testing.T) {
	raw := rawCatalog(t)
	for _, l := range core.Langs() {
		if len(raw[l]) == 0 {
			t.Fatalf("no catalog for %s", l)
		}
	}
	for _, a := range core.Langs() {
		for _, b := range core.Langs() {
			if a == b {
				continue
			}
			var missing []string
			for k := range raw[a] {
				if _, ok := raw[b][k]; !ok {
					missing = append(missing, k)
				}
			}
			sort.Strings(missing)
			if len(missing) > 0 {
				t.Errorf("%d keys of %s missing in %s: %v", len(missing), a, b, missing)
			}
		}
	}
}

// A placeholder is {{.name}}, or {{vocative .name}} (a Greek name as one calls it).
var placeholder = regexp.MustCompile(`\{\{\s*(?:vocative\s+)?\.(\w+)\s*\}\}`)

func fields(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}

// TestEveryMessageRenders renders every key in every language with a value
// for each of its placeholders, and checks the three languages use the same
// placeholders (a typo in one language would otherwise print "<no value>").
func TestEveryMessageRenders(t *testing.T) {
	raw := rawCatalog(t)
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for key, forms := range raw["en"] {
		want := fields(forms["other"])
		args := map[string]any{}
		for _, f := range want {
			args[f] = "X" + f
		}
		if _, plural := forms["one"]; plural || args["count"] != nil {
			args["count"] = 2 // "count" selects a plural form: it must be a number
		}
		for _, l := range core.Langs() {
			if got := fields(raw[l][key]["other"]); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s/%s uses placeholders %v, English uses %v", l, key, got, want)
			}
			s := cat.Translate(l, key, args)
			if s == "" || s == key || strings.Contains(s, "<no value>") {
				t.Errorf("%s/%s renders as %q", l, key, s)
			}
			for _, f := range want {
				shown := fmt.Sprint(args[f])
				if !strings.Contains(s, shown) {
					t.Errorf("%s/%s does not show {{.%s}}: %q", l, key, f, s)
				}
			}
		}
	}
}

func TestFallback(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Translate("el", "no.such.key", nil); got != "no.such.key" {
		t.Errorf("missing key renders as %q, want the key", got)
	}
	if got := cat.Translate("fr", "error.internal", nil); got != cat.Translate("en", "error.internal", nil) {
		t.Errorf("unknown language renders as %q, want English", got)
	}
	if es, el := cat.Translate("es", "error.internal", nil), cat.Translate("el", "error.internal", nil); es == el {
		t.Errorf("es and el give the same text %q", es)
	}
}
