package configs

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestWebSection(t *testing.T) {
	data, _ := os.ReadFile("zaria.example.yaml")
	for _, key := range []string{"web:", "url:", "telegram_app:", "telegram_js:", "max_age:", "member_ttl:",
		"link_ttl:", "session_ttl:", "session_renew:", "frame_ancestors:", "max_body:"} {
		if !strings.Contains(string(data), key) {
			t.Errorf("example does not document %s", key)
		}
	}
	cfg, err := Load("zaria.example.yaml", true, env())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Web.Enabled() || cfg.Web.Listen != "127.0.0.1:8445" || cfg.Web.MaxAge != time.Hour {
		t.Errorf("example's web section: %+v", cfg.Web)
	}
	ok, err := Load(write(t, "web:\n  url: https://bot.example.org/app/\n  frame_ancestors: [https://app.element.io]\n", 0o600), true, env())
	if err != nil || !ok.Web.Enabled() || ok.Web.MemberTTL != time.Minute {
		t.Errorf("a web url: %v, %+v", err, ok.Web)
	}
	for _, bad := range []string{
		"web:\n  url: ftp://x/app/\n",
		"web:\n  url: https://bot.example.org/\n",
		"web:\n  url: https://bot.example.org/app/\n  max_age: 48h\n",
		"web:\n  url: https://bot.example.org/app/\n  frame_ancestors: [app.element.io]\n",
		"web:\n  url: https://bot.example.org/app/\n  listen: nowhere\n",
	} {
		if _, err := Load(write(t, bad, 0o600), true, env()); err == nil || !strings.Contains(err.Error(), "web.") {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
	if cfg, err := Load("", false, func(k string) string {
		return map[string]string{"ZARIA_WEB_URL": "https://b.example/app/"}[k]
	}); err != nil || cfg.Web.URL != "https://b.example/app/" {
		t.Errorf("ZARIA_WEB_URL: %v %+v", err, cfg.Web)
	}
}
