package console_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"zaria/adapters/console"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/internal/chattest"
	"zaria/storage/memory"
)

// newRouter is a router as the console tests run it: the real catalogs,
// st for the chats' settings, lang the default language, and /help, /lang
// and the like.
func newRouter(t *testing.T, st command.SettingsStore, lang string) *command.Router {
	t.Helper()
	r := command.New(command.Config{Translator: chattest.Catalog(t), Settings: st, DefaultLang: lang, Unlimited: []string{"console"}})
	general.Register(r, general.Options{Version: "test"})
	return r
}

// run types script into the console, as ana, over r and returns what it
// printed.
func run(t *testing.T, r *command.Router, script string) string {
	t.Helper()
	var out bytes.Buffer
	if err := console.New(console.Config{User: "ana"}, r, strings.NewReader(script), &out, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// runScript runs script with the dice commands and the systems.
func runScript(t *testing.T, script string) string {
	t.Helper()
	r := newRouter(t, memory.New(), "en")
	roll.Register(r)
	roll.RegisterOdds(r)
	systems.Register(r)
	return run(t, r, script)
}

func TestButtonsAreNumberedOptions(t *testing.T) {
	out := runScript(t, "/roll 3d6 vs 12\n2\n1\n")
	if !strings.Contains(out, "[1] ") || !strings.Contains(out, "[2] ") {
		t.Fatalf("no numbered buttons:\n%s", out)
	}
	// Pressing 2 (odds) shows the odds of that roll and rolls nothing; 1
	// rolls again.
	if !strings.Contains(out, "37.5%") {
		t.Errorf("odds button:\n%s", out)
	}
	if strings.Count(out, "🎲 3d6") != 2 {
		t.Errorf("want two rolls (📊 rolls nothing):\n%s", out)
	}
}

func TestControlLines(t *testing.T) {
	out := runScript(t, ":user bob\n:chat other\n:gm on\n:what\n/lang\n:quit\n/help\n")
	for _, want := range []string{"(you are bob)", "(chat other)", "(bob GM: true)", ":user NAME", "I speak English"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "what I can do") {
		t.Errorf("lines after :quit were read:\n%s", out)
	}
}

// TestGMIsKeptPerUser: issue 23. ":user" dropped the GM role, so after
// switching to Ana and back Marta's GM-only commands were refused.
func TestGMIsKeptPerUser(t *testing.T) {
	out := runScript(t, ":user marta\n:gm on\n:user bob\n:user marta\n:user ana\n")
	for _, want := range []string{"(marta GM: true)", "(you are bob)\n", "(you are marta, GM)", "(you are ana, GM)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestBannerListsControls: issue 23. The controls were in neither the
// banner nor the README.
func TestBannerListsControls(t *testing.T) {
	b := console.Banner("v1", "data/zaria.db")
	for _, want := range []string{":user NAME", ":gm on|off", ":chat ID", ":quit", "/help"} {
		if !strings.Contains(b, want) {
			t.Errorf("banner lacks %q: %s", want, b)
		}
	}
}

func TestSecretRollShownAsPrivate(t *testing.T) {
	out := runScript(t, "/gmroll zaria 4+2 dc15\n")
	if !strings.Contains(out, "ana rolled in secret") || !strings.Contains(out, "🔒 Secret roll by ana") {
		t.Errorf("secret roll:\n%s", out)
	}
}

func TestHugeLineIsRefusedNotFatal(t *testing.T) {
	out := runScript(t, "/lang "+strings.Repeat("x", 1_100_000)+"\n/lang\n")
	if !strings.Contains(out, "too long") || !strings.Contains(out, "I speak English") {
		t.Errorf("a 1.1 MB line:\n%.300s", out)
	}
}

// TestLongLinesAreReadWhole: issue 10. A line over 64 KiB was cut
// silently and an /importar document then answered "not a valid export".
// Lines up to the largest command input arrive whole; longer ones are
// refused by the router as too long, never cut into a shorter command.
func TestLongLinesAreReadWhole(t *testing.T) {
	r := newRouter(t, memory.New(), "en")
	r.Register(command.Command{Name: "size", MaxInput: 262_244, Handler: command.HandlerFunc(func(_ context.Context, req *command.Request) (*reply.Reply, error) {
		return reply.Text(fmt.Sprintf("got %d characters, ends with %q", utf8.RuneCountInString(req.Args), req.Args[len(req.Args)-3:])), nil
	})})
	doc := strings.Repeat("ñ", 262_000) + "end" // 524 KB: eight times the old cut
	script := "/size " + doc + "\n" + "/size " + strings.Repeat("x", 3<<20) + "\n/lang"
	got := run(t, r, script)
	for _, want := range []string{
		`got 262003 characters, ends with "end"`,
		// Its real length, not where the console stopped keeping it.
		"That line is too long (3145734 characters): the console reads lines of at most 2097152 bytes (2 MiB). Nothing was sent",
		"I speak English", // the last line, without a newline, is read too
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%.400s", want, got)
		}
	}
	if strings.Contains(got, "2097152 characters") || strings.Contains(got, "That message is too long") {
		t.Errorf("the line was cut and sent:\n%.400s", got)
	}
}

// A line over 2 MiB is answered with its length in characters, counted
// while it is discarded (it said 2097152, where it had been cut), in the
// chat's language, and nothing of it is sent: the lines after it work.
func TestTooLongLineSaysItsLength(t *testing.T) {
	for _, tc := range []struct {
		lang, line, want, next string
	}{
		// Two bytes a character, with the cut inside one of them.
		{"en", "/roll " + strings.Repeat("ñ", 1_500_000), "That line is too long (1500006 characters)", "I speak English"},
		{"es", "x" + strings.Repeat("ñ", 1<<20), "Esa línea es demasiado larga (1048577 caracteres): la consola lee líneas de 2097152 bytes (2 MiB) como mucho. No se ha enviado nada", "En este chat hablo"},
		{"el", strings.Repeat("€", 1<<20), "Αυτή η γραμμή είναι πολύ μεγάλη (1048576 χαρακτήρες)", "Σε αυτή τη συνομιλία μιλάω"},
		// Exactly 2 MiB is read whole, and refused by the command's limit.
		{"en", "/lang " + strings.Repeat("x", 2<<20-6), "That message is too long (2097152 characters; the limit is 500)", "I speak English"},
	} {
		r := newRouter(t, memory.New(), "en")
		var out bytes.Buffer
		a := console.New(console.Config{User: "ana", LangHint: tc.lang}, r, strings.NewReader(tc.line+"\n/lang\n"), &out, nil)
		if err := a.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: output lacks %q:\n%.400s", tc.lang, tc.want, got)
		}
		if n := strings.Count(got, "⚠️"); n != 1 {
			t.Errorf("%s: %d warnings:\n%.400s", tc.lang, n, got)
		}
		if !strings.Contains(got, tc.next) { // the /lang after it is answered
			t.Errorf("%s: the next line was not answered:\n%.400s", tc.lang, got)
		}
	}
}

// The console shows a chart in characters: the 📊 option of a roll draws
// its distribution with the target (🎯) and the result (👈) marked, and
// every line of a chart fits a 40-column terminal.
func TestChartTextFitsFortyColumns(t *testing.T) {
	out := runScript(t, "/roll 3d6 vs 12\n2\n/odds 4d6kh3 | 3d6+1\n/odds 1d100+50\n/odds zaria 4+2 dc15\n/odds kh 5 2s 1i\n/odds 3d6!\n")
	if !strings.Contains(out, "12 ██████████████▉  11.57% 🎯") {
		t.Errorf("no bar of 12 with the target:\n%s", out)
	}
	if !strings.Contains(out, " 👈") {
		t.Errorf("the result is not marked:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if !strings.ContainsAny(l, "█▏▎▍▌▋▊▉") {
			continue
		}
		w := 0
		for _, r := range l {
			w++
			if r >= 0x1F000 { // emoji: two columns
				w++
			}
		}
		if w > 40 {
			t.Errorf("%d columns: %q", w, l)
		}
	}
}

// A blind roll: the console user sees its result only as a GM.
func TestBlindRollShownToGMOnly(t *testing.T) {
	out := runScript(t, ":gm off\n/blind zaria 4+2 dc15\n:gm on\n/blind 1d20\n")
	if !strings.Contains(out, "ana made a blind roll.") || !strings.Contains(out, "🔒 (GM)") {
		t.Errorf("blind roll as a player:\n%s", out)
	}
	if strings.Count(out, "🙈 Blind roll by ana") != 1 || strings.Contains(out, "dc15") || strings.Contains(out, "DC 15") {
		t.Errorf("blind roll: the player saw it, or the GM did not:\n%s", out)
	}
	if !strings.Contains(out, "ana made a blind roll: 1d20") { // as typed (issue 36)
		t.Errorf("plain dice are named:\n%s", out)
	}
}

// A blind roll's «🙈 GM» is a numbered option: pressed by a player it
// says only the GM may see it; pressed after ":gm on" it shows the result.
func TestBlindRollGMButton(t *testing.T) {
	out := runScript(t, ":gm off\n/blind 1d20\n1\n:gm on\n1\n")
	if !strings.Contains(out, "[1] 🙈 GM") {
		t.Fatalf("no 🙈 GM option:\n%s", out)
	}
	player, gm, _ := strings.Cut(out, "(ana GM: true)")
	if !strings.Contains(player, "🙈 Only the GM can see this.") || strings.Contains(player, "] = ") {
		t.Errorf("as a player:\n%s", player)
	}
	if !strings.Contains(gm, "🎲 1d20\n  [") || !strings.Contains(gm, "] = ") {
		t.Errorf("as a GM:\n%s", gm)
	}
}
