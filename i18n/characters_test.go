package i18n_test

import (
	"regexp"
	"strings"
	"testing"

	"zaria/internal/chattest"
)

// Every key the character commands use (core/sheet, gm, history,
// transfer, alias) exists in es, el and en, renders with its
// arguments (no "<no value>", no leftover braces) in both plural forms, and
// fits a phone screen.
func TestCharacterCatalogs(t *testing.T) {
	keys := chattest.SourceKeys(t, regexp.MustCompile(`"((?:character|gm|alias|import|export|history|stats)\.[a-z_]+)"`),
		func(k string) []string {
			if strings.HasSuffix(k, "_") { // the name kinds of checkName and the two-way choices
				return []string{"character", "value", "alias"}
			}
			return nil
		}, "../core/sheet", "../core/gm", "../core/history", "../core/transfer", "../core/alias")
	if len(keys) < 80 {
		t.Fatalf("found only %d keys in the sources", len(keys))
	}
	args := map[string]any{
		"name": "Drake", "owner": "Ana", "character": "Drake", "value": "4", "suggestion": "fuerza",
		"max": 10, "got": 12, "old": 2, "systems": "zaria, rq", "system": "RQ", "command": "/pj", "text": "/roll 1d20",
		"target": "rol", "n": 2, "ids": "1, 2", "file": "z.json", "version": 2, "first": "A", "second": "B",
		"keep": 500, "users": 3, "need": 30, "chi": "1.0", "df": 5, "p": "0.5", "expected": "5.0",
		"low": 1, "lowcount": 3, "other": "Drаke", "date": "9999-12-31T00:00:00Z", "min": 1678, "high": 6, "highcount": 9, "seconds": 2, "names": "Drake, Mira", "flag": "--x", "pre": "/", "field": "value", "cmd": "/stats detalle", "chain": "/a → /b → /c → /d → /roll", "zone": "Europe/Madrid",
		"icon": "❤️", "new": 9, "values": "fuerza = 4 · atletismo = 2", "minutes": 15, "rest": "fuerza 4",
	}
	chattest.Renders(t, chattest.Catalog(t), keys, args, 240)
}
