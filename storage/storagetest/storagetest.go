// Package storagetest is the contract test suite of zaria's stores. Every
// store implementation runs it against a fresh store of its own:
//
//	storagetest.Run(t, func(t *testing.T) storagetest.Store { return openMyStore(t) })
//
// A store that implements only part of the contract runs the matching
// part: RunSettings, RunState, RunCharacters, RunModel, RunGMs,
// RunRollLog, RunRollModel, RunAliases, RunImport, RunConcurrency.
package storagetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/alias"
	"zaria/core/command"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/sheet"
	"zaria/core/transfer"
)

// StateStore keeps the adapters' platform state (Telegram's update offset,
// Matrix's sync token).
type StateStore interface {
	State(ctx context.Context, key string) (value string, ok bool, err error)
	SetState(ctx context.Context, key, value string) error
}

// Store is everything a complete zaria store implements.
type Store interface {
	sheet.Store
	gm.Store
	history.Store
	alias.Store
	transfer.Importer
	transfer.PadLister
	SettingsChanger
	StateStore
}

// Chats used by the suite. chatA and chatB share nothing; chatC has chatA's
// id on another platform, so a store that keys by id alone fails.
var (
	chatA = core.ChatRef{Platform: "telegram", ID: "-1001"}
	chatB = core.ChatRef{Platform: "telegram", ID: "-1002"}
	chatC = core.ChatRef{Platform: "matrix", ID: "-1001"}
)

// t0 is a fixed time with nanoseconds, to check times round-trip exactly.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.UTC)

// Run runs the whole contract against stores made by open. Each sub-test
// gets a fresh, empty store.
func Run(t *testing.T, open func(t *testing.T) Store) {
	t.Run("Settings", func(t *testing.T) { RunSettings(t, func(t *testing.T) SettingsChanger { return open(t) }) })
	t.Run("SettingsChanges", func(t *testing.T) { RunSettingsChanges(t, func(t *testing.T) SettingsChanger { return open(t) }) })
	t.Run("State", func(t *testing.T) { RunState(t, func(t *testing.T) StateStore { return open(t) }) })
	t.Run("Characters", func(t *testing.T) { RunCharacters(t, func(t *testing.T) sheet.Store { return open(t) }) })
	t.Run("GMs", func(t *testing.T) { RunGMs(t, func(t *testing.T) gm.Store { return open(t) }) })
	t.Run("RollLog", func(t *testing.T) { RunRollLog(t, func(t *testing.T) history.Store { return open(t) }) })
	t.Run("RollModel", func(t *testing.T) { RunRollModel(t, func(t *testing.T) history.Store { return open(t) }) })
	t.Run("Aliases", func(t *testing.T) { RunAliases(t, func(t *testing.T) alias.Store { return open(t) }) })
	t.Run("Model", func(t *testing.T) { RunModel(t, func(t *testing.T) sheet.Store { return open(t) }) })
	t.Run("Marks", func(t *testing.T) { RunMarks(t, func(t *testing.T) sheet.Store { return open(t) }) })
	t.Run("Import", func(t *testing.T) { RunImport(t, open) })
	t.Run("Concurrency", func(t *testing.T) { RunConcurrency(t, open) })
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err, target error, what string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: err = %v, want %v", what, err, target)
	}
}

// RunSettings checks a command.SettingsStore.
func RunSettings(t *testing.T, open func(t *testing.T) SettingsChanger) {
	ctx := context.Background()
	t.Run("UnknownChatIsZero", func(t *testing.T) {
		s := open(t)
		got, err := s.Settings(ctx, chatA)
		must(t, err)
		if got.Lang != "" || len(got.Options) != 0 {
			t.Errorf("settings of a new chat = %+v, want zero", got)
		}
	})
	t.Run("SaveAndReplace", func(t *testing.T) {
		s := open(t)
		first := core.Settings{Lang: "el", Options: map[string]string{"prefix": "!", "dh_blindaje": "sí", "όνομα": "τιμή"}}
		must(t, s.SaveSettings(ctx, chatA, first))
		got, err := s.Settings(ctx, chatA)
		must(t, err)
		if !reflect.DeepEqual(got, first) {
			t.Errorf("settings = %+v, want %+v", got, first)
		}
		// The caller's map is not shared with the store.
		got.Options["prefix"] = "?"
		again, err := s.Settings(ctx, chatA)
		must(t, err)
		if again.Options["prefix"] != "!" {
			t.Errorf("changing a returned map changed the store: prefix = %q", again.Options["prefix"])
		}
		second := core.Settings{Lang: "es", Options: map[string]string{"zaria": "heroico"}}
		must(t, s.SaveSettings(ctx, chatA, second))
		got, err = s.Settings(ctx, chatA)
		must(t, err)
		if !reflect.DeepEqual(got, second) {
			t.Errorf("after replace, settings = %+v, want %+v (old options must go)", got, second)
		}
		must(t, s.SaveSettings(ctx, chatA, core.Settings{}))
		got, err = s.Settings(ctx, chatA)
		must(t, err)
		if got.Lang != "" || len(got.Options) != 0 {
			t.Errorf("after saving zero settings: %+v", got)
		}
	})
	t.Run("Isolation", func(t *testing.T) {
		s := open(t)
		must(t, s.SaveSettings(ctx, chatA, core.Settings{Lang: "el", Options: map[string]string{"k": "a"}}))
		must(t, s.SaveSettings(ctx, chatB, core.Settings{Lang: "en", Options: map[string]string{"k": "b"}}))
		for chat, want := range map[core.ChatRef]string{chatA: "el", chatB: "en", chatC: ""} {
			got, err := s.Settings(ctx, chat)
			must(t, err)
			if got.Lang != want {
				t.Errorf("lang of %s = %q, want %q", chat, got.Lang, want)
			}
		}
		got, err := s.Settings(ctx, chatC)
		must(t, err)
		if len(got.Options) != 0 {
			t.Errorf("chat %s sees options %v of another platform's chat", chatC, got.Options)
		}
	})
}

// SettingsChanger is the router's settings store (which changes one
// setting at a time) plus SaveSettings, which replaces them all (import).
type SettingsChanger interface {
	command.SettingsStore
	SaveSettings(ctx context.Context, chat core.ChatRef, s core.Settings) error
}

// RunSettingsChanges checks SetLang and SetOption, including from many
// goroutines at once: every option set is kept.
func RunSettingsChanges(t *testing.T, open func(t *testing.T) SettingsChanger) {
	ctx := context.Background()
	s := open(t)
	must(t, s.SaveSettings(ctx, chatA, core.Settings{Lang: "es", Options: map[string]string{"keep": "1", "gone": "x"}}))
	must(t, s.SetLang(ctx, chatA, "el"))
	must(t, s.SetOption(ctx, chatA, "new", "2"))
	must(t, s.SetOption(ctx, chatA, "keep", "3"))
	must(t, s.SetOption(ctx, chatA, "gone", ""))
	must(t, s.SetOption(ctx, chatB, "other", "b"))
	got, err := s.Settings(ctx, chatA)
	must(t, err)
	want := core.Settings{Lang: "el", Options: map[string]string{"keep": "3", "new": "2"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settings = %+v, want %+v", got, want)
	}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := s.SetOption(ctx, chatC, fmt.Sprint("k", i), fmt.Sprint(i)); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	got, err = s.Settings(ctx, chatC)
	must(t, err)
	if len(got.Options) != 20 {
		t.Errorf("after 20 concurrent SetOption, %d options kept: %v", len(got.Options), got.Options)
	}
}

// RunState checks a StateStore.
func RunState(t *testing.T, open func(t *testing.T) StateStore) {
	ctx := context.Background()
	s := open(t)
	if v, ok, err := s.State(ctx, "telegram.offset"); err != nil || ok || v != "" {
		t.Errorf("missing state = %q %v %v, want \"\" false nil", v, ok, err)
	}
	must(t, s.SetState(ctx, "telegram.offset", "1001"))
	must(t, s.SetState(ctx, "matrix.sync_token", "s72594_4483_1934"))
	must(t, s.SetState(ctx, "telegram.offset", "1002"))
	must(t, s.SetState(ctx, "empty", ""))
	for key, want := range map[string]string{"telegram.offset": "1002", "matrix.sync_token": "s72594_4483_1934", "empty": ""} {
		v, ok, err := s.State(ctx, key)
		if err != nil || !ok || v != want {
			t.Errorf("State(%q) = %q %v %v, want %q true nil", key, v, ok, err, want)
		}
	}
}

// newSheet builds a character for the tests.
func newSheet(owner, name string, values ...string) sheet.Character {
	c := sheet.Character{Owner: owner, OwnerName: "Name of " + owner, Name: name, Key: key(name), System: "zaria"}
	for i := 0; i+1 < len(values); i += 2 {
		c.Values = append(c.Values, sheet.Value{Name: values[i], Key: key(values[i]), Text: values[i+1]})
	}
	return c
}

// key is a stand-in for fold.Key good enough for the suite's ASCII and
// pre-folded names: stores never fold, they compare keys byte for byte.
func key(s string) string {
	b := []rune(s)
	for i, r := range b {
		if r >= 'A' && r <= 'Z' {
			b[i] = r + 'a' - 'A'
		}
	}
	return string(b)
}

func sameCharacter(t *testing.T, got, want sheet.Character) {
	t.Helper()
	if got.ID != want.ID || got.Chat != want.Chat || got.Owner != want.Owner || got.OwnerName != want.OwnerName ||
		got.Name != want.Name || got.Key != want.Key || got.System != want.System || got.Active != want.Active ||
		!got.Created.Equal(want.Created) || !got.Updated.Equal(want.Updated) {
		t.Errorf("character =\n  %+v\nwant\n  %+v", got, want)
	}
	if len(got.Values) != len(want.Values) || (len(got.Values) > 0 && !reflect.DeepEqual(got.Values, want.Values)) {
		t.Errorf("values of %q = %+v, want %+v", want.Key, got.Values, want.Values)
	}
}

// RunCharacters checks a sheet.Store (character sheets).
func RunCharacters(t *testing.T, open func(t *testing.T) sheet.Store) {
	ctx := context.Background()

	t.Run("CreateAndRead", func(t *testing.T) {
		s := open(t)
		in := newSheet("u1", "Drake", "Fuerza", "4", "Atletismo", "2", "Arma", "espada-larga", "Δύναμη", "-1")
		in.Created, in.Updated = t0, t0.Add(time.Second)
		in.Chat = chatB // ignored: the chat argument wins
		c, err := s.CreateCharacter(ctx, chatA, in, sheet.Quota{PerOwner: 5})
		must(t, err)
		if c.ID == 0 || c.Chat != chatA || !c.Active {
			t.Errorf("created = %+v, want an ID, chat %s, active", c, chatA)
		}
		want := in
		want.ID, want.Chat, want.Active = c.ID, chatA, true
		sameCharacter(t, c, want)
		got, err := s.Character(ctx, chatA, "drake")
		must(t, err)
		sameCharacter(t, got, want)
		got, err = s.ActiveCharacter(ctx, chatA, "u1")
		must(t, err)
		sameCharacter(t, got, want)

		// No values, zero times: the store sets the times.
		before := time.Now().Add(-time.Minute)
		bare, err := s.CreateCharacter(ctx, chatA, newSheet("u2", "Mira"), sheet.Quota{PerOwner: 5})
		must(t, err)
		if bare.Created.Before(before) || bare.Updated.Before(before) {
			t.Errorf("zero times were not set: created %v updated %v", bare.Created, bare.Updated)
		}
		got, err = s.Character(ctx, chatA, "mira")
		must(t, err)
		sameCharacter(t, got, bare)
	})

	t.Run("NotFound", func(t *testing.T) {
		s := open(t)
		_, err := s.Character(ctx, chatA, "nadie")
		wantErr(t, err, core.ErrNotFound, "Character of an empty store")
		_, err = s.ActiveCharacter(ctx, chatA, "u1")
		wantErr(t, err, core.ErrNotFound, "ActiveCharacter of an empty store")
		list, err := s.ListCharacters(ctx, chatA)
		must(t, err)
		if len(list) != 0 {
			t.Errorf("list of an empty chat = %v", list)
		}
		_, err = s.EditCharacter(ctx, chatA, 1, func(c *sheet.Character) error { c.Key = "x"; return nil })
		wantErr(t, err, core.ErrNotFound, "EditCharacter of an empty store")
		wantErr(t, s.DeleteCharacter(ctx, chatA, 1), core.ErrNotFound, "DeleteCharacter of an empty store")
		wantErr(t, s.SetActive(ctx, chatA, "u1", 1), core.ErrNotFound, "SetActive of an empty store")
	})

	t.Run("DuplicateKey", func(t *testing.T) {
		s := open(t)
		_, err := s.CreateCharacter(ctx, chatA, newSheet("u1", "Drake"), sheet.Quota{PerOwner: 5})
		must(t, err)
		_, err = s.CreateCharacter(ctx, chatA, newSheet("u2", "Drake", "Fuerza", "1"), sheet.Quota{PerOwner: 5})
		wantErr(t, err, core.ErrExists, "second Drake in the chat")
		got, err := s.Character(ctx, chatA, "drake")
		must(t, err)
		if got.Owner != "u1" || len(got.Values) != 0 {
			t.Errorf("a refused create changed the first Drake: %+v", got)
		}
		if _, err := s.ActiveCharacter(ctx, chatA, "u2"); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("a refused create left u2 an active character: %v", err)
		}
		// Keys are compared byte for byte: the core folds, the store does not.
		upper := newSheet("u3", "Drake")
		upper.Key = "DRAKE"
		_, err = s.CreateCharacter(ctx, chatA, upper, sheet.Quota{PerOwner: 5})
		must(t, err)
		if _, err := s.Character(ctx, chatA, "Drake"); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("key %q found by %q: the store folds keys", "drake", "Drake")
		}
		// Same name in other chats is fine.
		_, err = s.CreateCharacter(ctx, chatB, newSheet("u2", "Drake"), sheet.Quota{PerOwner: 5})
		must(t, err)
		_, err = s.CreateCharacter(ctx, chatC, newSheet("u2", "Drake"), sheet.Quota{PerOwner: 5})
		must(t, err)
	})

	t.Run("Quota", func(t *testing.T) {
		s := open(t)
		for _, n := range []string{"A1", "A2"} {
			_, err := s.CreateCharacter(ctx, chatA, newSheet("u1", n), sheet.Quota{PerOwner: 2})
			must(t, err)
		}
		_, err := s.CreateCharacter(ctx, chatA, newSheet("u1", "A3"), sheet.Quota{PerOwner: 2})
		wantErr(t, err, core.ErrQuota, "third character with quota 2")
		if _, err := s.Character(ctx, chatA, "a3"); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("refused character was stored: %v", err)
		}
		// The quota is per owner and per chat.
		_, err = s.CreateCharacter(ctx, chatA, newSheet("u2", "B1"), sheet.Quota{PerOwner: 2})
		must(t, err)
		_, err = s.CreateCharacter(ctx, chatB, newSheet("u1", "A3"), sheet.Quota{PerOwner: 2})
		must(t, err)
		// Deleting frees a place.
		a1, err := s.Character(ctx, chatA, "a1")
		must(t, err)
		must(t, s.DeleteCharacter(ctx, chatA, a1.ID))
		_, err = s.CreateCharacter(ctx, chatA, newSheet("u1", "A3"), sheet.Quota{PerOwner: 2})
		must(t, err)
	})

	t.Run("ListAndActive", func(t *testing.T) {
		s := open(t)
		zed, err := s.CreateCharacter(ctx, chatA, newSheet("u1", "Zed", "x", "1"), sheet.Quota{})
		must(t, err)
		amy, err := s.CreateCharacter(ctx, chatA, newSheet("u1", "Amy", "y", "2"), sheet.Quota{})
		must(t, err)
		bob, err := s.CreateCharacter(ctx, chatA, newSheet("u2", "Bob"), sheet.Quota{})
		must(t, err)
		_, err = s.CreateCharacter(ctx, chatB, newSheet("u1", "Other"), sheet.Quota{})
		must(t, err)

		list, err := s.ListCharacters(ctx, chatA)
		must(t, err)
		var keys []string
		active := map[string]bool{}
		for _, c := range list {
			keys = append(keys, c.Key)
			active[c.Key] = c.Active
			if c.Chat != chatA {
				t.Errorf("listed %q with chat %s", c.Key, c.Chat)
			}
		}
		if !reflect.DeepEqual(keys, []string{"amy", "bob", "zed"}) {
			t.Errorf("list keys = %v, want [amy bob zed]", keys)
		}
		// The newest character of u1 (Amy) is its active one.
		if !active["amy"] || !active["bob"] || active["zed"] {
			t.Errorf("active flags = %v, want amy and bob", active)
		}
		if list[2].Values[0].Text != "1" {
			t.Errorf("zed's values = %+v", list[2].Values)
		}

		must(t, s.SetActive(ctx, chatA, "u1", zed.ID))
		got, err := s.ActiveCharacter(ctx, chatA, "u1")
		must(t, err)
		if got.ID != zed.ID || !got.Active {
			t.Errorf("active of u1 = %q (active=%v), want zed", got.Key, got.Active)
		}
		got, err = s.Character(ctx, chatA, "amy")
		must(t, err)
		if got.Active {
			t.Error("amy is still active after switching to zed")
		}
		// A user cannot pick another user's character, nor one of another chat.
		wantErr(t, s.SetActive(ctx, chatA, "u1", bob.ID), core.ErrNotFound, "u1 picks bob of u2")
		wantErr(t, s.SetActive(ctx, chatB, "u1", amy.ID), core.ErrNotFound, "u1 picks amy from chat B")
		got, err = s.ActiveCharacter(ctx, chatA, "u1")
		must(t, err)
		if got.ID != zed.ID {
			t.Errorf("a refused SetActive changed the active character to %q", got.Key)
		}
		other, err := s.ActiveCharacter(ctx, chatB, "u1")
		must(t, err)
		if other.Key != "other" {
			t.Errorf("active of u1 in chat B = %q, want other", other.Key)
		}
	})

	t.Run("Update", func(t *testing.T) {
		s := open(t)
		in := newSheet("u1", "Drake", "Fuerza", "4", "Atletismo", "2")
		in.Created = t0
		c, err := s.CreateCharacter(ctx, chatA, in, sheet.Quota{})
		must(t, err)
		mira, err := s.CreateCharacter(ctx, chatA, newSheet("u2", "Mira"), sheet.Quota{})
		must(t, err)

		// replace sets every field an edit may change, and tries the others.
		replace := func(to sheet.Character) func(*sheet.Character) error {
			return func(c *sheet.Character) error {
				id := c.ID
				*c = to
				c.ID = id + 1000 // not changed by an edit either
				return nil
			}
		}
		up := c
		up.Name, up.Key, up.System, up.OwnerName = "Drake el Rojo", "drake el rojo", "dh", "Ana"
		up.Values = []sheet.Value{{Name: "Atletismo", Key: "atletismo", Text: "3"}, {Name: "Uso arma", Key: "uso arma", Text: "d6"}}
		up.Updated = t0.Add(time.Hour)
		up.Owner, up.Created, up.Active, up.Chat = "intruder", t0.Add(-time.Hour), false, chatB // not changed by an edit
		edited, err := s.EditCharacter(ctx, chatA, c.ID, replace(up))
		must(t, err)
		want := up
		want.ID, want.Owner, want.Created, want.Active, want.Chat = c.ID, "u1", t0, true, chatA
		sameCharacter(t, edited, want)
		got, err := s.Character(ctx, chatA, "drake el rojo")
		must(t, err)
		sameCharacter(t, got, want)
		if _, err := s.Character(ctx, chatA, "drake"); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("old key still finds the renamed character: %v", err)
		}

		// The edit sees the sheet as stored, and its error aborts it.
		boom := errors.New("boom")
		_, err = s.EditCharacter(ctx, chatA, c.ID, func(c *sheet.Character) error {
			if c.Name != "Drake el Rojo" || len(c.Values) != 2 || c.Values[1].Text != "d6" || c.Owner != "u1" {
				t.Errorf("edit sees %+v", c)
			}
			c.Name, c.Values = "Nope", nil
			return boom
		})
		if err != boom {
			t.Errorf("an edit's error came back as %v, want it as it is", err)
		}
		again, err := s.Character(ctx, chatA, "drake el rojo")
		must(t, err)
		sameCharacter(t, again, want)

		// Taking another character's key fails and changes nothing.
		_, err = s.EditCharacter(ctx, chatA, c.ID, func(c *sheet.Character) error {
			c.Key, c.Values = mira.Key, nil
			return nil
		})
		wantErr(t, err, core.ErrExists, "rename onto mira")
		again, err = s.Character(ctx, chatA, "drake el rojo")
		must(t, err)
		sameCharacter(t, again, want)

		// The id of chat A's character is unknown in chat B.
		_, err = s.EditCharacter(ctx, chatB, c.ID, replace(up))
		wantErr(t, err, core.ErrNotFound, "edit via another chat")
		_, err = s.CreateCharacter(ctx, chatB, newSheet("u9", "Zz"), sheet.Quota{})
		must(t, err)
		_, err = s.EditCharacter(ctx, chatB, c.ID, replace(up))
		wantErr(t, err, core.ErrNotFound, "edit via another chat that exists")
		again, err = s.Character(ctx, chatA, "drake el rojo")
		must(t, err)
		sameCharacter(t, again, want)

		// One value changed, one removed, two added, in order; then a
		// reordering; then emptying. Each reads back as edited.
		steps := []func(vs []sheet.Value) []sheet.Value{
			func(vs []sheet.Value) []sheet.Value {
				vs[0].Text = "4"
				return append(vs[:1], sheet.Value{Name: "Fuerza", Key: "fuerza", Text: "2"}, sheet.Value{Name: "Δύναμη", Key: "δυναμη", Text: "-1"})
			},
			func(vs []sheet.Value) []sheet.Value {
				return append(vs, sheet.Value{Name: "Arma", Key: "arma", Text: "espada"})
			},
			func(vs []sheet.Value) []sheet.Value {
				return []sheet.Value{vs[3], vs[1], vs[0]}
			},
			func(vs []sheet.Value) []sheet.Value {
				return append([]sheet.Value{{Name: "Nuevo", Key: "nuevo", Text: "1"}}, vs[1:]...)
			},
			func([]sheet.Value) []sheet.Value { return nil },
		}
		for i, step := range steps {
			var wantValues []sheet.Value
			_, err := s.EditCharacter(ctx, chatA, c.ID, func(c *sheet.Character) error {
				c.Values = step(c.Values)
				wantValues = append([]sheet.Value(nil), c.Values...)
				return nil
			})
			must(t, err)
			again, err := s.Character(ctx, chatA, "drake el rojo")
			must(t, err)
			if len(again.Values) != len(wantValues) || (len(wantValues) > 0 && !reflect.DeepEqual(again.Values, wantValues)) {
				t.Errorf("values after step %d = %+v, want %+v", i, again.Values, wantValues)
			}
		}
	})

	t.Run("Delete", func(t *testing.T) {
		s := open(t)
		c, err := s.CreateCharacter(ctx, chatA, newSheet("u1", "Drake", "Fuerza", "4"), sheet.Quota{})
		must(t, err)
		_, err = s.CreateCharacter(ctx, chatB, newSheet("u1", "Drake"), sheet.Quota{})
		must(t, err)
		wantErr(t, s.DeleteCharacter(ctx, chatB, c.ID), core.ErrNotFound, "delete via another chat")
		if _, err := s.Character(ctx, chatA, "drake"); err != nil {
			t.Fatalf("delete via chat B removed chat A's character: %v", err)
		}
		must(t, s.DeleteCharacter(ctx, chatA, c.ID))
		_, err = s.Character(ctx, chatA, "drake")
		wantErr(t, err, core.ErrNotFound, "Character after delete")
		_, err = s.ActiveCharacter(ctx, chatA, "u1")
		wantErr(t, err, core.ErrNotFound, "ActiveCharacter after delete")
		wantErr(t, s.DeleteCharacter(ctx, chatA, c.ID), core.ErrNotFound, "second delete")
		if _, err := s.ActiveCharacter(ctx, chatB, "u1"); err != nil {
			t.Errorf("chat B's active character is gone: %v", err)
		}
		// The name is free again, with a new id and no old values.
		d, err := s.CreateCharacter(ctx, chatA, newSheet("u2", "Drake"), sheet.Quota{})
		must(t, err)
		if d.ID == c.ID {
			t.Errorf("a deleted character's id %d was reused", c.ID)
		}
		got, err := s.Character(ctx, chatA, "drake")
		must(t, err)
		if len(got.Values) != 0 || got.Owner != "u2" {
			t.Errorf("new Drake = %+v", got)
		}
	})
}

// RunGMs checks a gm.Store (named GMs).
func RunGMs(t *testing.T, open func(t *testing.T) gm.Store) {
	ctx := context.Background()
	s := open(t)
	if gm, err := s.IsGM(ctx, chatA, "u1"); err != nil || gm {
		t.Errorf("IsGM in an empty store = %v %v", gm, err)
	}
	_, err := s.AddGM(ctx, chatA, gm.GM{UserID: "u2", Name: "Bea", Added: t0.Add(time.Minute)}, 0)
	must(t, err)
	_, err = s.AddGM(ctx, chatA, gm.GM{UserID: "u1", Name: "Ana", Added: t0}, 0)
	must(t, err)
	_, err = s.AddGM(ctx, chatB, gm.GM{UserID: "u3", Name: "Carla", Added: t0}, 0)
	must(t, err)
	// Adding again updates the name, is not an error, and is not new; at
	// the quota an existing GM can still be renamed, a new one cannot.
	added, err := s.AddGM(ctx, chatA, gm.GM{UserID: "u2", Name: "Beatriz", Added: t0.Add(time.Minute)}, 2)
	must(t, err)
	if added {
		t.Error("AddGM of an existing GM says added")
	}
	added, err = s.AddGM(ctx, chatA, gm.GM{UserID: "u4", Name: "Dani"}, 2)
	wantErr(t, err, core.ErrQuota, "third GM with quota 2")
	if added {
		t.Error("a refused AddGM says added")
	}
	if gm, err := s.IsGM(ctx, chatA, "u4"); err != nil || gm {
		t.Errorf("a GM refused by the quota was stored: %v %v", gm, err)
	}
	added, err = s.AddGM(ctx, chatB, gm.GM{UserID: "u4", Name: "Dani", Added: t0}, 2)
	must(t, err)
	if !added {
		t.Error("AddGM of a new GM does not say added")
	}
	must(t, s.RemoveGM(ctx, chatB, "u4"))

	list, err := s.ListGMs(ctx, chatA)
	must(t, err)
	want := []gm.GM{{UserID: "u1", Name: "Ana", Added: t0}, {UserID: "u2", Name: "Beatriz", Added: t0.Add(time.Minute)}}
	if len(list) != len(want) {
		t.Fatalf("GMs of A = %+v, want %+v", list, want)
	}
	for i := range want {
		if list[i].UserID != want[i].UserID || list[i].Name != want[i].Name || !list[i].Added.Equal(want[i].Added) {
			t.Errorf("GM %d = %+v, want %+v", i, list[i], want[i])
		}
	}
	for _, c := range []struct {
		chat core.ChatRef
		user string
		want bool
	}{{chatA, "u1", true}, {chatA, "u2", true}, {chatA, "u3", false}, {chatB, "u3", true}, {chatB, "u1", false}, {chatC, "u1", false}} {
		gm, err := s.IsGM(ctx, c.chat, c.user)
		must(t, err)
		if gm != c.want {
			t.Errorf("IsGM(%s, %s) = %v, want %v", c.chat, c.user, gm, c.want)
		}
	}
	wantErr(t, s.RemoveGM(ctx, chatB, "u1"), core.ErrNotFound, "remove A's GM via chat B")
	must(t, s.RemoveGM(ctx, chatA, "u1"))
	wantErr(t, s.RemoveGM(ctx, chatA, "u1"), core.ErrNotFound, "remove twice")
	if gm, err := s.IsGM(ctx, chatA, "u1"); err != nil || gm {
		t.Errorf("IsGM after remove = %v %v", gm, err)
	}
	list, err = s.ListGMs(ctx, chatB)
	must(t, err)
	if len(list) != 1 || list[0].UserID != "u3" {
		t.Errorf("GMs of B = %+v", list)
	}
}

// RunRollLog checks a history.Store (the roll log).
func RunRollLog(t *testing.T, open func(t *testing.T) history.Store) {
	ctx := context.Background()

	t.Run("AppendAndRead", func(t *testing.T) {
		s := open(t)
		r := history.Roll{Chat: chatA, UserID: "u1", UserName: "Ana", Command: "/zaria fuerza+atletismo dc15",
			Dice: []int{7, 3}, Sides: []int{10, 10}, Result: "Éxito: 14", Time: t0}
		must(t, s.AppendRoll(ctx, r, 100))
		nine := 9
		r2 := history.Roll{Chat: chatA, UserID: "u2", UserName: "Bea", Command: "/roll 3d6", Dice: []int{1, 2, 6},
			Sides: []int{6, 6, 6}, Result: "9", Time: t0.Add(time.Second), Total: &nine}
		must(t, s.AppendRoll(ctx, r2, 100))
		must(t, s.AppendRoll(ctx, history.Roll{Chat: chatB, UserID: "u1", Command: "/roll 1d20", Dice: []int{20}, Sides: []int{20}}, 100))

		got, err := s.LastRolls(ctx, chatA, 10)
		must(t, err)
		if len(got) != 2 {
			t.Fatalf("last rolls of A = %+v, want 2", got)
		}
		if got[0].ID <= got[1].ID {
			t.Errorf("ids %d, %d: want newest first and increasing", got[0].ID, got[1].ID)
		}
		for i, want := range []history.Roll{r2, r} {
			g := got[i]
			if g.Chat != chatA || g.UserID != want.UserID || g.UserName != want.UserName || g.Command != want.Command ||
				!reflect.DeepEqual(g.Dice, want.Dice) || !reflect.DeepEqual(g.Sides, want.Sides) ||
				g.Result != want.Result || !g.Time.Equal(want.Time) || !reflect.DeepEqual(g.Total, want.Total) {
				t.Errorf("roll %d = %+v, want %+v", i, g, want)
			}
		}
		one, err := s.LastRolls(ctx, chatA, 1)
		must(t, err)
		if len(one) != 1 || one[0].Command != "/roll 3d6" {
			t.Errorf("LastRolls(1) = %+v", one)
		}
		none, err := s.LastRolls(ctx, chatC, 10)
		must(t, err)
		if len(none) != 0 {
			t.Errorf("chat C sees rolls: %+v", none)
		}
	})

	t.Run("Pruning", func(t *testing.T) {
		s := open(t)
		for i := 1; i <= 7; i++ {
			must(t, s.AppendRoll(ctx, history.Roll{Chat: chatA, UserID: "u1", Command: fmt.Sprintf("/roll #%d", i)}, 3))
			must(t, s.AppendRoll(ctx, history.Roll{Chat: chatB, UserID: "u1", Command: fmt.Sprintf("/roll B%d", i)}, 5))
		}
		got, err := s.LastRolls(ctx, chatA, 100)
		must(t, err)
		var cmds []string
		for _, r := range got {
			cmds = append(cmds, r.Command)
		}
		if !reflect.DeepEqual(cmds, []string{"/roll #7", "/roll #6", "/roll #5"}) {
			t.Errorf("kept rolls of A = %v, want the newest 3", cmds)
		}
		got, err = s.LastRolls(ctx, chatB, 100)
		must(t, err)
		if len(got) != 5 || got[0].Command != "/roll B7" {
			t.Errorf("pruning A touched B: %d rolls kept, newest %q", len(got), got[0].Command)
		}
		counts, err := s.RollCounts(ctx, chatA)
		must(t, err)
		if len(counts) != 1 || counts[0].Rolls != 3 {
			t.Errorf("counts over kept rolls = %+v, want u1: 3", counts)
		}
		// Pruning to 1 keeps the roll just logged, and ids keep increasing.
		must(t, s.AppendRoll(ctx, history.Roll{Chat: chatA, UserID: "u1", Command: "/roll last"}, 1))
		got, err = s.LastRolls(ctx, chatA, 100)
		must(t, err)
		if len(got) != 1 || got[0].Command != "/roll last" {
			t.Errorf("after keep=1: %+v", got)
		}
		last := got[0].ID
		must(t, s.AppendRoll(ctx, history.Roll{Chat: chatA, UserID: "u1", Command: "/roll after"}, 1))
		got, err = s.LastRolls(ctx, chatA, 100)
		must(t, err)
		if len(got) != 1 || got[0].ID <= last {
			t.Errorf("id after pruning = %+v, want > %d", got, last)
		}
	})

	t.Run("Counts", func(t *testing.T) {
		s := open(t)
		add := func(chat core.ChatRef, user, name string, dice, sides []int) {
			t.Helper()
			must(t, s.AppendRoll(ctx, history.Roll{Chat: chat, UserID: user, UserName: name, Command: "/roll", Dice: dice, Sides: sides}, 0))
		}
		add(chatA, "u2", "Bea", []int{1, 6}, []int{6, 6})
		add(chatA, "u1", "Ana", []int{6, 6, 20}, []int{6, 6, 20})
		add(chatA, "u3", "Cal", []int{3}, []int{6})
		add(chatA, "u2", "Beatriz", []int{0, 9, 7, 4, 2}, []int{10, 10, 6, 0})
		add(chatA, "u3", "Cal", []int{}, nil)
		add(chatB, "u1", "Ana", []int{6}, []int{6})

		counts, err := s.RollCounts(ctx, chatA)
		must(t, err)
		want := []history.UserCount{{UserID: "u2", UserName: "Beatriz", Rolls: 2}, {UserID: "u3", UserName: "Cal", Rolls: 2}, {UserID: "u1", UserName: "Ana", Rolls: 1}}
		if !reflect.DeepEqual(counts, want) {
			t.Errorf("roll counts = %+v, want %+v", counts, want)
		}
		faces, err := s.FaceCounts(ctx, chatA)
		must(t, err)
		wantFaces := []history.FaceCount{
			{Sides: 6, Face: 1, Count: 1}, {Sides: 6, Face: 3, Count: 1}, {Sides: 6, Face: 6, Count: 3},
			{Sides: 10, Face: 9, Count: 1}, {Sides: 20, Face: 20, Count: 1},
		}
		// Left out: 0 on a d10 (not a face 1..10), 7 on a d6 (out of range),
		// 4 with unknown size 0, 2 without a size.
		if !reflect.DeepEqual(faces, wantFaces) {
			t.Errorf("face counts = %+v, want %+v", faces, wantFaces)
		}
		faces, err = s.FaceCounts(ctx, chatC)
		must(t, err)
		if len(faces) != 0 {
			t.Errorf("chat C face counts = %+v", faces)
		}
	})
}

// RunAliases checks an alias.Store (saved rolls).
func RunAliases(t *testing.T, open func(t *testing.T) alias.Store) {
	ctx := context.Background()
	s := open(t)
	atk := alias.Alias{UserID: "u1", Name: "Ataque", Key: "ataque", Text: "/dh ataque espada-larga vs {1}", Created: t0}
	must(t, s.SetAlias(ctx, chatA, atk, 2))
	got, err := s.Alias(ctx, chatA, "u1", "ataque")
	must(t, err)
	if got.UserID != "u1" || got.Name != "Ataque" || got.Key != "ataque" || got.Text != atk.Text || !got.Created.Equal(t0) {
		t.Errorf("alias = %+v, want %+v", got, atk)
	}
	// No fallback between user and chat, no leak between chats or users.
	for _, c := range []struct {
		chat core.ChatRef
		user string
	}{{chatA, ""}, {chatA, "u2"}, {chatB, "u1"}, {chatC, "u1"}} {
		_, err := s.Alias(ctx, c.chat, c.user, "ataque")
		wantErr(t, err, core.ErrNotFound, fmt.Sprintf("alias of %q in %s", c.user, c.chat))
	}
	// Replacing is not a new alias: the quota of 2 still lets one more in.
	atk2 := atk
	atk2.Text, atk2.Created = "/dh ataque hacha vs {1}", t0.Add(time.Hour)
	must(t, s.SetAlias(ctx, chatA, atk2, 2))
	must(t, s.SetAlias(ctx, chatA, alias.Alias{UserID: "u1", Name: "Defensa", Key: "defensa", Text: "/dh defensa"}, 2))
	err = s.SetAlias(ctx, chatA, alias.Alias{UserID: "u1", Name: "Magia", Key: "magia", Text: "/kh magia"}, 2)
	wantErr(t, err, core.ErrQuota, "third alias with quota 2")
	must(t, s.SetAlias(ctx, chatA, atk2, 2)) // replacing at the limit is fine
	// Another user, and the chat itself, have their own quota.
	must(t, s.SetAlias(ctx, chatA, alias.Alias{UserID: "u2", Name: "magia", Key: "magia", Text: "/kh magia"}, 2))
	must(t, s.SetAlias(ctx, chatA, alias.Alias{UserID: "", Name: "Iniciativa", Key: "iniciativa", Text: "/roll 1d20"}, 2))
	must(t, s.SetAlias(ctx, chatB, alias.Alias{UserID: "u1", Name: "Otro", Key: "otro", Text: "/roll 2d6"}, 2))

	got, err = s.Alias(ctx, chatA, "u1", "ataque")
	must(t, err)
	if got.Text != atk2.Text {
		t.Errorf("replaced alias text = %q, want %q", got.Text, atk2.Text)
	}
	list, err := s.ListAliases(ctx, chatA, "u1")
	must(t, err)
	if len(list) != 2 || list[0].Key != "ataque" || list[1].Key != "defensa" {
		t.Errorf("aliases of u1 in A = %+v, want ataque, defensa", list)
	}
	list, err = s.ListAliases(ctx, chatA, "")
	must(t, err)
	if len(list) != 1 || list[0].Key != "iniciativa" || list[0].UserID != "" {
		t.Errorf("chat aliases of A = %+v, want iniciativa", list)
	}
	wantErr(t, s.DeleteAlias(ctx, chatB, "u1", "ataque"), core.ErrNotFound, "delete A's alias via chat B")
	wantErr(t, s.DeleteAlias(ctx, chatA, "u2", "ataque"), core.ErrNotFound, "delete u1's alias as u2")
	must(t, s.DeleteAlias(ctx, chatA, "u1", "ataque"))
	wantErr(t, s.DeleteAlias(ctx, chatA, "u1", "ataque"), core.ErrNotFound, "delete twice")
	_, err = s.Alias(ctx, chatA, "u1", "ataque")
	wantErr(t, err, core.ErrNotFound, "alias after delete")
	must(t, s.SetAlias(ctx, chatA, alias.Alias{UserID: "u1", Name: "Magia", Key: "magia", Text: "/kh magia"}, 2))
	if _, err := s.Alias(ctx, chatB, "u1", "otro"); err != nil {
		t.Errorf("chat B's alias is gone: %v", err)
	}
}

// RunImport checks ReplaceChat together with the reads of the other stores.
func RunImport(t *testing.T, open func(t *testing.T) Store) {
	ctx := context.Background()

	setup := func(t *testing.T) Store {
		s := open(t)
		_, err := s.CreateCharacter(ctx, chatA, newSheet("u1", "Old", "Fuerza", "1"), sheet.Quota{})
		must(t, err)
		must(t, s.SaveSettings(ctx, chatA, core.Settings{Lang: "es", Options: map[string]string{"old": "1"}}))
		_, err = s.AddGM(ctx, chatA, gm.GM{UserID: "gm", Name: "GM"}, 0)
		must(t, err)
		must(t, s.SetAlias(ctx, chatA, alias.Alias{UserID: "u1", Name: "a", Key: "a", Text: "/roll 1d6"}, 0))
		must(t, s.AppendRoll(ctx, history.Roll{Chat: chatA, UserID: "u1", Command: "/roll 1d6"}, 0))
		_, err = s.CreateCharacter(ctx, chatB, newSheet("u1", "Keep"), sheet.Quota{})
		must(t, err)
		return s
	}

	t.Run("Replace", func(t *testing.T) {
		s := setup(t)
		drake := newSheet("u1", "Drake", "Fuerza", "4", "Atletismo", "2")
		drake.Created, drake.Updated, drake.Active = t0, t0.Add(time.Minute), true
		drake.ID, drake.Chat = 999, chatB // ignored
		spare := newSheet("u1", "Spare")
		bob := newSheet("u2", "Bob")
		bob.Active = false
		d := transfer.ChatData{
			Settings:   core.Settings{Lang: "el", Options: map[string]string{"zaria": "heroico"}},
			Characters: []sheet.Character{drake, spare, bob},
		}
		gone, err := s.ReplaceChat(ctx, chatA, sourceOf(ctx, d), false)
		wantErr(t, err, transfer.ErrWouldDelete, "import without Old, not allowed to delete")
		if len(gone) != 1 || gone[0] != "Old" {
			t.Errorf("refused import names %v, want [Old]", gone)
		}
		if _, err := s.Character(ctx, chatA, "old"); err != nil {
			t.Fatalf("a refused import deleted Old: %v", err)
		}
		gone, err = s.ReplaceChat(ctx, chatA, sourceOf(ctx, d), true)
		must(t, err)
		if len(gone) != 1 || gone[0] != "Old" {
			t.Errorf("import deleted %v, want [Old]", gone)
		}

		list, err := s.ListCharacters(ctx, chatA)
		must(t, err)
		if len(list) != 3 || list[0].Key != "bob" || list[1].Key != "drake" || list[2].Key != "spare" {
			t.Fatalf("characters after import = %+v", list)
		}
		got := list[1]
		want := drake
		want.ID, want.Chat = got.ID, chatA
		sameCharacter(t, got, want)
		if got.ID == 999 {
			t.Error("import kept the document's id")
		}
		if list[0].Active || list[2].Active {
			t.Errorf("only drake should be active: %+v", list)
		}
		act, err := s.ActiveCharacter(ctx, chatA, "u1")
		must(t, err)
		if act.Key != "drake" {
			t.Errorf("active of u1 = %q, want drake", act.Key)
		}
		_, err = s.ActiveCharacter(ctx, chatA, "u2")
		wantErr(t, err, core.ErrNotFound, "u2 had no active character in the document")
		if spare := list[2]; spare.Created.IsZero() {
			t.Error("a character imported without times has no Created")
		}
		st, err := s.Settings(ctx, chatA)
		must(t, err)
		if !reflect.DeepEqual(st, d.Settings) {
			t.Errorf("settings after import = %+v, want %+v", st, d.Settings)
		}
		// GMs, aliases, history and other chats are untouched.
		if gm, err := s.IsGM(ctx, chatA, "gm"); err != nil || !gm {
			t.Errorf("GM lost by import: %v %v", gm, err)
		}
		if _, err := s.Alias(ctx, chatA, "u1", "a"); err != nil {
			t.Errorf("alias lost by import: %v", err)
		}
		if rolls, err := s.LastRolls(ctx, chatA, 10); err != nil || len(rolls) != 1 {
			t.Errorf("history after import = %d rolls, %v", len(rolls), err)
		}
		if _, err := s.Character(ctx, chatB, "keep"); err != nil {
			t.Errorf("chat B lost its character: %v", err)
		}
	})

	t.Run("AllOrNothing", func(t *testing.T) {
		s := setup(t)
		bad := transfer.ChatData{
			Settings:   core.Settings{Lang: "en"},
			Characters: []sheet.Character{newSheet("u1", "Twin"), newSheet("u2", "Twin")},
		}
		_, err := s.ReplaceChat(ctx, chatA, sourceOf(ctx, bad), true)
		wantErr(t, err, core.ErrExists, "import with two Twins")
		twoActive := transfer.ChatData{Characters: []sheet.Character{newSheet("u1", "One"), newSheet("u1", "Two")}}
		twoActive.Characters[0].Active, twoActive.Characters[1].Active = true, true
		if _, err := s.ReplaceChat(ctx, chatA, sourceOf(ctx, twoActive), true); err == nil {
			t.Error("import with two active characters of one owner succeeded")
		}
		list, err := s.ListCharacters(ctx, chatA)
		must(t, err)
		if len(list) != 1 || list[0].Key != "old" || !list[0].Active || len(list[0].Values) != 1 {
			t.Errorf("a failed import changed the characters: %+v", list)
		}
		st, err := s.Settings(ctx, chatA)
		must(t, err)
		if st.Lang != "es" || st.Options["old"] != "1" {
			t.Errorf("a failed import changed the settings: %+v", st)
		}
	})

	t.Run("IntoNewChat", func(t *testing.T) {
		s := setup(t)
		list, err := s.ListCharacters(ctx, chatA)
		must(t, err)
		st, err := s.Settings(ctx, chatA)
		must(t, err)
		gone, err := s.ReplaceChat(ctx, chatC, sourceOf(ctx, transfer.ChatData{Settings: st, Characters: list}), false)
		must(t, err)
		if len(gone) != 0 {
			t.Errorf("import into a new chat deleted %v", gone)
		}
		copied, err := s.ListCharacters(ctx, chatC)
		must(t, err)
		if len(copied) != 1 || copied[0].ID == list[0].ID || copied[0].Chat != chatC || !copied[0].Active {
			t.Fatalf("copy into a new chat = %+v", copied)
		}
		want := list[0]
		want.ID, want.Chat = copied[0].ID, chatC
		sameCharacter(t, copied[0], want)
		// The copies are independent.
		must(t, s.DeleteCharacter(ctx, chatC, copied[0].ID))
		if _, err := s.Character(ctx, chatA, "old"); err != nil {
			t.Errorf("deleting the copy removed the original: %v", err)
		}
	})
}

// RunConcurrency writes from many goroutines at once, with readers
// running, and checks that every acknowledged write is there.
func RunConcurrency(t *testing.T, open func(t *testing.T) Store) {
	ctx := context.Background()
	s := open(t)
	const workers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*each*4)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			chat := core.ChatRef{Platform: "telegram", ID: fmt.Sprint(w % 3)}
			user := fmt.Sprintf("u%d", w)
			for i := 0; i < each; i++ {
				name := fmt.Sprintf("w%d-%d", w, i)
				if _, err := s.CreateCharacter(ctx, chat, newSheet(user, name, "Fuerza", fmt.Sprint(i)), sheet.Quota{}); err != nil {
					errs <- err
				}
				if err := s.AppendRoll(ctx, history.Roll{Chat: chat, UserID: user, Command: "/roll " + name, Dice: []int{i%6 + 1}, Sides: []int{6}}, 0); err != nil {
					errs <- err
				}
				if err := s.SetState(ctx, fmt.Sprintf("worker.%d", w), fmt.Sprint(i)); err != nil {
					errs <- err
				}
				if _, err := s.ActiveCharacter(ctx, chat, user); err != nil {
					errs <- err
				}
				if _, err := s.Settings(ctx, chat); err != nil {
					errs <- err
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	total := 0
	for c := 0; c < 3; c++ {
		chat := core.ChatRef{Platform: "telegram", ID: fmt.Sprint(c)}
		list, err := s.ListCharacters(ctx, chat)
		must(t, err)
		total += len(list)
		rolls, err := s.LastRolls(ctx, chat, workers*each)
		must(t, err)
		if len(rolls) != len(list) {
			t.Errorf("chat %s: %d rolls, %d characters; want equal", chat, len(rolls), len(list))
		}
	}
	if total != workers*each {
		t.Errorf("%d characters stored, want %d", total, workers*each)
	}

	// Edits of one sheet from many goroutines: each adds its own values
	// and bumps a shared counter; nothing acknowledged is lost.
	shared, err := s.CreateCharacter(ctx, chatA, newSheet("u1", "Shared", "n", "0"), sheet.Quota{})
	must(t, err)
	var edits sync.WaitGroup
	for w := 0; w < workers; w++ {
		edits.Add(1)
		go func(w int) {
			defer edits.Done()
			for i := 0; i < 5; i++ {
				_, err := s.EditCharacter(ctx, chatA, shared.ID, func(c *sheet.Character) error {
					k := fmt.Sprintf("w%d-%d", w, i)
					c.Values = append(c.Values, sheet.Value{Name: k, Key: k, Text: "x"})
					n := 0
					fmt.Sscan(c.Values[0].Text, &n)
					c.Values[0].Text = fmt.Sprint(n + 1)
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		}(w)
	}
	edits.Wait()
	got, err := s.Character(ctx, chatA, "shared")
	must(t, err)
	if len(got.Values) != 1+workers*5 || got.Values[0].Text != fmt.Sprint(workers*5) {
		t.Errorf("after %d concurrent edits: counter %q, %d values; want %d and %d", workers*5, got.Values[0].Text, len(got.Values), workers*5, 1+workers*5)
	}
	for w := 0; w < workers; w++ {
		v, ok, err := s.State(ctx, fmt.Sprintf("worker.%d", w))
		if err != nil || !ok || v != fmt.Sprint(each-1) {
			t.Errorf("state of worker %d = %q %v %v, want %d", w, v, ok, err, each-1)
		}
	}
}

// sourceOf is an /importar Source of data already checked.
func sourceOf(ctx context.Context, d transfer.ChatData) *transfer.Source {
	src, _ := transfer.NewSource(ctx, len(d.Characters), func(send func(sheet.Character) error) (transfer.ChatData, error) {
		for _, c := range d.Characters {
			if err := send(c); err != nil {
				return transfer.ChatData{}, err
			}
		}
		return transfer.ChatData{Settings: d.Settings, Pads: d.Pads}, nil
	})
	return src
}
