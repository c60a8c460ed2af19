package dungeonhack

import "testing"

// Each sheet value is found by its name in any language, and by no other
// value's name.
func TestIsSheetName(t *testing.T) {
	for _, tc := range []struct {
		word, name string
		want       bool
	}{
		{"arma", SheetWeapon, true}, {"Weapon", SheetWeapon, true}, {"Όπλο", SheetWeapon, true},
		{"πανοπλία", SheetArmour, true}, {"armor", SheetArmour, true}, {"uso arma", SheetWeaponUsage, true},
		{"blindaje", SheetIntact, true}, {"armadura", SheetWeapon, false}, {"weapon", SheetWeaponUsage, false},
	} {
		if got := IsSheetName(tc.word, tc.name); got != tc.want {
			t.Errorf("IsSheetName(%q, %q) = %v, want %v", tc.word, tc.name, got, tc.want)
		}
	}
	seen := map[string]bool{}
	for _, g := range SheetSynonyms() {
		if seen[g[0]] {
			t.Errorf("%q has two groups", g[0])
		}
		seen[g[0]] = true
	}
}
