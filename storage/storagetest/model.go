package storagetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/history"
	"zaria/core/sheet"
)

// model is the contract of sheet.Store written as plain maps: the
// reference a store's answers are compared with in RunModel.
type model struct {
	chars  map[core.ChatRef]map[int64]*modelChar // chat → id → character
	active map[core.ChatRef]map[string]int64     // chat → user → id
}

type modelChar struct {
	owner, key string
	values     []sheet.Value
}

func (m *model) keyTaken(chat core.ChatRef, key string, except int64) bool {
	for id, c := range m.chars[chat] {
		if c.key == key && id != except {
			return true
		}
	}
	return false
}

func (m *model) owned(chat core.ChatRef, owner string) int {
	n := 0
	for _, c := range m.chars[chat] {
		if c.owner == owner {
			n++
		}
	}
	return n
}

// RunModel applies a long random sequence of character operations over a
// few chats, users and names to the store and to a map-based model, and
// after every step compares each chat's characters, values and active
// selections. It finds what hand-written cases miss: a selection left
// behind by a delete, a rename that leaks across chats, a quota counted in
// the wrong chat.
func RunModel(t *testing.T, open func(t *testing.T) sheet.Store) {
	ctx := context.Background()
	seed := uint64(20261130)
	rng := rand.New(rand.NewPCG(seed, seed))
	s := open(t)
	chats := []core.ChatRef{chatA, chatB, chatC}
	users := []string{"u1", "u2", "u3"}
	names := []string{"ana", "bob", "cid", "dan", "eva"}
	const quota = 2
	m := &model{chars: map[core.ChatRef]map[int64]*modelChar{}, active: map[core.ChatRef]map[string]int64{}}
	for _, c := range chats {
		m.chars[c], m.active[c] = map[int64]*modelChar{}, map[string]int64{}
	}
	// ids lists every id the store ever gave, to also try deleted and
	// other chats' ids.
	var ids []int64
	// pickID mostly picks a live character of chat (owned by owner, if
	// given), else any id ever given (deleted, other chats) or a random one.
	pickID := func(chat core.ChatRef, owner string) int64 {
		var live []int64
		for id, c := range m.chars[chat] {
			if owner == "" || c.owner == owner {
				live = append(live, id)
			}
		}
		sort.Slice(live, func(i, j int) bool { return live[i] < live[j] }) // map order is random
		switch r := rng.IntN(10); {
		case len(live) > 0 && r < 7:
			return live[rng.IntN(len(live))]
		case len(ids) > 0 && r < 9:
			return ids[rng.IntN(len(ids))]
		}
		return 1 + rng.Int64N(100)
	}
	values := func() []sheet.Value {
		var vs []sheet.Value
		for i, n := 0, rng.IntN(4); i < n; i++ {
			k := fmt.Sprint("v", i)
			vs = append(vs, sheet.Value{Name: k, Key: k, Text: fmt.Sprint(rng.IntN(10))})
		}
		return vs
	}

	outcomes := map[string]int{} // "create ok", "delete character: not found"…
	for step := 0; step < 400; step++ {
		chat := chats[rng.IntN(len(chats))]
		user := users[rng.IntN(len(users))]
		name := names[rng.IntN(len(names))]
		var op string
		var err, want, also error // also: another acceptable error when two apply
		switch rng.IntN(4) {
		case 0:
			op = fmt.Sprintf("create %s/%s by %s", chat, name, user)
			vs := values()
			// When the name is taken and the quota reached, the contract
			// does not say which error wins.
			if m.keyTaken(chat, name, 0) {
				want = core.ErrExists
			}
			if m.owned(chat, user) >= quota {
				want, also = core.ErrQuota, want
			}
			var c sheet.Character
			c, err = s.CreateCharacter(ctx, chat, sheet.Character{Owner: user, Name: name, Key: name, Values: vs}, sheet.Quota{PerOwner: quota})
			if err == nil {
				ids = append(ids, c.ID)
				m.chars[chat][c.ID] = &modelChar{owner: user, key: name, values: vs}
				m.active[chat][user] = c.ID
			}
		case 1:
			id := pickID(chat, "")
			op = fmt.Sprintf("update %s/%d to %s", chat, id, name)
			vs := values()
			c, ok := m.chars[chat][id]
			switch {
			case !ok:
				want = core.ErrNotFound
			case m.keyTaken(chat, name, id):
				want = core.ErrExists
			}
			_, err = s.EditCharacter(ctx, chat, id, func(c *sheet.Character) error {
				c.Owner, c.Name, c.Key, c.Values = "ignored", name, name, vs
				return nil
			})
			if err == nil && ok {
				c.key, c.values = name, vs
			}
		case 2:
			id := pickID(chat, "")
			op = fmt.Sprintf("delete %s/%d", chat, id)
			if _, ok := m.chars[chat][id]; !ok {
				want = core.ErrNotFound
			}
			err = s.DeleteCharacter(ctx, chat, id)
			if err == nil {
				delete(m.chars[chat], id)
				for u, a := range m.active[chat] {
					if a == id {
						delete(m.active[chat], u)
					}
				}
			}
		case 3:
			id := pickID(chat, user)
			op = fmt.Sprintf("use %s/%d by %s", chat, id, user)
			if c, ok := m.chars[chat][id]; !ok || c.owner != user {
				want = core.ErrNotFound
			}
			err = s.SetActive(ctx, chat, user, id)
			if err == nil {
				m.active[chat][user] = id
			}
		}
		if (want == nil) != (err == nil) || (want != nil && !errors.Is(err, want) && (also == nil || !errors.Is(err, also))) {
			t.Fatalf("step %d (seed %d): %s: err = %v, want %v", step, seed, op, err, want)
		}
		verb, _, _ := strings.Cut(op, " ")
		if err == nil {
			outcomes[verb+" ok"]++
		} else {
			outcomes[verb+" "+want.Error()]++
		}
		for _, c := range chats {
			compareModel(t, s, m, c, users, fmt.Sprintf("after step %d (%s)", step, op))
		}
	}
	t.Logf("outcomes: %v", outcomes)
}

func compareModel(t *testing.T, s sheet.Store, m *model, chat core.ChatRef, users []string, when string) {
	t.Helper()
	ctx := context.Background()
	list, err := s.ListCharacters(ctx, chat)
	if err != nil {
		t.Fatal(err)
	}
	var wantIDs []int64
	for id := range m.chars[chat] {
		wantIDs = append(wantIDs, id)
	}
	sort.Slice(wantIDs, func(i, j int) bool { return m.chars[chat][wantIDs[i]].key < m.chars[chat][wantIDs[j]].key })
	if len(list) != len(wantIDs) {
		t.Fatalf("%s: %s has %d characters, model %d", when, chat, len(list), len(wantIDs))
	}
	for i, c := range list {
		w := m.chars[chat][wantIDs[i]]
		wantActive := m.active[chat][w.owner] == wantIDs[i]
		if c.ID != wantIDs[i] || c.Key != w.key || c.Owner != w.owner || c.Active != wantActive || c.Chat != chat {
			t.Fatalf("%s: %s character %d = {id %d key %q owner %q active %v}, model {id %d key %q owner %q active %v}",
				when, chat, i, c.ID, c.Key, c.Owner, c.Active, wantIDs[i], w.key, w.owner, wantActive)
		}
		if len(c.Values) != len(w.values) {
			t.Fatalf("%s: %s/%s has values %v, model %v", when, chat, c.Key, c.Values, w.values)
		}
		for j := range w.values {
			if c.Values[j] != w.values[j] {
				t.Fatalf("%s: %s/%s has values %v, model %v", when, chat, c.Key, c.Values, w.values)
			}
		}
	}
	for _, u := range users {
		got, err := s.ActiveCharacter(ctx, chat, u)
		id, ok := m.active[chat][u]
		switch {
		case !ok && !errors.Is(err, core.ErrNotFound):
			t.Fatalf("%s: active of %s in %s = %q, %v; model: none", when, u, chat, got.Key, err)
		case ok && (err != nil || got.ID != id):
			t.Fatalf("%s: active of %s in %s = %d, %v; model: %d", when, u, chat, got.ID, err, id)
		}
	}
}

// RunRollModel logs random rolls in a few chats with random keep limits
// and compares history, per-user counts and face counts with a model.
func RunRollModel(t *testing.T, open func(t *testing.T) history.Store) {
	ctx := context.Background()
	seed := uint64(77)
	rng := rand.New(rand.NewPCG(seed, seed))
	s := open(t)
	chats := []core.ChatRef{chatA, chatB, chatC}
	kept := map[core.ChatRef][]history.Roll{} // oldest first
	for step := 0; step < 300; step++ {
		chat := chats[rng.IntN(len(chats))]
		user := fmt.Sprint("u", rng.IntN(4))
		r := history.Roll{Chat: chat, UserID: user, UserName: fmt.Sprint("name", step), Command: fmt.Sprint("/roll #", step)}
		for i, n := 0, rng.IntN(5); i < n; i++ {
			sides := []int{0, 4, 6, 10, 20}[rng.IntN(5)]
			r.Sides = append(r.Sides, sides)
			r.Dice = append(r.Dice, rng.IntN(sides+2)) // sometimes 0 or sides+1: out of range
		}
		keep := 1 + rng.IntN(12)
		if err := s.AppendRoll(ctx, r, keep); err != nil {
			t.Fatal(err)
		}
		k := append(kept[chat], r)
		if len(k) > keep {
			k = k[len(k)-keep:]
		}
		kept[chat] = k

		for _, c := range chats {
			want := kept[c]
			got, err := s.LastRolls(ctx, c, 100)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("step %d: %s keeps %d rolls, model %d", step, c, len(got), len(want))
			}
			counts := map[string]int{}
			names := map[string]string{}
			faces := map[[2]int]int{}
			for i, g := range got {
				w := want[len(want)-1-i]
				if g.Command != w.Command || g.UserID != w.UserID || len(g.Dice) != len(w.Dice) {
					t.Fatalf("step %d: %s roll %d = %q by %s, model %q by %s", step, c, i, g.Command, g.UserID, w.Command, w.UserID)
				}
				counts[w.UserID]++
				if _, seen := names[w.UserID]; !seen {
					names[w.UserID] = w.UserName // newest first: the first seen is the latest
				}
				for j, f := range w.Dice {
					if sd := w.Sides[j]; sd >= 1 && f >= 1 && f <= sd {
						faces[[2]int{sd, f}]++
					}
				}
			}
			uc, err := s.RollCounts(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if len(uc) != len(counts) {
				t.Fatalf("step %d: %s counts %v, model %v", step, c, uc, counts)
			}
			for i, u := range uc {
				if u.Rolls != counts[u.UserID] || u.UserName != names[u.UserID] ||
					(i > 0 && (uc[i-1].Rolls < u.Rolls || uc[i-1].Rolls == u.Rolls && uc[i-1].UserID > u.UserID)) {
					t.Fatalf("step %d: %s counts %+v, model %v %v", step, c, uc, counts, names)
				}
			}
			fc, err := s.FaceCounts(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if len(fc) != len(faces) {
				t.Fatalf("step %d: %s faces %+v, model %v", step, c, fc, faces)
			}
			for i, f := range fc {
				if f.Count != faces[[2]int{f.Sides, f.Face}] ||
					(i > 0 && (fc[i-1].Sides > f.Sides || fc[i-1].Sides == f.Sides && fc[i-1].Face >= f.Face)) {
					t.Fatalf("step %d: %s faces %+v, model %v", step, c, fc, faces)
				}
			}
			// DieStats: sizes ≥ 2 by dice, most first, ties by size.
			bySize := map[int]int{}
			for k, n := range faces {
				if k[0] >= 2 {
					bySize[k[0]] += n
				}
			}
			var order []int
			for sd := range bySize {
				order = append(order, sd)
			}
			sort.Slice(order, func(i, j int) bool {
				if bySize[order[i]] != bySize[order[j]] {
					return bySize[order[i]] > bySize[order[j]]
				}
				return order[i] < order[j]
			})
			top := 2
			ds, more, err := s.DieStats(ctx, c, top)
			if err != nil {
				t.Fatal(err)
			}
			wantMore := max(len(order)-top, 0)
			if len(order) > top {
				order = order[:top]
			}
			if len(ds) != len(order) || more != wantMore {
				t.Fatalf("step %d: %s die stats %+v (+%d), model sizes %v (+%d)", step, c, ds, more, order, wantMore)
			}
			for i, sz := range ds {
				n := 0
				for j, f := range sz.Faces {
					if f.Sides != sz.Sides || f.Count != faces[[2]int{f.Sides, f.Face}] || (j > 0 && sz.Faces[j-1].Face >= f.Face) {
						t.Fatalf("step %d: %s die stats of d%d: %+v, model %v", step, c, sz.Sides, sz.Faces, faces)
					}
					n += f.Count
				}
				if sz.Sides != order[i] || sz.N != bySize[order[i]] || n != sz.N {
					t.Fatalf("step %d: %s die stats %+v, model d%d × %d", step, c, sz, order[i], bySize[order[i]])
				}
			}
		}
	}
}
