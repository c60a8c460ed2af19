package engine

import (
	"os"
	"strings"
	"sync"
	"testing"

	"zaria/core/dice"
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

// One loaded system serves many chats at once: rolls and odds in
// parallel (run with -race) give the same answers as alone.
func TestConcurrentChecks(t *testing.T) {
	s := MustBuiltin("kh")
	want, _, err := s.Chance("test", Params{Inputs: map[string]int{"cap": 4, "s": 3, "i": 2, "dc": 15}, Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 20 {
				pr := Params{Inputs: map[string]int{"cap": 4, "s": 3, "i": 2, "dc": 15}, Fresh: k%2 == 0}
				got, _, err := s.Chance("test", pr)
				if err != nil || got.Cmp(want) != 0 {
					t.Errorf("goroutine %d: %v %v", g, got, err)
					return
				}
				if _, err := s.Roll("test", pr, dice.Seeded(uint64(g))); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
