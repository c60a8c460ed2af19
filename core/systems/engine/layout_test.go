package engine

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"zaria/core/dice"
	"zaria/i18n"
)

// withReply is the base file with a show section whose reply lists lines.
func withReply(lines string) string {
	return strings.Replace(base, "vectors:\n", "show:\n  reply:\n"+lines+"vectors:\n", 1)
}

// baseLayout writes the roll, the total bold, the outcome and a note
// for a natural 20, and the target only when given above 10.
const baseLayout = `    - spans:
        - parts:
            - {text: "🎲 "}
            - {value: {as: dice, pools: [d]}}
            - {before: " ", value: {as: signed, of: bonus}}
            - {text: " = "}
        - {style: bold, parts: [{value: {as: total}}]}
        - if: target > 10
          parts: [{before: " · ", say: ro.target, args: {tn: {of: target}, margin: {as: number, of: total - target}}}]
    - outcome: [critical, success]
      spans: [{style: bold, parts: [{value: {as: outcome}}]}]
    - outcome: [failure]
      spans: [{style: italic, parts: [{value: {as: outcome}}]}]
    - if: total - bonus == 20
      spans: [{parts: [{say: ro.note}]}]
`

// A layout writes each line it declares, span by span with its style,
// leaves out what its conditions leave out, and names a message's args.
func TestLayoutRenders(t *testing.T) {
	s, err := Load([]byte(withReply(baseLayout)))
	if err != nil {
		t.Fatal(err)
	}
	tr := func(key string, args map[string]any) string {
		ks := make([]string, 0, len(args))
		for k := range args {
			ks = append(ks, k+"="+fmt.Sprint(args[k]))
		}
		sort.Strings(ks)
		return key + "(" + strings.Join(ks, ",") + ")"
	}
	for _, c := range []struct {
		words string
		faces []int
		want  string
	}{
		{"-3 tn12", []int{20}, `"🎲 20 −3 = " bold"17" " · ro.target(margin=5,tn=12)" | bold"crítico" | "ro.note()"`},
		{"2", []int{5}, `"🎲 5 +2 = " bold"7" | italic"fallo"`},
		{"0 tn15", []int{3}, `"🎲 3 0 = " bold"3" " · ro.target(margin=−12,tn=15)" | italic"fallo"`},
	} {
		p, err := s.Parse(strings.Fields(c.words))
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Roll(p.Check, s.Params(p), dice.NewScripted(c.faces))
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, l := range s.Layout(res, p, s.Params(p), ReplyIn{Lang: "es", T: tr}) {
			var spans []string
			for _, sp := range l {
				spans = append(spans, fmt.Sprintf("%s%q", sp.Style, sp.Text))
			}
			lines = append(lines, strings.Join(spans, " "))
		}
		if got := strings.Join(lines, " | "); got != c.want {
			t.Errorf("%s %v:\n got %s\nwant %s", c.words, c.faces, got, c.want)
		}
	}
}

// A layout is checked when the file loads: what it names must exist,
// each refusal naming the line; and its limits hold.
func TestLayoutRefusals(t *testing.T) {
	for _, c := range []struct{ name, lines, want string }{
		{"unknown let", "    - spans: [{parts: [{value: {of: margen}}]}]\n", `reply line 1`},
		{"unknown let named", "    - spans: [{parts: [{value: {of: margen}}]}]\n", `margen`},
		{"unknown formatter", "    - spans: [{parts: [{value: {as: roman, of: total}}]}]\n", `no formatter "roman"`},
		{"unknown pool", "    - spans: [{parts: [{value: {as: dice, pools: [x]}}]}]\n", `no pool "x"`},
		{"a word as text", "    - spans: [{parts: [{text: \"total \"}]}]\n", `catalog message`},
		{"not a catalog key", "    - spans: [{parts: [{say: Total}]}]\n", `catalog key`},
		{"unknown outcome", "    - {outcome: [win], spans: [{parts: [{text: \"!\"}]}]}\n", `no outcome "win"`},
		{"unknown check", "    - {checks: [other], spans: [{parts: [{text: \"!\"}]}]}\n", `no check "other"`},
		{"bad style", "    - spans: [{style: red, parts: [{text: \"!\"}]}]\n", `style`},
		{"two kinds", "    - spans: [{parts: [{text: \"!\", say: ro.x}]}]\n", `one of text, say or value`},
		{"unknown field", "    - spans: [{parts: [{text: \"!\", colour: red}]}]\n", `colour`},
		{"parts within parts", "    - spans: [{parts: [{value: {parts: [{value: {parts: [{text: \"!\"}]}}]}}]}]\n", `parts within parts`},
		{"missing no input", "    - {missing: [tn], spans: [{parts: [{text: \"!\"}]}]}\n", `missing: no input "tn"`},
		{"a word of two letters", "    - spans: [{parts: [{text: \"ok\"}]}]\n", `catalog message`},
		{"cap not named", "    - spans: [{parts: [{value: {as: int, of: bonus, cap: true}}]}]\n", `no cap`},
		{"exact not named", "    - spans: [{parts: [{value: {as: int, of: bonus, exact: true}}]}]\n", `no exact or say`},
		{"chance of nothing", "    - spans: [{parts: [{value: {as: chance, of: win}}]}]\n", `as chance`},
		{"unknown input given", "    - spans: [{parts: [{given: [tn], text: \"!\"}]}]\n", `no input "tn"`},
		{"second line named", "    - spans: [{parts: [{text: \"!\"}]}]\n    - spans: [{parts: [{value: {as: named, of: bonus}}]}]\n", `reply line 2`},
	} {
		_, err := Load([]byte(withReply(c.lines)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %q", c.name, err, c.want)
		}
	}
	if _, err := Load([]byte(withReply(baseLayout))); err != nil {
		t.Errorf("the base layout: %v", err)
	}
}

func TestLayoutLimits(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	line := "    - spans: [{parts: [{text: \"!\"}]}]\n"
	for _, c := range []struct {
		limit string
		max   int
		lines string
	}{
		{"reply_lines", MaxReplyLines, strings.Repeat(line, MaxReplyLines+1)},
		{"show_list", MaxShowList, "    - spans: [" + strings.Repeat("{parts: [{text: \"!\"}]},", MaxShowList+1) + "]\n"},
		{"reply_parts", MaxReplyParts, "    - spans: [{parts: [" + strings.Repeat("{text: \"!\"},", MaxReplyParts+1) + "]}]\n"},
		{"reply_parts", MaxReplyParts, "    - spans: [{parts: [{value: {parts: [" + strings.Repeat("{text: \"!\"},", MaxReplyParts+1) + "]}}]}]\n"},
		{"show_text", MaxShowText, "    - spans: [{parts: [{text: \"" + strings.Repeat("!", MaxShowText+1) + "\"}]}]\n"},
	} {
		_, err := Load([]byte(withReply(c.lines)))
		var e *Error
		if !errors.As(err, &e) || e.Key != "engine.limit."+c.limit {
			t.Errorf("%s: got %v", c.limit, err)
			continue
		}
		for _, lang := range []string{"es", "el", "en"} {
			if msg := cat.Translate(lang, e.Key, e.Vars()); !strings.Contains(msg, fmt.Sprint(c.max)) {
				t.Errorf("%s in %s: %q", c.limit, lang, msg)
			}
		}
	}
	if _, err := Load([]byte(withReply(strings.Repeat(line, MaxReplyLines)))); err != nil {
		t.Errorf("%d lines: %v", MaxReplyLines, err)
	}
}

// The half formatter writes a whole or half number in the chat's
// language; signed_half with its sign.
func TestHalfAndSigned(t *testing.T) {
	for _, c := range []struct {
		v2     int
		es, en string
	}{{15, "7,5", "7.5"}, {14, "7", "7"}, {-9, "-4,5", "-4.5"}, {-1, "-0,5", "-0.5"}, {0, "0", "0"}} {
		if got := halfText("es", c.v2); got != c.es {
			t.Errorf("half(es, %d) = %q", c.v2, got)
		}
		if got := halfText("en", c.v2); got != c.en {
			t.Errorf("half(en, %d) = %q", c.v2, got)
		}
	}
	if SignedText("-4,5") != "−4,5" || SignedText("3") != "+3" || SignedText("0") != "0" {
		t.Error("signed")
	}
}

// cap writes a named value's name with its first letter upper case, as
// a line begins (Dungeon Hack's «Armadura de bandas: se hunde…»).
func TestLayoutCap(t *testing.T) {
	s := MustBuiltin("dh")
	pr := Params{Inputs: map[string]int{"round": 12, "armour": 11}}
	res, err := s.Roll("drown", pr, dice.NewScripted(nil))
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"es": "Armadura de bandas", "el": "Πανοπλία με λάμες", "en": "Banded mail"} {
		var args []string
		tr := func(key string, a map[string]any) string {
			if v, ok := a["armour"]; ok {
				args = append(args, fmt.Sprint(v))
			}
			return key
		}
		s.Layout(res, &Parsed{Check: "drown"}, pr, ReplyIn{Lang: lang, T: tr})
		if len(args) != 1 || args[0] != want {
			t.Errorf("%s: armour %q, want %q", lang, args, want)
		}
	}
}

// A name the bot gives is written where it is given, with the texts
// before and after it, and left out with them where it is not; a
// check's command is written as the user types commands, in the chat's
// language, with the prefix typed.
func TestLayoutNamesAndCommands(t *testing.T) {
	s, err := Load([]byte(withReply(`    - spans:
        - parts:
            - {before: "@", after: ": ", value: {as: name, of: who}}
            - {value: {as: command, check: check, add: tn15}}
`)))
	if err != nil {
		t.Fatal(err)
	}
	pr := Params{Inputs: map[string]int{"bonus": 1}}
	res, err := s.Roll("check", pr, dice.NewScripted([]int{7}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang, prefix string
		names        map[string]string
		want         string
	}{
		{"es", "", map[string]string{"who": "Drake"}, "@Drake: /ro tirada tn15"},
		{"el", "!", map[string]string{"who": "Δράκος"}, "@Δράκος: !ro ρίψη tn15"},
		{"en", "/", nil, "/ro check tn15"},
		{"en", "/", map[string]string{"other": "Drake"}, "/ro check tn15"},
	} {
		lines := s.Layout(res, &Parsed{Check: "check"}, pr, ReplyIn{Lang: c.lang, Prefix: c.prefix, Names: c.names, T: func(k string, _ map[string]any) string { return k }})
		if len(lines) != 1 || len(lines[0]) != 1 || lines[0][0].Text != c.want {
			t.Errorf("%s %v: %+v, want %q", c.lang, c.names, lines, c.want)
		}
	}
	for _, c := range []struct{ name, lines, want string }{
		{"a name's key", "    - spans: [{parts: [{value: {as: name, of: Who}}]}]\n", `as name`},
		{"a name of pools", "    - spans: [{parts: [{value: {as: name, of: who, pools: [d]}}]}]\n", `as name`},
		{"no check", "    - spans: [{parts: [{value: {as: command, check: other}}]}]\n", `no check "other"`},
		{"check not a command", "    - spans: [{parts: [{value: {as: int, of: bonus, check: check}}]}]\n", `no check`},
		{"a word after", "    - spans: [{parts: [{after: \" ok\", value: {as: name, of: who}}]}]\n", `catalog message`},
	} {
		if _, err := Load([]byte(withReply(c.lines))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %q", c.name, err, c.want)
		}
	}
}
