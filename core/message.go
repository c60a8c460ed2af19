// Package core holds the platform-neutral types that cross the boundary
// between chat adapters and the command router, and Port, the one
// interface through which an adapter asks the core anything.
package core

import "time"

// ChatRef names one chat on one platform. Everything a chat owns
// (settings, characters, history) is keyed by it.
type ChatRef struct {
	Platform string // "telegram", "matrix", "console"
	ID       string // the platform's chat or room id
}

func (c ChatRef) String() string { return c.Platform + ":" + c.ID }

// User is the sender of a message, as the platform knows them.
type User struct {
	ID   string // stable platform id ("12345", "@ana:example.org")
	Name string // display name, untrusted text
}

// Message is one chat message handed by an adapter to the router.
type Message struct {
	Chat     ChatRef
	From     User
	ID       string // platform message id, for replies
	Text     string // raw text as typed
	LangHint string // the sender's client language (Telegram language_code), may be ""
	Private  bool   // a one-to-one chat with the bot
	FromGM   bool   // the platform says the sender administers the chat
	// Thread is where in the chat the message was written, on platforms
	// with places inside a chat (a Telegram forum topic's
	// message_thread_id); "" for the chat itself. Replies go there; the
	// chat's characters, settings and rights are the whole chat's.
	Thread string
	// Sent is when the platform says the message was sent (Telegram's
	// date, Matrix's origin_server_ts); zero if unknown. The rate limit
	// counts in this time, so commands typed while the bot was away and
	// answered together when it is back are not refused as a flood.
	Sent time.Time
	// Prefix is the command prefix users type on this platform, for a
	// press (Port.Press), which has no Text to read it from: "!" on
	// Matrix, whose clients keep "/" for their own commands. The replies
	// to a press suggest commands after it ("Yours: !pad"); "" is "/".
	Prefix string
	// BotName is the bot's own user name on the platform ("ZariaBot"), used to
	// accept /cmd@ZariaBot and to ignore /cmd@OtherBot. Empty disables the check.
	BotName string
}

// Settings are a chat's stored preferences. The zero value means "nothing
// chosen yet": the router falls back to the message's language hint and the
// configured default.
type Settings struct {
	Lang    string            // one of Langs, or "" (not chosen yet)
	Options map[string]string // house rules and other per-chat options, by key
}

// Clone returns a copy whose map can be modified freely.
func (s Settings) Clone() Settings {
	c := Settings{Lang: s.Lang, Options: make(map[string]string, len(s.Options))}
	for k, v := range s.Options {
		c.Options[k] = v
	}
	return c
}
