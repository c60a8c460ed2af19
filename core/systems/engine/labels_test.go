package engine_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"zaria/core/systems/engine"
	"zaria/i18n"
)

// A refusal that names a piece of the file by a label (a house rule, a
// named value, a number, a number's key taken twice) reads whole in the
// chat's language: no English label is left inside a Spanish or Greek
// message, and English keeps the format as written.
func TestFileRefusalLabelsTranslated(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	read := func(path ...string) string {
		src, err := os.ReadFile(filepath.Join(path...))
		if err != nil {
			t.Fatal(err)
		}
		return string(src)
	}
	daegon, cypher, rq := read("files", "daegon.yaml"), read("testdata", "outsider", "cypher.yaml"), read("files", "rq.yaml")
	for _, c := range []struct {
		src, from, to string
		english       string // the label the English message holds
		want          map[string]string
	}{
		{daegon, `, en: "Daegon: how 00 reads"}`, "}", "house rule", map[string]string{
			"es": "Línea 20: regla daegon_00 de house_rules: hacen falta nombres en es, el y en",
			"el": "Γραμμή 20: κανόνας daegon_00 των house_rules: χρειάζονται ονόματα σε es, el και en",
			"en": "Line 20: house rule daegon_00: names in es, el and en",
		}},
		{cypher, "el: δύσκολη, en: difficult}", "el: δύσκολη}", "named value", map[string]string{
			"es": "Línea 11: level: valor con nombre difficult: hacen falta nombres en es, el y en",
			"el": "Γραμμή 11: level: τιμή με όνομα difficult: χρειάζονται ονόματα σε es, el και en",
			"en": "Line 11: level: named value difficult: names in es, el and en",
		}},
		{rq, "el: γκάφα, en: fumble}", "el: γκάφα}", "number", map[string]string{
			"es": "Línea 23: número fumble_from de numbers: hacen falta nombres en es, el y en",
			"el": "Γραμμή 23: αριθμός fumble_from των numbers: χρειάζονται ονόματα σε es, el και en",
			"en": "Line 23: number fumble_from: names in es, el and en",
		}},
		{rq, "{key: fumble_from,", "{key: skill,", "number", map[string]string{
			"es": "Línea 23: número de numbers: el nombre «skill» está repetido",
			"el": "Γραμμή 23: αριθμός των numbers: το όνομα «skill» χρησιμοποιείται δύο φορές",
			"en": "Line 23: number: the name \"skill\" is used twice",
		}},
	} {
		if !strings.Contains(c.src, c.from) {
			t.Fatalf("the file lacks %q", c.from)
		}
		_, err := engine.Load([]byte(strings.Replace(c.src, c.from, c.to, 1)))
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v, want a refusal", c.to, err)
		}
		for lang, want := range c.want {
			tr := func(key string) string { return cat.Translate(lang, key, nil) }
			got := cat.Translate(lang, e.Key, e.VarsIn(tr))
			if got != want {
				t.Errorf("%s in %s: %q, want %q", c.to, lang, got, want)
			}
			if english := regexp.MustCompile(`\b` + c.english + `[ :]`).MatchString(got); english != (lang == "en") {
				t.Errorf("%s in %s: %q holds the English label %q: %v", c.to, lang, got, c.english, english)
			}
		}
	}
}
