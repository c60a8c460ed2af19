// Package configs loads zaria's configuration: a YAML file (strict: an
// unknown key is an error) overridden by ZARIA_* environment variables.
// Secrets (tokens, passwords, the pickle key) should come from the
// environment; a config file that holds one must not be readable by group
// or others (mode 0600), or it is refused.
package configs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"zaria/adapters/matrix"
	"zaria/adapters/telegram"
	"zaria/adapters/web"
	"zaria/core"
)

// Config is the whole configuration. Every key is documented in
// zaria.example.yaml.
type Config struct {
	Lang     string   `yaml:"lang"`
	Timezone string   `yaml:"timezone"`
	DocsURL  string   `yaml:"docs_url"` // where docs/ is published; /help links its pages
	DB       string   `yaml:"db"`
	Log      Log      `yaml:"log"`
	HTTP     HTTP     `yaml:"http"`
	Console  Console  `yaml:"console"`
	Telegram Telegram `yaml:"telegram"`
	// Matrix is the matrix section, declared in matrix.Config (keys) and
	// matrix.Defaults. The adapter runs when Homeserver is set.
	Matrix matrix.Config `yaml:"matrix"`
	// Web is the phone companion (adapters/web): its settings struct
	// carries its keys and defaults.
	Web web.Config `yaml:"web"`
}

// Log settings.
type Log struct {
	Level  string `yaml:"level"`  // debug, info, warn, error
	Format string `yaml:"format"` // text or json
}

// HTTP is the optional local listener for /healthz and /metrics.
type HTTP struct {
	Listen string `yaml:"listen"` // e.g. 127.0.0.1:9090; empty disables it
	// Pprof also serves Go's profiles under /debug/pprof/ on that
	// listener (CPU, heap, goroutines: for measuring, off by default).
	Pprof bool `yaml:"pprof"`
}

// Console chat settings.
type Console struct {
	User string `yaml:"user"`
}

// Telegram is the telegram section: the adapter's own settings, whose
// keys and defaults are declared once, in telegram.Config and
// telegram.Defaults, plus one key kept for older files. The adapter runs
// when Token is set.
type Telegram struct {
	telegram.Config `yaml:",inline"`
	// FileCommands is ignored: which commands take a file is the
	// command's own (command.Command.TakesFile). Kept so that older
	// configuration files still load.
	FileCommands []string `yaml:"file_commands"`
}

// validate checks the Telegram keys' ranges (the adapter checks the
// token, URLs and the webhook secret).
func (t *Telegram) validate() error {
	for name, d := range map[string]time.Duration{
		"poll_timeout": t.PollTimeout, "request_timeout": t.RequestTimeout, "webhook_wait": t.WebhookWait,
		"save_interval": t.SaveInterval, "drain_timeout": t.DrainTimeout, "handled_retention": t.HandledRetention,
		"admin_ttl": t.AdminTTL, "backoff_min": t.BackoffMin, "backoff_max": t.BackoffMax,
		"limits.chat_interval": t.Limits.ChatInterval, "limits.group_window": t.Limits.GroupWindow, "limits.global_window": t.Limits.GlobalWindow,
	} {
		if d < 0 {
			return fmt.Errorf("config: telegram.%s must not be negative", name)
		}
	}
	for name, n := range map[string]int64{
		"webhook_max_connections": int64(t.WebhookMaxConnections), "max_queued": int64(t.MaxQueued), "max_message": int64(t.MaxMessage),
		"max_import_bytes": t.MaxImportBytes, "max_buttons": int64(t.MaxButtons),
		"limits.group_limit": int64(t.Limits.GroupLimit), "limits.global_limit": int64(t.Limits.GlobalLimit),
	} {
		if n < 0 {
			return fmt.Errorf("config: telegram.%s must not be negative", name)
		}
	}
	switch {
	case t.PollTimeout > 50*time.Second:
		return errors.New("config: telegram.poll_timeout is at most 50s (Telegram's long-poll limit)")
	case t.WebhookMaxConnections > 100:
		return errors.New("config: telegram.webhook_max_connections is 1 to 100")
	case t.MaxMessage > 4096:
		return errors.New("config: telegram.max_message is at most 4096 (Telegram's limit)")
	case t.DrainTimeout > 8*time.Second:
		// The stop is the drain, 1 s for a send in flight and 1 s for
		// the last journal write, inside the 10 s zaria takes to exit.
		return errors.New("config: telegram.drain_timeout is at most 8s (zaria exits within 10 s of SIGTERM)")
	case t.HandledRetention != 0 && t.HandledRetention < 24*time.Hour:
		return errors.New("config: telegram.handled_retention is at least 24h (Telegram redelivers an update for up to 24 h)")
	case t.BackoffMax != 0 && t.BackoffMin > t.BackoffMax:
		return errors.New("config: telegram.backoff_min must not exceed backoff_max")
	}
	return nil
}

// Default returns the configuration used when nothing is set.
func Default() Config {
	return Config{
		Lang:     core.DefaultLang,
		Timezone: "UTC",
		DB:       "data/zaria.db",
		Log:      Log{Level: "info", Format: "text"},
		Telegram: Telegram{Config: telegram.Defaults(), FileCommands: []string{"importar", "import"}},
		Matrix:   matrix.Defaults(),
		Web:      webDefaults(),
	}
}

// ErrInsecureFile is returned when a config file holding a secret can be
// read by other users.
var ErrInsecureFile = errors.New("config file holds a secret but is readable by others; chmod 600 it or move the secret to the environment")

// Load reads path (if it is not "" and exists, or if required) and applies
// the environment from getenv.
func Load(path string, required bool, getenv func(string) string) (Config, error) {
	cfg := Default()
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if err := decode(data, &cfg); err != nil {
				return Config{}, fmt.Errorf("config %s: %w", path, err)
			}
			if cfg.hasSecret() {
				if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
					return Config{}, fmt.Errorf("config %s: %w", path, ErrInsecureFile)
				}
			}
		case errors.Is(err, os.ErrNotExist) && !required:
		default:
			return Config{}, fmt.Errorf("config: %w", err)
		}
	}
	if err := cfg.applyEnv(getenv); err != nil {
		return Config{}, err
	}
	if err := cfg.validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func decode(data []byte, cfg *Config) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

func (c *Config) hasSecret() bool {
	return c.Telegram.Token != "" || c.Telegram.WebhookSecret != "" || c.Matrix.Password != "" ||
		c.Matrix.AccessToken != "" || c.Matrix.PickleKey != ""
}

func (c *Config) applyEnv(getenv func(string) string) error {
	str := map[string]*string{
		"ZARIA_LANG":                     &c.Lang,
		"ZARIA_TIMEZONE":                 &c.Timezone,
		"ZARIA_DB":                       &c.DB,
		"ZARIA_LOG_LEVEL":                &c.Log.Level,
		"ZARIA_LOG_FORMAT":               &c.Log.Format,
		"ZARIA_HTTP_LISTEN":              &c.HTTP.Listen,
		"ZARIA_TELEGRAM_TOKEN":           &c.Telegram.Token,
		"ZARIA_TELEGRAM_API":             &c.Telegram.APIURL,
		"ZARIA_TELEGRAM_WEBHOOK_LISTEN":  &c.Telegram.WebhookListen,
		"ZARIA_TELEGRAM_WEBHOOK_URL":     &c.Telegram.WebhookURL,
		"ZARIA_TELEGRAM_WEBHOOK_SECRET":  &c.Telegram.WebhookSecret,
		"ZARIA_MATRIX_HOMESERVER":        &c.Matrix.Homeserver,
		"ZARIA_MATRIX_USER":              &c.Matrix.User,
		"ZARIA_MATRIX_PASSWORD":          &c.Matrix.Password,
		"ZARIA_MATRIX_TOKEN":             &c.Matrix.AccessToken,
		"ZARIA_MATRIX_PICKLE_KEY":        &c.Matrix.PickleKey,
		"ZARIA_MATRIX_CRYPTO_DB":         &c.Matrix.CryptoDB,
		"ZARIA_MATRIX_REACTIONS":         &c.Matrix.Reactions,
		"ZARIA_MATRIX_RECOVERY_KEY_FILE": &c.Matrix.RecoveryKeyFile,
	}
	for k, p := range c.webEnv() {
		str[k] = p
	}
	for k, p := range str {
		if v := getenv(k); v != "" {
			*p = v
		}
	}
	lists := map[string]*[]string{
		"ZARIA_MATRIX_ALLOWED_SERVERS":   &c.Matrix.AllowedServers,
		"ZARIA_MATRIX_ALLOWED_USERS":     &c.Matrix.AllowedUsers,
		"ZARIA_WEB_FRAME_ANCESTORS":      &c.Web.FrameAncestors,
		"ZARIA_WEB_MATRIX_LOCAL_SERVERS": &c.Web.MatrixLocalServers,
	}
	for k, p := range lists {
		if v := getenv(k); v != "" {
			*p = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
		}
	}
	if v := getenv("ZARIA_TELEGRAM_POLL_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("ZARIA_TELEGRAM_POLL_TIMEOUT: %w", err)
		}
		c.Telegram.PollTimeout = d
	}
	for k, p := range map[string]*bool{"ZARIA_HTTP_PPROF": &c.HTTP.Pprof, "ZARIA_MATRIX_RERUN_EDITS": &c.Matrix.RerunEdits, "ZARIA_MATRIX_NO_REACTION_BUTTONS": &c.Matrix.NoReactionButtons} {
		if v := getenv(k); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			*p = b
		}
	}
	return nil
}

func (c *Config) validate() error {
	if !core.IsLang(c.Lang) {
		return fmt.Errorf("config: lang must be %s, not %q", oneOf(core.Langs()), c.Lang)
	}
	if _, err := time.LoadLocation(c.Timezone); err != nil || c.Timezone == "" || strings.EqualFold(c.Timezone, "local") {
		return fmt.Errorf("config: timezone must be an IANA time zone such as Europe/Madrid or UTC, not %q", c.Timezone)
	}
	if c.DocsURL != "" && !strings.HasPrefix(c.DocsURL, "https://") && !strings.HasPrefix(c.DocsURL, "http://") {
		return fmt.Errorf("config: docs_url must be a web address (https://…), not %q", c.DocsURL)
	}
	if formats := []string{"text", "json"}; !slices.Contains(formats, c.Log.Format) {
		return fmt.Errorf("config: log.format must be %s, not %q", oneOf(formats), c.Log.Format)
	}
	if levels := []string{"debug", "info", "warn", "error"}; !slices.Contains(levels, c.Log.Level) {
		return fmt.Errorf("config: log.level must be %s, not %q", oneOf(levels), c.Log.Level)
	}
	if c.DB == "" {
		return errors.New("config: db must not be empty")
	}
	if err := c.Telegram.validate(); err != nil {
		return err
	}
	if err := c.Web.Validate(); err != nil {
		return err
	}
	if c.Matrix.Homeserver != "" {
		if c.Matrix.User == "" {
			return errors.New("config: matrix.user is required with matrix.homeserver")
		}
		if c.Matrix.Password == "" && c.Matrix.AccessToken == "" {
			return errors.New("config: matrix needs a password or an access token (ZARIA_MATRIX_PASSWORD or ZARIA_MATRIX_TOKEN)")
		}
	}
	switch c.Matrix.Reactions {
	case "", "auto", "on", "off":
	default:
		return fmt.Errorf("config: matrix.reactions must be auto, on or off, not %q", c.Matrix.Reactions)
	}
	return nil
}

// oneOf lists choices for an operator's message: "es, el or en".
func oneOf(choices []string) string {
	if len(choices) < 2 {
		return strings.Join(choices, "")
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// Platforms reports which chat platforms are configured.
func (c *Config) Platforms() (telegram, matrix bool) {
	return c.Telegram.Token != "", c.Matrix.Homeserver != ""
}
