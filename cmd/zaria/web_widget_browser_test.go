package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/matrix/dendritetest"
)

// widgetAPI is matrix-org's matrix-widget-api 1.19.0 (dist/api.js, its
// UMD build, global mxwidgets), installed by make test-setup; nil when it
// is not installed.
func widgetAPI(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "adapters", "web", "testdata", "clients", "node_modules", "matrix-widget-api", "dist", "api.js"))
	if err != nil {
		if os.Getenv("ZARIA_REQUIRE_CHROMIUM") == "1" {
			t.Fatalf("matrix-widget-api is not installed (make test-setup): %v", err)
		}
		t.Skip("matrix-widget-api is not installed: make test-setup")
	}
	return b
}

// TestWebBrowserMatrixWidget: the widget hosted as Element Web hosts it,
// by matrix-widget-api's own ClientWidgetApi in a page of the origin
// web.frame_ancestors allows: the widget URL from !app run through the
// library's template with Element's dark theme, widgetId and parentUrl
// added, a sandboxed iframe, and a WidgetDriver that approves the
// capabilities and answers the OpenID request as Element does the first
// time, "request" and then Alice's real token from Dendrite. The widget signs in, shows the room's sheets dark, and
// turns light at the client's theme_change (ClientWidgetApi.updateTheme).
func TestWebBrowserMatrixWidget(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	api := widgetAPI(t)
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
	creds, _ := json.Marshal(map[string]any{"state": "allowed", "token": map[string]any{"access_token": tok.AccessToken,
		"token_type": "Bearer", "matrix_server_name": tok.MatrixServerName, "expires_in": 3600}})
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	host.Config.Handler = http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api.js" {
			rw.Header().Set("Content-Type", "text/javascript")
			_, _ = rw.Write(api)
			return
		}
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(rw, `<!doctype html><meta name="viewport" content="width=device-width">
<body style="margin:0"><iframe id="w" sandbox="allow-forms allow-scripts allow-same-origin allow-popups" style="border:0;width:100vw;height:100vh"></iframe>
<script src="/api.js"></script>
<script>
var widget = new mxwidgets.Widget({id: 'zaria_table', creatorUserId: %s, type: 'm.custom', name: 'Zaria', url: %s, data: {}, waitForIframeLoad: true});
var url = new URL(widget.getCompleteUrl({widgetRoomId: %s, currentUserId: %s, clientTheme: 'dark', clientLanguage: 'es'}));
url.searchParams.set('widgetId', widget.id);
url.searchParams.set('parentUrl', location.href);
function Driver() { mxwidgets.WidgetDriver.call(this); }
Driver.prototype = Object.create(mxwidgets.WidgetDriver.prototype);
Driver.prototype.validateCapabilities = function (asked) { return Promise.resolve(asked); };
// Element's first use: "verify your identity?" (state request), then
// the token once the user agrees (openid_credentials).
Driver.prototype.askOpenID = function (observer) {
  observer.update({state: 'request'});
  setTimeout(function () { document.body.dataset.asked = '1'; observer.update(%s); }, 300);
};
var frame = document.getElementById('w');
window.client = new mxwidgets.ClientWidgetApi(widget, frame, new Driver());
client.on('ready', function () { document.body.dataset.ready = '1'; });
frame.src = url.toString();
</script>`, q(w.alice.UserID.String()), q(m[1]), q(room.String()), q(w.alice.UserID.String()), creds)
	})

	do(t, ctx, "open the host page", chromedp.Navigate(host.URL))
	waitJS(t, ctx, "ClientWidgetApi ready (capabilities exchanged)", `document.body.dataset.ready === '1'`)
	frames, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe#w")))
	if err != nil || len(frames) == 0 {
		t.Fatalf("iframe: %v", err)
	}
	inFrame := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInFrame(frames[0]), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Fatalf("%s (%s): %v", what, expr, err)
		}
	}
	inFrame("the sheets", `!!document.querySelector('.screen[data-screen="sheets"]')`)
	waitJS(t, ctx, "the token given after the request", `document.body.dataset.asked === '1'`)
	inFrame("Element's dark theme from the widget URL", `document.documentElement.dataset.theme === 'dark' && getComputedStyle(document.body).backgroundColor === 'rgb(23, 25, 28)'`)
	inFrame("no Telegram script loaded in Element's widget", `typeof window.Telegram === 'undefined' && !document.querySelector('script[src*="telegram"]')`)
	shot(t, ctx, dir, "widget-dark-en")
	waitJS(t, ctx, "theme_change", `(client.updateTheme({name: 'light'}), true)`)
	inFrame("light after theme_change", `document.documentElement.dataset.theme === 'light' && getComputedStyle(document.body).backgroundColor === 'rgb(255, 255, 255)'`)
	shot(t, ctx, dir, "widget-en")
}
