// Package telegram connects the command router to Telegram through the Bot
// API: its own long-polling loop (or a webhook server), a journal of handled
// updates and pending replies kept in the state store, and a send queue per
// chat that honours Telegram's flood limits and never drops a reply.
//
// It uses github.com/go-telegram-bot-api/telegram-bot-api/v5 for the Bot
// API's types and does its own HTTP calls, so that every call has a context,
// a timeout, retry_after handling and errors that never contain the token.
package telegram

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"zaria/core"
	"zaria/core/reply"
)

// Config is the adapter's configuration, and the telegram section of the
// config file: each field's yaml key is its key there (configs embeds
// Config), and Defaults is the one home of the defaults the example
// config lists. Zero values take the defaults listed on each field (the
// Telegram numbers from the Bots FAQ).
type Config struct {
	Token  string `yaml:"token"` // bot token from BotFather (secret)
	APIURL string `yaml:"api"`   // Bot API base URL; default https://api.telegram.org

	PollTimeout    time.Duration `yaml:"poll_timeout"`    // long-poll timeout of getUpdates; default 30 s
	RequestTimeout time.Duration `yaml:"request_timeout"` // every other call; default 20 s

	// Webhook mode, when WebhookURL is set: the adapter serves WebhookListen
	// (default 127.0.0.1:8443: plain HTTP belongs behind a TLS reverse
	// proxy on loopback) and registers WebhookURL with Telegram.
	// WebhookSecret (required: 1–256 of A-Z a-z 0-9 _ -) is sent by
	// Telegram in X-Telegram-Bot-Api-Secret-Token and checked.
	// WebhookMaxConnections is setWebhook's max_connections (default 10):
	// how many deliveries Telegram makes at once. WebhookWait is how long a
	// delivery waits for room when the send queue is full (MaxQueued)
	// before it is answered 503 (default 5 s): Telegram delivers again
	// later, so nothing is accepted that the bot cannot keep.
	WebhookListen         string        `yaml:"webhook_listen"`
	WebhookURL            string        `yaml:"webhook_url"`
	WebhookSecret         string        `yaml:"webhook_secret"`
	WebhookMaxConnections int           `yaml:"webhook_max_connections"`
	WebhookWait           time.Duration `yaml:"webhook_wait"`

	// Limits are the send limits (the limits: subsection); its fields are
	// read as cfg.ChatInterval and so on.
	Limits `yaml:"limits"`

	// MaxQueued pauses polling while this many replies wait to be sent
	// (default 300, 10 s at the global limit; at most 20 counted per
	// chat, so one flooded chat cannot stall the others): updates then wait
	// at Telegram instead of in memory and in the journal. In webhook
	// mode a delivery then waits WebhookWait for room and is answered 503.
	MaxQueued int `yaml:"max_queued"`

	// SaveInterval is the shortest time between two journal writes that
	// mark replies delivered (default 50 ms): a chat's next reply waits for
	// that write, so it costs a chat at most this much per message.
	SaveInterval time.Duration `yaml:"save_interval"`

	AdminTTL     time.Duration `yaml:"admin_ttl"`     // how long a chat's administrators are cached; default 10 min
	DrainTimeout time.Duration `yaml:"drain_timeout"` // how long Run keeps sending after ctx ends; default 8 s (main allows 10 s to stop)
	MaxMessage   int           `yaml:"max_message"`   // longest message text, in UTF-16 units; default 4096

	MaxImportBytes int64  `yaml:"max_import_bytes"` // largest document accepted for a command that takes a file; default core.MaxDocumentBytes (256 KiB)
	InlineCommand  string `yaml:"inline_command"`   // command run for an inline query that names none; default "roll"

	// HandledRetention is how long the journal keeps the record of a
	// handled update, which answers a redelivery of it: default 48 h,
	// twice the 24 h Telegram keeps an update.
	HandledRetention time.Duration `yaml:"handled_retention"`
	MaxButtons       int           `yaml:"max_buttons"` // button records (and inline roll marks) kept, the newest; default 100,000
	BackoffMin       time.Duration `yaml:"backoff_min"` // first wait after a failed call; default 500 ms
	BackoffMax       time.Duration `yaml:"backoff_max"` // longest wait; default 30 s

	// Charts draws a reply's chart (the distribution of /odds and of the
	// 📊 button) as a PNG, sent with sendPhoto; nil sends the text form.
	Charts ChartRenderer `yaml:"-"`

	// HTTPClient, if set, is used for every call (tests). Its timeout should
	// exceed PollTimeout.
	HTTPClient *http.Client `yaml:"-"`

	// insecureWebhook accepts webhook mode without a secret: only for the
	// emulator, whose deliveries carry none.
	insecureWebhook bool
}

// Limits are the send limits. Per chat: one message per ChatInterval.
// Groups (chat id < 0): at most GroupLimit per GroupWindow. All chats: at
// most GlobalLimit per GlobalWindow.
type Limits struct {
	ChatInterval time.Duration `yaml:"chat_interval"` // default 1 s
	GroupLimit   int           `yaml:"group_limit"`   // default 20
	GroupWindow  time.Duration `yaml:"group_window"`  // default 1 min
	GlobalLimit  int           `yaml:"global_limit"`  // default 30
	GlobalWindow time.Duration `yaml:"global_window"` // default 1 s
}

// ChartRenderer draws a chart as a PNG picture (adapters/chart). lang is
// the chat's language; the chart's labels are already in it.
type ChartRenderer interface {
	PNG(ctx context.Context, c *reply.Chart, lang string) ([]byte, error)
}

// ChartFunc is a function as a ChartRenderer.
type ChartFunc func(ctx context.Context, c *reply.Chart, lang string) ([]byte, error)

// PNG calls f.
func (f ChartFunc) PNG(ctx context.Context, c *reply.Chart, lang string) ([]byte, error) {
	return f(ctx, c, lang)
}

// DefaultWebhookListen is where the webhook server listens unless told.
const DefaultWebhookListen = "127.0.0.1:8443"

var webhookSecretRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

// DefaultAPIURL is Telegram's own Bot API server.
const DefaultAPIURL = "https://api.telegram.org"

// Defaults is the value every field left zero takes: the one home of the
// adapter's defaults, which the config loader (configs) starts from and
// the example config lists. WebhookListen's (DefaultWebhookListen) applies
// only in webhook mode.
func Defaults() Config {
	return Config{
		APIURL:                DefaultAPIURL,
		PollTimeout:           30 * time.Second,
		RequestTimeout:        20 * time.Second,
		WebhookMaxConnections: 10,
		WebhookWait:           5 * time.Second,
		Limits: Limits{
			ChatInterval: time.Second,
			GroupLimit:   20,
			GroupWindow:  time.Minute,
			GlobalLimit:  30,
			GlobalWindow: time.Second,
		},
		MaxQueued:        300,
		SaveInterval:     50 * time.Millisecond,
		AdminTTL:         10 * time.Minute,
		DrainTimeout:     8 * time.Second,
		MaxMessage:       4096,
		MaxImportBytes:   core.MaxDocumentBytes,
		InlineCommand:    "roll",
		HandledRetention: 48 * time.Hour,
		MaxButtons:       100_000,
		BackoffMin:       500 * time.Millisecond,
		BackoffMax:       30 * time.Second,
	}
}

func (c Config) withDefaults() Config {
	d := Defaults()
	set := func(p *time.Duration, v time.Duration) {
		if *p <= 0 {
			*p = v
		}
	}
	setInt := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	if c.APIURL == "" {
		c.APIURL = d.APIURL
	}
	c.APIURL = strings.TrimRight(c.APIURL, "/")
	set(&c.PollTimeout, d.PollTimeout)
	set(&c.RequestTimeout, d.RequestTimeout)
	set(&c.ChatInterval, d.ChatInterval)
	setInt(&c.GroupLimit, d.GroupLimit)
	set(&c.GroupWindow, d.GroupWindow)
	setInt(&c.GlobalLimit, d.GlobalLimit)
	set(&c.GlobalWindow, d.GlobalWindow)
	setInt(&c.MaxQueued, d.MaxQueued)
	set(&c.SaveInterval, d.SaveInterval)
	set(&c.AdminTTL, d.AdminTTL)
	set(&c.DrainTimeout, d.DrainTimeout)
	setInt(&c.MaxMessage, d.MaxMessage)
	if c.MaxImportBytes <= 0 {
		c.MaxImportBytes = d.MaxImportBytes
	}
	if c.InlineCommand == "" {
		c.InlineCommand = d.InlineCommand
	}
	set(&c.HandledRetention, d.HandledRetention)
	setInt(&c.MaxButtons, d.MaxButtons)
	if c.WebhookURL != "" && c.WebhookListen == "" {
		c.WebhookListen = DefaultWebhookListen
	}
	setInt(&c.WebhookMaxConnections, d.WebhookMaxConnections)
	set(&c.WebhookWait, d.WebhookWait)
	set(&c.BackoffMin, d.BackoffMin)
	set(&c.BackoffMax, d.BackoffMax)
	return c
}

func (c Config) validate() error {
	if c.Token == "" {
		return errors.New("telegram: no bot token")
	}
	if strings.ContainsAny(c.Token, "/?# \n") {
		return errors.New("telegram: the bot token has characters a token cannot have")
	}
	u, err := url.Parse(c.APIURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("telegram: the API URL must be http(s)://host[:port]")
	}
	if c.MaxMessage > 4096 {
		// sendMessage: "Text of the message to be sent, 1-4096 characters
		// after entities parsing"; longer parts would all be refused.
		return errors.New("telegram: max_message is at most 4096, Telegram's longest message")
	}
	if c.WebhookURL != "" {
		w, err := url.Parse(c.WebhookURL)
		if err != nil || w.Scheme != "https" && w.Scheme != "http" || w.Host == "" {
			return errors.New("telegram: bad webhook URL")
		}
		if c.WebhookListen == "" {
			return errors.New("telegram: webhook mode needs a listen address")
		}
		if !c.insecureWebhook && !webhookSecretRE.MatchString(c.WebhookSecret) {
			return errors.New("telegram: webhook mode needs webhook_secret (ZARIA_TELEGRAM_WEBHOOK_SECRET): 1 to 256 characters of A-Z, a-z, 0-9, _ and -; without it anyone who finds the URL can post updates")
		}
		if c.WebhookMaxConnections > 100 {
			return errors.New("telegram: webhook max_connections is 1 to 100")
		}
	}
	return nil
}

// ParseLimits reads send limits written as "chat=1s,group=20/1m,global=30/1s"
// (any subset) into c. It exists for load tests against a fake Bot API with
// scaled limits (ZARIA_TELEGRAM_LIMITS); against Telegram keep the defaults.
func (c *Config) ParseLimits(s string) error {
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return errors.New("telegram: limits are written chat=1s,group=20/1m,global=30/1s")
		}
		if k == "chat" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return errors.New("telegram: bad chat limit (a duration such as 1s)")
			}
			c.ChatInterval = d
			continue
		}
		n, per, ok := strings.Cut(v, "/")
		count, err := strconv.Atoi(n)
		d, derr := time.ParseDuration(per)
		if !ok || err != nil || derr != nil || count <= 0 || d <= 0 {
			return errors.New("telegram: bad " + k + " limit (N/duration such as 30/1s)")
		}
		switch k {
		case "group":
			c.GroupLimit, c.GroupWindow = count, d
		case "global":
			c.GlobalLimit, c.GlobalWindow = count, d
		default:
			return errors.New("telegram: unknown limit " + strconv.Quote(k) + " (chat, group, global)")
		}
	}
	return nil
}
