package history_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/internal/chattest"
)

// TestStatsIsShortDetailOnRequest: issue 23, item 8. /stats ran to ~50
// lines (the faces of each die, "menos: 1 (0×), más: 5 (1×), se esperan
// 0,1 de cada", and the chart in text). It now gives a verdict per die
// size in a few lines; "/stats detalle" adds the faces and the chart, in
// plain words.
func TestStatsIsShortDetailOnRequest(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	if err := h.DB.SaveSettings(context.Background(), chatA, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	var d6, d20, d10 []int
	for i := range 60 {
		d6 = append(d6, 1+i%6)
	}
	for i := range 12 {
		d20 = append(d20, 1+i%20)
	}
	observe(h, chatA, ana, 6, d6)
	observe(h, chatA, bob, 20, d20)
	observe(h, chatA, bob, 10, append(d10, 4, 7))
	out, rep := h.Send(chatA, ana, false, "/stats")
	if n := strings.Count(out, "\n") + 1; n > 10 || rep.Chart != nil {
		t.Errorf("/stats: %d lines, chart %v:\n%s", n, rep.Chart != nil, out)
	}
	contains(t, out, "d6: 60 dados", "✅ parece justo", "d20: 12 dados, muy pocos para probar", "Cada cara y la gráfica: /stats detalle")
	lacks(t, out, "1:10", "menos:", "se esperan")
	out, rep = h.Send(chatA, ana, false, "/stats detalle")
	if rep.Chart == nil {
		t.Errorf("/stats detalle has no chart")
	}
	contains(t, out, "1:10 2:10 3:10 4:10 5:10 6:10 (se esperan 10,0 por cara)",
		"la cara que menos salió: 13, con 0; la que más: 1, con 1; se esperan 0,6 por cara")
	lacks(t, out, "(0×)", "de cada")
	if err := h.DB.SaveSettings(context.Background(), chatA, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	contains(t, h.OK(chatA, ana, false, "/stats"), "Κάθε όψη και το γράφημα: /stats λεπτομέρειες")
	contains(t, h.OK(chatA, ana, false, "!στατιστικά λεπτομέρειες"), "ανά όψη")
}
