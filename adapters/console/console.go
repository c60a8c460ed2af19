// Package console is a chat in a terminal: each line typed is a message,
// each reply is printed as a chat user would read it. It is what `make run`
// starts when no platform is configured, and what scripted smoke tests drive.
//
// Lines starting with ":" control the session instead of chatting:
//
//	:user Bob    speak as another user (not a GM)
//	:gm on|off   give or take the current user's GM role
//	:chat 2      move to another chat
//	:quit        leave (so does end of input)
//
// A number alone presses that button of the last reply (a pad's buttons
// too: /pad, and the choices a pad button asks for, "¿contra qué
// armadura?", listed as numbered lines and options).
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"zaria/core"
	"zaria/core/reply"
)

// Dispatcher is the part of the router the console needs: dispatch a
// typed line, resolve a pressed pad button.
type Dispatcher interface {
	Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool)
	Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool)
}

// Config of a console chat.
type Config struct {
	User     string // the first user's name
	Chat     string // chat id, "local" by default
	LangHint string // the "client language" of the user
	Prompt   bool   // print a prompt (interactive terminals)
}

// Adapter is a terminal chat.
type Adapter struct {
	cfg Config
	d   Dispatcher
	in  io.Reader
	out io.Writer
	log *slog.Logger

	user    core.User
	gm      bool
	chat    string
	buttons []reply.Button
	last    string // the command of the last reply, for its buttons
	n       int
}

// New builds a console chat reading in and writing out.
func New(cfg Config, d Dispatcher, in io.Reader, out io.Writer, logger *slog.Logger) *Adapter {
	if cfg.User == "" {
		cfg.User = "player"
	}
	if cfg.Chat == "" {
		cfg.Chat = "local"
	}
	return &Adapter{cfg: cfg, d: d, in: in, out: out, log: logger,
		user: core.User{ID: cfg.User, Name: cfg.User}, gm: true, chat: cfg.Chat}
}

// Name is "console".
func (a *Adapter) Name() string { return "console" }

// Run reads lines until end of input, :quit or ctx ends.
func (a *Adapter) Run(ctx context.Context) error {
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() { errc <- readLines(ctx, a.in, lines) }()
	a.prompt()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-errc:
			if err != nil {
				return fmt.Errorf("read: %w", err)
			}
			return nil
		case line := <-lines:
			if !a.handle(ctx, strings.TrimSpace(line)) {
				return nil
			}
			a.prompt()
		}
	}
}

// maxLine is the longest line read whole, in bytes: more than the
// largest input of any command (an /importar document of 262,244
// characters, up to 4 bytes each). A longer line is never cut into a
// shorter command: what is sent is still longer than every input limit,
// so the router refuses it with its input-too-long message. Memory stays
// bounded whatever is typed.
const maxLine = 2 << 20

// readLines sends each line of r to lines until end of input.
func readLines(ctx context.Context, r io.Reader, lines chan<- string) error {
	br := bufio.NewReader(r)
	for {
		frag, isPrefix, err := br.ReadLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		line := append([]byte(nil), frag...)
		for isPrefix {
			if frag, isPrefix, err = br.ReadLine(); err == io.EOF {
				break
			} else if err != nil {
				return err
			}
			if room := maxLine - len(line); room > 0 {
				line = append(line, frag[:min(len(frag), room)]...)
			}
		}
		text := string(line)
		if len(line) >= maxLine { // cut: drop a character split at the end
			text = strings.ToValidUTF8(text, "")
		}
		select {
		case lines <- text:
		case <-ctx.Done():
			return nil
		}
	}
}

func (a *Adapter) prompt() {
	if a.cfg.Prompt {
		fmt.Fprintf(a.out, "%s> ", a.user.Name)
	}
}

// handle processes one line; false means quit.
func (a *Adapter) handle(ctx context.Context, line string) bool {
	if line == "" {
		return true
	}
	if strings.HasPrefix(line, ":") {
		return a.control(line)
	}
	var press *reply.Action // a pad button, resolved by the core
	if k, err := strconv.Atoi(line); err == nil && k >= 1 && k <= len(a.buttons) {
		b := a.buttons[k-1]
		if b.Kind == reply.ButtonRun && b.Action != nil {
			press = b.Action
			fmt.Fprintf(a.out, "  (%s)\n", b.Label)
		} else {
			line = a.last
			if b.Kind == reply.ButtonOdds {
				line += " ?"
			}
			fmt.Fprintf(a.out, "  (%s → %s)\n", b.Label, line)
		}
	}
	a.n++
	msg := core.Message{
		Chat:     core.ChatRef{Platform: "console", ID: a.chat},
		BotName:  "zaria",
		From:     a.user,
		ID:       strconv.Itoa(a.n),
		Text:     line,
		LangHint: a.cfg.LangHint,
		FromGM:   a.gm,
	}
	var rep *reply.Reply
	var ok bool
	if press != nil {
		msg.Text = line
		rep, ok = a.d.Press(ctx, msg, *press)
	} else {
		rep, ok = a.d.Dispatch(ctx, msg)
	}
	if !ok {
		return true
	}
	a.print(rep)
	return true
}

func (a *Adapter) control(line string) bool {
	cmd, arg, _ := strings.Cut(strings.TrimPrefix(line, ":"), " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case "quit", "q", "exit":
		return false
	case "user":
		if arg != "" {
			a.user = core.User{ID: arg, Name: arg}
			a.gm = false
		}
		fmt.Fprintf(a.out, "  (you are %s%s)\n", a.user.Name, map[bool]string{true: ", GM", false: ""}[a.gm])
	case "gm":
		a.gm = arg != "off"
		fmt.Fprintf(a.out, "  (%s GM: %v)\n", a.user.Name, a.gm)
	case "chat":
		if arg != "" {
			a.chat = arg
		}
		fmt.Fprintf(a.out, "  (chat %s)\n", a.chat)
	default:
		fmt.Fprintln(a.out, "  (:user NAME · :gm on|off · :chat ID · :quit)")
	}
	return true
}

// print writes a reply the way a chat shows it: the text and its chart in
// characters (a terminal shows no picture), then any file, then the
// buttons as numbered options.
func (a *Adapter) print(rep *reply.Reply) {
	if text := reply.PlainText(reply.WithChartText(rep)); text != "" {
		fmt.Fprintln(a.out, indent(text))
	}
	if rep.Secret != nil {
		fmt.Fprintln(a.out, indent("🔒 "+reply.PlainText(reply.WithChartText(rep.Secret))))
	}
	if rep.File != nil {
		fmt.Fprintf(a.out, "  📎 %s (%d bytes)\n%s\n", rep.File.Name, len(rep.File.Data), indent(string(rep.File.Data)))
	}
	a.buttons = rep.Buttons
	a.last = rep.Command
	if len(rep.Buttons) > 0 {
		var opts []string
		for i, b := range rep.Buttons {
			opts = append(opts, fmt.Sprintf("[%d] %s", i+1, b.Label))
		}
		fmt.Fprintln(a.out, "  "+strings.Join(opts, "  "))
	}
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }
