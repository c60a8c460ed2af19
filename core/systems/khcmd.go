package systems

import (
	"context"
	"strconv"

	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/systems/engine"
	"zaria/core/systems/kh"
)

// khSpec is what the words gave: the bonus dice (with a specialty's),
// the DC.
type khSpec struct {
	s, i int
	dc   int // 0: none
}

// khCheck is a Kingdom Hearts check with its dice pool read: the
// Capacidad and the bonus dice, a specialty's from the sheet.
type khCheck struct {
	sc    seedCheck // the words read, by the chat's file
	sp    khSpec
	pool  kh.Input
	rules kh.Rules // the book's, or the chat's fork's
}

// khCmd is /kh's steps (sysCheck): the words read from the file's
// inputs (readSeed); forks (nil: none) gives a chat's fork of Kingdom
// Hearts.
func khCmd(forks Forks) sysCheck[khCheck] {
	read := func(ctx context.Context, req *command.Request, toks []string) (khCheck, string, error) {
		sys, err := chatSystem(ctx, req, forks, "kh")
		if err != nil {
			return khCheck{}, "", err
		}
		c, who, err := readKH(ctx, req, sys, toks)
		c.rules = kh.Of(sys)
		return c, who, err
	}
	return sysCheck[khCheck]{
		needs: []keyword{kwDC("17")},
		read:  read,
		// The reply is the file's layout (kh.yaml's show), rolled as any
		// file's check (rollFile).
		roll: func(_ context.Context, req *command.Request, c khCheck) (*reply.Reply, error) {
			rep, _, err := rollFile(req, fileCheck{key: "kh", sys: c.sc.sys, p: c.sc.p, labels: c.sc.labels})
			return rep, err
		},
	}
}

// readKH reads the Capacidad and the bonus dice, a specialty's from the
// sheet, by the chat's file sys (nil: the book's); the file's
// requirement bounds the bonus dice in all (readSeed).
func readKH(ctx context.Context, req *command.Request, sys *engine.System, toks []string) (khCheck, string, error) {
	sc, who, err := readSeed(ctx, req, "kh", sys, toks)
	if err != nil {
		return khCheck{}, who, err
	}
	in := sc.p.Active.Inputs
	sp := khSpec{s: in["s"], i: in["i"], dc: in["dc"]}
	return khCheck{sc: sc, sp: sp, pool: kh.Input{Cap: in["cap"], Heartless: sp.s, Nobody: sp.i}}, who, nil
}

// khCapText is the Capacidad as typed: "5" or "fuerza 5" (its odds'
// subject).
func khCapText(c khCheck) string {
	if k := c.sc.skill(false, "cap"); k != "" {
		return k + " " + strconv.Itoa(c.pool.Cap)
	}
	return strconv.Itoa(c.pool.Cap)
}
