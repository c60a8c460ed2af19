package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// APIError is an answer of the Bot API with ok=false (or an HTTP error with
// no Bot API body).
type APIError struct {
	Method      string
	Code        int // error_code, or the HTTP status
	Description string
	RetryAfter  time.Duration // from parameters.retry_after (429)
	MigrateTo   int64         // from parameters.migrate_to_chat_id
}

func (e *APIError) Error() string {
	return fmt.Sprintf("telegram %s: %d %s", e.Method, e.Code, e.Description)
}

// netError is a failed HTTP exchange. Its text never contains the token:
// url.Error would print the whole URL, and the token is part of it.
type netError struct {
	method string
	msg    string
	err    error // the cause without the URL
}

func (e *netError) Error() string { return "telegram " + e.method + ": " + e.msg }
func (e *netError) Unwrap() error { return e.err }

// document is a file to upload: the document of sendDocument, or the
// photo of sendPhoto (Field "photo").
type document struct {
	Field string `json:"k,omitempty"` // the form field; default "document"
	Name  string `json:"n"`
	MIME  string `json:"t,omitempty"` // its Content-Type; default application/octet-stream
	Data  []byte `json:"d"`
}

// client makes Bot API calls.
type client struct {
	base  string // https://api.telegram.org
	token string
	http  *http.Client
}

func newClient(base, token string, hc *http.Client) *client {
	if hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 64
		hc = &http.Client{Transport: tr}
	}
	return &client{base: base, token: token, http: hc}
}

func (c *client) redact(s string) string {
	if c.token == "" {
		return s
	}
	s = strings.ReplaceAll(s, c.token, "<token>")
	if q := url.PathEscape(c.token); q != c.token {
		s = strings.ReplaceAll(s, q, "<token>") // quoted from a URL
	}
	if q := url.QueryEscape(c.token); q != c.token {
		s = strings.ReplaceAll(s, q, "<token>")
	}
	return s
}

// call posts params (and an optional document) to method and returns the
// result field. The context bounds the whole exchange.
func (c *client) call(ctx context.Context, method string, params map[string]string, doc *document) (json.RawMessage, error) {
	var body io.Reader
	var ctype string
	if doc == nil {
		v := url.Values{}
		for k, x := range params {
			v.Set(k, x)
		}
		body = strings.NewReader(v.Encode())
		ctype = "application/x-www-form-urlencoded"
	} else {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		for k, x := range params {
			if err := w.WriteField(k, x); err != nil {
				return nil, fmt.Errorf("telegram %s: %w", method, err)
			}
		}
		field, mime := doc.Field, doc.MIME
		if field == "" {
			field = "document"
		}
		if mime == "" {
			mime = "application/octet-stream"
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, field, doc.Name))
		h.Set("Content-Type", mime)
		fw, err := w.CreatePart(h)
		if err != nil {
			return nil, fmt.Errorf("telegram %s: %w", method, err)
		}
		if _, err := fw.Write(doc.Data); err != nil {
			return nil, fmt.Errorf("telegram %s: %w", method, err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("telegram %s: %w", method, err)
		}
		body = &buf
		ctype = w.FormDataContentType()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/bot"+c.token+"/"+method, body)
	if err != nil {
		return nil, &netError{method: method, msg: c.redact(err.Error())}
	}
	req.Header.Set("Content-Type", ctype)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.wrapNet(method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, c.wrapNet(method, err)
	}
	var ar tgbotapi.APIResponse
	if err := json.Unmarshal(raw, &ar); err != nil {
		code := resp.StatusCode
		if code == http.StatusOK {
			code = http.StatusBadGateway // a proxy's page, not the Bot API: try again
		}
		return nil, &APIError{Method: method, Code: code, Description: "answer is not Bot API JSON"}
	}
	if !ar.Ok {
		e := &APIError{Method: method, Code: ar.ErrorCode, Description: c.redact(ar.Description)}
		if e.Code == 0 {
			e.Code = resp.StatusCode
			if e.Code == http.StatusOK {
				e.Code = http.StatusBadGateway
			}
		}
		if p := ar.Parameters; p != nil {
			e.RetryAfter = time.Duration(p.RetryAfter) * time.Second
			e.MigrateTo = p.MigrateToChatID
		}
		return nil, e
	}
	return ar.Result, nil
}

// wrapNet turns a transport error into one that names the method and not
// the URL.
func (c *client) wrapNet(method string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &netError{method: method, msg: c.redact(err.Error()), err: err}
}

// callJSON is call followed by decoding the result into out.
func (c *client) callJSON(ctx context.Context, method string, params map[string]string, out any) error {
	raw, err := c.call(ctx, method, params, nil)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("telegram %s: decode result: %w", method, err)
	}
	return nil
}

// download fetches a file from the Bot API file endpoint, at most max bytes.
// It reports tooBig when the file is larger.
func (c *client) download(ctx context.Context, filePath string, max int64) (data []byte, tooBig bool, err error) {
	u := c.base + "/file/bot" + c.token + "/" + strings.TrimLeft(filePath, "/")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, false, &netError{method: "download", msg: c.redact(err.Error())}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, false, c.wrapNet("download", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, false, &APIError{Method: "download", Code: resp.StatusCode, Description: http.StatusText(resp.StatusCode)}
	}
	data, err = io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, false, c.wrapNet("download", err)
	}
	if int64(len(data)) > max {
		return nil, true, nil
	}
	return data, false, nil
}

// Kinds of failure, for the retry policy.

func retryAfter(err error) (time.Duration, bool) {
	var ae *APIError
	if errors.As(err, &ae) && ae.Code == http.StatusTooManyRequests {
		d := ae.RetryAfter
		if d <= 0 {
			d = time.Second
		}
		return d, true
	}
	return 0, false
}

// permanent reports errors that repeating the same request cannot fix
// (4xx other than 429).
func permanent(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Code >= 400 && ae.Code < 500 && ae.Code != http.StatusTooManyRequests
	}
	return false
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
