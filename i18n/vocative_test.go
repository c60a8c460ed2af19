package i18n

import "testing"

// TestGreekVocative: issue 36. «σειρά σου, Κώστας» addressed a player in
// the nominative; a Greek name is declined as one calls it, and a name
// that is not a Greek masculine one is left as written.
func TestGreekVocative(t *testing.T) {
	for in, want := range map[string]string{
		"Κώστας": "Κώστα", "Γιάννης": "Γιάννη", "Ανδρέας": "Ανδρέα", "Νίκος": "Νίκο", "Γιώργος": "Γιώργο",
		"Παύλος": "Παύλο", "Αλέξανδρος": "Αλέξανδρε", "Κωνσταντίνος": "Κωνσταντίνε", "Δημήτριος": "Δημήτριε",
		"Στέφανος": "Στέφανε", "ΚΩΣΤΑΣ": "ΚΩΣΤΑ", "Κώστας Παπαδόπουλος": "Κώστα Παπαδόπουλε",
		"Μαρία": "Μαρία", "Ελένη": "Ελένη", "Ana": "Ana", "Nikos": "Nikos", "Δάφνη": "Δάφνη", "Ζευς": "Ζευς", "": "",
	} {
		if got := vocative(in); got != want {
			t.Errorf("vocative(%q) = %q, want %q", in, got, want)
		}
	}
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Translate("el", "init.your_turn", map[string]any{"user": "Κώστας"}); got != "σειρά σου, Κώστα" {
		t.Errorf("init.your_turn: %q", got)
	}
	if got := cat.Translate("el", "start.hello", map[string]any{"name": "Νίκος"}); got[:len("Γεια σου, Νίκο!")] != "Γεια σου, Νίκο!" {
		t.Errorf("start.hello: %q", got)
	}
}
