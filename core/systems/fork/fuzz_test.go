package fork

import (
	"testing"

	"zaria/core/systems/engine"
)

// FuzzFork feeds hostile changes to a fork of each shipped system and
// hostile files to an import: each is refused (the user's message or the
// engine's) or builds a file that loads on its own; never a panic.
func FuzzFork(f *testing.F) {
	f.Add(uint8(0), "number", "fumble_from", 0, 0, "95", []byte(nil))
	f.Add(uint8(1), "cell", "pct", 7, 3, "-", []byte(nil))
	f.Add(uint8(2), "band", "major_success", 0, 0, "-999999", []byte(nil))
	f.Add(uint8(3), "name", "fumble", 0, 0, "", []byte(nil))
	f.Add(uint8(0), "rule", "zaria", 0, 0, "media_alta", []byte("system: x\ncommand: x\n"))
	f.Add(uint8(0), "cell", "pct", -1<<31, 1<<31-1, "1e9", []byte("a: &a [*a, *a]\nb: *a\n"))
	f.Fuzz(func(t *testing.T, which uint8, kind, key string, row, col int, value string, file []byte) {
		keys := engine.Shipped()
		bs := book(t, keys[int(which)%len(keys)])
		s, _, err := Build(bs, []Change{{Kind: kind, Key: key, Row: row, Col: col, Lang: "es", Value: value}}, "en")
		if err == nil {
			if _, err := engine.Load(s.Source); err != nil {
				t.Fatalf("a built fork's file does not load: %v", err)
			}
		}
		if file != nil {
			_ = Check(Fork{Key: "x", Source: file})
		}
	})
}
