package sqlite

import (
	"context"
	"fmt"
	"testing"

	"zaria/core"
	"zaria/core/sheet"
	"zaria/core/transfer"
)

// TestWriterCacheBackAfterImport: the writer connection keeps SQLite's
// 2,000 KiB page cache (issue 29: a 16 MiB one held up to 16 MB for the
// life of the process); an /importar gets 16 MiB for its transaction and
// gives it back, the characters imported all the same.
func TestWriterCacheBackAfterImport(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	cache := func(when string) {
		t.Helper()
		var kib int
		if err := db.w.QueryRowContext(ctx, `PRAGMA cache_size`).Scan(&kib); err != nil {
			t.Fatal(err)
		}
		if kib != -writerCacheKiB {
			t.Errorf("%s: writer cache_size = %d, want %d", when, kib, -writerCacheKiB)
		}
	}
	cache("after open")
	chat := core.ChatRef{Platform: "telegram", ID: "-1"}
	src, done := transfer.NewSource(ctx, 4, func(send func(sheet.Character) error) (transfer.ChatData, error) {
		err := send(sheet.Character{Owner: "u1", Name: "Drake", Key: "drake", System: "dh", Active: true,
			Values: []sheet.Value{{Name: "Fuerza", Key: "fuerza", Text: "4"}}})
		return transfer.ChatData{}, err
	})
	if _, err := db.ReplaceChat(ctx, chat, src, true); err != nil {
		t.Fatal(err)
	}
	<-done
	cache("after an import")
	chars, err := db.ListCharacters(ctx, chat)
	if err != nil || len(chars) != 1 || chars[0].Name != "Drake" {
		t.Errorf("imported characters = %v, %v", chars, err)
	}
}

// The page-cache statements say the sizes of the constants.
func TestCachePragmasMatchTheirSizes(t *testing.T) {
	if want := fmt.Sprintf("PRAGMA cache_size = %d", -writerCacheKiB); pragmaWriterCache != want {
		t.Errorf("%q, want %q", pragmaWriterCache, want)
	}
	if want := fmt.Sprintf("PRAGMA cache_size = %d", -importCacheKiB); pragmaImportCache != want {
		t.Errorf("%q, want %q", pragmaImportCache, want)
	}
}
