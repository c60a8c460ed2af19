package character_test

import (
	"context"
	"testing"

	"zaria/core"
	"zaria/core/character"
)

// TestImportSettingsFieldTwice: a file whose settings give a field twice
// ("lang":"en","lang":"es", or an option such as "zaria" twice) was
// imported, keeping the last silently (the chat switched to Spanish
// though the first said English). It is now refused naming the field, in
// the chat's language, as a character's field given twice is, and
// nothing is imported: not the characters, not the settings.
func TestImportSettingsFieldTwice(t *testing.T) {
	h := newHarness(t, character.Limits{})
	ctx := context.Background()
	if err := h.db.SaveSettings(ctx, chatC, core.Settings{Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	doc := func(settings string) string {
		return `{"format":"zaria-chat","version":2,"settings":` + settings + `,"characters":[{"name":"Drake","owner":"111","values":[{"name":"fuerza","value":"4"}]}],"pads":[]}`
	}
	h.fails(chatC, admin, true, "/importar "+doc(`{"lang":"en","lang":"es"}`),
		"The chat's settings have the field «lang» twice in the file, and I can't tell which one you meant. Keep one. Nothing was imported.")
	h.fails(chatC, admin, true, "/importar "+doc(`{"lang":"en","LANG":"es"}`), "the field «lang» twice")
	h.fails(chatC, admin, true, "/importar "+doc(`{"lang":"en","options":{},"Options":{"zaria":"media_alta"}}`), "the field «options» twice")
	h.fails(chatC, admin, true, "/importar "+doc(`{"lang":"en","options":{"zaria":"media_alta","zaria":"media_baja"}}`), "the field «zaria» twice")
	contains(t, h.ok(chatC, admin, false, "/pj lista"), "No characters")
	s, err := h.db.Settings(ctx, chatC)
	if err != nil || s.Lang != "en" || s.Options["zaria"] != "" {
		t.Fatalf("settings changed: %+v %v", s, err)
	}
	if err := h.db.SaveSettings(ctx, chatC, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	h.fails(chatC, admin, true, "/importar "+doc(`{"lang":"es","lang":"el"}`),
		"Los ajustes del chat tienen el campo «lang» dos veces en el archivo y no sé cuál de los dos quieres. Deja uno. No se ha importado nada.")
	if err := h.db.SaveSettings(ctx, chatC, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	h.fails(chatC, admin, true, "/importar "+doc(`{"options":{"prefix":"!","prefix":"."}}`),
		"Οι ρυθμίσεις της συνομιλίας έχουν το πεδίο «prefix» δύο φορές στο αρχείο")
	// Given once each, the same settings are taken.
	contains(t, h.ok(chatC, admin, true, "/importar "+doc(`{"lang":"en","options":{"zaria":"media_alta"}}`)), "Εισήχθη 1 χαρακτήρας")
	if s, err := h.db.Settings(ctx, chatC); err != nil || s.Lang != "en" || s.Options["zaria"] != "media_alta" {
		t.Fatalf("settings not imported: %+v %v", s, err)
	}
}
