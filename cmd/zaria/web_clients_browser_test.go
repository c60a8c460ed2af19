package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"zaria/configs"
)

// tgChannel is what each Telegram client injects into the page before it
// loads, for Telegram's script to post events to the client
// (TelegramWebviewProxy.postEvent), over the client's own channel:
// Android's proxy is the app's Java bridge; iOS's wraps
// webkit.messageHandlers.performAction; Telegram Desktop's wraps
// window.external.invoke with a JSON array. Each records what reaches the
// client in window.tgEvents as [type, data] (data parsed).
func tgChannel(platform string) string {
	const rec = `window.tgEvents = []; function tgRecord(type, data) { window.tgEvents.push([type, typeof data === 'string' && data ? JSON.parse(data) : data]); }`
	switch platform {
	case "android":
		return rec + `window.TelegramWebviewProxy = { postEvent: function (type, data) { tgRecord(type, data); } };`
	case "ios":
		return rec + `window.webkit = { messageHandlers: { performAction: { postMessage: function (m) { tgRecord(m.eventName, m.eventData); } } } };
var TelegramWebviewProxyProto = function () {};
TelegramWebviewProxyProto.prototype.postEvent = function (eventName, eventData) { window.webkit.messageHandlers.performAction.postMessage({ eventName: eventName, eventData: eventData }); };
var TelegramWebviewProxy = new TelegramWebviewProxyProto();`
	case "tdesktop":
		return rec + `window.external = { invoke: function (s) { var a = JSON.parse(s); tgRecord(a[0], a[1]); } };
window.TelegramWebviewProxy = { postEvent: function (type, data) { if (window.external && window.external.invoke) { window.external.invoke(JSON.stringify([type, data])); } } };`
	}
	return ""
}

// inject runs src in every frame before the page's scripts.
func inject(t *testing.T, ctx context.Context, src string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		t.Fatal(err)
	}
}

// posted is the JavaScript test that the client got an event of type
// whose data has the JSON fragment want ("" for any).
func posted(typ, want string) string {
	return `(window.tgEvents || []).some(function (e) { return e[0] === ` + strconv.Quote(typ) + ` && JSON.stringify(e[1] || '').indexOf(` + strconv.Quote(want) + `) >= 0; })`
}

// TestWebBrowserTelegramClients: the page with Telegram's own script
// (@twa-dev/sdk 8.0.2's src/telegram-web-apps.js) launched as Telegram
// Android, iOS and Desktop launch it, each with its own channel: the
// page signs in with the launch data, asks for vertical swipes off, and
// tells the client ready and expand; the dice tab shows the back button
// and the client's back returns to the characters and hides it; a value
// typed and unsent asks for a closing confirmation, and its sending
// drops it; the client's dark theme and a pulled-down viewport reach the
// page's CSS at once.
func TestWebBrowserTelegramClients(t *testing.T) {
	chromium(t)
	w := newWebTable(t)
	if telegramJS(t) == nil {
		t.Skip("Telegram's script is not installed: make test-setup")
	}
	tok := w.chatToken(webGroup, webAna, "Ana")
	dir := artifacts(t)
	for _, platform := range []string{"android", "ios", "tdesktop"} {
		t.Run(platform, func(t *testing.T) {
			ctx := phone(t)
			inject(t, ctx, tgChannel(platform))
			w.setInitData(w.initDataFor(webAna, "Ana", tok, w.now()))
			do(t, ctx, "open", chromedp.Navigate(w.launch(platform)), chromedp.WaitVisible(chromedp.CSS(`.screen[data-screen="sheets"]`)))
			for _, e := range [][2]string{{"web_app_ready", ""}, {"web_app_expand", ""}, {"web_app_setup_swipe_behavior", `"allow_vertical_swipe":false`}} {
				waitJS(t, ctx, platform+" gets "+e[0], posted(e[0], e[1]))
			}
			tapTab(t, ctx, "dice", "dice")
			waitJS(t, ctx, "the back button shown", posted("web_app_setup_back_button", `"is_visible":true`))
			waitJS(t, ctx, "the client's back", `(window.Telegram.WebView.receiveEvent('back_button_pressed'), true)`)
			waitJS(t, ctx, "the characters again", `!!document.querySelector('.screen[data-screen="sheets"]') && !document.querySelector('#screen[aria-busy]')`)
			waitJS(t, ctx, "the back button hidden", `(function(){var b=(window.tgEvents||[]).filter(function(e){return e[0]==='web_app_setup_back_button'});return b.length>=2 && b[b.length-1][1].is_visible===false})()`)

			name := "Lyra" + platform
			do(t, ctx, "type a name", chromedp.SendKeys(chromedp.CSS(`form.create input[name="name"]`), name))
			waitJS(t, ctx, "a closing confirmation", posted("web_app_setup_closing_behavior", `"need_confirmation":true`))
			do(t, ctx, "create", chromedp.Click(chromedp.CSS(`form.create button`)), chromedp.WaitVisible(chromedp.CSS(`article[data-char="`+name+`"]`)))
			waitJS(t, ctx, "no confirmation once sent", `(function(){var b=(window.tgEvents||[]).filter(function(e){return e[0]==='web_app_setup_closing_behavior'});return b.length>=2 && b[b.length-1][1].need_confirmation===false})()`)

			waitJS(t, ctx, "a dark theme", `(window.Telegram.WebView.receiveEvent('theme_changed', {theme_params: {bg_color: '#17212b', text_color: '#f5f5f5', button_color: '#5288c1', button_text_color: '#ffffff', secondary_bg_color: '#232e3c', hint_color: '#708499'}}), true)`)
			waitJS(t, ctx, "the page dark", `getComputedStyle(document.body).backgroundColor === 'rgb(23, 33, 43)'`)
			waitJS(t, ctx, "pulled down", `(window.Telegram.WebView.receiveEvent('viewport_changed', {height: 480, is_state_stable: true, is_expanded: false}), true)`)
			waitJS(t, ctx, "the viewport's height in the CSS", `getComputedStyle(document.documentElement).getPropertyValue('--tg-viewport-stable-height').trim() === '480px'`)
			shot(t, ctx, dir, "telegram-"+platform+"-dark")
		})
		time.Sleep(2100 * time.Millisecond) // Ana's allowance between the clients
	}
}

// TestWebBrowserTelegramWebFrame: Telegram Web (K and A) opens the Mini
// App in an iframe of another origin and talks with postMessage: with
// Telegram's real script the page signs in and tells its host ready, no
// Content-Security-Policy violation happens (the script's <style>
// element is allowed in that frame and only there), and the host's
// theme_changed reaches the page.
func TestWebBrowserTelegramWebFrame(t *testing.T) {
	chromium(t)
	host := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = rw.Write([]byte(`<!doctype html><html><body style="margin:0">
<iframe id="app" style="width:390px;height:800px;border:0"></iframe>
<script>
window.hostEvents = []; window.csp = [];
window.addEventListener('message', function (ev) {
  var d = ev.data;
  if (d && d.zariaCSP) { window.csp.push(d.zariaCSP); return; }
  try { d = JSON.parse(d); } catch (e) { return; }
  window.hostEvents.push(d);
});
function open(url) { document.getElementById('app').src = url; }
function send(type, data) { document.getElementById('app').contentWindow.postMessage(JSON.stringify({eventType: type, eventData: data}), '*'); }
</script></body></html>`))
	}))
	t.Cleanup(host.Close)
	w := newWebTableCfg(t, func(c *configs.Config) { c.Web.FrameAncestors = []string{host.URL} })
	if telegramJS(t) == nil {
		t.Skip("Telegram's script is not installed: make test-setup")
	}
	tok := w.chatToken(webGroup, webAna, "Ana")
	w.setInitData(w.initDataFor(webAna, "Ana", tok, w.now()))
	ctx := phone(t)
	// In every frame: a CSP violation is reported to the host page.
	inject(t, ctx, `document.addEventListener('securitypolicyviolation', function (e) {
  try { window.parent.postMessage({zariaCSP: e.effectiveDirective + ' ' + e.blockedURI}, '*'); } catch (x) {}
});`)
	do(t, ctx, "the host", chromedp.Navigate(host.URL))
	waitJS(t, ctx, "open the frame", `(open(`+strconv.Quote(w.launch("weba"))+`), true)`)
	has := func(typ, want string) string {
		return `window.hostEvents.some(function (e) { return e.eventType === ` + strconv.Quote(typ) + ` && JSON.stringify(e.eventData || '').indexOf(` + strconv.Quote(want) + `) >= 0; })`
	}
	waitJS(t, ctx, "iframe_ready", has("iframe_ready", ""))
	waitJS(t, ctx, "web_app_ready", has("web_app_ready", ""))
	// The first screen shown: the back button set hidden (the page does so
	// once a screen has loaded with its session).
	waitJS(t, ctx, "the sheets loaded", has("web_app_setup_back_button", `"is_visible":false`))
	waitJS(t, ctx, "theme", `(send('theme_changed', {theme_params: {bg_color: '#17212b', text_color: '#f5f5f5', secondary_bg_color: '#232e3c', hint_color: '#708499', button_color: '#5288c1', button_text_color: '#ffffff'}}), true)`)
	frames, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe#app")))
	if err != nil || len(frames) == 0 {
		t.Fatalf("iframe: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector('.screen[data-screen="sheets"]') && getComputedStyle(document.body).backgroundColor === 'rgb(23, 33, 43)'`,
		chromedp.WithPollingInFrame(frames[0]), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the framed page's sheets in the host's dark theme: %v", err)
	}
	csp, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.csp`))
	if err != nil {
		t.Fatal(err)
	}
	if len(csp) != 0 {
		t.Errorf("CSP violations in Telegram Web's frame: %q", csp)
	}
	shot(t, ctx, artifacts(t), "telegram-web-frame")

	// The policy is framed-only: the same page loaded at the top has no
	// inline style allowed.
	code, _, h := w.call("GET", "", "", "")
	if code != 200 || strings.Contains(h.Get("Content-Security-Policy"), "unsafe-inline") {
		t.Errorf("the top-level page's CSP: %d %q", code, h.Get("Content-Security-Policy"))
	}
}
