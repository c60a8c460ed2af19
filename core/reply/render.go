package reply

import (
	"strings"

	"zaria/core/fold"
)

// PlainText renders the reply for a terminal or a plain-text body: bold as
// is, code as is, lines joined by newlines.
func PlainText(r *Reply) string {
	var b strings.Builder
	for i, l := range r.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, s := range l {
			b.WriteString(s.Text)
		}
	}
	return b.String()
}

// Lines returns the text of each of r's lines cleaned to one line
// without invisible characters (fold.Clean), leaving out those left
// empty: what a log keeps of a reply (/historial, /sesion).
func Lines(r *Reply) []string {
	var out []string
	for _, l := range r.Lines {
		var b strings.Builder
		for _, s := range l {
			b.WriteString(s.Text)
		}
		if t := fold.Clean(b.String()); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// HTML renders the reply with the tag subset both Telegram (parse_mode HTML)
// and Matrix (formatted_body) accept: <b>, <i>, <code>. Every piece of text
// is escaped. Lines are joined with sep ("\n" for Telegram, "<br>" for Matrix).
func HTML(r *Reply, sep string) string {
	var b strings.Builder
	for i, l := range r.Lines {
		if i > 0 {
			b.WriteString(sep)
		}
		for _, s := range l {
			open, close := "", ""
			switch s.Style {
			case Bold:
				open, close = "<b>", "</b>"
			case Italic:
				open, close = "<i>", "</i>"
			case Code:
				open, close = "<code>", "</code>"
			}
			b.WriteString(open)
			b.WriteString(EscapeHTML(s.Text))
			b.WriteString(close)
		}
	}
	return b.String()
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// EscapeHTML escapes the characters that matter in Telegram and Matrix HTML.
func EscapeHTML(s string) string { return htmlEscaper.Replace(s) }
