package matrix

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"

	"zaria/adapters/chart"
)

func chartConfig(c *Config) { c.Charts = RendererFunc(chart.PNG) }

// TestOddsPicture: "!odds 3d6" in a plain and in an encrypted room is
// answered with the text (mean 10.5) and, after it, an m.image of the
// distribution: uploaded to the media repository (encrypted as an
// attachment in the encrypted room, so the homeserver holds no PNG),
// with mimetype, size, width and height in info and the chart in
// characters as body. The person's client downloads it, decrypts it and
// decodes the PNG: its size is the one announced.
func TestOddsPicture(t *testing.T) {
	for _, encrypted := range []bool{false, true} {
		name := "plain"
		if encrypted {
			name = "encrypted"
		}
		t.Run(name, func(t *testing.T) {
			hs := startServer(t, optsNone)
			alice := newUser(t, hs, "alice", encrypted)
			startBot(t, hs, newRouter(t), botOpts{crypto: encrypted, cfg: chartConfig})
			room := alice.createRoom(encrypted, botID())
			alice.waitJoined(room, botID())
			time.Sleep(200 * time.Millisecond)
			cmd := alice.say(room, "!odds 3d6")
			text := alice.waitFor("text reply", wait, replyTo(botID(), cmd)).Content.AsMessage()
			if !strings.Contains(text.Body, "10.5") {
				t.Errorf("text reply = %q, want the mean 10.5", text.Body)
			}
			img := alice.waitFor("picture", wait, func(e *event.Event) bool {
				if e.Sender != botID() || e.Type != event.EventMessage {
					return false
				}
				c := e.Content.AsMessage()
				return c.MsgType == event.MsgImage && c.RelatesTo != nil && c.RelatesTo.InReplyTo != nil && c.RelatesTo.InReplyTo.EventID == cmd
			})
			if img.Mautrix.WasEncrypted != encrypted {
				t.Errorf("picture event encrypted = %v, want %v", img.Mautrix.WasEncrypted, encrypted)
			}
			c := img.Content.AsMessage()
			if c.Info == nil || c.Info.MimeType != "image/png" || c.Info.Width == 0 || c.Info.Height == 0 {
				t.Fatalf("picture info = %+v, want mimetype, size, w, h", c.Info)
			}
			if c.Body == "" || c.Body == "odds.png" {
				t.Errorf("picture body = %q, want the chart as text", c.Body)
			}
			uri := c.URL
			if encrypted {
				if c.File == nil || c.URL != "" {
					t.Fatalf("encrypted room: file %v, url %q; want an encrypted attachment only", c.File, c.URL)
				}
				uri = c.File.URL
			}
			mxc, err := uri.Parse()
			if err != nil {
				t.Fatal(err)
			}
			data, err := alice.cli.DownloadBytes(context.Background(), mxc)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.DecodeConfig(bytes.NewReader(data)); (err == nil) == encrypted {
				t.Errorf("the homeserver's copy decodes as PNG: %v (want a PNG only in a plain room)", err == nil)
			}
			if encrypted {
				if err := c.File.DecryptInPlace(data); err != nil {
					t.Fatal(err)
				}
			}
			if len(data) != c.Info.Size {
				t.Errorf("picture of %d bytes, info says %d", len(data), c.Info.Size)
			}
			pic, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if b := pic.Bounds(); b.Dx() != c.Info.Width || b.Dy() != c.Info.Height || b.Dx() < 600 {
				t.Errorf("PNG %v, info %dx%d: want them equal and a phone-wide picture", b, c.Info.Width, c.Info.Height)
			}
		})
	}
}

// TestOddsPictureRefused: the media repository refuses the upload (413,
// too large); the reply carries the chart as text instead, and no picture
// is sent.
func TestOddsPictureRefused(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var uploads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/upload") {
			uploads.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			_, _ = w.Write([]byte(`{"errcode":"M_TOO_LARGE","error":"too large"}`))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	startBot(t, hs, newRouter(t), botOpts{homeURL: srv.URL, cfg: chartConfig})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	plainCmd := alice.say(room, "!odds 3d6")
	withText := alice.waitFor("text reply", wait, replyTo(botID(), plainCmd)).Content.AsMessage().Body
	// The same command without a renderer is the text form to expect.
	hs2 := startServer(t, optsNone)
	bob := newUser(t, hs2, "bob", false)
	startBot(t, hs2, newRouter(t), botOpts{})
	room2 := bob.createRoom(false, botID())
	bob.waitJoined(room2, botID())
	c2 := bob.say(room2, "!odds 3d6")
	textOnly := bob.waitFor("text-only reply", wait, replyTo(botID(), c2)).Content.AsMessage().Body
	if withText != textOnly || !strings.Contains(textOnly, "10.5") {
		t.Errorf("refused upload: reply\n%s\nwant the text form\n%s", withText, textOnly)
	}
	if uploads.Load() != 1 {
		t.Errorf("%d uploads tried, want 1 (413 is not retried)", uploads.Load())
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(alice.matching(func(e *event.Event) bool {
		return e.Sender == botID() && e.Type == event.EventMessage && e.Content.AsMessage().MsgType == event.MsgImage
	})); n != 0 {
		t.Errorf("%d pictures sent after a refused upload", n)
	}
}
