package systems_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// sheetTable is a chat in lang over real sheets on SQLite, the real catalogs,
// the systems' files and their 📊 handlers (issue 33: sheets per system,
// development marks, RQ characteristics).
type sheetTable struct {
	t      *testing.T
	r      *command.Router
	chat   core.ChatRef
	db     *sqlite.DB
	player core.User
}

func newTable(t *testing.T, lang string, values int) *sheetTable {
	t.Helper()
	db, svc, cat := systems.ServicesForTest(t, chattest.Options{SheetKeys: systems.SheetKeys, Limits: chattest.Limits{ValuesPerSheet: values}})
	r := command.New(command.Config{DefaultLang: lang, Translator: cat, Settings: db, GMs: db, Sheets: svc.Sheets, Limits: command.Limits{Burst: 1 << 20}})
	svc.Register(r)
	systems.Register(r)
	roll.RegisterSystemOdds(r)
	general.Register(r, general.Options{})
	return &sheetTable{t: t, r: r, chat: core.ChatRef{Platform: "console", ID: "mesa-" + lang}, db: db, player: core.User{ID: "1", Name: "Ana"}}
}

// send is text from the player (or the chat's administrator, a GM, when
// gm), with the dice given; it returns what the chat sees.
func (tb *sheetTable) send(gm bool, text string, faces ...int) (string, *reply.Reply) {
	tb.t.Helper()
	u := tb.player
	if gm {
		u = core.User{ID: "9", Name: "Máster"}
	}
	rep, ok := tb.r.DispatchWith(context.Background(), core.Message{Chat: tb.chat, From: u, FromGM: gm, Text: text}, dice.NewScripted(faces))
	if !ok {
		tb.t.Fatalf("%q not handled", text)
	}
	return reply.PlainText(rep), rep
}

// ok is send for a reply that is no error, checked to hold every want
// and none of the not (a "!" before a want).
func (tb *sheetTable) ok(text string, faces []int, want ...string) string {
	tb.t.Helper()
	out, rep := tb.send(false, text, faces...)
	if rep.Error {
		tb.t.Fatalf("%q: %s", text, out)
	}
	tb.holds(text, out, want...)
	return out
}

func (tb *sheetTable) holds(text, out string, want ...string) {
	tb.t.Helper()
	for _, w := range want {
		if not, ok := strings.CutPrefix(w, "!"); ok {
			if strings.Contains(out, not) {
				tb.t.Errorf("%q: %q has %q", text, out, not)
			}
		} else if !strings.Contains(out, w) {
			tb.t.Errorf("%q: %q lacks %q", text, out, w)
		}
	}
}

// /pj crear NAME SYSTEM starts the sheet with the keys the system's file
// declares, named in the chat's language; the chat's default system
// (/ajustes sistema) does the same without naming one; Dungeon Hack,
// without a file yet, and no system start empty.
func TestSheetPerSystem(t *testing.T) {
	es := newTable(t, "es", 0)
	es.ok("/pj crear Lyra zaria", nil, "Lyra creado con la hoja de Ζαριά", "/pj poner Fuerza 5",
		"Fuerza 4", "Destreza 4", "Inteligencia 4", "Carisma 4", "Atletismo 0", "Percepción 0", "Persuasión 0")
	es.ok("/pj", nil, "Fuerza 4", "Atletismo 0")
	// The sheet's values are what rolls read.
	es.ok("/zaria fuerza+atletismo dc10", []int{5, 6}, "fuerza 4 + atletismo 0 + 5 = 9")
	es.gm("/ajustes sistema kh", "Kingdom Hearts")
	es.ok("/pj crear Bea", nil, "hoja de Kingdom Hearts", "Conocimientos 0", "Físico 0", "Personalidad 0", "Tenacidad 0")
	es.ok("/pj crear Cid dh", nil, "Personaje Cid creado", "!hoja de")
	es.gm("/ajustes sistema ninguno", "hoja vacía")
	es.ok("/pj crear Dag", nil, "Personaje Dag creado", "!hoja de")

	el := newTable(t, "el", 0)
	el.ok("/pj δημιουργία Λύρα rq", nil, "φύλλο RQ", "ΔΥΝ 10", "ΣΥΝ 10", "ΜΕΓ 10", "ΕΥΦ 10", "ΘΕΛ 10", "ΕΠΙ 10", "ΕΜΦ 10")
	el.ok("/pj δημιουργία Άρης ζαριά", nil, "Δύναμη 4", "Αθλητισμός 0")

	en := newTable(t, "en", 0)
	en.ok("/pj create Lyra kh", nil, "created with the Kingdom Hearts sheet", "/pj set Knowledge 5",
		"Knowledge 0", "Physical 0", "Personality 0", "Tenacity 0")
	en.ok("/kh physical dc4", []int{4}, "Success")
}

// An RQ success marks the skill read from the sheet, once: kept on the
// sheet, shown by /pj and /pj mejoras, cleared by the GM only. A skill
// typed as a number keeps only the reminder; a failure marks nothing.
func TestRQSuccessMarksTheSkill(t *testing.T) {
	es := newTable(t, "es", 0)
	es.ok("/pj crear Lyra rq", nil)
	es.ok("/pj poner espadas 45", nil)
	es.ok("/rq espadas normal", []int{40}, "Éxito", "✎ espadas queda marcada en la hoja para mejorarla más tarde.", "!Marca la habilidad", "Probabilidad: 65 %")
	es.ok("/pj", nil, "✎ Mejoras: espadas 1", "!✎espadas")
	es.ok("/rq espadas", []int{3}, "✎ espadas queda marcada")
	es.ok("/pj mejoras", nil, "✎ Mejoras: espadas 1") // a tick, not two
	es.ok("/rq espadas normal", []int{70}, "Fallo", "!✎")
	es.ok("/rq 45", []int{10}, "Marca la habilidad", "!✎")
	es.ok("/pj poner esquivar 20", nil)
	es.ok("/rq esquivar vs 40", []int{10}, "✎ esquivar queda marcada")
	es.ok("/pj mejoras", nil, "espadas 1 · esquivar 1")
	// Another player rolling Lyra's skill keeps no mark on her sheet, and
	// the reply says why.
	rep, ok := es.r.DispatchWith(context.Background(), core.Message{Chat: es.chat, From: core.User{ID: "2", Name: "Bob"}, Text: "/rq @Lyra espadas"}, dice.NewScripted([]int{30}))
	if !ok || rep.Error {
		t.Fatalf("Bob's roll: %+v", rep)
	}
	es.holds("Bob's roll", reply.PlainText(rep), "Éxito", "✎ Solo quien creó el personaje Lyra")
	// The player cannot clear them; the GM can.
	out, rep := es.send(false, "/pj mejoras borrar")
	if !rep.Error || !strings.Contains(out, "Solo el máster borra las mejoras") {
		t.Errorf("a player clearing: %s", out)
	}
	es.ok("/pj mejoras", nil, "espadas 1")
	out, rep = es.send(true, "/pj mejoras borrar @Lyra")
	es.holds("GM clears", out, "Borradas 2 mejoras de Lyra.")
	if rep.Error {
		t.Errorf("GM clearing: %s", out)
	}
	es.ok("/pj mejoras", nil, "Lyra no tiene mejoras anotadas.")
	es.ok("/pj", nil, "!Mejoras", "espadas 45")

	el := newTable(t, "el", 0)
	el.ok("/pj δημιουργία Λύρα rq", nil)
	el.ok("/pj όρισε σπαθί 45", nil)
	el.ok("/rq σπαθί", []int{20}, "✎ Η ικανότητα σπαθί σημειώθηκε στο φύλλο")
	el.ok("/pj βελτιώσεις", nil, "✎ Βελτιώσεις: σπαθί 1")
	out, _ = el.send(true, "/pj βελτιώσεις διαγραφή @Λύρα")
	el.holds("GM clears", out, "Σβήστηκε 1 βελτίωση του χαρακτήρα Λύρα.")

	en := newTable(t, "en", 0)
	en.ok("/pj create Lyra rq", nil)
	en.ok("/pj set swords 45", nil)
	en.ok("/rq swords", []int{20}, "✎ swords is marked on the sheet, to improve later.")
	out, _ = en.send(true, "/pj marks clear @Lyra")
	en.holds("GM clears", out, "Cleared 1 mark of Lyra.")
	out, rep = en.send(false, "/pj marks clear now please")
	if !rep.Error || !strings.Contains(out, "/pj marks clear @Name") {
		t.Errorf("bad /pj marks: %s", out)
	}
}

// A Ζαριά EPIC WIN adds a skill progression point to the skill rolled
// from the sheet, each one adding up; an EPIC FAIL or a number typed
// keeps none.
func TestZariaEpicWinAddsAProgressionPoint(t *testing.T) {
	es := newTable(t, "es", 0)
	es.ok("/pj crear Lyra zaria", nil)
	es.ok("/zaria fuerza+atletismo dc15", []int{10, 10}, "¡ÉXITO ÉPICO!", "+1 punto de progreso de habilidad", "✎ Atletismo, puntos de progreso de habilidad en la hoja: 1")
	es.ok("/zaria dc20 destreza+atletismo", []int{10, 10}, "puntos de progreso de habilidad en la hoja: 2")
	es.ok("/zaria fuerza+atletismo dc15", []int{1, 1}, "!✎")
	es.ok("/zaria 4+2 dc15", []int{10, 10}, "+1 punto de progreso de habilidad", "!✎")
	es.ok("/zaria fuerza+atletismo vs 4+4", []int{10, 10, 5, 5}, "puntos de progreso de habilidad en la hoja: 3")
	es.ok("/pj", nil, "✎ Mejoras: Atletismo 3", "Atletismo 0")

	el := newTable(t, "el", 0)
	el.ok("/pj δημιουργία Λύρα ζαριά", nil)
	el.ok("/ζαριά δύναμη+πειθώ dc15", []int{10, 10}, "EPIC WIN", "✎ Πειθώ — skill progression point στο φύλλο: 1")

	en := newTable(t, "en", 0)
	en.ok("/pj create Lyra zaria", nil)
	en.ok("/zaria strength+perception dc15", []int{10, 10}, "✎ Perception, progression points on the sheet: 1 (/pj marks)")
	en.ok("/pj marks", nil, "✎ Marks: Perception 1")
}

// A sheet at its quota of values keeps no new mark and says so; the roll
// stands.
func TestMarkOnAFullSheet(t *testing.T) {
	es := newTable(t, "es", 8)
	es.ok("/pj crear Lyra rq", nil) // 7 characteristics
	es.ok("/pj poner espadas 45", nil)
	es.ok("/rq espadas", []int{20}, "Éxito", "La hoja de Lyra ya tiene 8 valores: la mejora no se ha anotado.")
	es.ok("/pj mejoras", nil, "Lyra no tiene mejoras anotadas.")
}

// RQ's characteristics by name, from the sheet: "/rq con", "/rq c ΣΥΝ",
// "/rq con x5", found under any of their three names; the reply carries
// the 📊 button, whose press shows the chance of each outcome.
func TestRQCharacteristicsFromTheSheet(t *testing.T) {
	es := newTable(t, "es", 0)
	es.ok("/pj crear Lyra rq", nil)
	es.ok("/pj poner con 14", nil)
	es.ok("/rq con", []int{80}, "vs 92 (50 + con 14×3)", "!✎")
	es.ok("/rq c CON x5 -10", []int{80}, "vs 110 (50 + con 14×5 − 10")
	es.ok("/rq c:con x2", []int{80}, "vs 78 (50 + con 14×2)")
	es.ok("/rq fue vs c12", []int{50}, "50 + fue 10×5 − 12×5")
	es.ok("/rq 60 vs c CON", []int{50}, "vs 40 (50 + 60 − con 14×5)")
	out, rep := es.send(false, "/rq c14 x11")
	if !rep.Error || !strings.Contains(out, "El multiplicador va de ×1 a ×10") {
		t.Errorf("/rq c14 x11: %s", out)
	}

	el := newTable(t, "el", 0)
	el.ok("/pj δημιουργία Λύρα rq", nil)
	el.ok("/rq c ΣΥΝ x5", []int{80}, "εναντίον 100 (50 + συν 10×5)")
	// A name of another language finds the same value.
	_, rep = el.ok2("/rq con", []int{80}, "εναντίον 80 (50 + con 10×3)")

	en := newTable(t, "en", 0)
	en.ok("/pj create Lyra rq", nil)
	_, rep = en.ok2("/rq str x4", []int{40}, "vs 90 (50 + str 10×4)")
	odds := false
	for _, b := range rep.Buttons {
		odds = odds || b.Kind == reply.ButtonOdds
	}
	if !odds {
		t.Fatalf("/rq str x4: no 📊 button: %+v", rep.Buttons)
	}
	press, ok := en.r.Press(context.Background(), core.Message{Chat: en.chat, From: en.player}, reply.Action{Kind: reply.ActOdds, Command: "/rq str x4"})
	if !ok || press == nil {
		t.Fatal("the 📊 press was not answered")
	}
	en.holds("📊", reply.PlainText(press), "50 + str 10×4", "−30  60% normal")
}

// gm is send by the GM, for a reply that is no error and holds want.
func (tb *sheetTable) gm(text string, want ...string) {
	tb.t.Helper()
	out, rep := tb.send(true, text)
	if rep.Error {
		tb.t.Fatalf("%q: %s", text, out)
	}
	tb.holds(text, out, want...)
}

// ok2 is ok returning the reply too.
func (tb *sheetTable) ok2(text string, faces []int, want ...string) (string, *reply.Reply) {
	tb.t.Helper()
	out, rep := tb.send(false, text, faces...)
	if rep.Error {
		tb.t.Fatalf("%q: %s", text, out)
	}
	tb.holds(text, out, want...)
	return out, rep
}

// /help rq names the characteristics the RQ file declares, in the chat's
// language, with the words that roll them; /help pj teaches a system's
// sheet and the marks.
func TestHelpRQNamesTheCharacteristics(t *testing.T) {
	for lang, want := range map[string][]string{
		"es": {"/rq con · /rq c CON x5", "FUE, CON, TAM, INT, POD, DES, APA", "/pj mejoras"},
		"el": {"/rq συν · /rq c ΣΥΝ x5", "ΔΥΝ, ΣΥΝ, ΜΕΓ, ΕΥΦ, ΘΕΛ, ΕΠΙ, ΕΜΦ", "/pj βελτιώσεις"},
		"en": {"/rq con · /rq c CON x5", "STR, CON, SIZ, INT, POW, DEX, APP", "/pj marks"},
	} {
		tb := newTable(t, lang, 0)
		tb.ok("/help pj", nil, map[string][]string{
			"es": {"/pj crear Lyra zaria", "/pj mejoras borrar @Lira"},
			"el": {"/pj δημιουργία Λύρα ζαριά", "/pj βελτιώσεις διαγραφή @Lira"},
			"en": {"/pj create Lyra zaria", "/pj marks clear @Lira"},
		}[lang]...)
		out := tb.ok("/help rq", nil, want...)
		for _, k := range systems.SheetKeys("rq") {
			if !strings.Contains(out, k.Names.In(lang)) {
				t.Errorf("/help rq in %s lacks the file's %s", lang, k.Names.In(lang))
			}
		}
	}
}
