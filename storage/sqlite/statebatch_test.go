package sqlite

import (
	"context"
	"testing"
)

// TestWriteStatesAndPrefix: several keys set and deleted in one write;
// the prefix scan returns exactly the keys under the prefix.
func TestWriteStatesAndPrefix(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.SetState(ctx, "tg.u.1", "old"); err != nil {
		t.Fatal(err)
	}
	if err := db.WriteStates(ctx, map[string]string{"tg.u.2": "b", "tg.u.3": "c", "tg.v": "x", "tgz": "y"}, []string{"tg.u.1"}); err != nil {
		t.Fatal(err)
	}
	got, err := db.StatesWithPrefix(ctx, "tg.u.")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["tg.u.2"] != "b" || got["tg.u.3"] != "c" {
		t.Errorf("prefix scan = %v", got)
	}
	if _, err := db.StatesWithPrefix(ctx, ""); err == nil {
		t.Error("an empty prefix was accepted")
	}
}
