package alias_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
	"zaria/core"
	"zaria/core/alias"
	"zaria/internal/chattest"
)

func TestAliasSaveUseListDelete(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, bob, false, "/pj crear Mira")
	h.OK(chatA, bob, false, "/pj set fuerza 1")

	contains(t, h.OK(chatA, ana, false, "/alias golpe /check {1}"), "/golpe → /check {1}")
	contains(t, h.OK(chatA, ana, false, "/golpe fuerza", 10), "= 14")
	contains(t, h.OK(chatA, ana, false, "!golpe FUERZA", 10), "= 14")
	// Per user: Bob has no /golpe.
	h.Fails(chatA, bob, false, "/golpe fuerza", "I don't know /golpe")

	// Placeholders: {1}, {2}, {*}; missing or extra words are explained.
	h.OK(chatA, ana, false, "/alias por /check @{1} {2}")
	contains(t, h.OK(chatA, ana, false, "/por Mira fuerza", 10), "= 11")
	h.Fails(chatA, ana, false, "/por Mira", "/por needs more words after it, for example: /por Mira 2 (it stands for /check @{1} {2})")
	h.Fails(chatA, ana, false, "/golpe fuerza extra", "Too many words for /golpe; it stands for: /check {1}")
	h.OK(chatA, ana, false, "/alias todo /check {*}")
	contains(t, h.OK(chatA, ana, false, "/todo fuerza", 2), "= 6")
	// Without placeholders the words are appended.
	h.OK(chatA, ana, false, "/alias ch /check")
	contains(t, h.OK(chatA, ana, false, "/ch fuerza", 2), "= 6")

	// A GM saves one for the whole chat; a player cannot.
	h.Fails(chatA, bob, false, "/alias --chat f /check fuerza", "Only a GM can save rolls for the whole chat")
	contains(t, h.OK(chatA, admin, true, "/alias --chat f /check fuerza"), "(for the whole chat)")
	contains(t, h.OK(chatA, bob, false, "/f", 10), "= 11")
	contains(t, h.OK(chatA, ana, false, "/f", 10), "= 14")
	// A user's own alias wins over the chat's.
	h.OK(chatA, bob, false, "/alias f /check @Drake fuerza")
	contains(t, h.OK(chatA, bob, false, "/f", 10), "= 14")

	out := h.OK(chatA, ana, false, "/alias")
	contains(t, out, "Your 4 saved rolls", "/golpe → /check {1}", "Saved roll of the chat", "/f → /check fuerza")

	// Saved rolls are logged in the history like the roll they stand for.
	contains(t, h.OK(chatA, ana, false, "/historial 1"), "Bob: /check @Drake fuerza")

	contains(t, h.OK(chatA, ana, false, "/alias borrar golpe"), "/golpe deleted")
	h.Fails(chatA, ana, false, "/golpe fuerza", "I don't know /golpe")
	h.Fails(chatA, ana, false, "/alias borrar golpe", "no saved roll «golpe»")
	h.Fails(chatA, bob, false, "/alias borrar --chat f", "Only a GM")
	contains(t, h.OK(chatA, admin, true, "/alias borrar --chat f"), "/f deleted")
}

func TestAliasNeverShadowsCommands(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	for _, name := range []string{"pj", "PJ", "char", "χαρακτήρας", "historial", "check", "/alias", "import"} {
		h.Fails(chatA, ana, false, "/alias "+name+" /check fuerza", "is already the command")
	}
	h.Fails(chatA, ana, false, "/alias borrar /check fuerza", "/alias delete NAME")
	h.Fails(chatA, ana, false, "/alias lista /check x", "a word of /alias itself")
	h.Fails(chatA, ana, false, "/alias x check fuerza", "must be a command")
	h.Fails(chatA, ana, false, "/alias x /chek fuerza", "Did you mean /check?")
	h.Fails(chatA, ana, false, "/alias x /zzzzzzzz", "/zzzzzzzz is not a command")
	h.Fails(chatA, ana, false, "/alias a+b /check x", "can't be a saved roll name")
	h.Fails(chatA, ana, false, "/alias ataque", "/alias NAME COMMAND")
	// Built-in commands always win, even over an alias stored before.
	a := alias.Alias{UserID: ana.ID, Name: "pj", Key: "pj", Text: "/check fuerza"}
	if err := h.DB.SetAlias(context.Background(), chatA, a, 10); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatA, ana, false, "/pj", "no active character")
}

func TestAliasLoopStops(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	// Chains up to the router's depth work...
	h.OK(chatA, ana, false, "/alias a1 /check fuerza")
	h.OK(chatA, ana, false, "/alias a2 /a1")
	h.OK(chatA, ana, false, "/alias a3 /a2")
	contains(t, h.OK(chatA, ana, false, "/a3", 1), "= 5")
	// ...deeper ones are refused when saved, and stop with a message when
	// used (one stored before the check), never hang.
	h.Fails(chatA, ana, false, "/alias a4 /a3", "/a4 would run 4 saved rolls in a row (/a4 → /a3 → /a2 → /a1 → /check)")
	deep := alias.Alias{UserID: ana.ID, Name: "a4", Key: "a4", Text: "/a3"}
	if err := h.DB.SetAlias(context.Background(), chatA, deep, 100); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatA, ana, false, "/a4", "more than 3 levels deep")
	// A loop is named as such (issue 10: it used to be reported as "too
	// deep" after expanding every level).
	// A loop through others is refused when it is saved, as a saved roll
	// that calls itself is; nothing changes.
	h.Fails(chatA, ana, false, "/alias a1 /a3", "The saved roll /a1 calls itself (/a1 → /a3 → /a2 → /a1)")
	contains(t, h.OK(chatA, ana, false, "/a3", 1), "= 5")
	// One stored before the check (an old database) stops when used.
	old := alias.Alias{UserID: ana.ID, Name: "a1", Key: "a1", Text: "/a3"} // a1 → a3 → a2 → a1 → …
	if err := h.DB.SetAlias(context.Background(), chatA, old, 100); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatA, ana, false, "/a1", "The saved roll /a1 calls itself (/a1 → /a3 → /a2 → /a1)")
	// A new one leading into such a loop is refused too, naming the loop,
	// however long the way in.
	self := alias.Alias{UserID: ana.ID, Name: "viejo", Key: "viejo", Text: "/viejo"}
	if err := h.DB.SetAlias(context.Background(), chatA, self, 100); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatA, ana, false, "/alias entra /viejo", "The saved roll /viejo calls itself (/entra → /viejo → /viejo)")
	h.Fails(chatA, ana, false, "/alias entra /a2", "The saved roll /a2 calls itself (/entra → /a2 → /a1 → /a3 → /a2)")
	h.Fails(chatA, ana, false, "/alias self /self", "The saved roll /self calls itself")
	h.Fails(chatA, ana, false, "/alias other /another", "/another is not a command or saved roll")
	h.OK(chatA, ana, false, "/alias self /check fuerza")
	// A saved roll that calls itself is refused when it is saved.
	h.Fails(chatA, ana, false, "/alias self /self", "The saved roll /self calls itself (/self → /self)")
	h.Fails(chatA, ana, false, "/alias SELF /Self {*}", "calls itself")
	contains(t, h.OK(chatA, ana, false, "/self", 1), "= 5")
}

// TestAliasLoopRefusedWhenSaved: "/alias a /b" then "/alias b /a" saved
// both, and the loop was only found when one was used. The second is now
// refused when saved, in every language, through the chat's saved rolls
// and with the chat's own prefix; nothing is saved.
func TestAliasLoopRefusedWhenSaved(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, ana, false, "/alias b /check fuerza")
	h.OK(chatA, ana, false, "/alias a /b")
	h.Fails(chatA, ana, false, "/alias b /a", "The saved roll /b calls itself (/b → /a → /b)")
	h.Fails(chatA, ana, false, "/alias B !A 2", "The saved roll /B calls itself (/B → /A → /b)")
	contains(t, h.OK(chatA, ana, false, "/a", 1), "= 5")
	contains(t, h.OK(chatA, ana, false, "/alias"), "/b → /check fuerza")
	// Through a saved roll of the chat: the GM's /c goes to the chat's /d.
	h.OK(chatA, admin, true, "/alias c /check fuerza")
	h.OK(chatA, admin, true, "/alias --chat d /c")
	h.Fails(chatA, admin, true, "/alias c /d", "The saved roll /c calls itself (/c → /d → /c)")
	// Another user's own /c is no part of the loop.
	h.OK(chatA, bob, false, "/alias c /check fuerza")
	// Chains that end in a command are saved, however they are reached.
	h.OK(chatA, ana, false, "/alias e /a")
	if err := h.DB.SaveSettings(context.Background(), chatB, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	h.OK(chatB, ana, false, "/alias y /check fuerza")
	h.OK(chatB, ana, false, "/alias x /y")
	h.Fails(chatB, ana, false, "/alias y /x", "La tirada guardada /y se llama a sí misma (/y → /x → /y)")
}

// TestAliasBomb: issue 10. Saved rolls full of {*} chained together used
// to build hundreds of megabytes (or run out of memory) for one message;
// the expanded text is now measured before it is built and refused past
// 500 characters, and the whole message stays small.
func TestAliasBomb(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	stars := strings.TrimSpace(strings.Repeat("{*} ", 48))
	ones := strings.TrimSpace(strings.Repeat("1 ", 240))
	h.OK(chatA, ana, false, "/alias qqs /check 1")
	h.Fails(chatA, ana, false, "/alias qqs /qqs "+stars, "The saved roll /qqs calls itself")
	h.OK(chatA, ana, false, "/alias c1 /check 1")
	h.OK(chatA, ana, false, "/alias c2 /c1 "+stars)
	h.OK(chatA, ana, false, "/alias c3 /c2 "+stars)
	// c4 is refused when saved (four saved rolls in a row); one stored
	// before that check still stops when used, by its length.
	h.Fails(chatA, ana, false, "/alias c4 /c3 "+stars, "4 saved rolls in a row")
	c4 := alias.Alias{UserID: ana.ID, Name: "c4", Key: "c4", Text: "/c3 " + stars}
	if err := h.DB.SetAlias(context.Background(), chatA, c4, 100); err != nil {
		t.Fatal(err)
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	h.Fails(chatA, ana, false, "/c4 "+ones, "The saved roll /c4 would become a command of 23043 characters (at most 500)")
	h.Fails(chatA, ana, false, "/c3 1", "The saved roll /c2 would become a command of 4611 characters (at most 500)")
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	t.Logf("two bomb messages: %v, %d bytes allocated", took, after.TotalAlloc-before.TotalAlloc)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("the alias bomb allocated %d bytes, want under 4 MiB", alloc)
	}
	if took > 2*time.Second {
		t.Errorf("the alias bomb took %v", took)
	}
	// One stored before the check (an old database, an import) is stopped
	// when used: by its length, or as a loop.
	bomb := alias.Alias{UserID: ana.ID, Name: "old", Key: "old", Text: "/old " + stars}
	if err := h.DB.SetAlias(context.Background(), chatA, bomb, 100); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatA, ana, false, "/old "+ones, "The saved roll /old would become a command of 23044 characters (at most 500)")
	h.Fails(chatA, ana, false, "/old 1", "The saved roll /old calls itself (/old → /old)")
	// A saved roll that fits still works with {*}.
	h.OK(chatA, ana, false, "/pj set abab 2")
	h.OK(chatA, ana, false, "/alias dos /check {*}{*}")
	contains(t, h.OK(chatA, ana, false, "/dos ab", 1), "= 3")
}

func TestAliasQuotas(t *testing.T) {
	h := newHarness(t, chattest.Limits{AliasesPerUser: 2, AliasesPerChat: 1, AliasLen: 30})
	h.OK(chatA, ana, false, "/alias a /check x")
	h.OK(chatA, ana, false, "/alias b /check x")
	h.OK(chatA, ana, false, "/alias b /check y") // replacing is not adding
	h.Fails(chatA, ana, false, "/alias c /check x", "already have 2 saved rolls", "/alias delete NAME")
	h.OK(chatA, bob, false, "/alias c /check x") // per user
	h.OK(chatB, ana, false, "/alias c /check x") // per chat
	h.OK(chatA, admin, true, "/alias --chat d /check x")
	h.Fails(chatA, admin, true, "/alias --chat e /check x", "The chat already has 1 saved roll,")
	h.Fails(chatA, ana, false, "/alias z /check "+strings.Repeat("x", 30), "too long (37 characters; at most 30)")
}

// A numbered place that is never filled ({0}, {10}, {-1}) is refused when
// the saved roll is saved, saying which places there are; nothing is
// saved. {1}…{9}, {*} and other words in braces (a pad's {objetivo}) stay.
func TestAliasPlacesAreOneToNine(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	for _, p := range []string{"{0}", "{10}", "{-1}", "{99999999999999999999}"} {
		h.Fails(chatA, ana, false, "/alias x /check "+p, "«"+p+"» is not a place of a saved roll: places go from {1} to {9} (the words typed after its name), and {*} is all of them.")
	}
	contains(t, h.OK(chatA, ana, false, "/alias"), "No saved rolls yet")
	h.OK(chatA, ana, false, "/alias x /check {1} {2} {3} {4} {5} {6} {7} {8} {9}")
	h.OK(chatA, ana, false, "/alias y /check {objetivo}")
	h.OK(chatA, ana, false, "/alias z /check {*}")
	if err := h.DB.SaveSettings(context.Background(), chatB, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatB, ana, false, "/alias x /check {0}", "«{0}» no es un hueco de una tirada guardada: los huecos van de {1} a {9}")
}

// A saved roll's name is a word: "/alias . /roll 1d6" made a command "/.".
func TestAliasNameIsAWord(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	for _, n := range []string{".", "'", "..."} {
		h.Fails(chatA, ana, false, "/alias "+n+" /check fuerza", "«"+n+"» can't be a saved roll name: use one word of letters, digits, - or _")
	}
	contains(t, h.OK(chatA, ana, false, "/alias"), "No saved rolls yet")
	h.OK(chatA, ana, false, "/alias o'k /check fuerza")
}

// A saved roll's name in full-width letters (U+FF01–FF5E, typed by East
// Asian input methods) is the same name in ASCII: "/alias ｃｈｅｃｋ …" made
// a saved roll drawn like the command /check but apart from it, and
// "ｇｏｌｐｅ" one apart from "golpe". The name is stored narrowed, typed
// either way it runs and is deleted, and one stored before is still found.
// A name with letters of another alphabet that looks like a command
// ("сheck", Cyrillic с) is refused.
func TestAliasNameFullWidthIsASCII(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	for n, shown := range map[string]string{"ｃｈｅｃｋ": "check", "／ｃｈｅｃｋ": "check", "ＣＨＥＣＫ": "CHECK"} {
		h.Fails(chatA, ana, false, "/alias "+n+" /check fuerza", "«"+shown+"» is already the command /check; choose another name.")
	}
	h.Fails(chatA, ana, false, "/alias сheck /check fuerza",
		"«сheck» looks like /check, the command /check, written with letters of another alphabet", "Choose another name.")
	contains(t, h.OK(chatA, ana, false, "/alias"), "No saved rolls yet")

	contains(t, h.OK(chatA, ana, false, "/alias ｇｏｌｐｅ /check fuerza"), "/golpe → /check fuerza")
	contains(t, h.OK(chatA, ana, false, "/golpe", 1), "= 5")
	contains(t, h.OK(chatA, ana, false, "/ｇｏｌｐｅ", 2), "= 6")
	h.OK(chatA, ana, false, "/alias golpe /check fuerza")
	h.OK(chatA, ana, false, "/alias otro /ｇｏｌｐｅ")
	contains(t, h.OK(chatA, ana, false, "/otro", 3), "= 7")
	h.Fails(chatA, ana, false, "/alias golpe /ｏｔｒｏ", "The saved roll /golpe calls itself (/golpe → /ｏｔｒｏ → /ｇｏｌｐｅ)")
	out := h.OK(chatA, ana, false, "/alias")
	contains(t, out, "Your 2 saved rolls", "/golpe → /check fuerza")
	lacks(t, out, "/ｇｏｌｐｅ →")
	h.OK(chatA, ana, false, "/alias borrar ｇｏｌｐｅ")
	h.Fails(chatA, ana, false, "/golpe", "I don't know /golpe")

	// Stored before names were narrowed: found and deleted as typed.
	old := alias.Alias{UserID: ana.ID, Name: "ｆｏｏ", Key: "ｆｏｏ", Text: "/check fuerza"}
	if err := h.DB.SetAlias(context.Background(), chatA, old, 100); err != nil {
		t.Fatal(err)
	}
	contains(t, h.OK(chatA, ana, false, "/ｆｏｏ", 1), "= 5")
	h.OK(chatA, ana, false, "/alias borrar ｆｏｏ")
	h.Fails(chatA, ana, false, "/ｆｏｏ", "I don't know")

	if err := h.DB.SaveSettings(context.Background(), chatB, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatB, ana, false, "/alias ｃｈｅｃｋ /check 1", "«check» ya es la orden /check")
	h.Fails(chatB, ana, false, "/alias сheck /check 1", "«сheck» se parece a /check, la orden /check, escrito con letras de otro alfabeto")
}

// TestAliasTooDeepRefusedWhenSaved: a chain of four saved rolls (/q4 →
// /q3 → /q2 → /q1 → /check) was saved with "💾" and then only ever
// answered "more than 3 levels deep"; a loop of more than three saved
// rolls (/q1 → /q4 → /q3 → /q2 → /q1) was saved too, though loops are
// refused when saved. Both are now refused when saved, naming the chain,
// in every language, and nothing is saved.
func TestAliasTooDeepRefusedWhenSaved(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, ana, false, "/alias q1 /check fuerza")
	h.OK(chatA, ana, false, "/alias q2 /q1")
	h.OK(chatA, ana, false, "/alias q3 /q2")
	contains(t, h.OK(chatA, ana, false, "/q3", 1), "= 5")
	h.Fails(chatA, ana, false, "/alias q4 /q3",
		"/q4 would run 4 saved rolls in a row (/q4 → /q3 → /q2 → /q1 → /check), and one message runs at most 3: it could never work. Make it call a command")
	// Through the chat's saved rolls, as the saver would run them.
	h.OK(chatA, admin, true, "/alias --chat c1 /check fuerza")
	h.OK(chatA, ana, false, "/alias p2 /c1")
	h.OK(chatA, ana, false, "/alias p3 /p2")
	h.Fails(chatA, ana, false, "/alias p4 /p3", "/p4 would run 4 saved rolls in a row (/p4 → /p3 → /p2 → /c1 → /check)")
	list := h.OK(chatA, ana, false, "/alias")
	if strings.Contains(list, "/q4") || strings.Contains(list, "/p4") || !strings.Contains(list, "/q1 → /check fuerza") {
		t.Errorf("a refused saved roll changed the list: %s", list)
	}
	// A deeper one stored before the check (an old database): a way into
	// it is cut short in the message, and a loop through it is a loop.
	old := alias.Alias{UserID: ana.ID, Name: "q4", Key: "q4", Text: "/q3"}
	if err := h.DB.SetAlias(context.Background(), chatA, old, 100); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatA, ana, false, "/alias q5 /q4", "/q5 would run 5 saved rolls in a row (/q5 → /q4 → /q3 → /q2 → /q1 → …)")
	h.Fails(chatA, ana, false, "/alias q1 /q4", "The saved roll /q1 calls itself (/q1 → /q4 → /q3 → /q2 → /q1)")
	contains(t, h.OK(chatA, ana, false, "/q3", 1), "= 5")

	if err := h.DB.SaveSettings(context.Background(), chatB, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	h.OK(chatB, ana, false, "/pj crear Drake")
	h.OK(chatB, ana, false, "/pj set fuerza 4")
	h.OK(chatB, ana, false, "/alias l3 /check fuerza")
	h.OK(chatB, ana, false, "/alias l2 /l3")
	h.OK(chatB, ana, false, "/alias l1 /l2")
	h.Fails(chatB, ana, false, "/alias l0 /l1", "/l0 ejecutaría 4 tiradas guardadas seguidas (/l0 → /l1 → /l2 → /l3 → /check), y un mensaje ejecuta como mucho 3: nunca funcionaría. Haz que llame a una orden")
	if err := h.DB.SaveSettings(context.Background(), chatB, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	h.Fails(chatB, ana, false, "/alias l0 /l1", "Η /l0 θα έτρεχε 4 αποθηκευμένες ρίψεις στη σειρά (/l0 → /l1 → /l2 → /l3 → /check), ενώ ένα μήνυμα τρέχει το πολύ 3: δεν θα δούλευε ποτέ.")
	contains(t, h.OK(chatB, ana, false, "/l1", 1), "= 5")
}
