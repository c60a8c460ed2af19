package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Why initData is refused. The page is told only "not signed in".
var (
	errNoHash   = errors.New("initData: no hash")
	errBadHash  = errors.New("initData: hash does not match")
	errBadDate  = errors.New("initData: no valid auth_date")
	errTooOld   = errors.New("initData: older than the allowed age")
	errNoUser   = errors.New("initData: no user")
	errMalform  = errors.New("initData: not a query string")
	errTooLarge = errors.New("initData: too long")
)

// maxInitData bounds the initData read (Telegram's are well under 2 KB).
const maxInitData = 4096

// InitData is what zaria reads of a Telegram Mini App's signed initData.
type InitData struct {
	UserID       int64
	Name         string // first and last name, or the user name
	Lang         string // the client's language_code
	StartParam   string // the startapp token of the link that opened the app
	ChatType     string // "sender", "private", "group", "supergroup", "channel"
	ChatInstance string
	AuthDate     time.Time
}

// secretKey is HMAC_SHA256(key="WebAppData", msg=token).
func secretKey(token string) []byte {
	m := hmac.New(sha256.New, []byte("WebAppData"))
	m.Write([]byte(token))
	return m.Sum(nil)
}

// dataCheckString is every field but hash, sorted by key, as k=v lines
// (signature, Bot API 8.0, stays in).
func dataCheckString(v url.Values) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		if k != "hash" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	lines := make([]string, len(keys))
	for i, k := range keys {
		lines[i] = k + "=" + v.Get(k)
	}
	return strings.Join(lines, "\n")
}

// checkSignature verifies raw's hash against token, in constant time.
func checkSignature(raw, token string) (url.Values, error) {
	if len(raw) > maxInitData {
		return nil, errTooLarge
	}
	v, err := url.ParseQuery(raw)
	if err != nil {
		return nil, errMalform
	}
	for _, vs := range v {
		if len(vs) != 1 {
			return nil, errMalform // a field given twice is not Telegram's
		}
	}
	got, err := hex.DecodeString(v.Get("hash"))
	if err != nil || len(got) != sha256.Size {
		return nil, errNoHash
	}
	m := hmac.New(sha256.New, secretKey(token))
	m.Write([]byte(dataCheckString(v)))
	if !hmac.Equal(m.Sum(nil), got) {
		return nil, errBadHash
	}
	return v, nil
}

// ValidateInitData checks raw (Telegram.WebApp.initData as the page sent
// it) against the bot token: the signature, then that auth_date is no
// older than maxAge at now (0: no age limit), then reads it.
func ValidateInitData(raw, token string, maxAge time.Duration, now time.Time) (InitData, error) {
	v, err := checkSignature(raw, token)
	if err != nil {
		return InitData{}, err
	}
	sec, err := strconv.ParseInt(v.Get("auth_date"), 10, 64)
	if err != nil || sec <= 0 {
		return InitData{}, errBadDate
	}
	at := time.Unix(sec, 0)
	if maxAge > 0 && (now.Sub(at) > maxAge || at.Sub(now) > time.Minute) {
		return InitData{}, errTooOld
	}
	var u struct {
		ID        int64  `json:"id"`
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
		UserName  string `json:"username"`
		Lang      string `json:"language_code"`
	}
	if err := json.Unmarshal([]byte(v.Get("user")), &u); err != nil || u.ID <= 0 {
		return InitData{}, errNoUser
	}
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.UserName
	}
	return InitData{UserID: u.ID, Name: name, Lang: u.Lang, StartParam: v.Get("start_param"),
		ChatType: v.Get("chat_type"), ChatInstance: v.Get("chat_instance"), AuthDate: at}, nil
}
