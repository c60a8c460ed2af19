package engine

import (
	"strings"
	"testing"
)

// A table's bounds refuse a cell outside its column's range when the
// file loads (a fork's file too), and a list of bounds that is not one
// per column.
func TestTableBounds(t *testing.T) {
	src := string(MustBuiltin("dh").Source)
	for name, bad := range map[string][2]string{
		"longsword d30":  {"      - [1, 8, 1, 8, 2]  # espada larga\n", "      - [1, 30, 1, 8, 2]  # espada larga\n"},
		"group 7":        {"      - [1, 8, 1, 8, 2]  # espada larga\n", "      - [1, 8, 1, 8, 7]  # espada larga\n"},
		"half a die":     {"      - [1, 8, 1, 8, 2]  # espada larga\n", "      - [1, 8.5, 1, 8, 2]  # espada larga\n"},
		"bounds too few": {"{min: 0, max: 20}, {min: 1, max: 6}]", "{min: 1, max: 6}]"},
	} {
		changed := strings.Replace(src, bad[0], bad[1], 1)
		if changed == src {
			t.Fatalf("%s: the file has no %q", name, bad[0])
		}
		if _, err := Load([]byte(changed)); err == nil || !strings.Contains(err.Error(), "table weapons") {
			t.Errorf("%s: loaded (%v)", name, err)
		}
	}
}
