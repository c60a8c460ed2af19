package core

// DefaultLang is the language of a chat whose client language the bot does
// not speak (or does not know), unless the operator configures another:
// the config's lang key, the router's Config.DefaultLang.
const DefaultLang = "en"

// Langs returns the languages the bot speaks, in the order it lists them.
// This is the one list: the router, the config loader and the message
// catalogs read it (i18n's tests check that every language has a catalog
// and that no catalog is in a language missing here).
func Langs() []string { return []string{"es", "el", "en"} }

// IsLang reports whether code is one of Langs.
func IsLang(code string) bool {
	for _, l := range Langs() {
		if l == code {
			return true
		}
	}
	return false
}
