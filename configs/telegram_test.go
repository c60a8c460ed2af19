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
	for _, typ := range []reflect.Type{reflect.TypeOf(Telegram{}), reflect.TypeOf(TelegramLimits{})} {
		for i := 0; i < typ.NumField(); i++ {
			key := typ.Field(i).Tag.Get("yaml")
			if !strings.Contains(text, "\n  "+key+":") && !strings.Contains(text, "\n    "+key+":") {
				t.Errorf("the example does not document telegram key %s", key)
			}
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
