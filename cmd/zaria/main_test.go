package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// env returns a getenv that knows only the given variables.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// zaria runs the command line in-process and returns stdout, stderr and the exit status.
func zaria(t *testing.T, stdin string, getenv func(string) string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb, getenv)
	return out.String(), errb.String(), code
}

func TestConsoleChat(t *testing.T) {
	db := filepath.Join(t.TempDir(), "z.db")
	script := "/help\n/lang el\n/help\n/idioma en\n/xyzzy\n"
	out, errs, code := zaria(t, script, env("ZARIA_DB", db), "run", "--config", filepath.Join(t.TempDir(), "none.yaml"))
	if code != 2 || !strings.Contains(errs, "none.yaml") {
		t.Fatalf("a missing --config file: code %d, stderr %q", code, errs)
	}
	// The configured default language (ZARIA_LANG) answers a console
	// whose locale is not es/el/en.
	out, errs, code = zaria(t, script, env("ZARIA_DB", db, "ZARIA_LANG", "es"))
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	for _, want := range []string{
		"🎲 zaria — lo que sé hacer",       // Spanish by ZARIA_LANG
		"Από τώρα μιλάω ελληνικά",         // /lang el
		"🎲 zaria — τι μπορώ να κάνω",      // help in Greek
		"From now on I speak English",     // /idioma en
		"I don't know /xyzzy. Type /help", // unknown command hint
	} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %q:\n%s", want, out)
		}
	}
	// The language is stored: a new run of the console in the same database speaks English.
	out, _, _ = zaria(t, "/help\n", env("ZARIA_DB", db, "ZARIA_LANG", "es"))
	if !strings.Contains(out, "what I can do") {
		t.Errorf("language not kept across runs:\n%s", out)
	}
}

func TestRollCommandContract(t *testing.T) {
	out, _, code := zaria(t, "", env("ZARIA_LANG", "es"), "roll", "--json", "/help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if !strings.Contains(obj["text"].(string), "/ayuda") {
		t.Errorf("text = %q", obj["text"])
	}

	out, errs, code := zaria(t, "", env(), "roll", "--lang", "en", "/lang xx")
	if code != 2 || out != "" || !strings.Contains(errs, "I don't speak «xx»") {
		t.Errorf("user error: code %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = zaria(t, "", env(), "roll", "--json", "--lang", "el", "/lang xx")
	if code != 2 || !strings.Contains(out, `"error":`) || !strings.Contains(out, "Δεν μιλάω") || !strings.Contains(errs, "Δεν μιλάω") {
		t.Errorf("user error under --json: code %d, %q, stderr %q", code, out, errs)
	}
	// An export carries its document under --json.
	out, _, code = zaria(t, "", env(), "roll", "--json", "/exportar")
	var exp struct {
		File struct{ Name, Mime, Content string }
	}
	if err := json.Unmarshal([]byte(out), &exp); code != 0 || err != nil || !strings.Contains(exp.File.Content, `"format":"zaria-chat"`) {
		t.Errorf("export under --json: %d %v %q", code, err, out)
	}
	for _, bad := range [][]string{
		{"roll", "--lang", "fr", "/help"},
		{"roll", "--dice", "1,x", "/help"},
		{"roll", "--dice", "1", "--seed", "3", "/help"},
		{"roll"},
	} {
		if _, errs, code := zaria(t, "", env(), bad...); code != 2 || errs == "" {
			t.Errorf("%v: code %d, stderr %q", bad, code, errs)
		}
	}
	// Flags after the text work too, and the chat's state persists in --db.
	db := filepath.Join(t.TempDir(), "z.db")
	zaria(t, "", env(), "roll", "/lang el", "--db", db, "--chat", "7")
	out, _, _ = zaria(t, "", env(), "roll", "--db", db, "--chat", "7", "/help")
	if !strings.Contains(out, "τι μπορώ να κάνω") {
		t.Errorf("chat 7 did not keep Greek: %q", out)
	}
	out, _, _ = zaria(t, "", env(), "roll", "--db", db, "--chat", "8", "/help")
	if !strings.Contains(out, "what I can do") {
		t.Errorf("chat 8 is not in the shipped default language, English: %q", out)
	}
}

// TestOddsJSON: `zaria roll --json '/odds EXPR'` gives the distribution
// as data: every total with its exact probability, and for an explosion
// where it was cut (issue 24).
func TestOddsJSON(t *testing.T) {
	out, _, code := zaria(t, "", env(), "roll", "--json", "--lang", "en", "/odds 2d6 | 1d4!")
	var obj struct {
		Distribution []struct {
			Label  string
			Min    int64
			Max    int64
			Approx bool
			Totals []struct {
				Total int64
				Exact string
				P     float64
			}
			Cut *struct {
				After     int64
				TailBelow float64 `json:"tail_below"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &obj); code != 0 || err != nil || len(obj.Distribution) != 2 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	d := obj.Distribution[0]
	if d.Label != "A 2d6" || d.Min != 2 || d.Max != 12 || d.Approx || d.Cut != nil || len(d.Totals) != 11 {
		t.Fatalf("2d6: %+v", d)
	}
	for i, want := range []string{"1/36", "1/18", "1/12", "1/9", "5/36", "1/6", "5/36", "1/9", "1/12", "1/18", "1/36"} {
		if got := d.Totals[i]; got.Total != int64(i+2) || got.Exact != want {
			t.Errorf("2d6: %+v, want P(%d) = %s", got, i+2, want)
		}
	}
	e := obj.Distribution[1]
	if !e.Approx || e.Cut == nil || e.Cut.After != e.Max || e.Cut.TailBelow != 1e-12 || e.Totals[0].Exact != "1/4" || e.Totals[4].Exact != "1/16" {
		t.Errorf("1d4!: %+v", e)
	}
}

// TestOddsJSONSampledAndKept: `--json` says how many rolls sampled figures
// come from ("sampled": N, no fractions, no cut), and a keep after an
// explosion (5d10!kh3) is cut in its explosions, not past its highest
// total, 30 (issue 40).
func TestOddsJSONSampledAndKept(t *testing.T) {
	out, _, code := zaria(t, "", env(), "roll", "--json", "--lang", "en", "/odds 100d1000 | 5d10!kh3")
	var obj struct {
		Distribution []struct {
			Min, Max int64
			Approx   bool
			Sampled  int
			Totals   []struct {
				Exact *string
				P     float64
			}
			Cut *struct {
				After     *int64
				TailBelow float64 `json:"tail_below"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &obj); code != 0 || err != nil || len(obj.Distribution) != 2 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	s := obj.Distribution[0]
	if !s.Approx || s.Sampled < 100 || s.Cut != nil || len(s.Totals) == 0 || s.Totals[0].Exact != nil {
		t.Errorf("100d1000: sampled %d, approx %v, cut %v", s.Sampled, s.Approx, s.Cut)
	}
	var sum float64
	for _, x := range s.Totals {
		sum += x.P
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("100d1000: the shares of the samples add up to %g", sum)
	}
	k := obj.Distribution[1]
	if !k.Approx || k.Sampled != 0 || k.Min != 3 || k.Max != 30 || k.Cut == nil || k.Cut.After != nil || k.Cut.TailBelow != 1e-12 {
		t.Errorf("5d10!kh3: %+v cut %+v", k, k.Cut)
	}
}

func TestUnknownSubcommand(t *testing.T) {
	out, errs, code := zaria(t, "", env(), "foo")
	if code != 2 || out != "" || !strings.Contains(errs, `unknown command "foo"`) || !strings.Contains(errs, "zaria roll") {
		t.Errorf("zaria foo: %d %q %q", code, out, errs)
	}
	if out, _, code := zaria(t, "", env(), "help"); code != 0 || !strings.Contains(out, "zaria backup") {
		t.Errorf("zaria help: %d %q", code, out)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := zaria(t, "", env(), "version")
	if code != 0 || !strings.HasPrefix(out, "zaria ") {
		t.Errorf("version: %d %q", code, out)
	}
}

func TestBackup(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "z.db")
	if _, errs, code := zaria(t, "", env(), "roll", "--db", db, "--chat", "1", "/lang el"); code != 0 {
		t.Fatalf("setup: %s", errs)
	}
	dest := filepath.Join(dir, "copy.db")
	out, errs, code := zaria(t, "", env("ZARIA_DB", db), "backup", dest)
	if code != 0 || !strings.Contains(out, dest) {
		t.Fatalf("backup: %d %q %q", code, out, errs)
	}
	// The copy is a working database holding the chat's language.
	out, _, _ = zaria(t, "", env(), "roll", "--db", dest, "--chat", "1", "/help")
	if !strings.Contains(out, "τι μπορώ να κάνω") {
		t.Errorf("restored copy lost the chat settings: %q", out)
	}
	if _, _, code := zaria(t, "", env("ZARIA_DB", db), "backup"); code != 2 {
		t.Errorf("backup without DEST: exit %d", code)
	}
}

func TestOpsListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	pr, pw := io.Pipe()
	var out, errb syncBuffer
	done := make(chan int)
	go func() {
		done <- run(context.Background(), nil, pr, &out, &errb, env("ZARIA_DB", filepath.Join(t.TempDir(), "z.db"), "ZARIA_HTTP_LISTEN", addr))
	}()
	fmt.Fprintln(pw, "/help")
	fmt.Fprintln(pw, "/lang xx")
	var body string
	// Until both commands are counted (the ops listener and the store
	// come up first: on a loaded -race run that is seconds).
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if res, err := http.Get("http://" + addr + "/metrics"); err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			body = string(b)
			if strings.Contains(body, `result="user_error"`) {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(body, `zaria_commands_total{command="help",result="ok"} 1`) || !strings.Contains(body, `zaria_commands_total{command="lang",result="user_error"} 1`) {
		t.Errorf("metrics:\n%s", body)
	}
	res, err := http.Get("http://" + addr + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Errorf("healthz: %v %v", res, err)
	}
	pw.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, errb.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("zaria did not stop at the end of input")
	}
}

// syncBuffer is a bytes.Buffer safe for the writer goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// A saved roll that runs a command which is not a roll is refused under
// /gmroll too: the chat's language stays as it was.
func TestSecretSavedRollRunsOnlyRolls(t *testing.T) {
	db := filepath.Join(t.TempDir(), "z.db")
	z := func(text string) (string, int) {
		out, errs, code := zaria(t, "", env(), "roll", "--db", db, "--chat", "7", text)
		return out + errs, code
	}
	// No --lang: it would set the chat's language on every run.
	if out, code := z("/alias greek /lang el"); code != 0 {
		t.Fatalf("/alias: %d %q", code, out)
	}
	if out, code := z("/gmroll /greek"); code != 2 || !strings.Contains(out, "/lang is not a roll") {
		t.Errorf("/gmroll /greek: %d %q, want a refusal", code, out)
	}
	if out, _ := z("/help"); !strings.Contains(out, "what I can do") {
		t.Errorf("the chat's language changed under a secret roll: %q", out)
	}
	if out, code := z("/gmroll 1d20+5"); code != 0 || !strings.Contains(out, "rolled in secret") {
		t.Errorf("/gmroll 1d20+5: %d %q", code, out)
	}
}

// TestRollGMFlag: issue 23. "zaria roll" always spoke as a GM, so no one
// could check a GM-only rule from the command line.
func TestRollGMFlag(t *testing.T) {
	_, errs, code := zaria(t, "", env(), "roll", "--lang", "en", "--gm=false", "--user", "bob", "/settings prefix .")
	if code != 2 || !strings.Contains(errs, "Only a GM") {
		t.Errorf("--gm=false: code %d, stderr %q", code, errs)
	}
	out, errs, code := zaria(t, "", env(), "roll", "--lang", "en", "--user", "bob", "/settings prefix .")
	if code != 0 || strings.Contains(out+errs, "Only a GM") {
		t.Errorf("default --gm: code %d, %q %q", code, out, errs)
	}
}
