package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/pad"
	"zaria/storage/sqlite"
)

// padRolls are the table pad's buttons of every chat of the pad phase:
// the same commands the typed half sends.
func padRolls() []pad.Button {
	return []pad.Button{{Label: "2d6+3", Command: "/roll 2d6+3"}, {Label: "Zaria", Command: "/zaria 4+2 dc15"}}
}

// padPhase compares a pad press with the same command typed, through the
// real binary: chats whose table pad (padRolls) is seeded through
// storage/sqlite; then, all queued at once, padCommands typed commands
// and as many presses of the buttons with the same commands (callback
// queries "p:<id>", as the pad's inline keyboard sends them), by other
// users of the same chats, and as many presses of unknown buttons (the
// callback's answer alone); then padSeq of each one at a time, for the
// latency without queueing. For each half: the bot's CPU time per command
// (/proc/PID/stat, everything the process does: the update, the router, the
// pad's lookup, the replies and the press's answerCallbackQuery), the
// router's time (zaria_command_seconds, which for a press covers the
// command it runs) and the time from the update queued to its reply
// received.
func padPhase(o options) (bool, error) {
	chats := max(1, o.padChats)
	per := (o.padCommands + chats - 1) / chats
	if per > 20 {
		return false, fmt.Errorf("%d commands in %d chats is %d a chat: at most 20 (5 users × the router's burst of 4 left)", o.padCommands, chats, per)
	}
	fmt.Printf("\n== pad: %d typed commands and %d pad presses of the same rolls from %d group chats, then %d of each one at a time (limits lifted)\n",
		o.padCommands, o.padCommands, chats, o.padSeq)
	dir, cleanup, err := tempDir(o, "pad")
	if err != nil {
		return false, err
	}
	defer cleanup()
	dbPath := filepath.Join(dir, "zaria.db")
	ids, err := seedPads(dbPath, chats)
	if err != nil {
		return false, err
	}
	fake, err := telegramtest.New(telegramtest.Options{Token: "777000:BENCH-token"})
	if err != nil {
		return false, err
	}
	defer fake.Close()
	p, err := bot(o, dir, dbPath, fake, unlimited)
	if err != nil {
		return false, err
	}
	defer p.Kill()
	padChat := func(c int) int64 { return -int64(3_000_000 + c) }
	rolls := padRolls()

	// Warm up: one typed and one press, so both paths are loaded.
	fake.Say(padChat(0), 40_000_000, "Calentamiento", "es", rolls[0].Command)
	fake.Press(telegramtest.Sent{ID: 1, Chat: padChat(0)}, telegramtest.User{ID: 40_000_001, Name: "Calentamiento", Lang: "es"}, "p:"+strconv.FormatInt(ids[0][0], 10))
	if err := waitSent(fake, 2, time.Minute); err != nil {
		return false, err
	}

	nextMsg := 800_000_000 // ids of the pad messages pressed (each press its own, to pair it with its reply)
	pushed := map[[2]int64]time.Time{}
	typed := func(c, user, k int) {
		fake.Say(padChat(c), int64(user), "Jugador"+strconv.Itoa(user), "es", rolls[k%len(rolls)].Command)
	}
	press := func(c, user, k int) {
		nextMsg++
		chat := padChat(c)
		pushed[[2]int64{chat, int64(nextMsg)}] = time.Now()
		fake.Press(telegramtest.Sent{ID: nextMsg, Chat: chat}, telegramtest.User{ID: int64(user), Name: "Jugador" + strconv.Itoa(user), Lang: "es"},
			"p:"+strconv.FormatInt(ids[c][k%len(rolls)], 10))
	}
	batch := func(name string, n int, send func(i int)) (padHalf, error) {
		before, answered := fake.SentCount(), fake.Calls("answerCallbackQuery")
		stale := name == staleName
		m0, _ := p.Scrape()
		cpu0, err := cpuTime(p.PID())
		if err != nil {
			return padHalf{}, err
		}
		start := time.Now()
		for i := range n {
			send(i)
		}
		if stale {
			// Nothing is posted: wait for the callbacks' answers.
			for deadline := time.Now().Add(time.Minute); fake.Calls("answerCallbackQuery") < answered+n; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					return padHalf{}, fmt.Errorf("%s: %d of %d answered", name, fake.Calls("answerCallbackQuery")-answered, n)
				}
			}
		} else if err := waitSent(fake, before+n, 5*time.Minute); err != nil {
			return padHalf{}, fmt.Errorf("%s: %w\n%s", name, err, lastLines(p.Logs(), 20))
		}
		wall := time.Since(start)
		cpu1, err := cpuTime(p.PID())
		if err != nil {
			return padHalf{}, err
		}
		m1, _ := p.Scrape()
		return padHalf{name: name, n: n, wall: wall, cpu: cpu1 - cpu0, sent: fake.Sent()[before:],
			routerN:   m1["zaria_command_seconds_count"] - m0["zaria_command_seconds_count"],
			routerSum: m1["zaria_command_seconds_sum"] - m0["zaria_command_seconds_sum"]}, nil
	}
	// Users: in chat c, 41M+c*20+0..4 type, +5..9 press, +10.. one at a time.
	user := func(c, slot int) int { return 41_000_000 + c*20 + slot }
	// Queued at once, in padRounds alternating chunks (typed, pressed,
	// typed…), so that a change in the machine's load meanwhile weighs on
	// both halves alike.
	halves := []padHalf{{name: "typed"}, {name: "pressed"}, {name: staleName}}
	sends := [3]func(i int){
		func(i int) { c, r := i%chats, i/chats; typed(c, user(c, r%5), r) },
		func(i int) { c, r := i%chats, i/chats; press(c, user(c, 5+r%5), r) },
		func(i int) {
			c := i % chats
			fake.Press(telegramtest.Sent{ID: 1, Chat: padChat(c)}, telegramtest.User{ID: int64(user(c, 19)), Name: "Jugador", Lang: "es"}, "P:0000000000000000")
		},
	}
	const padRounds = 4
	for k := range padRounds {
		lo, hi := o.padCommands*k/padRounds, o.padCommands*(k+1)/padRounds
		for j := range halves {
			got, err := batch(halves[j].name, hi-lo, func(i int) { sends[j](lo + i) })
			if err != nil {
				return false, err
			}
			halves[j].add(got)
		}
	}
	// One at a time, alternating, each by a user of its own (no burst).
	seq := [2]padHalf{{name: "typed, one at a time"}, {name: "pressed, one at a time"}}
	for i := range o.padSeq {
		for j := range 2 {
			c := i % chats
			u := user(c, 10+(i/chats)*2+j)
			one, err := batch(seq[j].name, 1, func(int) {
				if j == 0 {
					typed(c, u, i)
				} else {
					press(c, u, i)
				}
			})
			if err != nil {
				return false, err
			}
			seq[j].add(one)
			seq[j].lat = append(seq[j].lat, one.wall)
		}
	}
	stale := halves[2]
	halves = halves[:2]
	if o.padSeq > 0 {
		halves = append(halves, seq[0], seq[1])
	}
	updates := fake.Updates()
	_, stopErr := p.Stop(15 * time.Second)
	bad := fake.BadRequests()
	good := true
	check := func(ok bool, format string, args ...any) {
		mark := "ok  "
		if !ok {
			mark, good = "FAIL", false
		}
		fmt.Printf("  [%s] %s\n", mark, fmt.Sprintf(format, args...))
	}
	byMsg := map[[2]int64]time.Time{}
	for _, u := range updates {
		byMsg[[2]int64{u.Chat, int64(u.MessageID)}] = u.Pushed
	}
	for k, v := range pushed {
		byMsg[k] = v
	}
	answered := map[string]int{}
	for i := range halves {
		h := &halves[i]
		for _, s := range h.sent {
			if strings.Contains(s.Visible, "🎲") {
				answered[h.name]++
			}
			if t, ok := byMsg[[2]int64{s.Chat, int64(s.ReplyTo)}]; ok && h.lat == nil {
				h.e2e = append(h.e2e, s.At.Sub(t))
			}
		}
		if h.lat != nil {
			h.e2e = h.lat // one at a time: the round trip
		}
		fmt.Printf("  %-23s %5d, %6.2f s in all: bot CPU %.3f ms per command, router %.3f ms per command, queued → reply p50 %s, p99 %s\n",
			h.name+":", h.n, h.wall.Seconds(), perOp(*h), h.routerSum/max(1, h.routerN)*1000,
			quantile(h.e2e, 0.5), quantile(h.e2e, 0.99))
	}
	for _, h := range halves {
		check(len(h.sent) == h.n && answered[h.name] == h.n, "%s: every one answered by its roll (%d of %d)", h.name, answered[h.name], h.n)
	}
	// A press does a little more than the command typed, by design: one
	// indexed read (the button), the presser's character name and the
	// callback's answer (Telegram wants every press answered). The
	// answer's share is measured on its own: presses of a button the bot
	// does not know (stale data), which only answer "no longer works".
	tc, pc, sc := perOp(halves[0]), perOp(halves[1]), perOp(stale)
	fmt.Printf("  %-23s %5d: bot CPU %.3f ms per press (reading the callback and answering it, nothing else)\n", stale.name+":", stale.n, sc)
	check(pc <= (tc+sc)*1.1, "a press costs the bot no more than the same command typed plus answering the callback: CPU %.3f ms vs %.3f + %.3f ms (×%.2f of typed; 10%% allowed for noise)", pc, tc, sc, pc/tc)
	check(len(bad) == 0, "no malformed request (%d)", len(bad))
	check(stopErr == nil, "clean stop")
	return good, nil
}

// add counts chunk x into h.
func (h *padHalf) add(x padHalf) {
	h.n += x.n
	h.wall += x.wall
	h.cpu += x.cpu
	h.sent = append(h.sent, x.sent...)
	h.routerN += x.routerN
	h.routerSum += x.routerSum
}

// staleName is the pad phase's measure of a callback answered and nothing
// else.
const staleName = "stale presses"

// padHalf is one half of the pad phase.
type padHalf struct {
	name string
	n    int
	wall time.Duration
	cpu  time.Duration // the bot's user+system CPU time
	// routerSum and routerN are the sum (s) and count of
	// zaria_command_seconds over the half.
	routerSum, routerN float64
	sent               []telegramtest.Sent
	lat                []time.Duration // one at a time: each round trip
	e2e                []time.Duration
}

func perOp(h padHalf) float64 {
	return float64(h.cpu) / float64(time.Millisecond) / float64(max(1, h.n))
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, max(0, int(math.Ceil(q*float64(len(s))))-1))].Round(10 * time.Microsecond)
}

// waitSent waits until the fake has n messages from the bot.
func waitSent(fake *telegramtest.Server, n int, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return fake.WaitSent(ctx, n)
}

// cpuTime is the user+system CPU time of process pid so far
// (/proc/PID/stat, in clock ticks of 1/100 s, the Linux USER_HZ).
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: count after its ")".
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}

// seedPads gives each of chats chats the table pad padRolls and returns
// the buttons' ids, by chat.
func seedPads(path string, chats int) ([][]int64, error) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	ids := make([][]int64, chats)
	for c := range chats {
		chat := core.ChatRef{Platform: "telegram", ID: strconv.Itoa(-(3_000_000 + c))}
		for _, b := range padRolls() {
			got, err := db.AddPadButton(ctx, chat, "", b, pad.MaxButtons)
			if err != nil {
				return nil, fmt.Errorf("seed pad of chat %d: %w", c, err)
			}
			ids[c] = append(ids[c], got.ID)
		}
	}
	return ids, nil
}
