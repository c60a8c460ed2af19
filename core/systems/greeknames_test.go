package systems_test

import (
	"strings"
	"testing"

	"zaria/core"
)

// TestGreekRepliesNameGreekCommands: issue 23. On Matrix a Greek chat typed
// "!ρίξε 1δ20 πλεονέκτημα" and read "Δοκίμασε: /roll 2d6+3" (a slash
// command the Matrix client takes for itself), "!βοήθεια" never showed
// "!ρίξε", and hints said "!export", "!import", "/settings". After a
// prefix other than "/", a Greek reply names each command by its Greek
// name; after "/" (Telegram takes Latin names only) it keeps them.
func TestGreekRepliesNameGreekCommands(t *testing.T) {
	chat := chatAs(t, fullBot(t), "greek-names", core.User{ID: "u1", Name: "Νίκος"}, true)
	say := func(text string) string { got, _ := chat(text); return got }
	say("/lang el")
	for text, want := range map[string][]string{
		// (since advantage words, "1δ20 πλεονέκτημα" is a roll: another word)
		"!ρίξε 1δ20 ευλογημένο": {"Δεν καταλαβαίνω το «ευλογημένο». Δοκίμασε: !ρίξε 2d6+3"},
		"!βοήθεια":              {"!ρίξε 4d6kh3+2", "!βοήθεια ", "!ρυθμίσεις"},
		"!εισαγωγή":             {"!εξαγωγή", "!εισαγωγή"},
	} {
		got := say(text)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %q:\n%s", text, w, got)
			}
		}
		for _, bad := range []string{"/roll", "!roll", "!export", "!import", "/settings", "/help"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s shows %q:\n%s", text, bad, got)
			}
		}
	}
	if got := say("/βοήθεια"); !strings.Contains(got, "/roll 4d6kh3+2") {
		t.Errorf("after «/» (Telegram) the Latin names stay:\n%s", got)
	}
}

// TestHintsKeepTheTypedName: issue 23. "/char create Rook" answered "Add
// values: /pj set strength 4": the hint switched names. A reply names the
// command the user typed by the name they typed.
func TestHintsKeepTheTypedName(t *testing.T) {
	chat := chatAs(t, fullBot(t), "typed-names", core.User{ID: "u1", Name: "Ana"}, false)
	say := func(text string) string { got, _ := chat(text); return got }
	say("/lang en")
	if got := say("/char create Rook"); !strings.Contains(got, "Add values: /char set strength 4") || strings.Contains(got, "/pj") {
		t.Errorf("/char create: %s", got)
	}
	say("/lang es")
	if got := say("/personaje crear Lyra"); !strings.Contains(got, "Personaje Lyra creado") || !strings.Contains(got, "/personaje poner fuerza 4") {
		t.Errorf("/personaje crear: %s", got)
	}
}
