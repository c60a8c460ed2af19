package sheet

import (
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/systems/engine"
)

// SystemOption is the chat's default system for a new sheet
// ("/ajustes sistema rq"): "/pj crear Lyra" then starts an RQ sheet.
const SystemOption = "sistema"

// systemOption is SystemOption's choices: none, or a system id.
func systemOption() command.Option {
	return command.Option{Key: SystemOption, Values: []string{"ninguno", "zaria", "daegon", "dh", "kh", "rq"}, Default: "ninguno"}
}

// startValues are the values a new sheet of system starts with: the keys
// its file declares (engine.SheetKey), each named in the chat's language
// ("Fuerza" in Spanish, "Δύναμη" in Greek), at most the sheet's quota.
func (s *Service) startValues(req *command.Request, system string) []Value {
	if s.keys == nil || system == "" {
		return nil
	}
	var out []Value
	for _, k := range s.keys(system) {
		if len(out) == s.lim.ValuesPerSheet {
			break
		}
		name := k.Names.In(req.Lang)
		out = append(out, Value{Name: name, Key: fold.Key(name), Text: k.Value})
	}
	return out
}

// defaultSystem is the system of a sheet created without one: the chat's
// SystemOption, "" when it has none.
func defaultSystem(req *command.Request) string {
	if v := req.Option(SystemOption); v != "ninguno" {
		return v
	}
	return ""
}

// SheetKeysFunc is where a Service finds a system's sheet keys; nil
// starts every sheet empty.
type SheetKeysFunc func(system string) []engine.SheetKey
