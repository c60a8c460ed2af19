// Package console is a chat in a terminal: each line typed is a message,
// each reply is printed as a chat user would read it. It is what `make run`
// starts when no platform is configured, and what scripted smoke tests drive.
//
// Lines starting with ":" control the session instead of chatting:
//
//	:user Bob    speak as another user (a GM only if given :gm on before)
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

// Dispatcher is the part of the router the console needs (core.Port):
// dispatch a typed line, resolve a pressed button, and say in the
// chat's language what the console says on its own (a line too long).
type Dispatcher interface {
	Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool)
	Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool)
	Lang(ctx context.Context, chat core.ChatRef, hint string) string
	Text(lang, key string, kv ...any) string
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
	gms     map[string]bool // each user's GM role, kept across :user
	chat    string
	buttons []reply.Button  // the last reply's, numbered from 1
	shown   map[string]bool // chat|slot: a status message printed already
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
		user: core.User{ID: cfg.User, Name: cfg.User}, gm: true, chat: cfg.Chat,
		gms: map[string]bool{cfg.User: true}}
}

// Controls are the console's own lines, which are not chat messages.
const Controls = ":user NAME (speak as another user) · :gm on|off (that user's GM role) · :chat ID · :quit"

// Banner is the line an interactive console starts with: what to try and
// the controls.
func Banner(version, db string) string {
	return fmt.Sprintf("zaria %s — console chat (%s). Try /roll 4d6kh3+2, /help, /lang el.\nControls: %s. Ctrl-D to leave.\n", version, db, Controls)
}

// Name is "console".
func (a *Adapter) Name() string { return "console" }

// Run reads lines until end of input, :quit or ctx ends.
func (a *Adapter) Run(ctx context.Context) error {
	lines := make(chan line)
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
		case l := <-lines:
			if l.chars > 0 {
				a.tooLong(ctx, l.chars)
			} else if !a.handle(ctx, strings.TrimSpace(l.text)) {
				return nil
			}
			a.prompt()
		}
	}
}

// maxLine is the longest line read, in bytes (2 MiB): more than the
// largest input of any command (an /importar document of 262,244
// characters, up to 4 bytes each). A longer line is never cut into a
// shorter command, nor sent: the console counts its characters while it
// discards them, and answers console.line_too_long with that count.
// Memory stays bounded whatever is typed.
const maxLine = 2 << 20

// line is one line read: its text, or, for a line longer than maxLine,
// only how many characters it had.
type line struct {
	text  string
	chars int // > 0: the line was too long, and this is its length
}

// readLines sends each line of r to lines until end of input.
func readLines(ctx context.Context, r io.Reader, lines chan<- line) error {
	br := bufio.NewReader(r)
	for {
		frag, isPrefix, err := br.ReadLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		buf := append([]byte(nil), frag...)
		chars := 0 // counted once the line is known to be too long
		for isPrefix {
			if frag, isPrefix, err = br.ReadLine(); err == io.EOF {
				break
			} else if err != nil {
				return err
			}
			if chars == 0 && len(buf)+len(frag) <= maxLine {
				buf = append(buf, frag...)
				continue
			}
			if chars == 0 {
				chars, buf = runes(buf), nil
			}
			chars += runes(frag)
		}
		l := line{text: string(buf), chars: chars}
		select {
		case lines <- l:
		case <-ctx.Done():
			return nil
		}
	}
}

// runes counts the characters of b, a piece of a line: the bytes that
// start one, so that a character split between two pieces counts once.
func runes(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// tooLong answers a line longer than maxLine, which is not sent.
func (a *Adapter) tooLong(ctx context.Context, chars int) {
	chat := core.ChatRef{Platform: "console", ID: a.chat}
	lang := a.d.Lang(ctx, chat, a.cfg.LangHint)
	fmt.Fprintln(a.out, indent("⚠️ "+a.d.Text(lang, "console.line_too_long", "got", chars, "max", maxLine)))
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
	// A number presses that button of the last reply: its Action, as the
	// core made it, goes to Press (🎲 rolls again for the current user, 📊
	// shows the odds of the roll already made and rolls nothing, a pad's
	// rolls as its owner typed it). The console's token is the number.
	var press *reply.Action
	if k, err := strconv.Atoi(line); err == nil && k >= 1 && k <= len(a.buttons) && a.buttons[k-1].Action != nil {
		b := a.buttons[k-1]
		press = b.Action
		fmt.Fprintf(a.out, "  (%s)\n", b.Label)
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
		rep, ok = a.d.Press(ctx, msg, *press)
	} else {
		rep, ok = a.d.Dispatch(ctx, msg)
	}
	if !ok {
		return true
	}
	a.print(rep, press != nil)
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
			a.gm = a.gms[arg] // a user keeps the GM role given before
		}
		fmt.Fprintf(a.out, "  (you are %s%s)\n", a.user.Name, map[bool]string{true: ", GM", false: ""}[a.gm])
	case "gm":
		a.gm = arg != "off"
		a.gms[a.user.ID] = a.gm
		fmt.Fprintf(a.out, "  (%s GM: %v)\n", a.user.Name, a.gm)
	case "chat":
		if arg != "" {
			a.chat = arg
		}
		fmt.Fprintf(a.out, "  (chat %s)\n", a.chat)
	default:
		fmt.Fprintf(a.out, "  (%s)\n", Controls)
	}
	return true
}

// print writes a reply the way a chat shows it: the text and its chart in
// characters (a terminal shows no picture), then any file, then the
// buttons as numbered options. The answer to a press that has no buttons
// of its own (📊's odds, a notice) leaves the pressed ones numbered, as a
// chat leaves them on their message.
func (a *Adapter) print(rep *reply.Reply, pressed bool) {
	if text := reply.PlainText(reply.WithChartText(rep)); text != "" {
		fmt.Fprintln(a.out, indent(text))
	}
	switch {
	case rep.Secret != nil && rep.Blind && !a.gm:
		// A blind roll: only a GM sees the result (":gm on").
		fmt.Fprintln(a.out, "  🔒 (GM)")
	case rep.Secret != nil:
		fmt.Fprintln(a.out, indent("🔒 "+reply.PlainText(reply.WithChartText(rep.Secret))))
		if f := rep.Secret.File; f != nil {
			fmt.Fprintf(a.out, "  🔒 📎 %s (%d bytes)\n%s\n", f.Name, len(f.Data), indent(string(f.Data)))
		}
	}
	if rep.File != nil {
		fmt.Fprintf(a.out, "  📎 %s (%d bytes)\n%s\n", rep.File.Name, len(rep.File.Data), indent(string(rep.File.Data)))
	}
	var bs []reply.Button
	all := rep.Buttons
	if rep.Status != nil {
		all = append(append([]reply.Button(nil), all...), a.printStatus(rep.Status)...)
	}
	for _, b := range all {
		if b.Action != nil && b.Action.Valid() {
			bs = append(bs, b)
		}
	}
	if len(bs) == 0 && pressed {
		return
	}
	a.buttons = bs
	if len(a.buttons) > 0 {
		var opts []string
		for i, b := range a.buttons {
			opts = append(opts, fmt.Sprintf("[%d] %s", i+1, b.Label))
		}
		fmt.Fprintln(a.out, "  "+strings.Join(opts, "  "))
	}
}

// printStatus reprints the chat's status message (the turn order, a
// reply's Status): a terminal cannot edit what it printed, so the console
// prints it again, marked as the same message ("↻" once it was shown in
// this chat), and its buttons join the reply's.
func (a *Adapter) printStatus(st *reply.Reply) []reply.Button {
	key := a.chat + "|" + st.Slot
	mark := "┌"
	if a.shown[key] {
		mark = "↻"
	}
	if a.shown == nil {
		a.shown = map[string]bool{}
	}
	a.shown[key] = true
	fmt.Fprintln(a.out, indent(mark+" "+strings.ReplaceAll(reply.PlainText(st), "\n", "\n│ ")))
	return st.Buttons
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }
