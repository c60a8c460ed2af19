package dice

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"zaria/internal/cputime"
)

// adversarial are expressions chosen to make the odds work hard: the
// largest terms, keep/drop over many faces, explosions, products and
// quotients of wide distributions, and the most groups allowed.
var adversarial = []string{
	"100d1000", "100d1000kh50", "100d1000dl1", "100d100kh50 vs 2500",
	"20d1000*20d1000", "(1d1000*1d1000)*(1d1000*1d1000)", "1d1000*1d1000*1d1000*1d1000",
	"100d1000/(1d1000-500)", "floor(50d1000/(3d1000-1500))",
	"10d6!>=4kh3>=5", "100d2!", "100d1000!", "10d1000!!kh5", "50d1000!p", "100d1000r<999",
	"100d1000ro<999kh99", "100d1000>=500f100",
	strings.TrimSuffix(strings.Repeat("5d1000+", 20), "+"),
	strings.TrimSuffix(strings.Repeat("5d1000*", 20), "*"),
	strings.TrimSuffix(strings.Repeat("50d20kh25+", 20), "+"),
	strings.TrimSuffix(strings.Repeat("1d1000*", 20), "*") + " vs 1000",
	"20#10d100kh5 vs 300",
	// grouped rolls: many wide totals kept or dropped, many kinds of dice ranked together
	"{" + strings.TrimSuffix(strings.Repeat("100d1000,", 10), ",") + "}dl5",
	"{" + strings.TrimSuffix(strings.Repeat("100d1000,", 10), ",") + "}kh1",
	"{10d100, 10d99, 10d98, 10d97, 10d96, 10d95, 10d94, 10d93, 10d92, 10d91}dl1",
	"{20d1000+20d999+20d998+20d997+20d996}dh10", "{50d1000+50d999}kh50", "{50d1000+50d999}kh1",
	"{1d1000*1d1000, 1d1000*1d1000}kh1", "{10d1000!+10d999!}kh5", "{100d1000>=500, 100d999<=500}kh1>=30",
	"{" + strings.TrimSuffix(strings.Repeat("2d1000+", 10), "+") + "}dl10",
	// issue 24's forms: keep after explode, rolled counts and sides, max, powers
	"100d6!kh50", "100d1000!kh50", "50d6!pkh25", "20d4!pkh1", "100d2!pkl1", "50d6!>=2kh25", "30d4!>=3dl10", "100d10!kh99>=5f1",
	"(1d100)d1000", "(1d100)d1000kh50", "(10d10)d(10d100)", "100d(1d1000)", "(1d100)d1000!!",
	"max(100d1000, 100d1000, 100d1000, 100d1000, 100d1000, 100d1000, 100d1000, 100d1000, 100d1000, 100d1000)",
	"min(1d1000*1d1000, 1d1000*1d1000)", "(1d1000)**(1d3)", "100d1000%(1d1000)", "100d1000min500max600kh50",
	"100d1000r1r2r3r4r5r6r7r8r9r10kh50",
}

// TestOddsNeverTakeSeconds: whatever is typed, the odds answer within a
// bound of CPU time (exact within WorkBudget, else sampled within
// SampleBudget). The bound is loose for slow, shared machines: the
// figures measured are logged.
func TestOddsNeverTakeSeconds(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var worst time.Duration
	var worstExpr string
	for _, in := range adversarial {
		e, err := Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		c0, ok := cputime.Thread()
		start := time.Now()
		o, err := e.Odds(nil)
		d := time.Since(start)
		if c1, ok2 := cputime.Thread(); ok && ok2 {
			d = c1 - c0
		}
		if err != nil && err != ErrOddsDivZero {
			if _, ok := AsError(err); !ok {
				t.Errorf("%s: %v", in, err)
			}
		}
		if o != nil && o.Work > WorkBudget+SampleBudget {
			t.Errorf("%s: work %d over %d", in, o.Work, WorkBudget+SampleBudget)
		}
		t.Logf("%-60s %8v sampled=%v", in, d.Round(time.Millisecond), o != nil && o.Sampled)
		if d > worst {
			worst, worstExpr = d, in
		}
	}
	t.Logf("slowest: %v for %q", worst, worstExpr)
	if worst > time.Second {
		t.Errorf("the odds of %q took %v of CPU", worstExpr, worst)
	}
}

// TestOddsWithinAWorkBudget: the odds draw on the work the message has
// left: exact when it fits, sampled with what is left otherwise, refused
// when not even one sample fits; Work never exceeds what was given.
func TestOddsWithinAWorkBudget(t *testing.T) {
	e, err := Parse("30d20 vs 300")
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.OddsWithin(nil, 1_000_000)
	if err != nil || full.Sampled || full.ChanceExact == nil || full.Work == 0 || full.Work > WorkBudget {
		t.Fatalf("with room: %+v, %v", full, err)
	}
	small, err := e.OddsWithin(nil, full.Work/2)
	if err != nil || !small.Sampled || small.Work > full.Work/2 {
		t.Fatalf("with half the room: %+v, %v", small, err)
	}
	if d := small.Chance - full.Chance; d > 0.1 || d < -0.1 {
		t.Errorf("sampled chance %.3f, exact %.3f", small.Chance, full.Chance)
	}
	if _, err := e.OddsWithin(nil, MinOddsWork-1); err != ErrOddsBudget {
		t.Errorf("below MinOddsWork: %v", err)
	}
	big, _ := Parse("100d1000kh50")
	for _, w := range []int{5_000, 200_000, 10_000_000} {
		o, err := big.OddsWithin(nil, w)
		if err != nil || o.Work > w || !o.Sampled {
			t.Errorf("100d1000kh50 within %d: %+v, %v", w, o, err)
		}
	}
	// Its faces alone cost 1,000: then not one sample of 100 dice fits.
	if o, err := big.OddsWithin(nil, MinOddsWork); err != ErrOddsBudget {
		t.Errorf("100d1000kh50 within %d: %+v, %v", MinOddsWork, o, err)
	}
}
