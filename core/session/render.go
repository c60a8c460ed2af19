package session

import (
	"fmt"
	"html"
	"sort"
	"strings"
	"time"

	"zaria/core/command"
	"zaria/core/reply"
)

// render writes the log of ss as a file that reads on a phone and on a
// computer, in the chat's language and time zone: Markdown (md) or a
// page of HTML. gm includes the results of secret and blind rolls.
func render(req *command.Request, ss Session, evs []Event, format string, gm bool, now time.Time) *reply.File {
	loc := req.Location()
	var b strings.Builder
	md := format != "html"
	para := func(s string) {
		if md {
			b.WriteString(s + "\n\n")
		} else {
			b.WriteString("<p>" + s + "</p>\n")
		}
	}
	esc := func(s string) string {
		if md {
			return s
		}
		return html.EscapeString(s)
	}
	it := func(s string) string {
		if md {
			return "_" + s + "_"
		}
		return "<em>" + html.EscapeString(s) + "</em>"
	}
	if !md {
		b.WriteString("<!DOCTYPE html>\n<html lang=\"" + req.Lang + "\"><head><meta charset=\"utf-8\">" +
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" + html.EscapeString(ss.Title) + "</title>\n" +
			"<style>body{font-family:system-ui,sans-serif;max-width:40em;margin:auto;padding:0 1em;line-height:1.4}" +
			"h2{font-size:1em;margin-top:1.5em;border-bottom:1px solid #ccc}.e{margin:.6em 0}.t{color:#666}" +
			"pre{white-space:pre-wrap;margin:.2em 0 0 .8em;font-family:inherit}.s{background:#fff3cd}</style></head><body>\n")
	}
	if md {
		b.WriteString("# 📜 " + ss.Title + "\n\n")
	} else {
		b.WriteString("<h1>📜 " + html.EscapeString(ss.Title) + "</h1>\n")
	}
	start := ss.Started.In(loc)
	var when string
	if ss.Open() {
		when = req.T("session.file_open", "start", start.Format("2006-01-02 15:04"), "zone", loc.String(), "length", length(now.Sub(ss.Started)))
	} else {
		end := ss.Ended.In(loc)
		endText := end.Format("15:04")
		if end.YearDay() != start.YearDay() || end.Year() != start.Year() {
			endText = end.Format("2006-01-02 15:04")
		}
		when = req.T("session.file_when", "start", start.Format("2006-01-02 15:04"), "end", endText, "zone", loc.String(), "length", length(ss.Ended.Sub(ss.Started)))
	}
	para("🕘 " + esc(when))
	per := map[string]int{}
	for _, e := range evs {
		if e.Roll {
			per[e.UserName]++
		}
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		return per[names[i]] > per[names[j]] || per[names[i]] == per[names[j]] && names[i] < names[j]
	})
	who := make([]string, len(names))
	for i, n := range names {
		who[i] = fmt.Sprintf("%s %d", n, per[n])
	}
	count := "🎲 " + req.T("session.file_count", "count", Rolls(ss, evs))
	if len(who) > 0 {
		count += " · " + strings.Join(who, " · ")
	}
	para(esc(count))
	para(it(req.T("session.what_is_logged")))
	if gm {
		para("🔒 " + it(req.T("session.file_gm")))
	}
	if ss.Dropped > 0 {
		para(it(req.T("session.file_dropped", "count", ss.Dropped, "max", MaxEvents)))
	}
	if len(evs) == 0 {
		para(it(req.T("session.file_empty")))
	}
	day := ""
	for _, e := range evs {
		t := e.Time.In(loc)
		if d := t.Format("2006-01-02"); d != day {
			day = d
			if md {
				b.WriteString("## " + d + "\n\n")
			} else {
				b.WriteString("<h2>" + d + "</h2>\n")
			}
		}
		text := e.Text
		if gm && e.Secret != "" {
			text += "\n🔒 " + e.Secret
		}
		if md {
			b.WriteString("**" + t.Format("15:04") + " · " + e.UserName + "**")
			if e.Command != "" {
				b.WriteString(" — `" + strings.ReplaceAll(e.Command, "`", "'") + "`")
			}
			b.WriteString("\n")
			for _, l := range strings.Split(text, "\n") {
				b.WriteString("> " + l + "  \n")
			}
			b.WriteString("\n")
		} else {
			class := "e"
			if gm && e.Secret != "" {
				class += " s"
			}
			cmd := ""
			if e.Command != "" {
				cmd = " — <code>" + html.EscapeString(e.Command) + "</code>"
			}
			b.WriteString("<div class=\"" + class + "\"><span class=\"t\">" + t.Format("15:04") + "</span> <b>" + html.EscapeString(e.UserName) +
				"</b>" + cmd + "<pre>" + html.EscapeString(text) + "</pre></div>\n")
		}
	}
	if !md {
		b.WriteString("</body></html>\n")
	}
	name := "zaria-" + req.T("session.file_word") + "-" + start.Format("2006-01-02")
	if gm {
		name += "-gm"
	}
	f := &reply.File{Name: name + "." + format, MIME: "text/markdown; charset=utf-8", Data: []byte(b.String())}
	if !md {
		f.MIME = "text/html; charset=utf-8"
	}
	return f
}
