package command

import (
	"context"

	"zaria/core/reply"
)

// Hints: replies and errors often suggest a command ("{{.pre}}pj set
// fuerza 4"). They name it as the user types it, after the prefix the user
// typed: "!" on Matrix, "/" on Telegram, the chat's own prefix where one
// is set. The handlers of every package get these arguments here.

// TypedPrefix is the command prefix the user typed ("/", "!" or the chat's
// own), for the commands a reply suggests; "/" when there is none (the
// command line, a handler called directly).
func (r *Request) TypedPrefix() string {
	if r.Prefix == "" {
		return "/"
	}
	return r.Prefix
}

// TP is T with the typed prefix as the argument "pre".
func (r *Request) TP(key string, kv ...any) string {
	return r.T(key, append(kv, "pre", r.TypedPrefix())...)
}

// PrefixHint gives the argument "pre": the prefix the user typed.
func PrefixHint(req *Request) []any { return []any{"pre", req.TypedPrefix()} }

// Hint adds kv (alternating names and values) to the arguments of err when
// it is a *UserError, leaving alone the names it already has. It returns
// err.
func Hint(err error, kv ...any) error {
	ue, ok := AsUserError(err)
	if !ok {
		return err
	}
	if ue.Args == nil {
		ue.Args = map[string]any{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		name, _ := kv[i].(string)
		if _, set := ue.Args[name]; !set {
			ue.Args[name] = kv[i+1]
		}
	}
	return err
}

// WithHints makes h's user errors carry the arguments hints gives for the
// request (see Hint), so that they name commands as the user types them.
func WithHints(h HandlerFunc, hints func(*Request) []any) HandlerFunc {
	return func(ctx context.Context, req *Request) (*reply.Reply, error) {
		rep, err := h(ctx, req)
		return rep, Hint(err, hints(req)...)
	}
}
