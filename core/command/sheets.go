package command

import (
	"context"

	"zaria/core"
)

// Sheets gives handlers the chat's character sheets, so that a roll can say
// "fuerza+atletismo" instead of numbers. It is implemented by core/sheet
// on top of the store and wired in main. Every error it returns for a bad name is
// a *UserError (unknown character or value, with suggestions).
//
// who selects the character: "" is the sender's active character in this
// chat; "Drake" or "@Drake" is that character of this chat. A chat can never
// reach another chat's characters.
type Sheets interface {
	// SheetInt returns a numeric value (stat, skill) of a character.
	SheetInt(ctx context.Context, chat core.ChatRef, userID, who, name string) (int, error)
	// SheetText returns a text value (weapon, armour, a usage die "d8").
	SheetText(ctx context.Context, chat core.ChatRef, userID, who, name string) (string, error)
	// SetSheetText stores a value on a character the user may edit (its
	// owner or a GM), e.g. the state of Dungeon Hack equipment.
	SetSheetText(ctx context.Context, chat core.ChatRef, userID string, isGM bool, who, name, value string) error
}

// SheetInt reads a numeric value from a character sheet of the request's chat.
func (r *Request) SheetInt(ctx context.Context, who, name string) (int, error) {
	if r.router.cfg.Sheets == nil {
		return 0, Errorf("error.no_sheets", "name", name)
	}
	return r.router.cfg.Sheets.SheetInt(ctx, r.Msg.Chat, r.Msg.From.ID, r.who(who), name)
}

// SheetText reads a text value from a character sheet of the request's chat.
func (r *Request) SheetText(ctx context.Context, who, name string) (string, error) {
	if r.router.cfg.Sheets == nil {
		return "", Errorf("error.no_sheets", "name", name)
	}
	return r.router.cfg.Sheets.SheetText(ctx, r.Msg.Chat, r.Msg.From.ID, r.who(who), name)
}

// SetSheetText writes a text value on a character sheet of the request's chat.
func (r *Request) SetSheetText(ctx context.Context, who, name, value string) error {
	if r.router.cfg.Sheets == nil {
		return Errorf("error.no_sheets", "name", name)
	}
	return r.router.cfg.Sheets.SetSheetText(ctx, r.Msg.Chat, r.Msg.From.ID, r.IsGM, r.who(who), name, value)
}

// who is the character a sheet read names: who, or when it names none
// the one the request runs as (RunAs), else "" (the sender's active one).
func (r *Request) who(who string) string {
	if who == "" && r.as != "" {
		return "@" + r.as
	}
	return who
}
