package character_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core/character"
)

func TestAliasSaveUseListDelete(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	h.ok(chatA, bob, false, "/pj crear Mira")
	h.ok(chatA, bob, false, "/pj set fuerza 1")

	contains(t, h.ok(chatA, ana, false, "/alias golpe /check {1}"), "/golpe → /check {1}")
	contains(t, h.ok(chatA, ana, false, "/golpe fuerza", 10), "= 14")
	contains(t, h.ok(chatA, ana, false, "!golpe FUERZA", 10), "= 14")
	// Per user: Bob has no /golpe.
	h.fails(chatA, bob, false, "/golpe fuerza", "I don't know /golpe")

	// Placeholders: {1}, {2}, {*}; missing or extra words are explained.
	h.ok(chatA, ana, false, "/alias por /check @{1} {2}")
	contains(t, h.ok(chatA, ana, false, "/por Mira fuerza", 10), "= 11")
	h.fails(chatA, ana, false, "/por Mira", "/por needs more words after it: /check @{1} {2}")
	h.fails(chatA, ana, false, "/golpe fuerza extra", "Too many words for /golpe; it stands for: /check {1}")
	h.ok(chatA, ana, false, "/alias todo /check {*}")
	contains(t, h.ok(chatA, ana, false, "/todo fuerza", 2), "= 6")
	// Without placeholders the words are appended.
	h.ok(chatA, ana, false, "/alias ch /check")
	contains(t, h.ok(chatA, ana, false, "/ch fuerza", 2), "= 6")

	// A GM saves one for the whole chat; a player cannot.
	h.fails(chatA, bob, false, "/alias --chat f /check fuerza", "Only a GM can save rolls for the whole chat")
	contains(t, h.ok(chatA, admin, true, "/alias --chat f /check fuerza"), "(for the whole chat)")
	contains(t, h.ok(chatA, bob, false, "/f", 10), "= 11")
	contains(t, h.ok(chatA, ana, false, "/f", 10), "= 14")
	// A user's own alias wins over the chat's.
	h.ok(chatA, bob, false, "/alias f /check @Drake fuerza")
	contains(t, h.ok(chatA, bob, false, "/f", 10), "= 14")

	out := h.ok(chatA, ana, false, "/alias")
	contains(t, out, "Your 4 saved rolls", "/golpe → /check {1}", "Saved roll of the chat", "/f → /check fuerza")

	// Saved rolls are logged in the history like the roll they stand for.
	contains(t, h.ok(chatA, ana, false, "/historial 1"), "Bob: /check @Drake fuerza")

	contains(t, h.ok(chatA, ana, false, "/alias borrar golpe"), "/golpe deleted")
	h.fails(chatA, ana, false, "/golpe fuerza", "I don't know /golpe")
	h.fails(chatA, ana, false, "/alias borrar golpe", "no saved roll «golpe»")
	h.fails(chatA, bob, false, "/alias borrar --chat f", "Only a GM")
	contains(t, h.ok(chatA, admin, true, "/alias borrar --chat f"), "/f deleted")
}

func TestAliasNeverShadowsCommands(t *testing.T) {
	h := newHarness(t, character.Limits{})
	for _, name := range []string{"pj", "PJ", "char", "χαρακτήρας", "historial", "check", "/alias", "import"} {
		h.fails(chatA, ana, false, "/alias "+name+" /check fuerza", "is already the command")
	}
	h.fails(chatA, ana, false, "/alias borrar /check fuerza", "/alias delete NAME")
	h.fails(chatA, ana, false, "/alias lista /check x", "a word of /alias itself")
	h.fails(chatA, ana, false, "/alias x check fuerza", "must be a command")
	h.fails(chatA, ana, false, "/alias x /chek fuerza", "Did you mean /check?")
	h.fails(chatA, ana, false, "/alias x /zzzzzzzz", "/zzzzzzzz is not a command")
	h.fails(chatA, ana, false, "/alias a+b /check x", "can't be a saved roll name")
	h.fails(chatA, ana, false, "/alias ataque", "/alias NAME COMMAND")
	// Built-in commands always win, even over an alias stored before.
	a := character.Alias{UserID: ana.ID, Name: "pj", Key: "pj", Text: "/check fuerza"}
	if err := h.db.SetAlias(context.Background(), chatA, a, 10); err != nil {
		t.Fatal(err)
	}
	h.fails(chatA, ana, false, "/pj", "no active character")
}

func TestAliasLoopStops(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	// Chains up to the router's depth work...
	h.ok(chatA, ana, false, "/alias a1 /check fuerza")
	h.ok(chatA, ana, false, "/alias a2 /a1")
	h.ok(chatA, ana, false, "/alias a3 /a2")
	contains(t, h.ok(chatA, ana, false, "/a3", 1), "= 5")
	// ...deeper ones and loops stop with a message, never hang.
	h.ok(chatA, ana, false, "/alias a4 /a3")
	h.fails(chatA, ana, false, "/a4", "more than 3 levels deep")
	h.ok(chatA, ana, false, "/alias a1 /a3") // a1 → a3 → a2 → a1 → …
	h.fails(chatA, ana, false, "/a1", "more than 3 levels deep")
	h.fails(chatA, ana, false, "/alias self /self", "/self is not a command or saved roll")
	h.ok(chatA, ana, false, "/alias self /check fuerza")
	h.ok(chatA, ana, false, "/alias self /self") // self exists now
	h.fails(chatA, ana, false, "/self", "more than 3 levels deep")
}

func TestAliasQuotas(t *testing.T) {
	h := newHarness(t, character.Limits{AliasesPerUser: 2, AliasesPerChat: 1, AliasLen: 30})
	h.ok(chatA, ana, false, "/alias a /check x")
	h.ok(chatA, ana, false, "/alias b /check x")
	h.ok(chatA, ana, false, "/alias b /check y") // replacing is not adding
	h.fails(chatA, ana, false, "/alias c /check x", "already have 2 saved rolls", "/alias delete NAME")
	h.ok(chatA, bob, false, "/alias c /check x") // per user
	h.ok(chatB, ana, false, "/alias c /check x") // per chat
	h.ok(chatA, admin, true, "/alias --chat d /check x")
	h.fails(chatA, admin, true, "/alias --chat e /check x", "The chat already has 1 saved roll,")
	h.fails(chatA, ana, false, "/alias z /check "+strings.Repeat("x", 30), "too long (37 characters; at most 30)")
}

func TestExpandPlaceholders(t *testing.T) {
	for _, tc := range []struct{ text, args, want string }{
		{"/dh ataque espada-larga vs {1}", "coraza", "/dh ataque espada-larga vs coraza"},
		{"/r {2}d{1}", "6 3", "/r 3d6"},
		{"/r 1d20 {*}", "+2 # ataque", "/r 1d20 +2 # ataque"},
		{"/r 1d20 {*}", "", "/r 1d20 "},
		{"/r 1d20", "+5", "/r 1d20 +5"},
		{"/r {x} {1}", "a", "/r {x} a"},
		{"/r {1", "a", "/r {1 a"},
	} {
		got, err := character.Expand(character.Alias{Name: "t", Text: tc.text}, tc.args)
		if err != nil || got != tc.want {
			t.Errorf("Expand(%q, %q) = %q, %v; want %q", tc.text, tc.args, got, err, tc.want)
		}
	}
	if _, err := character.Expand(character.Alias{Name: "t", Text: "/r {2}"}, "a"); err == nil {
		t.Error("missing {2} accepted")
	}
}
