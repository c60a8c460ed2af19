package configs

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestTelegramKeysDocumented: every key of the telegram section (and of
// its limits) is in the example, and the example's values are the
// defaults.
func TestTelegramKeysDocumented(t *testing.T) {
	data, err := os.ReadFile("zaria.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	keys := yamlKeys(reflect.TypeOf(Telegram{}))
	if len(keys) < 26 {
		t.Fatalf("telegram keys %v: fewer than the 26 known", keys)
	}
	for _, key := range keys {
		if !strings.Contains(text, "\n  "+key+":") && !strings.Contains(text, "\n    "+key+":") {
			t.Errorf("the example does not document telegram key %s", key)
		}
	}
	cfg, err := Load("zaria.example.yaml", true, env())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Telegram, Default().Telegram) {
		t.Errorf("the example's telegram values are not the defaults:\n%+v\n%+v", cfg.Telegram, Default().Telegram)
	}
}

// TestMatrixKeysDocumented: the same for the matrix section, whose keys
// are matrix.Config's.
func TestMatrixKeysDocumented(t *testing.T) {
	data, err := os.ReadFile("zaria.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "\nmatrix:\n")
	keys := yamlKeys(reflect.TypeOf(Default().Matrix))
	if len(keys) != 12 {
		t.Errorf("matrix keys %v: want the 12 of the example", keys)
	}
	for _, key := range keys {
		if !strings.Contains(section, "\n  "+key+":") {
			t.Errorf("the example does not document matrix key %s", key)
		}
	}
	cfg, err := Load("zaria.example.yaml", true, env())
	if err != nil {
		t.Fatal(err)
	}
	// The example writes the lists as [] (empty), the defaults leave them nil.
	got, want := cfg.Matrix, Default().Matrix
	for _, l := range []*[]string{&got.AllowedServers, &got.AllowedUsers, &want.AllowedServers, &want.AllowedUsers} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the example's matrix values are not the defaults:\n%+v\n%+v", got, want)
	}
}

// yamlKeys lists the yaml keys of a struct type, through inlined and
// nested structs ("limits" and its keys both).
func yamlKeys(typ reflect.Type) []string {
	var keys []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if opts == "inline" {
			keys = append(keys, yamlKeys(f.Type)...)
			continue
		}
		keys = append(keys, name)
		if f.Type.Kind() == reflect.Struct && f.Type.PkgPath() != "time" {
			keys = append(keys, yamlKeys(f.Type)...)
		}
	}
	return keys
}

// TestTelegramRanges: values the adapter cannot honour are refused with
// the key's name.
func TestTelegramRanges(t *testing.T) {
	for _, c := range []struct {
		yaml, want string
	}{
		{"drain_timeout: 9s", "drain_timeout"},
		{"webhook_max_connections: 101", "webhook_max_connections"},
		{"max_message: 5000", "max_message"},
		{"handled_retention: 1h", "handled_retention"},
		{"poll_timeout: 2m", "poll_timeout"},
		{"max_queued: -1", "max_queued"},
		{"limits:\n    chat_interval: -1s", "limits.chat_interval"},
	} {
		p := write(t, "telegram:\n  "+c.yaml+"\n", 0o600)
		if _, err := Load(p, true, env()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v", c.yaml, err)
		}
	}
	p := write(t, "telegram:\n  drain_timeout: 5s\n  limits:\n    global_limit: 100\n", 0o600)
	cfg, err := Load(p, true, env())
	if err != nil || cfg.Telegram.DrainTimeout != 5*time.Second || cfg.Telegram.Limits.GlobalLimit != 100 || cfg.Telegram.Limits.GroupLimit != 20 {
		t.Errorf("got %+v, %v", cfg.Telegram, err)
	}
}
