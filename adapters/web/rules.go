package web

import (
	"context"
	"regexp"
	"strconv"
	"unicode/utf8"

	"zaria/core"
)

// Rules reads the chat's own rules for the rules screen: each fork's
// numbers and what differs from the book (core/systems/fork's views).
type Rules interface {
	Rules(ctx context.Context, chat core.ChatRef, lang string) ([]RuleSet, error)
}

// RuleSet is one of the chat's systems on the rules screen.
type RuleSet struct {
	Key, Title, Command string
	Numbers             []RuleNumber
	Names               []RuleName // the outcomes' names a GM may change
	Changes             []string   // what differs from the book, in words
}

// RuleName is an outcome's name, by its key.
type RuleName struct{ Key, Name string }

// RuleNumber is a number a GM changes with − and +.
type RuleNumber struct {
	Key, Name       string
	Value, Min, Max int
}

var ruleKey = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// ruleCommand is the chat command of a rules screen's action: a change's
// preview (/system try, nothing saved), the change (/system edit), or an
// outcome's new name (/system edit … name). Who
// may do either is the core's (/sistema: GMs only).
func (q doReq) ruleCommand() string {
	if !ruleKey.MatchString(q.System) || !ruleKey.MatchString(q.Name) {
		return ""
	}
	if q.Op == "rulename" {
		if !label(q.Value) || utf8.RuneCountInString(q.Value) > 40 {
			return ""
		}
		return "/system edit " + q.System + " name " + q.Name + " " + q.Value
	}
	words := q.System + " " + q.Name + " " + strconv.Itoa(q.N)
	switch q.Op {
	case "rulepreview":
		return "/system try " + words
	case "ruleset":
		return "/system edit " + words
	}
	return ""
}
