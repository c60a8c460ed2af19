package character

import (
	"zaria/core/alias"
	"zaria/core/command"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/sheet"
	"zaria/core/transfer"
)

// Register adds the commands of characters, GMs, roll history,
// export/import and saved rolls to r, in that order (/help's). The router
// must have been built with s as its Sheets, Aliases and an Observer, and
// with the store as its GMs, for sheets, saved rolls, the history and
// /gm add to take effect:
//
//	svc := character.New(store, character.Options{Logger: log})
//	r := command.New(command.Config{Sheets: svc, Aliases: svc, GMs: store,
//		Observers: []command.Observer{svc}, ...})
//	character.Register(r, svc)
func Register(r *command.Router, s *Service) {
	sheet.Register(r, s.sheets)
	gm.Register(r, s.gms)
	history.Register(r, s.history)
	transfer.Register(r, s.transfer)
	alias.Register(r, s.aliases)
}
