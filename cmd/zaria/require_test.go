package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A GM's own file with a requirement of its own words in es, el and en:
// inputs that break it are refused, in the chat's language, with the
// numbers typed, and nothing is rolled; inputs that meet it roll.
func TestOwnSystemRequire(t *testing.T) {
	d := newForkDesk(t)
	file := strings.Replace(rollOver, "    inputs: [bonus, target]\n", `    inputs: [bonus, target]
    require:
      - that: target > bonus
        message:
          es: "El objetivo ({target}) ha de superar el bono ({bonus})."
          el: "Ο στόχος ({target}) πρέπει να ξεπερνά το μπόνους ({bonus})."
          en: "The target ({target}) must exceed the bonus ({bonus})."
`, 1)
	d.want(d.send("a", true, "/sistema importar\n"+file), false, "su propio sistema, Tirada", "/ro")
	d.want(d.send("a", false, "/ro 8 tn5"), true, "Esta tirada no se puede hacer: El objetivo (5) ha de superar el bono (8).")
	d.want(d.send("a", false, "/ro 2 tn12", 10), false, "🎲 10 = 12", "éxito")
	d.want(d.send("a", true, "/lang el"), false)
	d.want(d.send("a", false, "/ro 10"), true, "Αυτή η ρίψη δεν γίνεται: Ο στόχος (10) πρέπει να ξεπερνά το μπόνους (10).")
	d.want(d.send("a", true, "/lang en"), false)
	d.want(d.send("a", false, "/ro tn3 3"), true, "This roll can't be made: The target (3) must exceed the bonus (3).")
	d.want(d.send("a", false, "/ro 3 tn4", 1), false, "🎲 1 = 4", "success")
}

// zaria system check refuses a file whose example breaks a requirement,
// naming the example and the requirement; zaria system try refuses such
// words with the requirement's message.
func TestSystemCheckRequire(t *testing.T) {
	code, shown, _ := runZaria(t, "system", "show", "kh")
	if code != 0 || !strings.Contains(shown, `that: "s + i <= 10"`) {
		t.Fatalf("show kh: %d, no requirement in %q", code, shown[:min(len(shown), 200)])
	}
	bad := filepath.Join(t.TempDir(), "kh.yaml")
	broken := strings.Replace(shown, "vectors:\n", "vectors:\n  - {name: eleven dice, inputs: {cap: \"1\", s: \"6\", i: \"5\"}, expect: {chance: 1/2}}\n", 1)
	if err := os.WriteFile(bad, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runZaria(t, "system", "check", bad)
	if code != exitUser || !strings.Contains(errs, "Example «eleven dice» does not hold") || !strings.Contains(errs, `"s + i <= 10"`) {
		t.Fatalf("a vector breaking the requirement: %d %q", code, errs)
	}
	code, _, errs = runZaria(t, "system", "try", "kh", "6 6s 5i")
	if code != exitUser || !strings.Contains(errs, "At most 10 Heartless and Nobody dice per roll.") {
		t.Fatalf("try 6 6s 5i: %d %q", code, errs)
	}
	if code, out, errs := runZaria(t, "system", "try", "--dice", "4,2,6,4,3", "kh", "6 2s 1i dc17"); code != 0 || !strings.Contains(out, "total 17, success") {
		t.Fatalf("try 6 2s 1i dc17: %d %q %q", code, out, errs)
	}
}
