// Package hstest is what dendritetest and synapsetest share: a homeserver
// process on a free loopback port in a temporary folder, waited for until
// it answers /_matrix/client/versions, stopped and restarted on the same
// port with the same data, and users registered by shared secret and
// logged in with a password. Each of those packages keeps its own server's
// configuration and command line (a Kind) and its own public API; this one
// is internal so that tests reach a homeserver only through them.
package hstest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"
	"maunium.net/go/mautrix/synapseadmin"
)

// ServerName is the homeservers' name: users are @name:localhost.
const ServerName = "localhost"

// SharedSecret is the registration shared secret both configurations hold.
const SharedSecret = "zaria-test-shared-secret"

// CacheDir is the folder a homeserver is installed in: $env when set, else
// name below $XDG_CACHE_HOME/zaria (default ~/.cache/zaria).
func CacheDir(env, name string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "zaria", name)
}

// Missing skips the test, saying msg, because a homeserver is not
// installed; it fails the test instead when $require is "1".
func Missing(t testing.TB, require, msg string) {
	t.Helper()
	if os.Getenv(require) == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// Kind says how to run one homeserver.
type Kind struct {
	// Name is the server's name in messages: "dendrite".
	Name string
	// Output is the file, in the server's folder, that gets its standard
	// output and error.
	Output string
	// Logs are further files in the folder a failed test shows.
	Logs []string
	// Ready is how long a start may take before the test fails.
	Ready time.Duration
	// Prepare writes the configuration into s.Dir (s.URL and s.Addr are
	// already chosen) and returns the command line that runs the server
	// in that folder.
	Prepare func(s *Server) ([]string, error)
}

// Server is a running homeserver.
type Server struct {
	URL  string // http://127.0.0.1:PORT
	Dir  string // its configuration, databases and logs
	Addr string // 127.0.0.1:PORT

	t    testing.TB
	kind Kind
	argv []string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// HomeserverURL is URL.
func (s *Server) HomeserverURL() string { return s.URL }

// Start chooses a free loopback port and a temporary folder, prepares the
// server there, starts it and waits until it answers. It is killed when the
// test ends, and a failed test shows the tail of its logs.
func Start(t testing.TB, kind Kind) *Server {
	t.Helper()
	addr, err := freeAddr()
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	s := &Server{URL: "http://" + addr, Dir: t.TempDir(), Addr: addr, t: t, kind: kind}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			for _, name := range s.logs() {
				if b, err := os.ReadFile(filepath.Join(s.Dir, name)); err == nil && len(b) > 0 {
					lines := strings.Split(string(b), "\n")
					if len(lines) > 60 {
						lines = lines[len(lines)-60:]
					}
					t.Logf("%s %s (tail):\n%s", kind.Name, name, strings.Join(lines, "\n"))
				}
			}
		}
	})
	s.argv, err = kind.Prepare(s)
	if err == nil && len(s.argv) == 0 {
		err = errors.New("no command line")
	}
	if err != nil {
		t.Fatalf("prepare %s: %v", kind.Name, err)
	}
	s.start()
	return s
}

func (s *Server) logs() []string { return append([]string{s.kind.Output}, s.kind.Logs...) }

func (s *Server) start() {
	s.t.Helper()
	out, err := os.OpenFile(filepath.Join(s.Dir, s.kind.Output), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.t.Fatalf("%s output: %v", s.kind.Name, err)
	}
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		out.Close()
		s.t.Fatalf("start %s: %v", s.kind.Name, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); out.Close(); close(done) }()
	s.mu.Lock()
	s.cmd, s.done = cmd, done
	s.mu.Unlock()

	deadline := time.Now().Add(s.kind.Ready)
	for {
		select {
		case <-done:
			var logs []string
			for _, name := range s.logs() {
				b, _ := os.ReadFile(filepath.Join(s.Dir, name))
				logs = append(logs, string(b))
			}
			s.t.Fatalf("%s exited during start:\n%s", s.kind.Name, strings.Join(logs, "\n"))
		default:
		}
		resp, err := http.Get(s.URL + "/_matrix/client/versions")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s did not answer on %s within %v", s.kind.Name, s.URL, s.kind.Ready)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// Stop kills the server (the data is kept, for Restart).
func (s *Server) Stop() {
	s.mu.Lock()
	cmd, done := s.cmd, s.done
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-done
}

// Restart kills the server and starts it again on the same port with the
// same data.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	s.start()
}

// Register creates a user with shared-secret registration. Passwords need
// at least 8 characters.
func (s *Server) Register(ctx context.Context, localpart, password string, admin bool) (id.UserID, error) {
	cli, err := mautrix.NewClient(s.URL, "", "")
	if err != nil {
		return "", err
	}
	_, err = (&synapseadmin.Client{Client: cli}).SharedSecretRegister(ctx, SharedSecret, synapseadmin.ReqSharedSecretRegister{
		Username: localpart, Password: password, Admin: admin, InhibitLogin: true,
	})
	if err != nil {
		return "", fmt.Errorf("register %s: %w", localpart, err)
	}
	return id.NewUserID(localpart, ServerName), nil
}

// MustRegister is Register that fails the test on error.
func (s *Server) MustRegister(t testing.TB, localpart, password string) id.UserID {
	t.Helper()
	uid, err := s.Register(context.Background(), localpart, password, false)
	if err != nil {
		t.Fatal(err)
	}
	return uid
}

// Login logs a user in with a password and returns a client (no sync yet).
func (s *Server) Login(ctx context.Context, localpart, password string) (*mautrix.Client, error) {
	cli, err := mautrix.NewClient(s.URL, "", "")
	if err != nil {
		return nil, err
	}
	_, err = cli.Login(ctx, &mautrix.ReqLogin{
		Type:             mautrix.AuthTypePassword,
		Identifier:       mautrix.UserIdentifier{Type: mautrix.IdentifierTypeUser, User: localpart},
		Password:         password,
		StoreCredentials: true,
	})
	if err != nil {
		return nil, fmt.Errorf("login %s: %w", localpart, err)
	}
	return cli, nil
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	return addr, l.Close()
}
