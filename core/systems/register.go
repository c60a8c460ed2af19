package systems

import (
	"context"
	"fmt"
	"slices"

	"zaria/core/command"
	"zaria/core/systems/engine"
)

// seed is a system whose command has a Go handler of its own (its
// reply's layout, Dungeon Hack's sub-commands); everything else about it,
// its command's name and aliases, the words that name it, its example,
// its place in the lists, is its file's, as for every system.
type seed struct {
	key string
	// run is the command's handler; forks (nil: none) gives a chat's
	// fork, which it then rolls by.
	run func(forks Forks) command.HandlerFunc
	// odds reads args as the command does and gives their odds (OddsOf).
	odds func(ctx context.Context, req *command.Request, forks Forks, args string) (*CheckOdds, error)
	// choices is what a pad button may ask for (choices.go).
	choices func(forks Forks) command.ChoicesFunc
	// named: the command reads a fork's named values too (NamedForkable).
	named bool
}

// seeds are the systems with a handler of their own, in the order
// /sistema lists them (Forkable); the other shipped systems run from
// their file alone (filesys.go).
func seeds() []seed {
	zaria := checkSeed("zaria", zariaCmd, zariaOdds, zariaChoices)
	zaria.named = true
	return []seed{
		zaria,
		checkSeed("daegon", daegonCmd, daegonOdds, always(daegonChoices)),
		checkSeed("rq", rqCmd, rqOdds, always(rqChoices)),
		checkSeed("kh", khCmd, khOdds, always(khChoices)),
		{key: "dh", run: func(f Forks) command.HandlerFunc { return dhCmd(f).run }, choices: always(dhChoices),
			odds: func(ctx context.Context, req *command.Request, f Forks, args string) (*CheckOdds, error) {
				return dhOdds(ctx, req, args, f)
			}},
	}
}

// checkSeed is the seed of a command that reads one check (sysCheck):
// its odds read the words as the command does (oddsWith).
func checkSeed[T any](key string, cmd func(Forks) sysCheck[T], odds func(*command.Request, T) *CheckOdds, choices func(Forks) command.ChoicesFunc) seed {
	return seed{key: key, run: func(f Forks) command.HandlerFunc { return cmd(f).run }, choices: choices,
		odds: func(ctx context.Context, req *command.Request, f Forks, args string) (*CheckOdds, error) {
			return oddsWith(ctx, req, cmd(f), args, odds)
		}}
}

// always is a ChoicesFunc that reads no fork.
func always(c command.ChoicesFunc) func(Forks) command.ChoicesFunc {
	return func(Forks) command.ChoicesFunc { return c }
}

// seedOf is key's seed, nil for a system of its file alone.
func seedOf(key string) *seed {
	ss := seeds()
	if i := slices.IndexFunc(ss, func(s seed) bool { return s.key == key }); i >= 0 {
		return &ss[i]
	}
	return nil
}

// Register adds the command of every shipped system, named as its file
// names it, in the files' order (/help's), and the per-chat house rules
// to r. The option values and defaults are documented in docs/systems.md;
// each has a label "option.<key>", "option.<key>.<value>" and the word
// "option.<key>.<value>.word" a user types, in every catalog. The stored
// value is the code in Values, whatever the language it was typed in.
//
// forks, when given, finds a chat's fork of a system (/sistema): its
// command then rolls by the fork.
func Register(r *command.Router, forks ...Forks) {
	var f Forks
	if len(forks) > 0 {
		f = forks[0]
	}
	for _, k := range engine.Listed() {
		s := engine.MustBuiltin(k)
		h, choices := fileHandler(k, f), fileChoices(k) // filesys.go
		if sd := seedOf(k); sd != nil {
			h, choices = sd.run(f), sd.choices(f)
		}
		r.Register(command.Command{Name: s.File.Command, Aliases: s.File.Aliases, Handler: withHints(h), Roll: true})
		r.SetChoices(s.File.Command, choices) // what a pad button may ask for
	}

	r.RegisterOption(command.Option{Key: optZaria, Values: []string{"media_baja", "media_exacta", "media_alta"}, Default: "media_baja"})
	r.RegisterOption(command.Option{Key: optZariaNPCEpic, Values: []string{"no", "si"}, Default: "no"})
	r.RegisterOption(command.Option{Key: optDHBlindaje, Values: []string{"suma", "mayor"}, Default: "suma"})
	r.RegisterOption(command.Option{Key: optDHPen, Values: []string{"redondeo", "techo"}, Default: "redondeo"})
	r.RegisterOption(command.Option{Key: optDHDie, Values: []string{"d6", "d4"}, Default: "d6"})
	r.RegisterOption(command.Option{Key: optDaegon00, Values: []string{"cien", "cero"}, Default: "cien"})
}

// fileSystems are the shipped systems that run from their file alone.
func fileSystems() []string {
	var out []string
	for _, k := range engine.Listed() {
		if seedOf(k) == nil {
			out = append(out, k)
		}
	}
	return out
}

// Forkable lists the shipped systems whose commands roll by a chat's
// fork: every one the bot ships, the seeds first.
func Forkable() []string {
	var out []string
	for _, s := range seeds() {
		out = append(out, s.key)
	}
	return append(out, fileSystems()...)
}

// NamedForkable lists the forkable systems whose commands read a fork's
// named values too (a DC's name): a fork of the Ζαριά may move its tiers
// ("/sistema editar zaria media 14").
func NamedForkable() []string {
	var out []string
	for _, s := range seeds() {
		if s.named {
			out = append(out, s.key)
		}
	}
	return out
}

// OddsSystem returns the shipped system a word of /odds names (its key,
// command, an alias or a spelling of its file: "zaria", "ζ",
// "runequest"), or "" when it names none.
func OddsSystem(word string) string { return engine.Named(word) }

// OddsExample is a check of system as /odds takes it, in lang: its
// file's odds_example, else its example.
func OddsExample(system, lang string) string {
	return engine.MustBuiltin(system).OddsExample(lang)
}

// OddsOf computes the CheckOdds of a check of system typed as args, read
// as the system's own command reads them (sheet values, "@Drake", named
// difficulties in es, el and en). An opposed check ("4+2 vs 3+3") gives
// the chance that the active side wins. Of Dungeon Hack, only the attack
// ("ataque espada-larga vs coraza") has odds: the chance of damage above
// the Penetración and the damage's distribution.
//
// forks, when given, finds the chat's fork of the system: its odds then.
func OddsOf(ctx context.Context, req *command.Request, system, args string, forks ...Forks) (co *CheckOdds, err error) {
	defer func() { err = oddsHinted(req, err) }()
	var f Forks
	if len(forks) > 0 {
		f = forks[0]
	}
	if sd := seedOf(system); sd != nil {
		return sd.odds(ctx, req, f, args)
	}
	if slices.Contains(fileSystems(), system) {
		return fileOdds(ctx, req, f, system, args) // filesys.go
	}
	// A chat's own file (OwnOddsSystem), read as a file system's words.
	if sys, err := chatSystem(ctx, req, f, system); err != nil || sys != nil {
		if err != nil {
			return nil, err
		}
		return fileOdds(ctx, req, f, system, args)
	}
	return nil, fmt.Errorf("odds: unknown system %q", system)
}

// Charted lists the systems whose checks carry the 📊 button (of /dh,
// only the attack: sysCheck.charted), and roll.RegisterSystemOdds gives
// each of their commands the handler that shows their odds: every
// shipped system, each with a distribution to draw (RQ, issue 33, with
// the chance of each outcome, its d100 being uniform).
func Charted() []string { return engine.Listed() }
