package command

import (
	"context"
	"strings"

	"zaria/core"
)

// RecentFunc reads up to n of the commands userID rolled last in chat,
// newest first (the same command may come more than once).
type RecentFunc func(ctx context.Context, chat core.ChatRef, userID string, n int) ([]string, error)

// HandleRecent sets where Recent reads a user's last rolls: core/history
// registers its store. A second call replaces the first.
func (r *Router) HandleRecent(f RecentFunc) { r.recent = f }

// MaxRecent is the most commands Recent returns.
const MaxRecent = 20

// recentScan is how many of a user's logged rolls Recent reads to find n
// distinct ones.
const recentScan = 50

// Recent lists the distinct commands msg.From rolled last in msg.Chat,
// newest first, at most n (see core.Port). Nothing without a roll
// history; a failure to read it is logged and gives nothing.
func (r *Router) Recent(ctx context.Context, msg core.Message, n int) []string {
	if r.recent == nil || n <= 0 {
		return nil
	}
	n = min(n, MaxRecent)
	cmds, err := r.recent(ctx, msg.Chat, msg.From.ID, recentScan)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "recent rolls", "chat", msg.Chat.String(), "err", err)
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range cmds {
		c = strings.TrimSpace(c)
		if c == "" || seen[c] || (c[0] != '/' && c[0] != '!') {
			continue
		}
		seen[c] = true
		out = append(out, c)
		if len(out) == n {
			break
		}
	}
	return out
}
