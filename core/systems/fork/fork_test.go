package fork

import (
	"errors"
	"math/big"
	"testing"

	"zaria/core/command"
	"zaria/core/systems/engine"
)

func book(t *testing.T, key string) *engine.System {
	t.Helper()
	s, err := engine.Builtin(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// RQ with fumbles from 95: the fork is a file that loads on its own (what
// zaria system check does with it), its rewritten vectors say the new
// outcomes, its odds moved, and the book is untouched.
func TestBuildRQFumbleFrom95(t *testing.T) {
	rq := book(t, "rq")
	s, moved, err := Build(rq, []Change{{Kind: KindNumber, Key: "fumble_from", Value: "95"}}, "en")
	if err != nil {
		t.Fatal(err)
	}
	alone, err := engine.Load(s.Source)
	if err != nil {
		t.Fatalf("the fork's file does not load alone: %v", err)
	}
	if alone.VectorCount() != rq.VectorCount() {
		t.Fatalf("%d vectors, the book has %d", alone.VectorCount(), rq.VectorCount())
	}
	got := map[string]string{}
	for _, m := range moved {
		got[m.Vector] = m.Old + "→" + m.New
	}
	for name, want := range map[string]string{"R1 98": "failure→fumble", "R2 99": "success→fumble", "R9 96": "success→fumble"} {
		if got[name] != want {
			t.Errorf("vector %s moved %q, want %q (all: %v)", name, got[name], want, got)
		}
	}
	if _, ok := got["R1 99"]; ok {
		t.Errorf("R1 99 was a fumble already: %v", got)
	}
	pr := engine.Params{Inputs: map[string]int{"skill": 45}}
	for sys, want := range map[*engine.System]string{s: "3/50", rq: "1/100"} {
		od, err := sys.Odds("roll", pr)
		if err != nil {
			t.Fatal(err)
		}
		if p := od.Outcomes["fumble"]; p == nil || p.Cmp(frac(want)) != 0 {
			t.Errorf("fumble at skill 45: %v, want %s", p, want)
		}
	}
	ms := OddsMoves(rq, s, "es")
	if len(ms) == 0 || ms[len(ms)-1].Outcome != "Pifia" || ms[len(ms)-1].New.Cmp(frac("3/50")) != 0 || ms[0].Inputs != "habilidad 45, dificultad −30" {
		t.Errorf("odds moves %+v", ms)
	}
}

func frac(s string) *big.Rat { r, _ := new(big.Rat).SetString(s); return r }

// Refused: a number out of its range (the user's message, naming it), a
// band bound that makes another band unreachable (the engine's), a cell
// that is not a number, a row out of the table.
func TestBuildRefuses(t *testing.T) {
	for _, tc := range []struct {
		sys  string
		c    Change
		user string // the command.UserError's key, or "" for the engine's
	}{
		{"rq", Change{Kind: KindNumber, Key: "fumble_from", Value: "101"}, "fork.err.range"},
		{"rq", Change{Kind: KindNumber, Key: "fumble_from", Value: "-1"}, "fork.err.range"},
		{"zaria", Change{Kind: KindBand, Key: "major_success", Value: "0"}, ""},
		{"daegon", Change{Kind: KindCell, Key: "pct", Row: 7, Col: 3, Value: "x"}, "fork.err.cell_value"},
		{"daegon", Change{Kind: KindCell, Key: "pct", Row: 16, Col: 3, Value: "60"}, "fork.err.cell"},
		{"dh", Change{Kind: KindCell, Key: "weapons", Row: 9, Col: 2, Value: "21"}, "fork.err.range"},
		{"dh", Change{Kind: KindCell, Key: "weapons", Row: 9, Col: 5, Value: "7"}, "fork.err.range"},
		{"rq", Change{Kind: KindName, Key: "nonesuch", Value: "x"}, "fork.err.unknown"},
	} {
		_, _, err := Build(book(t, tc.sys), []Change{tc.c}, "en")
		var ue *command.UserError
		var ee *engine.Error
		switch {
		case err == nil:
			t.Errorf("%s %+v: built", tc.sys, tc.c)
		case tc.user != "" && (!errors.As(err, &ue) || ue.Key != tc.user):
			t.Errorf("%s %+v: %v, want %s", tc.sys, tc.c, err, tc.user)
		case tc.user == "" && !errors.As(err, &ee):
			t.Errorf("%s %+v: %v, want the engine's refusal", tc.sys, tc.c, err)
		}
	}
}

// A table cell, a band's bound, an outcome's name and a house rule's
// choice: each builds, shows in the fork's file, and Check accepts the
// fork as an import would.
func TestBuildEachKind(t *testing.T) {
	for _, tc := range []struct {
		sys string
		c   Change
		has func(f engine.File) bool
	}{
		{"daegon", Change{Kind: KindCell, Key: "pct", Row: 7, Col: 3, Value: "60"}, func(f engine.File) bool { return f.Tables[0].Cells[6][2] == "60" }},
		{"dh", Change{Kind: KindCell, Key: "usage_next", Row: 20, Value: "12"}, func(f engine.File) bool { return tableOf(&f, "usage_next").Cells[0][16] == "12" }},
		{"zaria", Change{Kind: KindBand, Key: "major_success", Value: "6"}, func(f engine.File) bool { return *bandOf(&f, "major_success").AtLeast == "6" }},
		{"rq", Change{Kind: KindName, Key: "fumble", Lang: "es", Value: "Desastre"}, func(f engine.File) bool { return f.Outcomes[3].Names.ES == "Desastre" }},
		{"zaria", Change{Kind: KindRule, Key: "zaria", Value: "media_alta"}, func(f engine.File) bool { return f.HouseRules[0].Default == "media_alta" }},
	} {
		s, _, err := Build(book(t, tc.sys), []Change{tc.c}, "en")
		if err != nil {
			t.Fatalf("%s %+v: %v", tc.sys, tc.c, err)
		}
		alone, err := engine.Load(s.Source)
		if err != nil || !tc.has(alone.File) {
			t.Errorf("%s %+v: the fork's file (%v) lacks the change", tc.sys, tc.c, err)
		}
		if err := Check(Fork{Key: tc.sys, Base: tc.sys, Changes: []Change{tc.c}}); err != nil {
			t.Errorf("%s %+v: Check: %v", tc.sys, tc.c, err)
		}
	}
	if err := Check(Fork{Key: "zaria", Base: "rq"}); err == nil {
		t.Errorf("a fork of rq under another key passed")
	}
}

// A fork keeps at most MaxChanges changes; a change of the same thing
// replaces the earlier one and is not counted twice.
func TestForkChangesLimit(t *testing.T) {
	f := Fork{Key: "rq", Base: "rq"}
	for i := range MaxChanges {
		var err error
		if f, err = f.with(Change{Kind: KindCell, Key: "t", Row: i, Value: "1"}); err != nil {
			t.Fatalf("change %d: %v", i+1, err)
		}
	}
	if _, err := f.with(Change{Kind: KindCell, Key: "t", Row: 0, Value: "2"}); err != nil {
		t.Fatalf("replacing a change: %v", err)
	}
	var ue *command.UserError
	if _, err := f.with(Change{Kind: KindCell, Key: "t", Row: MaxChanges, Value: "1"}); !errors.As(err, &ue) || ue.Key != "fork.err.changes" {
		t.Fatalf("change %d: %v", MaxChanges+1, err)
	}
}

// A named value moved: the fork's input names the new number, the book's
// the old; a value that passes a neighbour's is refused, naming the
// bounds.
func TestBuildNamedValue(t *testing.T) {
	z := book(t, "zaria")
	s, _, err := Build(z, []Change{{Kind: KindNamed, Key: "dc", Named: "medium", Value: "14"}}, "en")
	if err != nil {
		t.Fatal(err)
	}
	for sys, want := range map[*engine.System]int{s: 14, z: 15} {
		p, err := sys.Parse([]string{"4+2", "medium"})
		if err != nil || p.Active.Inputs["dc"] != want {
			t.Errorf("medium reads %v (%v), want %d", p, err, want)
		}
	}
	_, _, err = Build(z, []Change{{Kind: KindNamed, Key: "dc", Named: "medium", Value: "20"}}, "en")
	var ue *command.UserError
	if !errors.As(err, &ue) || ue.Key != "fork.err.range" || ue.Args["min"] != 11 || ue.Args["max"] != 19 {
		t.Errorf("medium 20: %v", err)
	}
}

func tableOf(f *engine.File, key string) *engine.Table {
	for i := range f.Tables {
		if f.Tables[i].Key == key {
			return &f.Tables[i]
		}
	}
	return &engine.Table{}
}

// A change Build refuses names what it refuses as the file names it in
// the chat's language, never by its key.
func TestBuildRefusalInLang(t *testing.T) {
	for _, tc := range []struct {
		sys, lang string
		c         Change
		name      string
	}{
		{"rq", "es", Change{Kind: KindNumber, Key: "fumble_from", Value: "101"}, "pifia"},
		{"rq", "el", Change{Kind: KindNumber, Key: "fumble_from", Value: "101"}, "γκάφα"},
		{"pbta", "es", Change{Kind: KindBand, Key: "weak_hit", Value: "x"}, "Éxito parcial"},
		{"zaria", "es", Change{Kind: KindNamed, Key: "dc", Named: "medium", Value: "20"}, "media"},
		{"zaria", "el", Change{Kind: KindNamed, Key: "dc", Named: "medium", Value: "20"}, "Μέτριο"},
		{"zaria", "es", Change{Kind: KindRule, Key: "zaria", Value: "nada"}, "cómo 2d10 dan la Ζαριά"},
	} {
		_, _, err := Build(book(t, tc.sys), []Change{tc.c}, tc.lang)
		var ue *command.UserError
		if !errors.As(err, &ue) || ue.Args["name"] != tc.name {
			t.Errorf("%s %s %+v: %v (%v), want it named %q", tc.sys, tc.lang, tc.c, err, ue, tc.name)
		}
	}
}
