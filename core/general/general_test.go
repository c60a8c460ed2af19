package general_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

func newRouter(t *testing.T) (*command.Router, *memory.Store) {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	r := command.New(command.Config{Translator: cat, Settings: st, DefaultLang: "es", Unlimited: []string{"test"}})
	general.Register(r, general.Options{Version: "1.2.3"})
	systems.Register(r)
	return r, st
}

type chat struct {
	t  *testing.T
	r  *command.Router
	gm bool
	id string
}

func (c chat) say(text string) *reply.Reply {
	c.t.Helper()
	rep, ok := c.r.DispatchWith(context.Background(), core.Message{
		Chat: core.ChatRef{Platform: "test", ID: c.id}, From: core.User{ID: "u1", Name: "Ana"},
		Text: text, FromGM: c.gm,
	}, dice.Seeded(1))
	if !ok {
		c.t.Fatalf("%q was not answered", text)
	}
	return rep
}

func (c chat) text(text string) string { c.t.Helper(); return reply.PlainText(c.say(text)) }

func TestHelpTeachesByExample(t *testing.T) {
	r, _ := newRouter(t)
	c := chat{t: t, r: r, id: "1"}
	list := c.say("/help")
	if got := reply.PlainText(list); !strings.Contains(got, "/zaria 4+2 cd15") || !strings.Contains(got, "/ayuda") {
		t.Errorf("/help lacks examples:\n%s", got)
	}
	// Examples are code spans, so a phone user can tap to copy them.
	if !strings.Contains(reply.HTML(list, "\n"), "<code>/zaria 4+2 cd15</code>") {
		t.Errorf("examples are not code:\n%s", reply.HTML(list, "\n"))
	}
	got := c.text("/ayuda ζαριά")
	if !strings.Contains(got, "/zaria") || !strings.Contains(got, "pnj 6 cd12") || !strings.Contains(got, "!ζαριά") {
		t.Errorf("/ayuda ζαριά:\n%s", got)
	}
	if rep := c.say("/help nada"); !rep.Error || !strings.Contains(reply.PlainText(rep), "«nada»") {
		t.Errorf("/help nada: %q", reply.PlainText(rep))
	}
}

func TestLang(t *testing.T) {
	r, st := newRouter(t)
	c := chat{t: t, r: r, id: "1"}
	for _, in := range []string{"/lang el", "!γλώσσα ελληνικά", "/idioma griego", "/lang GREEK"} {
		if got := c.text(in); !strings.Contains(got, "ελληνικά") {
			t.Errorf("%s → %q", in, got)
		}
		s, _ := st.Settings(context.Background(), core.ChatRef{Platform: "test", ID: "1"})
		if s.Lang != "el" {
			t.Errorf("%s stored %q", in, s.Lang)
		}
	}
	if got := c.text("/lang"); !strings.Contains(got, "ελληνικά") {
		t.Errorf("/lang → %q", got)
	}
	rep := c.say("/lang klingon")
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "/lang es") {
		t.Errorf("bad language: %q", reply.PlainText(rep))
	}
	s, _ := st.Settings(context.Background(), core.ChatRef{Platform: "test", ID: "1"})
	if s.Lang != "el" {
		t.Errorf("a bad /lang changed the language to %q", s.Lang)
	}
}

func TestSettings(t *testing.T) {
	r, st := newRouter(t)
	player := chat{t: t, r: r, id: "1"}
	gm := chat{t: t, r: r, id: "1", gm: true}
	list := player.text("/ajustes")
	if !strings.Contains(list, "baja") || !strings.Contains(list, "/ajustes zaria baja|exacta|alta") {
		t.Errorf("/ajustes does not list the house rules with how to change them:\n%s", list)
	}
	if rep := player.say("/ajustes zaria media_alta"); !rep.Error || !strings.Contains(reply.PlainText(rep), "máster") {
		t.Errorf("a player changed a house rule: %q", reply.PlainText(rep))
	}
	// The stored code is still accepted as typed (older help showed it).
	if got := gm.text("/ajustes ZARIA Media_Alta"); !strings.Contains(got, "zaria = alta (media redondeada hacia arriba)") {
		t.Errorf("GM set → %q", got)
	}
	s, _ := st.Settings(context.Background(), core.ChatRef{Platform: "test", ID: "1"})
	if s.Options["zaria"] != "media_alta" {
		t.Errorf("stored %v", s.Options)
	}
	rep := gm.say("/ajustes zaria altisima")
	if !rep.Error || !strings.Contains(reply.PlainText(rep), "baja | exacta | alta") {
		t.Errorf("bad value: %q", reply.PlainText(rep))
	}
	if rep := gm.say("/ajustes zarai media_alta"); !rep.Error || !strings.Contains(reply.PlainText(rep), "«zaria»") {
		t.Errorf("typo in key: %q", reply.PlainText(rep))
	}
	// The prefix is shown in use, never as "prefix = ..".
	if got := gm.text("/ajustes prefijo ."); !strings.Contains(got, "prefix = . (p. ej. .tirar 2d6).") {
		t.Errorf("prefix: %q", got)
	}
	// The new prefix works, and / still does.
	if got := gm.text(".ayuda"); !strings.Contains(got, "lo que sé hacer") {
		t.Errorf(".ayuda after setting the prefix: %q", got)
	}
	if rep := gm.say("/ajustes prefijo ab/c"); !rep.Error {
		t.Errorf("bad prefix accepted")
	}
	if got := player.text("/ajustes idioma en"); !strings.Contains(got, "English") {
		t.Errorf("language via /ajustes: %q", got)
	}
}

func TestGMRollIsSecret(t *testing.T) {
	r, _ := newRouter(t)
	c := chat{t: t, r: r, id: "1"}
	rep := c.say("/secreto zaria 4+2 dc15")
	if rep.Error || rep.Secret == nil {
		t.Fatalf("no secret part: %+v", rep)
	}
	public := reply.PlainText(rep)
	if !strings.Contains(public, "Ana ha tirado en secreto") || strings.Contains(public, "CD 15") {
		t.Errorf("public part %q", public)
	}
	secret := reply.PlainText(rep.Secret)
	if !strings.Contains(secret, "Tirada secreta de Ana") || !strings.Contains(secret, "15") || rep.Secret.Check == nil {
		t.Errorf("secret part %q", secret)
	}
	if len(rep.Buttons) > 0 && rep.Command != "/gmroll zaria 4+2 dc15" {
		t.Errorf("again would run %q", rep.Command)
	}
	if rep := c.say("/gmroll"); !rep.Error || !strings.Contains(reply.PlainText(rep), "/secreto 1d20+5") {
		t.Errorf("empty gmroll: %q", reply.PlainText(rep))
	}
	if rep := c.say("/gmroll gmroll zaria 4+2 dc15"); !rep.Error {
		t.Errorf("nested gmroll accepted: %q", reply.PlainText(rep))
	}
	// A user error inside stays visible to the roller, not secret.
	if rep := c.say("/gmroll zaria 4+2 dc99"); !rep.Error || rep.Secret != nil {
		t.Errorf("error inside gmroll: %+v", rep)
	}
}

// A secret roll runs rolls only: a command that changes the chat is
// refused before it runs, so it cannot change anything unseen.
func TestGMRollRunsOnlyRolls(t *testing.T) {
	r, _ := newRouter(t)
	c := chat{t: t, r: r, id: "1", gm: true}
	before := c.text("/ajustes")
	for _, text := range []string{"/secreto /lang en", "/secreto lang en", "/gmroll /ajustes idioma en", "/secreto /ajustes zaria clasico"} {
		rep := c.say(text)
		if got := reply.PlainText(rep); !rep.Error || rep.Secret != nil || !strings.Contains(got, "no es una tirada") || !strings.Contains(got, "/secreto 1d20+5") {
			t.Errorf("%s: %q, want a refusal saying it is not a roll", text, got)
		}
	}
	if got := c.text("/start"); !strings.Contains(got, "¡Hola, Ana!") {
		t.Errorf("the chat's language changed under a secret roll: %q", got)
	}
	if after := c.text("/ajustes"); after != before {
		t.Errorf("settings changed under a secret roll:\n%s\nnow:\n%s", before, after)
	}
	for _, text := range []string{"/secreto zaria 4+2 dc15", "/secreto /zaria 4+2 dc15", "/secreto daegon 6 d2"} {
		if rep := c.say(text); rep.Error || rep.Secret == nil {
			t.Errorf("%s: %q, want a secret roll", text, reply.PlainText(rep))
		}
	}
}

func TestStartAndVersion(t *testing.T) {
	r, _ := newRouter(t)
	c := chat{t: t, r: r, id: "1"}
	if got := c.text("/start"); !strings.Contains(got, "¡Hola, Ana!") || !strings.Contains(got, "/tirar 4d6kh3+2") {
		t.Errorf("/start: %q", got)
	}
	if got := c.text("/version"); got != "zaria 1.2.3" {
		t.Errorf("/version: %q", got)
	}
}

func TestGMRollNamesTheNamedGMs(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), Unlimited: []string{"test"},
		NamedGMs: func(_ context.Context, chat core.ChatRef) ([]string, error) {
			if chat.ID == "1" {
				return []string{"u7", "u8"}, nil
			}
			return nil, nil
		}})
	general.Register(r, general.Options{Version: "test"})
	systems.Register(r)
	rep := chat{t: t, r: r, id: "1"}.say("/gmroll zaria 4+2 dc15")
	if strings.Join(rep.SecretTo, ",") != "u7,u8" {
		t.Errorf("SecretTo = %v", rep.SecretTo)
	}
	if rep := (chat{t: t, r: r, id: "2"}).say("/gmroll zaria 4+2 dc15"); len(rep.SecretTo) != 0 {
		t.Errorf("another chat's GMs: %v", rep.SecretTo)
	}
}

// Option values are words of the chat's language; any language's word is
// accepted, and what is stored is the same code whichever was typed.
// Issue 23: each setting is named in the chat's language (English and
// Spanish chats showed the stored keys "zaria_pnj_epico", "dh_blindaje"),
// and every language's name, and the stored key, is read in every chat.
func TestSettingsNamesInChatLanguage(t *testing.T) {
	r, st := newRouter(t)
	gm := chat{t: t, r: r, id: "8", gm: true}
	gm.text("/lang en")
	list := gm.text("/settings")
	for _, want := range []string{"/settings zaria_npc_epic no|yes", "/settings dh_armour sum|highest", "/settings dh_penetration round|up",
		"/settings dh_die d6|d4"} {
		if !strings.Contains(list, want) {
			t.Errorf("English /settings lacks %q:\n%s", want, list)
		}
	}
	for _, bad := range []string{"pnj", "epico", "blindaje", "dh_pen ", "dado", "iniciativa"} {
		if strings.Contains(list, bad) {
			t.Errorf("English /settings shows %q:\n%s", bad, list)
		}
	}
	gm.text("/idioma es")
	list = gm.text("/ajustes")
	for _, want := range []string{"/ajustes zaria_pnj_épico no|sí", "/ajustes dh_blindaje suma|mayor", "/ajustes dh_penetración redondeo|techo",
		"/ajustes dh_dado d6|d4"} {
		if !strings.Contains(list, want) {
			t.Errorf("Spanish /ajustes lacks %q:\n%s", want, list)
		}
	}
	gm.text("/lang el")
	list = gm.text("/settings")
	for _, want := range []string{"dh_διάτρηση στρογγυλό|πάνω", "dh_ζάρι d6|d4"} {
		if !strings.Contains(list, want) {
			t.Errorf("Greek /settings lacks %q:\n%s", want, list)
		}
	}
	for _, bad := range []string{"iniciativa", "dh_pen ", "dado"} {
		if strings.Contains(list, bad) {
			t.Errorf("Greek /settings shows %q:\n%s", bad, list)
		}
	}
	// Any language's name, or the stored key, in any chat.
	for _, c := range []struct{ lang, cmd, key, code, reply string }{
		{"es", "/ajustes dh_armour mayor", "dh_blindaje", "mayor", "dh_blindaje = mayor"},
		{"es", "/ajustes dh_penetracion techo", "dh_pen", "techo", "dh_penetración = techo"},
		{"es", "/ajustes dh_pen redondeo", "dh_pen", "redondeo", "dh_penetración = redondeo"},
		{"en", "/settings dh_blindaje highest", "dh_blindaje", "mayor", "dh_armour = highest"},
		{"el", "/settings dh_die d4", "dh_dado", "d4", "dh_ζάρι = d4"},
	} {
		gm.text("/lang " + c.lang)
		if got := gm.text(c.cmd); !strings.Contains(got, c.reply) {
			t.Errorf("%s %s → %q, want %q", c.lang, c.cmd, got, c.reply)
		}
		s, err := st.Settings(context.Background(), core.ChatRef{Platform: "test", ID: "8"})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Options[c.key]; got != c.code {
			t.Errorf("%s %s stored %q, want %q", c.lang, c.cmd, got, c.code)
		}
	}
}

func TestSettingsValuesInEachLanguage(t *testing.T) {
	r, st := newRouter(t)
	ref := core.ChatRef{Platform: "test", ID: "7"}
	gm := chat{t: t, r: r, id: "7", gm: true}
	stored := func(key string) string {
		t.Helper()
		s, err := st.Settings(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		return s.Options[key]
	}
	for _, c := range []struct{ lang, cmd, key, code, reply string }{
		{"es", "/ajustes zaria alta", "zaria", "media_alta", "zaria = alta"},
		{"el", "!ρυθμίσεις zaria κάτω", "zaria", "media_baja", "ζαριά = κάτω"},
		{"en", "/settings zaria exact", "zaria", "media_exacta", "zaria = exact"},
		{"en", "/settings zaria_pnj_epico yes", "zaria_pnj_epico", "si", "zaria_npc_epic = yes"},
		{"el", "/ajustes zaria_pnj_epico όχι", "zaria_pnj_epico", "no", "ζαριά_επικά_npc = όχι"},
		{"es", "/ajustes zaria_pnj_epico si", "zaria_pnj_epico", "si", "zaria_pnj_épico = sí"},
		{"el", "/ajustes dh_blindaje μέγιστο", "dh_blindaje", "mayor", "dh_θωράκιση = μέγιστο"},
		{"en", "/settings dh_blindaje sum", "dh_blindaje", "suma", "dh_armour = sum"},
		{"en", "/settings dh_pen up", "dh_pen", "techo", "dh_penetration = up"},
		{"el", "/ajustes daegon_00 μηδέν", "daegon_00", "cero", "daegon_00 = μηδέν"},
		{"en", "/settings daegon_00 hundred", "daegon_00", "cien", "daegon_00 = hundred"},
		// Another language's word works too: a Greek word in a Spanish chat.
		{"es", "/ajustes zaria πάνω", "zaria", "media_alta", "zaria = alta"},
		{"el", "/ajustes dh_pen techo", "dh_pen", "techo", "dh_διάτρηση = πάνω"},
	} {
		gm.text("/idioma " + c.lang)
		if got := gm.text(c.cmd); !strings.Contains(got, c.reply) {
			t.Errorf("%s %s → %q, want %q", c.lang, c.cmd, got, c.reply)
		}
		if got := stored(c.key); got != c.code {
			t.Errorf("%s %s stored %q, want %q", c.lang, c.cmd, got, c.code)
		}
	}
	// The list shows the chat's words, with how to type them.
	gm.text("/lang en")
	list := gm.text("/settings")
	for _, want := range []string{"/settings zaria low|exact|high", "/settings zaria_npc_epic no|yes", "/settings daegon_00 hundred|zero", "/settings language es|el|en"} {
		if !strings.Contains(list, want) {
			t.Errorf("English /settings lacks %q:\n%s", want, list)
		}
	}
	for _, bad := range []string{"media_", "suma", "redondeo", "cien", "ajustes"} {
		if strings.Contains(list, bad) {
			t.Errorf("English /settings shows %q:\n%s", bad, list)
		}
	}
	gm.text("/lang el")
	list = gm.text("/ajustes")
	for _, want := range []string{"/settings ζαριά κάτω|ακριβής|πάνω", "/settings ζαριά_επικά_npc όχι|ναι", "/settings dh_θωράκιση άθροισμα|μέγιστο", "/settings daegon_00 εκατό|μηδέν", "/settings γλώσσα es|el|en"} {
		if !strings.Contains(list, want) {
			t.Errorf("Greek /settings lacks %q:\n%s", want, list)
		}
	}
	// Issue 23: Greek names, typed without accents, set the same settings.
	for cmd, want := range map[string]string{"!ρυθμίσεις ζαρια πανω": "ζαριά = πάνω", "!ρυθμισεις dh_θωρακιση μεγιστο": "dh_θωράκιση = μέγιστο", "/ajustes ΖΑΡΙΑ_ΕΠΙΚΑ_NPC ναι": "ζαριά_επικά_npc = ναι"} {
		if got := gm.text(cmd); !strings.Contains(got, want) {
			t.Errorf("%s → %q, want %q", cmd, got, want)
		}
	}
	if got := stored("zaria"); got != "media_alta" {
		t.Errorf("!ρυθμίσεις ζαρια πανω stored %q", got)
	}
	rep := gm.say("/ajustes zaria ψηλά")
	if got := reply.PlainText(rep); !rep.Error || !strings.Contains(got, "κάτω | ακριβής | πάνω") {
		t.Errorf("Greek bad value: %q", got)
	}
}

// A prefix is made of symbols: a letter, digit or space would turn ordinary
// lines ("dime algo") into commands.
func TestPrefixMustNotBeALetter(t *testing.T) {
	r, st := newRouter(t)
	gm := chat{t: t, r: r, id: "8", gm: true}
	for _, c := range []struct{ lang, cmd, want string }{
		{"es", "/ajustes prefijo d", "«d» no sirve de prefijo: usa de 1 a 3 símbolos que no sean letras, números ni espacios"},
		{"el", "/ajustes prefix δ", "Το «δ» δεν γίνεται πρόθεμα: χρησιμοποίησε 1 έως 3 σύμβολα που δεν είναι γράμματα, αριθμοί ή κενά"},
		{"en", "/settings prefix 7", "«7» can't be a prefix: use 1 to 3 symbols that are not letters, digits or spaces"},
		{"en", "/settings prefix !a", "«!a» can't be a prefix"},
		{"es", "/ajustes prefijo ....", "«....» no sirve de prefijo"},
		{"es", "/ajustes prefijo ¡", ""},
	} {
		gm.text("/idioma " + c.lang)
		rep := gm.say(c.cmd)
		got := reply.PlainText(rep)
		if c.want == "" {
			if rep.Error {
				t.Errorf("%s refused: %q", c.cmd, got)
			}
			continue
		}
		if !rep.Error || !strings.Contains(got, c.want) {
			t.Errorf("%s → %q (error=%v), want %q", c.cmd, got, rep.Error, c.want)
		}
	}
	s, _ := st.Settings(context.Background(), core.ChatRef{Platform: "test", ID: "8"})
	if s.Options["prefix"] != "¡" {
		t.Errorf("stored prefix %q, want ¡", s.Options["prefix"])
	}
	// "dime algo" is not a command with the symbol prefix.
	if rep, ok := r.DispatchWith(context.Background(), core.Message{Chat: core.ChatRef{Platform: "test", ID: "8"}, From: core.User{ID: "u1"}, Text: "dime algo"}, dice.Seeded(1)); ok {
		t.Errorf("an ordinary line was answered: %q", reply.PlainText(rep))
	}
}

// The words of each language (issue 12, item 6): the Greek /start suggests
// the Greek sub-command, the Spanish menu text of /roll names /tirar, and no
// menu text advertises a "!" alias, which a Telegram bot in privacy mode
// never receives in a group; on Telegram /help leaves those aliases out.
func TestStartAndMenuInEachLanguage(t *testing.T) {
	r, _ := newRouter(t)
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	el := chat{t: t, r: r, id: "el"}
	el.text("/lang el")
	start := el.text("/start")
	if !strings.Contains(start, "/pj δημιουργία Drake") || strings.Contains(start, "crear") || strings.Contains(start, "es|el|en") {
		t.Errorf("Greek /start:\n%s", start)
	}
	es := cat.Translate("es", "cmdhelp.roll.short", nil)
	if !strings.Contains(es, "/tirar") || strings.Contains(es, "/roll,") || strings.Contains(es, "ρίξε") {
		t.Errorf("Spanish menu text of /roll: %q", es)
	}
	for _, c := range r.Commands() {
		for _, l := range core.Langs() {
			if s := cat.Translate(l, "cmdhelp."+c.Name+".short", nil); strings.Contains(s, "!") && strings.Contains(s, "(") {
				if _, menu, ok := strings.Cut(s, " — "); ok && strings.Contains(menu, "!") {
					t.Errorf("%s menu text of /%s advertises a ! alias: %q", l, c.Name, s)
				}
			}
		}
	}
	tg := func(text string) string {
		t.Helper()
		rep, ok := r.DispatchWith(context.Background(), core.Message{Chat: core.ChatRef{Platform: "telegram", ID: "-100"}, From: core.User{ID: "u1"}, Text: text}, dice.Seeded(1))
		if !ok {
			t.Fatalf("%q not answered", text)
		}
		return reply.PlainText(rep)
	}
	if got := tg("/help zaria"); strings.Contains(got, "!ζ") || !strings.Contains(got, "/z") {
		t.Errorf("Telegram /help zaria shows aliases Telegram never delivers:\n%s", got)
	}
	c := chat{t: t, r: r, id: "mx"}
	if got := c.text("/help zaria"); !strings.Contains(got, "!ζαριά") {
		t.Errorf("console /help zaria lacks the ! aliases:\n%s", got)
	}
}

// /help says that an edited message is not read again (issue 12, item 10).
func TestHelpSaysEditsAreIgnored(t *testing.T) {
	r, _ := newRouter(t)
	for lang, want := range map[string]string{
		"es": "una edición nunca repite la tirada",
		"el": "η διόρθωση δεν ξαναρίχνει ποτέ",
		"en": "an edit never re-rolls",
	} {
		c := chat{t: t, r: r, id: "edit-" + lang}
		c.text("/lang " + lang)
		for _, page := range []string{"/help", "/help help"} {
			if got := c.text(page); !strings.Contains(got, want) {
				t.Errorf("%s %s lacks %q:\n%s", lang, page, want, got)
			}
		}
	}
}

// A setting given two values is refused, saying which word is too many and
// what to type; nothing changes (it took the first one silently).
func TestSettingsRefuseASecondValue(t *testing.T) {
	r, st := newRouter(t)
	gm := chat{t: t, r: r, id: "1", gm: true}
	ref := core.ChatRef{Platform: "test", ID: "1"}
	for _, c := range []struct{ text, want string }{
		{"/ajustes zaria alta baja", "Un ajuste cambia con un solo valor; sobra «baja». Escribe /ajustes zaria alta"},
		{"/ajustes idioma en es", "sobra «es». Escribe /ajustes idioma en"},
		{"/ajustes prefijo ! ?", "sobra «?». Escribe /ajustes prefijo !"},
		{"/ajustes dh_dado d4 d6 d8", "sobra «d6 d8»"},
		// A first word that is no value: the setting's own message.
		{"/ajustes zaria pnj epico", "«pnj» no es un valor de zaria. Elige uno de: baja | exacta | alta."},
		{"/ajustes idioma fr en", "No hablo «fr»"},
	} {
		rep := gm.say(c.text)
		if got := reply.PlainText(rep); !rep.Error || !strings.Contains(got, c.want) {
			t.Errorf("%s → %q (error=%v), want %q", c.text, got, rep.Error, c.want)
		}
	}
	s, _ := st.Settings(context.Background(), ref)
	if len(s.Options) != 0 || s.Lang != "" {
		t.Errorf("a refused setting changed the chat: %+v", s)
	}
	gm.text("/lang en")
	if got := gm.text("/settings zaria high low"); !strings.Contains(got, "«low» is one too many. Type /settings zaria high") {
		t.Errorf("en: %q", got)
	}
	gm.text("/lang el")
	if got := gm.text("/settings zaria πάνω κάτω"); !strings.Contains(got, "περισσεύει το «κάτω»") {
		t.Errorf("el: %q", got)
	}
	// One value is still taken, an invisible character pasted in a
	// prefix too.
	if got := gm.text("/ajustes zaria alta"); strings.Contains(got, "⚠️") {
		t.Errorf("one value refused: %q", got)
	}
	if got := gm.text("/ajustes prefijo \u2060!"); strings.Contains(got, "⚠️") || !strings.Contains(got, "prefix = ! (") {
		t.Errorf("prefix with a word joiner: %q", got)
	}
}
