package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/matrix/dendritetest"
)

// TestWebBrowserMatrixWidget: Element's side of the widget API played by
// a host page in headless Chromium (its origin the one web.frame_ancestors
// allows): it frames the widget, sends capabilities, and answers
// get_openid with Alice's real OpenID token from Dendrite. The widget
// trades it for a session and shows the room's sheets, in the frame.
func TestWebBrowserMatrixWidget(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	host := httptest.NewUnstartedServer(nil)
	host.Start()
	t.Cleanup(host.Close)

	w, _ := newMxWebWorld(t, dendritetest.Options{Federation: true}, "ZARIA_WEB_FRAME_ANCESTORS="+host.URL)
	w.env = append(w.env, "ZARIA_WEB_MATRIX_OPENID_URL="+w.hs.URL)
	w.start(t, zariaBinary(t))
	room := w.room(t)
	cmd := w.say(t, room, "!app")
	waitReplies(t, w.alice, room, w.bot, []id.EventID{cmd}, 60*time.Second)
	m := regexp.MustCompile(`/addwidget (\S+)`).FindStringSubmatch(replyBody(t, w.alice, room, w.bot, cmd))
	if m == nil {
		t.Fatal("no widget URL")
	}
	tok, err := w.alice.RequestOpenIDToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	creds, _ := json.Marshal(map[string]any{"state": "allowed", "access_token": tok.AccessToken,
		"token_type": "Bearer", "matrix_server_name": tok.MatrixServerName, "expires_in": 3600})
	src := `"` + html.EscapeString(m[1]+"&widgetId=zaria1") + `"`
	host.Config.Handler = http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(rw, `<!doctype html><meta name="viewport" content="width=device-width">
<body style="margin:0"><iframe id="w" style="border:0;width:100vw;height:100vh" src=%s></iframe>
<script>
var f = document.getElementById('w');
window.addEventListener('message', function (ev) {
  var d = ev.data;
  if (ev.source !== f.contentWindow || !d) return;
  if (d.api === 'fromWidget' && d.action === 'get_openid') {
    var a = JSON.parse(JSON.stringify(d)); a.response = %s;
    f.contentWindow.postMessage(a, '*');
  }
  if (d.api === 'toWidget' && d.action === 'capabilities' && d.response) document.body.dataset.caps = JSON.stringify(d.response);
});
f.addEventListener('load', function () {
  f.contentWindow.postMessage({api: 'toWidget', widgetId: 'zaria1', requestId: 'c1', action: 'capabilities', data: {}}, '*');
});
</script>`, src, creds)
	})

	do(t, ctx, "open the host page", chromedp.Navigate(host.URL))
	frames, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe#w")))
	if err != nil || len(frames) == 0 {
		t.Fatalf("iframe: %v", err)
	}
	waitJS(t, ctx, "the widget's capabilities answer", `document.body.dataset.caps === '{"capabilities":[]}'`)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector('.screen[data-screen="sheets"]')`,
		chromedp.WithPollingInFrame(frames[0]), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the widget never showed the sheets: %v", err)
	}
	shot(t, ctx, dir, "widget-en")
}
