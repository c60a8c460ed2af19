package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/systems"
)

// helpExamples returns every example /help shows in lang: the code spans
// of the command list, of /help <command> for each command it lists, and of
// /start, in the order shown.
func helpExamples(t *testing.T, r *command.Router, lang string) []string {
	t.Helper()
	ctx := context.Background()
	chat := core.ChatRef{Platform: "cli", ID: "help-" + lang}
	say := func(text string) *reply.Reply {
		t.Helper()
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: core.User{ID: "u0", Name: "Eva"}, Text: text}, dice.Seeded(1))
		if !ok || rep.Error {
			t.Fatalf("%s: %q failed: %s", lang, text, reply.PlainText(rep))
		}
		return rep
	}
	say("/lang " + lang)
	var out []string
	code := func(rep *reply.Reply) {
		for _, l := range rep.Lines {
			for _, s := range l {
				if s.Style == reply.Code {
					out = append(out, s.Text)
				}
			}
		}
	}
	code(say("/help"))
	for _, c := range r.Commands() {
		if !c.Hidden {
			code(say("/help " + c.Name))
		}
	}
	code(say("/start"))
	return out
}

var (
	createsDrake  = regexp.MustCompile(`(?i)(crear|create|δημιουργία)\s+Drake`)
	removesGM     = regexp.MustCompile(`(?i)^/gm\s+(quitar|remove|αφαίρεση)\s+@ana`)
	startsSession = regexp.MustCompile(`(?i)^/(sesion|session)\s+(empezar|start|έναρξη)`)
	undoes        = regexp.MustCompile(`(?i)(deshacer|undo|αναίρεση)`)
	importsFile   = regexp.MustCompile(`(?i)\s(importar|import|εισαγωγή)$`)
)

// Every example /help shows, in every language, works: each one runs on a
// fresh chat through the real router and database, as a GM whose active
// character Lira has the values the examples name, and is not an error.
func TestHelpExamplesRun(t *testing.T) {
	ctx := context.Background()
	r := testRouter(t, "es", nil)
	n := 0
	for _, lang := range core.Langs() {
		examples := helpExamples(t, r, lang)
		if len(examples) < 40 {
			t.Errorf("%s: only %d examples found", lang, len(examples))
		}
		for _, ex := range examples {
			n++
			chat := core.ChatRef{Platform: "cli", ID: fmt.Sprintf("ex-%d", n)}
			send := func(text string) *reply.Reply {
				t.Helper()
				rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: core.User{ID: "u1", Name: "Ana"}, Text: text, FromGM: true}, dice.Seeded(uint64(n)))
				if !ok {
					t.Errorf("%s: %q is not answered", lang, text)
					return &reply.Reply{Error: true}
				}
				return rep
			}
			given := func(text string) {
				t.Helper()
				if rep := send(text); rep.Error {
					t.Fatalf("setup %q: %s", text, reply.PlainText(rep))
				}
			}
			given("/lang " + lang)
			given("/pj crear Lira")
			for _, kv := range []string{
				"fuerza 4", "atletismo 2", "δύναμη 4", "αθλητισμός 2", "strength 4", "athletics 2",
				"fisico 6", "σωματικό 6", "physical 6", "lucha 2s,1i", "πάλη 2s,1i", "fighting 2s,1i",
				"arma espada-larga", "armadura coraza", "db 3", "db-rotos 2", "sigilo 7", "stealth 7", "κρυψίνοια 7",
				"pv 12/12", "estado envenenado, poisoned, δηλητηριασμένος",
				"buscar-libros 60", "library 60", "βιβλιοθήκη 60", "coc_marcas buscar-libros", // Call of Cthulhu's development phase
				"con 12", // an RQ characteristic, read by any of its names: /rq con, /rq c ΣΥΝ x5
				// The file systems' sheet values: /wfrp esquivar, /pbta dureza, /sw agilidad.
				"esquivar 40", "dureza 1", "σκληρότητα 1", "hard 1", "agilidad d8",
			} {
				given("/pj set " + kv)
			}
			for _, name := range []string{"ataque", "επίθεση", "attack", "xtypima"} {
				given("/alias " + name + " /dh ataque espada-larga vs {1}")
			}
			if removesGM.MatchString(ex) {
				given("/gm add @ana")
			}
			if c, ok := r.Lookup(strings.Fields(strings.TrimLeft(ex, "/!"))[0]); ok && c.Name == "pad" {
				given("/pad add d20") // a pad to show, arrange or put on the keyboard
			}
			if c, ok := r.Lookup(strings.Fields(strings.TrimLeft(ex, "/!"))[0]); ok && c.Name != "roll" && c.Name != "help" {
				// The random tables the examples roll, rename and delete.
				for _, tb := range []string{
					"Encuentros: 1-2 Lobos; 3-5 Bandidos ([[1d4]] de ellos); 6 Un dragón", "Botín: Nada; [[2d6]] monedas", "Clima: Sol; Lluvia",
					"Encounters: 1-2 Wolves; 3-6 Bandits", "Loot: Nothing; Coins", "Weather: Sun; Rain",
					"Συναντήσεις: 1-2 Λύκοι; 3-6 Ληστές", "Λάφυρα: Τίποτα; Νομίσματα", "Καιρός: Ήλιος; Βροχή",
				} {
					given("/table create " + tb)
				}
				for _, d := range []string{"Botín", "Loot", "Λάφυρα"} {
					given("/deck create " + d + ": Espada; Escudo")
				}
			}
			if c, ok := r.Lookup(strings.Fields(strings.TrimLeft(ex, "/!"))[0]); ok && c.Name == "session" && !startsSession.MatchString(ex) {
				given("/session start Test") // a session to end or to send
			}
			if c, ok := r.Lookup(strings.Fields(strings.TrimLeft(ex, "/!"))[0]); ok && c.Name == "init" {
				// A fight to pass, change or end: Lira and an orc in each language.
				given("/init 15")
				given("/init añadir Orco 12 pv 15")
				given("/init add Orc 11 hp 15")
				given("/init προσθήκη Ορκ 10 ζωή 15")
				if undoes.MatchString(ex) {
					given("/init fin")
				}
			}
			if c, ok := r.Lookup(strings.Fields(strings.TrimLeft(ex, "/!"))[0]); ok && c.Name == "pj" && undoes.MatchString(ex) {
				given("/pj crear Zed")
				given("/pj borrar Zed") // a character to bring back
			}
			if strings.Contains(ex, "Drake") && !createsDrake.MatchString(ex) {
				given("/pj crear Drake")
				given("/pj poner pv 20/20")
				given("/pj usar Lira")
			}
			text := ex
			if c, ok := r.Lookup(strings.Fields(strings.TrimLeft(ex, "/!"))[0]); ok && c.Name == "sistema" {
				if f := strings.Fields(ex); len(f) > 1 && !slices.Contains([]string{"copiar", "copy", "αντιγραφή", "importar", "import", "εισαγωγή"}, f[1]) {
					// A fork to edit, undo or leave: of the system the
					// example names, else of RQ.
					if len(f) > 2 && slices.Contains(systems.Forkable(), f[2]) {
						given("/sistema copiar " + f[2])
					} else {
						given("/sistema copiar rq")
					}
				}
				if importsFile.MatchString(ex) {
					text = ex + "\n" + rollOver // a system file attached
				}
			}
			if c, ok := r.Lookup(strings.Fields(strings.TrimLeft(ex, "/!"))[0]); ok && c.Name == "importar" {
				exp := send("/exportar")
				if exp.File == nil {
					t.Fatalf("/exportar gave no file: %s", reply.PlainText(exp))
				}
				text = ex + " " + string(exp.File.Data)
			}
			if rep := send(text); rep.Error {
				t.Errorf("%s: the help example %q fails: %s", lang, ex, reply.PlainText(rep))
			}
		}
	}
	t.Logf("%d examples run", n)
}
