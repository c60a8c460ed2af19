package reply

import "testing"

// TestWarning: a warning reads "⚠️ " and its text, is an error reply in
// the language given, and its line form is the same line.
func TestWarning(t *testing.T) {
	w := Warning("es", "Sin personaje")
	if !w.Error || w.Lang != "es" || len(w.Lines) != 1 || len(w.Lines[0]) != 1 || w.Lines[0][0] != T("⚠️ Sin personaje") {
		t.Errorf("Warning = %+v", w)
	}
	if l := WarningLine("x"); len(l) != 1 || l[0] != T("⚠️ x") {
		t.Errorf("WarningLine = %+v", l)
	}
}
