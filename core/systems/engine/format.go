package engine

// The YAML of a system file (docs/systems-format.md). Unknown fields are
// refused. Every name a user reads has es, el and en forms.

// File is one system.
type File struct {
	System  string   `yaml:"system"`  // its key: "zaria"
	Title   Names    `yaml:"title"`   // as the help names it
	Command string   `yaml:"command"` // the chat command, [a-z0-9_]
	Aliases []string `yaml:"aliases,omitempty"`
	// Spellings are other words naming the system where a system is
	// named, not commands: /odds runequest 45, /pj crear Lyra runequest
	// (names.go).
	Spellings []string `yaml:"spellings,omitempty"`
	// Order is the system's place in the bot's lists of systems, /help's
	// first (names.go); 0 lists it after those that have one.
	Order      int         `yaml:"order,omitempty"`
	HouseRules []HouseRule `yaml:"house_rules,omitempty"`
	Numbers    []Number    `yaml:"numbers,omitempty"`
	Inputs     []Input     `yaml:"inputs"`
	Tables     []Table     `yaml:"tables,omitempty"`
	Outcomes   []Outcome   `yaml:"outcomes"`
	Checks     []Check     `yaml:"checks"`
	Sheet      *Sheet      `yaml:"sheet,omitempty"` // sheet.go
	// Example is a check's words as the command takes them, in each
	// language, for an error's "for example" (show.go).
	Example *Names `yaml:"example,omitempty"`
	// OddsExample is a check's words for /odds's "for example", when
	// they differ from Example's: without the target, so that /odds shows
	// the chance at each level (names.go).
	OddsExample *Names       `yaml:"odds_example,omitempty"`
	Show        *Show        `yaml:"show,omitempty"`        // show.go
	Development *Development `yaml:"development,omitempty"` // show.go
	Vectors     []Vector     `yaml:"vectors"`
	// Errors names the catalog message of a parse error of no input:
	// "word" (a word that fits nothing), "vs" (twice), "opposed" (a "vs"
	// where no check is opposed), "missing" (no words at all).
	Errors map[string]string `yaml:"errors,omitempty"`
}

// Show is how a reply writes a roll (show.go); a file without it, or a
// part of it left out, gets the plain look: each die's face, a " · "
// where the size of the dice changes, the total and the level as
// numbers.
type Show struct {
	// Faces is a face's text, for every die of the file: Fate's 1 as
	// "−", Call of Cthulhu's 10 as "0".
	Faces map[int]string `yaml:"faces,omitempty"`
	// Split are the separators between dice, the first that applies; a
	// file that lists none gets {sides: true, text: " · "}.
	Split []Split    `yaml:"split,omitempty"`
	Total *ShowTotal `yaml:"total,omitempty"`
	Level *ShowLevel `yaml:"level,omitempty"`
	// JSON are the lets (a whole number) and further results (the
	// outcome's name, in the chat's language) --json gives by name.
	JSON []string `yaml:"json,omitempty"`
	// Reply lays out a check's reply line by line (layout.go); none:
	// the plain look.
	Reply []ReplyLine `yaml:"reply,omitempty"`
	// Margin is the let --json gives as the margin (Ζαριά's total − DC).
	Margin string `yaml:"margin,omitempty"`
	// JSONOutcome renames a roll's outcome for --json where its
	// condition holds (Daegon's "impossible", a failure).
	JSONOutcome []JSONOutcome `yaml:"json_outcome,omitempty"`
}

// JSONOutcome is the word --json gives as the outcome of the checks'
// rolls where if holds.
type JSONOutcome struct {
	Checks  []string `yaml:"checks,omitempty"`
	If      string   `yaml:"if"`
	Outcome string   `yaml:"outcome,omitempty"`
	// Winner instead names the winner --json gives (active or passive):
	// RQ's opposed roll, which only the offensive side rolls.
	Winner string `yaml:"winner,omitempty"`
}

// Split is a separator written between two dice: before the first die
// of a pool, or where the size of the dice changes.
type Split struct {
	Before string `yaml:"before,omitempty"` // a pool's key
	Sides  bool   `yaml:"sides,omitempty"`
	Text   string `yaml:"text"`
}

// ShowTotal is how a check's total is written: with its sign, and in a
// text of each language where {n} is the number ("{n} éxitos").
type ShowTotal struct {
	Signed bool   `yaml:"signed,omitempty"`
	Text   *Names `yaml:"text,omitempty"`
}

// ShowLevel is how a level of success is written, always signed: in a
// text of each language where {n} is the number ("NE {n}"); a level of
// 0 is left out when hide_zero.
type ShowLevel struct {
	Text     *Names `yaml:"text,omitempty"`
	HideZero bool   `yaml:"hide_zero,omitempty"`
}

// Development is a development phase kept on the sheet (Call of
// Cthulhu's, show.go): a success of check with a sheet value for the
// input on marks it, the marks listed in the sheet value named keep;
// the command followed by one of words runs the phase: for each marked
// value a die of roll faces, over the value or at least from, adds a
// die of gain faces to it; then the marks are cleared.
type Development struct {
	Check    string   `yaml:"check"`
	On       string   `yaml:"on"`
	Keep     string   `yaml:"keep"`
	Words    Names    `yaml:"words"`              // the phase's word, as the help and the replies write it
	Keywords []string `yaml:"keywords,omitempty"` // other words for it
	Example  Names    `yaml:"example"`            // a sheet value's name, for "a success marks it: /coc buscar-libros"
	Roll     int      `yaml:"roll"`
	From     int      `yaml:"from"`
	Gain     int      `yaml:"gain"`
}

// Number is a constant of the rules a fork may change (RQ's fumble
// range): in expressions its key reads its value.
type Number struct {
	Key   string `yaml:"key"`
	Names Names  `yaml:"names"`
	Value int    `yaml:"value"`
	Min   int    `yaml:"min"`
	Max   int    `yaml:"max"`
}

// Names is a text in the three languages.
type Names struct {
	ES string `yaml:"es"`
	EL string `yaml:"el"`
	EN string `yaml:"en"`
}

// In returns the text in lang ("es", "el", "en"), English by default.
func (n Names) In(lang string) string {
	switch lang {
	case "es":
		return n.ES
	case "el":
		return n.EL
	}
	return n.EN
}

// HouseRule is a named alternative a chat chooses (/ajustes): in
// expressions its name is compared with a choice's, zaria == 'media_alta'.
type HouseRule struct {
	Key     string   `yaml:"key"`
	Names   Names    `yaml:"names"`
	Choices []Choice `yaml:"choices"`
	Default string   `yaml:"default"`

	fn evalFn
}

func (h *HouseRule) index(choice string) int {
	for i, c := range h.Choices {
		if c.Key == choice {
			return i
		}
	}
	return -1
}

// Choice is one alternative of a house rule.
type Choice struct {
	Key   string `yaml:"key"`
	Names Names  `yaml:"names"`
}

// Input is a typed parameter of a check, read from the chat's words.
//
//	number  an integer in [min, max]; prefixes ("dc") may precede it,
//	        suffixes ("s" of "2s") follow it;
//	        named values ("medio" = 15) may stand for it
//	flag    present (1) when one of its keywords is typed, else 0
//	terms   "a+b" of numbers or sheet keys, one per part, each in its
//	        part's range; one term alone is the whole sum, in [min, max]
type Input struct {
	Key      string `yaml:"key"`
	Type     string `yaml:"type"`
	Names    Names  `yaml:"names"`
	Min      *int   `yaml:"min,omitempty"`
	Max      *int   `yaml:"max,omitempty"`
	Default  *int   `yaml:"default,omitempty"`
	Optional bool   `yaml:"optional,omitempty"`
	// Suggest is where a form starts an optional input (the page's dice
	// screen: Ζαριά's DC at «media», 15); the chat's words still leave
	// it out.
	Suggest  *int         `yaml:"suggest,omitempty"`
	Prefixes []string     `yaml:"prefixes,omitempty"`
	Suffixes []string     `yaml:"suffixes,omitempty"` // a tagged count: "2s", "+1i"
	Keywords []string     `yaml:"keywords,omitempty"`
	Named    []NamedValue `yaml:"named,omitempty"`
	Parts    []Part       `yaml:"parts,omitempty"`
	// Sheet lets a word that is no number and names nothing be a sheet
	// key for a number input (Daegon's "/daegon sigilo d3"): read like a
	// terms input's key, its value in [min, max].
	Sheet bool `yaml:"sheet,omitempty"`
	// Errors names the catalog message of each kind of parse error of
	// this input (ParseError.Kind, and "name": a word that names none of
	// its values), in place of the generic one: {range: daegon.error.d}.
	Errors map[string]string `yaml:"errors,omitempty"`
	// Passive makes the input the words after "vs" give, in a check
	// that is not opposed (RQ's defensive value: /rq 60 vs 45); that
	// side may name its own @Name.
	Passive bool `yaml:"passive,omitempty"`
	// Chat, when set, is the range of the number or sheet value the
	// chat's words give, narrower than the input's (RQ's skill: 0–300
	// typed, while a characteristic × multiplier and the vectors reach
	// beyond).
	Chat *Range `yaml:"chat,omitempty"`
	// Times lets the input be a characteristic times a multiplier.
	Times *Times `yaml:"times,omitempty"`

	// The vocabulary of a sub-command's words (docs/systems-format.md#word-vocabulary):
	//
	// Count makes the input the sides of a dice word, its prefix glued
	// to them ("d8"), with the count input before it ("2d8"; 1 when none
	// is typed); each number in its own input's range.
	Count string `yaml:"count,omitempty"`
	// Again is what the input's word typed again does: "add" adds it up
	// ("+2 +3"), "last" keeps the last one, "twice" (the default) is a
	// "twice" error, save for a tagged count outside a glued check,
	// which adds up.
	Again string `yaml:"again,omitempty"`
	// Signed makes a number alone go to this input only when typed with
	// its sign ("+2", "-1").
	Signed bool `yaml:"signed,omitempty"`
	// Relative words add to the input's value instead of setting it
	// ("pen+2", "pen-1"): Side.Adds.
	Relative *Relative `yaml:"relative,omitempty"`
	// Lookup words add a table's number to the input's value, looked up
	// by the number glued to their prefix ("absd8").
	Lookup *Lookup `yaml:"lookup,omitempty"`
	// Faces are the only numbers the input takes (a die's size: 4, 6,
	// 8, 10, 12); any other is a "faces" error.
	Faces []int `yaml:"faces,omitempty"`
	// Rest makes the words of the side that no other input takes,
	// together, name one of the input's values ("espada larga"), a
	// Greek name also declined ("θώρακα"); with several such inputs, the
	// first one whose value they name; none named is a "name" error of
	// the first.
	Rest bool `yaml:"rest,omitempty"`
	// Gives are the inputs a named value sets from its row of a table
	// (a weapon's damage dice and penetration), each one the words do
	// not type.
	Gives *Gives `yaml:"gives,omitempty"`
}

// Relative are the prefixes whose number, glued, adds to an input's
// value (Up: "pen+") or takes from it (Down: "pen-"), each word's number
// at most Max (nil: any number).
type Relative struct {
	Up   []string `yaml:"up,omitempty"`
	Down []string `yaml:"down,omitempty"`
	Max  *int     `yaml:"max,omitempty"`
}

// Lookup is a prefix whose glued number is looked up in a one-row table
// (the row it names), the cell added to the input's value.
type Lookup struct {
	Prefixes []string `yaml:"prefixes"`
	Table    string   `yaml:"table"`
}

// Gives sets inputs from a named value's row of a two-way table: each
// input (key) takes the row's column (value).
type Gives struct {
	Table  string         `yaml:"table"`
	Inputs map[string]int `yaml:"inputs"`
}

// Range is a range of integers.
type Range struct {
	Min int `yaml:"min"`
	Max int `yaml:"max"`
}

// Times is a number input typed as a characteristic times a multiplier
// (RQ's "c14", "c14x5", "c:fue", "c ΣΥΝ", "con x5"): one of prefixes
// and the characteristic's number, or ":" and a sheet key (or the sheet
// key as the next word), or a sheet key of the file's sheet of that kind
// by any of its names; then, glued or as the next word, one of signs and
// the multiplier, By when none is typed.
type Times struct {
	Prefixes []string `yaml:"prefixes"`
	Kind     string   `yaml:"kind,omitempty"`
	Signs    []string `yaml:"signs"`
	Min      int      `yaml:"min"` // the characteristic's range
	Max      int      `yaml:"max"`
	By       int      `yaml:"by"` // the multiplier when none is typed
	ByMin    int      `yaml:"by_min"`
	ByMax    int      `yaml:"by_max"`
	// Errors: "range" (the characteristic out of its range), "by" (the
	// multiplier out of its).
	Errors map[string]string `yaml:"errors,omitempty"`
}

// NamedValue is a word for a number input's value.
type NamedValue struct {
	Value    int      `yaml:"value"`
	Key      string   `yaml:"key"`
	Names    Names    `yaml:"names"`
	Keywords []string `yaml:"keywords,omitempty"`
}

// Part is one term of a terms input.
type Part struct {
	Key   string `yaml:"key"`
	Names Names  `yaml:"names"`
	Min   int    `yaml:"min"`
	Max   int    `yaml:"max"`
	// Errors names the message of a term out of this part's range
	// (range, below, above), as an input's errors do.
	Errors map[string]string `yaml:"errors,omitempty"`
}

// Table is a 1-D (one row) or 2-D lookup; "-" marks an impossible cell.
// In expressions: NAME(row) or NAME(row, column).
type Table struct {
	Key   string     `yaml:"key"`
	Rows  Axis       `yaml:"rows"`
	Cols  *Axis      `yaml:"columns,omitempty"`
	Cells [][]string `yaml:"cells"`
	// Bounds, when given, hold each cell that is not "-" to whole numbers
	// of a range: one per column of a 2-D table, one for a 1-D table's
	// cells. A fork's cell outside them is refused (Dungeon Hack's
	// weapon table feeds its command's damage dice).
	Bounds []Bound `yaml:"bounds,omitempty"`
}

// Bound is the range of a table column's cells.
type Bound struct {
	Min int `yaml:"min"`
	Max int `yaml:"max"`
}

// Axis is the range of a table's row or column numbers.
type Axis struct {
	From int `yaml:"from"`
	To   int `yaml:"to"`
}

// Outcome is one result a check may give.
type Outcome struct {
	Key     string `yaml:"key"`
	Success bool   `yaml:"success"`
	Names   Names  `yaml:"names"`
}

// Check is one kind of roll of the system. An opposed check's steps are
// one side's, run for the active side then the passive side, each able to
// name the other's inputs as opp.NAME; compare lists what decides, in
// order, the higher winning, and tie who wins when all are equal.
type Check struct {
	Key     string   `yaml:"key"`
	Names   Names    `yaml:"names"`
	Inputs  []string `yaml:"inputs"`
	Opposed *Opposed `yaml:"opposed,omitempty"`
	Steps   []Step   `yaml:"steps"`
	Total   string   `yaml:"total,omitempty"`
	Result  Verdict  `yaml:"result"`
	// Also are further results of the same roll, each named: the other
	// side's outcome when only one side rolls (RQ's defender), or the
	// roll's class before a follow-up roll changes it.
	Also []Also `yaml:"also,omitempty"`
	// Form, when set, is the page's form of the check instead of its
	// inputs: the words a player types, which the system's command turns
	// into the check's inputs (Dungeon Hack's attack: a weapon and an
	// armour, not the damage dice and DB they resolve to).
	Form *CheckForm `yaml:"form,omitempty"`
	// Sets write a value of the result on the sheet (sheet.go): Dungeon
	// Hack's usage die stepping down to d8, or to "agotado".
	Sets []Set `yaml:"sets,omitempty"`
	// Require are conditions the check's inputs meet together, checked
	// before anything is rolled (require.go): Kingdom Hearts' "s + i <=
	// 10".
	Require []Require `yaml:"require,omitempty"`
	// Word names the check as a sub-command, the first word after the
	// file's command, in each language (subcommand.go; default: its
	// names): Dungeon Hack's break, "/dh rompe". Keywords are other
	// words for it ("romper", "σπάσιμο").
	Word     *Names   `yaml:"word,omitempty"`
	Keywords []string `yaml:"keywords,omitempty"`
	// Errors names the catalog message of each kind of parse error of
	// the check's words (ParseCheck: a sub-command's, "/dh pen 17 18")
	// that no input names, before the file's own errors.
	Errors map[string]string `yaml:"errors,omitempty"`
	// Bare, when set, are the only inputs a number alone may give, in
	// order (Dungeon Hack's attack: the damage modifier "+2"); a number
	// that none takes is a word like any other.
	Bare []string `yaml:"bare,omitempty"`
	// Again is what an input typed again does in this check, over the
	// input's own again: Dungeon Hack's level, once in "/dh pen 17" but
	// the last one in an attack ("n5 n7").
	Again map[string]string `yaml:"again,omitempty"`
	// Alone is the input a number gives when it is the side's only word
	// (Dungeon Hack's "/dh rompe 2"), whatever Bare says.
	Alone string `yaml:"alone,omitempty"`
	// Glued makes each word one piece: a prefix's or suffix's number is
	// the digits glued to it ("pen2", never "pen 2"), and a number too
	// long to read is named by its whole word ("n99999…").
	Glued bool `yaml:"glued,omitempty"`
}

// CheckForm is a check's form on the page: its fields, in the order the
// command is written.
type CheckForm struct {
	Fields []FormWord `yaml:"fields"`
}

// FormWord is a field that writes one named value of a number input as
// its name in the chat's language, spaces as hyphens ("espada-larga",
// "μακρύ-σπαθί").
type FormWord struct {
	Input string `yaml:"input"`
	// Names label the field (default: the input's names).
	Names *Names `yaml:"names,omitempty"`
	// Before is a word written before the value ("ataque", "vs").
	Before *Names `yaml:"before,omitempty"`
	// Group sorts a long list: the named value's row of Table, in
	// Column, is the 1-based index of its group in Names.
	Group *FormGroup `yaml:"group,omitempty"`
}

// FormGroup names the groups of a form's list by a table's column.
type FormGroup struct {
	Table  string  `yaml:"table"`
	Column int     `yaml:"column"`
	Names  []Names `yaml:"names"`
}

// Also is a named further result of a check.
type Also struct {
	Key    string  `yaml:"key"`
	Result Verdict `yaml:"result"`
}

// Opposed is how an opposed check is decided.
type Opposed struct {
	Compare []string `yaml:"compare"`
	Tie     string   `yaml:"tie"` // active | passive
}

// Step is either a roll (a pool) or a let (a named value).
type Step struct {
	Roll  string `yaml:"roll,omitempty"`
	Dice  string `yaml:"dice,omitempty"`
	Faces int    `yaml:"faces,omitempty"`
	// FacesOf is the dice's faces from the inputs (Dungeon Hack's damage
	// die "1d8", its DB die): an expression that reads no dice, in place
	// of faces; such a pool does not explode (faces.go).
	FacesOf string   `yaml:"faces_of,omitempty"`
	Explode *Explode `yaml:"explode,omitempty"`

	Let   string `yaml:"let,omitempty"`
	Is    string `yaml:"is,omitempty"`
	Cases []Case `yaml:"cases,omitempty"`
}

// Explode makes a die showing one of On roll again and add, at most Times.
type Explode struct {
	On    []int `yaml:"on"`
	Times int   `yaml:"times"`
}

// Case is one alternative of a let: the first whose when holds.
type Case struct {
	When string `yaml:"when,omitempty"`
	Is   string `yaml:"is"`
}

// Verdict turns a roll into an outcome: the first override whose when
// holds, else the first band the value on reaches (at_least or above,
// in decreasing order; the last band has neither and takes the rest).
type Verdict struct {
	Overrides []Override `yaml:"overrides,omitempty"`
	On        string     `yaml:"on,omitempty"`
	Bands     []Band     `yaml:"bands,omitempty"`
	// Success, when set, decides the check's success instead of the
	// outcome's flag (success.go).
	Success string `yaml:"success,omitempty"`
}

// Override is an outcome forced by a condition (a dice pattern).
type Override struct {
	When    string `yaml:"when"`
	Outcome string `yaml:"outcome"`
	Level   string `yaml:"level,omitempty"`
}

// Band is one step of the ordered outcomes.
type Band struct {
	AtLeast *string `yaml:"at_least,omitempty"`
	Above   *string `yaml:"above,omitempty"`
	Outcome string  `yaml:"outcome"`
	Level   string  `yaml:"level,omitempty"`
}

// Vector is a worked example: inputs (and house rules) and dice, and what
// they must give; or, with chance, the exact probability of success.
type Vector struct {
	Name    string            `yaml:"name"`
	Check   string            `yaml:"check,omitempty"` // the first check by default
	Rules   map[string]string `yaml:"rules,omitempty"`
	Inputs  map[string]string `yaml:"inputs,omitempty"`
	Passive map[string]string `yaml:"passive,omitempty"` // an opposed check's passive side
	Dice    Dice              `yaml:"dice,omitempty"`
	Expect  Expect            `yaml:"expect"`
}

// Dice are a vector's dice in the order rolled. "dice: []" (a check that
// rolls none) is not "no dice" (a vector of chance): a file written back
// (a fork) keeps the empty list, leaving out only a nil one.
type Dice []int

// IsZero is true for nil only, for yaml's omitempty.
func (d Dice) IsZero() bool { return d == nil }

// Expect is what a vector must give.
type Expect struct {
	Outcome *string           `yaml:"outcome,omitempty"`
	Total   *string           `yaml:"total,omitempty"`
	Level   *int              `yaml:"level,omitempty"`
	Winner  string            `yaml:"winner,omitempty"`
	Values  map[string]string `yaml:"values,omitempty"`
	Chance  string            `yaml:"chance,omitempty"`
	Also    map[string]string `yaml:"also,omitempty"` // each further result's outcome
	// Odds are exact chances of single outcomes: "critical" of the
	// check's own, "glitch.critical_glitch" of a further result's ("" and
	// "glitch." the rolls with none).
	Odds map[string]string `yaml:"odds,omitempty"`
}
