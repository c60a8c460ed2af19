package matrix

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBinary: the zaria program itself, configured only through the
// environment as the README says, serves an encrypted Matrix room and stops
// cleanly on SIGTERM, with no secret in its output.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the zaria binary")
	}
	hs := startServer(t, optsNone)
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	dir := t.TempDir()
	bin := filepath.Join(dir, "zaria")
	build := exec.Command("go", "build", "-tags", "goolm", "-o", bin, "./cmd/zaria")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build zaria: %v\n%s", err, out)
	}
	alice := newUser(t, hs, "alice", true)

	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"ZARIA_MATRIX_HOMESERVER="+hs.URL,
		"ZARIA_MATRIX_USER="+botName,
		"ZARIA_MATRIX_PASSWORD="+botPassword,
		"ZARIA_MATRIX_PICKLE_KEY="+pickleKey,
		"ZARIA_DB="+filepath.Join(dir, "zaria.db"),
		"ZARIA_LANG=en",
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
		}
	})

	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)
	c := alice.say(room, "!zaria 4+2 dc15")
	got := alice.waitFor("reply from the binary", wait, replyTo(botID(), c))
	if !got.Mautrix.WasEncrypted || !strings.Contains(got.Content.AsMessage().Body, "15") {
		t.Errorf("reply %q (encrypted %v)", got.Content.AsMessage().Body, got.Mautrix.WasEncrypted)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("zaria exited with %v after SIGTERM:\n%s", err, out.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("zaria did not stop within 15 s of SIGTERM:\n%s", out.String())
	}
	for _, secret := range []string{botPassword, pickleKey} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("a secret appears in zaria's output")
		}
	}
}
