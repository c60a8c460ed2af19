// Package matrix connects the command router to Matrix rooms through
// maunium.net/go/mautrix: it syncs, joins rooms it is invited to, answers
// commands with m.notice replies (plain body and HTML formatted_body), reads
// and writes encrypted rooms with mautrix's cryptohelper (pure-Go goolm, so
// every build uses -tags goolm), re-runs a roll when someone reacts 🎲 to
// it, and delivers secret rolls in a direct room with the roller and the GMs.
//
// Supported for encryption: Olm/Megolm in rooms, key sharing with every
// joined or invited device, encrypted attachments, cross-signing of the
// bot's own device (set up on the first encrypted start, see crossSign).
// Not supported: interactive verification of other users' devices and
// server-side key backup.
//
// Each room's events are handled in order, several rooms at once (see
// rooms); the sync token is saved only as far as events are handled.
package matrix

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"zaria/core"
	"zaria/core/reply"
)

// Renderer draws a chart as a PNG picture (adapters/chart.PNG, wrapped in
// RendererFunc, is one).
type Renderer interface {
	PNG(c *reply.Chart) ([]byte, error)
}

// RendererFunc makes a function a Renderer.
type RendererFunc func(c *reply.Chart) ([]byte, error)

// PNG calls f.
func (f RendererFunc) PNG(c *reply.Chart) ([]byte, error) { return f(c) }

// Values of Config.Reactions.
const (
	ReactionsAuto = "auto"
	ReactionsOn   = "on"
	ReactionsOff  = "off"
)

// Config is what the adapter needs to reach its homeserver, and the matrix
// section of the config file: a field with a yaml key is that key there
// (configs embeds Config); the others are set by main or tests. Defaults
// is the one home of the defaults the example config lists.
type Config struct {
	// Homeserver is the client-server API base URL, e.g. https://matrix.example.org.
	Homeserver string `yaml:"homeserver"`
	// User is the bot's Matrix id (@zaria:example.org) or, with a password,
	// its local part.
	User string `yaml:"user"`
	// Password logs in with m.login.password; AccessToken uses an existing
	// session instead. One of them is required.
	Password    string `yaml:"password"`
	AccessToken string `yaml:"token"`
	// DeviceName is the display name of the device a password login creates.
	// Default "zaria".
	DeviceName string `yaml:"-"`
	// PickleKey turns on end-to-end encryption and encrypts the Olm account
	// and sessions at rest. It must never change for a given CryptoDB.
	PickleKey string `yaml:"pickle_key"`
	// RecoveryKeyFile is where the recovery key of the account's
	// cross-signing keys is written (0600) when the bot sets them up.
	// Default: CryptoDB without ".db", plus ".recovery-key".
	RecoveryKeyFile string `yaml:"recovery_key_file"`
	// Announce receives the one message that shows the recovery key, once
	// (default os.Stderr). It is never logged.
	Announce io.Writer `yaml:"-"`
	// NoCrossSigning leaves the account's cross-signing alone.
	NoCrossSigning bool `yaml:"-"`
	// CryptoDB is the SQLite file (mattn/go-sqlite3) that holds the Matrix
	// room state cache and, with a PickleKey, the crypto store. Required
	// (main defaults it to <db>.matrix.db).
	CryptoDB string `yaml:"crypto_db"`
	// AllowedServers and AllowedUsers restrict whose invites are accepted
	// (server names like "example.org", user ids like "@ana:example.org").
	// Both empty: every invite is accepted.
	AllowedServers []string `yaml:"allowed_servers"`
	AllowedUsers   []string `yaml:"allowed_users"`
	// RerunEdits runs an edited command once more (off: edits are ignored).
	RerunEdits bool `yaml:"rerun_edits"`
	// Reactions says when the bot adds 🎲 (again) and 📊 (odds) under its
	// roll replies, each a send out of the homeserver's rate budget:
	// ReactionsAuto (the default) only when no command of the room waits
	// and the homeserver has not answered 429 for 5 minutes; ReactionsOn
	// always; ReactionsOff never. People can react with them either way.
	Reactions string `yaml:"reactions"`
	// NoReactionButtons is Reactions = ReactionsOff (older setting).
	NoReactionButtons bool `yaml:"no_reaction_buttons"`
	// Workers is how many rooms are handled at once (each room in order).
	// Default 16.
	Workers int `yaml:"-"`
	// SyncTimeout is the long-poll timeout of /sync. Default 30 s.
	SyncTimeout time.Duration `yaml:"-"`
	// BackoffMin and BackoffMax bound the wait between failed requests
	// (doubling, with jitter: adapters/internal/backoff). Defaults 1 s and
	// 2 min.
	BackoffMin time.Duration `yaml:"-"`
	BackoffMax time.Duration `yaml:"-"`
	// SecretRoomFor is how long a secret roll's result is carried to the
	// roller's secret room (found, or made) before the game room is told
	// it is late; it is kept for the roller's next secret roll. Default
	// 2 min: Synapse's default rate limit lets a bot that has spent its
	// burst make a room and send the result within a minute.
	SecretRoomFor time.Duration `yaml:"-"`
	// SendRetryFor is how long a reply keeps being retried (with the same
	// transaction id) before it is given up and logged. Default 10 min.
	SendRetryFor time.Duration `yaml:"-"`
	// Charts draws the distribution charts of replies (/odds) as PNG
	// pictures, sent as m.image after the text; nil sends them as text.
	Charts Renderer `yaml:"-"`
	// MaxImportBytes caps the size of a file sent with /importar. Default
	// core.MaxDocumentBytes (256 KiB).
	MaxImportBytes int64 `yaml:"-"`
}

// Defaults are the defaults of the config file's matrix keys: Reactions
// auto. The settings without a key take theirs in withDefaults.
func Defaults() Config {
	return Config{Reactions: ReactionsAuto}
}

func (c Config) withDefaults() (Config, error) {
	c.Homeserver = strings.TrimRight(strings.TrimSpace(c.Homeserver), "/")
	if c.Homeserver == "" {
		return c, errors.New("matrix: homeserver URL is required")
	}
	if c.Password == "" && c.AccessToken == "" {
		return c, errors.New("matrix: a password or an access token is required")
	}
	if c.Password != "" && c.User == "" {
		return c, errors.New("matrix: a user is required with a password")
	}
	if c.CryptoDB == "" {
		return c, errors.New("matrix: a crypto/state database path is required")
	}
	if c.RecoveryKeyFile == "" {
		c.RecoveryKeyFile = strings.TrimSuffix(c.CryptoDB, ".db") + ".recovery-key"
	}
	if c.Announce == nil {
		c.Announce = os.Stderr
	}
	if c.DeviceName == "" {
		c.DeviceName = "zaria"
	}
	if c.SyncTimeout <= 0 {
		c.SyncTimeout = 30 * time.Second
	}
	if c.BackoffMin <= 0 {
		c.BackoffMin = time.Second
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = 2 * time.Minute
	}
	if c.BackoffMax < c.BackoffMin {
		c.BackoffMax = c.BackoffMin
	}
	if c.SendRetryFor <= 0 {
		c.SendRetryFor = 10 * time.Minute
	}
	switch c.Reactions {
	case "":
		c.Reactions = ReactionsAuto
	case ReactionsAuto, ReactionsOn, ReactionsOff:
	default:
		return c, fmt.Errorf("matrix: reactions is %q; want auto, on or off", c.Reactions)
	}
	if c.NoReactionButtons {
		c.Reactions = ReactionsOff
	}
	if c.Workers <= 0 {
		c.Workers = defaultWorkers
	}
	if c.SecretRoomFor <= 0 {
		c.SecretRoomFor = 2 * time.Minute
	}
	if c.MaxImportBytes <= 0 {
		c.MaxImportBytes = core.MaxDocumentBytes
	}
	return c, nil
}
