// Package ask_test benchmarks a request for a roll (/pedir, core/ask) on
// Telegram: the real adapter, with Telegram's production send limits,
// against the fake Bot API enforcing them (adapters/telegram/telegramtest),
// over a real SQLite file. Each iteration the GM asks a table of six, and
// the six players press their keys at the same moment.
//
//	go test -tags goolm -run - -bench AskSixTaps -benchtime 5x ./bench/ask/
//
// edits/request is how many times the request's one message was edited
// for the six presses (batched: the sender sends only the newest queued
// edit of a message, at most one a second per chat, within 20 messages a
// minute per group); s/request the time from the presses to the message
// showing all six results. A flood-limit violation fails the benchmark.
package ask_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram"
	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/ask"
	"zaria/core/command"
	"zaria/core/roll"
	"zaria/core/sheet"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

func BenchmarkAskSixTaps(b *testing.B) {
	f, err := telegramtest.New(telegramtest.Options{Limits: telegramtest.Production})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "zaria.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cat, err := i18n.Load()
	if err != nil {
		b.Fatal(err)
	}
	sheets := sheet.New(db, sheet.Options{})
	r := command.New(command.Config{Translator: cat, Settings: db, GMs: db, Sheets: sheets, DefaultLang: "en"})
	roll.Register(r)
	roll.RegisterOdds(r)
	sheet.Register(r, sheets)
	ask.Register(r, ask.New(db, db, ask.Options{}))

	const group = -777
	gm := telegramtest.User{ID: 700, Name: "Gema", Lang: "en"}
	f.SetAdmins(group, gm.ID)
	var players []telegramtest.User
	for i := range 6 {
		u := telegramtest.User{ID: int64(701 + i), Name: "P" + strconv.Itoa(i), Lang: "en"}
		players = append(players, u)
		c := sheet.Character{Owner: strconv.FormatInt(u.ID, 10), OwnerName: u.Name, Name: "Pj" + strconv.Itoa(i), Key: sheet.NameKey("Pj" + strconv.Itoa(i)),
			Values: []sheet.Value{{Name: "percepcion", Key: "percepcion", Text: strconv.Itoa(i)}}}
		if _, err := db.CreateCharacter(ctx, core.ChatRef{Platform: "telegram", ID: strconv.Itoa(group)}, c, sheet.Quota{}); err != nil {
			b.Fatal(err)
		}
	}
	a, err := telegram.New(telegram.Config{Token: f.Token(), APIURL: f.URL(), PollTimeout: time.Second}, r, db, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	defer func() { cancel(); <-done }()

	g := telegramtest.Group(group)
	edits, took := 0, time.Duration(0)
	b.ResetTimer()
	for range b.N {
		before := len(f.SentTo(group))
		f.SayIn(g, gm, "/ask 1d20+percepcion vs 14")
		asked := wait(b, "the request", func() (telegramtest.Sent, bool) {
			s := f.SentTo(group)
			if len(s) > before {
				return s[len(s)-1], true
			}
			return telegramtest.Sent{}, false
		})
		var kb tgbotapi.InlineKeyboardMarkup
		if err := json.Unmarshal([]byte(asked.Params["reply_markup"]), &kb); err != nil {
			b.Fatal(err)
		}
		keys := map[string]string{}
		for _, row := range kb.InlineKeyboard {
			for _, k := range row {
				keys[strings.TrimPrefix(k.Text, "🎲 ")] = *k.CallbackData
			}
		}
		start := time.Now()
		var wg sync.WaitGroup
		for i, u := range players {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f.Press(asked, u, keys["Pj"+strconv.Itoa(i)])
			}()
		}
		wg.Wait()
		wait(b, "all six results", func() (struct{}, bool) {
			for _, e := range f.Edits() {
				if e.MessageID == asked.ID && !strings.Contains(e.Visible, "⏳") {
					return struct{}{}, true
				}
			}
			return struct{}{}, false
		})
		took += time.Since(start)
		for _, e := range f.Edits() {
			if e.MessageID == asked.ID {
				edits++
			}
		}
	}
	b.StopTimer()
	if v := f.Violations(); len(v) > 0 {
		b.Fatalf("%d flood-limit violations: %+v", len(v), v[0])
	}
	b.ReportMetric(float64(edits)/float64(b.N), "edits/request")
	b.ReportMetric(took.Seconds()/float64(b.N), "s/request")
}

// wait polls get for up to two minutes (a group's 20 messages a minute may
// hold a send that long).
func wait[T any](b *testing.B, what string, get func() (T, bool)) T {
	b.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if v, ok := get(); ok {
			return v
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatal(fmt.Sprintf("%s: not within two minutes", what))
	var zero T
	return zero
}
