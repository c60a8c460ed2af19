package main

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"zaria/adapters/telegram"
	"zaria/configs"
)

// TestTelegramDefaultsOneHome: the config file's telegram defaults, as
// main wires them, are the adapter's own (telegram.Defaults), field by
// field: a default changed or added in one place only is caught.
func TestTelegramDefaultsOneHome(t *testing.T) {
	wired := reflect.ValueOf(telegramConfig(configs.Default().Telegram))
	own := reflect.ValueOf(telegram.Defaults())
	for i := 0; i < own.NumField(); i++ {
		f := own.Type().Field(i)
		if !f.IsExported() || f.Name == "Charts" { // main's renderer, not a default
			continue
		}
		if w, o := wired.Field(i).Interface(), own.Field(i).Interface(); !reflect.DeepEqual(w, o) {
			t.Errorf("telegram %s: the config file's default is %v, the adapter's %v", f.Name, w, o)
		}
	}
	if d := telegram.Defaults(); d.APIURL != telegram.DefaultAPIURL || d.PollTimeout <= 0 || d.MaxImportBytes <= 0 {
		t.Errorf("telegram.Defaults() = %+v", d)
	}
}

// TestMatrixConfigFromFile: the config file's matrix keys reach the
// adapter as they are (the section is matrix.Config), the environment's
// token included, and the crypto store defaults to sit next to db.
func TestMatrixConfigFromFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "zaria.yaml")
	body := "db: data/x.db\nmatrix:\n  homeserver: http://hs\n  user: \"@z:hs\"\n  allowed_users: [\"@ana:hs\"]\n  rerun_edits: true\n  reactions: \"on\"\n  no_reaction_buttons: true\n  recovery_key_file: rk\n"
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := configs.Load(p, true, func(k string) string {
		return map[string]string{"ZARIA_MATRIX_TOKEN": "tok", "ZARIA_MATRIX_PICKLE_KEY": "pk"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	mc := matrixConfig(cfg, io.Discard)
	if mc.Homeserver != "http://hs" || mc.User != "@z:hs" || mc.AccessToken != "tok" || mc.PickleKey != "pk" ||
		len(mc.AllowedUsers) != 1 || !mc.RerunEdits || mc.Reactions != "on" || !mc.NoReactionButtons ||
		mc.RecoveryKeyFile != "rk" || mc.CryptoDB != "data/x.matrix.db" || mc.Charts == nil || mc.Announce != io.Discard {
		t.Errorf("matrix config %+v", mc)
	}
	cfg.Matrix.CryptoDB = "elsewhere.db"
	if mc := matrixConfig(cfg, io.Discard); mc.CryptoDB != "elsewhere.db" {
		t.Errorf("crypto_db %q", mc.CryptoDB)
	}
}
