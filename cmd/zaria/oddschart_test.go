package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `zaria roll` prints a roll's chart in characters when it is asked with
// "?" (what the 📊 button runs), the result marked, and --png writes that
// roll's picture; a system check's odds have both too.
func TestRollPrintsChartAndWritesPNG(t *testing.T) {
	dir := t.TempDir()
	pic := filepath.Join(dir, "roll.png")
	out, errs, code := zaria(t, "", env(), "roll", "--lang", "en", "--dice", "6,1", "--png", pic, "/roll 2d6+1 vs 8 ?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, " 8 ████████████████ 16.67% 🎯 👈") || !strings.Contains(out, "Exactly · 2d6+1") {
		t.Errorf("no chart in characters with the target and the result:\n%s", out)
	}
	b, err := os.ReadFile(pic)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil || img.Bounds().Dx() != 800 || img.Bounds().Dy() != 900 {
		t.Fatalf("picture: %v %v", err, img)
	}
	pic2 := filepath.Join(dir, "kh.png")
	out, errs, code = zaria(t, "", env(), "roll", "--lang", "es", "--png", pic2, "/odds kh 5 2s 1i cd17")
	if code != 0 || !strings.Contains(out, "🎯 dificultad 17 · muy difícil:") || !strings.Contains(out, "🎯") {
		t.Errorf("exit %d: %s\n%s", code, errs, out)
	}
	if _, err := os.Stat(pic2); err != nil {
		t.Error(err)
	}
}
