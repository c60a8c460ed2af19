package reply

// Keyboard replaces the user's own phone keyboard with keys that each send
// a command as the user's own message (Telegram's reply keyboard), so the
// whole chat sees what was rolled, typed by whom. An adapter without such
// keyboards ignores it: the reply's Lines must read well on their own
// (core/pad lists the keys there as commands to type).
type Keyboard struct {
	// Keys are the keys in order; each key's text is the command it sends,
	// exactly as the chat types it ("/roll d20", "/zaria fuerza dc15").
	Keys []string
	// Hide removes a keyboard shown before (Keys is then empty).
	Hide bool
	// Selective: in a group, show (or hide) it only for the user who
	// asked, not for the whole chat; the adapter posts the reply as an
	// answer to that user's message.
	Selective bool
	// Placeholder is a short hint shown in the input field while the
	// keyboard is up ("" for none).
	Placeholder string
}
