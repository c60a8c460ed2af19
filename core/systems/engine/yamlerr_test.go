package engine

import (
	"errors"
	"strings"
	"testing"
)

// go-yaml's refusals reach the GM as the format's own messages, each with
// its line and, for a value of the wrong type, the value written.
func TestYAMLRefusals(t *testing.T) {
	line := func(f, sub string) int { return strings.Count(f[:strings.Index(f, sub)], "\n") + 1 }
	cases := []struct {
		name, file, format, shows, at string
	}{
		{"number", strings.Replace(base, "min: -10", "min: diez", 1), "a whole number goes here, not %s", `"diez"`, "diez"},
		{"list", strings.Replace(base, "prefixes: [tn]", "prefixes: tn", 1), "a list goes here (one - item a line, or [a, b]), not %s", `"tn"`, "prefixes: tn"},
		{"map", strings.Replace(base, "title: {es: Tirada, el: Ρίψη, en: Roll}", "title: Tirada", 1), "keys go here (key: value, one a line, or {key: value}), not %s", `"Tirada"`, "title: Tirada"},
		{"text", strings.Replace(base, "command: ro", "command: [ro]", 1), "a text goes here, not %s", "[…]", "command: [ro]"},
		{"bool", strings.Replace(base, "success: true", "success: sí", 1), "true or false goes here, not %s", `"sí"`, "success: sí"},
		{"unknown field", strings.Replace(base, "command: ro", "command: ro\ncolour: red", 1), "%q is no field of the format here: check its spelling and its indentation", `"colour"`, "colour"},
		{"twice", strings.Replace(base, "command: ro", "command: ro\ncommand: rr", 1), "the key %s is written twice (first on line %d)", `"command"`, "command: rr"},
		{"tab", strings.Replace(base, "checks:\n  - key: check", "checks:\n\t- key: check", 1), "a tab in the indentation: indent with spaces only", "tab", "\t- key"},
		{"tab in a map", strings.Replace(base, "    names: {es: tirada", "\tnames: {es: tirada", 1), "a tab in the indentation: indent with spaces only", "tab", "\tnames"},
		{"at", strings.Replace(base, "command: ro", "command: @ro", 1), "a character no value can start with: indent with spaces, not tabs, and put a text starting with @, ` or %% in quotes", "quotes", "command: @ro"},
		{"indentation", strings.Replace(base, "    names: {es: tirada", "   names: {es: tirada", 1), "the indentation does not line up: the keys of one map, and the - of one list, each at the same indentation, with spaces", "indentation", "  - key: check"}, // go-yaml names the block's first line,
		{"colon", strings.Replace(base, "title: {es: Tirada, el: Ρίψη, en: Roll}", "title: {es: Tirada, el: Ρίψη, en: Roll}\ncommand: ro: x", 1), "a colon where none can go: put a text with \": \" in quotes, or check the indentation", "quotes", "command: ro: x"},
		{"escape", strings.Replace(base, "command: ro", `command: "r\o"`, 1), "a \\ in a text in double quotes: put the text in single quotes, or write the \\ twice", "single quotes", `command: "r\o"`},
		{"bracket", strings.Replace(base, "prefixes: [tn]", "prefixes: [tn", 1), "a [ or { not closed: every [ needs its ], every { its }, and commas between items", "commas", "prefixes: [tn"},
	}
	for _, c := range cases {
		_, err := Load([]byte(c.file))
		var e *Error
		if !errors.As(err, &e) || e.Format != c.format || !strings.Contains(err.Error(), c.shows) {
			t.Errorf("%s: got %v (format %q), want %q showing %s", c.name, err, e.Format, c.format, c.shows)
			continue
		}
		if want := line(c.file, c.at); e.Line < want-1 || e.Line > want {
			t.Errorf("%s: line %d, the slip is on %d", c.name, e.Line, want)
		}
	}
}

// A refusal raised while compiling names the line of the value it
// refuses, found in the file: a GM is not sent to "line 0".
func TestRefusalLineGuessed(t *testing.T) {
	line := func(f, sub string) int { return strings.Count(f[:strings.Index(f, sub)], "\n") + 1 }
	for _, c := range []struct{ from, to, at string }{
		{"system: roll_over", "system: Roll Over", "system: Roll Over"},
		{"key: bonus, type", "key: Bonus, type", "key: Bonus"},
		{"type: number, min: -10", "type: numeral, min: -10", "type: numeral"},
	} {
		f := strings.Replace(base, c.from, c.to, 1)
		_, err := Load([]byte(f))
		var e *Error
		if !errors.As(err, &e) || e.Format == "" || e.Line != line(f, c.at) {
			t.Errorf("%s: got %v, want a refusal of line %d", c.to, err, line(f, c.at))
		}
	}
}
