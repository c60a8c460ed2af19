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
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/matrix/internal/hstest"
)

// Version is the Synapse release the tests run.
const Version = "1.67.0"

// ServerName is the homeserver's name: users are @name:localhost.
const ServerName = hstest.ServerName

// Dir returns the folder that holds (or will hold) Synapse's venv.
func Dir() string { return hstest.CacheDir("ZARIA_SYNAPSE_DIR", "synapse-"+Version) }

// Python returns the venv's python that runs Synapse, or skips the test
// (fails it under ZARIA_REQUIRE_SYNAPSE=1) when Synapse is not installed.
func Python(t testing.TB) string {
	t.Helper()
	py := filepath.Join(Dir(), "venv", "bin", "python")
	if _, err := os.Stat(py); err == nil {
		return py
	}
	hstest.Missing(t, "ZARIA_REQUIRE_SYNAPSE", fmt.Sprintf("Synapse %s not found at %s; install it with adapters/matrix/testdata/install-synapse.sh "+
		"(about a minute: Debian's python3 packages and ../shared/vendor/matrix-synapse-%s-src.tar.gz)", Version, Dir(), Version))
	return ""
}

// Options change the server's configuration.
type Options struct {
	// NoMessageLimit lifts rc_message for everyone (default: Synapse's).
	NoMessageLimit bool
}

// Server is a running Synapse: URL, HomeserverURL, Stop, Restart,
// Register, MustRegister and Login, and Synapse's admin API.
type Server struct {
	*hstest.Server

	mu    sync.Mutex
	admin *mautrix.Client
}

// Start writes a configuration into a temporary folder, starts Synapse on
// a free loopback port and waits until it answers. It is killed when the
// test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	py := Python(t)
	return &Server{Server: hstest.Start(t, hstest.Kind{
		Name:   "synapse",
		Output: "synapse.out",
		Logs:   []string{"homeserver.log"},
		// A few seconds on a desk; far more beside a loaded -race run.
		Ready: 120 * time.Second,
		Prepare: func(s *hstest.Server) ([]string, error) {
			if err := os.WriteFile(filepath.Join(s.Dir, "homeserver.yaml"), []byte(config(s, opts)), 0o600); err != nil {
				return nil, fmt.Errorf("config: %w", err)
			}
			if err := os.WriteFile(filepath.Join(s.Dir, "log.yaml"), []byte(logConfig(s.Dir)), 0o600); err != nil {
				return nil, fmt.Errorf("log config: %w", err)
			}
			gen := exec.Command(py, "-m", "synapse.app.homeserver", "-c", "homeserver.yaml", "--generate-keys")
			gen.Dir = s.Dir
			if out, err := gen.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("--generate-keys: %w\n%s", err, out)
			}
			return []string{py, "-m", "synapse.app.homeserver", "-c", "homeserver.yaml"}, nil
		},
	})}
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

func config(s *hstest.Server, o Options) string {
	_, port, _ := net.SplitHostPort(s.Addr)
	msg := "" // Synapse's default: 0.2 events/s, a burst of 10
	if o.NoMessageLimit {
		msg = "rc_message: {per_second: 10000, burst_count: 10000}\n"
	}
	return `server_name: ` + ServerName + `
pid_file: ` + filepath.Join(s.Dir, "homeserver.pid") + `
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
  args: {database: ` + filepath.Join(s.Dir, "homeserver.db") + `}
log_config: ` + filepath.Join(s.Dir, "log.yaml") + `
media_store_path: ` + filepath.Join(s.Dir, "media") + `
signing_key_path: ` + filepath.Join(s.Dir, "signing.key") + `
registration_shared_secret: "` + hstest.SharedSecret + `"
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
