package character

import (
	"context"
	"errors"

	"zaria/core"
	"zaria/core/command"
)

// SheetInt returns a numeric value of a character of chat (command.Sheets).
// who "" is userID's active character; "Drake" or "@Drake" names one.
func (s *Service) SheetInt(ctx context.Context, chat core.ChatRef, userID, who, name string) (int, error) {
	c, err := s.resolve(ctx, chat, userID, who)
	if err != nil {
		return 0, err
	}
	i := valueIndex(c, name)
	if i < 0 {
		return 0, unknownValue(c, name)
	}
	n, ok := parseInt(c.Values[i].Text)
	if !ok {
		return 0, command.Errorf("character.value_not_number", "name", c.Values[i].Name, "value", c.Values[i].Text, "character", c.Name)
	}
	return n, nil
}

// SheetText returns a text value of a character of chat (command.Sheets).
func (s *Service) SheetText(ctx context.Context, chat core.ChatRef, userID, who, name string) (string, error) {
	c, err := s.resolve(ctx, chat, userID, who)
	if err != nil {
		return "", err
	}
	i := valueIndex(c, name)
	if i < 0 {
		return "", unknownValue(c, name)
	}
	return c.Values[i].Text, nil
}

// SetSheetText stores a value on a character of chat that userID may edit
// (its owner, or any character when isGM) (command.Sheets).
func (s *Service) SetSheetText(ctx context.Context, chat core.ChatRef, userID string, isGM bool, who, name, value string) error {
	defer s.lockChat(chat)()
	c, err := s.resolve(ctx, chat, userID, who)
	if err != nil {
		return err
	}
	if !canEdit(c, userID, isGM) {
		return notYours(c)
	}
	if err := s.setValue(&c, name, value); err != nil {
		return err
	}
	c.Updated = s.now()
	return s.update(ctx, chat, c)
}

// update saves c, turning store sentinels into user errors.
func (s *Service) update(ctx context.Context, chat core.ChatRef, c Character) error {
	err := s.store.UpdateCharacter(ctx, chat, c)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound):
		// Deleted by someone else between read and write.
		return command.Errorf("character.unknown", "name", c.Name)
	case errors.Is(err, ErrExists):
		return command.Errorf("character.exists", "name", c.Name)
	default:
		return internal("update", err)
	}
}
