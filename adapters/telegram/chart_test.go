package telegram

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"zaria/adapters/chart"
	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/roll"
)

// chartRouter is the test router with the real /odds (/probabilidad).
func chartRouter(t *testing.T) *command.Router {
	r := testRouter(t)
	roll.RegisterOdds(r)
	return r
}

// pngCharts is the renderer cmd/zaria wires: adapters/chart.
var pngCharts = ChartFunc(func(_ context.Context, c *reply.Chart, _ string) ([]byte, error) { return chart.PNG(c) })

// decodePhoto decodes a sent photo as a PNG and counts its pixels of the
// bar colour.
func decodePhoto(t *testing.T, m telegramtest.Sent) (image.Image, int) {
	t.Helper()
	if m.PhotoType != "image/png" {
		t.Errorf("the photo was uploaded as %q, want image/png", m.PhotoType)
	}
	img, err := png.Decode(bytes.NewReader(m.Photo))
	if err != nil {
		t.Fatalf("the photo is not a PNG: %v", err)
	}
	bars := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := chart.BarColor
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
				bars++
			}
		}
	}
	return img, bars
}

// TestChartSentAsPhoto: /odds 3d6 in an English chat and /probabilidad
// 2d6 in a Spanish one each get one photo (multipart sendPhoto) in reply
// to the command: a PNG about 800 px wide with bars drawn, its caption
// the reply's text with the mean (3d6: 21/2; 2d6: 7), HTML. In a forum
// topic the photo goes to the topic.
func TestChartSentAsPhoto(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.Charts = pngCharts
	start(t, cfg, chartRouter(t), newMemState())

	cases := []struct {
		chat int64
		who  telegramtest.User
		cmd  string
		want string
	}{
		{-250, bob, "/odds 3d6", "Mean 10.5"},
		{-251, ana, "/probabilidad 2d6", "Media 7"},
	}
	for _, c := range cases {
		msg := f.SayIn(telegramtest.Group(c.chat), c.who, c.cmd)
		got := f.waitSent(c.chat, 1, 10*time.Second)
		time.Sleep(50 * time.Millisecond)
		if got = f.SentTo(c.chat); len(got) != 1 || got[0].Method != "sendPhoto" {
			t.Fatalf("%s: the chat got %+v, want one photo", c.cmd, got)
		}
		p := got[0]
		img, bars := decodePhoto(t, p)
		if w := img.Bounds().Dx(); w < 700 || w > 900 {
			t.Errorf("%s: the picture is %d px wide, want about 800", c.cmd, w)
		}
		if bars < 100 {
			t.Errorf("%s: %d bar pixels in the picture", c.cmd, bars)
		}
		if !strings.Contains(p.Visible, c.want) || p.Params["parse_mode"] != "HTML" {
			t.Errorf("%s: caption %q (parse_mode %q), want it to say %q", c.cmd, p.Visible, p.Params["parse_mode"], c.want)
		}
		if p.ReplyTo != msg {
			t.Errorf("%s: the photo replies to %d, want the command %d", c.cmd, p.ReplyTo, msg)
		}
	}

	f.SetForum(-252)
	f.SayInTopic(-252, 77, bob, "/odds 2d6")
	got := f.waitSent(-252, 1, 10*time.Second)
	if got[0].Method != "sendPhoto" || got[0].Thread != 77 {
		t.Errorf("in a topic: %s to thread %d, want a photo in thread 77", got[0].Method, got[0].Thread)
	}
}

// TestChartPhotoFallsBackToText: where Telegram refuses the photo (400:
// the bot may not send photos in this chat), the text form arrives
// instead, once: the reply with the chart in characters, in reply to the
// command. Without a renderer the text form is what is sent.
func TestChartPhotoFallsBackToText(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.Charts = pngCharts
	f.Inject("sendPhoto", telegramtest.Fault{Code: 400, Description: "Bad Request: not enough rights to send photos to the chat"})
	r := start(t, cfg, chartRouter(t), newMemState())
	msg := f.SayIn(telegramtest.Group(-260), bob, "/odds 3d6")
	got := f.waitSent(-260, 1, 10*time.Second)
	time.Sleep(100 * time.Millisecond)
	got = f.SentTo(-260)
	if len(got) != 1 || got[0].Method != "sendMessage" {
		t.Fatalf("after the refused photo the chat got %+v, want one text message", got)
	}
	text := got[0].Visible
	for _, want := range []string{"Mean 10.5", "Exactly", "█"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text form lacks %q:\n%s", want, text)
		}
	}
	if got[0].ReplyTo != msg {
		t.Errorf("the text form replies to %d, want %d", got[0].ReplyTo, msg)
	}
	if n := f.Calls("sendPhoto"); n != 1 {
		t.Errorf("%d sendPhoto calls, want 1 (a 400 is not retried)", n)
	}
	r.stop(t)

	// No renderer: the text form directly.
	f2 := newFakeAPI(t)
	start(t, testConfig(f2), chartRouter(t), newMemState())
	f2.SayIn(telegramtest.Group(-261), bob, "/odds 3d6")
	got = f2.waitSent(-261, 1, 10*time.Second)
	if got[0].Method != "sendMessage" || !strings.Contains(got[0].Visible, "█") {
		t.Errorf("without a renderer: %s %q", got[0].Method, got[0].Visible)
	}
}

// TestChartLongTextPhotoThenText: a reply too long for a caption (the
// fake refuses one over 1,024 characters) is the photo, in reply to the
// command, then the text.
func TestChartLongTextPhotoThenText(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.Charts = pngCharts
	r := chartRouter(t)
	r.Register(command.Command{Name: "longchart", Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			rep := &reply.Reply{}
			for i := range 60 {
				rep.Add(reply.T(fmt.Sprintf("line %02d of a long reply", i)))
			}
			rep.Chart = &reply.Chart{Title: "2d6", Series: []reply.Series{{Label: "2d6", Min: 2, P: []float64{1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1}}},
				Text: []reply.Line{{reply.T("bars in characters")}}}
			for i := range rep.Chart.Series[0].P {
				rep.Chart.Series[0].P[i] /= 36
			}
			return rep, nil
		})})
	start(t, cfg, r, newMemState())
	msg := f.SayIn(telegramtest.Group(-262), bob, "/longchart")
	f.waitSent(-262, 2, 10*time.Second)
	time.Sleep(100 * time.Millisecond)
	got := f.SentTo(-262)
	if len(got) != 2 || got[0].Method != "sendPhoto" || got[1].Method != "sendMessage" {
		t.Fatalf("got %d messages, want the photo then the text", len(got))
	}
	if got[0].ReplyTo != msg || got[0].Params["caption"] != "" {
		t.Errorf("the photo: reply to %d (want %d), caption %q", got[0].ReplyTo, msg, got[0].Params["caption"])
	}
	if !strings.Contains(got[1].Visible, "line 59") || strings.Contains(got[1].Visible, "bars in characters") {
		t.Errorf("the text after the photo: %q", got[1].Visible)
	}
	if bad := f.BadRequests(); len(bad) != 0 {
		t.Errorf("requests Telegram would refuse: %v", bad)
	}
}
