// Command zaria is the dice-and-character bot for role-playing groups.
//
//	zaria [run] [--config FILE]   serve every configured platform (console if none)
//	zaria roll [flags] 'TEXT'     run one chat message and print the reply
//	zaria backup [--db FILE] DEST make a consistent online copy of the database
//	zaria system list|show NAME|check FILE  the game systems' files
//	zaria version
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// exitUser is the status for a user error (README "Command line"; TestRollCommandContract pins it).
const exitUser = 2

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run dispatches the sub-command and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	cmd := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "run":
		err = serve(ctx, args, stdin, stdout, stderr, getenv)
	case "roll":
		return rollCmd(ctx, args, stdout, stderr, getenv)
	case "backup":
		err = backupCmd(ctx, args, stdout, getenv)
	case "system":
		err = systemCmd(args, stdout)
	case "version":
		fmt.Fprintln(stdout, "zaria", version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "zaria: unknown command %q\n%s", cmd, usage)
		return exitUser
	}
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(stderr, "zaria:", err)
			return exitUser
		}
		slog.New(slog.NewTextHandler(stderr, nil)).Error("zaria stopped", "err", err)
		return 1
	}
	return 0
}

// usageError is a mistake on the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const usage = `zaria — dice and characters for role-playing chats

  zaria [run] [--config FILE]     serve Telegram/Matrix as configured, or a console chat
  zaria roll [--lang es|el|en] [--seed N] [--dice 4,2,6] [--json]
             [--db FILE] [--chat ID] [--user ID] [--gm=false] 'TEXT'
                                  run one chat message and print the reply
  zaria backup [--config FILE] [--db FILE] DEST
                                  consistent copy of the database while the bot runs
  zaria system list               the game systems, each with where its file comes from
  zaria system show NAME          a shipped system's file, as it is in the binary
  zaria system check FILE         check a system file: its format, limits and examples
  zaria system try [--dice 3,8] FILE|NAME 'WORDS'
                                  roll a check of a file from a chat's words, with its exact chance
  zaria version
`
