// Package webtest signs a Telegram Mini App's initData as Telegram does,
// for tests that play the Telegram client. It is written apart from the
// adapter's check (adapters/web), from Telegram's documentation, so a
// mistake in one is not repeated in the other.
package webtest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
)

// Sign returns raw (a query string without hash) with the hash Telegram
// would give it for the bot token: HMAC-SHA256 keyed with
// HMAC-SHA256("WebAppData", token) over every other field as sorted
// "key=value" lines.
func Sign(raw, token string) (string, error) {
	v, err := url.ParseQuery(raw)
	if err != nil {
		return "", err
	}
	v.Del("hash")
	var lines []string
	for k, vs := range v {
		for _, x := range vs {
			lines = append(lines, k+"="+x)
		}
	}
	slices.Sort(lines)
	key := hmac.New(sha256.New, []byte("WebAppData"))
	key.Write([]byte(token))
	m := hmac.New(sha256.New, key.Sum(nil))
	m.Write([]byte(strings.Join(lines, "\n")))
	v.Set("hash", hex.EncodeToString(m.Sum(nil)))
	return v.Encode(), nil
}
