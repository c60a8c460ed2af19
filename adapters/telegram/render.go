package telegram

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core/reply"
)

// utf16Len is the length Telegram counts: UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// token is a piece of a message: closed HTML with its visible length.
type token struct {
	html    string
	n       int
	newline bool // starts a new reply line
}

// splitHTML renders lines as Telegram HTML in messages of at most limit
// visible characters each. It cuts between lines when it can, else between
// spans, else inside a span's text at a space; a cut is never inside a tag
// or an entity, because each piece is escaped and tagged on its own.
func splitHTML(lines []reply.Line, limit int) []string {
	if limit < 16 {
		limit = 16
	}
	var out []string
	var b strings.Builder
	n := 0
	add := func(t token) {
		need := t.n
		if t.newline && n > 0 {
			need++
		}
		if n > 0 && n+need > limit {
			out = append(out, b.String())
			b.Reset()
			n = 0
		}
		if t.newline && b.Len() > 0 {
			b.WriteByte('\n')
			n++
		}
		b.WriteString(t.html)
		n += t.n
	}
	for li, l := range lines {
		var toks []token
		total := 0
		for _, sp := range l {
			for _, piece := range cutText(sp.Text, limit) {
				h := reply.HTML(&reply.Reply{Lines: []reply.Line{{{Style: sp.Style, Text: piece}}}}, "")
				toks = append(toks, token{html: h, n: utf16Len(piece)})
				total += utf16Len(piece)
			}
		}
		if total <= limit {
			// A line that fits in a message is never cut.
			var h strings.Builder
			for _, t := range toks {
				h.WriteString(t.html)
			}
			add(token{html: h.String(), n: total, newline: li > 0})
			continue
		}
		for i, t := range toks {
			t.newline = i == 0 && li > 0
			add(t)
		}
	}
	if b.Len() > 0 || len(out) == 0 {
		out = append(out, b.String())
	}
	// Telegram refuses empty and whitespace-only texts.
	kept := out[:0]
	for _, s := range out {
		if strings.TrimSpace(s) != "" {
			kept = append(kept, s)
		}
	}
	return kept
}

// cutText cuts s into pieces of at most limit UTF-16 units, at the last
// space before the limit when there is one.
func cutText(s string, limit int) []string {
	var out []string
	for utf16Len(s) > limit {
		cut, n, lastSpace := 0, 0, -1
		for i, r := range s {
			if n+utf16.RuneLen(r) > limit {
				break
			}
			n += utf16.RuneLen(r)
			cut = i + utf8.RuneLen(r)
			if r == ' ' || r == '\n' {
				lastSpace = cut
			}
		}
		// Cut after a space, unless all before it is blank: a whitespace-only
		// part would be refused by Telegram and its spaces lost.
		if lastSpace > 0 && strings.TrimSpace(s[:lastSpace]) != "" {
			cut = lastSpace
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// Callback data, at most 64 bytes: "a:<command>" runs the command again,
// "o:<command>" with the odds; a longer command is kept in memory and
// named "A:<n>" or "O:<n>".
const maxCallbackData = 64

type buttonMemory struct {
	mu    sync.Mutex
	next  uint64
	byID  map[uint64]string
	order []uint64
	max   int
}

func newButtonMemory(max int) *buttonMemory {
	return &buttonMemory{byID: map[uint64]string{}, max: max}
}

func (m *buttonMemory) put(cmd string) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	m.byID[m.next] = cmd
	m.order = append(m.order, m.next)
	if len(m.order) > m.max {
		delete(m.byID, m.order[0])
		m.order = m.order[1:]
	}
	return m.next
}

func (m *buttonMemory) get(id uint64) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.byID[id]
	return c, ok
}

func (m *buttonMemory) data(kind, cmd string) string {
	short := "a"
	if kind == reply.ButtonOdds {
		short = "o"
	}
	if d := short + ":" + cmd; len(d) <= maxCallbackData {
		return d
	}
	return strings.ToUpper(short) + ":" + strconv.FormatUint(m.put(cmd), 10)
}

// command decodes callback data into the text to dispatch. ok is false for
// data this bot did not make or no longer remembers.
func (m *buttonMemory) command(data string) (string, bool) {
	kind, rest, found := strings.Cut(data, ":")
	if !found || !utf8.ValidString(rest) {
		return "", false
	}
	cmd := rest
	switch kind {
	case "a", "o":
	case "A", "O":
		id, err := strconv.ParseUint(rest, 10, 64)
		if err != nil {
			return "", false
		}
		c, ok := m.get(id)
		if !ok {
			return "", false
		}
		cmd = c
	default:
		return "", false
	}
	if !strings.HasPrefix(cmd, "/") || len(cmd) < 2 {
		return "", false
	}
	if kind == "o" || kind == "O" {
		cmd += " ?"
	}
	return cmd, true
}

// keyboard builds the inline keyboard of a reply, or "" when it has none.
func (m *buttonMemory) keyboard(rep *reply.Reply) string {
	if rep.Error || rep.Command == "" || len(rep.Buttons) == 0 {
		return ""
	}
	var row []tgbotapi.InlineKeyboardButton
	for _, b := range rep.Buttons {
		if b.Kind != reply.ButtonAgain && b.Kind != reply.ButtonOdds {
			continue
		}
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(b.Label, m.data(b.Kind, rep.Command)))
	}
	if len(row) == 0 {
		return ""
	}
	kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(row))
	return string(kb)
}
