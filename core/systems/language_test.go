package systems_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"zaria/core"
	"zaria/core/character"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

// greekLatinOK are the Latin-script words a Greek reply may show: terms the
// seeds themselves write in Latin script (the Ζαριά seed's EPIC WIN, stat,
// skill, DC, GM, NPC…; the Dungeon Hack seed's DB), proper names (games,
// platforms, the example characters), language codes, and the names a user
// types as they are in every language (setting names; command names, which
// Telegram takes only in Latin script, are skipped before this list).
var greekLatinOK = map[string]bool{
	// seed 002 (Ζαριά), in Latin script in the Greek text
	"epic": true, "win": true, "fail": true, "major": true, "stat": true, "stats": true, "skill": true, "skills": true,
	"progression": true, "point": true, "courage": true, "dc": true, "gm": true, "npc": true, "npcs": true,
	// seed 001 (Dungeon Hack): Dados de Blindaje
	"db": true,
	// proper names
	"zaria": true, "daegon": true, "dungeon": true, "hack": true, "kingdom": true, "hearts": true, "heartless": true, "nobody": true,
	"rq": true, "telegram": true, "matrix": true, "fudge": true, "json": true, "utf": true, "bot": true, "api": true,
	"utc": true, "kb": true,
	"drake": true, "draco": true, "lira": true, "ana": true, "enyra": true,
	// language codes and setting names typed as they are
	"es": true, "el": true, "en": true,
	"zaria_pnj_epico": true, "dh_blindaje": true, "dh_pen": true, "dh_dado": true, "daegon_00": true,
	// dice notation letters (kh3, kl, dh, dl, ro, f<=1) and the p of a p-value
	"kh": true, "kl": true, "dh": true, "dl": true, "ro": true, "r": true, "f": true, "p": true, "d": true, "s": true, "i": true, "c": true, "x": true,
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
	for _, k := range keys {
		if bad := latinWords(texts[k]); len(bad) > 0 {
			t.Errorf("el %q shows Latin-script words %q: %s", k, bad, texts[k])
		}
	}
}

// fullBot is every command as cmd/zaria wires them, on SQLite.
func fullBot(t *testing.T) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := character.New(st, character.Options{Validators: systems.SheetValidators()})
	r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: st, GMs: st, Sheets: svc, Aliases: svc,
		Observers: []command.Observer{svc}, Unlimited: []string{"console"}})
	roll.Register(r)
	systems.Register(r)
	character.Register(r, svc)
	general.Register(r, "test")
	return r
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
		"longsword", "breastplate", "flail", "hide", "weapon", "armour"},
	"en": {"ataque", "rompe", "uso", "repara", "montura", "asfixia", "crear", "renombrar", "borrar", "lista", "usar", "poner", "añadir", "quitar",
		"espada-larga", "coraza", "pieles", "mayal", "arma", "armadura", "fuerza", "atletismo", "fisico", "media", "dificil", "facil"},
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
				for _, w := range word.FindAllString(line, -1) {
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
	} {
		if bad := latinWords(say(cmd)); len(bad) > 0 {
			t.Errorf("Greek reply to %s shows Latin-script words %q: %s", cmd, bad, say(cmd))
		}
	}
}
