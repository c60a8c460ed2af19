package hstest

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fatalTB is t, except that Fatalf records the message and ends the
// goroutine, so that a test can see what Start says when it fails.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// start runs Start in its own goroutine and returns the server, or the
// message it failed the test with.
func start(t *testing.T, kind Kind) (*Server, string) {
	ft := &fatalTB{TB: t}
	var s *Server
	done := make(chan struct{})
	go func() {
		defer close(done)
		s = Start(ft, kind)
	}()
	<-done
	return s, ft.msg
}

// pyServer is a stand-in homeserver: Python's static file server, whose
// folder has the file /_matrix/client/versions.
func pyServer(t *testing.T) Kind {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 for a stand-in homeserver")
	}
	return Kind{Name: "stand-in", Output: "out.log", Ready: 30 * time.Second,
		Prepare: func(s *Server) ([]string, error) {
			if err := os.MkdirAll(filepath.Join(s.Dir, "_matrix", "client"), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(s.Dir, "_matrix", "client", "versions"), []byte(`{"versions":["v1.1"]}`), 0o644); err != nil {
				return nil, err
			}
			_, port, _ := strings.Cut(s.Addr, ":")
			return []string{py, "-m", "http.server", "--bind", "127.0.0.1", port}, nil
		}}
}

func answers(url string) bool {
	resp, err := http.Get(url + "/_matrix/client/versions")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// A server is waited for until it answers, stops answering when stopped,
// and answers again on the same address after Restart.
func TestStartStopRestart(t *testing.T) {
	s, msg := start(t, pyServer(t))
	if msg != "" {
		t.Fatal(msg)
	}
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") || s.HomeserverURL() != s.URL {
		t.Fatalf("URL %q, HomeserverURL %q", s.URL, s.HomeserverURL())
	}
	if !answers(s.URL) {
		t.Fatal("Start returned before the server answered")
	}
	s.Stop()
	if answers(s.URL) {
		t.Fatal("still answering after Stop")
	}
	s.Stop() // a second Stop does nothing
	s.Restart()
	if !answers(s.URL) {
		t.Fatal("not answering after Restart")
	}
}

// A server that exits while starting fails the test with its output; one
// that never answers fails it after Ready.
func TestStartFailures(t *testing.T) {
	_, msg := start(t, Kind{Name: "broken", Output: "out.log", Ready: time.Minute,
		Prepare: func(s *Server) ([]string, error) {
			return []string{"sh", "-c", "echo no config here; exit 3"}, nil
		}})
	if !strings.Contains(msg, "broken exited during start") || !strings.Contains(msg, "no config here") {
		t.Errorf("a server that exits: %q", msg)
	}
	_, msg = start(t, Kind{Name: "silent", Output: "out.log", Ready: 300 * time.Millisecond,
		Prepare: func(s *Server) ([]string, error) { return []string{"sleep", "30"}, nil }})
	if !strings.Contains(msg, "silent did not answer on http://127.0.0.1:") {
		t.Errorf("a server that never answers: %q", msg)
	}
	_, msg = start(t, Kind{Name: "unready", Output: "out.log", Ready: time.Second,
		Prepare: func(s *Server) ([]string, error) { return nil, fmt.Errorf("no key") }})
	if msg != "prepare unready: no key" {
		t.Errorf("a failed Prepare: %q", msg)
	}
}
