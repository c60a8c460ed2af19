package transfer_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/internal/chattest"
)

// TestImportNewerVersionAndDatesOutOfRange: issue 23. A file that declares
// a newer format version is refused naming it, and a character's date the
// store cannot keep (year 9999, 1500) is refused with its field named;
// neither changes anything.
func TestImportNewerVersionAndDatesOutOfRange(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	ctx := context.Background()
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	h.OK(chatC, admin, true, `/importar {"format":"zaria-chat","version":2,"settings":{"lang":"en"},"characters":[{"name":"Mira","owner":"111","values":[]}]}`)
	h.Fails(chatC, admin, true, `/importar --replace {"format":"zaria-chat","version":3,"settings":{"lang":"es"},"characters":[]}`,
		"That export is version 3, from a newer zaria; I read up to version 2. Update me first.")
	h.Fails(chatC, admin, true, `/importar --replace {"format":"zaria-chat","version":2,"characters":[{"name":"Lyra","owner":"111","created":"9999-12-31T23:59:59Z"}]}`,
		"Lyra has the date 9999-12-31T23:59:59Z in the field «created», out of range: dates must be between the years 1678 and 2262. Nothing was imported.")
	h.Fails(chatC, admin, true, `/importar --replace {"format":"zaria-chat","version":2,"characters":[{"name":"Lyra","owner":"111","updated":"1500-06-01T00:00:00Z"}]}`,
		"Lyra has the date 1500-06-01T00:00:00Z in the field «updated»")
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatC, admin, true, `/importar --replace {"format":"zaria-chat","version":2,"characters":[{"name":"Lyra","owner":"111","created":"1500-06-01T00:00:00Z"}]}`,
		"στο πεδίο «created»")
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	if list := h.OK(chatC, admin, false, "/pj lista"); !strings.Contains(list, "Mira") || strings.Contains(list, "Lyra") {
		t.Errorf("a refused import changed the characters: %s", list)
	}
}
