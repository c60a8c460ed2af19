package engine

import "testing"

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
