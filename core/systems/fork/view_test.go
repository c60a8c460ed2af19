package fork

import (
	"fmt"
	"strings"
	"testing"
)

// A Daegon fork's view offers what /sistema editar changes, as the fork
// has it: the success band's bound, both tables' cells (a changed one
// with its new value), the house rule's choices with the chat's.
func TestViewsDaegon(t *testing.T) {
	tx := Texts{Lang: "es", T: func(key string, kv ...any) string { return key }}
	vs, err := Views([]Fork{{Key: "daegon", Base: "daegon", Changes: []Change{
		{Kind: KindCell, Key: "pct", Row: 7, Col: 3, Value: "60"},
		{Kind: KindRule, Key: "daegon_00", Value: "cero"},
	}}}, tx)
	if err != nil || len(vs) != 1 {
		t.Fatalf("views: %+v %v", vs, err)
	}
	v := vs[0]
	if len(v.Bands) != 1 || fmt.Sprint(v.Bands[0]) != "{success Éxito ≥ 0}" {
		t.Errorf("bands: %+v", v.Bands)
	}
	var tables []string
	for _, tb := range v.Tables {
		tables = append(tables, fmt.Sprintf("%s %d-%d×%d-%d %d rows", tb.Key, tb.RowFrom, tb.RowTo, tb.ColFrom, tb.ColTo, len(tb.Cells)))
	}
	if got := strings.Join(tables, "; "); got != "pct 1-15×1-7 15 rows; cmp 1-15×1-15 15 rows" {
		t.Errorf("tables: %s", got)
	}
	if len(v.Tables) > 0 && (v.Tables[0].Cells[6][2] != "60" || v.Tables[0].Cells[0][4] != "-") {
		t.Errorf("pct 7·3 %q and 1·5 %q, want 60 and -", v.Tables[0].Cells[6][2], v.Tables[0].Cells[0][4])
	}
	if len(v.Rules) != 1 || v.Rules[0].Key != "daegon_00" || v.Rules[0].Value != "cero" || len(v.Rules[0].Choices) != 2 || v.Rules[0].Choices[1].Name != "0, la tirada más baja" {
		t.Errorf("house rules: %+v", v.Rules)
	}
	if len(v.Changes) != 2 || !strings.HasSuffix(v.Changes[0], "58 → 60") {
		t.Errorf("changes: %q", v.Changes)
	}
}
