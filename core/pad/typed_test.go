package pad_test

import (
	"path/filepath"
	"strings"
	"testing"

	"zaria/core/reply"
)

// TestAskedValueWrittenInTheChatsLanguage: issue 23. A Greek chat's pad
// choice ran "/dh επίθεση μακρύ-σπαθί εναντίον coraza", and /historial
// kept the Spanish word: the value chosen is written as the chat names it.
func TestAskedValueWrittenInTheChatsLanguage(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(eva, "/lang el")
	b.ok(ana, "/pj crear Drake")
	b.ok(ana, `!κουμπιά προσθήκη "Επίθεση" /dh επίθεση μακρύ-σπαθί εναντίον {στόχος}`)
	acts := runs(t, b.ok(ana, "!κουμπιά"))
	rep := b.press(ana, choose(t, b.press(ana, acts[0]), "δερμάτινη πανοπλία"))
	if rep.Error || !strings.Contains(rep.Command, "εναντίον δερμάτινη-πανοπλία") || strings.Contains(rep.Command, "cuero") {
		t.Errorf("logged command %q:\n%s", rep.Command, reply.PlainText(rep))
	}
}
