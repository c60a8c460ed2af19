package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/netutil"
	"golang.org/x/time/rate"

	"zaria/core"
	"zaria/core/reply"
)

// Port is what the companion asks of the core: the subset of core.Port it
// uses. *command.Router implements it.
type Port interface {
	Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool)
	Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool)
	Lang(ctx context.Context, chat core.ChatRef, hint string) string
	Text(lang, key string, kv ...any) string
}

// Character is a sheet as the companion shows it.
type Character struct {
	Name      string
	Owner     string // the owner's user id
	OwnerName string
	System    string
	Active    bool    // its owner's active character
	Values    []Value // without its hit points and conditions
	HP        *HP     // nil: no hit points on the sheet
	// Conditions are the sheet's conditions (its "estado" value, read).
	Conditions []Condition
	// Marks are its development marks (core/sheet marks.go): the value
	// marked and its points; the GM clears them.
	Marks []Value
}

// Value is one named value of a sheet.
type Value struct{ Name, Text string }

// Sheets reads a chat's characters (writes go through Port.Dispatch).
type Sheets interface {
	Characters(ctx context.Context, chat core.ChatRef) ([]Character, error)
	// IsGM reports whether user is a named GM of chat (/gm add), to offer
	// everyone's sheets for editing; the core decides each edit.
	IsGM(ctx context.Context, chat core.ChatRef, user string) (bool, error)
}

// Shortcut is one of a player's ready rolls: a button of their pad (or the
// chat's pad), pressed as the chat's pad button is, or a saved roll, run
// as typing its name.
type Shortcut struct {
	Label  string
	Button int64  // a pad button's id, or 0
	Alias  string // a saved roll's name, or ""
}

// Pads lists user's ready rolls in chat: their pad and the chat's, their
// saved rolls and the chat's.
type Pads interface {
	Shortcuts(ctx context.Context, chat core.ChatRef, user string) ([]Shortcut, error)
}

// Choice is a named value of a field (a difficulty, a weapon, an
// armour): Value is what the command gets, in the chat's language
// ("θώρακας"); Group, when set, is the label of the group it belongs to
// in a long list ("ligeras"), choices of one group contiguous.
type Choice struct{ Label, Value, Group string }

// Form is one check a system declares, as the dice screen offers it
// (core/systems.Forms): the page names no system, it writes "/" +
// Command and each field's word in order.
type Form struct {
	Key     string // what the page sends back ("system.check")
	Command string // the chat command, without its slash
	Title   string
	Fields  []Field
}

// Field is one input of a form. Kind: number (Choices' named values, or
// a number in Min..Max), flag (Word when ticked), terms (Parts joined
// with "+", each a number in its range or a sheet value's name), word
// (one of Choices' values).
type Field struct {
	Key, Label, Kind string
	Min, Max         int
	Default          *int // where a number starts; nil and Optional: left out
	Optional         bool
	Choices          []Choice
	Parts            []Field
	Before           string // a word of its own before the value ("ataque", "vs")
	Prefix, Suffix   string // glued to a number: dc15, 2s
	Word             string // a flag's word
}

// Tray is the dice screen's tray (core/roll.DiceTray): its dice, at most
// MaxCount of one, and the roll that may take advantage (AdvCount dice
// of AdvSides).
type Tray struct {
	Dice               []int
	MaxCount           int
	AdvCount, AdvSides int
}

// Forms is what the dice screen offers msg's sender, in the chat's
// language: the tray and every system's checks.
type Forms interface {
	Tray() Tray
	Forms(ctx context.Context, msg core.Message) ([]Form, error)
}

// Ask is an open request for a roll (core/ask.Pending) as one user's
// page shows it: the core decides which buttons that user may press.
type Ask struct {
	ID      int64
	Check   string // "" for a blind request seen by a player
	Blind   bool
	GMName  string
	Waiting []string
	Buttons []AskButton
	Close   bool // a GM's ⏹
}

// AskButton is one character's button of a request; Key is what the
// press names.
type AskButton struct {
	Key, Name string
	Mine      bool
}

// Asks reads a chat's open requests for a roll as user sees them (a GM
// when gm); presses go through Port.Press, a new one through
// Port.Dispatch (/ask).
type Asks interface {
	Open(ctx context.Context, chat core.ChatRef, user string, gm bool) ([]Ask, error)
}

// Poster posts a reply in msg.Chat as the chat's adapter posts the reply
// to a typed msg: the platform adapter's own send path.
type Poster interface {
	Post(ctx context.Context, msg core.Message, rep *reply.Reply) error
}

// Members says whether user belongs to chat now, and whether the platform
// says they administer it.
type Members interface {
	Member(ctx context.Context, chat core.ChatRef, user string) (member, admin bool, err error)
}

// Namer is Members that also knows a member's display name in a chat
// (Matrix's differs per room): what a widget's or link's posts are headed
// with, as the chat adapter names people.
type Namer interface {
	MemberName(ctx context.Context, chat core.ChatRef, user string) string
}

// Private sends text to a user alone (a direct room with the bot on
// Matrix): how a one-time link reaches its user.
type Private interface {
	SendPrivately(ctx context.Context, user, text string) error
}

// Deps are the adapter's collaborators, wired by cmd/zaria.
type Deps struct {
	Port   Port
	Sheets Sheets
	Forms  Forms  // optional: no dice tray or checks without it
	Pads   Pads   // optional: no pad or saved rolls on the dice screen without it
	Fights Fights // optional: no turn order screen without it
	Tables Tables // optional: no tables and decks screen without it
	Rules  Rules  // optional: no rules screen without it
	Asks   Asks   // optional: no requests for a roll on the dice screen without it
	State  StateStore
	Logger *slog.Logger
	// TelegramToken checks the Mini App's initData; "" refuses Telegram.
	TelegramToken string
	// TelegramBot is the bot's user name for links, once known ("" before).
	TelegramBot func() string
	// TelegramMenu, if set, makes the bot's menu button in private chats
	// open the companion at url (HTTPS only, as Telegram requires); Serve
	// calls it once.
	TelegramMenu func(ctx context.Context, url string) error
	Posters      map[string]Poster  // by platform
	Members      map[string]Members // by platform
	Private      map[string]Private // by platform: where /app sends one-time links
	Now          func() time.Time
	// Chart draws a roll's distribution as a PNG (adapters/chart.PNG):
	// the history screen's pictures. Optional: no pictures without it.
	Chart func(c *reply.Chart) ([]byte, error)
	// Limits are the core's limits the forms check first (see Limits).
	Limits Limits
	// UserName cleans a platform's display name as the core cleans every
	// name (core/fold.UserName, wired by cmd/zaria); required.
	UserName func(name string) string
}

//go:embed assets
var assets embed.FS

// Adapter serves the companion's pages.
type Adapter struct {
	cfg  Config
	d    Deps
	log  *slog.Logger
	tok  *tokens
	tmpl *template.Template
	base *url.URL
	mux  *http.ServeMux
	csp  string
	// cspFramed is csp for the Mini App's page framed by Telegram Web:
	// Telegram's script appends a <style> element there for
	// set_custom_style, so <style> elements may be inline, style
	// attributes still may not.
	cspFramed string
	http      *http.Client // web.matrix_openid_url
	hs        *homeservers // the widgets' claimed homeservers
	// charts lets one distribution picture be drawn at a time.
	charts chan struct{}

	members members
	reads   allowance // screen reads per user
}

// New builds the companion. cfg must be enabled (URL set).
func New(cfg Config, d Deps) (*Adapter, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !cfg.Enabled() {
		return nil, errors.New("web: no url configured")
	}
	if d.Port == nil || d.Sheets == nil || d.State == nil || d.UserName == nil {
		return nil, errors.New("web: a port, sheets, a state store and a name cleaner are required")
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.TelegramBot == nil {
		d.TelegramBot = func() string { return "" }
	}
	base, _ := url.Parse(cfg.URL)
	t, err := template.New("").Funcs(funcs).ParseFS(assets, "assets/*.html")
	if err != nil {
		return nil, fmt.Errorf("web: templates: %w", err)
	}
	a := &Adapter{cfg: cfg, d: d, log: d.Logger.With("adapter", "web"), tmpl: t, base: base,
		tok: &tokens{st: d.State, now: d.Now}, members: members{ans: map[string]memberAns{}, calls: map[string]callCount{}}, reads: allowance{users: map[string]*rate.Limiter{}}, charts: make(chan struct{}, 1),
		http: &http.Client{Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	a.hs = &homeservers{dns: net.DefaultResolver, local: cfg.MatrixLocalServers, calls: map[string]callCount{}}
	a.csp, a.cspFramed = a.policy(false), a.policy(true)
	a.routes()
	return a, nil
}

// MaxConns is how many connections the companion serves at once.
const MaxConns = 128

// Name is the adapter's name.
func (a *Adapter) Name() string { return "web" }

// Handler is the companion's HTTP handler (for tests and benchmarks).
func (a *Adapter) Handler() http.Handler { return a.mux }

// Run serves cfg.Listen until ctx ends.
func (a *Adapter) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", a.cfg.Listen)
	if err != nil {
		return fmt.Errorf("web: listen: %w", err)
	}
	return a.Serve(ctx, ln)
}

// Serve serves on ln until ctx ends.
func (a *Adapter) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: a.mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(a.log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	// At most MaxConns connections are served at once; more wait in the
	// listen queue, unserved, as the first ones close.
	go func() { errc <- srv.Serve(netutil.LimitListener(ln, MaxConns)) }()
	if a.d.TelegramMenu != nil && a.base.Scheme == "https" && a.d.TelegramToken != "" {
		go func() {
			if err := a.d.TelegramMenu(ctx, a.base.String()); err != nil && ctx.Err() == nil {
				a.log.Warn("web: the bot's menu button is not set", "err", err)
			}
		}()
	}
	a.log.Info("web companion listening", "addr", ln.Addr().String(), "url", a.cfg.URL)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	return nil
}

// policy is the Content-Security-Policy: no inline script, scripts from
// the page's own origin and Telegram's, framed only by Telegram's web
// clients and the configured origins. framed: the Mini App's page in
// Telegram Web's iframe, where Telegram's script appends a <style>
// element (to apply Telegram Web's set_custom_style): inline <style>
// elements (style-src-elem) are allowed there and only there; inline
// style attributes never (style-src-attr 'none').
func (a *Adapter) policy(framed bool) string {
	js, _ := url.Parse(a.cfg.TelegramJS)
	ancestors := append([]string{"https://web.telegram.org"}, a.cfg.FrameAncestors...)
	style := []string{"style-src 'self'"}
	if framed {
		style = append(style, "style-src-elem 'self' 'unsafe-inline'", "style-src-attr 'none'")
	}
	return strings.Join(append(append([]string{
		"default-src 'none'",
		"script-src 'self' " + js.Scheme + "://" + js.Host}, style...),
		"img-src 'self' data:",
		"connect-src 'self'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors "+strings.Join(ancestors, " "),
	), "; ")
}

// secure sets the headers every answer carries.
func (a *Adapter) secure(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", a.csp)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
}

// Link is the companion's link for msg's chat (companion.Linker): the
// Mini App's direct link with the chat's token on Telegram (the token of
// msg's forum topic when asked in one: the page's rolls go there); on a platform
// with no signed launch data (Matrix), a one-time link sent to the user
// alone (private is then true and url "").
func (a *Adapter) Link(ctx context.Context, msg core.Message) (string, bool, error) {
	switch msg.Chat.Platform {
	case "telegram":
		bot := a.d.TelegramBot()
		if bot == "" || a.d.TelegramToken == "" {
			return "", false, errUnavailable
		}
		tok, err := a.tok.PlaceToken(ctx, place{ChatRef: msg.Chat, Thread: msg.Thread})
		if err != nil {
			return "", false, err
		}
		return "https://t.me/" + url.PathEscape(bot) + "/" + url.PathEscape(a.cfg.TelegramApp) + "?startapp=" + tok, false, nil
	}
	p := a.d.Private[msg.Chat.Platform]
	if p == nil {
		return "", false, errUnavailable
	}
	link, err := a.OneTimeLink(ctx, msg.Chat, core.User{ID: msg.From.ID, Name: msg.From.Name})
	if err != nil {
		return "", false, err
	}
	lang := a.d.Port.Lang(ctx, msg.Chat, msg.LangHint)
	text := a.d.Port.Text(lang, "web.app.link", "url", link, "minutes", a.LinkMinutes())
	if err := p.SendPrivately(ctx, msg.From.ID, text); err != nil {
		return "", false, fmt.Errorf("web: send the link privately: %w", err)
	}
	return "", true, nil
}

// WidgetURL is the URL of the room widget for msg's chat (Element Web and
// Desktop: /addwidget <url>), a template Element fills in with its theme;
// "" where there is none. It holds the chat's
// token, which names the room but lets nobody in: the widget proves who
// the user is with an OpenID token.
func (a *Adapter) WidgetURL(ctx context.Context, msg core.Message) string {
	if msg.Chat.Platform != "matrix" || a.d.Members["matrix"] == nil || msg.Private {
		return ""
	}
	tok, err := a.tok.ChatToken(ctx, msg.Chat)
	if err != nil {
		return ""
	}
	// Element fills in its theme ("light", "dark"): the widget follows it.
	return a.base.JoinPath("w").String() + "?chat=" + tok + "&theme=$org.matrix.msc2873.client_theme"
}

// AppURL is the companion's public URL (web.url), the Mini App's page.
func (a *Adapter) AppURL() string { return a.base.String() }

// LinkMinutes is how long a one-time link works, in whole minutes.
func (a *Adapter) LinkMinutes() int { return max(1, int(a.cfg.LinkTTL/time.Minute)) }

// OneTimeLink is a link for user in chat that opens the companion once,
// within LinkTTL: for platforms without signed launch data (Matrix).
func (a *Adapter) OneTimeLink(ctx context.Context, chat core.ChatRef, user core.User) (string, error) {
	tok, err := a.tok.Link(ctx, chat, user, a.cfg.LinkTTL)
	if err != nil {
		return "", err
	}
	return a.base.JoinPath("l", tok).String(), nil
}

// errUnavailable is returned by Link for a chat with no link; cmd/zaria
// maps it to companion.ErrUnavailable.
var errUnavailable = errors.New("web: no link for this chat")

// ErrUnavailable reports whether err is Link's "no link here".
func ErrUnavailable(err error) bool { return errors.Is(err, errUnavailable) }
