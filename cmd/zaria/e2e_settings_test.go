package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Settings changed at the same time by several processes (the CLI beside
// the live bot) are all kept: each `/settings <option> <value>` changes
// only its option, never writes back a stale copy of the others. Seven
// writers, one per option, each switch their option back and forth; at
// the end `/settings` shows every writer's last acknowledged value.
func TestParallelSettingsWritersKeepEveryOption(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	roll := cliRoller(t, db)
	if out, err := roll("/settings"); err != nil {
		t.Fatalf("/settings: %v\n%s", err, out)
	}
	// Each option with the two values its writer alternates between, and
	// how /settings shows the option.
	options := []struct{ key, a, b, shown string }{
		{"zaria", "high", "exact", "how 2d10 make the Ζαριά: "},
		{"zaria_pnj_epico", "yes", "no", "an NPC's d10 is epic: "},
		{"dh_blindaje", "highest", "sum", "how the armour dice (DB) absorb: "},
		{"dh_pen", "up", "round", "monster penetration (level ÷ 6 − 1): "},
		{"dh_dado", "d4", "d6", "default DB die: "},
		{"daegon_00", "zero", "hundred", "how 00 reads: "},
		{"prefix", "?", "!", "Command prefix (Matrix): "},
	}
	const rounds = 5
	last := make([]string, len(options))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, o := range options {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				v := o.a
				if r%2 == 1 {
					v = o.b
				}
				out, err := roll(fmt.Sprintf("/settings %s %s", o.key, v))
				if err != nil || !strings.Contains(out, "✅") {
					t.Errorf("/settings %s %s: %v\n%s", o.key, v, err, out)
					continue
				}
				mu.Lock()
				last[i] = v
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	out, err := roll("/settings")
	if err != nil {
		t.Fatalf("/settings: %v\n%s", err, out)
	}
	for i, o := range options {
		if last[i] == "" {
			continue
		}
		if !strings.Contains(out, o.shown+last[i]) {
			t.Errorf("%s: acknowledged %q, /settings shows:\n%s", o.key, last[i], out)
		}
	}
}

// cliRoller runs `zaria roll --lang en --db db TEXT` with the real binary,
// as an operator beside the live bot would, and returns what it printed.
func cliRoller(t *testing.T, db string) func(text string) (string, error) {
	bin := zariaBinary(t)
	return func(text string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "roll", "--lang", "en", "--db", db, text)
		cmd.Env = append(os.Environ(), "ZARIA_LOG_LEVEL=error")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
}
