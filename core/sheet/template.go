package sheet

import (
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/systems/engine"
)

// SystemOption is the chat's default system for a new sheet
// ("/ajustes sistema rq"): "/pj crear Lyra" then starts an RQ sheet.
const SystemOption = "sistema"

// noSystem is SystemOption's value for no system: an empty sheet.
const noSystem = "ninguno"

// systemOption is SystemOption's choices: none, or the key of a shipped
// system file with a sheet section (engine.SheetSystems: its title names
// it, its words name it in /pj: ParseSystem); each choice has its labels
// "option.sistema.<key>" and ".word" in every catalog.
func systemOption() command.Option {
	return command.Option{Key: SystemOption, Values: append([]string{noSystem}, engine.SheetSystems()...), Default: noSystem}
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
	if v := req.Option(SystemOption); v != noSystem {
		return v
	}
	return ""
}

// SheetKeysFunc is where a Service finds a system's sheet keys; nil
// starts every sheet empty.
type SheetKeysFunc func(system string) []engine.SheetKey
