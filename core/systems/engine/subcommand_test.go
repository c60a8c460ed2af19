package engine

import (
	"strings"
	"testing"
)

// A check's word and keywords name it as a sub-command in any language,
// without accents or case; a check without a word goes by its names.
func TestSubCommand(t *testing.T) {
	s := MustBuiltin("dh")
	for word, want := range map[string]string{
		"rompe": "break", "BREAK": "break", "σπασε": "break", "σπάσιμο": "break",
		"ataque": "attack", "επιθεση": "attack", "atq": "attack",
		"repara": "repair", "επισκεύασε": "repair", "asfixia": "drown", "πνιγμός": "drown",
		"άλογο": "mount", "pen": "pen", "penetración": "pen", "uso": "usage", "reparación": "repair",
	} {
		c := s.SubCommand(word)
		if c == nil || c.Key != want {
			t.Errorf("%q: got %v, want check %s", word, c, want)
		}
	}
	for _, word := range []string{"espada", "coraza", ""} {
		if c := s.SubCommand(word); c != nil {
			t.Errorf("%q names check %s", word, c.Key)
		}
	}
}

// A word naming two checks, a word missing a language and an empty
// keyword are refused when the file loads.
func TestSubWordRefusals(t *testing.T) {
	src := string(MustBuiltin("dh").Source)
	for name, bad := range map[string][2]string{
		"twice":         {"keywords: [usage, resistencia]", "keywords: [usage, rompe]"},
		"a name twice":  {"keywords: [usage, resistencia]", "keywords: [usage, reparación]"},
		"no greek":      {"word: {es: rompe, el: σπάσε, en: break}", "word: {es: rompe, en: break}"},
		"empty keyword": {"keywords: [atq]", `keywords: ["  "]`},
	} {
		changed := strings.Replace(src, bad[0], bad[1], 1)
		if changed == src {
			t.Fatalf("%s: the file has no %q", name, bad[0])
		}
		if _, err := Load([]byte(changed)); err == nil || !strings.Contains(err.Error(), "check ") {
			t.Errorf("%s: loaded (%v)", name, err)
		}
	}
}
