// Package dendritetest runs a real Dendrite homeserver on 127.0.0.1 for
// integration tests: SQLite, federation off, registration by shared secret
// only, rate limiting off unless asked for.
//
// The binary is built once, outside this module's dependency graph, by
// adapters/matrix/testdata/build-dendrite.sh into $ZARIA_DENDRITE_DIR
// (default $HOME/.cache/zaria/dendrite-v0.13.8). If it is absent the tests
// skip, unless ZARIA_REQUIRE_DENDRITE=1, which makes them fail.
package dendritetest

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/pem"
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

// Version is the Dendrite release the tests run.
const Version = "v0.13.8"

// ServerName is the homeserver's name: users are @name:localhost.
const ServerName = "localhost"

const sharedSecret = "zaria-test-shared-secret"

// Dir returns the folder that holds (or will hold) the Dendrite binary.
func Dir() string {
	if d := os.Getenv("ZARIA_DENDRITE_DIR"); d != "" {
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
	return filepath.Join(base, "zaria", "dendrite-"+Version)
}

// Binary returns the path of the prebuilt dendrite binary, or skips the test
// (fails it under ZARIA_REQUIRE_DENDRITE=1) when it is missing.
func Binary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(Dir(), "dendrite")
	if st, err := os.Stat(bin); err == nil && st.Mode()&0o111 != 0 {
		return bin
	}
	msg := fmt.Sprintf("Dendrite %s not found at %s; build it with adapters/matrix/testdata/build-dendrite.sh (about 2 minutes)", Version, bin)
	if os.Getenv("ZARIA_REQUIRE_DENDRITE") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Options change the server's configuration.
type Options struct {
	// RateLimit turns on Dendrite's client API rate limiting with this many
	// requests before the cool-off (0 keeps it off).
	RateLimit int
	// CooloffMS is the cool-off period in milliseconds when RateLimit is on.
	CooloffMS int
	// RateLimitExempt lists user ids the rate limit does not apply to.
	RateLimitExempt []string
	// Federation serves the federation API on the same port (still
	// talking to no other server): for /_matrix/federation/v1/openid/userinfo.
	Federation bool
}

// Server is a running Dendrite.
type Server struct {
	URL string // http://127.0.0.1:PORT

	t    testing.TB
	bin  string
	dir  string
	addr string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// HomeserverURL is URL.
func (s *Server) HomeserverURL() string { return s.URL }

// Start writes a configuration into a temporary folder, starts Dendrite on
// a free loopback port and waits until it answers. It is killed when the
// test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	if err := writeKey(filepath.Join(dir, "matrix_key.pem")); err != nil {
		t.Fatalf("dendrite key: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dendrite.yaml"), []byte(config(opts)), 0o600); err != nil {
		t.Fatalf("dendrite config: %v", err)
	}
	addr, err := freePort()
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	s := &Server{URL: "http://" + addr, t: t, bin: bin, dir: dir, addr: addr}
	s.start()
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(dir, "dendrite.log")); err == nil {
				lines := strings.Split(string(b), "\n")
				if len(lines) > 60 {
					lines = lines[len(lines)-60:]
				}
				t.Logf("dendrite log (tail):\n%s", strings.Join(lines, "\n"))
			}
		}
	})
	return s
}

func (s *Server) start() {
	s.t.Helper()
	logf, err := os.OpenFile(filepath.Join(s.dir, "dendrite.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.t.Fatalf("dendrite log: %v", err)
	}
	cmd := exec.Command(s.bin, "-config", "dendrite.yaml", "-http-bind-address", s.addr)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		s.t.Fatalf("start dendrite: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); logf.Close(); close(done) }()
	s.mu.Lock()
	s.cmd, s.done = cmd, done
	s.mu.Unlock()

	// Dendrite starting (or restarting) beside a loaded -race run takes
	// far longer than on a desk.
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case <-done:
			b, _ := os.ReadFile(filepath.Join(s.dir, "dendrite.log"))
			s.t.Fatalf("dendrite exited during start:\n%s", b)
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
			s.t.Fatalf("dendrite did not answer on %s within 90 s", s.URL)
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
// same databases.
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
	_, err = (&synapseadmin.Client{Client: cli}).SharedSecretRegister(ctx, sharedSecret, synapseadmin.ReqSharedSecretRegister{
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

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	return addr, l.Close()
}

// writeKey writes a Matrix signing key: a PEM block of type MATRIX PRIVATE
// KEY holding the 32-byte ed25519 seed.
func writeKey(path string) error {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	seed := priv.Seed()
	kid := strings.NewReplacer("-", "", "_", "").Replace(base64.RawURLEncoding.EncodeToString(seed))
	if len(kid) < 6 {
		return errors.New("short key id")
	}
	block := &pem.Block{Type: "MATRIX PRIVATE KEY", Headers: map[string]string{"Key-ID": "ed25519:" + kid[:6]}, Bytes: seed}
	return os.WriteFile(path, pem.EncodeToMemory(block), 0o600)
}

func config(o Options) string {
	rl := "rate_limiting: {enabled: false}"
	if o.RateLimit > 0 {
		exempt := "[]"
		if len(o.RateLimitExempt) > 0 {
			exempt = `["` + strings.Join(o.RateLimitExempt, `","`) + `"]`
		}
		rl = fmt.Sprintf("rate_limiting: {enabled: true, threshold: %d, cooloff_ms: %d, exempt_user_ids: %s}", o.RateLimit, o.CooloffMS, exempt)
	}
	federation := "true"
	if o.Federation {
		federation = "false"
	}
	return `version: 2
global:
  server_name: ` + ServerName + `
  private_key: matrix_key.pem
  disable_federation: ` + federation + `
  jetstream: {in_memory: false, storage_path: ./jetstream}
  presence: {enable_inbound: false, enable_outbound: false}
  report_stats: {enabled: false}
client_api:
  registration_disabled: true
  registration_shared_secret: "` + sharedSecret + `"
  guests_disabled: true
  ` + rl + `
federation_api:
  database: {connection_string: "file:federationapi.db"}
  key_perspectives: []
key_server:  {database: {connection_string: "file:keyserver.db"}}
media_api:   {base_path: ./media, database: {connection_string: "file:mediaapi.db"}}
mscs:        {database: {connection_string: "file:mscs.db"}}
relay_api:   {database: {connection_string: "file:relayapi.db"}}
room_server: {database: {connection_string: "file:roomserver.db"}}
sync_api:
  database: {connection_string: "file:syncapi.db"}
  search: {enabled: false}
user_api:
  bcrypt_cost: 4
  account_database: {connection_string: "file:userapi.db"}
logging:
  - {type: std, level: warn}
`
}
