// Command fight measures how late the replies of a fast fight come on
// Telegram (issue 36: at a command every 1–2 s, replies came 4–12 s late,
// each fight command costing two sends against the 20 messages a minute
// Telegram allows a group).
//
// The real zaria binary, as a child process, plays one group's scripted
// fight against the fake Bot API (adapters/telegram/telegramtest), which
// enforces Telegram's flood limits (1 message a second per chat, 20 a
// minute per group, 30 a second overall) and refuses what breaks them; the
// bot runs with its production limits. The fight: four combatants (three
// players who join by name, a wolf the GM adds), three rounds in which each
// player attacks or rolls a check and passes their own turn and the GM
// hurts the wolf and passes its turn, then the end: 30 commands, one a
// second, from four users (each within the router's per-user limit).
//
// A reply's delay is from the command reaching Telegram to the bot's reply
// to it arriving. The run prints, for each binary, the median and worst
// delay, the messages and edits the group received, and any flood-limit
// violation. -base REF builds that git ref too and runs the fight against
// both (before and after): go run -tags goolm ./bench/fight -bin bin/zaria
// -base 85ee367.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/bench/e2e/botproc"
)

// step is one command of the script: who types what.
type step struct {
	user int64
	name string
	text string
}

const (
	gm   = 7001
	ana  = 7002
	bob  = 7003
	cris = 7004
	chat = -7000
)

// script is the fight: commands both an older binary and this one read
// (/init siguiente starts it), so the two runs type the same.
func script() []step {
	s := []step{
		{gm, "Gema", "/init añadir Lobo 12 pv 30"},
		{ana, "Ana", "/init 15"},
		{bob, "Bob", "/init 14"},
		{cris, "Cris", "/init 13"},
		{gm, "Gema", "/init siguiente"},
	}
	for range 3 {
		s = append(s,
			step{ana, "Ana", "/dh ataque 1d8 pen1 vs cuero"},
			step{ana, "Ana", "/init siguiente"},
			step{bob, "Bob", "/dh ataque 1d6 pen1 vs cuero"},
			step{bob, "Bob", "/init siguiente"},
			step{cris, "Cris", "/tirar 1d20+3 vs 12"},
			step{cris, "Cris", "/init siguiente"},
			step{gm, "Gema", "/init pv Lobo -3"},
			step{gm, "Gema", "/init siguiente"},
		)
	}
	return append(s, step{gm, "Gema", "/init fin"})
}

// result is one run's figures.
type result struct {
	median, worst  time.Duration
	messages       int // sent to the group
	edits          int // of the group's messages
	violations     int
	unanswered     int
	commands       int
	lastReplyAfter time.Duration // from the first command to the last send
}

func main() {
	bin := flag.String("bin", "bin/zaria", "the zaria binary to measure")
	base := flag.String("base", "", "a git ref to build and measure too (before)")
	every := flag.Duration("every", time.Second, "time between two commands")
	flag.Parse()
	runs := []struct{ label, bin string }{}
	if *base != "" {
		b, cleanup, err := botproc.BuildRef(*base)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer cleanup()
		runs = append(runs, struct{ label, bin string }{"before (" + *base + ")", b})
	}
	abs, err := filepath.Abs(*bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	runs = append(runs, struct{ label, bin string }{"after (" + *bin + ")", abs})
	fmt.Printf("a three-round fight of four combatants: %d commands, one every %s, one group at Telegram's limits\n\n", len(script()), *every)
	fmt.Printf("%-28s %8s %8s %9s %6s %10s %11s\n", "binary", "median", "worst", "messages", "edits", "violations", "last reply")
	for _, r := range runs {
		res, err := fight(r.bin, *every)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", r.label, err)
			os.Exit(1)
		}
		fmt.Printf("%-28s %7.1fs %7.1fs %9d %6d %10d %10.1fs\n", r.label, res.median.Seconds(), res.worst.Seconds(),
			res.messages, res.edits, res.violations, res.lastReplyAfter.Seconds())
		if res.unanswered > 0 {
			fmt.Fprintf(os.Stderr, "%s: %d of %d commands unanswered\n", r.label, res.unanswered, res.commands)
			os.Exit(1)
		}
	}
}

// fight plays the script against bin and measures it.
func fight(bin string, every time.Duration) (result, error) {
	var res result
	fake, err := telegramtest.New(telegramtest.Options{Token: "987654:FIGHT-bench_x", Limits: telegramtest.Production})
	if err != nil {
		return res, err
	}
	defer fake.Close()
	fake.SetAdmins(chat, gm)
	dir, err := os.MkdirTemp("", "zaria-fight-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	addr, err := botproc.FreeAddr()
	if err != nil {
		return res, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := botproc.Start(ctx, bin, dir, []string{
		"ZARIA_TELEGRAM_TOKEN=" + fake.Token(), "ZARIA_TELEGRAM_API=" + fake.URL(),
		"ZARIA_DB=" + filepath.Join(dir, "zaria.db"), "ZARIA_HTTP_LISTEN=" + addr, "ZARIA_LOG_LEVEL=warn",
	})
	if err != nil {
		return res, err
	}
	defer p.Stop(10 * time.Second)

	steps := script()
	ids := make([]int, len(steps))
	pushed := make([]time.Time, len(steps))
	start := time.Now()
	for i, s := range steps {
		time.Sleep(time.Until(start.Add(time.Duration(i) * every)))
		pushed[i] = time.Now()
		ids[i] = fake.Say(chat, s.user, s.name, "es", s.text)
	}
	// Every command answered, then the queue drained (edits follow).
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if missing, _ := fake.Unanswered(); len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(5 * time.Second)
	sent := fake.SentTo(chat)
	var delays []time.Duration
	for i, id := range ids {
		at := slices.IndexFunc(sent, func(m telegramtest.Sent) bool { return m.ReplyTo == id })
		if at < 0 {
			res.unanswered++
			continue
		}
		delays = append(delays, sent[at].At.Sub(pushed[i]))
	}
	res.commands = len(steps)
	slices.Sort(delays)
	if len(delays) > 0 {
		res.median, res.worst = delays[len(delays)/2], delays[len(delays)-1]
	}
	res.messages = len(sent)
	last := time.Time{}
	for _, m := range sent {
		if m.At.After(last) {
			last = m.At
		}
	}
	for _, e := range fake.Edits() {
		if e.Chat == chat {
			res.edits++
			if e.At.After(last) {
				last = e.At
			}
		}
	}
	res.lastReplyAfter = last.Sub(start)
	res.violations = len(fake.Violations())
	if strings.Contains(p.Logs(), "panic") {
		return res, fmt.Errorf("the bot panicked:\n%s", p.Logs())
	}
	return res, nil
}
