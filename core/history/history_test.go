package history_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/history"
	"zaria/core/reply"
	"zaria/internal/chattest"
)

func TestHistoryKeepsTheNewestAndPrunes(t *testing.T) {
	h := newHarness(t, chattest.Limits{HistoryKeep: 3, HistoryShow: 2, HistoryShowMax: 5})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	contains(t, h.OK(chatA, ana, false, "/historial"), "No rolls")
	for _, face := range []int{1, 2, 3, 4, 5} {
		h.OK(chatA, ana, false, "/check fuerza", face)
	}
	// Errors and non-roll commands are not logged.
	h.Fails(chatA, ana, false, "/check nada", "no value")
	h.OK(chatA, ana, false, "/pj")

	out := h.OK(chatA, bob, false, "/historial 5")
	contains(t, out, "Last 3 rolls", "Ana: /check fuerza → d20 5 + fuerza 4 = 9", "d20 4", "d20 3")
	lacks(t, out, "d20 2", "d20 1")
	out = h.OK(chatA, bob, false, "/historial")
	contains(t, out, "Last 2 rolls", "d20 5", "d20 4")
	lacks(t, out, "d20 3")
	rolls, err := h.DB.LastRolls(context.Background(), chatA, 10)
	if err != nil || len(rolls) != 3 {
		t.Fatalf("kept %d rolls, %v; want 3", len(rolls), err)
	}
	if rolls[0].Dice[0] != 5 || rolls[0].Sides[0] != 20 || rolls[0].UserID != ana.ID {
		t.Fatalf("newest roll = %+v", rolls[0])
	}
	for _, bad := range []string{"0", "6", "x", "-1"} {
		h.Fails(chatA, ana, false, "/historial "+bad, "/history N with N from 1 to 5")
	}
	contains(t, h.OK(chatB, ana, false, "/historial"), "No rolls")
}

func TestStatsCountsAndTooFew(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	contains(t, h.OK(chatA, ana, false, "/stats"), "No rolls")
	for range 3 {
		h.OK(chatA, ana, false, "/check fuerza", 20)
	}
	h.OK(chatA, bob, false, "/check @Drake fuerza", 1)
	out := h.OK(chatA, bob, false, "/stats")
	contains(t, out, "4 rolls logged", "Ana: 3 rolls", "Bob: 1 roll", "d20: 4 dice, too few to test (I need 100)", "Each face and the chart: /stats detail")
	lacks(t, out, "the face seen least")
	contains(t, h.OK(chatA, bob, false, "/stats detail"), "d20: 4 dice, too few to test (I need 100)",
		"the face seen least: 2, with 0; most: 20, with 3; expected 0.2 per face")
	contains(t, h.OK(chatB, bob, false, "/stats"), "No rolls")
}

// /stats takes no words: "/stats d20" or "/stats blah" is refused, saying
// to type just /stats, where it answered the whole chat's counts as if
// they were the ones asked for.
func TestStatsRefusesWords(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, ana, false, "/check fuerza", 7)
	for _, typed := range []string{"/stats d20 hola", "/stats blah"} {
		out := h.Fails(chatA, ana, false, typed, "/stats takes only «detail» after it", "Type just /stats, or /stats detail.")
		lacks(t, out, "rolls logged")
	}
	// The hint names the command as it was typed (issue 23).
	lacks(t, h.Fails(chatA, ana, false, "/estadisticas ana", "/estadisticas takes only «detail» after it", "Type just /estadisticas, or /estadisticas detail."), "rolls logged")
	h.Fails(chatA, ana, false, "/stats   d20\nhola", "you wrote «d20 hola»")
	h.Fails(chatA, ana, false, "!stats d20", "Type just !stats, or !stats detail.")
	contains(t, h.OK(chatA, ana, false, "/stats  "), "1 roll logged", "Ana: 1 roll")
	for lang, want := range map[string][]string{
		"es": {"/stats solo lleva detrás «detalle» (has escrito «d20»)", "Escribe solo /stats, o /stats detalle."},
		"el": {"Το /stats παίρνει μετά μόνο το «λεπτομέρειες» (έγραψες «d20»)", "Γράψε μόνο /stats ή /stats λεπτομέρειες."},
	} {
		chat := core.ChatRef{Platform: "test", ID: "stats-" + lang}
		if err := h.DB.SaveSettings(context.Background(), chat, core.Settings{Lang: lang}); err != nil {
			t.Fatal(err)
		}
		h.Fails(chat, ana, false, "/stats d20", want...)
	}
}

// observe logs a roll of the given dice directly through the Observer, as
// the router does after a command.
func observe(h *chattest.Harness, chat core.ChatRef, u core.User, sides int, faces []int) {
	sz := make([]int, len(faces))
	for i := range sz {
		sz[i] = sides
	}
	req := &command.Request{Msg: core.Message{Chat: chat, From: u, Text: "/roll"}}
	rep := reply.Text("rolled")
	rep.Command = "/roll"
	rep.Check = &reply.Check{System: "roll", Dice: faces, Sides: sz}
	h.History.Observe(context.Background(), req, rep, 0)
}

func TestStatsFairnessReport(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	// A fair-looking d6: every face 50 times.
	var d6 []int
	for f := 1; f <= 6; f++ {
		for range 50 {
			d6 = append(d6, f)
		}
	}
	observe(h, chatA, ana, 6, d6)
	// A loaded d4: 4 comes up 70 of 100 times.
	var d4 []int
	for i := range 100 {
		if i < 70 {
			d4 = append(d4, 4)
		} else {
			d4 = append(d4, 1+i%3)
		}
	}
	observe(h, chatA, bob, 4, d4)
	// Secret rolls and errors are never logged.
	secret := reply.Text("🤫")
	secret.Check = &reply.Check{Dice: []int{1}, Sides: []int{6}}
	secret.Secret = reply.Text("1")
	h.History.Observe(context.Background(), &command.Request{Msg: core.Message{Chat: chatA, From: ana}}, secret, 0)

	out := h.OK(chatA, ana, false, "/stats detail")
	contains(t, out,
		"2 rolls logged",
		"d4: 100 dice · χ² 108.0 (3 df) · p < 0.001 ⚠️ unusual",
		"1:10 2:10 3:10 4:70 (expected 25.0 per face)",
		"d6: 300 dice · χ² 0.0 (5 df) · p 1.000 ✅ looks fair",
		"1:50 2:50 3:50 4:50 5:50 6:50 (expected 50.0 per face)")
	// In Spanish with a decimal comma.
	if err := h.DB.SaveSettings(context.Background(), chatA, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	contains(t, h.OK(chatA, ana, false, "/estadisticas"), "d4: 100 dados · χ² 108,0 (3 g.l.) · p < 0,001 ⚠️ raro")
}

// The longest history and stats replies fit one message: nothing is cut
// by the router's 3,500-character guard.
func TestHistoryAndStatsFitOneMessage(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	long := core.User{ID: "77", Name: strings.Repeat("Ñ", 60)}
	for i := range 25 {
		req := &command.Request{Msg: core.Message{Chat: chatA, From: long}}
		rep := reply.Text(strings.Repeat("résultat ", 60))
		rep.Command = "/roll " + strings.Repeat("1d6+", 80) + itoa(i)
		sides := 2 + i // 25 die sizes
		rep.Check = &reply.Check{Dice: []int{1, 2}, Sides: []int{sides, sides}}
		h.History.Observe(context.Background(), req, rep, 0)
	}
	out := h.OK(chatA, ana, false, "/historial 20")
	contains(t, out, "Last 20 rolls")
	lacks(t, out, "does not fit")
	if n := strings.Count(out, "\n"); n != 20 {
		t.Fatalf("%d lines", n+1)
	}
	// Past 20, the rolls come as a file (issue 27), up to all the chat keeps.
	contains(t, h.OK(chatA, ana, false, "/historial 21"), "The last 21 rolls, in a file (times in UTC).")
	h.Fails(chatA, ana, false, "/historial 501", "from 1 to 500")
	out = h.OK(chatA, ana, false, "/stats")
	contains(t, out, "…and 15 more die sizes")
	lacks(t, out, "does not fit")
}

// A roll's command as typed is shown by /historial beside the bot's own
// lines: a newline, a bidi override or a control character in it can't
// print a forged line (issue 10), whether it was logged now or stored by
// an older version that kept the text raw.
func TestHistoryCannotForgeALine(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	const forged = "⚠️ The GM has banned you"
	typed := "/roll 1d20 # a\u202eb\u200b\x01\n" + forged + "\r\tx"
	req := &command.Request{Msg: core.Message{Chat: chatA, From: ana, Text: typed}}
	rep := reply.Text("rolled")
	rep.Command = typed
	rep.Check = &reply.Check{System: "roll", Dice: []int{5}, Sides: []int{20}}
	h.History.Observe(context.Background(), req, rep, 0)
	rolls, err := h.DB.LastRolls(context.Background(), chatA, 1)
	if err != nil || len(rolls) != 1 {
		t.Fatalf("LastRolls = %v, %v", rolls, err)
	}
	if got := rolls[0].Command; strings.ContainsAny(got, "\n\r\t\x01\u202e\u200b") {
		t.Errorf("logged command %q keeps a line break or an invisible character", got)
	}
	old := history.Roll{Chat: chatA, UserID: bob.ID, UserName: "Bob", Command: "/roll 1d6\n" + forged + "\u2066",
		Result: "1\n" + forged, Dice: []int{1}, Sides: []int{6}, Time: time.Date(2026, 11, 30, 11, 0, 0, 0, time.UTC)}
	if err := h.DB.AppendRoll(context.Background(), old, 100); err != nil {
		t.Fatal(err)
	}
	out := h.OK(chatA, bob, false, "/historial")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "⚠️ The GM") {
			t.Errorf("/historial printed the forged line:\n%s", out)
		}
	}
	if strings.ContainsAny(out, "\u202e\u200b\u2066\x01\r\t") {
		t.Errorf("/historial keeps an invisible character: %q", out)
	}
	// What the user rolled stays readable on one line.
	contains(t, out, "Ana: /roll 1d20 # ab "+forged+" x")
}
