package dungeonhack

import (
	"slices"
	"strings"
	"testing"

	"zaria/core/fold"
)

// names reports whether word names the sheet value name (one of the
// Sheet constants) in any language, without case or accents: one of its
// SheetSynonyms.
func names(word, name string) bool {
	for _, g := range SheetSynonyms() {
		if g[0] == name && slices.ContainsFunc(g, func(n string) bool { return fold.Key(n) == fold.Key(word) }) {
			return true
		}
	}
	return false
}

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
		if got := names(tc.word, tc.name); got != tc.want {
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

// "/dh uso arma" and "/dh uso armadura" name the sheet's weapon and
// armour (dh.yaml's input item) by every name of those sheet values.
func TestUsageItemsAreSheetNames(t *testing.T) {
	for _, g := range SheetSynonyms()[:2] {
		for _, n := range g {
			sd, err := Book().File().ParseInputs("usage", strings.Fields(n))
			if err != nil {
				t.Errorf("/dh uso %s: %v", n, err)
				continue
			}
			if item := sd.Inputs["item"]; item != 1 && g[0] == SheetWeapon || item != 2 && g[0] == SheetArmour {
				t.Errorf("/dh uso %s: item %d, want the sheet's %s", n, item, g[0])
			}
		}
	}
}
