package initiative_test

import (
	"regexp"
	"strings"
	"testing"

	"zaria/internal/chattest"
)

// Every key /init uses exists in es, el and en and renders with its
// arguments (no "<no value>", no leftover braces) in both plural forms.
func TestInitiativeCatalogs(t *testing.T) {
	keys := chattest.SourceKeys(t, regexp.MustCompile(`"(init\.[a-z_.]+)"`), func(k string) []string {
		if strings.HasSuffix(k, ".") { // "init.what." + what
			return []string{"add", "start", "remove", "move", "end", "undo", "hp", "condition"}
		}
		return nil
	}, ".")
	if len(keys) < 50 {
		t.Fatalf("only %d keys found", len(keys))
	}
	args := map[string]any{"name": "Orco", "init": 12, "round": 3, "rounds": 3, "user": "Ana", "condition": "aturdido",
		"old": 15, "new": 9, "max": 30, "got": 33, "pos": 1, "expr": "1d20", "what": "x", "suggestion": "Orco",
		"fallen": "Orco 2", "left": "; Drake", "names": "Drake", "n": 5, "minutes": 15, "pre": "/"}
	chattest.Renders(t, chattest.Catalog(t), keys, args, 0)
}
