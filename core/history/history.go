// Package history keeps a chat's roll history and reads it: every
// answered roll is logged (command.Observer), /historial shows the last
// ones and /stats counts them per user and tests each die size for
// fairness with a chi-square test (chisq.go).
package history

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Limits are the quotas of the history. A zero field takes its default
// (DefaultLimits).
type Limits struct {
	Keep    int // rolls kept per chat; older ones are pruned
	Show    int // rolls /historial shows by default
	ShowMax int // rolls /historial shows at most
}

// DefaultLimits are the quotas where Limits leaves a zero: 500 rolls kept
// per chat, /historial shows 10 and at most 20 (20 full lines fit one
// 3,500-character reply).
func DefaultLimits() Limits { return Limits{Keep: 500, Show: 10, ShowMax: 20} }

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	for _, f := range []struct {
		v   *int
		def int
	}{{&l.Keep, d.Keep}, {&l.Show, d.Show}, {&l.ShowMax, d.ShowMax}} {
		if *f.v <= 0 {
			*f.v = f.def
		}
	}
	return l
}

// Options configure a Service.
type Options struct {
	Limits Limits
	Logger *slog.Logger     // nil: discard
	Now    func() time.Time // nil: time.Now
}

// Service implements /historial, /stats and command.Observer on top of a
// Store.
type Service struct {
	store Store
	lim   Limits
	log   *slog.Logger
	now   func() time.Time
}

// New returns a Service over store.
func New(store Store, o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{store: store, lim: o.Limits.withDefaults(), log: o.Logger, now: o.Now}
}

// Register adds /historial and /stats to r and makes it read a user's
// recent rolls here (Router.Recent). The router must have s as an
// Observer for rolls to be logged.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "historial", Aliases: []string{"history", "ιστορικό"}, Handler: command.WithHints(s.history, command.PrefixHint)})
	r.Register(command.Command{Name: "stats", Aliases: []string{"estadisticas", "στατιστικά"}, Handler: command.WithHints(s.stats, command.PrefixHint)})
	r.HandleRecent(s.Recent)
}

// internal wraps a store failure once; the router logs it and shows the
// user the generic internal-error message.
func internal(op string, err error) error { return fmt.Errorf("history %s: %w", op, err) }

const (
	// resultLen is how much of a reply's text the history keeps.
	resultLen = 300
	// maxSizes is how many die sizes /stats reports, the most rolled.
	maxSizes = 10
	// maxShownFaces: up to this size /stats lists every face's count;
	// larger dice show the least and most frequent face.
	maxShownFaces = 12
)

// Observe logs every answered roll (a reply with a Check) to the chat's
// history, pruning it to Limits.Keep (command.Observer). Error
// replies and secret rolls are not logged: the history is public to the
// chat. A store failure is logged and does not affect the reply.
func (s *Service) Observe(ctx context.Context, req *command.Request, rep *reply.Reply, _ time.Duration) {
	if rep == nil || rep.Error || rep.Check == nil || rep.Secret != nil {
		return
	}
	cmd := rep.Command
	if cmd == "" {
		cmd = req.Msg.Text
	}
	if strings.TrimSpace(cmd) == "" {
		// A press that stands for no command: nothing anyone could roll
		// again (the handler records what it did itself).
		return
	}
	r := Roll{
		Chat:     req.Msg.Chat,
		UserID:   req.Msg.From.ID,
		UserName: fold.UserName(req.Msg.From.Name),
		// One line without control or invisible characters: /historial
		// shows it beside the bot's own lines, which it must not imitate.
		Command: fold.Cut(fold.Clean(cmd), commandLen),
		Dice:    rep.Check.Dice,
		Sides:   plainSides(rep.Check.Dice, rep.Check.Sides),
		Result:  summary(rep, resultLen),
		Time:    s.now(),
	}
	if t := rep.Check.Total; t != nil {
		total := *t
		r.Total = &total
	}
	if err := s.store.AppendRoll(ctx, r, s.lim.Keep); err != nil {
		s.log.ErrorContext(ctx, "log roll", "chat", req.Msg.Chat.String(), "err", err)
	}
}

// plainSides gives one size per die for the fairness report, following the
// reply.Check.Sides contract: a zero (or a missing entry) means "not a plain
// die", and so does a size below 2 or a value outside 1..size; those are
// stored as 0 and never counted.
func plainSides(dice, sides []int) []int {
	out := make([]int, len(dice))
	for i, v := range dice {
		if i < len(sides) && sides[i] >= 2 && v >= 1 && v <= sides[i] {
			out[i] = sides[i]
		}
	}
	return out
}

// summary is the reply's text on one line, at most n characters.
func summary(rep *reply.Reply, n int) string {
	return fold.Cut(strings.Join(reply.Lines(rep), " · "), n)
}

// history handles /historial [N].
func (s *Service) history(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	n := s.lim.Show
	if a := strings.TrimSpace(req.Args); a != "" {
		v, err := strconv.Atoi(a)
		// Past ShowMax lines (one reply) the rolls come as a file, up to
		// every roll the chat keeps.
		if err != nil || v < 1 || v > max(s.lim.ShowMax, s.lim.Keep) {
			return nil, command.Errorf("history.bad_count", "max", max(s.lim.ShowMax, s.lim.Keep))
		}
		n = v
	}
	rolls, err := s.store.LastRolls(ctx, req.Msg.Chat, n)
	if err != nil {
		return nil, internal("last rolls", err)
	}
	if len(rolls) == 0 {
		return reply.Text(req.TP("history.empty")), nil
	}
	loc := req.Location()
	if n > s.lim.ShowMax {
		return historyFile(req, rolls, loc, s.now()), nil
	}
	rep := (&reply.Reply{}).Add(reply.B(req.TP("history.title", "count", len(rolls), "zone", loc.String())))
	now := s.now().In(loc)
	// Rolls has each line's roll whole, in the lines' order (the command
	// not cut at 50, its total): what the phone page's history draws a
	// roll's picture from (the odds of that command with that total
	// marked) and, as Data["rolls"], what --json prints.
	rep.Rolls = make([]reply.Logged, 0, len(rolls))
	for _, r := range rolls {
		rep.Rolls = append(rep.Rolls, reply.Logged{User: fold.Clean(r.UserName), Command: r.Command,
			Result: fold.Clean(r.Result), Time: r.Time.In(loc).Format(time.RFC3339), Total: r.Total})
		// At most 11+1+20+2+50+3+80 = 167 characters a line.
		rep.Add(reply.C(when(r.Time.In(loc), now)), reply.T(" "), reply.B(fold.Cut(fold.Clean(r.UserName), 20)), reply.T(": "),
			// Cleaned again: rows logged by an older version kept the text raw.
			reply.T(fold.Cut(fold.Clean(r.Command), 50)), reply.T(" → "+fold.Cut(fold.Clean(r.Result), 80)))
	}
	rep.Data = map[string]any{"rolls": rep.Rolls}
	return rep, nil
}

// when formats a roll's time in now's zone: "15:04" today, "02/01 15:04"
// before.
func when(t, now time.Time) string {
	t = t.In(now.Location())
	if t.Year() == now.Year() && t.YearDay() == now.YearDay() {
		return t.Format("15:04")
	}
	return t.Format("02/01 15:04")
}

// detailWords ask /stats for the faces of each die and the chart.
var detailWords = []string{"detalle", "detalles", "detail", "details", "λεπτομερειεσ", "λεπτομερεια"} // as fold.Key reads them (σ for ς)

// stats handles /stats: rolls per user, then a one-line fairness verdict
// per die size, short enough for a phone; "/stats detalle" adds each
// face's count and the chart. It always counts the whole chat: other
// words ("/stats d20") are refused rather than ignored, so that nobody
// reads the whole chat's counts as the ones asked for.
func (s *Service) stats(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	detail := false
	if args := strings.TrimSpace(req.Args); args != "" {
		if !slices.Contains(detailWords, fold.Key(args)) {
			return nil, command.Errorf("stats.no_args", "got", fold.Cut(fold.Clean(args), 30))
		}
		detail = true
	}
	counts, err := s.store.RollCounts(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("roll counts", err)
	}
	if len(counts) == 0 {
		return reply.Text(req.TP("history.empty")), nil
	}
	sizes, more, err := s.store.DieStats(ctx, req.Msg.Chat, maxSizes)
	if err != nil {
		return nil, internal("die stats", err)
	}
	total := 0
	for _, c := range counts {
		total += c.Rolls
	}
	rep := (&reply.Reply{}).Add(reply.B(req.TP("stats.title", "count", total, "keep", s.lim.Keep)))
	for i, c := range counts {
		if i == 10 {
			rep.Add(reply.I(req.TP("stats.more_users", "count", len(counts)-10)))
			break
		}
		rep.Add(reply.T("• "), reply.B(fold.Cut(fold.Clean(c.UserName), fold.MaxUserName)), reply.T(": "+req.TP("stats.rolls", "count", c.Rolls)))
	}
	// The most rolled sizes, at most maxSizes of them, smallest first.
	tests := make([]Fairness, len(sizes))
	for i, sz := range sizes {
		tests[i] = FairnessOf(sz.Sides, sz.Faces)
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].Sides < tests[j].Sides })
	if len(tests) == 0 {
		rep.Add(reply.I(req.TP("stats.no_dice")))
		return rep, nil
	}
	rep.Add(reply.B(req.TP("stats.fairness_title")))
	for _, f := range tests {
		s.fairnessLines(req, rep, f, detail)
	}
	if more > 0 {
		rep.Add(reply.I(req.TP("stats.more_sizes", "count", more)))
	}
	if !detail {
		word := map[string]string{"en": "detail", "el": "λεπτομέρειες"}[req.Lang]
		if word == "" {
			word = "detalle"
		}
		return rep.Add(reply.I(req.T("stats.detail_hint", "cmd", req.TypedPrefix()+req.Alias+" "+word))), nil
	}
	rep.Chart = fairnessChart(req, sizes) // statschart.go
	return rep, nil
}

// fairnessLines renders one die size: verdict, then (detail) observed vs
// expected.
func (s *Service) fairnessLines(req *command.Request, rep *reply.Reply, f Fairness, detail bool) {
	die := "d" + strconv.Itoa(f.Sides)
	if !f.Enough {
		rep.Add(reply.B(die), reply.T(": "+req.TP("stats.too_few", "count", f.N, "need", 5*f.Sides)))
	} else {
		verdict := "stats.fair"
		if f.P < 0.01 {
			verdict = "stats.unfair"
		}
		rep.Add(reply.B(die), reply.T(": "+req.TP("stats.test", "count", f.N,
			"chi", command.Fixed(req.Lang, f.ChiSq, 1), "df", f.DF, "p", pValue(req.Lang, f.P))+" "+req.TP(verdict)))
	}
	if !detail {
		return
	}
	exp := command.Fixed(req.Lang, f.Expected, 1)
	if f.Sides <= maxShownFaces {
		parts := make([]string, f.Sides)
		for i, o := range f.Observed {
			parts[i] = strconv.Itoa(i+1) + ":" + strconv.Itoa(o)
		}
		rep.Add(reply.C(strings.Join(parts, " ")), reply.I(" "+req.TP("stats.expected", "expected", exp)))
		return
	}
	rep.Add(reply.I(req.TP("stats.range", "low", f.Low, "lowcount", f.LowCount,
		"high", f.High, "highcount", f.HighCount, "expected", exp)))
}

// pValue formats a p-value with 3 decimals, "< 0.001" below that.
func pValue(lang string, p float64) string {
	if math.IsNaN(p) {
		return "–"
	}
	if p < 0.001 {
		return "< " + command.Fixed(lang, 0.001, 3)
	}
	return command.Fixed(lang, p, 3)
}
