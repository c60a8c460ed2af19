package web

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"zaria/adapters/web/webtest"
)

// The example published by docs.telegram-mini-apps.com (signed by
// Telegram for that token in 2022).
const (
	publishedToken = "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8"
	publishedData  = "query_id=AAHdF6IQAAAAAN0XohDhrOrc" +
		"&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D" +
		"&auth_date=1662771648" +
		"&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2"
)

func TestInitDataPublishedVector(t *testing.T) {
	signedAt := time.Unix(1662771648, 0)
	id, err := ValidateInitData(publishedData, publishedToken, time.Hour, signedAt.Add(time.Minute))
	if err != nil {
		t.Fatalf("the published example is refused: %v", err)
	}
	if id.UserID != 279058397 || id.Name != "Vladislav Kibenko" || id.Lang != "ru" {
		t.Errorf("read %+v", id)
	}
	// The same data an hour and a second later: too old.
	if _, err := ValidateInitData(publishedData, publishedToken, time.Hour, signedAt.Add(time.Hour+time.Second)); !errors.Is(err, errTooOld) {
		t.Errorf("replayed after its age: %v, want errTooOld", err)
	}
	// Another bot's token.
	if _, err := ValidateInitData(publishedData, "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx9", 0, signedAt); !errors.Is(err, errBadHash) {
		t.Errorf("another token: %v, want errBadHash", err)
	}
}

// sign makes initData as Telegram would for token.
func sign(t *testing.T, fields url.Values, token string) string {
	t.Helper()
	s, err := webtest.Sign(fields.Encode(), token)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInitDataTampering(t *testing.T) {
	const token = "123456:TEST-token"
	now := time.Unix(1_800_000_000, 0)
	fields := url.Values{
		"user":        {`{"id":42,"first_name":"Ana","language_code":"es"}`},
		"auth_date":   {"1800000000"},
		"start_param": {"AAAAAAAAAAAAAAAAAAAAAA"},
		"chat_type":   {"supergroup"},
		"signature":   {"c2lnbmF0dXJl"},
	}
	good := sign(t, fields, token)
	if id, err := ValidateInitData(good, token, time.Hour, now); err != nil || id.UserID != 42 || id.StartParam != "AAAAAAAAAAAAAAAAAAAAAA" {
		t.Fatalf("locally signed initData: %+v, %v", id, err)
	}
	// The pairs in another order are the same data (Telegram's check
	// sorts them): still valid.
	parts := strings.Split(good, "&")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	if _, err := ValidateInitData(strings.Join(parts, "&"), token, time.Hour, now); err != nil {
		t.Errorf("pairs reordered: %v", err)
	}
	cases := map[string]func(v url.Values){
		"forged start_param":        func(v url.Values) { v.Set("start_param", "BBBBBBBBBBBBBBBBBBBBBB") },
		"forged user id":            func(v url.Values) { v.Set("user", `{"id":43,"first_name":"Ana","language_code":"es"}`) },
		"user's fields reordered":   func(v url.Values) { v.Set("user", `{"first_name":"Ana","id":42,"language_code":"es"}`) },
		"auth_date moved":           func(v url.Values) { v.Set("auth_date", "1800000100") },
		"signature dropped":         func(v url.Values) { v.Del("signature") },
		"field added":               func(v url.Values) { v.Set("chat_instance", "1") },
		"values swapped":            func(v url.Values) { v.Set("chat_type", v.Get("start_param")); v.Set("start_param", "supergroup") },
		"hash of another":           func(v url.Values) { v.Set("hash", strings.Repeat("0", 64)) },
		"no hash":                   func(v url.Values) { v.Del("hash") },
		"a field given twice":       func(v url.Values) { v.Add("start_param", "CCCCCCCCCCCCCCCCCCCCCC") },
		"hash not hex":              func(v url.Values) { v.Set("hash", "zz") },
		"hash upper-case, one flip": func(v url.Values) { h := []byte(v.Get("hash")); h[0] ^= 1; v.Set("hash", string(h)) },
	}
	for name, change := range cases {
		v, _ := url.ParseQuery(good)
		change(v)
		if _, err := ValidateInitData(v.Encode(), token, time.Hour, now); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Replayed after the configured age, or dated in the future.
	if _, err := ValidateInitData(good, token, time.Hour, now.Add(61*time.Minute)); !errors.Is(err, errTooOld) {
		t.Errorf("replayed 61 min later: %v", err)
	}
	if _, err := ValidateInitData(good, token, time.Hour, now.Add(-2*time.Minute)); !errors.Is(err, errTooOld) {
		t.Errorf("dated 2 min ahead: %v", err)
	}
	// Garbage never panics and is never accepted.
	for _, raw := range []string{"", "%", "hash=", "&&&", strings.Repeat("a=b&", 2000), "user=%7B&hash=" + strings.Repeat("a", 64)} {
		if _, err := ValidateInitData(raw, token, time.Hour, now); err == nil {
			t.Errorf("%.40q accepted", raw)
		}
	}
}

func FuzzInitData(f *testing.F) {
	f.Add(publishedData)
	f.Add("auth_date=1&hash=00")
	f.Fuzz(func(t *testing.T, raw string) {
		_, _ = ValidateInitData(raw, publishedToken, time.Hour, time.Unix(1662771648, 0))
	})
}
