package systems

import (
	"context"

	"zaria/core/command"
	"zaria/core/reply"
)

// sysCheck is one system command, /zaria, /daegon, /rq, /kh or /dh, as
// its steps. Every one of them runs the same skeleton (run):
//
//	in := tokenize(args)          // words; a "?" anywhere is taken off
//	missingValue(in.toks, needs)  // "dc" with no number after it: a clear error
//	c, who := read(ctx, in.toks)  // the words parsed, the sheet values read;
//	                              // who is "Drake" for "@Drake …" or "Drake …"
//	rep := roll(ctx, c)           // the dice and the reply's lines
//	forWho(rep, who)              // "Drake: 🎲 …"
//	finish(rep, charted(c))       // the buttons
//
// A system's read is also what /odds runs (OddsOf), so a check and its
// odds read the same words and the same sheets alike.
type sysCheck[T any] struct {
	// join reads "4 + 2" as the one word "4+2" (the Ζαριά's sums).
	join bool
	// needs are the keywords that take a value after them.
	needs []keyword
	// read parses the words and reads the sheet of who ("" = the sender's
	// active character).
	read func(ctx context.Context, req *command.Request, toks []string) (c T, who string, err error)
	// roll rolls the check and writes its reply, odds line last.
	roll func(ctx context.Context, req *command.Request, c T) (*reply.Reply, error)
	// charted says which checks of a Charted system have a picture to
	// draw (of /dh, only the attack); nil: every one.
	charted func(c T) bool
}

// words splits a command's arguments into its words.
func (s sysCheck[T]) words(args string) input {
	if s.join {
		args = plusSpaces.ReplaceAllString(args, "+")
	}
	return tokenize(args)
}

// run is the command's handler.
func (s sysCheck[T]) run(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	in := s.words(req.Args)
	if err := missingValue(req, in.toks, s.needs...); err != nil {
		return nil, err
	}
	c, who, err := s.read(ctx, req, in.toks)
	if err != nil {
		return nil, err
	}
	rep, err := s.roll(ctx, req, c)
	if err != nil {
		return nil, err
	}
	return finish(req, forWho(rep, who), s.charted == nil || s.charted(c)), nil
}
