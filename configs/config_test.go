package configs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func write(t *testing.T, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "zaria.yaml")
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExampleIsValidAndComplete(t *testing.T) {
	cfg, err := Load("zaria.example.yaml", true, env())
	if err != nil {
		t.Fatalf("the example config does not load: %v", err)
	}
	if cfg.Lang != "en" || cfg.DB != "data/zaria.db" || cfg.Telegram.PollTimeout != 30*time.Second {
		t.Errorf("example gives %+v", cfg)
	}
	// The shipped default suits an international bot (issue 12): English
	// for clients that are not es/el/en, the same with or without the file.
	if d := Default(); d.Lang != "en" {
		t.Errorf("Default().Lang = %q, want en", d.Lang)
	}
	// Every yaml key of Config appears in the example.
	data, _ := os.ReadFile("zaria.example.yaml")
	for _, key := range []string{"lang:", "db:", "level:", "format:", "listen:", "pprof:", "user:", "token:", "api:", "poll_timeout:",
		"webhook_listen:", "webhook_url:", "webhook_secret:", "homeserver:", "password:", "pickle_key:",
		"crypto_db:", "allowed_servers:", "allowed_users:", "rerun_edits:", "no_reaction_buttons:"} {
		if !strings.Contains(string(data), key) {
			t.Errorf("example does not document %s", key)
		}
	}
}

func TestUnknownKeyFails(t *testing.T) {
	p := write(t, "lang: es\ntelegram:\n  tokn: x\n", 0o600)
	if _, err := Load(p, true, env()); err == nil || !strings.Contains(err.Error(), "tokn") {
		t.Errorf("unknown key: %v", err)
	}
}

func TestEnvironmentOverrides(t *testing.T) {
	p := write(t, "lang: en\ndb: a.db\n", 0o644)
	cfg, err := Load(p, true, env("ZARIA_DB", "b.db", "ZARIA_TELEGRAM_TOKEN", "123:abc", "ZARIA_MATRIX_ALLOWED_SERVERS", "a.org, b.org"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Lang != "en" || cfg.DB != "b.db" || cfg.Telegram.Token != "123:abc" || len(cfg.Matrix.AllowedServers) != 2 {
		t.Errorf("got %+v", cfg)
	}
	if tg, mx := cfg.Platforms(); !tg || mx {
		t.Errorf("platforms %v %v", tg, mx)
	}
	if cfg.HTTP.Pprof {
		t.Error("pprof on by default")
	}
	cfg, err = Load(p, true, env("ZARIA_HTTP_PPROF", "true"))
	if err != nil || !cfg.HTTP.Pprof {
		t.Errorf("ZARIA_HTTP_PPROF=true: pprof %v, %v", cfg.HTTP.Pprof, err)
	}
}

func TestSecretInReadableFileRefused(t *testing.T) {
	p := write(t, "telegram:\n  token: \"123:SECRET\"\n", 0o644)
	_, err := Load(p, true, env())
	if !errors.Is(err, ErrInsecureFile) {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), "SECRET") {
		t.Errorf("error leaks the secret: %v", err)
	}
	p = write(t, "telegram:\n  token: \"123:SECRET\"\n", 0o600)
	if _, err := Load(p, true, env()); err != nil {
		t.Errorf("0600 file refused: %v", err)
	}
}

func TestValidation(t *testing.T) {
	for _, body := range []string{"lang: fr\n", "log:\n  format: xml\n", "matrix:\n  homeserver: http://x\n", "matrix:\n  homeserver: http://x\n  user: \"@a:x\"\n", "docs_url: docs/\n"} {
		if _, err := Load(write(t, body, 0o600), true, env()); err == nil {
			t.Errorf("%q accepted", body)
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml"), false, env()); err != nil {
		t.Errorf("optional missing file: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml"), true, env()); err == nil {
		t.Error("required missing file accepted")
	}
}

func TestMatrixReactionsAndRecoveryKey(t *testing.T) {
	data, _ := os.ReadFile("zaria.example.yaml")
	for _, key := range []string{"reactions:", "recovery_key_file:"} {
		if !strings.Contains(string(data), key) {
			t.Errorf("example does not document %s", key)
		}
	}
	for _, v := range []string{"auto", "on", "off"} {
		cfg, err := Load(write(t, "matrix:\n  reactions: "+v+"\n", 0o600), true, env())
		if err != nil || cfg.Matrix.Reactions != v {
			t.Errorf("reactions %s: %v, %q", v, err, cfg.Matrix.Reactions)
		}
	}
	if _, err := Load(write(t, "matrix:\n  reactions: sometimes\n", 0o600), true, env()); err == nil || !strings.Contains(err.Error(), "auto, on or off") {
		t.Errorf("reactions: sometimes accepted: %v", err)
	}
}
