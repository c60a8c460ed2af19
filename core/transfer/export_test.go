package transfer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/transfer"
	"zaria/internal/chattest"
)

// setupParty fills chat A: Ana owns Drake (active) and Enyra, Bob owns Mira.
func setupParty(h *chattest.Harness) {
	h.OK(chatA, ana, false, "/pj crear Enyra dh")
	h.OK(chatA, ana, false, "/pj set armadura coraza")
	h.OK(chatA, ana, false, "/pj crear Drake zaria")
	h.OK(chatA, ana, false, "/pj set Fuerza 4")
	h.OK(chatA, ana, false, "/pj set Atletismo 2")
	h.OK(chatA, ana, false, "/pj set Τύχη -1") // not δύναμη: that is Fuerza in any language (issue 36)
	h.OK(chatA, bob, false, "/pj crear Mira")
	h.OK(chatA, bob, false, "/pj set sigilo 7")
}

func TestExportImportRoundTrip(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	ctx := context.Background()
	if err := h.DB.SaveSettings(ctx, chatA, core.Settings{Lang: "en", Options: map[string]string{"zaria": "media_alta", "prefix": "."}}); err != nil {
		t.Fatal(err)
	}
	setupParty(h)
	out, rep := h.Send(chatA, bob, false, "/exportar")
	if rep.Error || rep.File == nil {
		t.Fatalf("export: %s", out)
	}
	contains(t, out, "3 characters and the settings", rep.File.Name)
	if rep.File.MIME != "application/json" || !strings.HasSuffix(rep.File.Name, ".json") {
		t.Fatalf("file %q %q", rep.File.Name, rep.File.MIME)
	}
	var doc map[string]any
	if err := json.Unmarshal(rep.File.Data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["format"] != "zaria-chat" || doc["version"] != float64(2) {
		t.Fatalf("header: %v %v", doc["format"], doc["version"])
	}
	text := string(rep.File.Data)
	if len([]rune(text)) <= 500 {
		t.Fatalf("the test needs a document longer than the 500-character input limit; got %d", len(text))
	}

	// Only a GM may import.
	h.Fails(chatC, ana, false, "/importar "+text, "Only a GM")
	contains(t, h.OK(chatC, bob, false, "/pj lista"), "No characters")

	out = h.OK(chatC, admin, true, "/importar "+text)
	contains(t, out, "Imported 3 characters")
	lacks(t, out, "Deleted")

	// Same sheets, owners, systems and active characters; same settings.
	for _, who := range []string{"Drake", "Enyra", "Mira"} {
		a := h.OK(chatA, admin, false, "/pj "+who)
		c := h.OK(chatC, admin, false, "/pj "+who)
		if a != c {
			t.Fatalf("%s differs:\nA: %s\nC: %s", who, a, c)
		}
	}
	contains(t, h.OK(chatC, ana, false, "/pj"), "Drake", "Ζαριά", "Fuerza 4", "Τύχη -1")
	contains(t, h.OK(chatC, bob, false, "/check sigilo", 1), "= 8")
	contains(t, h.OK(chatC, ana, false, "/check atletismo", 1), "= 3")
	s, err := h.DB.Settings(ctx, chatC)
	if err != nil || s.Lang != "en" || s.Options["zaria"] != "media_alta" || s.Options["prefix"] != "." {
		t.Fatalf("settings = %+v, %v", s, err)
	}
	// The owner still owns it in the new chat; others still cannot edit.
	h.Fails(chatC, bob, false, "/pj set @Drake Fuerza 9", "Only Ana")

	// Exporting C gives the same document apart from chat and time.
	_, rep2 := h.Send(chatC, bob, false, "/exportar")
	if strip(t, rep.File.Data) != strip(t, rep2.File.Data) {
		t.Fatalf("round trip differs:\n%s\n%s", rep.File.Data, rep2.File.Data)
	}

	// Importing again replaces, never duplicates, and deletes nobody.
	out = h.OK(chatC, admin, true, "/importar "+text)
	contains(t, out, "Imported 3 characters")
	lacks(t, out, "Deleted")
	contains(t, h.OK(chatC, admin, false, "/pj lista"), "3 characters")

	// A pasted ``` block is accepted too.
	contains(t, h.OK(chatC, admin, true, "/importar ```json\n"+text+"\n```"), "Imported 3")
}

// strip removes the fields that differ between two exports of the same data.
func strip(t *testing.T, data []byte) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "exported")
	delete(doc, "chat")
	b, _ := json.Marshal(doc)
	return string(b)
}

func TestImportValidatesAllOrNothing(t *testing.T) {
	h := newHarness(t, chattest.Limits{CharactersPerUser: 3})
	// A house rule as a system registers it, so imports check its values.
	h.R.RegisterOption(command.Option{Key: "zaria", Values: []string{"media_baja", "media_exacta", "media_alta"}, Default: "media_baja"})
	setupParty(h)
	_, rep := h.Send(chatA, ana, false, "/exportar")
	good := string(rep.File.Data)

	// Chat C has its own character, which a bad import must leave alone.
	h.OK(chatC, bob, false, "/pj crear Solo")
	h.OK(chatC, bob, false, "/pj set vida 9")

	edit := func(f func(doc map[string]any)) string {
		var doc map[string]any
		if err := json.Unmarshal([]byte(good), &doc); err != nil {
			t.Fatal(err)
		}
		f(doc)
		b, _ := json.Marshal(doc)
		return string(b)
	}
	chars := func(doc map[string]any) []any { return doc["characters"].([]any) }
	char := func(doc map[string]any, i int) map[string]any { return chars(doc)[i].(map[string]any) }

	for _, tc := range []struct {
		name, doc, want string
	}{
		{"empty", "", "Send the file from /export"},
		{"not json", "{hola", "not a valid export file"},
		{"trailing", good + " {}", "not a valid export file"},
		{"unknown field", edit(func(d map[string]any) { d["extra"] = 1 }), "not a valid export file"},
		// Characters are checked as they are read: a bad one followed by
		// broken JSON is still a broken file, and a field given twice is
		// refused as json.Decoder refuses unknown ones.
		{"bad character, then cut", strings.TrimSuffix(edit(func(d map[string]any) { char(d, 0)["name"] = "a b" }), "}"), "not a valid export file"},
		{"field twice", `{"format":"zaria-chat","format":"zaria-chat","version":1,"settings":{},"characters":[]}`, "not a valid export file"},
		{"other json", `{"format":"other","version":1,"settings":{},"characters":[]}`, "not a zaria export"},
		{"newer", edit(func(d map[string]any) { d["version"] = 3 }), "version 3, from a newer zaria"},
		{"duplicate", edit(func(d map[string]any) { char(d, 1)["name"] = "DRAKE" }), "two characters called"},
		{"bad name", edit(func(d map[string]any) { char(d, 0)["name"] = "a b" }), "can't be a character name"},
		// The ones before it were already written: the write is undone.
		{"bad last character", edit(func(d map[string]any) { char(d, len(chars(d))-1)["name"] = "a b" }), "can't be a character name"},
		{"no owner", edit(func(d map[string]any) { char(d, 0)["owner"] = "" }), "no valid owner"},
		{"bad system", edit(func(d map[string]any) { char(d, 0)["system"] = "gurps" }), "don't know the system «gurps»"},
		{"bad lang", edit(func(d map[string]any) { d["settings"] = map[string]any{"lang": "fr"} }), "lang = «fr»"},
		{"bad option", edit(func(d map[string]any) {
			d["settings"] = map[string]any{"options": map[string]any{"zaria": "media_rara"}}
		}), "zaria = «media_rara»"},
		{"bad prefix", edit(func(d map[string]any) {
			d["settings"] = map[string]any{"options": map[string]any{"prefix": "/x"}}
		}), "prefix = «/x»"},
		// /ajustes prefijo refuses a letter or a digit, so that no
		// ordinary line ("dime algo") reads as a command: so does an import.
		{"letter prefix", edit(func(d map[string]any) {
			d["settings"] = map[string]any{"options": map[string]any{"prefix": "d"}}
		}), "prefix = «d»"},
		{"digit prefix", edit(func(d map[string]any) {
			d["settings"] = map[string]any{"options": map[string]any{"prefix": "3"}}
		}), "prefix = «3»"},
		{"invisible prefix", edit(func(d map[string]any) {
			d["settings"] = map[string]any{"options": map[string]any{"prefix": "\u200b"}}
		}), "prefix = «"},
		{"two active", edit(func(d map[string]any) {
			for _, c := range chars(d) {
				c.(map[string]any)["active"] = true
				c.(map[string]any)["owner"] = "111"
			}
		}), "as the same user's active character"},
		{"owner quota", edit(func(d map[string]any) {
			base := char(d, 0)
			for _, n := range []string{"X1", "X2", "X3"} {
				c := map[string]any{"name": n, "owner": base["owner"]}
				d["characters"] = append(chars(d), c)
			}
		}), "more than 3 characters"},
		{"value twice", edit(func(d map[string]any) {
			c := char(d, 0)
			c["values"] = []any{map[string]any{"name": "Fuerza", "value": "1"}, map[string]any{"name": "fuerza", "value": "2"}}
		}), "value fuerza twice"},
		// Names that fold to the same key (case, accents) are one value.
		{"value twice, folded", edit(func(d map[string]any) {
			c := char(d, 0)
			c["values"] = []any{map[string]any{"name": "Fuerza", "value": "1"}, map[string]any{"name": "FUÉRZA", "value": "2"}}
		}), "value FUÉRZA twice"},
		// A key given twice inside a character or a value: encoding/json
		// kept the last silently.
		{"character field twice", strings.Replace(good, `"name":"Drake",`, `"name":"Drake","name":"Drako",`, 1),
			"Drake has the field «name» twice in the file"},
		{"character field twice, other case", strings.Replace(good, `"name":"Drake",`, `"name":"Drake","Owner":"1","OWNER":"2",`, 1),
			"Drake has the field «owner» twice in the file"},
		{"values twice", strings.Replace(good, `"name":"Drake",`, `"name":"Drake","values":[],`, 1),
			"Drake has the field «values» twice in the file"},
		{"value field twice", strings.Replace(good, `{"name":"Fuerza","value":"4"}`, `{"name":"Fuerza","value":"4","value":"5"}`, 1),
			"The value Fuerza of Drake has the field «value» twice in the file"},
		{"value field twice, late", strings.Replace(good, `"value":"7"}`, `"value":"7","Value":"8"}`, 1),
			"The value sigilo of Mira has the field «value» twice in the file"},
		{"value too long", edit(func(d map[string]any) {
			char(d, 0)["values"] = []any{map[string]any{"name": "Fuerza", "value": strings.Repeat("x", 65)}}
		}), "too long (65 characters; at most 64)"},
		{"too many values", edit(func(d map[string]any) {
			var vs []any
			for i := range 41 {
				vs = append(vs, map[string]any{"name": "v" + itoa(i), "value": "1"})
			}
			char(d, 0)["values"] = vs
		}), "already has 40 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := h.With(t)
			if tc.doc == good {
				t.Fatal("the case did not change the document")
			}
			h.Fails(chatC, admin, true, "/importar "+tc.doc, tc.want)
			out := h.OK(chatC, admin, false, "/pj lista")
			contains(t, out, "1 character", "Solo")
			contains(t, h.OK(chatC, bob, false, "/pj"), "hp 9") // «vida», shown in the chat's language
		})
	}
}

func TestImportLimits(t *testing.T) {
	// A chat holds at most as many characters as an import may bring: the
	// file with 3 comes from a chat with a larger quota.
	h := newHarness(t, chattest.Limits{ImportLen: 2000, CharactersPerChat: 2})
	party := newHarness(t, chattest.Limits{})
	setupParty(party)
	_, rep := party.Send(chatA, ana, false, "/exportar")
	h.Fails(chatC, admin, true, "/importar "+string(rep.File.Data), "3 characters; a chat can import at most 2")
	big := `{"format":"zaria-chat","version":1,"settings":{},"characters":[]` + strings.Repeat(" ", 2000) + "}"
	h.Fails(chatC, admin, true, "/importar "+big, "too long", "at most 2000")
	// Past the command's own limit the router refuses before the handler.
	huge := strings.Repeat("x", 2200)
	h.Fails(chatC, admin, true, "/importar "+huge, "too long")
	// An export too long to import again says so at once.
	small := newHarness(t, chattest.Limits{ImportLen: 600})
	setupParty(small)
	out, rep := small.Send(chatA, ana, false, "/exportar")
	if rep.Error || rep.File == nil {
		t.Fatalf("export: %s", out)
	}
	contains(t, out, "3 characters", "more than /import accepts (600 bytes)")
	// Other commands keep the 500-character limit.
	h.Fails(chatC, admin, true, "/pj set a "+strings.Repeat("x", 600), "too long", "500")
}

// An import that would delete characters of the chat the document lacks
// needs --reemplazar (--replace, --αντικατάσταση); without it nothing
// changes and the answer says what would go. An import that only adds or
// updates works directly.
func TestImportThatDeletesNeedsReplace(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	setupParty(h) // Drake, Enyra, Mira in chat A
	empty := `{"format":"zaria-chat","version":1,"settings":{},"characters":[]}`
	out := h.Fails(chatA, admin, true, "/importar "+empty, "lacks 3 characters of this chat (Drake, Enyra, Mira)", "/import --replace", "Nothing was changed")
	lacks(t, out, "Imported")
	contains(t, h.OK(chatA, admin, false, "/pj lista"), "3 characters", "Drake", "Enyra", "Mira")
	// On Matrix the hint uses "!".
	h.Fails(chatA, admin, true, "!importar "+empty, "!import --replace")

	// One character less: named, still refused.
	_, rep := h.Send(chatA, ana, false, "/exportar")
	var doc map[string]any
	if err := json.Unmarshal(rep.File.Data, &doc); err != nil {
		t.Fatal(err)
	}
	chars := doc["characters"].([]any)
	var keep []any
	for _, c := range chars {
		if c.(map[string]any)["name"] != "Mira" {
			keep = append(keep, c)
		}
	}
	doc["characters"] = keep
	less, _ := json.Marshal(doc)
	h.Fails(chatA, admin, true, "/importar "+string(less), "This file lacks Mira, who is in this chat")
	contains(t, h.OK(chatA, admin, false, "/pj lista"), "Mira")

	// An unknown flag changes nothing either.
	h.Fails(chatA, admin, true, "/importar --force "+empty, "Unknown option “--force”")

	// With the flag, in any language and before a newline (a Telegram
	// caption followed by the file's text), the import goes through and
	// says who was deleted.
	out = h.OK(chatA, admin, true, "/importar --replace\n"+string(less))
	contains(t, out, "Imported 2 characters", "Deleted the character the file did not have: Mira.")
	lacks(t, h.OK(chatA, admin, false, "/pj lista"), "Mira")
	out = h.OK(chatA, admin, true, "/importar --αντικατάσταση "+empty)
	contains(t, out, "Imported 0 characters", "Deleted 2 characters the file did not have: Drake, Enyra.")
	contains(t, h.OK(chatA, admin, false, "/pj lista"), "No characters")

	// A document that only adds works directly, and keeps nobody out.
	h.OK(chatA, bob, false, "/pj crear Solo")
	h.OK(chatA, bob, false, "/pj set fuerza 2")
	_, rep = h.Send(chatA, bob, false, "/exportar")
	h.OK(chatB, ana, false, "/pj crear Otro")
	_, repB := h.Send(chatB, ana, false, "/exportar")
	contains(t, h.OK(chatB, admin, true, "/importar "+string(repB.File.Data)), "Imported 1 character")
	var a, b map[string]any
	_ = json.Unmarshal(rep.File.Data, &a)
	_ = json.Unmarshal(repB.File.Data, &b)
	a["characters"] = append(a["characters"].([]any), b["characters"].([]any)...)
	both, _ := json.Marshal(a)
	out = h.OK(chatB, admin, true, "/importar "+string(both))
	contains(t, out, "Imported 2 characters")
	lacks(t, out, "Deleted")
	contains(t, h.OK(chatB, admin, false, "/pj lista"), "Solo", "Otro")
}

// The characters of a document are written while the next ones are still
// being checked: one refused near the end of the largest document undoes
// the dozens already written, and the chat keeps what it had.
func TestImportRefusedLateChangesNothing(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatC, bob, false, "/pj crear Solo")
	h.OK(chatC, bob, false, "/pj set vida 9")
	doc := largestImport(t, transfer.MaxDocumentBytes)
	n := strings.Count(doc, `"name":"Personaje`)
	last := fmt.Sprintf(`"name":"Personaje%03d"`, n-1)
	if n < 40 || !strings.Contains(doc, last) {
		t.Fatalf("the document has %d characters", n)
	}
	bad := strings.Replace(doc, last, `"name":"a b"`, 1)
	h.Fails(chatC, admin, true, "/importar --replace "+bad, "can't be a character name")
	contains(t, h.OK(chatC, admin, false, "/pj lista"), "1 character", "Solo")
	contains(t, h.OK(chatC, bob, false, "/pj"), "hp 9") // «vida», shown in the chat's language
	// So does a field given twice in it (as long as the name it replaces).
	twice := strings.Replace(doc, last, `"name":"P","name":"Q"`, 1)
	if len(twice) != len(doc) {
		t.Fatalf("%d bytes, not %d", len(twice), len(doc))
	}
	h.Fails(chatC, admin, true, "/importar --replace "+twice, "P has the field «name» twice in the file", "Nothing was imported")
	contains(t, h.OK(chatC, admin, false, "/pj lista"), "1 character", "Solo")
	contains(t, h.OK(chatC, bob, false, "/pj"), "hp 9") // «vida», shown in the chat's language
	// The same document without the bad name is taken whole.
	contains(t, h.OK(chatC, admin, true, "/importar --replace "+doc), fmt.Sprint(n, " characters"))
}

// Values are one value per folded key (fold.Key: case, accents, "-" and
// "_"), as /pj set stores them: names that look alike but fold apart
// (full-width "ｆｕｅｒｚａ" beside "fuerza") are two values on a sheet, so
// its export has both and its import takes them.
func TestImportKeepsValuesThatFoldApart(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, ana, false, "/pj set ｆｕｅｒｚａ 5")
	_, rep := h.Send(chatA, ana, false, "/exportar")
	contains(t, h.OK(chatC, admin, true, "/importar "+string(rep.File.Data)), "Imported 1 character")
	contains(t, h.OK(chatC, ana, false, "/pj"), "fuerza 4", "ｆｕｅｒｚａ 5")
}

// An export saved again by an editor that puts a byte order mark in front
// (Notepad) is still the export: it imports, whether the file is handed
// over as it is (Matrix) or pasted.
func TestImportTakesAByteOrderMark(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	setupParty(h)
	_, rep := h.Send(chatA, ana, false, "/exportar")
	doc := string(rep.File.Data)
	contains(t, h.OK(chatC, admin, true, "/importar \ufeff"+doc), "Imported 3 characters")
	contains(t, h.OK(chatB, admin, true, "/importar --replace\n\ufeff"+doc), "Imported 3 characters")
	contains(t, h.OK(chatB, bob, false, "/pj list"), "Mira")
	// A mark inside the document is still refused.
	h.Fails(chatC, admin, true, "/importar "+strings.Replace(doc, `"version"`, "\ufeff"+`"version"`, 1), "not a valid export file")
}
