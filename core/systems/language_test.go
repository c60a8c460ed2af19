package systems_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/BurntSushi/toml"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/deck"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/initiative"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/core/systems/engine"
	"zaria/core/table"
	"zaria/internal/chattest"
)

// greekLatinOK are the Latin-script words a Greek reply may show: terms the
// seeds themselves write in Latin script (the Ζαριά seed's EPIC WIN, stat,
// skill, DC, GM, NPC…; the Dungeon Hack seed's DB), proper names (games,
// platforms, the example characters), language codes, and the names a user
// types as they are in every language (setting names; command names, which
// Telegram takes only in Latin script, are skipped before this list).
var greekLatinOK = map[string]bool{
	// seed 002 (Ζαριά), in Latin script in the Greek text
	"epic": true, "win": true, "fail": true, "stat": true, "stats": true, "skill": true, "skills": true,
	"progression": true, "point": true, "courage": true, "dc": true, "gm": true, "npc": true, "npcs": true,
	// seed 001 (Dungeon Hack): Dados de Blindaje
	// (none: the Greek replies write ΖΘ, ζάρια θωράκισης)
	// proper names
	"zaria": true, "daegon": true, "dungeon": true, "hack": true, "kingdom": true, "hearts": true, "heartless": true, "nobody": true,
	"fantasy": true, "worlds": true, "system": true, // Warhammer Fantasy, Savage Worlds; /system as the page writes it
	"rq": true, "telegram": true, "matrix": true, "fudge": true, "json": true, "utf": true, "bot": true, "api": true,
	"utc": true, "kb": true, "runequest": true, "element": true, "web": true, "desktop": true, // RuneQuest; Element Web and Desktop (the Matrix clients)
	// time zones, typed as IANA names in every language (/ajustes zona Europe/Athens)
	"europe": true, "athens": true, "asia": true, "nicosia": true,
	// file formats, typed as they are (/sesion formato html)
	"html": true, "md": true, "markdown": true,
	"drake": true, "draco": true, "lira": true, "ana": true, "enyra": true,
	// a saved roll's name in the Greek help, in Latin letters: Telegram
	// delivers a command with no other (issue 36: «!επίθεση» never reached the bot)
	"xtypima": true,
	// language codes and setting names typed as they are
	"es": true, "el": true, "en": true,
	"daegon_00": true, "dh_": true, // setting names: daegon_00, dh_θωράκιση (the /dh command's name)
	// dice notation letters (kh3, kl, dh, dl, ro, f<=1) and the p of a p-value
	"kh": true, "kl": true, "dh": true, "dl": true, "ro": true, "r": true, "f": true, "p": true, "d": true, "s": true, "i": true, "c": true, "x": true,
	"cs": true, "cf": true, "min": true, "max": true, "round": true, "ceil": true, "floor": true, "adv": true, "dis": true,
}

var (
	placeholder = regexp.MustCompile(`\{\{[^}]*\}\}`)
	prefixArg   = regexp.MustCompile(`\{\{[^}]*\.pre\b[^}]*\}\}`) // the command prefix: "/"
	zcmdArg     = regexp.MustCompile(`\{\{\.zcmd\}\}`)
	docPath     = regexp.MustCompile(`\bdocs/[\w./-]+`)
	flagWord    = regexp.MustCompile(`--[a-z]+`)
	commandWord = regexp.MustCompile(`[/!][\p{L}\p{N}_]+`)
	latinWord   = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_%]*`)
	// diceLike: a token with a digit, or dice notation ("d%", "4dF").
	diceLike = regexp.MustCompile(`^[A-Za-z]*\d|^d%$`)
)

// latinWords returns the Latin-script words of a Greek text that are not in
// greekLatinOK, not dice expressions and not command names.
func latinWords(s string) []string {
	s = prefixArg.ReplaceAllString(s, "/")
	s = zcmdArg.ReplaceAllString(s, "/zaria")
	s = docPath.ReplaceAllString(s, " ")
	s = flagWord.ReplaceAllString(s, " ")
	s = placeholder.ReplaceAllString(s, " ")
	s = commandWord.ReplaceAllString(s, " ")
	var bad []string
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '(' || r == ')' || r == ',' || r == '·' || r == '«' || r == '»' || r == ':' || r == ';' || r == '—' || r == '|' || r == '"' || r == '“' || r == '”'
	}) {
		if diceLike.MatchString(tok) {
			continue
		}
		for _, w := range latinWord.FindAllString(tok, -1) {
			if !greekLatinOK[strings.ToLower(w)] && !diceLike.MatchString(w) {
				bad = append(bad, w)
			}
		}
	}
	return bad
}

// allowCommandNames adds the Latin command names to greekLatinOK: they are
// typed as they are in every language ("/help pj").
func allowCommandNames(r *command.Router) {
	for _, c := range r.Commands() {
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			if latinWord.MatchString(n) && latinWord.FindString(n) == n {
				greekLatinOK[strings.ToLower(n)] = true
			}
		}
	}
	// A setting's key is typed as it is in every language (/settings iniciativa 2d6).
	for _, o := range r.Options() {
		for _, w := range latinWord.FindAllString(o.Key, -1) {
			greekLatinOK[strings.ToLower(w)] = true
		}
	}
}

// catalogTexts reads every message of the lang catalogs: key → text (a
// plural's forms joined).
func catalogTexts(t *testing.T, lang string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "i18n", "locales", "*."+lang+".toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s catalogs: %v", lang, err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for k, v := range m {
			switch v := v.(type) {
			case string:
				out[k] = v
			case map[string]any:
				var forms []string
				for _, f := range v {
					if s, ok := f.(string); ok {
						forms = append(forms, s)
					}
				}
				sort.Strings(forms)
				out[k] = strings.Join(forms, "\n")
			}
		}
	}
	return out
}

// The Greek catalogs show no Latin-script word but dice, proper names and
// the seed's own Latin terms: no "Resistencia", "Blindaje", "espada-larga",
// "mount" or "PC" in a Greek reply or help page.
func TestGreekCatalogHasNoForeignWords(t *testing.T) {
	allowCommandNames(fullBot(t))
	texts := catalogTexts(t, "el")
	keys := make([]string, 0, len(texts))
	for k := range texts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	typed := formatWords(t)
	for _, k := range keys {
		bad := latinWords(texts[k])
		if strings.HasPrefix(k, engine.FileKey("")) {
			// A file's refusal names the format's words as the GM types
			// them; its printf verbs are no words.
			bad = nil
			for _, w := range latinWords(printfVerb.ReplaceAllString(texts[k], " ")) {
				if !typed[strings.ToLower(w)] {
					bad = append(bad, w)
				}
			}
		}
		if len(bad) > 0 {
			t.Errorf("el %q shows Latin-script words %q: %s", k, bad, texts[k])
		}
	}
}

var printfVerb = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0]*\d*(?:\.\d+)?[a-zA-Z]`)

// formatWords are the words a system file is written in: those of the
// code spans (keys, values, functions) of docs/systems-format.md's
// reference (before "For developers"), the keys of its examples and
// YAML's own (true, false).
func formatWords(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "systems-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	ref, _, _ := strings.Cut(string(b), "\n## For developers")
	out := map[string]bool{"yaml": true, "true": true, "false": true}
	for _, span := range regexp.MustCompile("`[^`\n]+`").FindAllString(ref, -1) {
		for _, w := range latinWord.FindAllString(span, -1) {
			out[strings.ToLower(w)] = true
		}
	}
	for _, block := range regexp.MustCompile("(?s)```[a-z]*\n.*?```").FindAllString(ref, -1) {
		for _, m := range regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*:`).FindAllStringSubmatch(block, -1) {
			out[strings.ToLower(m[1])] = true
		}
	}
	return out
}

// fullBot is every command as cmd/zaria wires them, on SQLite.
func fullBot(t *testing.T) *command.Router {
	t.Helper()
	st, svc, cat := systems.ServicesForTest(t, chattest.Options{Validators: systems.SheetValidators()})
	r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: st, GMs: st, Sheets: svc.Sheets, Aliases: svc.Aliases,
		Observers: []command.Observer{svc.History}, Unlimited: []string{"console"}})
	roll.Register(r)
	roll.RegisterOdds(r)
	systems.Register(r)
	svc.Register(r)
	initiative.Register(r, initiative.New(st, initiative.Options{ActiveName: st.ActiveCharacterName, Fighters: svc.Sheets}))
	general.Register(r, general.Options{Version: "test"})
	deck.Register(r, deck.New(st, deck.Options{}))
	table.Register(r, table.New(st, table.Options{}))
	return r
}

// chatAs is u's messages to the console chat id over r, as a GM when
// gm, the dice seeded with 1: each reply's text and whether it is an
// error.
func chatAs(t *testing.T, r *command.Router, id string, u core.User, gm bool) func(text string) (string, bool) {
	return func(text string) (string, bool) {
		t.Helper()
		rep, ok := r.DispatchWith(context.Background(), core.Message{Chat: core.ChatRef{Platform: "console", ID: id}, From: u, Text: text, FromGM: gm}, dice.Seeded(1))
		if !ok {
			t.Fatalf("%q: not answered", text)
		}
		return reply.PlainText(rep), rep.Error
	}
}

// helpPages renders /help, /help <command> for every command, /start and
// /ajustes in lang.
func helpPages(t *testing.T, r *command.Router, lang string) map[string]string {
	t.Helper()
	ctx := context.Background()
	chat := core.ChatRef{Platform: "console", ID: "help-" + lang}
	say := func(text string) string {
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: core.User{ID: "u1", Name: "Ana"}, Text: text}, dice.Seeded(1))
		if !ok || rep.Error {
			t.Fatalf("%s %q: %s", lang, text, reply.PlainText(rep))
		}
		return reply.PlainText(rep)
	}
	say("/lang " + lang)
	pages := map[string]string{"/help": say("/help"), "/start": say("/start"), "/ajustes": say("/ajustes")}
	for _, c := range r.Commands() {
		if !c.Hidden {
			pages["/help "+c.Name] = say("/help " + c.Name)
		}
	}
	return pages
}

func TestGreekHelpPagesHaveNoForeignWords(t *testing.T) {
	r := fullBot(t)
	allowCommandNames(r)
	for name, page := range helpPages(t, r, "el") {
		if bad := latinWords(page); len(bad) > 0 {
			t.Errorf("Greek %s shows Latin-script words %q:\n%s", name, bad, page)
		}
	}
}

// The sub-command and item names each language's help must not show: the
// other languages' Dungeon Hack sub-commands, character sub-commands and
// equipment names.
var foreignNames = map[string][]string{
	"es": {"attack", "break", "use", "repair", "mount", "drown", "create", "rename", "delete", "list", "add", "remove", "set",
		"longsword", "breastplate", "flail", "hide", "weapon", "armour", "strength", "athletics", "physical", "fighting",
		"medium", "hard", "easy", "vs", "npc", "high", "zero", "language", "prefix"},
	"en": {"ataque", "rompe", "uso", "repara", "montura", "asfixia", "crear", "renombrar", "borrar", "lista", "usar", "poner", "añadir", "quitar",
		"espada-larga", "coraza", "pieles", "mayal", "arma", "armadura", "fuerza", "atletismo", "fisico", "físico", "lucha", "media", "dificil", "difícil", "facil", "fácil",
		"contra", "pnj", "alta", "cero", "idioma", "prefijo"},
}

// Spanish and English help pages show their own sub-command and item names,
// never another language's ("/dh ataque espada-larga vs coraza" in English).
func TestHelpPagesUseTheirOwnNames(t *testing.T) {
	r := fullBot(t)
	word := regexp.MustCompile(`[\p{L}\p{N}_-]+`)
	for lang, names := range foreignNames {
		for name, page := range helpPages(t, r, lang) {
			for _, line := range strings.Split(page, "\n") {
				// The title line lists a command's aliases in every language.
				if strings.HasPrefix(line, "/") && strings.Contains(line, "  (") {
					continue
				}
				// /help ajustes shows one value in the three languages on
				// purpose: any of them can be typed.
				if strings.Contains(line, "alta") && strings.Contains(line, "πάνω") && strings.Contains(line, "high") {
					continue
				}
				for _, w := range word.FindAllString(line, -1) {
					// No Greek word either, but the system's own name.
					if strings.IndexFunc(w, func(r rune) bool { return unicode.Is(unicode.Greek, r) }) >= 0 && !strings.HasPrefix(w, "Ζαρι") {
						t.Errorf("%s %s shows the Greek %q: %s", lang, name, w, line)
					}
					for _, n := range names {
						if strings.EqualFold(w, n) {
							t.Errorf("%s %s shows %q: %s", lang, name, w, line)
						}
					}
				}
			}
		}
	}
}

// Replies write negative numbers with one sign, "−", never the ASCII
// hyphen: "vs −40", "has puesto −100"; and a minus typed in a keyword is
// kept (it used to fold away: "dc-5" read as DC 5, "d-2" as D2).
func TestOneMinusSign(t *testing.T) {
	b := newBot(t, nil)
	hyphen := regexp.MustCompile(`(^|[^\p{L}\p{N}])-\d`)
	for _, lang := range core.Langs() {
		for _, c := range []struct {
			text string
			dice []int
			want string // in the es reply
		}{
			{"/rq 10 -100", []int{87}, "vs −40 (50 + 10 − 100)"},
			{"/rq c3 -100", []int{10}, "vs −41"},
			{"/rq -100", nil, "has puesto −100"},
			{"/rq 45 -300", nil, "va de −150 a +50; has puesto −300"},
			{"/zaria -5 dc10", nil, "has puesto −5"},
			{"/zaria 1 dc30", []int{6, 9}, "−22"},
			{"/zaria 4+2 dc-5", nil, "has puesto −5"},
			{"/zaria 3+-2 dc10", nil, "has puesto −2"},
			{"/kh -3", nil, "has puesto −3"},
			{"/kh 6 dc-3", nil, "has puesto −3"},
			{"/daegon -1", nil, "has puesto −1"},
			{"/daegon 7 d-2", nil, "has puesto −2"},
			{"/dh pen -1", nil, "has puesto −1"},
			{"/dh ataque 1d4 vs coraza", []int{3, 6, 3, 6}, "3 − 15 = −12"},
			{"/dh asfixia 13", nil, "−2"},
		} {
			rep := b.rollSome(lang, c.text, false, c.dice...)
			got := text(rep)
			if hyphen.MatchString(got) {
				t.Errorf("%s %s: an ASCII minus in %q", lang, c.text, got)
			}
			if lang == "es" && !strings.Contains(got, c.want) {
				t.Errorf("es %s: %q lacks %q", c.text, got, c.want)
			}
		}
	}
}

// Greek replies of every system, sub-command and common error show no
// Latin-script word but dice, names and the seed's terms.
func TestGreekRepliesHaveNoForeignWords(t *testing.T) {
	r := fullBot(t)
	allowCommandNames(r)
	ctx := context.Background()
	chat := core.ChatRef{Platform: "console", ID: "el-replies"}
	n := uint64(0)
	say := func(text string) string {
		t.Helper()
		n++
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: core.User{ID: "u1", Name: "Ana"}, Text: text, FromGM: true}, dice.Seeded(n))
		if !ok {
			t.Fatalf("%q not answered", text)
		}
		return reply.PlainText(rep)
	}
	say("/lang el")
	say("/pj δημιουργία Ελένη dh")
	say("/pj όρισε όπλο μακρύ-σπαθί")
	say("/pj όρισε πανοπλία θώρακας")
	for _, cmd := range []string{
		"/zaria 4+2 dc15", "/zaria 4+2 μέτριο ;", "/zaria 2+0 dc20", "/zaria npc 6 dc12", "/zaria 5+3 εναντίον 4+4 ;", "/zaria 99", "/zaria 4+2 dc",
		"/daegon 7 d3 ;", "/daegon 12 εναντίον 7 ;", "/daegon 6", "/daegon 6 δυσκλη", "/daegon 7 d",
		"/rq 45 κανονικό ;", "/rq 45 -30", "/rq 60 εναντίον 45 ;", "/rq c14 -10", "/rq 999",
		"/kh 6 +2s +1i dc17 ;", "/kh 6 2s 1i 17", "/kh 6 dc", "/kh 99",
		"/dh επίθεση μακρύ-σπαθί εναντίον θώρακας ;", "/dh επίθεση κοπανιστήρι εναντίον θώρακας d4 +1", "/dh επίθεση 2d8 επ17 εναντίον δερμάτινη-πανοπλία",
		"/dh επίθεση", "/dh σπάσε διάτρηση2", "/dh σπάσε", "/dh χρήση d8 ;", "/dh χρήση", "/dh χρήση όπλο", "/dh χρήση επίδεσμοι-μάχης", "/dh χρήση υφασμάτινη-πανοπλία",
		"/dh επισκευή θώρακας 2", "/dh επισκευή θώρακας 2 μαγική", "/dh επισκευή", "/dh διάτρηση 17", "/dh ίππευση ;", "/dh ασφυξία 13", "/dh ασφυξία 3", "/dh πέταγμα",
		"/ajustes", "/ajustes zaria", "/ajustes zaria ψηλά", "/ajustes πρόθεμα d",
		// The file systems (filesys.go): checks, ladders, errors.
		"/coc 65 μπόνους 1", "/coc 65 ποινή 2 δύσκολο", "/coc", "/coc 165", "/coc βελτίωση",
		"/v5 7 πείνα 2 δυσκ 3", "/v5 7 πείνα 9", "/wfrp 45 μάχη", "/wfrp", "/pbta +2", "/pbta 9",
		"/fate +3 εναντίον 2", "/fate +2", "/fate +2 εναντίον καλό", "/sw d8 +1", "/sw δ6 κομπάρσος εναντίον 6", "/sw δ5",
	} {
		if bad := latinWords(say(cmd)); len(bad) > 0 {
			t.Errorf("Greek reply to %s shows Latin-script words %q: %s", cmd, bad, say(cmd))
		}
	}
}

// The command names a language's help lines start with: Spanish pages teach
// the Spanish names (but /roll, whose line is also the Telegram menu's
// "roll"), Greek and English pages the English ones (Telegram takes
// only Latin names; on Matrix the Greek aliases work too). A line may still
// mention another name in parentheses ("also /historial"), as the Telegram
// menu lists the commands by their first name.
var foreignFirst = map[string][]string{
	"es": {"/odds", "/history", "/export", "/import", "/settings", "/help", "/lang", "/gmroll", "/secret", "/char"},
	"en": {"/tirar", "/probabilidad", "/historial", "/exportar", "/importar", "/ajustes", "/ayuda", "/idioma", "/secreto", "/personaje"},
	"el": {"/tirar", "/probabilidad", "/historial", "/exportar", "/importar", "/ajustes", "/ayuda", "/idioma", "/secreto", "/personaje"},
}

func TestHelpLinesStartWithTheirOwnCommands(t *testing.T) {
	r := fullBot(t)
	for lang, names := range foreignFirst {
		for name, page := range helpPages(t, r, lang) {
			for _, line := range strings.Split(page, "\n") {
				if strings.HasPrefix(line, "/") && strings.Contains(line, "  (") {
					continue // the title lists every alias
				}
				for _, part := range strings.Split(line, " · ") {
					for _, n := range names {
						if part == n || strings.HasPrefix(part, n+" ") {
							t.Errorf("%s %s teaches %s: %s", lang, name, n, line)
						}
					}
				}
			}
		}
		// Greek pages never show the Spanish command names, not even in
		// parentheses.
		if lang == "el" {
			for name, page := range helpPages(t, r, lang) {
				for _, line := range strings.Split(page, "\n") {
					if strings.HasPrefix(line, "/") && strings.Contains(line, "  (") {
						continue // the title lists every alias
					}
					for _, n := range []string{"/ajustes", "/historial", "/exportar", "/importar"} {
						if strings.Contains(line, n) {
							t.Errorf("el %s shows %s: %s", name, n, line)
						}
					}
				}
			}
		}
	}
	// A line never names its own command as an alias of itself
	// ("/tirar … (también /tirar y /r)"); the list's /roll line is also the
	// Telegram menu's description of /roll, so it names /tirar.
	for lang := range foreignFirst {
		for _, line := range strings.Split(helpPages(t, r, lang)["/help"], "\n") {
			cmd, _, _ := strings.Cut(line, " ")
			if _, rest, ok := strings.Cut(line, " — "); ok && strings.HasPrefix(cmd, "/") && regexp.MustCompile(regexp.QuoteMeta(cmd)+`\b`).MatchString(rest) {
				t.Errorf("%s /help names %s as an alias of itself: %s", lang, cmd, line)
			}
		}
	}
}

// Spanish replies teach the Spanish sub-command of /pj ("poner"; "set" is
// still accepted), and the Greek replies the English names of the Latin
// commands instead of the Spanish ones.
func TestRepliesTeachTheirOwnSubcommands(t *testing.T) {
	r := fullBot(t)
	ctx := context.Background()
	say := func(chat, text string) string {
		t.Helper()
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: core.ChatRef{Platform: "console", ID: chat}, From: core.User{ID: "u1", Name: "Ana"}, Text: text, FromGM: true}, dice.Seeded(1))
		if !ok {
			t.Fatalf("%q not answered", text)
		}
		return reply.PlainText(rep)
	}
	say("es", "/idioma es")
	for _, c := range []struct{ text, want string }{
		{"/pj crear Drake", "/pj poner fuerza 4"},
		{"/pj poner fuerza", "/pj poner NOMBRE VALOR"},
		{"/pj", "/pj poner fuerza 4"},
		{"/pj set fuerza 3", "fuerza = 3"},
		{"/pj poner destreza 2", "destreza = 2"},
	} {
		if got := say("es", c.text); !strings.Contains(got, c.want) {
			t.Errorf("es %s: %q lacks %q", c.text, got, c.want)
		}
	}
	say("el", "/lang el")
	for _, c := range []struct{ text, want string }{
		{"/history 0", "/history"},
		{"/import {}", "/export"},
		{"/settings nada", "/settings"},
	} {
		got := say("el", c.text)
		if !strings.Contains(got, c.want) {
			t.Errorf("el %s: %q lacks %q", c.text, got, c.want)
		}
		for _, bad := range []string{"/historial", "/exportar", "/importar", "/ajustes"} {
			if strings.Contains(got, bad) {
				t.Errorf("el %s shows %s: %q", c.text, bad, got)
			}
		}
	}
}

// A saved house rule is confirmed with its word and its description, without
// the value repeated inside nested parentheses ("d4 (d4 (archers…))").
func TestSettingConfirmationsReadOnce(t *testing.T) {
	r := fullBot(t)
	ctx := context.Background()
	for _, lang := range core.Langs() {
		chat := core.ChatRef{Platform: "console", ID: "confirm-" + lang}
		for _, text := range []string{"/lang " + lang, "/ajustes dh_dado d4", "/ajustes dh_dado d6", "/ajustes zaria exacta"} {
			rep, _ := r.DispatchWith(ctx, core.Message{Chat: chat, From: core.User{ID: "u1", Name: "Ana"}, Text: text, FromGM: true}, dice.Seeded(1))
			got := reply.PlainText(rep)
			if rep.Error || strings.Contains(got, "))") || strings.Contains(got, "d4 (d4") || strings.Contains(got, "d6 (d6") {
				t.Errorf("%s %s: %q", lang, text, got)
			}
		}
	}
}

// A suggestion for a mistyped name is given in the chat's language, even
// when the typing was nearest another language's name ("foo" is nearest the
// Spanish "hoz"); and the Greek attack line names the defence without an
// ungrammatical "έναντι θώρακας".
func TestSuggestionsInTheChatsLanguage(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "el", text: "/dh επίθεση foo εναντίον θώρακας", errHas: "Μήπως εννοείς «δρεπάνι»;"},
		{lang: "en", text: "/dh attack espada-largo vs breastplate", errHas: "Did you mean “longsword”?"},
		{lang: "es", text: "/dh ataque longswrd contra coraza", errHas: "¿Quisiste decir «espada larga»?"},
		{lang: "el", text: "/dh επίθεση μακρύ-σπαθί", dice: []int{5}, has: []string{"Μακρύ σπαθί 1d8 (διάτρηση 1) · άμυνα: χωρίς πανοπλία"}, bold: "ζημιά 5", total: ip(5)},
	})
}

// One name for one thing in each language: the Greek catalogs call the game
// master GM, as the Ζαριά seed does (not "αφηγητής" in some replies and
// "GM" in others), and the Spanish ones write the plural "másteres".
func TestOneWordPerThing(t *testing.T) {
	for lang, bad := range map[string][]string{"el": {"αφηγητ"}, "es": {"másters"}} {
		for k, text := range catalogTexts(t, lang) {
			for _, b := range bad {
				if strings.Contains(strings.ToLower(text), b) {
					t.Errorf("%s %q says %q: %s", lang, k, b, text)
				}
			}
		}
	}
}

// Greek names may be typed as a sentence declines them: "εναντίον θώρακα"
// (genitive) and "επισκευή θώρακα" find the armour "θώρακας", "εναντίον
// δερμάτινης πανοπλίας" the "δερμάτινη πανοπλία"; the Greek help writes
// them so.
func TestGreekNamesDeclined(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "el", text: "/dh επίθεση μακρύ-σπαθί εναντίον θώρακα", dice: []int{3, 2, 2, 3}, has: []string{"· άμυνα: θώρακας 3 ΖΘ d6"}, bold: "ζημιά 1", total: ip(1)},
		{lang: "el", text: "/dh επίθεση κοπανιστήρι εναντίον φολιδωτό θώρακα", dice: []int{8, 1, 1, 1}, has: []string{"· άμυνα: φολιδωτός θώρακας 3 ΖΘ d6"}, bold: "ζημιά 5", total: ip(5)},
		{lang: "el", text: "/dh επίθεση 1d8 εναντίον δερμάτινης πανοπλίας", dice: []int{8, 1}, has: []string{"· άμυνα: δερμάτινη πανοπλία 1 ΖΘ d6"}, bold: "ζημιά 7", total: ip(7)},
		{lang: "el", text: "/dh επισκευή θώρακα 2", dice: []int{2, 4}, has: []string{"Θώρακας: 3 ΖΘ, 2 σπασμένα"}, outcome: "failure", total: ip(2)},
	})
	r := fullBot(t)
	if page := helpPages(t, r, "el")["/help dh"]; strings.Contains(page, "εναντίον θώρακας") || !strings.Contains(page, "εναντίον θώρακα") {
		t.Errorf("Greek /help dh:\n%s", page)
	}
}
