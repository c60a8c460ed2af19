package history

import (
	"strings"
	"time"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// historyFile is /historial N past what one reply shows: the rolls as a
// Markdown file, oldest first, in the chat's time zone (named), with each
// roll's whole result as the history kept it.
func historyFile(req *command.Request, rolls []Roll, loc *time.Location, now time.Time) *reply.Reply {
	var b strings.Builder
	b.WriteString("# " + req.TP("history.title", "count", len(rolls), "zone", loc.String()) + "\n\n")
	day := ""
	for i := len(rolls) - 1; i >= 0; i-- {
		r := rolls[i]
		t := r.Time.In(loc)
		if d := t.Format("2006-01-02"); d != day {
			day = d
			b.WriteString("## " + d + "\n\n")
		}
		b.WriteString("**" + t.Format("15:04") + " · " + fold.Clean(r.UserName) + "** — `" +
			strings.ReplaceAll(fold.Clean(r.Command), "`", "'") + "`  \n" + fold.Clean(r.Result) + "\n\n")
	}
	rep := reply.Text(req.TP("history.file", "count", len(rolls), "zone", loc.String()))
	rep.File = &reply.File{Name: "zaria-" + req.T("history.file_word") + "-" + now.In(loc).Format("2006-01-02") + ".md",
		MIME: "text/markdown; charset=utf-8", Data: []byte(b.String())}
	return rep
}
