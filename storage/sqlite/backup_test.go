package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/history"
	"zaria/core/sheet"
)

// TestBackupWhileWriting copies the database while writers keep going and
// checks that the copy is a valid database holding every write
// acknowledged before the backup started, and a consistent snapshot: each
// writer's rows form a prefix of what it wrote, and characters are whole.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	chat := core.ChatRef{Platform: "matrix", ID: "!backup:example.org"}
	const writers = 3
	var acked [writers]atomic.Int64 // per writer: rolls 1..acked[w] are committed
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 1; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				r := history.Roll{Chat: chat, UserID: strconv.Itoa(w), Command: fmt.Sprintf("/roll w%d #%d", w, i)}
				if err := db.AppendRoll(ctx, r, 0); err != nil {
					errs <- err
					return
				}
				if i%5 == 0 {
					c := sheet.Character{Owner: strconv.Itoa(w), Name: fmt.Sprintf("c%d-%d", w, i), Key: fmt.Sprintf("c%d-%d", w, i),
						Values: []sheet.Value{{Name: "a", Key: "a", Text: "1"}, {Name: "b", Key: "b", Text: "2"}}}
					if _, err := db.CreateCharacter(ctx, chat, c, sheet.Quota{}); err != nil {
						errs <- err
						return
					}
				}
				acked[w].Store(int64(i))
			}
		}(w)
	}
	// Let the writers get going, then back up twice into the same file
	// (the second replaces the first).
	for acked[0].Load() < 50 || acked[writers-1].Load() < 50 {
		select {
		case err := <-errs:
			t.Fatal(err)
		case <-time.After(time.Millisecond):
		}
	}
	dest := filepath.Join(t.TempDir(), "backups", "zaria-backup.db")
	var before [writers]int64
	for round := 0; round < 2; round++ {
		for w := range before {
			before[w] = acked[w].Load()
		}
		if err := db.Backup(ctx, dest); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), ".*tmp"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
	// One self-contained file in rollback-journal mode: header bytes 18
	// and 19 are 1 (2 would mean WAL), and no -wal beside it.
	head := make([]byte, 20)
	if f, err := os.Open(dest); err != nil {
		t.Fatal(err)
	} else {
		_, err = f.Read(head)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if string(head[:16]) != "SQLite format 3\x00" || head[18] != 1 || head[19] != 1 {
		t.Errorf("backup header = %q, want an SQLite file in rollback mode", head)
	}
	if _, err := os.Stat(dest + "-wal"); err == nil {
		t.Error("backup has a -wal file")
	}
	cp, err := Open(ctx, dest)
	if err != nil {
		t.Fatalf("open backup: %v", err)
	}
	defer cp.Close()
	var check string
	if err := cp.r.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("backup integrity_check = %q, %v", check, err)
	}
	rolls, err := cp.LastRolls(ctx, chat, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]map[int]bool, writers)
	for w := range seen {
		seen[w] = map[int]bool{}
	}
	for _, r := range rolls {
		var w, i int
		if _, err := fmt.Sscanf(r.Command, "/roll w%d #%d", &w, &i); err != nil {
			t.Fatalf("unexpected roll %q", r.Command)
		}
		seen[w][i] = true
	}
	for w := 0; w < writers; w++ {
		n := len(seen[w])
		if int64(n) < before[w] {
			t.Errorf("writer %d: backup has %d rolls, %d were acknowledged before it started", w, n, before[w])
		}
		for i := 1; i <= n; i++ {
			if !seen[w][i] {
				t.Errorf("writer %d: backup has %d rolls but not #%d: not a snapshot", w, n, i)
				break
			}
		}
	}
	chars, err := cp.ListCharacters(ctx, chat)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chars {
		if len(c.Values) != 2 {
			t.Errorf("backup has character %q with %d values, want 2", c.Key, len(c.Values))
		}
	}
	t.Logf("backup holds %d rolls and %d characters", len(rolls), len(chars))
}

func TestBackupRefusesTheDatabaseItself(t *testing.T) {
	db := openTemp(t)
	err := db.Backup(context.Background(), db.Path())
	if err == nil || !strings.Contains(err.Error(), "database itself") {
		t.Fatalf("backup onto itself: err = %v", err)
	}
	if err := db.SetState(context.Background(), "k", "v"); err != nil {
		t.Fatalf("database unusable after refused backup: %v", err)
	}
}

func TestBackupIntoUnwritablePlace(t *testing.T) {
	db := openTemp(t)
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A directory that cannot exist: its parent is a regular file.
	err := db.Backup(context.Background(), filepath.Join(file, "backup.db"))
	if err == nil || !strings.HasPrefix(err.Error(), "sqlite: backup to ") {
		t.Fatalf("backup under a file: err = %v", err)
	}
}
