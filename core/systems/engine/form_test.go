package engine

import (
	"strings"
	"testing"
)

// The Ζαριά's check is attribute + skill (two parts) against a DC whose
// choices are the file's named DCs, in the language asked.
func TestFormsFromFile(t *testing.T) {
	forms := MustBuiltin("zaria").Forms("es")
	if len(forms) != 2 || forms[0].Check != "check" || forms[1].Check != "opposed" {
		t.Fatalf("%+v", forms)
	}
	f := forms[0].Fields
	if len(f) != 3 || f[0].Key != "mod" || len(f[0].Parts) != 2 || f[0].Parts[0].Label != "atributo" || f[0].Parts[1].Max != 10 {
		t.Fatalf("mod: %+v", f[0])
	}
	if f[1].Kind != "flag" || f[2].Key != "dc" || f[2].Min != 5 || f[2].Max != 30 || len(f[2].Choices) != 6 || f[2].Choices[2].Label != "media" || f[2].Choices[2].Value != 15 {
		t.Fatalf("npc, dc: %+v %+v", f[1], f[2])
	}
	el := MustBuiltin("daegon").Forms("el")[0].Fields
	if el[1].Key != "d" || el[1].Default == nil || *el[1].Default != 2 || el[1].Choices[2].Label != "δύσκολο" {
		t.Fatalf("daegon d: %+v", el[1])
	}
}

// A check's form (Dungeon Hack's attack) writes named values as words of
// the chat's language, grouped by a table's column; a form naming an
// input without named values, or a group out of its names, is refused.
func TestCheckForm(t *testing.T) {
	f := MustBuiltin("dh").Forms("el")[0]
	if f.Check != "attack" || len(f.Fields) != 2 {
		t.Fatalf("%+v", f)
	}
	w, a := f.Fields[0], f.Fields[1]
	if w.Kind != "word" || w.Label != "Όπλο" || w.Before != "επίθεση" || len(w.Choices) != 46 {
		t.Fatalf("weapon: %+v", w)
	}
	if c := w.Choices[8]; c.Word != "μακρύ-σπαθί" || c.Label != "μακρύ σπαθί" || c.Group != "ενός χεριού" {
		t.Errorf("longsword: %+v", c)
	}
	if c := w.Choices[45]; c.Group != "βολής" {
		t.Errorf("repeating crossbow: %+v", c)
	}
	if a.Before != "vs" || len(a.Choices) != 13 || a.Choices[8].Word != "θώρακας" || a.Choices[8].Group != "" {
		t.Fatalf("armour: %+v", a)
	}
	src := string(MustBuiltin("dh").Source)
	for name, bad := range map[string][2]string{
		"no named values": {"        - input: weapon\n", "        - input: level\n"},
		"group out":       {"              - {es: a distancia, el: βολής, en: ranged}\n", ""},
		"no table":        {"            table: weapons\n", "            table: armours\n"},
	} {
		changed := strings.Replace(src, bad[0], bad[1], 1)
		if changed == src {
			t.Fatalf("%s: the file has no %q", name, bad[0])
		}
		if _, err := Load([]byte(changed)); err == nil || !strings.Contains(err.Error(), "form field") {
			t.Errorf("%s: loaded (%v)", name, err)
		}
	}
}
