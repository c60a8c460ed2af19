package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/core"
)

// TestWebFileSystemSheet: issue 33, item 5. In a chat whose system for
// new sheets is Call of Cthulhu (/ajustes sistema coc), a character the
// page creates starts with the file's characteristics and skills, and
// the page's character screen shows them as fields.
func TestWebFileSystemSheet(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, time.Now())
	ctx := context.Background()
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	s, err := w.db.Settings(ctx, chat)
	if err != nil {
		t.Fatal(err)
	}
	s = s.Clone()
	s.Options["sistema"] = "coc"
	if err := w.db.SaveSettings(ctx, chat, s); err != nil {
		t.Fatal(err)
	}
	code, a := w.do(ana, tok, map[string]any{"op": "create", "name": "Lyra"})
	if code != 200 || a.Error || !strings.Contains(a.text(), "La llamada de Cthulhu") {
		t.Fatalf("create: %d %+v", code, a)
	}
	if v, _ := w.sheetValue(webGroup, "Lyra", "Buscar-libros"); v != "20" {
		t.Fatalf("Buscar-libros stored as %q, want 20", v)
	}
	code, page, _ := w.call("GET", "c/"+tok+"/s/sheets", ana, "")
	for _, want := range []string{"Lyra", "FUE", "Cordura", "Buscar-libros", "Mitos-de-Cthulhu", `value="50"`, `value="20"`} {
		if code != 200 || !strings.Contains(page, want) {
			t.Errorf("sheets screen: %d, lacks %q", code, want)
		}
	}
}
