package roll

import (
	"context"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
)

// commandOdds answers /odds CMD ARGS for a command that shows its own
// odds (command.Command.Odds), such as /odds tabla Encuentros: the chance
// of every row. ok is false when the first word names no such command
// (/roll's own odds are /odds EXPR).
func commandOdds(ctx context.Context, req *command.Request, args string) (rep *reply.Reply, ok bool, err error) {
	word, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	c, found := req.Router().Lookup(strings.TrimLeft(word, "/!"))
	if !found || c.Odds == nil || c.Name == "roll" || c.Name == "odds" {
		return nil, false, nil
	}
	sub := *req
	sub.Name, sub.Alias, sub.Args = c.Name, word, strings.TrimSpace(rest)
	rep, err = c.Odds.Handle(ctx, &sub)
	return rep, true, err
}
