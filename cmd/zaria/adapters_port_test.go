package main

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// The chat adapters (and the console and the web companion) ask the core
// only through core.Port: of zaria's packages they import core and
// core/reply and nothing else (never the router, the catalogs or the text
// folding). main wires them to the router (and the companion to what it
// reads: the turn order as initiative.View makes it, names cleaned by
// fold.UserName).
// Their shared helpers under adapters/internal (the backoff, the action
// store, the journal) are no way around the port either: they import only
// the port's packages and each other.
func TestAdaptersImportOnlyThePort(t *testing.T) {
	ctx := build.Default
	ctx.BuildTags = append(ctx.BuildTags, "goolm")
	allowed := map[string]bool{"zaria/core": true, "zaria/core/reply": true}
	for _, dir := range []string{"telegram", "matrix", "console", "web"} {
		pkg, err := ctx.ImportDir(filepath.Join("..", "..", "adapters", dir), 0)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, p := range pkg.Imports {
			if p != "zaria" && !strings.HasPrefix(p, "zaria/") {
				continue
			}
			seen++
			if rest, ok := strings.CutPrefix(p, "zaria/adapters/internal/"); ok {
				in, err := ctx.ImportDir(filepath.Join("..", "..", "adapters", "internal", rest), 0)
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range in.Imports {
					if (q == "zaria" || strings.HasPrefix(q, "zaria/")) && !allowed[q] && !strings.HasPrefix(q, "zaria/adapters/internal/") {
						t.Errorf("%s (imported by adapters/%s) imports %s; the adapters' own helpers may import only the port's packages and each other", p, dir, q)
					}
				}
				continue
			}
			if !allowed[p] {
				t.Errorf("adapters/%s imports %s; it may use only zaria/core (core.Port) and zaria/core/reply", dir, p)
			}
		}
		if seen == 0 {
			t.Errorf("adapters/%s: no zaria import found in %v: the check reads the wrong package", dir, pkg.Imports)
		}
	}
}
