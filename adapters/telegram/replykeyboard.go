package telegram

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"zaria/core/reply"
)

// Reply keyboards (reply.Keyboard, /pad teclado): the phone's keyboard
// replaced by keys that send their text, a command, as the user's own
// message, so the chat sees who rolled what and the roll answers it like a
// typed one. Drawn as a ReplyKeyboardMarkup:
//
//   - resize_keyboard: as tall as its rows, not the phone keyboard's height;
//   - is_persistent: shown whenever the letter keyboard is hidden, so the
//     rolls stay one tap away for the whole session (tapping the input
//     field still types); /pad ocultar removes it (ReplyKeyboardRemove);
//   - not one_time_keyboard: it stays up after a roll, for the next one;
//   - selective in groups (Keyboard.Selective): Telegram then shows it only
//     to the user whose message the bot's message replies to, so the reply
//     always answers the asker's command, on the message that carries the
//     keyboard.
//
// In a group a key that starts with "!" is sent as "/…" (the same command
// for the core): with privacy mode on, the default, a group bot receives
// only the messages that start with "/" (or mention it).
//
// Telegram documents no limit on a reply keyboard's size or on a key's
// text (the text is sent as a message: at most 4096 characters); we keep
// to the inline keyboard's documented 100 keys and 8 per row, far above
// a pad's 25 buttons and 200-character commands. The input field
// placeholder has 1-64 characters (documented): a longer one is cut.
// TestReplyKeyboard* pin it.
const (
	maxPlaceholder = 64
	// shortKey is the longest key (in characters) that shares a row with
	// another short one.
	shortKey = 14
)

type keyboardButton struct {
	Text string `json:"text"`
}

type replyKeyboardMarkup struct {
	Keyboard     [][]keyboardButton `json:"keyboard"`
	IsPersistent bool               `json:"is_persistent"`
	Resize       bool               `json:"resize_keyboard"`
	OneTime      bool               `json:"one_time_keyboard"`
	Placeholder  string             `json:"input_field_placeholder,omitempty"`
	Selective    bool               `json:"selective,omitempty"`
}

type replyKeyboardRemove struct {
	Remove    bool `json:"remove_keyboard"`
	Selective bool `json:"selective,omitempty"`
}

// keyRows lays out keys: two per row when both are short, else one per
// row, at most maxKeyboardButtons keys; empty keys are left off.
func keyRows(keys []string) [][]keyboardButton {
	var rows [][]keyboardButton
	n := 0
	prevShort := false
	for _, k := range keys {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if n == maxKeyboardButtons {
			break
		}
		n++
		short := utf8.RuneCountInString(k) <= shortKey
		if short && prevShort && len(rows[len(rows)-1]) == 1 {
			rows[len(rows)-1] = append(rows[len(rows)-1], keyboardButton{k})
			prevShort = false
			continue
		}
		rows = append(rows, []keyboardButton{{k}})
		prevShort = short
	}
	return rows
}

// replyKeyboard is the reply_markup of k, or "" for a keyboard without
// keys (nothing to show); group: it goes to a group (see above).
func replyKeyboard(k *reply.Keyboard, group bool) string {
	if k.Hide {
		b, _ := json.Marshal(replyKeyboardRemove{Remove: true, Selective: k.Selective})
		return string(b)
	}
	keys := k.Keys
	if group {
		keys = make([]string, len(k.Keys))
		for i, key := range k.Keys {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(key), "!"); ok {
				key = "/" + rest
			}
			keys[i] = key
		}
	}
	rows := keyRows(keys)
	if len(rows) == 0 {
		return ""
	}
	b, _ := json.Marshal(replyKeyboardMarkup{Keyboard: rows, IsPersistent: true, Resize: true,
		Placeholder: clip(strings.TrimSpace(k.Placeholder), maxPlaceholder), Selective: k.Selective})
	return string(b)
}
