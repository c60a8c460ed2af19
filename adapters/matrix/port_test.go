package matrix

import (
	"go/build"
	"strings"
	"testing"
)

// TestMatrixImportsOnlyThePort: the adapter asks the core only through
// core.Port, so of zaria's packages it imports core and core/reply and
// nothing else (never the router, the catalogs or the text folding).
func TestMatrixImportsOnlyThePort(t *testing.T) {
	ctx := build.Default
	ctx.BuildTags = append(ctx.BuildTags, "goolm")
	pkg, err := ctx.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"zaria/core": true, "zaria/core/reply": true}
	seen := 0
	for _, p := range pkg.Imports {
		if p != "zaria" && !strings.HasPrefix(p, "zaria/") {
			continue
		}
		seen++
		if !allowed[p] {
			t.Errorf("adapters/matrix imports %s; it may use only zaria/core (core.Port) and zaria/core/reply", p)
		}
	}
	if seen == 0 {
		t.Fatalf("no zaria import found in %v: the check reads the wrong package", pkg.Imports)
	}
}
