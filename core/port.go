package core

import (
	"context"

	"zaria/core/reply"
)

// Port is everything a chat adapter may ask of the core: a user manual
// for adapter authors. *command.Router implements it; cmd/zaria hands the
// router to each adapter as its Port. An adapter imports only this package
// and zaria/core/reply (plus its platform's SDK and the standard library):
// it never parses a command, never reads a chat's settings and never
// loads the catalogs itself (TestAdaptersImportOnlyThePort in cmd/zaria
// pins it for both adapters). An adapter declares the subset it uses as its
// own small interface (both chat adapters' Dispatcher), and what it can do
// without as optional capabilities it checks at run time (Telegram's
// Menu, TakesFile, Recent); *command.Router satisfies any subset. The router's
// other exported methods (Commands, Lookup, Translator, SettingsStore…)
// serve the core's own handlers and the command line, not adapters.
//
// The flow of one message:
//
//  1. The adapter receives a platform event and builds a Message: the
//     chat (platform and id), the sender, the text as typed, the
//     sender's client language as LangHint, Private, FromGM when the
//     platform says the sender administers the chat, and BotName.
//  2. Optionally it asks Recognize before work that only a command needs,
//     or to tell a command from arguments (an inline query). Before
//     downloading an attached document it asks whether the caption takes
//     it: Recognize gives the command's name in this chat (its own prefix
//     counts, /importar@OtherBot does not), TakesFile("/"+name) whether it
//     takes a file; the file's text then follows the caption on a new
//     line in msg.Text.
//  3. It calls Dispatch. ok=false: the message was not for the bot (plain
//     chat, a command for another bot); send nothing. Otherwise the reply
//     is final, already localized text, possibly an error reply.
//  4. It draws the reply for its platform (reply.HTML, reply.Plain) and
//     sends it. Reply.Lang is the language the reply was rendered in:
//     use it for any text the adapter adds to that reply (headers,
//     notices), so they never disagree with it. Reply.Secret, when set,
//     is for the roller and the chat's GMs only (the adapter's own
//     admins, plus Reply.SecretTo): deliver it privately and post only
//     Reply.Lines in the chat; in a private chat deliver Secret instead
//     of Lines. Reply.Buttons are drawn under the reply, each with its
//     Label; the adapter keeps the button's Action (durably, if a press
//     may come after a restart: adapters/internal/actions) and never
//     builds a command from it, nor reads Reply.Command or Button.Kind.
//     A link button (reply.ActLink) only opens its URL: draw it as a link
//     and keep nothing; a service puts one on a reply only for a
//     platform that draws it.
//     Reply.Keyboard, on a platform with reply keyboards (Telegram),
//     replaces the user's own keyboard with keys that send their text as
//     the user's message (Hide: gives it back; Selective: only for the
//     sender, in a group); elsewhere ignore it: the reply's lines say the
//     same.
//  5. When a button is pressed it calls Press with the presser's Message
//     (Text is ignored) and the button's Action, and delivers the reply
//     as in step 4. The answer to a 📊 (reply.ActOdds) also carries the
//     odds of the roll pressed in one line, Reply.OddsLine: a platform
//     that adds them to the roll's own message (Telegram) adds that line,
//     and never makes one of its own.
//
// A press of a button the adapter can no longer resolve (data the bot
// did not make, a record since pruned) is Press of reply.ActGone: the
// core answers it too. Texts the adapter says on its own (a file too
// big, the command menu) come from the catalogs through Lang and Text,
// never from literals, so they exist in every language the bot speaks.
type Port interface {
	// Dispatch answers one chat message. ok=false means the message was
	// not for the bot: the adapter sends nothing.
	Dispatch(ctx context.Context, msg Message) (rep *reply.Reply, ok bool)
	// Press resolves a pressed button by its meaning in the core: a is
	// the button's Action as the reply carried it, msg says who pressed
	// it and where. ok=false: nothing to show.
	Press(ctx context.Context, msg Message, a reply.Action) (rep *reply.Reply, ok bool)
	// Recognize reports whether msg.Text is a command for this bot in
	// msg.Chat (ok): it starts with "/", "!" or the chat's own prefix and
	// is not addressed to another bot (/roll@OtherBot, see msg.BotName).
	// name is the canonical name of the registered command it names
	// ("roll" for "/r 2d6"), "" for a command the bot does not know (a
	// saved roll, a typo). Dispatch decides the same way; this only asks.
	Recognize(ctx context.Context, msg Message) (name string, ok bool)
	// TakesFile reports whether text (a caption: "/importar",
	// "!import@ZariaBot") starts a command whose input is an attached
	// file's text.
	TakesFile(text string) bool
	// Menu lists the commands to publish in a platform's command menu
	// (Telegram's setMyCommands), in registration order, hidden commands
	// left out, each with its one-line description in lang; "" is the
	// configured default language (the menu for every other client). An
	// adapter shows Local where the platform accepts it, else Name.
	Menu(lang string) []MenuItem
	// Lang is the language of chat by the router's one rule: the chat's
	// setting, else the sender's client language (hint, "es-ES" counts as
	// "es") when the bot speaks it, else the configured default. It only
	// reads: a chat's language is saved by Dispatch.
	Lang(ctx context.Context, chat ChatRef, hint string) string
	// Text renders a catalog key in lang with alternating argument names
	// and values: Text("en", "tg.again.by", "name", "Ana"). It never
	// returns "": a missing key falls back to English, then to the key.
	Text(lang, key string, kv ...any) string
	// Recent lists the distinct commands msg.From rolled last in msg.Chat
	// (the chat's roll history, so never a secret roll or an error),
	// newest first, at most n: what an adapter offers to roll again
	// (Telegram's empty inline query, in the user's private chat). Each
	// is a command to Dispatch as typed; nil when there are none.
	Recent(ctx context.Context, msg Message, n int) []string
}

// MenuItem is one entry of a command menu.
type MenuItem struct {
	Name        string // canonical command name, without "/": "roll"
	Local       string // the name lang's help shows ("ayuda" for help in Spanish), one of the command's names; Name when help shows none
	Description string // one line in the menu's language, never ""
}
