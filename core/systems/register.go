package systems

import (
	"zaria/core/command"
)

// Register adds the commands of the five systems and their per-chat house
// rules to r. The option values and defaults are documented in
// docs/systems.md; each has a label "option.<key>", "option.<key>.<value>"
// and the word "option.<key>.<value>.word" a user types, in every catalog.
// The stored value is the code in Values, whatever the language it was
// typed in.
//
// forks, when given, finds a chat's fork of a system (/sistema): its
// command then rolls by the fork.
func Register(r *command.Router, forks ...Forks) {
	var f Forks
	if len(forks) > 0 {
		f = forks[0]
	}
	r.Register(command.Command{Name: "zaria", Aliases: []string{"z", "ζαριά", "ζ"}, Handler: withHints(zariaCmd(f).run), Roll: true})
	r.Register(command.Command{Name: "daegon", Aliases: []string{"dg"}, Handler: withHints(daegonCmd(f).run), Roll: true})
	r.Register(command.Command{Name: "kh", Handler: withHints(khCmd(f).run), Roll: true})
	r.Register(command.Command{Name: "rq", Handler: withHints(rqCmd(f).run), Roll: true})
	r.Register(command.Command{Name: "dh", Handler: withHints(dhCmd(f).run), Roll: true})

	r.RegisterOption(command.Option{Key: optZaria, Values: []string{"media_baja", "media_exacta", "media_alta"}, Default: "media_baja"})
	r.RegisterOption(command.Option{Key: optZariaNPCEpic, Values: []string{"no", "si"}, Default: "no"})
	r.RegisterOption(command.Option{Key: optDHBlindaje, Values: []string{"suma", "mayor"}, Default: "suma"})
	r.RegisterOption(command.Option{Key: optDHPen, Values: []string{"redondeo", "techo"}, Default: "redondeo"})
	r.RegisterOption(command.Option{Key: optDHDie, Values: []string{"d6", "d4"}, Default: "d6"})
	r.RegisterOption(command.Option{Key: optDaegon00, Values: []string{"cien", "cero"}, Default: "cien"})
	registerChoices(r, f)     // what a pad button may ask for (choices.go)
	registerFileSystems(r, f) // the systems that are their file alone (filesys.go)
}
