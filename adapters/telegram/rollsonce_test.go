package telegram

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/i18n"
	"zaria/storage/memory"
)

// TestPollingHoldsRepliesUntilKept: while the journal cannot be written
// (a full disk, a database locked), a polled command's reply is held back,
// not sent unrecorded, and the updates are not confirmed; once a write
// works the reply goes out, once, with the roll rolled the first time.
func TestPollingHoldsRepliesUntilKept(t *testing.T) {
	f := newFakeAPI(t)
	st := &failingState{memState: newMemState()}
	st.fail.Store(true)
	start(t, testConfig(f), testRouter(t), st)
	f.SayIn(telegramtest.Group(-720), ana, "/roll 1d6")
	time.Sleep(time.Second)
	if n := len(f.SentTo(-720)); n != 0 {
		t.Fatalf("%d replies sent while the journal could not be written", n)
	}
	st.fail.Store(false)
	got := f.waitSent(-720, 1, 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	if got = f.SentTo(-720); len(got) != 1 {
		t.Fatalf("%d replies once the journal was written, want 1: %+v", len(got), got)
	}
	if !strings.HasSuffix(got[0].Visible, "= 1") {
		t.Errorf("the command was rolled again (the first roll of the run gives 1): %q", got[0].Visible)
	}
}

// TestPollingAnswersThroughALongJournalFailure: a journal that stays
// unwritable (a full disk) holds a polled reply for holdUnkept only, then
// the reply goes out, once, with its first roll, and the log says once
// that replies go out unrecorded; while that lasts a command is answered
// at once, not held again; once a write works the log says so, once.
func TestPollingAnswersThroughALongJournalFailure(t *testing.T) {
	f := newFakeAPI(t)
	st := &failingState{memState: newMemState()}
	st.fail.Store(true)
	r := start(t, testConfig(f), testRouter(t), st)
	f.SayIn(telegramtest.Group(-721), ana, "/roll 1d6")
	time.Sleep(holdUnkept - time.Second)
	if n := len(f.SentTo(-721)); n != 0 {
		t.Fatalf("%d replies sent within %s of a journal failure, want them held", n, holdUnkept-time.Second)
	}
	got := f.waitSent(-721, 1, 5*time.Second)
	if !strings.HasSuffix(got[0].Visible, "= 1") {
		t.Errorf("the held command was rolled again (the first roll of the run gives 1): %q", got[0].Visible)
	}
	asked := time.Now()
	f.SayIn(telegramtest.Group(-721), ana, "/roll 1d6")
	f.waitSent(-721, 2, 5*time.Second)
	if d := time.Since(asked); d >= holdUnkept {
		t.Errorf("a command during the same failure answered after %s: held again", d)
	}
	const unrecorded = "replies are sent unrecorded"
	if n := strings.Count(r.logs.String(), unrecorded); n != 1 {
		t.Errorf("%d log lines saying replies go out unrecorded, want 1:\n%s", n, r.logs)
	}
	st.fail.Store(false)
	f.SayIn(telegramtest.Group(-721), ana, "/roll 1d6")
	f.waitSent(-721, 3, 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	if got := f.SentTo(-721); len(got) != 3 {
		t.Errorf("%d replies to 3 commands: %+v", len(got), got)
	}
	logs := r.logs.String()
	if n := strings.Count(logs, "replies are recorded before they are sent"); n != 1 {
		t.Errorf("%d log lines saying the journal works again, want 1:\n%s", n, logs)
	}
	if n := strings.Count(logs, unrecorded); n != 1 {
		t.Errorf("%d log lines saying replies go out unrecorded, want 1", n)
	}
}

// markFailingState fails, while fail is set, every write that marks an
// update's replies all sent (its record without ops), as a disk that
// refuses writes after the replies were recorded would.
type markFailingState struct {
	*memState
	fail atomic.Bool
}

func (s *markFailingState) WriteStates(ctx context.Context, set map[string]string, del []string) error {
	if s.fail.Load() {
		for k, v := range set {
			if strings.Contains(k, ".u.") && !strings.Contains(v, `"o":`) {
				return errors.New("disk I/O error")
			}
		}
	}
	return s.memState.WriteStates(ctx, set, del)
}

// TestSendWaitsForTheMarkThroughAWriteFailure: a chat's next reply
// leaves only once the one before is marked sent in the journal, also
// when that write fails for a while (it is written again): otherwise a
// crash then would send both again, two replies of one chat for one
// kill. Two commands recorded together; the first reply's mark cannot
// be written for a second: the second reply waits, then goes once.
func TestSendWaitsForTheMarkThroughAWriteFailure(t *testing.T) {
	f := newFakeAPI(t)
	st := &markFailingState{memState: newMemState()}
	st.fail.Store(true)
	f.SayIn(telegramtest.Group(-723), ana, "/roll 1d6")
	f.SayIn(telegramtest.Group(-723), ana, "/roll 1d6")
	start(t, testConfig(f), testRouter(t), st)
	f.waitSent(-723, 1, 5*time.Second)
	time.Sleep(time.Second)
	if got := f.SentTo(-723); len(got) != 1 {
		t.Fatalf("%d replies sent while the first one's mark could not be written, want 1: %+v", len(got), got)
	}
	st.fail.Store(false)
	f.waitSent(-723, 2, 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	if got := f.SentTo(-723); len(got) != 2 || got[0].ReplyTo == got[1].ReplyTo {
		t.Errorf("want each command answered once, got %+v", got)
	}
}

// Environment of the bot process TestKilledRollsOnce starts (this test
// binary again, running TestRollsChild).
const (
	envRollsAPI  = "ZARIA_TG_ROLLS_API"
	envRollsDB   = "ZARIA_TG_ROLLS_DB"
	envRollsHook = "ZARIA_TG_ROLLS_HOOK"
)

// TestKilledRollsOnce: the bot, a process of its own, answers random rolls
// (a new 40-bit number each time it rolls) from many chats while Telegram
// answers some sends 429, and is killed with SIGKILL five times
// mid-stream, then started again on the same database. No command is
// lost; a command answered twice (the kill fell between Telegram's OK and
// the journal's mark) shows the same roll both times, never two; at most
// one command per chat is doubled per kill (the run a copy belongs to is
// told by when each process began, since Telegram may read a request of
// the killed process after the kill), and a copy comes right after the
// first, nothing of the chat between. Long polling, and webhook
// (the test delivers each update until it is answered 200, as Telegram
// does, also to the next process).
func TestKilledRollsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for _, mode := range []string{"polling", "webhook"} {
		t.Run(mode, func(t *testing.T) { testKilledRollsOnce(t, mode == "webhook") })
	}
}

func testKilledRollsOnce(t *testing.T, webhook bool) {
	const chats, per, kills = 40, 4, 5
	f := newFakeAPI(t)
	dir := t.TempDir()
	hook := ""
	if webhook {
		hook = freePort(t)
	}
	var (
		mu    sync.Mutex
		child *exec.Cmd
		runs  int
	)
	spawn := func() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRollsChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), envRollsAPI+"="+f.URL(), envRollsDB+"="+filepath.Join(dir, "zaria.db"), envRollsHook+"="+hook)
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		out, err := os.Create(filepath.Join(dir, fmt.Sprintf("child%d.log", runs)))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		child, runs = cmd, runs+1
		mu.Unlock()
	}
	kill := func() {
		mu.Lock()
		defer mu.Unlock()
		_ = child.Process.Signal(syscall.SIGKILL)
		_ = child.Wait()
	}
	spawn()
	t.Cleanup(kill)

	// The commands: message ids are the chat's replies' reply_to.
	type cmdRef struct {
		chat int64
		msg  int
	}
	var cmds []cmdRef
	f.Inject("sendMessage", telegramtest.Fault{Code: 429, RetryAfter: 1, Description: "Too Many Requests: retry after 1"},
		telegramtest.Fault{Code: 429, RetryAfter: 1, Description: "Too Many Requests: retry after 1"})
	if !webhook {
		for i := range per {
			for c := range chats {
				chat := int64(-900 - c)
				cmds = append(cmds, cmdRef{chat, f.SayIn(telegramtest.Group(chat), ana, "/roll "+strconv.Itoa(i))})
			}
		}
	} else {
		// Telegram's part: each update delivered until answered 200, ten
		// at a time, in order per chat.
		secret := "s3cret-Token_1"
		var wg sync.WaitGroup
		deliver := func(u tgbotapi.Update) {
			body, _ := json.Marshal(u)
			for {
				req, _ := http.NewRequest("POST", "http://"+hook+"/tg/hook", strings.NewReader(string(body)))
				req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					resp.Body.Close()
					if resp.StatusCode == http.StatusOK {
						return
					}
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		id := 7000
		for c := range 10 {
			var mine []tgbotapi.Update
			for i := range per {
				for cc := c; cc < chats; cc += 10 {
					id++
					chat := int64(-900 - cc)
					cmds = append(cmds, cmdRef{chat, id})
					mine = append(mine, tgbotapi.Update{UpdateID: id, Message: &tgbotapi.Message{MessageID: id, From: ana.API(),
						Chat: telegramtest.Group(chat), Date: int(time.Now().Unix()), Text: "/roll " + strconv.Itoa(i)}})
				}
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, u := range mine {
					deliver(u)
				}
			}()
		}
		t.Cleanup(wg.Wait)
	}
	total := len(cmds)
	// Killed at random moments, each after a few more replies, with a
	// couple of 429s waiting for each run.
	var atKill []int
	var killedAt []time.Time
	for k := 0; k < kills; k++ {
		before := len(f.Sent())
		step := 10 + rng.IntN(20)
		until := time.Now().Add(30 * time.Second)
		for len(f.Sent()) < before+step && len(f.Sent()) < total && time.Now().Before(until) {
			time.Sleep(time.Millisecond)
		}
		if len(f.Sent()) >= total {
			break
		}
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		kill()
		killedAt = append(killedAt, time.Now())
		atKill = append(atKill, len(f.Sent()))
		f.Inject("sendMessage", telegramtest.Fault{Code: 429, RetryAfter: 1, Description: "Too Many Requests: retry after 1"},
			telegramtest.Fault{Code: 429, RetryAfter: 1, Description: "Too Many Requests: retry after 1"})
		spawn()
	}
	answered := func() int {
		by := map[cmdRef]bool{}
		for _, s := range f.Sent() {
			by[cmdRef{s.Chat, s.ReplyTo}] = true
		}
		n := 0
		for _, c := range cmds {
			if by[c] {
				n++
			}
		}
		return n
	}
	for deadline := time.Now().Add(60 * time.Second); answered() < total && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // a second answer would come now
	replies := map[cmdRef][]telegramtest.Sent{}
	for _, s := range f.Sent() {
		replies[cmdRef{s.Chat, s.ReplyTo}] = append(replies[cmdRef{s.Chat, s.ReplyTo}], s)
	}
	// A copy sent again belongs to the run that sent it: the kill before
	// it cut the first copy's mark. Per chat and run, at most one. The
	// run is told by when each process began (its getMe), not by the
	// kill: a request the killed process had written is often read by
	// Telegram after the kill (on this loaded machine, several per kill),
	// and belongs to the run before.
	var began []time.Time
	for _, k := range killedAt {
		for _, c := range f.CallsOf("getMe") {
			if c.At.After(k) {
				began = append(began, c.At)
				break
			}
		}
	}
	runOf := func(at time.Time) int {
		run := 0
		for _, b := range began {
			if b.Before(at) {
				run++
			}
		}
		return run
	}
	late := 0
	for _, s := range f.Sent() {
		for i, k := range killedAt {
			if s.At.After(k) && (i >= len(began) || s.At.Before(began[i])) {
				late++
			}
		}
	}
	type chatRun struct {
		chat int64
		run  int
	}
	lost, doubled, differ := 0, 0, 0
	perRun := map[chatRun]int{}
	// What counting by the kills' times would say (logged): a late read
	// of a copy sent again makes a chat look resent twice by one run.
	byKill := map[chatRun]int{}
	killsBefore := func(at time.Time) int {
		n := 0
		for _, k := range killedAt {
			if k.Before(at) {
				n++
			}
		}
		return n
	}
	perChat := map[int64]int{}
	for _, c := range cmds {
		rs := replies[c]
		if len(rs) == 0 {
			lost++
			continue
		}
		if len(rs) > 1 {
			doubled++
			perChat[c.chat]++
		}
		for _, r := range rs[1:] {
			perRun[chatRun{c.chat, runOf(r.At)}]++
			byKill[chatRun{c.chat, killsBefore(r.At)}]++
			if r.Visible != rs[0].Visible {
				differ++
				t.Errorf("chat %d, command %d: two results, %q and %q", c.chat, c.msg, rs[0].Visible, r.Visible)
			}
		}
	}
	most := 0
	for _, n := range perChat {
		most = max(most, n)
	}
	misread := 0
	for _, n := range byKill {
		if n > 1 {
			misread++
		}
	}
	mostRun := 0
	for cr, n := range perRun {
		mostRun = max(mostRun, n)
		if n > 1 {
			t.Errorf("chat %d: %d replies sent again by run %d, want at most the one in flight at the kill:\n%s%s", cr.chat, n, cr.run, chatStory(f.SentTo(cr.chat), killedAt, began), retriesIn(dir, cr.chat))
		}
	}
	// The one in flight at a kill is the chat's last message, and the next
	// run sends it first: a reply sent again follows a copy of itself,
	// nothing of the chat between (whoever sent it).
	for chat := range perChat {
		seen := map[int]bool{}
		sent := f.SentTo(chat)
		for i, s := range sent {
			if seen[s.ReplyTo] && sent[i-1].ReplyTo != s.ReplyTo {
				t.Errorf("chat %d: command %d answered again after another command's reply, want only the one in flight at a kill:\n%s", chat, s.ReplyTo, chatStory(sent, killedAt, began))
			}
			seen[s.ReplyTo] = true
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d commands never answered", lost, total)
	}
	t.Logf("%d commands from %d chats, killed %d times (replies sent at each kill: %v; %d read by Telegram after their process was killed, making %d chats look resent twice by one run when counted by the kills' times): %d lost, %d answered twice (%d with two results; at most %d in one chat over all kills, %d per chat per kill), %d runs",
		total, chats, len(atKill), atKill, late, misread, lost, doubled, differ, most, mostRun, runs)
}

// retriesIn is what the bot processes logged of the chat's sends retried
// (a send whose answer timed out may have reached Telegram).
func retriesIn(dir string, chat int64) string {
	logs, _ := filepath.Glob(filepath.Join(dir, "child*.log"))
	var b strings.Builder
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "chat="+strconv.FormatInt(chat, 10)) && strings.Contains(line, "retrying") {
				fmt.Fprintf(&b, "  %s: %s\n", filepath.Base(l), line)
			}
		}
	}
	return b.String()
}

// chatStory is a chat's replies in the order Telegram got them, with the
// kills and the restarts (a failure's explanation).
func chatStory(sent []telegramtest.Sent, killedAt, began []time.Time) string {
	type line struct {
		at   time.Time
		text string
	}
	var ls []line
	for _, s := range sent {
		ls = append(ls, line{s.At, fmt.Sprintf("reply to %d: %s", s.ReplyTo, s.Visible)})
	}
	for i, k := range killedAt {
		ls = append(ls, line{k, fmt.Sprintf("kill %d", i+1)})
	}
	for i, b := range began {
		ls = append(ls, line{b, fmt.Sprintf("run %d began", i+1)})
	}
	slices.SortStableFunc(ls, func(a, b line) int { return a.at.Compare(b.at) })
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, "  %s %s\n", l.at.Format("15:04:05.000"), l.text)
	}
	return b.String()
}

// TestRollsChild is the bot process of TestKilledRollsOnce: its /roll
// rolls a random 40-bit number.
func TestRollsChild(t *testing.T) {
	api := os.Getenv(envRollsAPI)
	if api == "" {
		t.Skip("run by TestKilledRollsOnce")
	}
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), DefaultLang: "es",
		Limits: command.Limits{Burst: 1_000_000, Refill: time.Millisecond}})
	r.Register(command.Command{Name: "roll", Roll: true, Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			var b [8]byte
			_, _ = crand.Read(b[:])
			n := binary.BigEndian.Uint64(b[:]) >> 24
			return (&reply.Reply{}).Add(reply.T("🎲 "+req.Args+" = "), reply.B(strconv.FormatUint(n, 10))), nil
		})})
	db := openDB(t, os.Getenv(envRollsDB))
	// RequestTimeout is the default (20 s): a send that times out is sent
	// again, and on this loaded machine the fake may answer a send later
	// than 2 s after Telegram got it, a double that no kill made.
	cfg := Config{Token: fakeToken, APIURL: api, PollTimeout: time.Second, RequestTimeout: 20 * time.Second,
		Limits:     Limits{ChatInterval: 5 * time.Millisecond, GroupLimit: 1000, GroupWindow: time.Millisecond},
		BackoffMin: 10 * time.Millisecond, BackoffMax: 50 * time.Millisecond}
	if hook := os.Getenv(envRollsHook); hook != "" {
		cfg.WebhookListen, cfg.WebhookURL, cfg.WebhookSecret = hook, "http://"+hook+"/tg/hook", "s3cret-Token_1"
	}
	a, err := New(cfg, r, db, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	if err != nil {
		t.Fatal(err)
	}
	_ = a.Run(context.Background()) // until killed
}

// TestPagePostNotKeptNotSent: a roll posted from the web page while the
// journal cannot be written is refused (the page says it was not posted)
// and nothing reaches the chat; once writes work, a post goes out once.
func TestPagePostNotKeptNotSent(t *testing.T) {
	f := newFakeAPI(t)
	st := &failingState{memState: newMemState()}
	r := start(t, testConfig(f), testRouter(t), st)
	<-r.a.web.started
	msg := core.Message{Chat: core.ChatRef{Platform: "telegram", ID: "-730"}, From: core.User{ID: "501", Name: "Ana"}}
	st.fail.Store(true)
	if err := r.a.Post(context.Background(), msg, reply.Text("🎲 1d20 = 17")); err == nil {
		t.Error("a post the journal could not keep was accepted")
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(f.SentTo(-730)); n != 0 {
		t.Fatalf("%d messages sent for a post not kept", n)
	}
	st.fail.Store(false)
	if err := r.a.Post(context.Background(), msg, reply.Text("🎲 1d20 = 4")); err != nil {
		t.Fatal(err)
	}
	f.waitSent(-730, 1, 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	if got := f.SentTo(-730); len(got) != 1 || got[0].Visible != "🎲 1d20 = 4" {
		t.Errorf("sent %+v, want the second post once", got)
	}
}
