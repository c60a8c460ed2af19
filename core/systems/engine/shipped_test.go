package engine

import "testing"

// Every shipped file loads, and so every one of its vectors holds.
func TestShippedFilesLoad(t *testing.T) {
	if len(Shipped()) == 0 {
		t.Fatal("no shipped files")
	}
	for _, k := range Shipped() {
		s, err := Builtin(k)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if s.VectorCount() < 10 {
			t.Errorf("%s: %d vectors", k, s.VectorCount())
		}
	}
}
