package history

import (
	"context"
	"strings"
	"unicode/utf8"

	"zaria/core"
)

// commandLen is how much of a command the history keeps (Observe cuts
// it to 200 characters).
const commandLen = 200

// Recent reads the commands userID rolled among the chat's last n logged
// rolls, newest first (command.RecentFunc, registered by Register). A
// command the log cut short is left out: it would not run as it was.
func (s *Service) Recent(ctx context.Context, chat core.ChatRef, userID string, n int) ([]string, error) {
	rolls, err := s.store.LastRolls(ctx, chat, n)
	if err != nil {
		return nil, internal("recent rolls", err)
	}
	var out []string
	for _, r := range rolls {
		if r.UserID != userID || (strings.HasSuffix(r.Command, "…") && utf8.RuneCountInString(r.Command) >= commandLen) {
			continue
		}
		out = append(out, r.Command)
	}
	return out, nil
}
