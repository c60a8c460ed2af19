package transfer

import (
	"context"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/systems/fork"
)

// SystemsLister lists a chat's forks and own systems (/sistema), for the
// export (fork.Store).
type SystemsLister interface {
	Forks(ctx context.Context, chat core.ChatRef) ([]fork.Fork, error)
}

// exportSystem is a chat's fork (base, its changes) or own file (source)
// in the export document.
type exportSystem struct {
	Key     string        `json:"key"`
	Base    string        `json:"base,omitempty"`
	Changes []fork.Change `json:"changes,omitempty"`
	Source  string        `json:"source,omitempty"`
}

// exportSystems writes the chat's forks and own systems into doc.
func (s *Service) exportSystems(ctx context.Context, chat core.ChatRef, doc *exportDoc) error {
	fs, err := s.store.Forks(ctx, chat)
	if err != nil {
		return internal("list forks", err)
	}
	out := make([]exportSystem, 0, len(fs))
	for _, f := range fs {
		out = append(out, exportSystem{Key: f.Key, Base: f.Base, Changes: f.Changes, Source: string(f.Source)})
	}
	doc.Systems = &out
	return nil
}

// importSystems checks a document's systems as /sistema checks what it
// keeps (a fork's changes build, an own file's vectors hold), into out.
func importSystems(doc *exportDoc, out *ChatData) error {
	if doc.Systems == nil {
		return nil
	}
	if len(*doc.Systems) > fork.MaxPerChat {
		return command.Errorf("import.systems_many", "max", fork.MaxPerChat, "got", len(*doc.Systems))
	}
	out.Systems = make([]fork.Fork, 0, len(*doc.Systems))
	seen := map[string]bool{}
	for _, es := range *doc.Systems {
		f := fork.Fork{Key: es.Key, Base: es.Base, Changes: es.Changes}
		if es.Source != "" {
			f.Source = []byte(es.Source)
		}
		if err := fork.Check(f); err != nil || seen[f.Key] {
			return command.Errorf("import.bad_system", "name", fold.Cut(fold.Clean(es.Key), 40))
		}
		seen[f.Key] = true
		out.Systems = append(out.Systems, f)
	}
	return nil
}
