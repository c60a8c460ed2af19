package main

import (
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
