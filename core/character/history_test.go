package character_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/character"
	"zaria/core/command"
	"zaria/core/reply"
)

func TestHistoryKeepsTheNewestAndPrunes(t *testing.T) {
	h := newHarness(t, character.Limits{HistoryKeep: 3, HistoryShow: 2, HistoryShowMax: 5})
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	contains(t, h.ok(chatA, ana, false, "/historial"), "No rolls")
	for _, face := range []int{1, 2, 3, 4, 5} {
		h.ok(chatA, ana, false, "/check fuerza", face)
	}
	// Errors and non-roll commands are not logged.
	h.fails(chatA, ana, false, "/check nada", "no value")
	h.ok(chatA, ana, false, "/pj")

	out := h.ok(chatA, bob, false, "/historial 5")
	contains(t, out, "Last 3 rolls", "Ana: /check fuerza → d20 5 + fuerza 4 = 9", "d20 4", "d20 3")
	lacks(t, out, "d20 2", "d20 1")
	out = h.ok(chatA, bob, false, "/historial")
	contains(t, out, "Last 2 rolls", "d20 5", "d20 4")
	lacks(t, out, "d20 3")
	rolls, err := h.db.LastRolls(context.Background(), chatA, 10)
	if err != nil || len(rolls) != 3 {
		t.Fatalf("kept %d rolls, %v; want 3", len(rolls), err)
	}
	if rolls[0].Dice[0] != 5 || rolls[0].Sides[0] != 20 || rolls[0].UserID != ana.ID {
		t.Fatalf("newest roll = %+v", rolls[0])
	}
	for _, bad := range []string{"0", "6", "x", "-1"} {
		h.fails(chatA, ana, false, "/historial "+bad, "/history N with N from 1 to 5")
	}
	contains(t, h.ok(chatB, ana, false, "/historial"), "No rolls")
}

func TestStatsCountsAndTooFew(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	contains(t, h.ok(chatA, ana, false, "/stats"), "No rolls")
	for range 3 {
		h.ok(chatA, ana, false, "/check fuerza", 20)
	}
	h.ok(chatA, bob, false, "/check @Drake fuerza", 1)
	out := h.ok(chatA, bob, false, "/stats")
	contains(t, out, "4 rolls logged", "Ana: 3 rolls", "Bob: 1 roll", "d20: 4 dice, too few to test (I need 100)",
		"least: 2 (0×), most: 20 (3×), expected 0.2 each")
	contains(t, h.ok(chatB, bob, false, "/stats"), "No rolls")
}

// observe logs a roll of the given dice directly through the Observer, as
// the router does after a command.
func observe(h *harness, chat core.ChatRef, u core.User, sides int, faces []int) {
	sz := make([]int, len(faces))
	for i := range sz {
		sz[i] = sides
	}
	req := &command.Request{Msg: core.Message{Chat: chat, From: u, Text: "/roll"}}
	rep := reply.Text("rolled")
	rep.Command = "/roll"
	rep.Check = &reply.Check{System: "roll", Dice: faces, Sides: sz}
	h.svc.Observe(context.Background(), req, rep, 0)
}

func TestStatsFairnessReport(t *testing.T) {
	h := newHarness(t, character.Limits{})
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
	h.svc.Observe(context.Background(), &command.Request{Msg: core.Message{Chat: chatA, From: ana}}, secret, 0)

	out := h.ok(chatA, ana, false, "/stats")
	contains(t, out,
		"2 rolls logged",
		"d4: 100 dice · χ² 108.0 (3 df) · p < 0.001 ⚠️ unusual",
		"1:10 2:10 3:10 4:70 (expected 25.0 each)",
		"d6: 300 dice · χ² 0.0 (5 df) · p 1.000 ✅ looks fair",
		"1:50 2:50 3:50 4:50 5:50 6:50 (expected 50.0 each)")
	// In Spanish with a decimal comma.
	if err := h.db.SaveSettings(context.Background(), chatA, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	contains(t, h.ok(chatA, ana, false, "/estadisticas"), "d4: 100 dados · χ² 108,0 (3 g.l.) · p < 0,001 ⚠️ raro")
}

func TestFairnessNumbers(t *testing.T) {
	counts := []character.FaceCount{{Sides: 6, Face: 1, Count: 8}, {Sides: 6, Face: 2, Count: 12}, {Sides: 6, Face: 6, Count: 10},
		{Sides: 20, Face: 3, Count: 99}, {Sides: 6, Face: 7, Count: 99}}
	f := character.TestFairness(6, counts)
	// Observed 8,12,0,0,0,10 against 5 each: (9+49+25+25+25+25)/5 = 31.6.
	if f.N != 30 || f.Expected != 5 || math.Abs(f.ChiSq-31.6) > 1e-12 || f.DF != 5 || !f.Enough {
		t.Fatalf("fairness = %+v", f)
	}
	if want := character.ChiSquareSF(31.6, 5); f.P != want {
		t.Fatalf("p = %v, want %v", f.P, want)
	}
	if f := character.TestFairness(6, nil); !math.IsNaN(f.P) || f.Enough {
		t.Fatalf("no dice: %+v", f)
	}
}

func TestChiSquareKnownValues(t *testing.T) {
	// Critical values from standard tables (p = 0.05 and 0.01).
	for _, tc := range []struct {
		x    float64
		df   int
		want float64
	}{
		{3.841458820694124, 1, 0.05},
		{6.634896601021214, 1, 0.01},
		{5.991464547107979, 2, 0.05},
		{18.307038053275146, 10, 0.05},
		{30.14352720564616, 19, 0.05},
		{36.19086912927004, 19, 0.01},
		{0, 7, 1},
		{1e6, 3, 0},
	} {
		if got := character.ChiSquareSF(tc.x, tc.df); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("ChiSquareSF(%v, %d) = %.15g, want %v", tc.x, tc.df, got, tc.want)
		}
	}
	// Closed forms: odd df from erfc, even df from a finite Poisson sum.
	for _, x := range []float64{0.01, 0.5, 1, 2.5, 4, 7.3, 12, 25, 60, 150} {
		odd1 := math.Erfc(math.Sqrt(x / 2))
		odd3 := odd1 + math.Sqrt(2*x/math.Pi)*math.Exp(-x/2)
		for _, tc := range []struct {
			df   int
			want float64
		}{{1, odd1}, {3, odd3}, {2, evenSF(x, 1)}, {10, evenSF(x, 5)}, {40, evenSF(x, 20)}, {198, evenSF(x, 99)}} {
			got := character.ChiSquareSF(x, tc.df)
			if d := math.Abs(got - tc.want); d > 1e-12 && d > 1e-10*tc.want {
				t.Errorf("ChiSquareSF(%v, %d) = %.15g, want %.15g", x, tc.df, got, tc.want)
			}
		}
	}
	for _, bad := range []struct {
		x  float64
		df int
	}{{-1, 3}, {1, 0}, {math.NaN(), 2}} {
		if got := character.ChiSquareSF(bad.x, bad.df); !math.IsNaN(got) {
			t.Errorf("ChiSquareSF(%v, %d) = %v, want NaN", bad.x, bad.df, got)
		}
	}
	// Q(1, x) = e^-x and Q(1/2, x) = erfc(√x).
	for _, x := range []float64{0.1, 1, 3, 10} {
		if got, want := character.GammaQ(1, x), math.Exp(-x); math.Abs(got-want) > 1e-14 {
			t.Errorf("GammaQ(1, %v) = %v, want %v", x, got, want)
		}
		if got, want := character.GammaQ(0.5, x), math.Erfc(math.Sqrt(x)); math.Abs(got-want) > 1e-14 {
			t.Errorf("GammaQ(0.5, %v) = %v, want %v", x, got, want)
		}
	}
}

// evenSF is the chi-square survival function for df = 2k:
// e^(-x/2) Σ_{i<k} (x/2)^i / i!.
func evenSF(x float64, k int) float64 {
	term, sum := 1.0, 1.0
	for i := 1; i < k; i++ {
		term *= x / 2 / float64(i)
		sum += term
	}
	return math.Exp(-x/2) * sum
}

// The longest history and stats replies fit one message: nothing is cut
// by the router's 3,500-character guard.
func TestHistoryAndStatsFitOneMessage(t *testing.T) {
	h := newHarness(t, character.Limits{})
	long := core.User{ID: "77", Name: strings.Repeat("Ñ", 60)}
	for i := range 25 {
		req := &command.Request{Msg: core.Message{Chat: chatA, From: long}}
		rep := reply.Text(strings.Repeat("résultat ", 60))
		rep.Command = "/roll " + strings.Repeat("1d6+", 80) + itoa(i)
		sides := 2 + i // 25 die sizes
		rep.Check = &reply.Check{Dice: []int{1, 2}, Sides: []int{sides, sides}}
		h.svc.Observe(context.Background(), req, rep, 0)
	}
	out := h.ok(chatA, ana, false, "/historial 20")
	contains(t, out, "Last 20 rolls")
	lacks(t, out, "does not fit")
	if n := strings.Count(out, "\n"); n != 20 {
		t.Fatalf("%d lines", n+1)
	}
	h.fails(chatA, ana, false, "/historial 21", "from 1 to 20")
	out = h.ok(chatA, ana, false, "/stats")
	contains(t, out, "…and 15 more die sizes")
	lacks(t, out, "does not fit")
}
