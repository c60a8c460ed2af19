package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram"
	"zaria/adapters/telegram/telegramtest"
	"zaria/configs"
	"zaria/storage/sqlite"
)

// tgEvening is a game evening played through the Telegram fake: the real
// adapter and router on a SQLite file, messages and presses as Telegram
// delivers them, the replies as the chat shows them.
type tgEvening struct {
	t    *testing.T
	f    *telegramtest.Server
	chat *tgbotapi.Chat
	// The router's per-user limit (a burst of 5, then one every 2 s) is
	// kept as a player at the table keeps it: each one's next message
	// waits for its token.
	tokens map[int64]float64
	last   map[int64]time.Time
}

// pace waits until u may send again under the router's per-user limit.
func (ev *tgEvening) pace(u telegramtest.User) {
	if ev.tokens == nil {
		ev.tokens, ev.last = map[int64]float64{}, map[int64]time.Time{}
	}
	const burst, perSecond = 5.0, 0.45 // the router's 0.5 a second, with a margin
	tok, ok := ev.tokens[u.ID]
	if !ok {
		tok = burst
	} else {
		tok = min(burst, tok+time.Since(ev.last[u.ID]).Seconds()*perSecond)
	}
	if tok < 1 {
		time.Sleep(time.Duration((1 - tok) / perSecond * float64(time.Second)))
		tok = 1
	}
	ev.tokens[u.ID], ev.last[u.ID] = tok-1, time.Now()
}

func startTGEvening(t *testing.T) *telegramtest.Server {
	t.Helper()
	f, err := telegramtest.New(telegramtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	ctx, cancel := context.WithCancel(context.Background())
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.DiscardHandler)
	router, err := newRouter("es", nil, "", db, logger)
	if err != nil {
		t.Fatal(err)
	}
	cfg := configs.Default()
	cfg.Telegram.Token, cfg.Telegram.APIURL, cfg.Telegram.PollTimeout = f.Token(), f.URL(), time.Second
	// The evening at the pace of a test, not of Telegram's limits
	// (bench/fight measures those).
	cfg.Telegram.Limits = telegram.Limits{ChatInterval: time.Millisecond, GroupLimit: 1000, GroupWindow: time.Millisecond,
		GlobalLimit: 1000, GlobalWindow: time.Millisecond}
	tga, err := telegram.New(telegramConfig(cfg.Telegram), router, db, logger)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- tga.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		db.Close()
	})
	return f
}

// say sends text as u and returns the bot's reply to it.
func (ev *tgEvening) say(u telegramtest.User, text string) telegramtest.Sent {
	ev.t.Helper()
	ev.pace(u)
	from := len(ev.f.SentTo(ev.chat.ID))
	id := ev.f.SayIn(ev.chat, u, text)
	return ev.replyTo(id, from, u.Name+": "+text)
}

// replyTo waits for the bot's first message in reply to message id sent
// after the chat's message number from.
func (ev *tgEvening) replyTo(id, from int, what string) telegramtest.Sent {
	ev.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		sent := ev.f.SentTo(ev.chat.ID)
		for _, s := range sent[min(from, len(sent)):] {
			if s.ReplyTo == id {
				return s
			}
		}
	}
	ev.t.Fatalf("no reply to %s", what)
	return telegramtest.Sent{}
}

// button is the callback data of msg's button whose label starts with label.
func (ev *tgEvening) button(msg telegramtest.Sent, label string) (string, bool) {
	var kb struct {
		Rows [][]struct {
			Text string `json:"text"`
			Data string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if json.Unmarshal([]byte(msg.Params["reply_markup"]), &kb) != nil {
		return "", false
	}
	for _, row := range kb.Rows {
		for _, b := range row {
			if strings.HasPrefix(b.Text, label) {
				return b.Data, true
			}
		}
	}
	return "", false
}

// press presses msg's button label as u and returns the message the bot
// posts for it.
func (ev *tgEvening) press(msg telegramtest.Sent, u telegramtest.User, label string) telegramtest.Sent {
	ev.t.Helper()
	data, ok := ev.button(msg, label)
	if !ok {
		ev.t.Fatalf("no button %q under %q (%s)", label, msg.Visible, msg.Params["reply_markup"])
	}
	ev.pace(u)
	from := len(ev.f.SentTo(ev.chat.ID))
	ev.f.Press(msg, u, data)
	return ev.replyTo(msg.ID, from, u.Name+" pressing "+label)
}

// refused presses msg's button label as u, who may not: the answer is a
// toast for u alone, and nothing is posted.
func (ev *tgEvening) refused(msg telegramtest.Sent, u telegramtest.User, label, want string) {
	ev.t.Helper()
	data, ok := ev.button(msg, label)
	if !ok {
		ev.t.Fatalf("no button %q under %q", label, msg.Visible)
	}
	ev.pace(u)
	sent, toasts := len(ev.f.SentTo(ev.chat.ID)), len(ev.f.CallsOf("answerCallbackQuery"))
	ev.f.Press(msg, u, data)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if calls := ev.f.CallsOf("answerCallbackQuery"); len(calls) > toasts {
			if got := calls[toasts].Params["text"]; !strings.Contains(got, want) {
				ev.t.Errorf("%s pressing %q: toast %q, want %q", u.Name, label, got, want)
			}
			break
		}
		if time.Now().After(deadline) {
			ev.t.Fatalf("%s pressing %q: no answer", u.Name, label)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(ev.f.SentTo(ev.chat.ID)); n != sent {
		ev.t.Errorf("%s's refused press posted %d messages", u.Name, n-sent)
	}
}

func (ev *tgEvening) has(msg telegramtest.Sent, want ...string) {
	ev.t.Helper()
	for _, w := range want {
		if !strings.Contains(msg.Visible, w) {
			ev.t.Fatalf("%q lacks %q", msg.Visible, w)
		}
	}
}

// hitUntilDown has attacker type attack until the foe falls, each hit
// applied by the GM's press of its 🩸, and returns the press that felled
// it. Each hit of an espada larga (penetration 1) does at least 1.
func (ev *tgEvening) hitUntilDown(attacker, gm telegramtest.User, attack, apply, down string) telegramtest.Sent {
	ev.t.Helper()
	for range 12 {
		hit := ev.say(attacker, attack)
		out := ev.press(hit, gm, apply)
		if strings.Contains(out.Visible, down) {
			return out
		}
	}
	ev.t.Fatalf("12 hits of %q and the foe still stands", attack)
	return telegramtest.Sent{}
}

// The Spanish evening of issue 36 replayed through Telegram (a GM and two
// players; Dungeon Hack): characters, a check, and a three-round fight
// joined to the attacks: the GM starts it with no character of her own,
// an attack on the wolf of the turn order by its name carries 🩸, which
// only the GM may press, the wolf falls and its turns are skipped, the
// order is posted again at the bottom, a player leaves, and the end says
// who fell and who left. Every fight command is one message with the
// order under it: no status is edited until the end.
func TestEveningReplaySpanish(t *testing.T) {
	f := startTGEvening(t)
	ev := &tgEvening{t: t, f: f, chat: telegramtest.Group(-3601)}
	gema := telegramtest.User{ID: 3001, Name: "Gema", Lang: "es"}
	ana := telegramtest.User{ID: 3002, Name: "Ana", Lang: "es"}
	bob := telegramtest.User{ID: 3003, Name: "Bob", Lang: "es"}
	f.SetAdmins(ev.chat.ID, gema.ID)

	ev.has(ev.say(ana, "/pj crear Lyra dh"), "Lyra")
	ev.say(ana, "/pj poner arma espada-larga")
	ev.has(ev.say(ana, "/pj poner pv 12/12"), "pv = 12/12")
	ev.say(bob, "/pj crear Drake dh")
	ev.say(bob, "/pj poner armadura pieles")
	ev.say(bob, "/pj poner pv 12/12")
	ev.has(ev.say(ana, "/tirar 1d20+3 vs 12"), "Contra 12")

	ev.has(ev.say(gema, "/iniciativa añadir Lobo 12 pv 10"), "Lobo se une con iniciativa 12")
	ev.say(ana, "/iniciativa 15")
	ev.has(ev.say(bob, "/iniciativa 14"), "15 Lyra · ❤️ 12/12", "14 Drake · ❤️ 12/12", "12 Lobo")
	start := ev.say(gema, "/iniciativa empezar")
	ev.has(start, "🔔 Asalto 1", "▶ Lyra — te toca, Ana", "▶ 15 Lyra")

	// Round 1: Lyra hits the wolf; only the GM applies it.
	hit := ev.say(ana, "/dh ataque contra Lobo")
	ev.has(hit, "vs Lobo")
	ev.refused(hit, ana, "🩸 Aplicar", "Solo el máster puede cambiar la vida de un PNJ")
	ev.has(ev.press(hit, gema, "🩸 Aplicar"), "🩸 Lobo recibe daño.", "⚔️ Iniciativa · asalto 1")
	turn := ev.say(ana, "/iniciativa siguiente")
	ev.has(turn, "▶ Drake — te toca, Bob")
	turn = ev.press(turn, bob, "▶") // Drake waits
	ev.has(turn, "▶ Lobo — le toca")
	// The wolf bites Drake: his player applies it to his sheet.
	bite := ev.say(gema, "/dh ataque 1d6 pen1 contra Drake")
	ev.refused(bite, ana, "🩸 Aplicar", "Solo quien creó el personaje Drake")
	ev.has(ev.press(bite, bob, "🩸 Aplicar"), "❤️ Drake: pv 12 → ")
	ev.has(ev.say(gema, "/iniciativa siguiente"), "🔔 Asalto 2", "▶ Lyra — te toca, Ana")

	// Round 2: Lyra fells the wolf; its turn is skipped.
	ev.has(ev.hitUntilDown(ana, gema, "/dh ataque contra @Lobo", "🩸 Aplicar", "💀 Lobo cae."), "12 Lobo · 💀")
	ev.has(ev.say(ana, "/iniciativa siguiente"), "▶ Drake — te toca, Bob")
	turn = ev.say(bob, "/iniciativa siguiente")
	ev.has(turn, "🔔 Asalto 3", "▶ Lyra — te toca, Ana", "12 Lobo · 💀")

	// Round 3: the order again at the bottom; Drake leaves; the end.
	shown := ev.say(bob, "/iniciativa ver")
	ev.has(shown, "⚔️ Iniciativa · asalto 3", "▶ 15 Lyra")
	if _, ok := ev.button(shown, "▶"); !ok {
		t.Errorf("the order posted again has no ▶")
	}
	ev.has(ev.say(bob, "/iniciativa quitar Drake"), "Drake sale del orden de turnos")
	end := ev.say(gema, "/iniciativa fin")
	ev.has(end, "Fin del combate tras el asalto 3: 3 combatientes; cayeron: Lobo; se fueron: Drake.")
	if strings.Count(end.Visible, "asalto 3") != 1 {
		t.Errorf("the end repeats itself: %q", end.Visible)
	}
	for deadline := time.Now().Add(30 * time.Second); len(f.Edits()) == 0 && time.Now().Before(deadline); {
		time.Sleep(2 * time.Millisecond) // the edit follows the end's message
	}
	if edits := f.Edits(); len(edits) != 1 || edits[0].Markup != "" || !strings.Contains(edits[0].Visible, "· ⏹") {
		t.Errorf("the end's edits %+v, want the live status's buttons gone", edits)
	}
}

// The Greek evening of issue 36 replayed through Telegram: characters, a
// check on the sheet, and a three-round fight in Greek commands: the GM's
// /init έναρξη, an attack by name on the wolf of the order with its 🩸,
// a hit on a character's sheet, the wolf falls and is skipped, /init
// δείξε posts the order again, the end names who fell.
func TestEveningReplayGreek(t *testing.T) {
	f := startTGEvening(t)
	ev := &tgEvening{t: t, f: f, chat: telegramtest.Group(-3602)}
	maria := telegramtest.User{ID: 3101, Name: "Μαρία", Lang: "el"}
	eleni := telegramtest.User{ID: 3102, Name: "Ελένη", Lang: "el"}
	kostas := telegramtest.User{ID: 3103, Name: "Κώστας", Lang: "el"}
	f.SetAdmins(ev.chat.ID, maria.ID)

	ev.has(ev.say(eleni, "/pj δημιουργία Δάφνη"), "Δάφνη")
	ev.has(ev.say(eleni, "/pj όρισε ζωή 10/10 δύναμη 2"), "ζωή = 10/10")
	ev.say(kostas, "/pj δημιουργία Νίκος")
	ev.say(kostas, "/pj όρισε ζωή 12/12")
	ev.has(ev.say(eleni, "/ρίξε 2d6+δύναμη εναντίον 8"), "Εναντίον 8")

	ev.has(ev.say(maria, "/init προσθήκη Λύκος 12 ζωή 10"), "Λύκος")
	ev.say(eleni, "/init 15")
	ev.say(kostas, "/init 14")
	ev.has(ev.say(maria, "/init έναρξη"), "🔔 Γύρος 1", "▶ Δάφνη — σειρά σου, Ελένη")

	// Round 1.
	hit := ev.say(eleni, "/dh επίθεση 1d8 διατρ1 εναντίον Λύκος")
	ev.refused(hit, kostas, "🩸 Να περαστεί", "Μόνο ο GM")
	ev.has(ev.press(hit, maria, "🩸 Να περαστεί"), "🩸 Τραυματίζεται: Λύκος.", "⚔️ Πρωτοβουλία · γύρος 1")
	ev.has(ev.say(eleni, "/init επόμενος"), "▶ Νίκος — σειρά σου, Κώστα")
	ev.has(ev.say(kostas, "/init επόμενος"), "▶ Λύκος — έχει τη σειρά")
	ev.has(ev.say(maria, "/pj @Νίκος ζωή -3"), "Νίκος: ζωή 12 → 9 / 12")
	ev.has(ev.say(maria, "/init επόμενος"), "🔔 Γύρος 2", "▶ Δάφνη", "14 Νίκος · ❤️ 9/12")

	// Round 2: the wolf falls and loses its turn.
	ev.has(ev.hitUntilDown(eleni, maria, "/dh επίθεση 1d8 διατρ1 εναντίον @Λύκος", "🩸 Να περαστεί", "💀 Πέφτει: Λύκος."), "12 Λύκος · 💀")
	ev.say(eleni, "/init επόμενος")
	ev.has(ev.say(kostas, "/init επόμενος"), "🔔 Γύρος 3", "▶ Δάφνη — σειρά σου, Ελένη")

	// Round 3.
	ev.has(ev.say(kostas, "/init δείξε"), "⚔️ Πρωτοβουλία · γύρος 3", "▶ 15 Δάφνη")
	ev.has(ev.say(maria, "/init τέλος"), "Τέλος μάχης στον γύρο 3", "έπεσαν: Λύκος.")
}
