// Package pad is /pad (/botones, /koumpia, !κουμπιά): the rolls of a
// session one tap away. A pad is an ordered list of buttons, each a label
// and the command it runs. A player keeps a personal pad in each chat; the
// chat's GMs keep the chat's pad (--chat) for the whole table.
//
//	/botones añadir "Ataque" /zaria fuerza+atletismo dc15
//	/botones añadir d20            (plain dice: /roll d20)
//	/botones añadir /ataque coraza (a saved roll, /alias, with its value)
//	/botones                       (posts the pad: its buttons, and a numbered list)
//	/botones quitar 2 · mover 3 1 · renombrar 2 Golpe · lista · vaciar
//	/botones --chat añadir 2d6     (the chat's pad, GMs only)
//	/botones añadir "Tajo" /dh ataque espada-larga vs {objetivo}
//	                               (asks "¿contra qué armadura?" when pressed: ask.go)
//
// Pressing a button (command.Router.Press with a reply.ActRun action)
// runs its command as the presser, through the same path as a typed one
// (limits, rate limit, history), and the reply starts with who pressed and
// for which character: "Ana (Drake): …". A personal pad answers only its
// owner and the chat's GMs; anyone else gets a short notice, never a roll.
package pad

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Limits of a pad, each with its own localized error (pad_test.go).
const (
	// MaxButtons is how many buttons one pad holds (as many as Button Dice
	// Roller's pads on Discord).
	MaxButtons = 25
	// MaxLabel is the longest label, in characters: what fits a phone's
	// button.
	MaxLabel = 24
	// MaxCommand is the longest command a button runs, in characters.
	MaxCommand = 200
	// maxListed is how much of a button's command /pad lista shows, so a
	// full pad's list fits one reply.
	maxListed = 100
)

// chatFlag makes /pad act on the chat's pad, as with /alias.
const chatFlag = "--chat"

// Options of the service.
type Options struct {
	// ActiveName returns the name of userID's active character in chat, ""
	// when they have none. Optional: without it replies name only the user.
	ActiveName func(ctx context.Context, chat core.ChatRef, userID string) (string, error)
	Logger     *slog.Logger
	// Undo keeps a cleared pad for /botones deshacer (optional).
	Undo core.UndoStore
	Now  func() time.Time
}

// Service is the pad command and the resolver of pad buttons.
type Service struct {
	store Store
	opt   Options
}

// New builds the service on a store.
func New(store Store, opt Options) *Service {
	opt.Now, opt.Logger = command.Clock(opt.Now), command.Log(opt.Logger)
	return &Service{store: store, opt: opt}
}

func (s *Service) now() time.Time { return s.opt.Now() }

// Register adds /pad to r and makes r resolve pad buttons (reply.ActRun).
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "pad", Aliases: []string{"botones", "botonera", "koumpia", "κουμπιά"},
		Handler: command.HandlerFunc(s.handle), Subs: subs})
	r.HandleAction(reply.ActRun, s.press)
	r.HandleAction(ActTray, s.pressTray)
}

// subs are /pad's sub-commands in es, el and en (keyboard and hide:
// keyboard.go).
var subs = command.NewSubs(
	command.Sub{Name: "add", Words: map[string][]string{"es": {"añadir", "agregar"}, "el": {"προσθήκη", "πρόσθεσε"}, "en": {"add"}}},
	command.Sub{Name: "remove", Words: map[string][]string{"es": {"quitar", "borrar"}, "el": {"αφαίρεση", "αφαίρεσε"}, "en": {"remove", "rm"}}},
	command.Sub{Name: "move", Words: map[string][]string{"es": {"mover"}, "el": {"μετακίνηση", "μετακίνησε"}, "en": {"move"}}},
	command.Sub{Name: "rename", Words: map[string][]string{"es": {"renombrar"}, "el": {"μετονομασία", "μετονόμασε"}, "en": {"rename"}}},
	command.Sub{Name: "list", Words: map[string][]string{"es": {"lista"}, "el": {"λίστα"}, "en": {"list"}}},
	command.Sub{Name: "show", Words: map[string][]string{"es": {"mostrar", "ver"}, "el": {"δείξε", "εμφάνιση"}, "en": {"show", "post"}}},
	command.Sub{Name: "clear", Words: map[string][]string{"es": {"vaciar"}, "el": {"άδειασμα", "άδειασε"}, "en": {"clear"}}},
	command.Sub{Name: "undo", Words: map[string][]string{"es": {"deshacer"}, "el": {"αναίρεση"}, "en": {"undo"}}},
	command.Sub{Name: subKeyboard, Words: map[string][]string{"es": {"teclado", "teclas"}, "el": {"πληκτρολόγιο", "πλήκτρα"}, "en": {"keyboard", "keys"}}},
	command.Sub{Name: subHide, Words: map[string][]string{"es": {"ocultar", "esconder"}, "el": {"απόκρυψη", "κρύψε"}, "en": {"hide"}}},
)

// cmdName is the command as the user typed it, for the hints: "/botones".
func cmdName(req *command.Request) string {
	pre := req.TypedPrefix()
	name := req.Alias
	if name == "" {
		name = "pad"
	}
	return pre + name
}

// errorf is command.Errorf with the command's name as "cmd".
func errorf(req *command.Request, key string, kv ...any) error {
	return command.Errorf(key, append(kv, "cmd", cmdName(req))...)
}

func (s *Service) handle(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	args := strings.TrimSpace(req.Args)
	owner := req.Msg.From.ID
	forChat := false
	if w, rest, _ := strings.Cut(args, " "); strings.EqualFold(w, chatFlag) {
		forChat, owner, args = true, "", strings.TrimSpace(rest)
	}
	word, rest, _ := strings.Cut(args, " ")
	rest = strings.TrimSpace(rest)
	sub, ok := subs.Read(word, "show")
	if !ok {
		return nil, errorf(req, "pad.err.usage")
	}
	if sub == subKeyboard || sub == subHide {
		return s.keyboard(ctx, req, owner, sub, rest)
	}
	if forChat && !req.IsGM && sub != "show" && sub != "list" {
		return nil, errorf(req, "pad.err.chat_gm")
	}
	switch sub {
	case "show", "list":
		if rest != "" {
			return nil, errorf(req, "pad.err.usage")
		}
		return s.show(ctx, req, owner, sub == "list")
	case "add":
		return s.add(ctx, req, owner, rest)
	case "clear":
		return s.clear(ctx, req, owner)
	case "undo":
		if rest != "" {
			return nil, errorf(req, "pad.err.usage")
		}
		return s.undo(ctx, req, owner)
	}
	bs, err := s.store.PadButtons(ctx, req.Msg.Chat, owner)
	if err != nil {
		return nil, err
	}
	numArg, rest, _ := strings.Cut(rest, " ")
	rest = strings.TrimSpace(rest)
	if numArg == "" {
		return nil, errorf(req, "pad.err."+sub+"_usage")
	}
	i, err := number(req, numArg, bs)
	if err != nil {
		return nil, err
	}
	b := bs[i]
	switch sub {
	case "remove":
		if rest != "" {
			return nil, errorf(req, "pad.err.remove_usage")
		}
		if err := s.store.RemovePadButton(ctx, req.Msg.Chat, owner, b.ID); err != nil {
			return nil, storeErr(req, err)
		}
		return reply.Text(req.T("pad.removed", "n", i+1, "label", b.Label)), nil
	case "move":
		if rest == "" || strings.Contains(rest, " ") {
			return nil, errorf(req, "pad.err.move_usage")
		}
		j, err := number(req, rest, bs)
		if err != nil {
			return nil, err
		}
		if err := s.store.MovePadButton(ctx, req.Msg.Chat, owner, b.ID, j); err != nil {
			return nil, storeErr(req, err)
		}
		return reply.Text(req.T("pad.moved", "n", j+1, "label", b.Label)), nil
	default: // rename
		label, tail, quoted := quoted(rest)
		if !quoted {
			label, tail = fold.Clean(rest), "" // as a quoted label is
		}
		if strings.TrimSpace(tail) != "" || label == "" {
			return nil, errorf(req, "pad.err.rename_usage")
		}
		if err := checkLabel(label); err != nil {
			return nil, err
		}
		if err := s.store.RenamePadButton(ctx, req.Msg.Chat, owner, b.ID, label); err != nil {
			return nil, storeErr(req, err)
		}
		return reply.Text(req.T("pad.renamed", "n", i+1, "label", label)), nil
	}
}

// number reads a 1-based button number of pad bs as an index.
func number(req *command.Request, s string, bs []Button) (int, error) {
	if len(bs) == 0 {
		return 0, errorf(req, "pad.err.empty_pad")
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "#"))
	if err != nil || n < 1 || n > len(bs) {
		return 0, errorf(req, "pad.err.no_button", "got", s, "have", len(bs))
	}
	return n - 1, nil
}

// storeErr turns a button that vanished meanwhile into the user's error.
func storeErr(req *command.Request, err error) error {
	if errors.Is(err, ErrNotFound) {
		return errorf(req, "pad.notice.gone")
	}
	return err
}

// quoted splits a leading "label" (straight, curly or angle quotes) from s.
func quoted(s string) (label, rest string, ok bool) {
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}, {"«", "»"}, {"'", "'"}} {
		if strings.HasPrefix(s, q[0]) {
			inner := s[len(q[0]):]
			if end := strings.Index(inner, q[1]); end >= 0 {
				return strings.TrimSpace(fold.Clean(inner[:end])), strings.TrimSpace(inner[end+len(q[1]):]), true
			}
		}
	}
	return "", s, false
}

func checkLabel(label string) error {
	if n := utf8.RuneCountInString(label); n > MaxLabel {
		return command.Errorf("pad.err.label_long", "max", MaxLabel, "got", n)
	}
	return nil
}

// unquoted splits a label written without quotes from the command after
// it: the words before the first " /" or " !" that starts a command
// ("Ataque /zaria fuerza+atletismo dc15"). ok is false when s starts
// with the command or has none after words (plain dice: "2d6+1").
func unquoted(s string) (label, rest string, ok bool) {
	for i := 1; i+1 < len(s); i++ {
		if (s[i] == '/' || s[i] == '!') && (s[i-1] == ' ' || s[i-1] == '\t') {
			if r, _ := utf8.DecodeRuneInString(s[i+1:]); unicode.IsLetter(r) {
				return strings.TrimSpace(fold.Clean(s[:i])), s[i:], true
			}
		}
	}
	return "", s, false
}

// add handles /pad add ["Label"] COMMAND | DICE, or Label COMMAND.
func (s *Service) add(ctx context.Context, req *command.Request, owner, rest string) (*reply.Reply, error) {
	label, text, hasLabel := quoted(rest)
	if !hasLabel && !strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "!") {
		label, text, hasLabel = unquoted(rest)
	}
	// The command is stored, listed and exported as typed: on one line
	// without invisible characters (a right-to-left mark pasted into it
	// was printed in /pad list, and made the chat's export refused by
	// /importar, which asks that of every button).
	text = fold.Clean(text)
	if text == "" || (hasLabel && label == "") {
		return nil, errorf(req, "pad.err.add_usage")
	}
	cmd := text
	plain := !strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "!")
	if plain {
		cmd = "/roll " + text // plain dice: d20, 2d6+1
	}
	if n := utf8.RuneCountInString(cmd); n > MaxCommand {
		return nil, command.Errorf("pad.err.command_long", "max", MaxCommand, "got", n)
	}
	if req.Router().TakesFile(cmd) {
		return nil, errorf(req, "pad.err.takes_file", "text", text)
	}
	if ok, err := req.Knows(ctx, cmd); !ok {
		ue, isUser := command.AsUserError(err)
		switch {
		case isUser && ue.Key == "alias.missing_arg":
			// A saved roll that needs a value: asked when pressed, if
			// its place has choices (planOf, check).
		case isUser:
			return nil, err
		case err != nil:
			return nil, err
		default:
			return nil, errorf(req, "pad.err.not_command", "text", text)
		}
	}
	p, err := planOf(ctx, req, cmd)
	if err != nil {
		return nil, err
	}
	if err := check(ctx, req, p); err != nil {
		return nil, err
	}
	if plain {
		// Dice that do not parse ("xyz+", "1d1001") would fail at every
		// press: refused now with what /roll would answer. The sheet's
		// values are read when it is pressed.
		if _, err := dice.Parse(text); err != nil {
			if word, _, two := strings.Cut(text, " "); two && !hasLabel && unicode.IsLetter([]rune(word)[0]) {
				// "Ataque fuerza+atletismo": a label, and what to roll
				// without its command.
				return nil, errorf(req, "pad.err.label_quote", "label", fold.Cut(word, MaxLabel))
			}
			if de, ok := dice.AsError(err); ok {
				return nil, command.Errorf("dice.err."+de.Code, "near", de.Near, "max", de.Max, "got", de.Got, "want", de.Want)
			}
			return nil, err
		}
	}
	if !hasLabel {
		label = strings.TrimLeft(fold.Clean(text), "/!")
		label = placeholderRe.ReplaceAllString(label, "…") // "dh ataque espada-larga vs …"
		if utf8.RuneCountInString(label) > MaxLabel {
			label = string([]rune(label)[:MaxLabel-1]) + "…"
		}
	}
	if err := checkLabel(label); err != nil {
		return nil, err
	}
	b, err := s.store.AddPadButton(ctx, req.Msg.Chat, owner, Button{Label: label, Command: cmd}, MaxButtons)
	if errors.Is(err, ErrFull) {
		return nil, errorf(req, "pad.err.full", "max", MaxButtons)
	}
	if err != nil {
		return nil, err
	}
	bs, err := s.store.PadButtons(ctx, req.Msg.Chat, owner)
	if err != nil {
		return nil, err
	}
	n := len(bs)
	for i, x := range bs {
		if x.ID == b.ID {
			n = i + 1
		}
	}
	rep := &reply.Reply{}
	rep.Add(reply.T(req.T("pad.added", "n", n, "label", label)+" "), reply.C(cmd))
	if owner == "" {
		rep.Add(reply.I(req.T("pad.added_hint_chat", "cmd", cmdName(req))))
	} else {
		rep.Add(reply.I(req.T("pad.added_hint", "cmd", cmdName(req))))
	}
	return rep, nil
}

// byline names a user and their active character: "Ana (Drake)", or
// "Ana" (the sheet and the systems call the character a command names
// "who").
func (s *Service) byline(ctx context.Context, req *command.Request, userID, name string) string {
	if s.opt.ActiveName == nil {
		return name
	}
	char, err := s.opt.ActiveName(ctx, req.Msg.Chat, userID)
	if err != nil {
		s.opt.Logger.ErrorContext(ctx, "active character", "chat", req.Msg.Chat.String(), "err", err)
	}
	if char == "" {
		return name
	}
	return name + " (" + char + ")"
}

// show posts a pad: its title, a numbered list (for clients without
// buttons) and, unless list, its buttons.
func (s *Service) show(ctx context.Context, req *command.Request, owner string, list bool) (*reply.Reply, error) {
	bs, err := s.store.PadButtons(ctx, req.Msg.Chat, owner)
	if err != nil {
		return nil, err
	}
	rep := &reply.Reply{}
	if owner == "" {
		rep.Add(reply.B(req.T("pad.title_chat")))
	} else {
		rep.Add(reply.B(req.T("pad.title", "who", s.byline(ctx, req, owner, req.Msg.From.Name))))
	}
	if len(bs) == 0 && owner != "" && !list {
		s.tray(ctx, req, rep)
		return rep, nil
	}
	if len(bs) == 0 {
		flag := ""
		if owner == "" {
			flag = " " + chatFlag
		}
		rep.Add(reply.T(req.T("pad.empty", "cmd", cmdName(req)+flag)))
		return rep, nil
	}
	for i, b := range bs {
		line := reply.Line{reply.T(strconv.Itoa(i+1) + ". "), reply.B(b.Label)}
		if list {
			c := b.Command
			if utf8.RuneCountInString(c) > maxListed {
				c = string([]rune(c)[:maxListed-1]) + "…"
			}
			line = append(line, reply.T(" · "), reply.C(c))
		} else {
			rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonRun, Label: b.Label,
				Action: &reply.Action{Kind: reply.ActRun, Button: b.ID}})
		}
		rep.Lines = append(rep.Lines, line)
	}
	return rep, nil
}

// press runs a pad button for whoever pressed it.
func (s *Service) press(ctx context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
	owner, b, err := s.store.PadButton(ctx, req.Msg.Chat, a.Button)
	if errors.Is(err, ErrNotFound) {
		return nil, errorf(req, "pad.notice.gone")
	}
	if err != nil {
		return nil, err
	}
	if owner != "" && owner != req.Msg.From.ID && !req.IsGM {
		return nil, errorf(req, "pad.notice.not_yours")
	}
	p, err := planOf(ctx, req, b.Command)
	if err != nil {
		return nil, err
	}
	cmd, q, err := fill(ctx, req, p, a.Values)
	if err != nil {
		return nil, err
	}
	if q != nil {
		return s.ask(ctx, req, b, a.Values, q), nil
	}
	rep, ok := req.Run(ctx, cmd)
	if !ok {
		return nil, errorf(req, "pad.notice.gone")
	}
	by := reply.B(s.byline(ctx, req, req.Msg.From.ID, req.Msg.From.Name) + ": ")
	for r := rep; r != nil; r = r.Secret {
		if len(r.Lines) == 0 {
			r.Lines = []reply.Line{{by}}
			continue
		}
		r.Lines[0] = append(reply.Line{by}, r.Lines[0]...)
	}
	return rep, nil
}
