package storagetest

import (
	"context"
	"testing"

	"zaria/core/pad"
)

// RunPads checks a pad.Store: order, the quota, ids that are never reused,
// and isolation between owners and chats.
func RunPads(t *testing.T, open func(t *testing.T) pad.Store) {
	ctx := context.Background()
	s := open(t)
	labels := func(owner string) []string {
		t.Helper()
		bs, err := s.PadButtons(ctx, chatA, owner)
		must(t, err)
		out := []string{}
		for _, b := range bs {
			out = append(out, b.Label)
		}
		return out
	}
	same := func(got []string, want ...string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("pad %q, want %q", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("pad %q, want %q", got, want)
			}
		}
	}
	same(labels("u1"))
	var ids []int64
	for _, l := range []string{"A", "B", "C"} {
		b, err := s.AddPadButton(ctx, chatA, "u1", pad.Button{Label: l, Command: "/roll d" + l}, 3)
		must(t, err)
		if b.ID == 0 || b.Label != l || b.Command != "/roll d"+l {
			t.Fatalf("added %+v", b)
		}
		for _, id := range ids {
			if id == b.ID {
				t.Fatalf("id %d given twice", id)
			}
		}
		ids = append(ids, b.ID)
	}
	same(labels("u1"), "A", "B", "C")
	_, err := s.AddPadButton(ctx, chatA, "u1", pad.Button{Label: "D", Command: "/roll d4"}, 3)
	wantErr(t, err, pad.ErrFull, "a fourth button beyond 3")
	same(labels("u1"), "A", "B", "C")

	// The chat's pad and another user's are other pads; other chats see none.
	_, err = s.AddPadButton(ctx, chatA, "", pad.Button{Label: "Mesa", Command: "/roll 2d6"}, 3)
	must(t, err)
	same(labels(""), "Mesa")
	same(labels("u2"))
	for _, c := range []struct {
		name string
		bs   func() ([]pad.Button, error)
	}{
		{"chatB", func() ([]pad.Button, error) { return s.PadButtons(ctx, chatB, "u1") }},
		{"chatC", func() ([]pad.Button, error) { return s.PadButtons(ctx, chatC, "u1") }},
	} {
		bs, err := c.bs()
		must(t, err)
		if len(bs) != 0 {
			t.Errorf("%s sees chatA's pad: %+v", c.name, bs)
		}
	}

	owner, b, err := s.PadButton(ctx, chatA, ids[1])
	must(t, err)
	if owner != "u1" || b.ID != ids[1] || b.Label != "B" || b.Command != "/roll dB" {
		t.Errorf("PadButton = %q %+v", owner, b)
	}
	_, _, err = s.PadButton(ctx, chatC, ids[1])
	wantErr(t, err, pad.ErrNotFound, "a button of another chat")

	// Move, rename, remove: only in the owner's pad.
	must(t, s.MovePadButton(ctx, chatA, "u1", ids[2], 0))
	same(labels("u1"), "C", "A", "B")
	must(t, s.MovePadButton(ctx, chatA, "u1", ids[2], 99))
	same(labels("u1"), "A", "B", "C")
	must(t, s.MovePadButton(ctx, chatA, "u1", ids[0], 1))
	same(labels("u1"), "B", "A", "C")
	wantErr(t, s.MovePadButton(ctx, chatA, "u2", ids[0], 0), pad.ErrNotFound, "move in another owner's pad")
	must(t, s.RenamePadButton(ctx, chatA, "u1", ids[0], "Á"))
	wantErr(t, s.RenamePadButton(ctx, chatA, "", ids[0], "X"), pad.ErrNotFound, "rename in the chat's pad")
	wantErr(t, s.RenamePadButton(ctx, chatB, "u1", ids[0], "X"), pad.ErrNotFound, "rename from another chat")
	same(labels("u1"), "B", "Á", "C")
	must(t, s.RemovePadButton(ctx, chatA, "u1", ids[1]))
	wantErr(t, s.RemovePadButton(ctx, chatA, "u1", ids[1]), pad.ErrNotFound, "remove twice")
	same(labels("u1"), "Á", "C")
	_, _, err = s.PadButton(ctx, chatA, ids[1])
	wantErr(t, err, pad.ErrNotFound, "a removed button")

	// A new button goes last and never takes a removed button's id.
	b, err = s.AddPadButton(ctx, chatA, "u1", pad.Button{Label: "E", Command: "/roll d8"}, 3)
	must(t, err)
	for _, id := range ids {
		if b.ID == id {
			t.Errorf("a removed button's id %d was given again", id)
		}
	}
	same(labels("u1"), "Á", "C", "E")

	n, err := s.ClearPad(ctx, chatA, "u1")
	must(t, err)
	if n != 3 {
		t.Errorf("ClearPad = %d, want 3", n)
	}
	same(labels("u1"))
	same(labels(""), "Mesa")
	n, err = s.ClearPad(ctx, chatB, "u1")
	must(t, err)
	if n != 0 {
		t.Errorf("ClearPad of an empty pad = %d", n)
	}
}
