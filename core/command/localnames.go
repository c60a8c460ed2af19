package command

import (
	"regexp"
	"strings"
	"unicode"

	"zaria/core/fold"
	"zaria/core/reply"
)

// latinCommand is a command written in a reply: "/roll", "!export", at the
// start of the text or after a space or an opening mark.
var latinCommand = regexp.MustCompile(`(^|[\s(«"“'])[/!]([A-Za-z][A-Za-z_]*)\b`)

// greekCommandNames writes the commands a Greek reply names by their
// Greek names ("!ρίξε 2d6+3", "!εξαγωγή", "!ρυθμίσεις") when the user
// typed a prefix other than "/": on Matrix "!ρίξε" works and "/roll" is
// taken by the client, and a Greek chat reads Greek. With "/" (Telegram,
// which takes Latin command names only) nothing changes. The history's
// lines are left as they were typed.
func (r *Router) greekCommandNames(req *Request, rep *reply.Reply) {
	if rep == nil || req == nil || req.Name == "historial" {
		return
	}
	if req.Lang != "el" || req.TypedPrefix() == "/" {
		r.typedCommandName(req, rep)
		return
	}
	pre := req.TypedPrefix()
	for ; rep != nil; rep = rep.Secret {
		for _, line := range rep.Lines {
			for i := range line {
				line[i].Text = dedupeNames(latinCommand.ReplaceAllStringFunc(line[i].Text, func(m string) string {
					sub := latinCommand.FindStringSubmatch(m)
					if g := r.greekName(sub[2]); g != "" {
						return sub[1] + pre + g
					}
					return m
				}))
			}
		}
	}
}

// nameList is a command followed by the list of its other names, as
// /help writes it: "/roll  (/r, /tirar, !ρίξε)".
var nameList = regexp.MustCompile(`([/!]\S+)(\s+)\(([/!][^()]*)\)`)

// dedupeNames leaves each name once in a list of a command's names that
// the Greek names made repeat ("!ρίξε  (!ρίξε, !ρίξε, !ρίξε)" is
// "!ρίξε"; issue 36).
func dedupeNames(s string) string {
	return nameList.ReplaceAllStringFunc(s, func(m string) string {
		sub := nameList.FindStringSubmatch(m)
		seen := map[string]bool{sub[1]: true}
		var keep []string
		for _, n := range strings.Split(sub[3], ", ") {
			if !seen[n] {
				seen[n] = true
				keep = append(keep, n)
			}
		}
		if len(keep) == 0 {
			return sub[1]
		}
		return sub[1] + sub[2] + "(" + strings.Join(keep, ", ") + ")"
	})
}

// typedCommandName writes the command the user typed by the name they
// typed it with: "/char create Rook" is answered "Add values: /char set
// strength 4", not "/pj set" (the hint switched names).
func (r *Router) typedCommandName(req *Request, rep *reply.Reply) {
	cmd, ok := r.byAlias[fold.Key(req.Alias)]
	if !ok || fold.Key(req.Alias) == fold.Key(cmd.Name) {
		return
	}
	for ; rep != nil; rep = rep.Secret {
		for _, line := range rep.Lines {
			for i := range line {
				line[i].Text = latinCommand.ReplaceAllStringFunc(line[i].Text, func(m string) string {
					sub := latinCommand.FindStringSubmatch(m)
					if c, ok := r.byAlias[fold.Key(sub[2])]; ok && c == cmd && !strings.EqualFold(sub[2], req.Alias) {
						return sub[1] + m[len(sub[1]):len(sub[1])+1] + req.Alias
					}
					return m
				})
			}
		}
	}
}

// greekName is the Greek alias of the command name names, "" if it has
// none (/dh, /kh, /rq: proper names) or is no command.
func (r *Router) greekName(name string) string {
	cmd, ok := r.byAlias[fold.Key(name)]
	if !ok {
		return ""
	}
	for _, a := range cmd.Aliases {
		if strings.IndexFunc(a, func(c rune) bool { return unicode.Is(unicode.Greek, c) }) >= 0 {
			return a
		}
	}
	return ""
}
