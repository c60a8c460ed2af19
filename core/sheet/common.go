package sheet

// commonSynonyms are the stats and skills a table writes in any of its
// languages: a check typed in another language than the sheet's
// ("/zaria strength+athletics dc15" on a sheet with fuerza and
// atletismo) finds the sheet's value, as "weapon" finds "arma". Only
// names whose meaning is the same in every game: a name not here is read
// as stored. Each group is one value: es, en, el and common short forms.
func commonSynonyms() [][]string {
	return [][]string{
		{"fuerza", "strength", "str", "δύναμη"},
		{"destreza", "dexterity", "dex", "επιδεξιότητα"},
		{"agilidad", "agility", "ευκινησία"},
		{"constitución", "constitution", "κράση"},
		{"resistencia", "endurance", "αντοχή"},
		{"inteligencia", "intelligence", "int", "ευφυΐα", "νοημοσύνη"},
		{"sabiduría", "wisdom", "wis", "σοφία"},
		{"carisma", "charisma", "cha", "χάρισμα"},
		{"percepción", "perception", "αντίληψη"},
		{"voluntad", "willpower", "will", "θέληση"},
		{"atletismo", "athletics", "αθλητισμός"},
		{"sigilo", "stealth", "κρυψίνοια"},
		{"acrobacias", "acrobatics", "ακροβατικά"},
		{"lucha", "fighting", "πάλη"},
		{"esquivar", "dodge", "αποφυγή"},
		{"espadas", "swords", "σπαθιά"},
		{"medicina", "medicine", "ιατρική"},
		{"supervivencia", "survival", "επιβίωση"},
		{"persuasión", "persuasion", "πειθώ"},
		{"engaño", "deception", "εξαπάτηση"},
		{"intimidación", "intimidation", "εκφοβισμός"},
		{"investigación", "investigation", "έρευνα"},
		{"trepar", "climb", "αναρρίχηση"},
		{"nadar", "swim", "κολύμπι"},
		{"físico", "physical", "σωματικό"},
	}
}
