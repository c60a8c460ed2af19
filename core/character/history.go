package character

import (
	"context"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

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
// history, pruning it to Limits.HistoryKeep (command.Observer). Error
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
	r := Roll{
		Chat:     req.Msg.Chat,
		UserID:   req.Msg.From.ID,
		UserName: userName(req.Msg.From.Name),
		Command:  cut(strings.TrimSpace(cmd), 200),
		Dice:     rep.Check.Dice,
		Sides:    plainSides(rep.Check.Dice, rep.Check.Sides),
		Result:   summary(rep, resultLen),
		Time:     s.now(),
	}
	if err := s.store.AppendRoll(ctx, r, s.lim.HistoryKeep); err != nil {
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
	var parts []string
	for _, l := range rep.Lines {
		var b strings.Builder
		for _, sp := range l {
			b.WriteString(sp.Text)
		}
		if t := strings.TrimSpace(b.String()); t != "" {
			parts = append(parts, t)
		}
	}
	return cut(strings.Join(parts, " · "), n)
}

// history handles /historial [N].
func (s *Service) history(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	n := s.lim.HistoryShow
	if a := strings.TrimSpace(req.Args); a != "" {
		v, err := strconv.Atoi(a)
		if err != nil || v < 1 || v > s.lim.HistoryShowMax {
			return nil, command.Errorf("history.bad_count", "max", s.lim.HistoryShowMax)
		}
		n = v
	}
	rolls, err := s.store.LastRolls(ctx, req.Msg.Chat, n)
	if err != nil {
		return nil, internal("last rolls", err)
	}
	if len(rolls) == 0 {
		return reply.Text(tr(req, "history.empty")), nil
	}
	rep := (&reply.Reply{}).Add(reply.B(tr(req, "history.title", "count", len(rolls))))
	now := s.now().UTC()
	for _, r := range rolls {
		// At most 11+1+20+2+50+3+80 = 167 characters a line.
		rep.Add(reply.C(when(r.Time, now)), reply.T(" "), reply.B(cut(fold.Clean(r.UserName), 20)), reply.T(": "),
			reply.T(cut(r.Command, 50)), reply.T(" → "+cut(r.Result, 80)))
	}
	return rep, nil
}

// when formats a roll's time in UTC: "15:04" today, "02/01 15:04" before.
func when(t, now time.Time) string {
	t = t.UTC()
	if t.Year() == now.Year() && t.YearDay() == now.YearDay() {
		return t.Format("15:04")
	}
	return t.Format("02/01 15:04")
}

// stats handles /stats: rolls per user, then a fairness test per die size.
func (s *Service) stats(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	counts, err := s.store.RollCounts(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("roll counts", err)
	}
	if len(counts) == 0 {
		return reply.Text(tr(req, "history.empty")), nil
	}
	sizes, more, err := s.store.DieStats(ctx, req.Msg.Chat, maxSizes)
	if err != nil {
		return nil, internal("die stats", err)
	}
	total := 0
	for _, c := range counts {
		total += c.Rolls
	}
	rep := (&reply.Reply{}).Add(reply.B(tr(req, "stats.title", "count", total, "keep", s.lim.HistoryKeep)))
	for i, c := range counts {
		if i == 10 {
			rep.Add(reply.I(tr(req, "stats.more_users", "count", len(counts)-10)))
			break
		}
		rep.Add(reply.T("• "), reply.B(cut(fold.Clean(c.UserName), maxUserName)), reply.T(": "+tr(req, "stats.rolls", "count", c.Rolls)))
	}
	// The most rolled sizes, at most maxSizes of them, smallest first.
	tests := make([]Fairness, len(sizes))
	for i, sz := range sizes {
		tests[i] = TestFairness(sz.Sides, sz.Faces)
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].Sides < tests[j].Sides })
	if len(tests) == 0 {
		rep.Add(reply.I(tr(req, "stats.no_dice")))
		return rep, nil
	}
	rep.Add(reply.B(tr(req, "stats.fairness_title")))
	for _, f := range tests {
		s.fairnessLines(req, rep, f)
	}
	if more > 0 {
		rep.Add(reply.I(tr(req, "stats.more_sizes", "count", more)))
	}
	rep.Chart = fairnessChart(req, sizes) // statschart.go
	return rep, nil
}

// fairnessLines renders one die size: verdict, then observed vs expected.
func (s *Service) fairnessLines(req *command.Request, rep *reply.Reply, f Fairness) {
	die := "d" + strconv.Itoa(f.Sides)
	if !f.Enough {
		rep.Add(reply.B(die), reply.T(": "+tr(req, "stats.too_few", "count", f.N, "need", 5*f.Sides)))
	} else {
		verdict := "stats.fair"
		if f.P < 0.01 {
			verdict = "stats.unfair"
		}
		rep.Add(reply.B(die), reply.T(": "+tr(req, "stats.test", "count", f.N,
			"chi", decimal(req.Lang, f.ChiSq, 1), "df", f.DF, "p", pValue(req.Lang, f.P))+" "+tr(req, verdict)))
	}
	exp := decimal(req.Lang, f.Expected, 1)
	if f.Sides <= maxShownFaces {
		parts := make([]string, f.Sides)
		for i, o := range f.Observed {
			parts[i] = strconv.Itoa(i+1) + ":" + strconv.Itoa(o)
		}
		rep.Add(reply.C(strings.Join(parts, " ")), reply.I(" "+tr(req, "stats.expected", "expected", exp)))
		return
	}
	rep.Add(reply.I(tr(req, "stats.range", "low", f.Low, "lowcount", f.LowCount,
		"high", f.High, "highcount", f.HighCount, "expected", exp)))
}

// decimal formats f with d decimals, with a decimal comma in es and el.
func decimal(lang string, f float64, d int) string {
	s := strconv.FormatFloat(f, 'f', d, 64)
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// pValue formats a p-value with 3 decimals, "< 0.001" below that.
func pValue(lang string, p float64) string {
	if math.IsNaN(p) {
		return "–"
	}
	if p < 0.001 {
		return "< " + decimal(lang, 0.001, 3)
	}
	return decimal(lang, p, 3)
}
