package systems

import (
	"context"
	"fmt"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/daegon"
)

// optDaegon00 is the house rule of how "00" reads (docs/daegon.md): cien
// (00 = 100, the default) or cero (00 = 0).
const optDaegon00 = "daegon_00"

// daegonReading is how the chat reads "00": its /ajustes choice, else
// the default of the file rules roll by (a fork's may differ).
func daegonReading(req *command.Request, rules daegon.Rules) daegon.Reading {
	if houseRule(req, rules.File(), optDaegon00) == "cero" {
		return daegon.Zero
	}
	return daegon.Hundred
}

// kwDaegonD is a difficulty "d" typed without its number: "/daegon 7 d".
var kwDaegonD = keyword{is: func(w string) bool {
	k := fold.Key(w)
	return k == "d" || k == "δ"
}, sample: sampleText("3"), glued: true}

// dgCheck is a Daegon check with its NH read: a test against a
// difficulty, or an opposed roll.
type dgCheck struct {
	sc                 seedCheck // the words read
	act, pas           int       // NH
	actSkill, pasSkill string    // the sheet values' names, "" for a number
	opposed            bool
	d                  int          // 0: none given
	rules              daegon.Rules // the book's, or the chat's fork's
}

// daegonCmd is /daegon's steps (sysCheck): the words read from the
// file's inputs (readSeed); forks (nil: none) gives a chat's fork of
// Daegon.
func daegonCmd(forks Forks) sysCheck[dgCheck] {
	read := func(ctx context.Context, req *command.Request, toks []string) (dgCheck, string, error) {
		sc, who, err := readSeed(ctx, req, "daegon", nil, toks)
		if err != nil {
			return dgCheck{}, who, err
		}
		act := sc.p.Active.Inputs
		c := dgCheck{sc: sc, act: act["nh"], actSkill: sc.skill(false, "nh"), d: act["d"], opposed: sc.p.Passive != nil, rules: daegon.Book()}
		if c.opposed {
			c.pas, c.pasSkill = sc.p.Passive.Inputs["nh"], sc.skill(true, "nh")
		}
		if forks == nil {
			return c, who, nil
		}
		sys, err := forks.System(ctx, req.Msg.Chat, "daegon")
		c.rules = daegon.Of(sys)
		return c, who, err
	}
	return sysCheck[dgCheck]{
		needs: []keyword{kwVs(sampleText("7")), kwDaegonD},
		read:  read,
		// The reply is the file's layout (daegon.yaml's show), rolled by
		// the chat's file and house rule (rollFile).
		roll: func(_ context.Context, req *command.Request, c dgCheck) (*reply.Reply, error) {
			sys := c.rules.File()
			rep, _, err := rollFile(req, fileCheck{key: "daegon", sys: sys, p: c.sc.p, labels: c.sc.labels, rules: houseRules(req, sys)})
			return rep, err
		},
	}
}

// nhLabel is "6 (competente)" or "sigilo 6 (competente)"; 13–15 have no
// name in the seed.
func nhLabel(req *command.Request, nh int, skill string) string {
	s := fmt.Sprint(nh)
	if nh <= 12 {
		s = fmt.Sprintf("%d (%s)", nh, req.T(fmt.Sprintf("daegon.nh.%d", (nh+1)/2)))
	}
	if skill != "" {
		s = skill + " " + s
	}
	return s
}
