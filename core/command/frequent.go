package command

import (
	"context"
	"sort"
	"strings"

	"zaria/core"
)

// Frequent lists the commands msg.From rolled most often among their last
// rolls in msg.Chat (the roll history: never a secret roll or an error),
// most made first, ties newest first, at most n. Nothing without a roll
// history.
func (r *Router) Frequent(ctx context.Context, msg core.Message, n int) []string {
	if r.recent == nil || n <= 0 {
		return nil
	}
	cmds, err := r.recent(ctx, msg.Chat, msg.From.ID, recentScan)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "frequent rolls", "chat", msg.Chat.String(), "err", err)
		return nil
	}
	count := map[string]int{}
	var order []string // distinct, newest first
	for _, c := range cmds {
		if strings.TrimSpace(c) == "" {
			continue // nothing to run again (and no button without text)
		}
		if count[c] == 0 {
			order = append(order, c)
		}
		count[c]++
	}
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] > count[order[j]] })
	return order[:min(n, len(order))]
}
