package reply

// warningSign starts every warning the user reads.
const warningSign = "⚠️ "

// Warning is the reply that reports a user error or a notice the user
// must read: one line, "⚠️ " and text (already in lang), marked Error.
func Warning(lang, text string) *Reply {
	return &Reply{Lines: []Line{WarningLine(text)}, Error: true, Lang: lang}
}

// WarningLine is a warning as one line of a reply that says more.
func WarningLine(text string) Line { return Line{T(warningSign + text)} }
