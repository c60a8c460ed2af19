package web

import (
	"context"
	"strconv"
	"strings"
	"unicode"

	"zaria/core"
)

// The dice screen's checks are the forms the core lists (Deps.Forms):
// the page names no system. A check the page rolls is the form's key and
// a value per field; the server writes the chat command from the form,
// each value checked against its field, and runs it as every page write.

// Offers reports whether the tray rolls n dice of sides.
func (t Tray) Offers(n, sides int) bool {
	if n < 1 || n > t.MaxCount {
		return false
	}
	for _, d := range t.Dice {
		if d == sides {
			return true
		}
	}
	return false
}

// Takes reports whether n dice of sides may take advantage.
func (t Tray) Takes(n, sides int) bool { return n == t.AdvCount && sides == t.AdvSides }

// command writes the chat command of f with vals (a field's key → what
// the page chose). "" when a value is not one its field takes, or a key
// is not a field of f.
func (f Form) command(vals map[string]string) string {
	if !word(f.Command) || strings.ContainsAny(f.Command, "@/") || len(vals) > len(f.Fields) {
		return ""
	}
	words := []string{"/" + f.Command}
	used := 0
	for _, fd := range f.Fields {
		v, ok := vals[fd.Key]
		if ok {
			used++
		}
		w, ok := fd.word(strings.TrimSpace(v))
		if !ok {
			return ""
		}
		if w == "" {
			continue
		}
		if fd.Before != "" {
			if !word(fd.Before) {
				return ""
			}
			words = append(words, fd.Before)
		}
		words = append(words, w)
	}
	if used != len(vals) {
		return "" // a key that is no field
	}
	return strings.Join(words, " ")
}

// word is the command's word for v, "" for a value left out; false when
// v is not one the field takes.
func (fd Field) word(v string) (string, bool) {
	switch fd.Kind {
	case "flag":
		switch v {
		case "", "0":
			return "", true
		case "1":
			return fd.Word, word(fd.Word)
		}
	case "word":
		for _, c := range fd.Choices {
			if v == c.Value && word(v) {
				return v, true
			}
		}
	case "number":
		if v == "" {
			switch {
			case fd.Optional:
				return "", true
			case fd.Default == nil:
				return "", false
			}
			v = strconv.Itoa(*fd.Default)
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < fd.Min || n > fd.Max || !glue(fd.Prefix) || !glue(fd.Suffix) {
			return "", false
		}
		return fd.Prefix + strconv.Itoa(n) + fd.Suffix, true
	case "terms":
		ps := strings.Split(v, "+")
		if v == "" || len(ps) > len(fd.Parts) {
			return "", false
		}
		for i, p := range ps {
			if n, err := strconv.Atoi(p); err == nil {
				if n < fd.Parts[i].Min || n > fd.Parts[i].Max {
					return "", false
				}
				ps[i] = strconv.Itoa(n)
				continue
			}
			// A sheet value's name, read by the core from the sheet.
			if !word(p) || strings.ContainsAny(p, "+@/!") {
				return "", false
			}
		}
		return strings.Join(ps, "+"), true
	}
	return "", false
}

// glue reports whether s may be glued to a number: letters only.
func glue(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// fieldView is a field as the dice screen draws it: its sheet values
// (the user's active character's numbers in the field's range, for a
// value the check needs) and the number its stepper starts at.
type fieldView struct {
	Field
	Sheet []valueView
	Start int
	// Selected is the default named value's Value ("" none).
	Selected string
	Big      bool // a wide range: steps of ten too
	Parts    []fieldView
	// Groups are a word's choices by group (<optgroup>).
	Groups []choiceGroup
}

type formView struct {
	Form
	Fields []fieldView
}

// formViews draws fs for the user's active character mine (nil: none).
func formViews(fs []Form, mine *sheetView) []formView {
	out := make([]formView, len(fs))
	for i, f := range fs {
		out[i].Form = f
		for _, fd := range f.Fields {
			out[i].Fields = append(out[i].Fields, viewOf(fd, mine))
		}
	}
	return out
}

func viewOf(fd Field, mine *sheetView) fieldView {
	v := fieldView{Field: fd, Big: fd.Max-fd.Min > 40}
	switch {
	case fd.Default != nil:
		v.Start = *fd.Default
		v.Selected = strconv.Itoa(*fd.Default)
	case fd.Min > 0 || fd.Max < 0:
		v.Start = fd.Min
	}
	// A value the check needs (no default: a skill, a capacity; a terms
	// input's part) may be one of the sheet's; counts and modifiers that
	// start at the file's default are numbers.
	if mine != nil && fd.Kind == "number" && len(fd.Choices) == 0 && fd.Default == nil && !fd.Optional {
		for _, x := range mine.Values {
			if x.Num && x.N >= fd.Min && x.N <= fd.Max {
				v.Sheet = append(v.Sheet, x)
			}
		}
	}
	for _, p := range fd.Parts {
		v.Parts = append(v.Parts, viewOf(p, mine))
	}
	if fd.Kind == "word" {
		v.Groups = groups(fd.Choices)
	}
	return v
}

// form is the check key of the forms msg's sender is offered (nil: none
// such, or the core could not list them).
func (a *Adapter) form(ctx context.Context, msg core.Message, key string) *Form {
	fs, err := a.d.Forms.Forms(ctx, msg)
	if err != nil {
		a.log.Error("web forms", "chat", msg.Chat.String(), "err", err)
		return nil
	}
	for i := range fs {
		if fs[i].Key == key {
			return &fs[i]
		}
	}
	return nil
}

// fieldData is what the dice screen's field templates read: the texts
// and one field.
type fieldData struct {
	T func(key string, kv ...any) string
	F fieldView
}

func field(t func(key string, kv ...any) string, f fieldView) fieldData {
	return fieldData{T: t, F: f}
}
