// Command e2e is the end-to-end load benchmark (make bench-e2e): the real
// zaria binary, as a child process, against the fake Bot API server
// (adapters/telegram/telegramtest) over loopback HTTP.
//
// Four phases, each with a fresh database:
//
//  1. production: N commands from C group chats, the fake enforcing
//     Telegram's flood limits (1/s per chat, 20/min per group, 30/s overall)
//     and the bot running with its production limits. Checks that every
//     command got exactly one reply and that no limit was exceeded.
//  2. capacity: the same load with the limits lifted in both (the bot's via
//     ZARIA_TELEGRAM_LIMITS), all commands queued at once: how many
//     messages per second one process can handle at most.
//  3. memory: a database seeded through storage/sqlite with M chats and K
//     characters, then one command in each of the M chats (limits lifted):
//     peak RSS of the bot.
//  4. pad (padphase.go): chats whose table pad is
//     seeded through storage/sqlite, then the same rolls typed and pressed
//     as pad buttons (callback queries), limits lifted: the bot's CPU time
//     and latency per typed command and per press.
//
// Processing latency inside the bot comes from the bot's own /metrics
// histogram zaria_command_seconds (the router's time per command: parse,
// settings, sheets from SQLite, dice, rendering), which does not contain
// the send queue's deliberate rate-limit waits. End-to-end times measured by
// the fake (update handed out → reply received) are printed beside it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/bench/e2e/botproc"
	"zaria/core"
	"zaria/core/fold"
	"zaria/core/sheet"
	"zaria/core/transfer"
	"zaria/storage/sqlite"
)

type options struct {
	bin                string
	commands, chats    int
	rate               float64
	phases             string
	memChats, memChars int
	keep               bool
	env                string
	// pad phase (padphase.go)
	padCommands, padChats, padSeq int
	// base is the git ref built and run beside bin (compare.go); baseBin
	// a binary already built from it.
	base, baseBin string
	// compare is set while running a phase for a comparison: the memory
	// phase then seeds through the bot's own /importar, which every
	// version reads, instead of this tree's storage/sqlite.
	compare bool
	// profile is the directory where each phase's CPU and heap profiles
	// go (profile.go); label names the run in their file names.
	profile, label string
	profSeconds    int
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/zaria", "the zaria binary")
	flag.IntVar(&o.commands, "commands", 10000, "commands in the load phases")
	flag.IntVar(&o.chats, "chats", 1000, "group chats in the load phases")
	flag.Float64Var(&o.rate, "rate", 0, "commands per second fed in the production phase (0: all at once)")
	flag.StringVar(&o.phases, "phases", "production,capacity,memory,pad", "phases to run")
	flag.IntVar(&o.memChats, "mem-chats", 10000, "chats in the memory phase")
	flag.IntVar(&o.memChars, "mem-characters", 100000, "characters seeded for the memory phase")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary directories")
	flag.StringVar(&o.env, "env", "", "extra environment for the bot, comma-separated (GOGC=50,GODEBUG=gctrace=1)")
	flag.IntVar(&o.padCommands, "pad-commands", 2000, "typed commands, and as many pad presses, in the pad phase")
	flag.IntVar(&o.padChats, "pad-chats", 200, "group chats in the pad phase (at most 20 commands each: the router's per-user burst)")
	flag.IntVar(&o.padSeq, "pad-seq", 100, "typed commands and presses, one at a time, for the pad phase's latency")
	flag.StringVar(&o.base, "base", "", "a git ref to build and run beside -bin, phase by phase, printing each figure with its ratio to it (default phases then: capacity,memory)")
	flag.StringVar(&o.baseBin, "base-bin", "", "with -base: the binary already built from it (skips the build)")
	flag.StringVar(&o.profile, "profile", "", "save each phase's CPU profile (the first -profile-seconds of the load) and heap profile (once answered) into this directory; the bot runs with ZARIA_HTTP_PPROF=true")
	flag.IntVar(&o.profSeconds, "profile-seconds", 10, "with -profile: seconds of CPU profile per phase")
	flag.Parse()
	phasesSet := false
	flag.Visit(func(f *flag.Flag) { phasesSet = phasesSet || f.Name == "phases" })
	if o.base != "" && !phasesSet {
		o.phases = "capacity,memory"
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		fail(err)
	}
	o.bin = bin
	runs := []run{{bin: o.bin}}
	if o.base != "" {
		baseBin, cleanup, err := baseBinary(o)
		if err != nil {
			fail(err)
		}
		defer cleanup()
		runs = []run{{label: "base " + o.base, bin: baseBin}, {label: "this tree", bin: o.bin}}
	}
	ok := true
	var table []phaseFigures
	for _, ph := range strings.Split(o.phases, ",") {
		pf := phaseFigures{phase: ph}
		for _, r := range runs {
			ro := o
			ro.bin, ro.compare, ro.label = r.bin, len(runs) > 1, r.label
			if r.label != "" {
				fmt.Printf("\n-- %s: %s", r.label, r.bin)
			}
			var good bool
			var figs []figure
			var err error
			switch ph {
			case "production":
				good, figs, err = loadPhase(ro, "production", telegramtest.Production, "", o.rate)
			case "capacity":
				good, figs, err = loadPhase(ro, "capacity", telegramtest.Limits{}, unlimited, 0)
			case "memory":
				good, figs, err = memoryPhase(ro)
			case "pad":
				if ro.compare {
					err = errors.New("the pad phase seeds pads through this tree's storage/sqlite, which an older binary cannot read: not with -base")
					break
				}
				good, err = padPhase(ro)
			default:
				err = fmt.Errorf("unknown phase %q", ph)
			}
			if err != nil {
				fail(fmt.Errorf("%s: %w", ph, err))
			}
			ok = ok && good
			pf.runs = append(pf.runs, figs)
		}
		table = append(table, pf)
	}
	if len(runs) > 1 {
		printRatios(os.Stdout, o.base, table)
	}
	if !ok {
		fmt.Println("\nFAIL")
		os.Exit(1)
	}
	fmt.Println("\nPASS")
}

// unlimited lifts the bot's send limits far above anything the run reaches.
const unlimited = "chat=1ns,group=1000000/1s,global=1000000/1s"

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench-e2e:", err)
	os.Exit(2)
}

// command is one message of the load.
type command struct {
	chat, user int64
	text       string
}

// workload: commands spread over chats, 5 users per chat each sending at
// most 5 commands (the router's per-user burst), interleaved across chats.
func workload(commands, chats int) []command {
	rolls := []string{"/roll 2d6+3", "/roll 4d6kh3", "/roll 1d100", "/roll 8d10>=7", "/zaria 4+2 dc15", "/rq 45 -30", "/roll 4d6!", "/daegon 7 d3"}
	perChat := (commands + chats - 1) / chats
	out := make([]command, 0, commands)
	for r := 0; r < perChat && len(out) < commands; r++ {
		for c := 0; c < chats && len(out) < commands; c++ {
			chat := -int64(1_000_000 + c)
			user := int64(10_000_000 + c*5 + r%5)
			text := rolls[(c+r)%len(rolls)]
			if r == 5 && c%2 == 0 { // a write: half the chats create a character
				text = "/pj crear Heroe" + strconv.Itoa(c)
			}
			out = append(out, command{chat, user, text})
		}
	}
	return out
}

// bot starts the binary against the fake with a fresh or given database.
func bot(o options, dir, db string, fake *telegramtest.Server, limits string) (*botproc.Proc, error) {
	addr, err := botproc.FreeAddr()
	if err != nil {
		return nil, err
	}
	env := []string{
		"ZARIA_TELEGRAM_TOKEN=" + fake.Token(),
		"ZARIA_TELEGRAM_API=" + fake.URL(),
		"ZARIA_DB=" + db,
		"ZARIA_HTTP_LISTEN=" + addr,
		"ZARIA_LOG_LEVEL=warn",
	}
	if limits != "" {
		env = append(env, "ZARIA_TELEGRAM_LIMITS="+limits)
	}
	if o.profile != "" {
		env = append(env, "ZARIA_HTTP_PPROF=true")
	}
	if o.env != "" {
		env = append(env, strings.Split(o.env, ",")...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return botproc.Start(ctx, o.bin, dir, env)
}

func tempDir(o options, name string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "zaria-e2e-"+name+"-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() {
		if o.keep {
			fmt.Println("  kept", dir)
			return
		}
		os.RemoveAll(dir)
	}, nil
}

func loadPhase(o options, name string, lim telegramtest.Limits, botLimits string, rate float64) (bool, []figure, error) {
	fmt.Printf("\n== %s: %d commands from %d group chats", name, o.commands, o.chats)
	if lim == telegramtest.Production {
		fmt.Printf(", Telegram's limits enforced by the fake (1/s per chat, 20/min per group, 30/s overall)\n")
	} else {
		fmt.Printf(", limits lifted in the fake and in the bot (%s)\n", botLimits)
	}
	dir, cleanup, err := tempDir(o, name)
	if err != nil {
		return false, nil, err
	}
	defer cleanup()
	fake, err := telegramtest.New(telegramtest.Options{Token: "777000:BENCH-token", Limits: lim})
	if err != nil {
		return false, nil, err
	}
	defer fake.Close()
	p, err := bot(o, dir, filepath.Join(dir, "zaria.db"), fake, botLimits)
	if err != nil {
		return false, nil, err
	}
	defer p.Kill()

	work := workload(o.commands, o.chats)
	cpu0, _ := p.CPU()
	prof := startProfile(o, p, name)
	start := time.Now()
	feedDone := make(chan struct{})
	go func() {
		defer close(feedDone)
		for i, c := range work {
			if rate > 0 {
				if d := time.Until(start.Add(time.Duration(float64(i) / rate * float64(time.Second)))); d > 0 {
					time.Sleep(d)
				}
			}
			fake.Say(c.chat, c.user, "Jugador"+strconv.FormatInt(c.user, 10), "es", c.text)
		}
	}()
	// Progress and peak queue depth while waiting.
	expect := 12*time.Minute + time.Duration(float64(len(work))/25*float64(time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), expect)
	defer cancel()
	var peakQueue float64
	waitErr := make(chan error, 1)
	go func() { waitErr <- fake.WaitSent(ctx, len(work)) }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	lastPrint := time.Now()
wait:
	for {
		select {
		case err := <-waitErr:
			if err != nil {
				fake.Dump(os.Stdout)
				fmt.Println(lastLines(p.Logs(), 20))
				return false, nil, err
			}
			break wait
		case <-p.Done():
			return false, nil, fmt.Errorf("zaria exited: %v\n%s", p.Err(), lastLines(p.Logs(), 30))
		case <-tick.C:
			if m, err := p.Scrape(); err == nil {
				peakQueue = max(peakQueue, m["zaria_telegram_send_queue"])
			}
			if time.Since(lastPrint) >= 30*time.Second {
				lastPrint = time.Now()
				fmt.Printf("  … %d/%d replies after %.0f s\n", fake.SentCount(), len(work), time.Since(start).Seconds())
			}
		}
	}
	elapsed := time.Since(start)
	cpu1, _ := p.CPU()
	<-feedDone
	time.Sleep(1500 * time.Millisecond) // anything answered twice would arrive now
	prof.heap()
	metrics, err := p.Scrape()
	if err != nil {
		return false, nil, err
	}
	hwm, _ := p.Status("VmHWM")
	rss, _ := p.Status("VmRSS")
	stopTook, stopErr := p.Stop(15 * time.Second)

	missing, repeated := fake.Unanswered()
	viol := fake.Violations()
	sent := fake.Sent()
	bad := fake.BadRequests()
	p50, b50 := botproc.Quantile(metrics, "zaria_command_seconds", 0.50)
	p99, b99 := botproc.Quantile(metrics, "zaria_command_seconds", 0.99)
	n := metrics["zaria_command_seconds_count"]
	mean := metrics["zaria_command_seconds_sum"] / n
	e2e := endToEnd(fake, sent)

	fmt.Printf("  commands answered by the router: %.0f (mean %.3f ms)\n", n, mean*1000)
	fmt.Printf("  processing latency inside the bot (zaria_command_seconds): p50 ≈ %.3f ms (bucket ≤ %g ms), p99 ≈ %.3f ms (bucket ≤ %g ms)\n", p50*1000, b50*1000, p99*1000, b99*1000)
	fmt.Printf("  end to end seen by the fake (update handed out → reply received, queueing and rate-limit waits included): p50 %s, p99 %s, max %s\n", e2e[0], e2e[1], e2e[2])
	fmt.Printf("  replies: %d in %.1f s = %.1f messages/s\n", len(sent), elapsed.Seconds(), float64(len(sent))/elapsed.Seconds())
	cpuPer := ms(cpu1-cpu0) / float64(max(len(sent), 1))
	fmt.Printf("  the bot's CPU time: %.1f s, %.3f ms per reply (user + system, every thread)\n", (cpu1 - cpu0).Seconds(), cpuPer)
	fmt.Printf("  peak send queue: %.0f; 429s received by the bot: %.0f\n", peakQueue, metrics["zaria_telegram_429_total"])
	fmt.Printf("  memory: peak RSS (VmHWM) %.1f MB, RSS at the end %.1f MB\n", float64(hwm)/1024, float64(rss)/1024)
	fmt.Printf("  SIGTERM → exit in %s\n", stopTook.Round(time.Millisecond))

	good := true
	check := func(ok bool, format string, args ...any) {
		mark := "ok  "
		if !ok {
			mark, good = "FAIL", false
		}
		fmt.Printf("  [%s] %s\n", mark, fmt.Sprintf(format, args...))
	}
	check(len(missing) == 0 && len(repeated) == 0 && len(sent) == len(work),
		"every command got exactly one reply (%d commands, %d replies, %d unanswered, %d answered more than once)", len(work), len(sent), len(missing), len(repeated))
	check(len(viol) == 0, "no flood limit exceeded (%d sends refused by the fake)", len(viol))
	check(len(bad) == 0, "no malformed request (%d)", len(bad))
	check(b99 <= 0.005, "p99 processing < 5 ms")
	check(stopErr == nil, "clean stop")
	figs := []figure{
		{name: "replies/s", v: float64(len(sent)) / elapsed.Seconds(), higher: true},
		{name: "bot CPU per reply, ms", v: cpuPer},
		{name: "router mean, ms", v: mean * 1000},
		{name: "processing p50 in the bot, ms", v: p50 * 1000},
		{name: "processing p99 in the bot, ms", v: p99 * 1000},
		{name: "end to end p50, ms", v: ms(e2e[0])},
		{name: "end to end p99, ms", v: ms(e2e[1])},
		{name: "peak RSS, MB", v: float64(hwm) / 1024},
	}
	return good, figs, nil
}

// endToEnd returns p50, p99 and max of reply.At − update.Delivered.
func endToEnd(fake *telegramtest.Server, sent []telegramtest.Sent) [3]time.Duration {
	byMsg := map[[2]int64]time.Time{}
	for _, u := range fake.Updates() {
		byMsg[[2]int64{u.Chat, int64(u.MessageID)}] = u.Delivered
	}
	var ds []time.Duration
	for _, s := range sent {
		if d, ok := byMsg[[2]int64{s.Chat, int64(s.ReplyTo)}]; ok && !d.IsZero() {
			ds = append(ds, s.At.Sub(d))
		}
	}
	if len(ds) == 0 {
		return [3]time.Duration{}
	}
	slices.Sort(ds)
	q := func(f float64) time.Duration {
		return ds[min(len(ds)-1, int(math.Ceil(f*float64(len(ds))))-1)].Round(10 * time.Microsecond)
	}
	return [3]time.Duration{q(0.5), q(0.99), ds[len(ds)-1].Round(10 * time.Microsecond)}
}

func memoryPhase(o options) (bool, []figure, error) {
	fmt.Printf("\n== memory: %d chats and %d characters in the database, one command in each chat (limits lifted)\n", o.memChats, o.memChars)
	dir, cleanup, err := tempDir(o, "memory")
	if err != nil {
		return false, nil, err
	}
	defer cleanup()
	dbPath := filepath.Join(dir, "zaria.db")
	fake, err := telegramtest.New(telegramtest.Options{Token: "777000:BENCH-token"})
	if err != nil {
		return false, nil, err
	}
	defer fake.Close()
	t0 := time.Now()
	refused := 0
	if o.compare {
		// Each binary writes its own schema: the chats come in through its
		// own /importar (an export of version 1, which every version
		// reads), from a bot process of their own that then stops.
		if refused, err = seedByImport(o, fake, dir, dbPath); err != nil {
			return false, nil, err
		}
	} else if err := seed(dbPath, o.memChats, o.memChars); err != nil {
		return false, nil, err
	}
	fi, _ := os.Stat(dbPath)
	how := "through storage/sqlite"
	if o.compare {
		how = "through the bot's /importar"
	}
	fmt.Printf("  seeded %s in %.1f s (%.1f MB file)\n", how, time.Since(t0).Seconds(), float64(fi.Size())/(1<<20))

	p, err := bot(o, dir, dbPath, fake, unlimited)
	if err != nil {
		return false, nil, err
	}
	defer p.Kill()
	before := fake.SentCount()
	idle, _ := p.Status("VmRSS")
	cpu0, _ := p.CPU()
	prof := startProfile(o, p, "memory")
	start := time.Now()
	for c := 0; c < o.memChats; c++ {
		// The owner of the chat's first character rolls with its sheet.
		fake.Say(-int64(2_000_000+c), int64(20_000_000+c), "Jugador", "es", "/roll 1d20+fuerza")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := fake.WaitSent(ctx, before+o.memChats); err != nil {
		fmt.Println(lastLines(p.Logs(), 20))
		return false, nil, err
	}
	elapsed := time.Since(start)
	cpu1, _ := p.CPU()
	time.Sleep(time.Second)
	hwm, _ := p.Status("VmHWM")
	rss, _ := p.Status("VmRSS")
	prof.heap() // after the RSS figures: its forced GC and the CPU profile's wait do not count
	_, stopErr := p.Stop(15 * time.Second)
	missing, repeated := fake.Unanswered()
	usedSheet := 0
	for _, s := range fake.Sent()[before:] {
		// A roll that read the sheet names the value and is no warning
		// (every version starts a warning with ⚠️).
		if strings.Contains(strings.ToLower(s.Visible), "fuerza") && !strings.HasPrefix(s.Visible, "⚠️") {
			usedSheet++
		}
	}
	rolled := fake.SentCount() - before
	cpuPer := ms(cpu1-cpu0) / float64(max(rolled, 1))
	fmt.Printf("  %d replies in %.1f s (%.0f messages/s); %d of them read a character sheet\n", rolled, elapsed.Seconds(), float64(rolled)/elapsed.Seconds(), usedSheet)
	fmt.Printf("  the bot's CPU time: %.1f s, %.3f ms per reply (user + system, every thread)\n", (cpu1 - cpu0).Seconds(), cpuPer)
	fmt.Printf("  memory: RSS after start %.1f MB, peak RSS (VmHWM) %.1f MB, RSS at the end %.1f MB\n", float64(idle)/1024, float64(hwm)/1024, float64(rss)/1024)
	if strings.Contains(o.env, "gctrace") {
		fmt.Println(lastLines(p.Logs(), 5))
	}
	good := true
	check := func(ok bool, format string, args ...any) {
		mark := "ok  "
		if !ok {
			mark, good = "FAIL", false
		}
		fmt.Printf("  [%s] %s\n", mark, fmt.Sprintf(format, args...))
	}
	if o.compare {
		check(refused == 0, "every chat imported (%d imports refused)", refused)
	}
	check(len(missing) == 0 && len(repeated) == 0, "every command got exactly one reply (%d unanswered, %d more than once)", len(missing), len(repeated))
	check(usedSheet == o.memChats, "every roll read the roller's sheet (%d of %d)", usedSheet, o.memChats)
	check(hwm < 60*1024, "peak RSS < 60 MB at %d chats", o.memChats)
	check(stopErr == nil, "clean stop")
	figs := []figure{
		{name: "replies/s", v: float64(rolled) / elapsed.Seconds(), higher: true},
		{name: "bot CPU per reply, ms", v: cpuPer},
		{name: "RSS after start, MB", v: float64(idle) / 1024},
		{name: "peak RSS, MB", v: float64(hwm) / 1024},
		{name: "RSS at the end, MB", v: float64(rss) / 1024},
	}
	return good, figs, nil
}

// seed fills a database with chats chats and chars characters spread over
// them (seedChat), through this tree's storage/sqlite.
func seed(path string, chats, chars int) error {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	now := time.Now()
	for c := 0; c < chats; c++ {
		d := seedChat(c, chats, chars, now)
		if _, err := db.ReplaceChat(ctx, core.ChatRef{Platform: "telegram", ID: strconv.Itoa(-(2_000_000 + c))}, sourceOf(ctx, d), true); err != nil {
			return fmt.Errorf("seed chat %d: %w", c, err)
		}
	}
	return nil
}

// seedChat is chat c's share of chars characters over chats chats, each
// with a few values; the first belongs to user 20000000+c and is their
// active one.
func seedChat(c, chats, chars int, now time.Time) transfer.ChatData {
	names := []string{"Fuerza", "Destreza", "Constitución", "Inteligencia", "Sabiduría", "Carisma"}
	n := chars / chats
	if c < chars%chats {
		n++
	}
	d := transfer.ChatData{Settings: core.Settings{Lang: "es", Options: map[string]string{}}}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("Personaje-%d-%d", c, i) // one word: /importar checks names as /pj does
		owner := strconv.Itoa(20_000_000 + c)
		if i > 0 {
			owner = strconv.Itoa(30_000_000 + c*100 + i)
		}
		ch := sheet.Character{
			Owner: owner, OwnerName: "Jugador", Name: name, Key: sheet.NameKey(name), System: "zaria",
			Active: true, Created: now, Updated: now,
		}
		for j, v := range names {
			ch.Values = append(ch.Values, sheet.Value{Name: v, Key: fold.Key(v), Text: strconv.Itoa((c+i+j)%5 + 1)})
		}
		d.Characters = append(d.Characters, ch)
	}
	return d
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// sourceOf is an /importar Source of data already checked.
func sourceOf(ctx context.Context, d transfer.ChatData) *transfer.Source {
	src, _ := transfer.NewSource(ctx, len(d.Characters), func(send func(sheet.Character) error) (transfer.ChatData, error) {
		for _, c := range d.Characters {
			if err := send(c); err != nil {
				return transfer.ChatData{}, err
			}
		}
		return transfer.ChatData{Settings: d.Settings, Pads: d.Pads}, nil
	})
	return src
}
