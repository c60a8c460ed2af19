package web

import "strings"

// The page builds its commands with the core's canonical words ("/init
// next", "/table create"); the chat sees them in its own words ("📱 Ana:
// /iniciativa siguiente" in a Spanish chat, "/init επόμενος" in a Greek
// one): chatWords rewrites the command and its sub-command with the
// catalog's "web.word.<command>" and "web.word.<command>.<sub>", words
// the core reads in every chat. A command keeps its Latin name where the
// catalog says so (a Greek chat on Telegram, which takes only Latin
// command names after "/").

// wordSubs are the sub-commands the page writes, by command.
var wordSubs = map[string][]string{
	"init":   {"next", "end", "undo", "add", "remove", "move", "hp", "condition"},
	"pj":     {"create", "rename", "delete", "set", "use", "unset", "undo"},
	"table":  {"create", "rename", "delete"},
	"deck":   {"create", "draw", "shuffle", "delete"},
	"system": {"try", "edit"},
}

// systemParts are the words of what a rules action changes ("/system
// edit KEY table T 7 3 60"), after the system's key.
var systemParts = []string{"table", "band", "rule", "name"}

// wordCommands are the commands whose name the page writes in the
// chat's words.
var wordCommands = []string{"roll", "init", "table", "deck", "system"}

// chatWords writes cmd with the chat's words; t translates a catalog key
// in the chat's language.
func chatWords(cmd string, t func(key string) string) string {
	if !strings.HasPrefix(cmd, "/") {
		return cmd
	}
	head, body, _ := strings.Cut(cmd, "\n")
	words := strings.SplitN(head[1:], " ", 3)
	name := words[0]
	subs, known := wordSubs[name]
	local := name
	for _, c := range wordCommands {
		if c == name {
			local = t("web.word." + name)
		}
	}
	if !known && local == name {
		return cmd
	}
	words[0] = local
	// "/pj @Drake condition +x": the sub-command after the character.
	at := 1
	if name == "pj" && len(words) > 2 && strings.HasPrefix(words[1], "@") {
		rest := strings.SplitN(words[2], " ", 2)
		if rest[0] == "condition" {
			rest[0] = t("web.word.pj.condition")
			words[2] = strings.Join(rest, " ")
		}
		at = 0
	}
	if at == 1 && len(words) > 1 {
		for _, s := range subs {
			if words[1] == s {
				words[1] = t("web.word." + name + "." + s)
			}
		}
	}
	// "/system edit KEY table …": the part after the system's key.
	if name == "system" && len(words) > 2 {
		rest := strings.SplitN(words[2], " ", 3)
		for _, p := range systemParts {
			if len(rest) > 1 && rest[1] == p {
				rest[1] = t("web.word.system." + p)
				words[2] = strings.Join(rest, " ")
				break
			}
		}
	}
	out := "/" + strings.Join(words, " ")
	if body != "" || strings.Contains(cmd, "\n") {
		out += "\n" + body
	}
	return out
}
