package main

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

// A GM sends a broken system file to a chat in Spanish, Greek or English
// (/sistema importar with the file): the reply says, in the chat's
// language, the line and what goes there instead (a value of the wrong
// type, a field the format lacks, a tab in the indentation, a key the
// file misspells, a band never reached, a formula's misspelt name, an
// example that does not hold, a part or a house rule without its names;
// no "line 0" for what has no line), with the format's own keys as
// typed and no English left in a Spanish or Greek reply; the file is not
// kept (its command is no command of the chat).
func TestForkImportRefusalsLocalized(t *testing.T) {
	file := readOutsider(t, "ironsworn.yaml")
	broken := func(from, to string) string {
		if !strings.Contains(file, from) {
			t.Fatalf("ironsworn.yaml lacks %q", from)
		}
		return strings.Replace(file, from, to, 1)
	}
	d := newForkDesk(t)
	d.want(d.send("el", true, "/lang el"), false)
	d.want(d.send("en", true, "/lang en"), false)
	cases := []struct {
		file       string
		es, el, en string
	}{
		{broken("    default: 0\n", "    default: \"0\"\n"),
			`Archivo rechazado: Línea 13: aquí va un número entero, no "0"`,
			`Το αρχείο απορρίφθηκε: Γραμμή 13: εδώ μπαίνει ακέραιος αριθμός, όχι "0"`,
			`File refused: Line 13: a whole number goes here, not "0"`},
		{broken("    max: 15\n", "    max: 15\n    maximum: 20\n"),
			`Línea 13: «maximum» no es un campo del formato en este sitio: revisa cómo está escrito y su sangría`,
			`Γραμμή 13: το «maximum» δεν είναι πεδίο του μορφότυπου σε αυτό το σημείο· έλεγξε την ορθογραφία και την εσοχή του`,
			`Line 13: "maximum" is no field of the format here: check its spelling and its indentation`},
		{broken("    max: 15\n", "\tmax: 15\n"),
			"Línea 12: un tabulador en la sangría: usa solo espacios",
			"Γραμμή 12: στηλοθέτης στην εσοχή: κάνε εσοχή μόνο με κενά",
			"Line 12: a tab in the indentation: indent with spaces only"},
		{broken("system: ironsworn\n", "system: Iron Sworn\n"),
			"Línea 5: system: una clave de a-z, 0-9 y _; has escrito «Iron Sworn»",
			"Γραμμή 5: system: θέλει κλειδί μόνο με a-z, 0-9 και _· έγραψες «Iron Sworn»",
			`Line 5: system: a key of a-z, 0-9 and _, got "Iron Sworn"`},
		{broken(`        - {at_least: "1", outcome: weak}`, `        - {at_least: "3", outcome: weak}`),
			"action: band weak: no se alcanza nunca; las bands van del límite más alto hacia abajo",
			"action: στις bands, η weak δεν βγαίνει ποτέ· οι bands πάνε από το ψηλότερο όριο προς τα κάτω",
			"action: band weak can never be reached: bands go from the highest bound down"},
		{broken(`is: "min(a.sum + mod, 10)"`, `is: "min(a.sum + mood, 10)"`),
			"Línea 32: action: score: en el carácter 17: no hay nada que se llame «mood»",
			"Γραμμή 32: action: score: στον χαρακτήρα 17: δεν υπάρχει τίποτα με το όνομα «mood»",
			`Line 32: action: score: at 17: unknown name "mood"`},
		{broken(`dice: [4, 6, 2], expect: {outcome: weak,`, `dice: [4, 6, 2], expect: {outcome: strong,`),
			"El ejemplo «tie is no beat» no se cumple (línea 71): outcome «weak»; se esperaba «strong»",
			"Το παράδειγμα «tie is no beat» δεν ισχύει (γραμμή 71): outcome «weak»· αναμενόταν «strong»",
			`Example «tie is no beat» does not hold (line 71): outcome "weak", expected "strong"`},
		{broken("command: iron\n", "command: iron\nsheet: {keys: []}\n"),
			"Archivo rechazado: sheet: keys, al menos una",
			"Το αρχείο απορρίφθηκε: sheet: keys, τουλάχιστον ένα",
			"File refused: sheet: keys, at least one"},
		// A piece of the file named by a label: a part, a house rule.
		{broken("names: {es: añadidos, el: προσθήκες, en: adds}}", "names: {es: añadidos, el: προσθήκες}}"),
			"Línea 9: mod: parte adds: hacen falta nombres en es, el y en",
			"Γραμμή 9: mod: μέρος adds: χρειάζονται ονόματα σε es, el και en",
			"Line 9: mod: part adds: names in es, el and en"},
		{broken("command: iron\n", "command: iron\nhouse_rules:\n  - {key: pace, names: {es: ritmo, el: ρυθμός}, default: a, choices: [{key: a, names: {es: a, el: a, en: a}}, {key: b, names: {es: b, el: b, en: b}}]}\n"),
			"Línea 9: regla pace de house_rules: hacen falta nombres en es, el y en",
			"Γραμμή 9: κανόνας pace των house_rules: χρειάζονται ονόματα σε es, el και en",
			"Line 9: house rule pace: names in es, el and en"},
	}
	english := []string{"goes here", "no field", "indent with", "a key of", "never be reached", "got ", "unknown", " at ", "expected", "house rule", "part ", "names in"}
	for _, c := range cases {
		for _, l := range []struct{ chat, cmd, want string }{
			{"es", "/sistema importar\n", c.es},
			{"el", "/σύστημα εισαγωγή\n", c.el},
			{"en", "/system import\n", c.en},
		} {
			rep := d.send(l.chat, true, l.cmd+c.file)
			d.want(rep, true, l.want)
			if l.chat == "en" {
				continue
			}
			for _, w := range english {
				if got := reply.PlainText(rep); strings.Contains(got, w) {
					t.Errorf("%s: the reply %q has English (%q)", l.chat, got, w)
				}
			}
		}
	}
	d.want(d.send("es", false, "/iron 3"), true)
}
