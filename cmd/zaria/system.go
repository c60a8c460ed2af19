package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"zaria/core/systems/engine"
	"zaria/i18n"
)

// systemCmd is "zaria system": list the shipped systems, print one's
// file, or check a file written offline (docs/systems-format.md). A
// refused file is a usage error (exit 2) whose message names the vector,
// the limit or the line.
func systemCmd(args []string, stdout io.Writer) error {
	const use = "usage: zaria system list | show NAME | check FILE"
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
		fmt.Fprintf(stdout, "%d vectors hold\n", s.VectorCount())
		return nil
	}
	return usageError{use}
}

// describe renders a refusal in English from the catalog.
func describe(err error) string {
	var e *engine.Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	cat, cerr := i18n.Load()
	if cerr != nil {
		return err.Error()
	}
	return cat.Translate("en", e.Key, e.Vars())
}
