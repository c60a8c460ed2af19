package initiative_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"zaria/core/initiative"
	"zaria/core/reply"
)

// seenRow is one combatant of a View as a test compares it.
type seenRow struct {
	Name, HP, Mark      string
	Cur, Max            int
	Current, Mine, Char bool
}

func rows(v initiative.View) map[string]seenRow {
	out := map[string]seenRow{}
	for _, c := range v.Combatants {
		out[c.Name] = seenRow{Name: c.Name, HP: c.HP, Mark: c.Mark, Cur: c.Cur, Max: c.Max, Current: c.Current, Mine: c.Mine, Char: c.Character}
	}
	return out
}

// The turn order as each viewer may see it (the page's order screen): a
// player sees a character's hit points (its sheet's, not the order's)
// and an NPC's only as 🩸 at half or less and 💀 when fallen; the GM sees
// the NPC's hit points; the marks are the status message's; ▶ is offered
// to whoever /init siguiente lets pass the turn; an ended order has no
// turn, no ▶, and says until when it may be reopened.
func TestViewByViewer(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)
	b, svc := openService(t, func() time.Time { return now })
	b.say(ana, "/pj crear Lyra")
	b.say(ana, "/pj poner pv 10/10")
	b.say(ana, "/init 20")
	b.say(bob, "/init 18")
	b.say(gm, "/init añadir Lobo 15 pv 6")
	b.say(gm, "/init añadir Orco 10 pv 8")
	b.say(gm, "/init añadir Trasgo 5 pv 4")
	anaV := initiative.Viewer{User: ana.ID}
	gmV := initiative.Viewer{User: gm.ID, GM: true}
	for _, c := range []struct {
		who  initiative.Viewer
		want bool
	}{{anaV, false}, {gmV, true}} {
		if v, ok, err := svc.View(ctx, here, c.who); err != nil || !ok || v.CanNext != c.want {
			t.Errorf("before round 1, %+v: ▶ %v (%v %v), want %v", c.who, v.CanNext, ok, err, c.want)
		}
	}
	b.say(gm, "/init empezar")          // Lyra's turn
	b.say(gm, "/init pv Lobo -6")       // falls
	b.say(gm, "/init pv Orco -5")       // 3/8: badly hurt
	b.say(gm, "/init pv Trasgo -1")     // 3/4
	rep := b.say(gm, "/pj @Lyra pv -4") // 6/10 on her sheet
	if rep.Error {
		t.Fatalf("/pj @Lyra pv -4: %s", reply.PlainText(rep))
	}

	v, ok, err := svc.View(ctx, here, anaV)
	if err != nil || !ok || !v.Open || v.Round != 1 || !v.CanNext {
		t.Fatalf("Ana's view: open %v round %d ▶ %v (%v %v), want open, round 1, ▶ (her turn)", v.Open, v.Round, v.CanNext, ok, err)
	}
	got := rows(v)
	for _, want := range []seenRow{
		{Name: "Lyra", HP: "6/10", Cur: 6, Max: 10, Current: true, Mine: true, Char: true},
		{Name: "Bob"},
		{Name: "Lobo", Mark: "💀"},
		{Name: "Orco", Mark: "🩸"},
		{Name: "Trasgo"},
	} {
		if got[want.Name] != want {
			t.Errorf("Ana sees %+v, want %+v", got[want.Name], want)
		}
	}
	v, _, _ = svc.View(ctx, here, gmV)
	got = rows(v)
	for _, want := range []seenRow{
		{Name: "Lyra", HP: "6/10", Cur: 6, Max: 10, Current: true, Char: true},
		{Name: "Lobo", HP: "0/6", Cur: 0, Max: 6, Mark: "💀"},
		{Name: "Orco", HP: "3/8", Cur: 3, Max: 8},
		{Name: "Trasgo", HP: "3/4", Cur: 3, Max: 4},
	} {
		if got[want.Name] != want {
			t.Errorf("the GM sees %+v, want %+v", got[want.Name], want)
		}
	}
	if !v.CanNext {
		t.Error("the GM is not offered ▶")
	}
	if v, _, _ := svc.View(ctx, here, initiative.Viewer{User: bob.ID}); v.CanNext || !rows(v)["Bob"].Mine {
		t.Errorf("Bob, whose turn it is not: ▶ %v, his own row %+v", v.CanNext, rows(v)["Bob"])
	}
	if v, _, _ := svc.View(ctx, here, initiative.Viewer{User: "u5"}); v.CanNext {
		t.Error("a user with no place in the order is offered ▶")
	}

	// Lyra falls below 0 on her sheet: 💀 as the status message shows it.
	b.say(ana, "/pj poner pv -2/10")
	st := reply.PlainText(b.say(gm, "/init ver").Status)
	table, _, _ := svc.View(ctx, here, initiative.Viewer{})
	got = rows(table)
	if r := got["Lyra"]; r.HP != "-2/10" || r.Mark != "💀" || got["Lobo"].Mark != "💀" || got["Orco"].Mark != "🩸" || got["Trasgo"].Mark != "" {
		t.Errorf("the table sees Lyra %+v, Lobo %q, Orco %q, Trasgo %q; want -2/10 💀, 💀, 🩸 and none", r, got["Lobo"].Mark, got["Orco"].Mark, got["Trasgo"].Mark)
	}
	for _, c := range table.Combatants {
		line := statusLine(st, c.Name)
		if c.Mark != "" && !strings.HasSuffix(line, " · "+c.Mark) || c.Mark == "" && strings.ContainsAny(line, "💀🩸") {
			t.Errorf("%s: the page marks %q, the status message shows %q", c.Name, c.Mark, line)
		}
		if c.HP != "" && !strings.Contains(line, "❤️ "+c.HP) || c.HP == "" && strings.Contains(line, "❤️") {
			t.Errorf("%s: the page shows hit points %q, the status message %q", c.Name, c.HP, line)
		}
	}

	b.say(gm, "/init fin")
	v, ok, err = svc.View(ctx, here, gmV)
	if err != nil || !ok || v.Open || v.CanNext || !v.UndoUntil.Equal(now.Add(initiative.UndoFor)) || len(v.Combatants) != 5 {
		t.Fatalf("the ended order: %+v (%v %v)", v, ok, err)
	}
	for _, c := range v.Combatants {
		if c.Current {
			t.Errorf("an ended order still has %s's turn", c.Name)
		}
	}
	if r := rows(v)["Lobo"]; r.Mark != "💀" {
		t.Errorf("the ended order lost Lobo's 💀: %+v", r)
	}
}

// statusLine is the status message's line of name.
func statusLine(st, name string) string {
	for _, l := range strings.Split(st, "\n") {
		if strings.Contains(l, " "+name) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// A chat with no turn order has no view.
func TestViewNone(t *testing.T) {
	_, svc := openService(t, nil)
	if v, ok, err := svc.View(context.Background(), here, initiative.Viewer{GM: true}); ok || err != nil || len(v.Combatants) != 0 {
		t.Errorf("no order: %+v %v %v", v, ok, err)
	}
}
