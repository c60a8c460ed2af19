package general_test

import (
	"strings"
	"testing"

	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

// TestHelpLinksTheGuideOnlyWithDocsURL: issue 23, item 7. "/ayuda pj"
// ended with "Más: docs/characters.md en el repositorio de zaria.", a
// path a phone cannot open. With docs_url set it is a link; without one
// no path is shown.
func TestHelpLinksTheGuideOnlyWithDocsURL(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, docs := range []string{"", "https://example.org/zaria/docs/"} {
		r := command.New(command.Config{Translator: cat, Settings: memory.New(), DefaultLang: "es", Unlimited: []string{"test"}})
		general.Register(r, general.Options{Version: "1", DocsURL: docs})
		roll.Register(r)
		systems.Register(r)
		c := chat{t: t, r: r, id: "1"}
		for _, page := range []string{"/ayuda zaria", "/ayuda daegon", "/ayuda dh", "/ayuda tirar"} {
			got := c.text(page)
			if strings.Contains(got, "repositorio") || strings.Contains(got, " docs/") {
				t.Errorf("docs_url %q, %s shows a file path:\n%s", docs, page, got)
			}
			if docs != "" && !strings.Contains(got, "https://example.org/zaria/docs/") {
				t.Errorf("docs_url %q, %s has no link:\n%s", docs, page, got)
			}
		}
		if docs != "" {
			if got := c.text("/ayuda zaria"); !strings.Contains(got, "Cómo leo las reglas: https://example.org/zaria/docs/zaria.md") {
				t.Errorf("link: %s", got)
			}
		}
	}
}
