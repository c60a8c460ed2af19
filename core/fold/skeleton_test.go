package fold

import "testing"

func TestSkeletonFoldsLookAlikes(t *testing.T) {
	same := [][]string{
		{"Drake", "drake", "DRAKE", "Ｄrake", "Drаke" /* Cyrillic а */, "Dгake" /* Cyrillic г */, "Dr\u0430ke", "Ｄｒａｋｅ"},
		{"Dr0ke", "Droke", "DROKE"},
		{"Δράκος", "δρακος", "ΔΡΑΚΟΣ"},
		{"Ana García", "ana garcia", "Ana_Garcia"},
	}
	for _, group := range same {
		want := Skeleton(group[0])
		for _, s := range group[1:] {
			if got := Skeleton(s); got != want {
				t.Errorf("Skeleton(%q) = %q, want %q as for %q", s, got, want, group[0])
			}
		}
	}
	differ := [][2]string{{"Drake", "Draco"}, {"Ana", "Ann"}, {"Δράκος", "Drakos"}}
	for _, p := range differ {
		if Skeleton(p[0]) == Skeleton(p[1]) {
			t.Errorf("Skeleton(%q) == Skeleton(%q) = %q", p[0], p[1], Skeleton(p[0]))
		}
	}
	for _, s := range []string{"Drake", "Ｄrake", "Μέτριο", "m0l1", "Ðrake", "ﬁre"} {
		k := Skeleton(s)
		if Skeleton(k) != k {
			t.Errorf("Skeleton is not idempotent on %q: %q then %q", s, k, Skeleton(k))
		}
	}
}

// A capital of another script that looks like a Latin capital makes a
// look-alike even where its small letter does not: "Вob" beside "Bob"
// (Cyrillic Ve), "Νick" beside "Nick" (Greek Nu), "ΑΒΓ" beside "ABΓ".
func TestLookAlikeCapitals(t *testing.T) {
	for _, p := range [][2]string{
		{"Bob", "Вob"}, {"Nick", "Νick"}, {"Tom", "Тom"}, {"Hal", "Нal"}, {"Max", "Мax"}, {"ABΓ", "ΑΒΓ"},
		{"Drake", "Drаke"}, {"Drake", "Ｄrake"}, {"Amie", "Arnie"}, {"Drake", "DRAKE"}, {"Δράκος", "ΔΡΑΚΟΣ"},
	} {
		if !LookAlike(p[0], p[1]) || !LookAlike(p[1], p[0]) {
			t.Errorf("%q and %q do not look alike", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"Drake", "Draco"}, {"Ana", "Ann"}, {"Δράκος", "Drakos"}, {"Bob", "Rob"}, {"Gil", "Γil"}} {
		if LookAlike(p[0], p[1]) {
			t.Errorf("%q and %q look alike", p[0], p[1])
		}
	}
}
