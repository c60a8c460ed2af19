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
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/adapters/matrix/internal/hstest"
)

// Version is the Dendrite release the tests run.
const Version = "v0.13.8"

// ServerName is the homeserver's name: users are @name:localhost.
const ServerName = hstest.ServerName

// Dir returns the folder that holds (or will hold) the Dendrite binary.
func Dir() string { return hstest.CacheDir("ZARIA_DENDRITE_DIR", "dendrite-"+Version) }

// Binary returns the path of the prebuilt dendrite binary, or skips the test
// (fails it under ZARIA_REQUIRE_DENDRITE=1) when it is missing.
func Binary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(Dir(), "dendrite")
	if st, err := os.Stat(bin); err == nil && st.Mode()&0o111 != 0 {
		return bin
	}
	hstest.Missing(t, "ZARIA_REQUIRE_DENDRITE",
		fmt.Sprintf("Dendrite %s not found at %s; build it with adapters/matrix/testdata/build-dendrite.sh (about 2 minutes)", Version, bin))
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

// Server is a running Dendrite: URL, HomeserverURL, Stop, Restart,
// Register, MustRegister and Login.
type Server struct {
	*hstest.Server
}

// Start writes a configuration into a temporary folder, starts Dendrite on
// a free loopback port and waits until it answers. It is killed when the
// test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin := Binary(t)
	return &Server{hstest.Start(t, hstest.Kind{
		Name:   "dendrite",
		Output: "dendrite.log",
		// Dendrite starting (or restarting) beside a loaded -race run
		// takes far longer than on a desk.
		Ready: 90 * time.Second,
		Prepare: func(s *hstest.Server) ([]string, error) {
			if err := writeKey(filepath.Join(s.Dir, "matrix_key.pem")); err != nil {
				return nil, fmt.Errorf("key: %w", err)
			}
			if err := os.WriteFile(filepath.Join(s.Dir, "dendrite.yaml"), []byte(config(opts)), 0o600); err != nil {
				return nil, fmt.Errorf("config: %w", err)
			}
			return []string{bin, "-config", "dendrite.yaml", "-http-bind-address", s.Addr}, nil
		},
	})}
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
  registration_shared_secret: "` + hstest.SharedSecret + `"
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
