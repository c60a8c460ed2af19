package engine

import (
	"os"
	"strings"
	"testing"
)

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

// The whole file of docs/systems-format.md loads, and its vectors hold:
// the reference's example is a file zaria accepts.
func TestDocsExampleFileLoads(t *testing.T) {
	b, err := os.ReadFile("../../../docs/systems-format.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "```yaml\nsystem: roll_over")
	if i < 0 {
		t.Fatal("no whole file in docs/systems-format.md")
	}
	body := doc[i+len("```yaml\n"):]
	body = body[:strings.Index(body, "```")]
	s, err := Load([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if s.VectorCount() != 4 {
		t.Errorf("%d vectors", s.VectorCount())
	}
}
