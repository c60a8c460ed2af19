package transfer_test

import (
	"context"
	"strings"
	"testing"
	"zaria/core"
	"zaria/internal/chattest"
)

// TestImportSettingsFieldTwice: a file whose settings give a field twice
// ("lang":"en","lang":"es", or an option such as "zaria" twice) was
// imported, keeping the last silently (the chat switched to Spanish
// though the first said English). It is now refused naming the field, in
// the chat's language, as a character's field given twice is, and
// nothing is imported: not the characters, not the settings.
func TestImportSettingsFieldTwice(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	ctx := context.Background()
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	doc := func(settings string) string {
		return `{"format":"zaria-chat","version":2,"settings":` + settings + `,"characters":[{"name":"Drake","owner":"111","values":[{"name":"fuerza","value":"4"}]}],"pads":[]}`
	}
	h.Fails(chatC, admin, true, "/importar "+doc(`{"lang":"en","lang":"es"}`),
		"The chat's settings have the field «lang» twice in the file, and I can't tell which one you meant. Keep one. Nothing was imported.")
	h.Fails(chatC, admin, true, "/importar "+doc(`{"lang":"en","LANG":"es"}`), "the field «lang» twice")
	h.Fails(chatC, admin, true, "/importar "+doc(`{"lang":"en","options":{},"Options":{"zaria":"media_alta"}}`), "the field «options» twice")
	h.Fails(chatC, admin, true, "/importar "+doc(`{"lang":"en","options":{"zaria":"media_alta","zaria":"media_baja"}}`), "the field «zaria» twice")
	contains(t, h.OK(chatC, admin, false, "/pj lista"), "No characters")
	s, err := h.DB.Settings(ctx, chatC)
	if err != nil || s.Lang != "en" || s.Options["zaria"] != "" {
		t.Fatalf("settings changed: %+v %v", s, err)
	}
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatC, admin, true, "/importar "+doc(`{"lang":"es","lang":"el"}`),
		"Los ajustes del chat tienen el campo «lang» dos veces en el archivo y no sé cuál de los dos quieres. Deja uno. No se ha importado nada.")
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatC, admin, true, "/importar "+doc(`{"options":{"prefix":"!","prefix":"."}}`),
		"Οι ρυθμίσεις της συνομιλίας έχουν το πεδίο «prefix» δύο φορές στο αρχείο")
	// Given once each, the same settings are taken.
	contains(t, h.OK(chatC, admin, true, "/importar "+doc(`{"lang":"en","options":{"zaria":"media_alta"}}`)), "Εισήχθη 1 χαρακτήρας")
	if s, err := h.DB.Settings(ctx, chatC); err != nil || s.Lang != "en" || s.Options["zaria"] != "media_alta" {
		t.Fatalf("settings not imported: %+v %v", s, err)
	}
}

// TestImportPadFieldTwice: a pad or a button giving a field twice
// ("label":"Atk","label":"Evil", "command" twice, "owner" twice) was
// imported keeping the last silently: a button "Atk" · /roll 1d20 became
// "Evil" · /pad clear. It is now refused naming the pad's owner and the
// field, in the chat's language, and nothing is imported.
func TestImportPadFieldTwice(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	ctx := context.Background()
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	doc := func(pads string) string {
		return `{"format":"zaria-chat","version":2,"settings":{"lang":"en"},"characters":[{"name":"Drake","owner":"111","values":[]}],"pads":` + pads + `}`
	}
	pads := func() string {
		t.Helper()
		_, rep := h.Send(chatC, admin, true, "/exportar")
		if rep.File == nil {
			t.Fatal("no export file")
		}
		data := string(rep.File.Data)
		return data[strings.Index(data, `"pads"`):]
	}
	h.OK(chatC, admin, true, "/importar "+doc(`[{"owner":"222","buttons":[{"label":"Atk","command":"/roll 1d20"}]}]`))
	h.OK(chatC, admin, true, "/importar --replace "+`{"format":"zaria-chat","version":2,"settings":{"lang":"en"},"characters":[]}`)
	want := `"pads":[{"owner":"222","buttons":[{"label":"Atk","command":"/roll 1d20"}]}]`
	if got := pads(); !strings.HasPrefix(got, want) {
		t.Fatalf("pads before: %s", got)
	}
	h.Fails(chatC, admin, true, "/importar "+doc(`[{"owner":"222","buttons":[{"label":"Atk","label":"Evil","command":"/roll 1d20","command":"/pad clear"}]}]`),
		"The button pad of 222 has the field «label» twice in the file (in the pad or in one of its buttons), and I can't tell which one you meant. Keep one. Nothing was imported.")
	h.Fails(chatC, admin, true, "/importar "+doc(`[{"owner":"222","buttons":[{"label":"A","command":"/roll 1d6"},{"label":"B","command":"/roll 1d4","Command":"/pad clear"}]}]`),
		"The button pad of 222 has the field «command» twice")
	h.Fails(chatC, admin, true, "/importar "+doc(`[{"owner":"222","OWNER":"999","buttons":[]}]`), "The button pad of 222 has the field «owner» twice")
	h.Fails(chatC, admin, true, "/importar "+doc(`[{"owner":"","buttons":[],"buttons":[{"label":"X","command":"/roll 1d6"}]}]`), "The button pad of — has the field «buttons» twice")
	contains(t, h.OK(chatC, admin, false, "/pj lista"), "No characters")
	if got := pads(); !strings.HasPrefix(got, want) {
		t.Fatalf("a refused import changed the pads: %s", got)
	}
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatC, admin, true, "/importar "+doc(`[{"owner":"222","buttons":[{"label":"Atk","label":"Evil","command":"/roll 1d20"}]}]`),
		"La botonera de 222 tiene el campo «label» dos veces en el archivo (en la botonera o en uno de sus botones) y no sé cuál de los dos quieres. Deja uno. No se ha importado nada.")
	if err := h.DB.SaveSettings(ctx, chatC, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatC, admin, true, "/importar "+doc(`[{"owner":"222","buttons":[{"label":"Atk","command":"/roll 1d20","command":"/pad clear"}]}]`),
		"Ο πίνακας κουμπιών ενός παίκτη (222) έχει το πεδίο «command» δύο φορές στο αρχείο (στον πίνακα ή σε ένα από τα κουμπιά του)")
	if got := pads(); !strings.HasPrefix(got, want) {
		t.Fatalf("a refused import changed the pads: %s", got)
	}
	// Given once, the same pad is taken.
	h.OK(chatC, admin, true, "/importar "+doc(`[{"owner":"222","buttons":[{"label":"Evil","command":"/roll 1d4"}]}]`))
	if got := pads(); !strings.HasPrefix(got, `"pads":[{"owner":"222","buttons":[{"label":"Evil","command":"/roll 1d4"}]}]`) {
		t.Fatalf("pads after: %s", got)
	}
}
