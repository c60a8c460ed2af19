package telegram

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/internal/backoff"
)

// What every inbound path shares: who sent an update, and the answers
// that cannot wait in the send queue (a press's toast or pop-up, an
// inline query's results), made at once with one short retry. A press
// (buttons.go, pads.go, inline.go) finds here all it needs besides the
// core and the outbound side, and never returns to handle.go.

// sender of a message as the core sees it.
type who struct {
	id      string
	name    string
	numeric int64 // Telegram user id, 0 for a chat posting as itself
	lang    string
}

func userOf(u *tgbotapi.User) who {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.UserName
	}
	return who{id: strconv.FormatInt(u.ID, 10), name: name, numeric: u.ID, lang: u.LanguageCode}
}

// answerCallback stops the button's spinner (Telegram waits about 15 s)
// and shows text as a toast, cut to Telegram's 0-200 characters
// (maxToast; TestToastCutToTelegramsLimit).
func (a *inbound) answerCallback(ctx context.Context, id, text string) {
	p := map[string]string{"callback_query_id": id}
	if text != "" {
		p["text"] = clip16(text, maxToast)
	}
	a.quickCall(ctx, "answerCallbackQuery", p)
}

// answerAlert answers a press with a pop-up the presser must close
// (show_alert), text cut to Telegram's 200 characters.
func (a *inbound) answerAlert(ctx context.Context, id, text string) {
	a.quickCall(ctx, "answerCallbackQuery", map[string]string{"callback_query_id": id, "text": clip16(text, maxToast), "show_alert": "true"})
}

// quickCall makes a call that only matters for a few seconds (callback and
// inline answers): one retry after a short retry_after, then give up.
func (a *inbound) quickCall(ctx context.Context, method string, p map[string]string) {
	for try := 0; try < 2; try++ {
		rctx, cancel := context.WithTimeout(ctx, min(a.cfg.RequestTimeout, 10*time.Second))
		_, err := a.c.call(rctx, method, p, nil)
		cancel()
		if err == nil {
			return
		}
		d, ok := retryAfter(err)
		if !ok || d > 5*time.Second || try == 1 {
			a.log.Warn("telegram "+method+" failed", "err", err)
			return
		}
		if backoff.Sleep(ctx, d) != nil {
			return
		}
	}
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// clip16 is clip counting UTF-16 code units, as Telegram counts
// characters (an emoji outside the BMP is two).
func clip16(s string, n int) string {
	if utf16Len(s) <= n {
		return s
	}
	used := utf16Len("…")
	for i, r := range s {
		if used+utf16.RuneLen(r) > n {
			return s[:i] + "…"
		}
		used += utf16.RuneLen(r)
	}
	return s
}
