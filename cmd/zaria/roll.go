package main

import (
	"context"
	"encoding/json"
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
	fs := flag.NewFlagSet("roll", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang := fs.String("lang", "", "language of the chat: one of "+strings.Join(core.Langs(), ", "))
	seed := fs.Uint64("seed", 0, "seed for a reproducible roll")
	diceList := fs.String("dice", "", "comma-separated die results to replay, e.g. 4,2,6")
	asJSON := fs.Bool("json", false, "print one JSON object")
	dbPath := fs.String("db", "", "database file (default: a throw-away one)")
	chat := fs.String("chat", "cli", "chat id")
	user := fs.String("user", "cli", "user id")
	pngPath := fs.String("png", "", "write the reply's chart (/odds) as a PNG picture to FILE")
	// Flags may come before or after the text.
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return exitUser
		}
		if fs.NArg() == 0 {
			break
		}
		words = append(words, fs.Arg(0))
		args = fs.Args()[1:]
	}
	text := strings.TrimSpace(strings.Join(words, " "))
	fail := func(msg string) int {
		if *asJSON {
			writeJSON(stdout, map[string]any{"error": msg})
		}
		fmt.Fprintln(stderr, msg)
		return exitUser
	}
	if text == "" {
		return fail("usage: zaria roll [flags] 'TEXT', e.g. zaria roll '/roll 2d6+3'")
	}
	if !strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "!") {
		text = "/roll " + text
	}
	if *lang != "" && !core.IsLang(*lang) {
		return fail(fmt.Sprintf("--lang must be one of %s, not %q", strings.Join(core.Langs(), ", "), *lang))
	}
	var src dice.Source
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["dice"] && set["seed"]:
		return fail("use --dice or --seed, not both")
	case set["dice"]:
		faces, err := parseDice(*diceList)
		if err != nil {
			return fail(err.Error())
		}
		src = dice.NewScripted(faces)
	case set["seed"]:
		src = dice.Seeded(*seed)
	}

	cfg, err := configs.Load("", false, getenv)
	if err != nil {
		return fail(err.Error())
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	path := *dbPath
	if path == "" {
		dir, err := os.MkdirTemp("", "zaria-roll-")
		if err != nil {
			return fail(err.Error())
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "zaria.db")
	}
	db, err := openDB(ctx, path)
	if err != nil {
		return fail(err.Error())
	}
	defer db.Close()
	router, err := newRouter(cfg.Lang, db, logger)
	if err != nil {
		return fail(err.Error())
	}
	chatRef := core.ChatRef{Platform: "cli", ID: *chat}
	if *lang != "" {
		if err := db.SetLang(ctx, chatRef, *lang); err != nil {
			return fail(err.Error())
		}
	}
	msg := core.Message{Chat: chatRef, From: core.User{ID: *user, Name: *user}, ID: "1", Text: text, FromGM: true, BotName: "zaria"}
	rep, ok := router.DispatchWith(ctx, msg, src)
	if !ok {
		return fail(fmt.Sprintf("%q is not a command; try '/roll 2d6' or '/help'", text))
	}
	if *pngPath != "" && !rep.Error {
		if rep.Chart == nil {
			return fail(fmt.Sprintf("--png: %q has no chart; try '/odds 3d6'", text))
		}
		img, err := chart.PNG(rep.Chart)
		if err != nil {
			return fail(err.Error())
		}
		if err := os.WriteFile(*pngPath, img, 0o644); err != nil {
			return fail(err.Error())
		}
	}
	textOut := reply.PlainText(reply.WithChartText(rep))
	if rep.Secret != nil {
		textOut += "\n" + reply.PlainText(rep.Secret)
	}
	if *asJSON {
		out := map[string]any{"text": textOut}
		check := rep.Check
		if check == nil && rep.Secret != nil {
			check = rep.Secret.Check
		}
		if check != nil {
			b, _ := json.Marshal(check)
			_ = json.Unmarshal(b, &out)
			out["text"] = textOut
		}
		if rep.File != nil {
			out["file"] = map[string]any{"name": rep.File.Name, "mime": rep.File.MIME, "content": string(rep.File.Data)}
		}
		if rep.Error {
			out["error"] = textOut
			fmt.Fprintln(stderr, textOut)
		}
		writeJSON(stdout, out)
	} else if rep.Error {
		fmt.Fprintln(stderr, textOut)
	} else {
		fmt.Fprintln(stdout, textOut)
		if rep.File != nil {
			fmt.Fprintln(stdout, string(rep.File.Data))
		}
	}
	if rep.Error {
		return exitUser
	}
	return 0
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
