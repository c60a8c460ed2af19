package fork

import "zaria/core/systems/engine"

// View is a chat's system as the page's rules screen shows it: its
// numbers to change (a fork's) and what differs from the book, in words.
type View struct {
	Key, Title, Command string
	Own                 bool
	Numbers             []NumberView
	Names               []NameView // the outcomes' names, in the view's language
	Changes             []string   // "pifia: la del libro → 95"
}

// NameView is an outcome's name a GM may change, by its key.
type NameView struct{ Key, Name string }

// NumberView is a number a GM may change, by its key.
type NumberView struct {
	Key, Name       string
	Value, Min, Max int
}

// Views are the chat's forks and own systems in tx's language; one the
// shipped file no longer admits says so.
func Views(fs []Fork, tx Texts) ([]View, error) {
	var out []View
	for _, f := range fs {
		var sys *engine.System
		var err error
		if f.Own() {
			sys, err = engine.Load(f.Source)
		} else if bs, ok := base(f.Base); ok {
			sys, _, err = Build(bs, f.Changes)
		} else {
			continue
		}
		if err != nil {
			// No longer admitted by the shipped file: shown, not editable.
			out = append(out, View{Key: f.Key, Title: f.Key, Command: f.Key, Own: f.Own(),
				Changes: []string{tx.T("fork.broken", "cmd", "/system original "+f.Key)}})
			continue
		}
		v := View{Key: f.Key, Title: sys.File.Title.In(tx.Lang), Command: sys.File.Command, Own: f.Own()}
		if !f.Own() {
			bs, _ := base(f.Base)
			for _, n := range sys.File.Numbers {
				v.Numbers = append(v.Numbers, NumberView{Key: n.Key, Name: n.Names.In(tx.Lang), Value: n.Value, Min: n.Min, Max: n.Max})
			}
			for _, o := range sys.File.Outcomes {
				v.Names = append(v.Names, NameView{Key: o.Key, Name: o.Names.In(tx.Lang)})
			}
			for _, c := range f.Changes {
				v.Changes = append(v.Changes, describe(tx, bs, c)+" → "+valueText(tx, sys, c))
			}
		}
		out = append(out, v)
	}
	return out, nil
}
