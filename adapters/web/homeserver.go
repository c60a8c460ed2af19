package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Finding a homeserver from the server name a widget claims, as the
// Matrix server-server API says ("Resolving server names"): an explicit
// port is used as given; otherwise https://<name>/.well-known/matrix/server
// may delegate, then the _matrix-fed._tcp (and the older _matrix._tcp) SRV
// records, then port 8448. The name is the user's claim, so it must not
// be a way into the operator's network: an IP literal is refused, and
// every connection (the well-known lookup included) is refused at dial
// time when the address it reaches is loopback, private, link-local or
// otherwise not public, unless the name is one of web.matrix_local_servers.
// web.matrix_openid_url, set by the operator, is used as given.

var (
	errIPLiteral  = errors.New("web: a homeserver name may not be an IP address")
	errNotPublic  = errors.New("web: the homeserver's address is not a public one")
	errOpenIDBusy = errors.New("web: too many OpenID checks")
)

// OpenID checks allowed: openIDPerChat a minute for one room's widget,
// openIDAll a minute in all.
const (
	openIDPerChat = 20
	openIDAll     = 120
	openIDWindow  = time.Minute
)

// fedTarget is where a server name's federation API answers: the URL's
// host is the name the TLS certificate must carry and the Host header;
// addr, when set, is the host:port dialled instead (an SRV target).
type fedTarget struct {
	base string // https://host[:port]
	addr string
}

// lookup is the DNS the resolution uses (net.DefaultResolver).
type lookup interface {
	LookupSRV(ctx context.Context, service, proto, name string) (string, []*net.SRV, error)
}

// homeservers resolves server names and fetches from them.
type homeservers struct {
	dns   lookup
	local []string // web.matrix_local_servers

	mu    sync.Mutex
	calls map[string]callCount // chat token ("" for all) → OpenID checks in the window
}

// allow counts an OpenID check for chat, false when over the allowance.
func (h *homeservers) allow(chat string, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, k := range []string{"", chat} {
		c := h.calls[k]
		if now.Sub(c.from) > openIDWindow {
			c = callCount{from: now}
		}
		if (k == "" && c.n >= openIDAll) || (k != "" && c.n >= openIDPerChat) {
			return false
		}
	}
	for _, k := range []string{"", chat} {
		c := h.calls[k]
		if now.Sub(c.from) > openIDWindow {
			c = callCount{from: now}
		}
		c.n++
		if len(h.calls) > memberKeep {
			clear(h.calls)
		}
		h.calls[k] = c
	}
	return true
}

// publicAddr reports whether ip is an address on the public internet.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	cgnat := netip.MustParsePrefix("100.64.0.0/10")
	thisNet := netip.MustParsePrefix("0.0.0.0/8")
	return ip.IsValid() && ip.IsGlobalUnicast() && !ip.IsPrivate() && !cgnat.Contains(ip) && !thisNet.Contains(ip)
}

// client is an HTTP client for the server name: connections to addresses
// that are not public are refused, unless the name is a configured local
// one; addr, when set, is dialled whatever the URL's host.
func (h *homeservers) client(name, addr string) *http.Client {
	local := slices.Contains(h.local, name)
	d := &net.Dialer{Timeout: 5 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || (!local && !publicAddr(ap.Addr())) {
			return errNotPublic
		}
		return nil
	}}
	tr := &http.Transport{Proxy: nil, TLSHandshakeTimeout: 5 * time.Second, ResponseHeaderTimeout: 5 * time.Second,
		MaxResponseHeaderBytes: 16 << 10, DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
			if addr != "" {
				a = addr
			}
			return d.DialContext(ctx, network, a)
		}}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// splitName cuts a server name into its host and port ("" when none);
// false for an IP literal not configured as local.
func (h *homeservers) splitName(name string) (host, port string, err error) {
	host, port = name, ""
	if i := strings.LastIndexByte(name, ':'); i >= 0 && !strings.HasSuffix(name, "]") {
		host, port = name[:i], name[i+1:]
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", "", errOpenID
		}
	}
	h0 := strings.Trim(host, "[]")
	if _, err := netip.ParseAddr(h0); err == nil || strings.HasPrefix(host, "[") {
		if !slices.Contains(h.local, name) {
			return "", "", errIPLiteral
		}
	}
	return host, port, nil
}

// resolve finds where name's federation API answers.
func (h *homeservers) resolve(ctx context.Context, name string) (fedTarget, error) {
	host, port, err := h.splitName(name)
	if err != nil {
		return fedTarget{}, err
	}
	if port != "" || h.isIP(host) {
		return fedTarget{base: "https://" + name}, nil
	}
	// .well-known delegation.
	if d, ok := h.wellKnown(ctx, name); ok {
		dh, dp, err := h.splitName(d)
		if err != nil {
			return fedTarget{}, err
		}
		if dp != "" || h.isIP(dh) {
			return fedTarget{base: "https://" + d}, nil
		}
		return h.srv(ctx, dh), nil
	}
	return h.srv(ctx, host), nil
}

func (h *homeservers) isIP(host string) bool {
	_, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil
}

// srv is host's target from its SRV records, or host:8448.
func (h *homeservers) srv(ctx context.Context, host string) fedTarget {
	for _, service := range []string{"matrix-fed", "matrix"} {
		_, recs, err := h.dns.LookupSRV(ctx, service, "tcp", host)
		if err == nil && len(recs) > 0 && recs[0].Target != "." {
			t := strings.TrimSuffix(recs[0].Target, ".")
			return fedTarget{base: "https://" + host, addr: net.JoinHostPort(t, strconv.Itoa(int(recs[0].Port)))}
		}
	}
	return fedTarget{base: "https://" + host, addr: net.JoinHostPort(host, "8448")}
}

// wellKnown reads https://<name>/.well-known/matrix/server's m.server.
func (h *homeservers) wellKnown(ctx context.Context, name string) (string, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+name+"/.well-known/matrix/server", nil)
	if err != nil {
		return "", false
	}
	resp, err := h.client(name, "").Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", false
	}
	var out struct {
		Server string `json:"m.server"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 16<<10)).Decode(&out) != nil || !serverNameRE.MatchString(out.Server) {
		return "", false
	}
	return out.Server, true
}

// get fetches path from name's federation API.
func (h *homeservers) get(ctx context.Context, name, path string) (*http.Response, error) {
	t, err := h.resolve(ctx, name)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.base+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := h.client(name, t.addr).Do(req)
	if err != nil {
		return nil, fmt.Errorf("web: homeserver %s: %w", name, err)
	}
	return resp, nil
}
