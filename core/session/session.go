// Package session is /sesion (/session, !συνεδρία): a chat's game session
// and its log.
//
//	/sesion empezar La cripta   (GMs) opens a session
//	/sesion terminar            (GMs) closes it
//	/sesion                     sends the log of the open or last session as a file
//	/sesion formato html        (GMs) the file's format: Markdown (md) or HTML
//
// While a session is open every roll the bot answers in the chat — dice,
// checks, tables, cards, picks — and the fight — the turn order's joins,
// turns, rounds and end with its summary (typed or pressed), hit points
// and conditions changed — goes to its log (Service.Observe) with
// who rolled, what and the result, in the chat's time zone. A secret or
// blind roll shows in the chat's file as the notice the chat saw; its
// result is only in the copy sent privately to the GMs. The log is of
// what the bot saw: in a Telegram group in privacy mode, only commands.
// A log keeps its last MaxEvents entries; older ones are only counted.
package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Limits of the sessions of a chat.
const (
	// MaxEvents is how many entries a session's log keeps; older ones
	// are counted, not kept.
	MaxEvents = 1000
	// MaxText is how much of a roll's reply an entry keeps, in characters.
	MaxText = 600
	// MaxTitle is the longest title, in characters.
	MaxTitle = 60
	// Keep is how many sessions a chat keeps, with their logs.
	Keep = 20
)

// FormatOption is the chat setting that holds the file's format.
const FormatOption = "session_format"

// Options configure a Service.
type Options struct {
	Now    func() time.Time // nil: time.Now
	Logger *slog.Logger
}

// Service implements /sesion and logs rolls into the open session.
type Service struct {
	store Store
	now   func() time.Time
	log   *slog.Logger

	// open holds the chats with an open session, read from the store on
	// the first roll and kept as /sesion starts and ends them, so that a
	// roll outside a session (nearly all of them) costs no read. It only
	// spares reads: AppendEvent still finds the open session itself.
	mu   sync.Mutex
	open map[core.ChatRef]bool // nil until read
}

// New returns a Service over store.
func New(store Store, o Options) *Service {
	return &Service{store: store, now: command.Clock(o.Now), log: command.Log(o.Logger)}
}

// Register adds /sesion to r. The router must have s among its
// Observers for rolls to be logged.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "session", Aliases: []string{"sesion", "sesión", "partida", "συνεδρία"},
		Handler: command.WithHints(s.handle, command.PrefixHint), Subs: subs})
}

// subs are /sesion's sub-commands in es, el and en.
var subs = command.NewSubs(
	command.Sub{Name: "start", Words: map[string][]string{"es": {"empezar", "comenzar", "iniciar"}, "el": {"έναρξη", "ξεκίνα", "αρχή"}, "en": {"start", "begin"}}},
	command.Sub{Name: "end", Words: map[string][]string{"es": {"terminar", "acabar", "fin"}, "el": {"τέλος", "τερμάτισε"}, "en": {"end", "stop"}}},
	command.Sub{Name: "format", Words: map[string][]string{"es": {"formato"}, "el": {"μορφή"}, "en": {"format"}}},
	command.Sub{Name: "send", Words: map[string][]string{"es": {"archivo", "enviar"}, "el": {"αρχείο"}, "en": {"file", "send", "log"}}},
)

func storeErr(op string, err error) error { return fmt.Errorf("session %s: %w", op, err) }

func (s *Service) handle(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	args := strings.TrimSpace(req.Args)
	word, rest, _ := strings.Cut(args, " ")
	rest = strings.TrimSpace(rest)
	sub, ok := subs.Read(word, "send")
	if !ok {
		return nil, command.Errorf("session.usage")
	}
	if sub != "send" && !req.IsGM {
		return nil, command.Errorf("session.gm_only")
	}
	loc := req.Location()
	switch sub {
	case "start":
		title := fold.Clean(rest)
		if n := utf8.RuneCountInString(title); n > MaxTitle {
			return nil, command.Errorf("session.title_long", "max", MaxTitle, "got", n)
		}
		if title == "" {
			title = req.T("session.untitled", "date", s.now().In(loc).Format("2006-01-02"))
		}
		ss, err := s.store.StartSession(ctx, req.Msg.Chat, Session{Title: title, Started: s.now()}, Keep)
		if err == nil || errors.Is(err, core.ErrExists) {
			s.setOpen(req.Msg.Chat, true)
		}
		if errors.Is(err, core.ErrExists) {
			open, err := s.store.LastSession(ctx, req.Msg.Chat)
			if err != nil {
				return nil, storeErr("last", err)
			}
			return nil, command.Errorf("session.already_open", "title", open.Title, "time", open.Started.In(loc).Format("15:04"), "zone", loc.String())
		}
		if err != nil {
			return nil, storeErr("start", err)
		}
		rep := reply.Text("▶️ " + req.T("session.started", "title", ss.Title, "time", ss.Started.In(loc).Format("15:04"), "zone", loc.String()))
		rep.Add(reply.I(req.T("session.what_is_logged")))
		return rep, nil
	case "end":
		if rest != "" {
			return nil, command.Errorf("session.usage")
		}
		ss, err := s.store.EndSession(ctx, req.Msg.Chat, s.now())
		if err == nil || errors.Is(err, core.ErrNotFound) {
			s.setOpen(req.Msg.Chat, false)
		}
		if errors.Is(err, core.ErrNotFound) {
			return nil, command.Errorf("session.none_open")
		}
		if err != nil {
			return nil, storeErr("end", err)
		}
		evs, err := s.store.Events(ctx, req.Msg.Chat, ss.ID)
		if err != nil {
			return nil, storeErr("events", err)
		}
		rep := reply.Text("⏹ " + req.T("session.ended", "title", ss.Title, "length", length(ss.Ended.Sub(ss.Started)), "count", Rolls(ss, evs)))
		rep.Add(reply.T(req.T("session.ended_hint")+" "), reply.C(req.TypedPrefix()+req.Alias))
		return rep, nil
	case "format":
		f := fold.Key(rest)
		switch f {
		case "html", "web":
			f = "html"
		case "md", "markdown", "texto", "text", "κειμενο":
			f = "md"
		default:
			return nil, command.Errorf("session.bad_format")
		}
		if err := req.Router().SettingsStore().SetOption(ctx, req.Msg.Chat, FormatOption, f); err != nil {
			return nil, err
		}
		return reply.Text("✅ " + req.T("session.format_set", "format", strings.ToUpper(f))), nil
	}
	if rest != "" {
		return nil, command.Errorf("session.usage")
	}
	ss, err := s.store.LastSession(ctx, req.Msg.Chat)
	if errors.Is(err, core.ErrNotFound) {
		return nil, command.Errorf("session.none")
	}
	if err != nil {
		return nil, storeErr("last", err)
	}
	evs, err := s.store.Events(ctx, req.Msg.Chat, ss.ID)
	if err != nil {
		return nil, storeErr("events", err)
	}
	return s.files(ctx, req, ss, evs), nil
}

// length writes a duration as "2 h 15 min" or "40 min".
func length(d time.Duration) string {
	m := int(d.Round(time.Minute) / time.Minute)
	if m < 60 {
		return fmt.Sprintf("%d min", m)
	}
	return fmt.Sprintf("%d h %d min", m/60, m%60)
}

// files is the reply of /sesion: the chat's file (secret rolls as the
// notice the chat saw) and, when the session had secret or blind rolls,
// the GMs' copy with their results, sent privately to the GMs only.
func (s *Service) files(ctx context.Context, req *command.Request, ss Session, evs []Event) *reply.Reply {
	format := req.Option(FormatOption)
	if format != "html" {
		format = "md"
	}
	secrets, secretRolls := 0, 0
	for _, e := range evs {
		if e.Secret != "" {
			secrets++
			if e.Roll {
				secretRolls++
			}
		}
	}
	public := render(req, ss, evs, format, false, s.now())
	rep := reply.Text("📜 " + req.T("session.file", "title", ss.Title, "count", Rolls(ss, evs)))
	rep.File = public
	if secrets > 0 {
		gm := render(req, ss, evs, format, true, s.now())
		copyKey, fileKey := "session.gm_copy", "session.gm_file"
		if secretRolls == 0 { // only an NPC's hit points and conditions
			copyKey, fileKey = "session.gm_copy_npc", "session.gm_file_npc"
		}
		rep.Add(reply.I(req.T(copyKey, "count", secretRolls)))
		rep.Secret = &reply.Reply{Lines: []reply.Line{{reply.T("📜 " + req.T(fileKey, "title", ss.Title, "count", secretRolls))}}, File: gm}
		rep.SecretTo = req.NamedGMs(ctx)
		rep.Blind = true // the GMs' copy goes to the GMs only
	}
	return rep
}

// Observe logs a roll of the chat into its open session (command.Observer).
// A store failure is logged and does not touch the reply.
func (s *Service) Observe(ctx context.Context, req *command.Request, rep *reply.Reply, _ time.Duration) {
	if rep == nil || rep.Error || req.Msg.Private {
		return
	}
	var e Event
	fight := rep.Data["initiative"] != nil || rep.Data["changed"] != nil
	switch {
	case rep.Secret != nil && (rep.Secret.Check != nil || fight):
		// A secret or blind roll; an NPC's hit points (the GMs' numbers).
		e.Text, e.Secret, e.Blind = plain(rep), plain(rep.Secret), rep.Blind
	case rep.Check != nil || fight:
		// A roll; the turn order (joins, turns, rounds, its end and
		// summary) and a sheet's changes (hit points, conditions).
		e.Text = plain(rep)
	default:
		return
	}
	if e.Text == "" && e.Secret == "" {
		return // the turn order shown again: nothing happened
	}
	// Most rolls are outside a session: the chats with one open are
	// known without a read.
	if open, err := s.isOpen(ctx, req.Msg.Chat); err != nil || !open {
		if err != nil {
			s.log.ErrorContext(ctx, "find sessions", "err", err)
		}
		return
	}
	e.Roll = rep.Check != nil || rep.Secret != nil && rep.Secret.Check != nil
	e.Time = s.now()
	e.UserName = fold.UserName(req.Msg.From.Name)
	if e.UserName == "" {
		e.UserName = req.Msg.From.ID
	}
	// What was typed: who did what, in their words. A press (the turn
	// order's ▶) has no words: its entry is what it did.
	cmd := req.Msg.Text
	if cmd == "" {
		cmd = rep.Command
	}
	e.Command = fold.Cut(fold.Clean(cmd), 200)
	if _, err := s.store.AppendEvent(ctx, req.Msg.Chat, e, MaxEvents); err != nil {
		s.log.ErrorContext(ctx, "log session event", "chat", req.Msg.Chat.String(), "err", err)
	}
}

// isOpen reports whether chat has an open session, reading the chats
// that have one on its first call.
func (s *Service) isOpen(ctx context.Context, chat core.ChatRef) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil {
		chats, err := s.store.OpenSessions(ctx)
		if err != nil {
			return false, err
		}
		s.open = make(map[core.ChatRef]bool, len(chats))
		for _, c := range chats {
			s.open[c] = true
		}
	}
	return s.open[chat], nil
}

// setOpen records that chat's session was started or ended.
func (s *Service) setOpen(chat core.ChatRef, open bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.open == nil: // read at the first roll, this one included
	case open:
		s.open[chat] = true
	default:
		delete(s.open, chat)
	}
}

// plain is a reply's text, its lines cleaned, at most MaxText characters.
func plain(rep *reply.Reply) string {
	return fold.Cut(strings.Join(reply.Lines(rep), "\n"), MaxText)
}
