package sheet

import (
	"context"
	"errors"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
)

// SheetInt returns a numeric value of a character of chat (command.Sheets).
// who "" is userID's active character; "Drake" or "@Drake" names one.
func (s *Service) SheetInt(ctx context.Context, chat core.ChatRef, userID, who, name string) (int, error) {
	if err := s.readable(name); err != nil {
		return 0, err
	}
	c, err := s.resolve(ctx, chat, userID, who)
	if err != nil {
		return 0, err
	}
	i := s.valueIndex(c, name)
	if i < 0 {
		return 0, unknownValue(c, name)
	}
	n, ok := parseInt(c.Values[i].Text)
	if !ok {
		return 0, command.Errorf("character.value_not_number", "name", c.Values[i].Name, "value", c.Values[i].Text, "character", c.Name)
	}
	return n, nil
}

// readable refuses a name that no sheet can hold (CheckValueName: "45%",
// "4.5e1", a number too big to read, "99999999999999999999"), which a
// system's command reads as a value's name when it is not a number it
// takes. Saying "Drake has no value «45%». Set it with /pj poner 45% VALUE"
// would send the user to a command that refuses it.
func (s *Service) readable(name string) error {
	if CheckValueName(name, s.lim.NameLen) != nil {
		return command.Errorf("character.value_name_unreadable", "name", fold.Cut(name, 40))
	}
	return nil
}

// SheetText returns a text value of a character of chat (command.Sheets).
func (s *Service) SheetText(ctx context.Context, chat core.ChatRef, userID, who, name string) (string, error) {
	if err := s.readable(name); err != nil {
		return "", err
	}
	c, err := s.resolve(ctx, chat, userID, who)
	if err != nil {
		return "", err
	}
	i := s.valueIndex(c, name)
	if i < 0 {
		return "", unknownValue(c, name)
	}
	return c.Values[i].Text, nil
}

// SetSheetText stores a value on a character of chat that userID may edit
// (its owner, or any character when isGM) (command.Sheets). The value is
// set on the sheet as stored when the write happens, never on a copy read
// before.
func (s *Service) SetSheetText(ctx context.Context, chat core.ChatRef, userID string, isGM bool, who, name, value string) error {
	_, err := s.edit(ctx, chat, userID, isGM, who, func(c *Character) error {
		return s.setValue(c, name, value)
	})
	return err
}

// edit resolves who (see resolve) and changes that character with fn
// inside the store's write transaction (Characters.EditCharacter): fn sees
// the sheet as it is when the write lock is held, so concurrent edits from
// any number of processes each apply to the result of the previous one.
// The sender must be allowed to edit it (checked again on the fresh copy).
// Updated is set to now. Store sentinels become user errors.
func (s *Service) edit(ctx context.Context, chat core.ChatRef, userID string, isGM bool, who string, fn func(c *Character) error) (Character, error) {
	c, err := s.resolve(ctx, chat, userID, who)
	if err != nil {
		return Character{}, err
	}
	if !canEdit(c, userID, isGM) {
		return Character{}, notYours(c)
	}
	attempted := c.Name
	out, err := s.store.EditCharacter(ctx, chat, c.ID, func(cur *Character) error {
		if !canEdit(*cur, userID, isGM) {
			return notYours(*cur)
		}
		if err := fn(cur); err != nil {
			return err
		}
		attempted = cur.Name
		cur.Updated = s.now()
		return nil
	})
	var ue *command.UserError
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &ue):
		return Character{}, err
	case errors.Is(err, core.ErrNotFound):
		// Deleted by someone else between the lookup and the write.
		return Character{}, command.Errorf("character.unknown", "name", c.Name)
	case errors.Is(err, core.ErrExists):
		return Character{}, command.Errorf("character.exists", "name", attempted)
	default:
		return Character{}, internal("edit", err)
	}
}
