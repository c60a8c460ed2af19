package sheet_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"zaria/core"
	"zaria/core/sheet"
	"zaria/internal/chattest"
)

// A random walk of /pj commands by three users (one a GM) in two chats,
// checked step by step against a plain model of the rules: who may do
// what, quotas, names, active characters, and chat isolation.
func TestRandomCommandsFollowTheModel(t *testing.T) {
	h := newHarness(t, chattest.Limits{CharactersPerUser: 2})
	rng := rand.New(rand.NewPCG(1, 2))
	type modelSheet struct {
		name, owner string
		values      map[string]string // key → value
	}
	type chatModel struct {
		chars  map[string]*modelSheet // key → sheet
		active map[string]string      // user id → key
	}
	model := map[core.ChatRef]*chatModel{}
	for _, c := range []core.ChatRef{chatA, chatB} {
		model[c] = &chatModel{chars: map[string]*modelSheet{}, active: map[string]string{}}
	}
	users := []core.User{ana, bob, admin}
	names := []string{"Drake", "Enyra", "Mira", "Orco", "Lys"}
	stats := []string{"fuerza", "sigilo"}
	owned := func(m *chatModel, u string) int {
		n := 0
		for _, c := range m.chars {
			if c.owner == u {
				n++
			}
		}
		return n
	}
	var oks, errs [6]int
	for step := range 400 {
		chat := []core.ChatRef{chatA, chatB}[rng.IntN(2)]
		m := model[chat]
		u := users[rng.IntN(len(users))]
		gm := u.ID == admin.ID
		name := names[rng.IntN(len(names))]
		key := sheet.NameKey(name)
		c := m.chars[key]
		var text string
		var wantOK bool
		op := rng.IntN(6)
		switch op {
		case 0:
			text = "/pj crear " + name
			wantOK = c == nil && owned(m, u.ID) < 2
			if wantOK {
				m.chars[key] = &modelSheet{name: name, owner: u.ID, values: map[string]string{}}
				m.active[u.ID] = key
			}
		case 1, 2:
			st, v := stats[rng.IntN(2)], itoa(rng.IntN(9))
			text = "/pj set @" + name + " " + st + " " + v
			wantOK = c != nil && (gm || c.owner == u.ID)
			if wantOK {
				c.values[st] = v
			}
		case 3:
			text = "/pj borrar " + name
			wantOK = c != nil && (gm || c.owner == u.ID)
			if wantOK {
				delete(m.chars, key)
				for who, k := range m.active {
					if k == key {
						delete(m.active, who)
					}
				}
			}
		case 4:
			text = "/pj usar " + name
			wantOK = c != nil && c.owner == u.ID
			if wantOK {
				m.active[u.ID] = key
			}
		case 5:
			st := stats[rng.IntN(2)]
			text = "/check " + st
			k, has := m.active[u.ID]
			wantOK = has && m.chars[k].values[st] != ""
		}
		out, rep := h.Send(chat, u, gm, text, 1)
		if rep.Error == wantOK {
			t.Fatalf("step %d: %s in %s: %q → %q; model expected ok=%v", step, u.Name, chat, text, out, wantOK)
		}
		if wantOK {
			oks[op]++
		} else {
			errs[op]++
		}
	}
	for op := range oks {
		if oks[op] == 0 || errs[op] == 0 {
			t.Fatalf("operation %d never took one of its paths: %d ok, %d refused", op, oks[op], errs[op])
		}
	}
	// Final state: every sheet as the model says, in its own chat only.
	ctx := context.Background()
	for chat, m := range model {
		list, err := h.DB.ListCharacters(ctx, chat)
		if err != nil || len(list) != len(m.chars) {
			t.Fatalf("%s: %d characters, %v; model has %d", chat, len(list), err, len(m.chars))
		}
		for key, c := range m.chars {
			for st, v := range c.values {
				got, err := h.Sheets.SheetText(ctx, chat, ana.ID, c.name, st)
				if err != nil || got != v {
					t.Fatalf("%s %s.%s = %q, %v; model %q", chat, key, st, got, err, v)
				}
			}
		}
		for who, key := range m.active {
			got, err := h.DB.ActiveCharacter(ctx, chat, who)
			if err != nil || got.Key != key {
				t.Fatalf("%s: active of %s = %q, %v; model %q", chat, who, got.Key, err, key)
			}
		}
	}
}
