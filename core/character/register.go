package character

import (
	"context"

	"zaria/core/command"
	"zaria/core/reply"
)

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
	r.Register(command.Command{Name: "pj", Aliases: []string{"char", "personaje", "χαρακτήρας", "ήρωας"}, Handler: withPrefix(s.pj)})
	r.Register(command.Command{Name: "gm", Aliases: []string{"dj", "master", "αφηγητής"}, Handler: withPrefix(s.gm)})
	r.Register(command.Command{Name: "historial", Aliases: []string{"history", "ιστορικό"}, Handler: withPrefix(s.history)})
	r.Register(command.Command{Name: "stats", Aliases: []string{"estadisticas", "στατιστικά"}, Handler: withPrefix(s.stats)})
	r.Register(command.Command{Name: "exportar", Aliases: []string{"export", "εξαγωγή"}, Handler: withPrefix(s.export)})
	r.Register(command.Command{Name: "importar", Aliases: []string{"import", "εισαγωγή"}, Handler: withPrefix(s.importChat),
		MaxInput: s.lim.ImportLen + 100, TakesFile: true})
	r.Register(command.Command{Name: "alias", Aliases: []string{"atajo", "συντόμευση"}, Handler: withPrefix(s.alias)})
}

// prefixOf is the command prefix the user typed, for the commands a reply
// suggests ("{{.pre}}pj set fuerza 4"); "/" when there is none (the CLI).
func prefixOf(req *command.Request) string {
	if req.Prefix == "" {
		return "/"
	}
	return req.Prefix
}

// tr translates key with the prefix the user typed as "pre".
func tr(req *command.Request, key string, kv ...any) string {
	return req.T(key, append(kv, "pre", prefixOf(req))...)
}

// withPrefix gives a handler's user errors the prefix the user typed.
func withPrefix(h command.HandlerFunc) command.HandlerFunc {
	return func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
		rep, err := h(ctx, req)
		if ue, ok := command.AsUserError(err); ok {
			if ue.Args == nil {
				ue.Args = map[string]any{}
			}
			if _, set := ue.Args["pre"]; !set {
				ue.Args["pre"] = prefixOf(req)
			}
		}
		return rep, err
	}
}
