// Package web is the phone companion: a Telegram Mini App (and, for
// Matrix, a page opened from a one-time link) that shows a chat's
// character sheets and a dice tray. It is an adapter like the chat ones:
// every request becomes a core.Message run through the router as the
// user who made it, in the chat the platform vouches for, so the chat's
// rules (owner or GM, rate limit, input limits, work budget) are the
// core's, never a second copy here. A roll made on the page is posted in
// the chat by the chat's own adapter (Poster), so the chat stays the
// record and the page shows that same result.
//
// Pages are server-rendered with html/template from embedded files; one
// small hand-written script (assets/app.js) carries the identity on every
// call and swaps the screens. See README.md.
package web

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// Config is the web section of the configuration file (web:). Every key
// is documented in configs/zaria.example.yaml; zero values take Defaults.
type Config struct {
	// Listen is the companion's own listener, plain HTTP for a TLS reverse
	// proxy in front: loopback by default. "" with URL set takes the
	// default; the companion runs only when URL is set.
	Listen string `yaml:"listen"`
	// URL is the public base URL the reverse proxy serves the companion
	// at, ending in /app/ ("https://bot.example.org/app/"): the Mini App's
	// URL given to BotFather and the base of one-time links.
	URL string `yaml:"url"`
	// TelegramJS is where pages load Telegram's script from (a test serves
	// a stand-in).
	TelegramJS string `yaml:"telegram_js"`
	// TelegramApp is the Mini App's short name given to BotFather's
	// /newapp: links are https://t.me/<bot>/<telegram_app>?startapp=<token>.
	TelegramApp string `yaml:"telegram_app"`
	// MaxAge refuses Telegram initData signed longer ago than this.
	MaxAge time.Duration `yaml:"max_age"`
	// MemberTTL is how long a getChatMember answer is trusted.
	MemberTTL time.Duration `yaml:"member_ttl"`
	// LinkTTL is how long a one-time link (Matrix) may be opened.
	LinkTTL time.Duration `yaml:"link_ttl"`
	// SessionTTL is the longest a page's session lasts from its opening
	// (Telegram's initData, a one-time link or the widget's OpenID token
	// traded for a session): renewals never reach past it.
	SessionTTL time.Duration `yaml:"session_ttl"`
	// SessionRenew is how long one session token works: the page renews
	// it while it is open, so a page left unused longer (and a user who
	// left the chat) must be opened again from the chat.
	SessionRenew time.Duration `yaml:"session_renew"`
	// FrameAncestors are the origins besides Telegram's web clients that
	// may frame the pages (Element Web's origin for the room widget).
	FrameAncestors []string `yaml:"frame_ancestors"`
	// MaxBody is the largest request body accepted, in bytes.
	MaxBody int64 `yaml:"max_body"`
	// MatrixOpenIDURL, when set, is where the room widget's OpenID tokens
	// are checked (…/_matrix/federation/v1/openid/userinfo) instead of
	// https://<the token's server name>: for a homeserver without
	// federation (Synapse's "openid" listener resource).
	MatrixOpenIDURL string `yaml:"matrix_openid_url"`
	// MatrixLocalServers are server names whose homeservers may be
	// reached at loopback or private addresses (or be IP literals): a
	// homeserver on the operator's own network. Any other name a widget
	// claims must lead to public addresses.
	MatrixLocalServers []string `yaml:"matrix_local_servers"`
}

// Defaults are the values of the keys left out.
func Defaults() Config {
	return Config{
		Listen:       "127.0.0.1:8445",
		TelegramJS:   "https://telegram.org/js/telegram-web-app.js",
		TelegramApp:  "app",
		MaxAge:       time.Hour,
		MemberTTL:    time.Minute,
		LinkTTL:      10 * time.Minute,
		SessionTTL:   12 * time.Hour,
		SessionRenew: 30 * time.Minute,
		MaxBody:      4 << 10,
	}
}

// WithDefaults fills the zero fields from Defaults.
func (c Config) WithDefaults() Config {
	d := Defaults()
	if c.Listen == "" {
		c.Listen = d.Listen
	}
	if c.TelegramJS == "" {
		c.TelegramJS = d.TelegramJS
	}
	if c.TelegramApp == "" {
		c.TelegramApp = d.TelegramApp
	}
	if c.MaxAge == 0 {
		c.MaxAge = d.MaxAge
	}
	if c.MemberTTL == 0 {
		c.MemberTTL = d.MemberTTL
	}
	if c.LinkTTL == 0 {
		c.LinkTTL = d.LinkTTL
	}
	if c.SessionTTL == 0 {
		c.SessionTTL = d.SessionTTL
	}
	if c.SessionRenew == 0 {
		c.SessionRenew = d.SessionRenew
	}
	if c.MaxBody == 0 {
		c.MaxBody = d.MaxBody
	}
	return c
}

// Enabled reports whether the companion runs: it needs its public URL.
func (c Config) Enabled() bool { return c.URL != "" }

// Validate checks the keys an operator may get wrong.
func (c Config) Validate() error {
	if !c.Enabled() {
		return nil
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("config: web.url must be an http(s) URL, not %q", c.URL)
	}
	if !strings.HasSuffix(u.Path, "/app/") {
		return errors.New("config: web.url must end in /app/ (the reverse proxy's location)")
	}
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("config: web.listen: %w", err)
	}
	if js, err := url.Parse(c.TelegramJS); err != nil || js.Host == "" || (js.Scheme != "https" && js.Scheme != "http") {
		return fmt.Errorf("config: web.telegram_js must be an http(s) URL, not %q", c.TelegramJS)
	}
	if c.MatrixOpenIDURL != "" {
		if u, err := url.Parse(c.MatrixOpenIDURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: web.matrix_openid_url must be an http(s) URL, not %q", c.MatrixOpenIDURL)
		}
	}
	for _, n := range c.MatrixLocalServers {
		if !serverNameRE.MatchString(n) && !ipv6NameRE.MatchString(n) {
			return fmt.Errorf("config: web.matrix_local_servers: %q is not a server name (host or host:port)", n)
		}
	}
	for _, o := range c.FrameAncestors {
		u, err := url.Parse(o)
		loopback := err == nil && u.Scheme == "http" && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost")
		if err != nil || (u.Scheme != "https" && !loopback) || u.Host == "" || u.Path != "" {
			return fmt.Errorf("config: web.frame_ancestors: %q is not an https origin", o)
		}
	}
	switch {
	case c.MaxAge < 0 || c.MaxAge > 24*time.Hour:
		return errors.New("config: web.max_age is 0 to 24h")
	case c.MemberTTL < 0 || c.MemberTTL > 10*time.Minute:
		return errors.New("config: web.member_ttl is 0 to 10m")
	case c.LinkTTL < 0 || c.LinkTTL > time.Hour:
		return errors.New("config: web.link_ttl is 0 to 1h")
	case c.SessionTTL < time.Minute || c.SessionTTL > 24*time.Hour:
		return errors.New("config: web.session_ttl is 1m to 24h")
	case c.SessionRenew < time.Minute || c.SessionRenew > time.Hour || c.SessionRenew > c.SessionTTL:
		return errors.New("config: web.session_renew is 1m to 1h, and at most web.session_ttl")
	case c.MaxBody < 0 || c.MaxBody > 1<<20:
		return errors.New("config: web.max_body is at most 1 MiB")
	}
	return nil
}
