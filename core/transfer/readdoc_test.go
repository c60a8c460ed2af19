package transfer

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzReadDoc: readDoc, which hands the characters on one at a time,
// reads exactly what json.Decoder with DisallowUnknownFields reads into
// exportDoc in one go, and refuses what it refuses; the one difference
// is a top-level field given twice, which readDoc refuses (errTwice)
// where encoding/json keeps the last.
func FuzzReadDoc(f *testing.F) {
	for _, s := range []string{
		`{"format":"zaria-chat","version":2,"settings":{"lang":"es"},"characters":[{"name":"Drake","owner":"1","values":[{"name":"fuerza","value":"4"}]}],"pads":[]}`,
		`{"characters":[{"name":"A","owner":"1"},{"name":"B","owner":"2","active":true}],"version":1,"format":"zaria-chat"}`,
		`{"format":"zaria-chat","characters":null}`,
		`{"FORMAT":"x","Characters":[]}`,
		`{"format":"zaria-chat","format":"x"}`,
		`{"characters":[{"name":"A","extra":1}]}`,
		`{"characters":{}}`,
		`{} {}`,
		`[]`,
		`{"version":1.5}`,
		`{"exported":"2026-12-01T10:00:00Z","chat":"telegram:-1","characters":[]}  `,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var got exportDoc
		var chars []exportCharacter
		errGot := readDoc(text, &got, func(ec exportCharacter, _ *twice) { chars = append(chars, ec) })
		got.Characters = chars

		var want exportDoc
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		errWant := dec.Decode(&want)
		if errWant == nil {
			// Anything after the document, even a stray "}", is refused.
			if _, err := dec.Token(); err != io.EOF {
				errWant = errors.New("more after the document")
			}
		}
		switch {
		case errGot == nil && errWant != nil:
			t.Fatalf("readDoc took %q, which encoding/json refuses: %v", text, errWant)
		case errGot != nil && errWant == nil && !errors.Is(errGot, errTwice):
			t.Fatalf("readDoc refused %q (%v), which encoding/json takes", text, errGot)
		case errGot == nil:
			if len(want.Characters) == 0 {
				want.Characters = nil // [] and null: no characters either way
			}
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(want)
			if string(a) != string(b) {
				t.Fatalf("%q read as\n%s\nwant\n%s", text, a, b)
			}
		}
	})
}
