package main

import (
	"context"
	"os"
	"syscall"

	"zaria/core/command"
	"zaria/core/reply"
)

// crashHookEnv names a hidden command that kills the process the way the
// kernel's OOM killer or kill -9 would. Only the tests set it: they prove
// that a message which takes the bot down is skipped after two crashes
// instead of taking it down forever (the poison-message guarantee).
const crashHookEnv = "ZARIA_TEST_CRASH_COMMAND"

// registerCrashHook registers /<name> as a command that SIGKILLs the
// process, when the test environment asks for it.
func registerCrashHook(r *command.Router, name string) {
	if name == "" {
		return
	}
	r.Register(command.Command{
		Name:   name,
		Hidden: true,
		Handler: command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // never answered: the process is gone
		}),
	})
}
