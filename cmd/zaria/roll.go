package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"zaria/adapters/chart"
	"zaria/configs"
	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
)

// rollCmd runs one chat message through the router and prints the reply
// (README "Command line"). Exit 0 for a reply, 2 for a user error.
func rollCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	o, ok := parseRollFlags(args, stderr)
	if !ok {
		return exitUser
	}
	fail := func(err error) int {
		if o.asJSON {
			writeJSON(stdout, map[string]any{"error": err.Error()})
		}
		fmt.Fprintln(stderr, err.Error())
		return exitUser
	}
	if err := o.check(); err != nil {
		return fail(err)
	}
	src, err := o.source()
	if err != nil {
		return fail(err)
	}
	rep, err := dispatchRoll(ctx, o, src, getenv, stderr)
	if err != nil {
		return fail(err)
	}
	if o.pngPath != "" && !rep.Error {
		if err := writeChartPNG(rep, o.pngPath, o.text); err != nil {
			return fail(err)
		}
	}
	printRoll(stdout, stderr, rep, o.asJSON)
	if rep.Error {
		return exitUser
	}
	return 0
}

// rollOptions are the flags and the text of "zaria roll".
type rollOptions struct {
	lang, diceList, dbPath, chat, user, pngPath string
	seed                                        uint64
	asJSON, gm                                  bool
	text                                        string          // the chat message
	set                                         map[string]bool // the flags given
}

// parseRollFlags reads the flags, before or after the text; ok=false
// when the flag package refused them (it said why on stderr).
func parseRollFlags(args []string, stderr io.Writer) (o rollOptions, ok bool) {
	fs := flag.NewFlagSet("roll", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.lang, "lang", "", "language of the chat: one of "+strings.Join(core.Langs(), ", "))
	fs.Uint64Var(&o.seed, "seed", 0, "seed for a reproducible roll")
	fs.StringVar(&o.diceList, "dice", "", "comma-separated die results to replay, e.g. 4,2,6")
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON object")
	fs.StringVar(&o.dbPath, "db", "", "database file (default: a throw-away one)")
	fs.StringVar(&o.chat, "chat", "cli", "chat id")
	fs.StringVar(&o.user, "user", "cli", "user id")
	fs.BoolVar(&o.gm, "gm", true, "speak as a GM (--gm=false plays a player, to check a GM-only rule)")
	fs.StringVar(&o.pngPath, "png", "", "write the reply's chart (/odds) as a PNG picture to FILE")
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return o, false
		}
		if fs.NArg() == 0 {
			break
		}
		words = append(words, fs.Arg(0))
		args = fs.Args()[1:]
	}
	o.text = strings.TrimSpace(strings.Join(words, " "))
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	return o, true
}

// check refuses an empty text and an unknown language; a text that is
// not a command is rolled ("2d6" is "/roll 2d6").
func (o *rollOptions) check() error {
	if o.text == "" {
		return errors.New("usage: zaria roll [flags] 'TEXT', e.g. zaria roll '/roll 2d6+3'")
	}
	if !strings.HasPrefix(o.text, "/") && !strings.HasPrefix(o.text, "!") {
		o.text = "/roll " + o.text
	}
	if o.lang != "" && !core.IsLang(o.lang) {
		return fmt.Errorf("--lang must be one of %s, not %q", strings.Join(core.Langs(), ", "), o.lang)
	}
	return nil
}

// source is the dice the roll reads: replayed (--dice), seeded (--seed),
// or nil for the router's random ones.
func (o rollOptions) source() (dice.Source, error) {
	switch {
	case o.set["dice"] && o.set["seed"]:
		return nil, errors.New("use --dice or --seed, not both")
	case o.set["dice"]:
		faces, err := parseDice(o.diceList)
		if err != nil {
			return nil, err
		}
		return dice.NewScripted(faces), nil
	case o.set["seed"]:
		return dice.Seeded(o.seed), nil
	}
	return nil, nil
}

// dispatchRoll runs the text through a router on the database (--db, or
// a throw-away one) as a message of --user in --chat, the chat's language
// set to --lang.
func dispatchRoll(ctx context.Context, o rollOptions, src dice.Source, getenv func(string) string, stderr io.Writer) (*reply.Reply, error) {
	cfg, err := configs.Load("", false, getenv)
	if err != nil {
		return nil, err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	path := o.dbPath
	if path == "" {
		dir, err := os.MkdirTemp("", "zaria-roll-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "zaria.db")
	}
	db, err := openDB(ctx, path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	router, err := newRouter(cfg.Lang, configZone(cfg), cfg.DocsURL, db, logger)
	if err != nil {
		return nil, err
	}
	chatRef := core.ChatRef{Platform: "cli", ID: o.chat}
	if o.lang != "" {
		if err := db.SetLang(ctx, chatRef, o.lang); err != nil {
			return nil, err
		}
	}
	msg := core.Message{Chat: chatRef, From: core.User{ID: o.user, Name: o.user}, ID: "1", Text: o.text, FromGM: o.gm, BotName: "zaria"}
	rep, ok := router.DispatchWith(ctx, msg, src)
	if !ok {
		return nil, fmt.Errorf("%q is not a command; try '/roll 2d6' or '/help'", o.text)
	}
	return rep, nil
}

// writeChartPNG writes the reply's chart (--png) as a picture to path.
func writeChartPNG(rep *reply.Reply, path, text string) error {
	if rep.Chart == nil {
		return fmt.Errorf("--png: %q has no chart; try '/odds 3d6'", text)
	}
	img, err := chart.PNG(rep.Chart)
	if err != nil {
		return err
	}
	return os.WriteFile(path, img, 0o644)
}

// printRoll prints the reply as plain text (stdout, or stderr for an
// error) or, with --json, as one JSON object with the check's facts.
func printRoll(stdout, stderr io.Writer, rep *reply.Reply, asJSON bool) {
	text := reply.PlainText(reply.WithChartText(rep))
	if rep.Secret != nil {
		text += "\n" + reply.PlainText(rep.Secret)
	}
	if rep.Status != nil {
		// The status message a chat edits in place (the turn order).
		text = strings.TrimPrefix(text+"\n"+reply.PlainText(rep.Status), "\n")
	}
	switch {
	case asJSON:
		out := rollJSON(rep, text)
		if rep.Error {
			fmt.Fprintln(stderr, text)
		}
		writeJSON(stdout, out)
	case rep.Error:
		fmt.Fprintln(stderr, text)
	default:
		fmt.Fprintln(stdout, text)
		if rep.File != nil {
			fmt.Fprintln(stdout, string(rep.File.Data))
		}
	}
}

// rollJSON is the --json object: the text, the check's fields (the secret
// roll's for a secret one), the file sent and the error, if any.
func rollJSON(rep *reply.Reply, text string) map[string]any {
	out := map[string]any{"text": text}
	check := rep.Check
	if check == nil && rep.Secret != nil {
		check = rep.Secret.Check
	}
	if check != nil {
		b, _ := json.Marshal(check)
		_ = json.Unmarshal(b, &out)
		out["text"] = text
	}
	for k, v := range rep.Data {
		out[k] = v // the turn order, a changed value
	}
	if rep.File != nil {
		out["file"] = map[string]any{"name": rep.File.Name, "mime": rep.File.MIME, "content": string(rep.File.Data)}
	}
	if d := distributionJSON(rep.Chart); d != nil {
		out["distribution"] = d
	}
	if rep.Error {
		out["error"] = text
	}
	return out
}

// distributionJSON is the distribution of each roll a chart draws (/odds,
// a roll with ?): every total with its exact probability "p/q" and as a
// number, and, for an explosion, where it was cut and how much lies past
// the cut at most; sampled figures say how many rolls they come from
// ("sampled": N) and have no fractions. Nil without a distribution chart.
func distributionJSON(c *reply.Chart) []map[string]any {
	if c == nil || c.Counts != nil {
		return nil
	}
	var out []map[string]any
	for _, s := range c.Series {
		var exact []string
		if s.Exact != nil {
			exact = s.Exact()
		}
		totals := make([]map[string]any, 0, len(s.P))
		for i, p := range s.P {
			t := map[string]any{"total": s.Min + int64(i), "p": p}
			if i < len(exact) {
				t["exact"] = exact[i]
			}
			totals = append(totals, t)
		}
		d := map[string]any{"label": s.Label, "min": s.Min, "max": s.Min + int64(len(s.P)) - 1, "approx": s.Approx, "totals": totals}
		switch {
		case s.Sampled > 0:
			d["sampled"] = s.Sampled
		case s.Open:
			d["cut"] = map[string]any{"after": s.Min + int64(len(s.P)) - 1, "tail_below": s.Tail}
		case s.Approx: // a keep after an explosion: the cut is in the explosions counted
			d["cut"] = map[string]any{"tail_below": s.Tail}
		}
		out = append(out, d)
	}
	return out
}

func parseDice(s string) ([]int, error) {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("--dice: %q is not a number", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--dice: give at least one die, e.g. --dice 4,2")
	}
	return out, nil
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
