// Package synapsetest runs a real Synapse homeserver on 127.0.0.1 for
// integration tests: SQLite, federation off, registration by shared secret
// only, and Synapse's default message rate limit (rc_message: 0.2 events/s,
// a burst of 10 per user), as most self-hosters leave it. Logins, joins
// and invites are loosened (many test users log in from one address);
// Exempt lifts the message limit for one user, as an admin would with
// /_synapse/admin/v1/users/<user>/override_ratelimit.
//
// Synapse is installed once, by adapters/matrix/testdata/install-synapse.sh,
// into $ZARIA_SYNAPSE_DIR (default $HOME/.cache/zaria/synapse-1.67.0). If it
// is absent the tests skip, unless ZARIA_REQUIRE_SYNAPSE=1, which makes them
// fail.
package synapsetest

import (
	"context"
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

// Version is the Synapse release the tests run.
const Version = "1.67.0"

// ServerName is the homeserver's name: users are @name:localhost.
const ServerName = "localhost"

const sharedSecret = "zaria-test-shared-secret"

// Dir returns the folder that holds (or will hold) Synapse's venv.
func Dir() string {
	if d := os.Getenv("ZARIA_SYNAPSE_DIR"); d != "" {
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
	return filepath.Join(base, "zaria", "synapse-"+Version)
}

// Python returns the venv's python that runs Synapse, or skips the test
// (fails it under ZARIA_REQUIRE_SYNAPSE=1) when Synapse is not installed.
func Python(t testing.TB) string {
	t.Helper()
	py := filepath.Join(Dir(), "venv", "bin", "python")
	if _, err := os.Stat(py); err == nil {
		return py
	}
	msg := fmt.Sprintf("Synapse %s not found at %s; install it with adapters/matrix/testdata/install-synapse.sh "+
		"(about a minute: Debian's python3 packages and ../shared/vendor/matrix-synapse-%s-src.tar.gz)", Version, Dir(), Version)
	if os.Getenv("ZARIA_REQUIRE_SYNAPSE") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Options change the server's configuration.
type Options struct {
	// NoMessageLimit lifts rc_message for everyone (default: Synapse's).
	NoMessageLimit bool
}

// Server is a running Synapse.
type Server struct {
	URL string // http://127.0.0.1:PORT

	t    testing.TB
	py   string
	dir  string
	addr string

	mu    sync.Mutex
	cmd   *exec.Cmd
	done  chan struct{}
	admin *mautrix.Client
}

// HomeserverURL is URL.
func (s *Server) HomeserverURL() string { return s.URL }

// Start writes a configuration into a temporary folder, starts Synapse on
// a free loopback port and waits until it answers. It is killed when the
// test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	py := Python(t)
	dir := t.TempDir()
	addr, err := freePort()
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	s := &Server{URL: "http://" + addr, t: t, py: py, dir: dir, addr: addr}
	if err := os.WriteFile(filepath.Join(dir, "homeserver.yaml"), []byte(s.config(opts)), 0o600); err != nil {
		t.Fatalf("synapse config: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "log.yaml"), []byte(logConfig(dir)), 0o600); err != nil {
		t.Fatalf("synapse log config: %v", err)
	}
	gen := exec.Command(py, "-m", "synapse.app.homeserver", "-c", "homeserver.yaml", "--generate-keys")
	gen.Dir = dir
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("synapse --generate-keys: %v\n%s", err, out)
	}
	s.start()
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			for _, name := range []string{"synapse.out", "homeserver.log"} {
				if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(b) > 0 {
					lines := strings.Split(string(b), "\n")
					if len(lines) > 60 {
						lines = lines[len(lines)-60:]
					}
					t.Logf("synapse %s (tail):\n%s", name, strings.Join(lines, "\n"))
				}
			}
		}
	})
	return s
}

func (s *Server) start() {
	s.t.Helper()
	out, err := os.OpenFile(filepath.Join(s.dir, "synapse.out"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.t.Fatalf("synapse output: %v", err)
	}
	cmd := exec.Command(s.py, "-m", "synapse.app.homeserver", "-c", "homeserver.yaml")
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		out.Close()
		s.t.Fatalf("start synapse: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); out.Close(); close(done) }()
	s.mu.Lock()
	s.cmd, s.done = cmd, done
	s.mu.Unlock()

	// A few seconds on a desk; far more beside a loaded -race run.
	deadline := time.Now().Add(120 * time.Second)
	for {
		select {
		case <-done:
			b, _ := os.ReadFile(filepath.Join(s.dir, "synapse.out"))
			l, _ := os.ReadFile(filepath.Join(s.dir, "homeserver.log"))
			s.t.Fatalf("synapse exited during start:\n%s\n%s", b, l)
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
			s.t.Fatalf("synapse did not answer on %s within 120 s", s.URL)
		}
		time.Sleep(50 * time.Millisecond)
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
// same database.
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

// Exempt lifts the message rate limit for user, as a Synapse admin does
// with POST /_synapse/admin/v1/users/<user>/override_ratelimit.
func (s *Server) Exempt(ctx context.Context, user id.UserID) error {
	admin, err := s.adminClient(ctx)
	if err != nil {
		return err
	}
	u := admin.BuildURL(mautrix.SynapseAdminURLPath{"v1", "users", string(user), "override_ratelimit"})
	_, err = admin.MakeRequest(ctx, http.MethodPost, u, map[string]int{"messages_per_second": 0, "burst_count": 0}, nil)
	if err != nil {
		return fmt.Errorf("exempt %s from rate limits: %w", user, err)
	}
	return nil
}

func (s *Server) adminClient(ctx context.Context) (*mautrix.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.admin != nil {
		return s.admin, nil
	}
	const name, pass = "synapse-admin", "synapse-admin-pass"
	if _, err := s.Register(ctx, name, pass, true); err != nil {
		return nil, err
	}
	cli, err := s.Login(ctx, name, pass)
	if err != nil {
		return nil, err
	}
	s.admin = cli
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

func (s *Server) config(o Options) string {
	_, port, _ := net.SplitHostPort(s.addr)
	msg := "" // Synapse's default: 0.2 events/s, a burst of 10
	if o.NoMessageLimit {
		msg = "rc_message: {per_second: 10000, burst_count: 10000}\n"
	}
	return `server_name: ` + ServerName + `
pid_file: ` + filepath.Join(s.dir, "homeserver.pid") + `
public_baseurl: ` + s.URL + `/
listeners:
  - port: ` + port + `
    bind_addresses: ['127.0.0.1']
    type: http
    tls: false
    x_forwarded: false
    resources: [{names: [client], compress: false}]
database:
  name: sqlite3
  args: {database: ` + filepath.Join(s.dir, "homeserver.db") + `}
log_config: ` + filepath.Join(s.dir, "log.yaml") + `
media_store_path: ` + filepath.Join(s.dir, "media") + `
signing_key_path: ` + filepath.Join(s.dir, "signing.key") + `
registration_shared_secret: "` + sharedSecret + `"
enable_registration: false
report_stats: false
trusted_key_servers: []
federation_domain_whitelist: []
presence: {enabled: false}
bcrypt_rounds: 4
macaroon_secret_key: "zaria-test-macaroon-secret"
form_secret: "zaria-test-form-secret"
suppress_key_server_warning: true
# Many test users log in, join and invite from one address: not what the
# tests are about.
rc_login:
  address: {per_second: 1000, burst_count: 1000}
  account: {per_second: 1000, burst_count: 1000}
  failed_attempts: {per_second: 1000, burst_count: 1000}
rc_registration: {per_second: 1000, burst_count: 1000}
rc_joins:
  local: {per_second: 1000, burst_count: 1000}
  remote: {per_second: 1000, burst_count: 1000}
rc_invites:
  per_room: {per_second: 1000, burst_count: 1000}
  per_user: {per_second: 1000, burst_count: 1000}
rc_admin_redaction: {per_second: 1000, burst_count: 1000}
` + msg
}

func logConfig(dir string) string {
	return `version: 1
formatters:
  precise: {format: '%(asctime)s - %(name)s - %(lineno)d - %(levelname)s - %(message)s'}
handlers:
  file:
    class: logging.FileHandler
    formatter: precise
    filename: ` + filepath.Join(dir, "homeserver.log") + `
root: {level: WARNING, handlers: [file]}
disable_existing_loggers: false
`
}

// Room is a room as Synapse's admin API lists it.
type Room struct {
	ID            id.RoomID `json:"room_id"`
	Creator       id.UserID `json:"creator"`
	JoinedMembers int       `json:"joined_members"`
	StateEvents   int       `json:"state_events"`
}

// Rooms lists every room on the server (the admin API sees rooms nobody
// is in, such as one whose making stopped after m.room.create).
func (s *Server) Rooms(ctx context.Context) ([]Room, error) {
	admin, err := s.adminClient(ctx)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Rooms []Room `json:"rooms"`
	}
	u := admin.BuildURLWithQuery(mautrix.SynapseAdminURLPath{"v1", "rooms"}, map[string]string{"limit": "1000"})
	if _, err := admin.MakeRequest(ctx, http.MethodGet, u, nil, &resp); err != nil {
		return nil, fmt.Errorf("list rooms: %w", err)
	}
	return resp.Rooms, nil
}
