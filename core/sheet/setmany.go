package sheet

import (
	"context"
	"slices"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Several values in one message: "/pj poner fuerza 4 atletismo 2 sigilo 3".
//
// The rule: after the first name, a value that is a number ("4", "-1"),
// a current/maximum ("12/12"), a die ("d8") or a quoted text ("«espada
// larga»") followed by more words makes the message a list of NAME VALUE
// pairs, where every value must be one of those. Anything else keeps the
// old meaning: the first word is the name and the rest, spaces and all,
// its text ("/pj poner notas le debe dinero a Drake"). All the values are
// set or none (one transaction); one reply lists them.
//
// The ambiguous cases are refused, never guessed:
//   - an odd count ("fuerza 4 atletismo 2 sigilo"): character.set_many_odd
//     names the name without a value;
//   - a text value without quotes in a list ("fuerza 4 arma espada"):
//     character.set_many_value says to quote it, or that a text starting
//     with a number ("notas 4 goblins muertos") is written in quotes;
//   - a name given twice: character.set_many_twice.

// simpleValue reports whether w (quoted or not) can be a value of a list.
func simpleValue(w string, quoted bool) bool {
	if quoted {
		return true
	}
	if _, _, _, ok := parseMax(w); ok {
		return true
	}
	return looksLikeDice(w)
}

// isMulti reports whether words (after the sub-command and any @who) are
// a list of NAME VALUE pairs by the rule above.
func isMulti(words []string, quoted []bool) bool {
	return len(words) >= 3 && simpleValue(words[1], quoted[1])
}

// A value the game systems check against a table (a Dungeon Hack
// "arma", "armadura") is read as the table knows it, in one word or
// several, with or without hyphens: "/pj poner arma espada larga
// armadura cota-de-mallas pv 14/14" is three values. Its words are the
// longest run the table takes; they are stored hyphenated when the table
// takes that too ("espada-larga"), as the commands write it.

// checked returns the check registered for the value name (or one of its
// synonyms).
func (s *Service) checked(name string) (func(*command.Request, string) error, bool) {
	k := fold.Key(name)
	f, ok := s.valid[k]
	for _, syn := range s.synonyms(k) {
		if ok {
			break
		}
		f, ok = s.valid[syn]
	}
	return f, ok
}

// tableText is the text of a checked value written as words: the
// hyphenated form when its check takes it, else the words as written.
func tableText(req *command.Request, f func(*command.Request, string) error, words []string) string {
	text := strings.Join(words, " ")
	if len(words) > 1 {
		if h := strings.Join(words, "-"); f(req, h) == nil {
			return h
		}
	}
	return text
}

// tablePairs reads words as NAME VALUE pairs where a checked value may
// be several words (see above). It gives the pairs as words and quoted
// flags for pjSetMany, each value one word marked as quoted (it is
// checked again there); ok is false unless the words are two pairs or
// more. A table value no run of words names gives the table's "did you
// mean" (err) when a run of them comes close to a name.
func (s *Service) tablePairs(req *command.Request, words []string, quoted []bool) (pw []string, pq []bool, ok bool, err error) {
	for i := 0; i < len(words); {
		if quoted[i] || i+1 >= len(words) {
			return nil, nil, false, nil
		}
		f, checked := s.checked(words[i])
		end := i + 2
		if checked && !quoted[i+1] {
			end = 0
			var near error
			for j := len(words); j > i+1 && end == 0; j-- {
				if slices.Contains(quoted[i+1:j], true) {
					continue
				}
				switch e := f(req, strings.Join(words[i+1:j], " ")); {
				case e == nil:
					end = j
				case near == nil:
					if ue, ok := command.AsUserError(e); ok && strings.HasSuffix(ue.Key, "_suggest") {
						near = e
					}
				}
			}
			if end == 0 {
				return nil, nil, false, near
			}
		} else if !simpleValue(words[i+1], quoted[i+1]) {
			return nil, nil, false, nil
		}
		text := words[i+1]
		if end > i+2 {
			text = tableText(req, f, words[i+1:end])
		}
		pw = append(pw, words[i], text)
		pq = append(pq, false, true)
		i = end
	}
	return pw, pq, len(pw) >= 4, nil
}

func (s *Service) pjSetMany(ctx context.Context, req *command.Request, who string, words []string, quoted []bool) (*reply.Reply, error) {
	if len(words)%2 == 1 {
		return nil, command.Errorf("character.set_many_odd", "name", fold.Cut(words[len(words)-1], 30))
	}
	if len(words)/2 > s.lim.ValuesPerSheet {
		return nil, command.Errorf("character.values_quota", "count", s.lim.ValuesPerSheet, "name", fold.Cut(who, 30))
	}
	seen := map[string]string{}
	for i := 0; i < len(words); i += 2 {
		name, text := words[i], words[i+1]
		if quoted[i] {
			return nil, command.Errorf("character.name_bad_value", "name", name)
		}
		if !simpleValue(text, quoted[i+1]) {
			return nil, command.Errorf("character.set_many_value", "name", fold.Cut(name, 30), "value", fold.Cut(text, 30))
		}
		if err := CheckValueName(name, s.lim.NameLen); err != nil {
			return nil, err
		}
		if err := CheckNewName(name, "value"); err != nil {
			return nil, err
		}
		if strings.Contains(name, "=") {
			return nil, command.Errorf("character.name_bad_value", "name", name)
		}
		k := fold.Key(name)
		for _, kk := range append([]string{k}, s.synonyms(k)...) {
			if prev, dup := seen[kk]; dup {
				return nil, command.Errorf("character.set_many_twice", "name", fold.Cut(prev, 30))
			}
		}
		seen[k] = name
		if err := CheckValueText(text, s.lim.ValueLen); err != nil {
			return nil, err
		}
		if err := s.Validate(req, name, text); err != nil {
			return nil, err
		}
	}
	var set []Value
	c, err := s.edit(ctx, req.Msg.Chat, req.Msg.From.ID, req.IsGM, who, func(c *Character) error {
		set = set[:0]
		for i := 0; i < len(words); i += 2 {
			if err := s.setValue(c, words[i], words[i+1]); err != nil {
				return err
			}
			set = append(set, c.Values[s.valueIndex(*c, words[i])])
		}
		if req.Msg.From.ID == c.Owner && req.Msg.From.Name != "" {
			c.OwnerName = fold.UserName(req.Msg.From.Name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	parts := make([]string, len(set))
	changed := map[string]string{}
	for i, v := range set {
		parts[i] = s.keyName(req, v.Name) + " = " + v.Text // in the chat's language, as /pj shows it
		changed[v.Name] = v.Text
	}
	rep := reply.Text(req.TP("character.values_set", "character", c.Name, "count", len(set), "values", strings.Join(parts, " · ")))
	rep.Data = map[string]any{"changed": map[string]any{"character": c.Name, "values": changed}}
	return rep, nil
}
