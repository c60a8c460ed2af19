package deck_test

import (
	"path/filepath"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/deck"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// bot is the router on a database file, as main wires it, and the chat's
// members talking to it.
type bot struct {
	*chattest.Bot
	db *sqlite.DB
}

// open builds the router on the database file at path, as main does.
func open(t testing.TB, path string) *bot {
	t.Helper()
	db := chattest.OpenDB(t, path)
	r := command.New(command.Config{DefaultLang: "es", Translator: chattest.Catalog(t), Settings: db, GMs: db, Unlimited: []string{"test"}})
	deck.Register(r, deck.New(db, deck.Options{}))
	general.Register(r, general.Options{Version: "test"})
	return &bot{Bot: &chattest.Bot{T: t, R: r, Chat: here, GM: gm}, db: db}
}

var (
	here = core.ChatRef{Platform: "test", ID: "-100"}
	gm   = core.User{ID: "u1", Name: "Eva"}
	ana  = core.User{ID: "u2", Name: "Ana"}
)

func (b *bot) say(u core.User, text string, faces ...int) *reply.Reply {
	b.T.Helper()
	return b.Say(u, text, faces...)
}

func (b *bot) ok(u core.User, text string, faces ...int) string {
	b.T.Helper()
	return reply.PlainText(b.OK(u, text, faces...))
}

func (b *bot) fails(u core.User, text string, want ...string) {
	b.T.Helper()
	b.Fails(u, text, want...)
}

func has(t *testing.T, got string, want ...string) {
	t.Helper()
	chattest.Has(t, got, want...)
}

// Cards are drawn without replacement, across a restart (the database
// reopened), until the deck is shuffled.
func TestDeckDrawsWithoutReplacementAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "z.db")
	b := open(t, path)
	has(t, b.ok(gm, "/mazo crear Botín: Espada; Escudo; Poción"), "3 cartas")
	// The scripted die picks among the cards still in the deck.
	has(t, b.ok(ana, "/mazo Botín", 2), "🃏 Botín: Escudo", "quedan 2 de 3")
	b.db.Close()
	b = open(t, path)
	rep := b.say(ana, "/mazo robar botin 2", 1, 1)
	has(t, reply.PlainText(rep), "Botín (2): Espada, Poción", "quedan 0 de 3")
	if c := rep.Check; c == nil || c.Deck != "Botín" || len(c.Cards) != 2 || c.Cards[1] != "Poción" || *c.Left != 0 {
		t.Fatalf("check %+v", rep.Check)
	}
	b.fails(ana, "/mazo Botín", "no tiene más cartas", "/mazo barajar Botín")
	has(t, b.ok(ana, "/mazo barajar Botín"), "las 3 cartas")
	has(t, b.ok(ana, "/mazo ver Botín"), "quedan 3 de 3")
	b.fails(ana, "/mazo robar Botín 4", "solo le quedan 3 cartas")
	b.fails(ana, "/mazo robar Botín 11", "de 1 a 10")
}

// The built-in decks: 52 cards, 54 with jokers, a 78-card tarot named in
// the chat's language; their state survives a restart too.
func TestDeckBuiltIns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "z.db")
	b := open(t, path)
	has(t, b.ok(ana, "/mazo"), "/mazo Póker · quedan 52 de 52", "/mazo Póker con comodines · quedan 54 de 54", "/mazo Tarot · quedan 78 de 78")
	has(t, b.ok(ana, "/mazo Póker", 1), "🃏 Póker: A♠", "quedan 51 de 52")
	has(t, b.ok(ana, "/mazo comodines", 54), "Comodín")
	has(t, b.ok(ana, "/mazo Tarot", 17), "La Torre")
	has(t, b.ok(ana, "/mazo Tarot", 22), "As de Bastos") // the 22nd left: the Tower is gone, then the wands
	b.ok(gm, "/lang en")
	has(t, b.ok(ana, "/deck"), "Poker · 51 of 52 left", "Tarot · 76 of 78 left")
	has(t, b.ok(ana, "/deck show tarot"), "The Tower, Ace of Wands")
	b.ok(gm, "/lang el")
	b.db.Close()
	b = open(t, path)
	has(t, b.ok(ana, "!τράπουλα ταρό", 1), "🃏 Ταρό: Ο Τρελός", "μένουν 75 από 78")
	has(t, b.ok(ana, "/deck ανακάτεψε Ταρό"), "και οι 78 κάρτες")
	b.fails(gm, "/deck διαγραφή Ταρό", "δεν διαγράφεται")
}

// GMs make and delete decks; a secret draw works, but nothing else does
// in secret; names and limits are checked.
func TestDeckGMsAndLimits(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	b.fails(ana, "/mazo crear Mío: a; b", "máster")
	b.fails(gm, "/mazo crear Solo: a", "al menos dos")
	b.fails(gm, "/mazo crear "+strings.Repeat("n", deck.MaxName+1)+": a; b", "como mucho 32 caracteres", "33")
	b.fails(gm, "/mazo crear Tarot: a; b", "«Tarot» no sirve")
	b.fails(gm, "/mazo crear Botín 2: a; b", "no sirve")
	b.fails(gm, "/mazo crear Largo: a; "+strings.Repeat("x", deck.MaxCardChars+1), "carta 2", "101")
	b.fails(gm, "/mazo crear Largo: "+strings.Repeat("x;", deck.MaxCards+1), "201")
	for i := range deck.MaxDecks {
		b.ok(gm, "/mazo crear M"+string(rune('a'+i))+": a; b")
	}
	b.fails(gm, "/mazo crear Otro: a; b", "20 mazos")
	b.ok(gm, "/mazo crear Ma\nx\ny\nz") // replacing one is not a new one
	has(t, b.ok(ana, "/mazo ver Ma"), "quedan 3 de 3", "x · y · z")
	b.fails(ana, "/mazo borrar Ma", "máster")
	has(t, b.ok(gm, "/mazo borrar Ma"), "borrado")
	b.fails(ana, "/mazo Ma", "ningún mazo «Ma»")
	rep := b.say(ana, "/secreto /mazo Tarot")
	if rep.Error || rep.Secret == nil || !strings.Contains(reply.PlainText(rep.Secret), "quedan 77") || strings.Contains(reply.PlainText(rep), "77") {
		t.Errorf("a secret draw: %q / %q", reply.PlainText(rep), reply.PlainText(rep.Secret))
	}
	b.fails(ana, "/secreto /mazo barajar Tarot")
	has(t, b.ok(ana, "/mazo ver Tarot"), "quedan 77")
}

// /elegir picks one of a list, each as likely, in three languages.
func TestPick(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	rep := b.say(ana, "/elegir taberna, templo, mercado", 2)
	has(t, reply.PlainText(rep), "🎯 templo · 2 de 3 · 33,33 %")
	if c := rep.Check; c == nil || c.Pick != "templo" || c.ChanceExact != "1/3" {
		t.Fatalf("check %+v", rep.Check)
	}
	has(t, b.ok(ana, "/elegir Ana Bob", 1), "🎯 Ana · 1 de 2 · 50 %")
	b.fails(ana, "/elegir solo", "separado por comas")
	b.fails(ana, "/elegir "+strings.Repeat("a,", deck.MaxChoices+1), "50 opciones")
	b.fails(ana, "/elegir a, "+strings.Repeat("b", deck.MaxChoiceChars+1), "como mucho 100 caracteres", "101")
	b.ok(gm, "/lang en")
	has(t, b.ok(ana, "/pick tavern, temple", 2), "🎯 temple · 2 of 2 · 50%")
	b.ok(gm, "/lang el")
	has(t, b.ok(ana, "!διάλεξε ταβέρνα, ναός, αγορά", 3), "🎯 αγορά · 3 από 3 · 33,33 %")
}
