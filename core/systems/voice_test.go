package systems_test

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
)

// TestNPCTurnHasNoPlayer: issue 36. A player who tries to pass a foe's
// turn was told «lo pasa su jugador o el máster»: a foe has no player.
// The refusal says the GM passes it, or a character's player.
func TestNPCTurnHasNoPlayer(t *testing.T) {
	r := fullBot(t)
	gm := core.Message{Chat: chat, From: core.User{ID: "9", Name: "Eva"}, FromGM: true}
	pl := core.Message{Chat: chat, From: core.User{ID: "2", Name: "Bob"}}
	say := func(m core.Message, text string) *reply.Reply {
		t.Helper()
		m.Text = text
		rep, ok := r.DispatchWith(context.Background(), m, dice.Seeded(1))
		if !ok {
			t.Fatalf("%q not answered", text)
		}
		return rep
	}
	say(pl, "/pj crear Drake")
	say(pl, "/iniciativa 5")
	say(gm, "/iniciativa añadir Lobo 20")
	say(gm, "/iniciativa siguiente")
	rep := say(pl, "/iniciativa siguiente")
	got := reply.PlainText(rep)
	if !rep.Error || strings.Contains(got, "su jugador") || !strings.Contains(got, "Es el turno de Lobo: lo pasa el máster") {
		t.Errorf("Bob passing the wolf's turn: %q", got)
	}
}

// bangGreek is a Greek command typed after «!» («!βοήθεια»): a Telegram
// group never delivers it to the bot.
var bangGreek = regexp.MustCompile(`(^|[\s(«"“'=])![\p{Greek}]`)

// TestGreekExamplesReachTelegram: issue 36. The Greek lines taught
// «!βοήθεια», «!κρυφή», «!πιθανότητες», which a Telegram group never
// delivers: an example is a «/» command (the router writes it with «!»
// and its Greek name for whoever typed «!» on Matrix). A line about
// Matrix alone may show its «!».
func TestGreekExamplesReachTelegram(t *testing.T) {
	texts := catalogTexts(t, "el")
	for _, k := range sortedKeys(texts) {
		for _, line := range strings.Split(texts[k], "\n") {
			if strings.Contains(line, "Matrix") {
				continue
			}
			if bangGreek.MatchString(line) {
				t.Errorf("el %q teaches a «!» command: %s", k, line)
			}
		}
	}
}

// spanishOneWord: issue 36. The Spanish lines said «orden» and «comando»
// for one thing, and «dc15» beside «CD 15».
var spanishOneWord = regexp.MustCompile(`\bcomandos?\b|\bdc\d`)

// TestSpanishSaysOrdenAndCD: one word for a command (orden) and one for
// a difficulty class (CD, typed cd15), in every Spanish line.
func TestSpanishSaysOrdenAndCD(t *testing.T) {
	texts := catalogTexts(t, "es")
	for _, k := range sortedKeys(texts) {
		if m := spanishOneWord.FindString(texts[k]); m != "" {
			t.Errorf("es %q says %q: %s", k, m, texts[k])
		}
	}
}

// articleBeforeName: a gendered article before a name the user chose (a
// character's, a table's, a session's): «της «Ο Δράκος»» is wrong for
// every name but some. A noun between them carries the article instead
// («της συνεδρίας «…»»).
var articleBeforeName = map[string]*regexp.Regexp{
	"el": regexp.MustCompile(`(^|[\s(])(ο|η|οι|τον|την|του|της|στον|στην|στου|στης)\s+«?\{\{\.(name|character|title|table|deck|who|user|owner|first|second)\}\}`),
	"es": regexp.MustCompile(`(?i)\b(el|la|los|las|del|al)\s+«?\{\{\.(name|character|title|table|deck|who|user|owner|first|second)\}\}`),
}

// TestNoArticleAssumesAName: issue 36.
func TestNoArticleAssumesAName(t *testing.T) {
	for lang, re := range articleBeforeName {
		texts := catalogTexts(t, lang)
		for _, k := range sortedKeys(texts) {
			if m := re.FindString(texts[k]); m != "" {
				t.Errorf("%s %q has %q: %s", lang, k, strings.TrimSpace(m), texts[k])
			}
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// greekOneLineSemicolon is a one-line table or deck taught with «;»
// between its rows, which a Greek reader takes for question marks.
var greekOneLineSemicolon = regexp.MustCompile(`δημιουργία [^:\n]*: [^;\n"]+; `)

// TestGreekOneLineLists: issue 36. «Καιρός: Ήλιος; Βροχή; Ομίχλη» reads as
// three questions in Greek, and the real Greek question mark (U+037E)
// typed there was refused. The one-line form takes «;», U+037E and «|»;
// the Greek lines teach «|».
func TestGreekOneLineLists(t *testing.T) {
	texts := catalogTexts(t, "el")
	for _, k := range sortedKeys(texts) {
		if m := greekOneLineSemicolon.FindString(texts[k]); m != "" {
			t.Errorf("el %q teaches «;» between rows: %q", k, m)
		}
	}
	r := fullBot(t)
	gm := core.Message{Chat: chat, From: core.User{ID: "9", Name: "Eva"}, FromGM: true}
	for _, c := range []struct{ text, want string }{
		{"/lang el", "ελληνικά"},
		{"/table δημιουργία Καιρός: Ήλιος\u037e Βροχή\u037e Ομίχλη", "1d3, 3 γραμμές"},
		{"/table δημιουργία Άνεμος: Νότιος | Βοριάς", "1d2, 2 γραμμές"},
		{"/deck δημιουργία Λάφυρα: Σπαθί\u037e Ασπίδα | Φίλτρο", "3 κάρτες"},
	} {
		m := gm
		m.Text = c.text
		rep, ok := r.DispatchWith(context.Background(), m, dice.Seeded(1))
		if got := reply.PlainText(rep); !ok || rep.Error || !strings.Contains(got, c.want) {
			t.Errorf("%q: %s, want %s", c.text, got, c.want)
		}
	}
}

// TestGreekHelpNamesOnce: issue 36. Help asked with «!» in a Greek chat
// (Matrix) wrote every name of a command by its Greek name: «!ρίξε
// (!ρίξε, !ρίξε, !ρίξε)». Each name is shown once.
func TestGreekHelpNamesOnce(t *testing.T) {
	r := fullBot(t)
	m := core.Message{Chat: chat, From: core.User{ID: "9", Name: "Eva"}, FromGM: true}
	for _, text := range []string{"/lang el", "!βοήθεια ρίξε"} {
		m.Text = text
		rep, ok := r.DispatchWith(context.Background(), m, dice.Seeded(1))
		if !ok || rep.Error {
			t.Fatalf("%q: %s", text, reply.PlainText(rep))
		}
		if text == "/lang el" {
			continue
		}
		first, _, _ := strings.Cut(reply.PlainText(rep), "\n")
		if strings.Count(first, "!ρίξε") != 1 {
			t.Errorf("%q heads its help with %q", text, first)
		}
	}
}
