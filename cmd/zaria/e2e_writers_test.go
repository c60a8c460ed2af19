package main

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Every acknowledged write survives any number of writers: processes of
// the real binary (`zaria roll --db`, as an operator runs it beside the
// live bot) each set their own values on one sheet at the same time. Each
// "✏️ Drake: wN_i = i" printed is a promise; at the end every promised
// value is on the sheet and the file passes PRAGMA integrity_check. Before
// sheet edits ran inside one BEGIN IMMEDIATE transaction, 30 such writers
// kept only 2–6 of their 30 values.
func TestParallelCLIWritersKeepEveryAcknowledgedValue(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	roll := cliRoller(t, db)
	if out, err := roll("/pj create Drake"); err != nil {
		t.Fatalf("create: %v\n%s", err, out)
	}
	// The values fit one sheet: 4 writers × 10 names = 40 (the quota),
	// each name written 10 times with increasing values, so a lost write
	// shows as an old value or a missing name.
	const writers, names, rounds = 4, 10, 10
	var mu sync.Mutex
	acked := map[string]string{} // value name → last acknowledged value
	ackCount := 0
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				for n := range names {
					name, value := fmt.Sprintf("w%d_%d", w, n), fmt.Sprint(r*100+n)
					out, err := roll(fmt.Sprintf("/pj set %s %s", name, value))
					if err != nil {
						t.Errorf("writer %d: /pj set %s %s: %v\n%s", w, name, value, err, out)
						continue
					}
					if want := fmt.Sprintf("Drake: %s = %s", name, value); !strings.Contains(out, want) {
						t.Errorf("writer %d: answer %q, want %q", w, out, want)
						continue
					}
					mu.Lock()
					acked[name], ackCount = value, ackCount+1
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if ackCount != writers*names*rounds {
		t.Errorf("%d of %d writes acknowledged", ackCount, writers*names*rounds)
	}
	sheet, err := roll("/pj")
	if err != nil {
		t.Fatalf("/pj: %v\n%s", err, sheet)
	}
	lost := 0
	for name, value := range acked {
		if !strings.Contains(sheet, name+" "+value+" ") && !strings.Contains(sheet, name+" "+value+"\n") {
			lost++
			t.Errorf("acknowledged %s = %s is not on the sheet", name, value)
		}
	}
	t.Logf("%d writes by %d processes acknowledged, %d final values checked, %d lost", ackCount, writers, len(acked), lost)
	integrity(t, db)
	foreignKeys(t, db)
}

// foreignKeys runs PRAGMA foreign_key_check on the file.
func foreignKeys(t *testing.T, path string) {
	t.Helper()
	conn, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query("PRAGMA foreign_key_check")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if rows.Next() {
		t.Error("foreign_key_check reports dangling references")
	}
}
