package sqlite

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/history"
	"zaria/core/sheet"
)

// Environment of the writer process started by TestCrashKill9.
const (
	envCrashDB    = "ZARIA_CRASH_DB"
	envCrashRound = "ZARIA_CRASH_ROUND"
	envCrashSync  = "ZARIA_CRASH_SYNC"
)

var crashChat = core.ChatRef{Platform: "telegram", ID: "-100crash"}

// TestHelperWriter is not a test on its own: TestCrashKill9 runs it in a
// child process (this same test binary) with envCrashDB set. It writes
// from several goroutines in a loop and prints one line per acknowledged
// write, after the call returned nil:
//
//	C <id> <key>      a character (with three values) was created
//	R <command>       a roll was logged
//	S <key> <n>       the state key was set to n (SetState, or
//	                  SetStateNoSync for the keys ending in .nosync)
//
// It runs until it is killed (or a minute passes).
func TestHelperWriter(t *testing.T) {
	path := os.Getenv(envCrashDB)
	if path == "" {
		t.Skip("only runs as the writer process of TestCrashKill9")
	}
	round := os.Getenv(envCrashRound)
	ctx := context.Background()
	db, err := open(ctx, path, config{sync: os.Getenv(envCrashSync), migrations: migrationFiles})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(3)
	}
	var out sync.Mutex
	ack := func(format string, args ...any) {
		// One write(2) per line: a pipe never shows half a line.
		line := fmt.Sprintf(format+"\n", args...)
		out.Lock()
		os.Stdout.WriteString(line)
		out.Unlock()
	}
	deadline := time.Now().Add(time.Minute)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			stateKey := fmt.Sprintf("crash.r%s.w%d", round, w)
			for i := 0; time.Now().Before(deadline); i++ {
				var err error
				switch i % 4 {
				case 0:
					k := fmt.Sprintf("r%s-w%d-%d", round, w, i)
					c := sheet.Character{Owner: "u" + strconv.Itoa(w), Name: k, Key: k, System: "dh", Values: []sheet.Value{
						{Name: "Fuerza", Key: "fuerza", Text: strconv.Itoa(i)},
						{Name: "Arma", Key: "arma", Text: "espada-larga"},
						{Name: "Uso arma", Key: "uso arma", Text: "d8"},
					}}
					var got sheet.Character
					if got, err = db.CreateCharacter(ctx, crashChat, c, sheet.Quota{}); err == nil {
						ack("C %d %s", got.ID, k)
					}
				case 1:
					cmd := fmt.Sprintf("/roll r%s-w%d-%d", round, w, i)
					r := history.Roll{Chat: crashChat, UserID: "u" + strconv.Itoa(w), Command: cmd, Dice: []int{i%6 + 1}, Sides: []int{6}}
					if err = db.AppendRoll(ctx, r, 0); err == nil {
						ack("R %s", cmd)
					}
				case 2:
					if err = db.SetState(ctx, stateKey, strconv.Itoa(i)); err == nil {
						ack("S %s %d", stateKey, i)
					}
				case 3:
					if err = db.SetStateNoSync(ctx, stateKey+".nosync", strconv.Itoa(i)); err == nil {
						ack("S %s.nosync %d", stateKey, i)
					}
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, "write:", err)
					os.Exit(4)
				}
			}
		}(w)
	}
	wg.Wait()
	db.Close()
}

// TestCrashKill9 kills a writing process with SIGKILL in the middle of its
// writes, several times over the same file, and checks after each kill
// that every write it acknowledged is in the database and that the file
// passes integrity and foreign key checks. It runs with the shipped
// synchronous=FULL and with NORMAL, which the comment on synchronous says
// is enough against kill -9 (not against power loss).
func TestCrashKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for _, mode := range []string{synchronous, "NORMAL"} {
		t.Run(mode, func(t *testing.T) { crashRounds(t, mode) })
	}
}

func crashRounds(t *testing.T, mode string) {
	path := filepath.Join(t.TempDir(), "crash.db")
	acked := map[string]bool{} // "C id key" and "R command" lines
	state := map[string]int{}  // highest acknowledged value per state key
	for round := 1; round <= 3; round++ {
		atKill, total := runAndKill(t, path, mode, round, 150+100*round, acked, state)
		found := checkAcked(t, path, acked, state)
		t.Logf("round %d: SIGKILL after %d acks, %d acks in all; %d acknowledged rows so far, %d rows found",
			round, atKill, total, len(acked), found)
	}
}

// runAndKill starts the writer, lets it acknowledge at least minAcks
// writes, kills it with SIGKILL while it is still writing, and records
// every acknowledged line, including those already in the pipe.
func runAndKill(t *testing.T, path, mode string, round, minAcks int, acked map[string]bool, state map[string]int) (atKill, total int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), envCrashDB+"="+path, envCrashRound+"="+strconv.Itoa(round), envCrashSync+"="+mode)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	n := 0
	killed := false
	timeout := time.AfterFunc(45*time.Second, func() { cmd.Process.Kill() })
	defer timeout.Stop()
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "C "), strings.HasPrefix(line, "R "):
			acked[line] = true
		case strings.HasPrefix(line, "S "):
			f := strings.Fields(line)
			if len(f) != 3 {
				t.Fatalf("bad ack line %q", line)
			}
			v, err := strconv.Atoi(f[2])
			if err != nil {
				t.Fatalf("bad ack line %q", line)
			}
			state[f[1]] = max(state[f[1]], v)
		default:
			continue // test framework output
		}
		n++
		if n >= minAcks && !killed {
			// Kill mid-stream: the writer is inside a write right now.
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
			atKill = n
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("writer ended before %d acks (%d): %v\n%s", minAcks, n, err, stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("writer did not die of SIGKILL: %v\n%s", err, stderr.String())
	}
	return atKill, n
}

// checkAcked re-opens the database after a crash and looks for every
// acknowledged write.
func checkAcked(t *testing.T, path string, acked map[string]bool, state map[string]int) (found int) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("re-open after kill -9: %v", err)
	}
	defer db.Close()
	var check string
	if err := db.r.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	rows, err := db.r.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Error("foreign_key_check reports violations")
	}
	rows.Close()

	chars, err := db.ListCharacters(ctx, crashChat)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, c := range chars {
		// A transaction is all or nothing: a character is there with all
		// of its values or not at all.
		if len(c.Values) != 3 {
			t.Errorf("character %q has %d values, want 3", c.Key, len(c.Values))
		}
		have[fmt.Sprintf("C %d %s", c.ID, c.Key)] = true
	}
	rolls, err := db.LastRolls(ctx, crashChat, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rolls {
		have["R "+r.Command] = true
	}
	missing := 0
	for line := range acked {
		if !have[line] {
			missing++
			if missing <= 10 {
				t.Errorf("acknowledged write lost: %s", line)
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d acknowledged writes lost", missing, len(acked))
	}
	for key, want := range state {
		v, ok, err := db.State(ctx, key)
		got, _ := strconv.Atoi(v)
		if err != nil || !ok || got < want {
			t.Errorf("state %s = %q %v %v, acknowledged %d", key, v, ok, err, want)
		}
	}
	return len(have)
}
