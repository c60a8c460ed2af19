package core_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// coreMayImport is every package outside the standard library and
// zaria/core/... that the core's code (tests aside) may depend on, directly
// or not. Each is small, pure Go and free of I/O: text folding for names
// typed in three scripts, the list of languages the bot speaks, and the
// token bucket of the router's per-user limit. Adding
// to it is a design decision: an adapter, a store, a driver, a platform SDK,
// the message catalogs (zaria/i18n: the router gets a Translator) or a
// chart or metrics library never belongs here.
var coreMayImport = []string{
	"golang.org/x/text/transform",
	"golang.org/x/text/unicode/norm",
	"github.com/mtibben/confusables",
	"golang.org/x/time/rate",
	"gopkg.in/yaml.v3", // the game systems' files (core/systems/engine)
}

// coreMustNotImport are standard packages the core has no business with:
// SQL lives in storage, the network in the adapters and cmd/zaria.
var coreMustNotImport = []string{"database/sql", "net/http", "os/exec"}

// The core imports the standard library and little else: never an
// adapter, a store, a driver, SQL, a platform SDK, gonum or Prometheus.
// The test asks the go tool for the whole dependency graph of ./core/...,
// so an import added anywhere below core, direct or through another
// package, fails it.
func TestCoreImportsNoAdapterDriverOrSDK(t *testing.T) {
	goTool, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goTool, "list", "-deps", "-tags", "goolm",
		"-f", `{{.ImportPath}} {{.Standard}} {{join .Imports ","}}`, "./...")
	cmd.Dir = "." // this file's directory: core
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{}
	for _, p := range coreMayImport {
		allowed[p] = true
	}
	denied := map[string]bool{}
	for _, p := range coreMustNotImport {
		denied[p] = true
	}
	isCore := func(p string) bool { return p == "zaria/core" || strings.HasPrefix(p, "zaria/core/") }
	std := map[string]bool{}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, " ", 3)
		if len(f) < 2 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		std[f[0]] = f[1] == "true"
		if len(f) == 3 && f[2] != "" {
			imports[f[0]] = strings.Split(f[2], ",")
		}
	}
	if len(std) < 20 {
		t.Fatalf("go list named only %d packages: %s", len(std), out)
	}
	bad := func(p string) bool { return std[p] && denied[p] || !std[p] && !isCore(p) && !allowed[p] }
	// Name the core package that brings each one in, then anything an
	// allowed library would bring in behind it.
	direct := 0
	for p, imps := range imports {
		if !isCore(p) {
			continue
		}
		for _, imp := range imps {
			if bad(imp) {
				direct++
				t.Errorf("%s imports %s: the core imports no adapter, store, driver, SQL, SDK or library outside coreMayImport", p, imp)
			}
		}
	}
	if direct > 0 {
		return
	}
	for p := range std {
		if bad(p) {
			t.Errorf("the core depends on %s through a library on coreMayImport", p)
		}
	}
}
