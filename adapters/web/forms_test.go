package web

import (
	"testing"
)

// The dice screen draws a form's fields for the user's active character:
// a terms input's parts and a value the check needs offer the sheet's
// numbers in their range; counts that start at the file's default, named
// values and flags do not; a stepper starts at the default, or at the
// range's nearest end to 0.
func TestFormViews(t *testing.T) {
	mine := &sheetView{Values: []valueView{
		{Name: "fuerza", Num: true, N: 4}, {Name: "atletismo", Num: true, N: 2},
		{Name: "arma", Text: "espada"}, {Name: "espadas", Num: true, N: 45},
	}}
	names := func(v fieldView) (out []string) {
		for _, x := range v.Sheet {
			out = append(out, x.Name)
		}
		return out
	}
	fs := formViews([]Form{zariaForm, khForm, rqForm}, mine)
	z := fs[0].Fields
	if got := names(z[0].Parts[0]); len(got) != 2 || got[0] != "fuerza" || got[1] != "atletismo" {
		t.Errorf("Ζαριά's attribute offers %v, want fuerza and atletismo (1..10)", got)
	}
	if z[2].Selected != "15" || z[2].Sheet != nil || z[1].Sheet != nil {
		t.Errorf("Ζαριά's DC %+v, flag %+v", z[2], z[1])
	}
	k := fs[1].Fields
	if got := names(k[0]); len(got) != 2 || k[0].Start != 0 || k[1].Sheet != nil || k[2].Sheet != nil {
		t.Errorf("Kingdom Hearts' capacity offers %v from %d; heartless %v, nobody %v", got, k[0].Start, names(k[1]), names(k[2]))
	}
	r := fs[2].Fields
	if got := names(r[0]); len(got) != 3 || !r[0].Big || r[0].Start != 0 || r[1].Sheet != nil {
		t.Errorf("RQ's skill offers %v (wide %v, from %d); difficulty %v", got, r[0].Big, r[0].Start, names(r[1]))
	}
	if v := viewOf(Field{Kind: "number", Min: 1, Max: 15}, nil); v.Start != 1 || v.Sheet != nil {
		t.Errorf("no character: %+v", v)
	}
}
