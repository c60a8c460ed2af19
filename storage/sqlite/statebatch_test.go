package sqlite

import (
	"context"
	"fmt"
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

// TestWriteStatesMany: a write of more keys than one statement takes
// (new and overwritten, and as many deleted) stores every one of them.
func TestWriteStatesMany(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	const n = 2*stateRows + 7
	first := map[string]string{}
	for i := 0; i < n; i++ {
		first[fmt.Sprintf("tg.u.%d", i)] = "a"
	}
	if err := db.WriteStates(ctx, first, nil); err != nil {
		t.Fatal(err)
	}
	second := map[string]string{}
	var del []string
	for i := 0; i < n; i++ {
		second[fmt.Sprintf("tg.u.%d", n+i)] = "b"
		if i%2 == 0 {
			second[fmt.Sprintf("tg.u.%d", i)] = "c"
		} else {
			del = append(del, fmt.Sprintf("tg.u.%d", i))
		}
	}
	if err := db.WriteStates(ctx, second, del); err != nil {
		t.Fatal(err)
	}
	got, err := db.StatesWithPrefix(ctx, "tg.u.")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n+(n+1)/2 {
		t.Errorf("%d keys stored, want %d", len(got), n+(n+1)/2)
	}
	for i := 0; i < 2*n; i++ {
		want := "b" // added by the second write
		switch {
		case i < n && i%2 == 0:
			want = "c" // overwritten
		case i < n:
			want = "" // deleted
		}
		if v := got[fmt.Sprintf("tg.u.%d", i)]; v != want {
			t.Fatalf("tg.u.%d = %q, want %q", i, v, want)
		}
	}
}

// BenchmarkWriteStates: one journal write of a getUpdates batch (100
// updates' records, ~120 bytes each).
func BenchmarkWriteStates(b *testing.B) {
	db := benchDB(b, synchronous)
	ctx := context.Background()
	v := fmt.Sprintf(`{"u":1,"t":1764670000000000000,"o":[{"m":"sendMessage","c":-100,"p":{"text":"%060d"}}]}`, 7)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		set := make(map[string]string, 100)
		for k := 0; k < 100; k++ {
			set[fmt.Sprintf("telegram.1.u.%d", i*100+k)] = v
		}
		if err := db.WriteStates(ctx, set, nil); err != nil {
			b.Fatal(err)
		}
	}
}
