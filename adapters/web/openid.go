package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"zaria/core"
)

// The Matrix room widget: Element hands the page an OpenID token (the
// widget API's get_openid); the server asks the user's homeserver whose it
// is (/_matrix/federation/v1/openid/userinfo) and checks, in the bot's
// state of the room, that they are in it.

var (
	serverNameRE = regexp.MustCompile(`^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$`)
	ipv6NameRE   = regexp.MustCompile(`^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$`)
	openIDTokRE  = regexp.MustCompile(`^[A-Za-z0-9._~+/=-]{1,512}$`)
	errOpenID    = errors.New("web: the homeserver does not vouch for this OpenID token")
)

// openIDUser asks serverName's homeserver (or web.matrix_openid_url) who
// owns token, and returns a user of that server only.
func (a *Adapter) openIDUser(ctx context.Context, serverName, token string) (string, error) {
	if !(serverNameRE.MatchString(serverName) || ipv6NameRE.MatchString(serverName)) || !openIDTokRE.MatchString(token) {
		return "", errOpenID
	}
	path := "/_matrix/federation/v1/openid/userinfo?access_token=" + url.QueryEscape(token)
	var resp *http.Response
	var err error
	if base := a.cfg.MatrixOpenIDURL; base != "" {
		// The operator's own: used as given.
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+path, nil)
		if err != nil {
			return "", errOpenID
		}
		resp, err = a.http.Do(req)
	} else {
		resp, err = a.hs.get(ctx, serverName, path)
	}
	if err != nil {
		return "", fmt.Errorf("web: openid userinfo: %w: %w", errOpenID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", errOpenID
	}
	var out struct {
		Sub string `json:"sub"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&out); err != nil {
		return "", errOpenID
	}
	// A homeserver vouches for its own users only.
	local, server, ok := strings.Cut(strings.TrimPrefix(out.Sub, "@"), ":")
	if !strings.HasPrefix(out.Sub, "@") || !ok || local == "" || server != serverName {
		return "", errOpenID
	}
	return out.Sub, nil
}

// openID exchanges a widget's OpenID token for a session in the room the
// widget was added to (its chat token).
func (a *Adapter) openID(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Chat        string `json:"chat"`
		AccessToken string `json:"access_token"`
		ServerName  string `json:"matrix_server_name"`
	}
	if !readJSON(w, r, &in) {
		return
	}
	ctx := r.Context()
	chat, ok, err := a.tok.Chat(ctx, in.Chat)
	if err != nil || !ok || chat.Platform != "matrix" || a.d.Members["matrix"] == nil {
		a.refuse(w, r, errUnknownTok)
		return
	}
	// Counted once the room is known: a made-up token is refused above
	// and reaches no homeserver.
	if !a.hs.allow(in.Chat, a.d.Now()) {
		a.refuse(w, r, errOpenIDBusy)
		return
	}
	user, err := a.openIDUser(ctx, in.ServerName, in.AccessToken)
	if err != nil {
		a.refuse(w, r, err)
		return
	}
	if err := a.checkMember(ctx, chat, user, nil); err != nil {
		a.refuse(w, r, err)
		return
	}
	s, err := a.startSession(ctx, core.Message{Chat: chat, From: core.User{ID: user, Name: user}}, in.Chat)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeJSON(w, helloResp{Session: s, Chat: in.Chat, Renew: int(a.cfg.SessionRenew / time.Second)})
}
