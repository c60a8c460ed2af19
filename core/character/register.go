package character

import "zaria/core/command"

// Register adds the commands of characters, GMs, roll history,
// export/import and saved rolls to r. The router must have been built with
// s as its Sheets, Aliases and an Observer, and with the store as its GMs,
// for sheets, saved rolls, the history and /gm add to take effect:
//
//	svc := character.New(store, character.Options{Logger: log})
//	r := command.New(command.Config{Sheets: svc, Aliases: svc, GMs: store,
//		Observers: []command.Observer{svc}, ...})
//	character.Register(r, svc)
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "pj", Aliases: []string{"char", "personaje", "χαρακτήρας", "ήρωας"}, Handler: command.HandlerFunc(s.pj)})
	r.Register(command.Command{Name: "gm", Aliases: []string{"dj", "master", "αφηγητής"}, Handler: command.HandlerFunc(s.gm)})
	r.Register(command.Command{Name: "historial", Aliases: []string{"history", "ιστορικό"}, Handler: command.HandlerFunc(s.history)})
	r.Register(command.Command{Name: "stats", Aliases: []string{"estadisticas", "στατιστικά"}, Handler: command.HandlerFunc(s.stats)})
	r.Register(command.Command{Name: "exportar", Aliases: []string{"export", "εξαγωγή"}, Handler: command.HandlerFunc(s.export)})
	r.Register(command.Command{Name: "importar", Aliases: []string{"import", "εισαγωγή"}, Handler: command.HandlerFunc(s.importChat),
		MaxInput: s.lim.ImportLen + 100})
	r.Register(command.Command{Name: "alias", Aliases: []string{"atajo", "συντόμευση"}, Handler: command.HandlerFunc(s.alias)})
}
