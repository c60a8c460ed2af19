package command

import "testing"

// Adapters ask the router, not a list of their own, which commands take an
// attached file.
func TestTakesFile(t *testing.T) {
	r := New(Config{})
	r.Register(Command{Name: "importar", Aliases: []string{"import", "εισαγωγή"}, TakesFile: true})
	r.Register(Command{Name: "roll"})
	for text, want := range map[string]bool{
		"/importar": true, "/IMPORT@ZariaBot": true, "!εισαγωγη": true, "/importar\n{...}": true, " /import x": true,
		"/roll d20": false, "importar": false, "/nada": false, "": false, "/": false,
	} {
		if got := r.TakesFile(text); got != want {
			t.Errorf("TakesFile(%q) = %v, want %v", text, got, want)
		}
	}
}
