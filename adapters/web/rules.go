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

// RuleSet is one of the chat's systems on the rules screen: what a GM
// may change in a fork, as /system edit takes it.
type RuleSet struct {
	Key, Title, Command string
	Numbers             []RuleNumber
	Names               []RuleName // the outcomes' names a GM may change
	Bands               []RuleBand
	Tables              []RuleTable
	Choices             []RuleChoice // house rules
	Changes             []string     // what differs from the book, in words
}

// RuleName is an outcome's name, by its key.
type RuleName struct{ Key, Name string }

// RuleNumber is a number a GM changes with − and +.
type RuleNumber struct {
	Key, Name       string
	Value, Min, Max int
}

// RuleBand is the bound of an outcome's band ("Éxito ≥ 0"), changed
// with − and + within ±Limits.Bound.
type RuleBand struct {
	Key, Name, Op string
	Value         int
}

// RuleTable is a table whose cells a GM changes one at a time: a row
// and a column picked, then − and + ("-", impossible, below the lowest).
type RuleTable struct {
	Key                            string
	RowFrom, RowTo, ColFrom, ColTo int
	Cells                          [][]string
}

// RuleChoice is a house rule and its choices, the chat's Value.
type RuleChoice struct {
	Key, Name, Value string
	Choices          []RuleName
}

var (
	ruleKey    = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)
	ruleChoice = regexp.MustCompile(`^[a-z0-9][a-z0-9_]{0,31}$`)
)

// ruleCommand is the chat command of a rules screen's action: a change's
// preview (rulepreview: /system try, nothing saved) or the change
// (ruleset: /system edit) of a number, a band's bound (Part "band"), a
// table's cell (Part "cell": Name the table, Row, Col, Value) or a house
// rule (Part "rule": Value the choice); or an outcome's new name
// (rulename). Who may do any is the core's (/sistema: GMs only).
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
	var words string
	switch q.Part {
	case "":
		words = q.Name + " " + strconv.Itoa(q.N)
	case "band":
		if q.N < -q.lim.Bound || q.N > q.lim.Bound {
			return ""
		}
		words = "band " + q.Name + " " + strconv.Itoa(q.N)
	case "cell":
		if q.Value != "-" {
			v, err := strconv.Atoi(q.Value)
			if err != nil || v < -q.lim.Bound || v > q.lim.Bound || strconv.Itoa(v) != q.Value {
				return ""
			}
		}
		if q.Row < -q.lim.Bound || q.Row > q.lim.Bound || q.Col < -q.lim.Bound || q.Col > q.lim.Bound {
			return ""
		}
		words = "table " + q.Name + " " + strconv.Itoa(q.Row) + " " + strconv.Itoa(q.Col) + " " + q.Value
	case "rule":
		if !ruleChoice.MatchString(q.Value) {
			return ""
		}
		words = "rule " + q.Name + " " + q.Value
	default:
		return ""
	}
	switch q.Op {
	case "rulepreview":
		return "/system try " + q.System + " " + words
	case "ruleset":
		return "/system edit " + q.System + " " + words
	}
	return ""
}
