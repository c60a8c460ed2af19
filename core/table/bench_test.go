package table_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"zaria/core/table"
)

// BenchmarkTableRollNested: one /tabla through the router on SQLite, a
// row that rolls dice and two nested tables (3 store reads).
func BenchmarkTableRollNested(b *testing.B) {
	bt := open(b, filepath.Join(b.TempDir(), "z.db"))
	bt.ok(gm, "/tabla crear Gemas: Rubí; Zafiro")
	bt.ok(gm, "/tabla crear Botín: [[1d6]] monedas y [[Gemas]]; Nada")
	bt.ok(gm, "/tabla crear Cofre: [[2d6]] trampas y [[Botín]]; Vacío")
	b.ResetTimer()
	for range b.N {
		bt.say(ana, "/tabla Cofre", 1, 3, 4, 1, 5, 2)
	}
}

// BenchmarkTableCreateLargest: /tabla crear with the most rows that fit
// one message (MaxInput), 1d1000 ranges checked for gaps and overlaps.
func BenchmarkTableCreateLargest(b *testing.B) {
	bt := open(b, filepath.Join(b.TempDir(), "z.db"))
	var rows []string
	for i := range table.MaxRows {
		rows = append(rows, strconv.Itoa(i*10+1)+"-"+strconv.Itoa(i*10+10)+" "+strings.Repeat("x", 24))
	}
	text := "/tabla crear Grande\n" + strings.Join(rows, "\n")
	b.ResetTimer()
	for range b.N {
		bt.ok(gm, text)
	}
}
