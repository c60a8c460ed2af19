package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/systems/engine"
	"zaria/core/systems/fork"
	"zaria/i18n"
)

// systemCmd is "zaria system": list the shipped systems, print one's
// file, or check a file written offline (docs/systems-format.md). A
// refused file is a usage error (exit 2) whose message names the vector,
// the limit or the line.
func systemCmd(args []string, stdout io.Writer) error {
	const use = "usage: zaria system list | show NAME | check FILE | try [--dice 3,8] FILE|NAME 'WORDS'"
	if len(args) == 0 {
		return usageError{use}
	}
	switch args[0] {
	case "list":
		if len(args) != 1 {
			return usageError{use}
		}
		for _, k := range engine.Shipped() {
			s, err := engine.Builtin(k)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s\t/%s\t%s\tbuilt in (core/systems/engine/files/%s.yaml)\n", k, s.File.Command, s.File.Title.EN, k)
		}
		return nil
	case "show":
		if len(args) != 2 {
			return usageError{use}
		}
		b, ok := engine.ShippedSource(args[1])
		if !ok {
			return usageError{fmt.Sprintf("no system %q; zaria system list names them", args[1])}
		}
		_, err := stdout.Write(b)
		return err
	case "check":
		if len(args) != 2 {
			return usageError{use}
		}
		b, err := os.ReadFile(args[1])
		if err != nil {
			return usageError{err.Error()}
		}
		s, err := engine.Load(b)
		if err != nil {
			return usageError{args[1] + ": " + describe(err)}
		}
		fmt.Fprintf(stdout, "%s: system %s, command /%s, %d checks\n", args[1], s.File.System, s.File.Command, len(s.File.Checks))
		printForms(stdout, s)
		fmt.Fprintf(stdout, "%d vectors hold\n", s.VectorCount())
		return nil
	case "try":
		return systemTry(args[1:], stdout)
	}
	return usageError{use}
}

// printForms shows what each check reads from the chat, as the engine
// reads it from the file's inputs: "check: mod (stat 1..10 + skill
// 0..10), npc [npc pnj], dc 5..30 [dc] (ridiculous 5, …)".
func printForms(w io.Writer, s *engine.System) {
	for _, f := range s.Forms("en") {
		var parts []string
		for _, fd := range f.Fields {
			parts = append(parts, fieldText(fd))
		}
		if len(parts) == 0 {
			parts = []string{"no words"} // Dungeon Hack's mount: a d20, nothing typed
		}
		fmt.Fprintf(w, "  %s: %s\n", f.Check, strings.Join(parts, ", "))
	}
}

func fieldText(fd engine.Field) string {
	var b strings.Builder
	b.WriteString(fd.Key)
	switch fd.Kind {
	case "flag":
		fmt.Fprintf(&b, " [%s]", strings.Join(fd.Words, " "))
		return b.String()
	case "terms":
		var ps []string
		for _, p := range fd.Parts {
			ps = append(ps, fmt.Sprintf("%s %d..%d", p.Label, p.Min, p.Max))
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(ps, " + "))
	default:
		fmt.Fprintf(&b, " %d..%d", fd.Min, fd.Max)
	}
	if len(fd.Words) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(fd.Words, " "))
	}
	if fd.Default != nil {
		fmt.Fprintf(&b, " default %d", *fd.Default)
	}
	if fd.Optional {
		b.WriteString(" optional")
	}
	if len(fd.Choices) > 0 {
		var cs []string
		for _, c := range fd.Choices {
			cs = append(cs, fmt.Sprintf("%s %d", c.Label, c.Value))
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(cs, ", "))
	}
	return b.String()
}

// systemTry is "zaria system try [--dice 3,8] FILE|NAME 'WORDS'": a
// check of a file (a shipped system's name, or a file written offline)
// read from the chat's words as the engine reads them, rolled (the given
// dice, or random ones) and its exact chance. A sheet key is refused: no
// sheet is read.
func systemTry(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("system try", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	diceFlag := fs.String("dice", "", "the dice, in the order the file rolls them")
	if err := fs.Parse(args); err != nil || fs.NArg() != 2 {
		return usageError{"usage: zaria system try [--dice 3,8] FILE|NAME 'WORDS'"}
	}
	s, err := engine.Builtin(fs.Arg(0))
	if err != nil {
		b, rerr := os.ReadFile(fs.Arg(0))
		if rerr != nil {
			return usageError{fmt.Sprintf("no system or file %q", fs.Arg(0))}
		}
		if s, err = engine.Load(b); err != nil {
			return usageError{fs.Arg(0) + ": " + describe(err)}
		}
	}
	p, err := s.ParseWords(strings.Fields(fs.Arg(1)))
	if err != nil {
		return usageError{wordsRefusal(s, err)}
	}
	// No chat, no sheet: a word read as a sheet key is refused, as the
	// chat refuses a value its sheet lacks.
	noSheet := func(key string) (int, error) {
		return 0, fmt.Errorf("no value «%s»: system try reads no sheet; type the number instead", key)
	}
	if _, err := s.Resolve(&p.Active, noSheet); err != nil {
		return usageError{wordsRefusal(s, err)}
	}
	if p.Passive != nil {
		if _, err := s.Resolve(p.Passive, noSheet); err != nil {
			return usageError{wordsRefusal(s, err)}
		}
	}
	pr := s.Params(p)
	if err := s.Require(p.Check, pr); err != nil {
		return usageError{describe(err)}
	}
	var src dice.Source = dice.NewSource()
	var script *dice.Scripted
	if *diceFlag != "" {
		var faces []int
		for _, f := range strings.Split(*diceFlag, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return usageError{"--dice: " + err.Error()}
			}
			faces = append(faces, n)
		}
		script = dice.NewScripted(faces)
		src = script
	}
	res, err := s.Roll(p.Check, pr, src)
	if err == nil && script != nil {
		err = script.Err()
	}
	if err != nil {
		return usageError{describe(err)}
	}
	fmt.Fprintf(stdout, "%s %v: dice %v", p.Check, pr.Inputs, res.Dice)
	if res.Total != nil {
		fmt.Fprintf(stdout, ", total %s", res.Total.RatString())
	}
	if res.Outcome != "" {
		fmt.Fprintf(stdout, ", %s", res.Outcome)
	}
	for _, k := range slices.Sorted(maps.Keys(res.Also)) { // further results: "glitch glitch"
		fmt.Fprintf(stdout, ", %s %s", k, res.Also[k])
	}
	if res.Level != nil {
		fmt.Fprintf(stdout, ", level %d", *res.Level)
	}
	if res.Winner != "" {
		fmt.Fprintf(stdout, ", %s wins", res.Winner)
	}
	chance, exact, err := s.Chance(p.Check, pr)
	if err != nil {
		return err
	}
	// No outcome at all (no band applies: an optional target left out):
	// the chat gives no chance, and neither does try.
	if res.Outcome == "" && chance.Sign() == 0 {
		fmt.Fprintln(stdout, "\nno chance of success: no outcome applies")
		return nil
	}
	mark := "="
	if !exact {
		mark = "≈"
	}
	fmt.Fprintf(stdout, "\nchance %s %s\n", mark, chance.RatString())
	return nil
}

// wordsRefusal is what a chat in English answers to words the check
// cannot read: the input out of range, the word that fits nothing.
func wordsRefusal(s *engine.System, err error) string {
	var ue *command.UserError
	if !errors.As(fork.WordsError("en", s, err), &ue) {
		return describe(err)
	}
	cat, cerr := i18n.Load()
	if cerr != nil {
		return err.Error()
	}
	return cat.Translate("en", ue.Key, ue.Args)
}

// describe renders a refusal in English from the catalog: a file's, or
// a check's inputs that break one of its requirements.
func describe(err error) string {
	var e *engine.Error
	var un *engine.Unmet
	if !errors.As(err, &e) && !errors.As(err, &un) {
		return err.Error()
	}
	cat, cerr := i18n.Load()
	if cerr != nil {
		return err.Error()
	}
	if un != nil {
		key, args := un.Message("en")
		return cat.Translate("en", key, args)
	}
	return cat.Translate("en", e.Key, e.Vars())
}
