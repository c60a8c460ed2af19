package main

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/matrix/dendritetest"
)

// TestWebMatrixOneTimeLink: the real binary on a real Dendrite. Alice
// types !app in her room: the room is told a link went privately, and the
// link arrives in a direct room with her alone. Opened once it gives a
// session for her in that room (a second opening is refused); a roll from
// the page is posted in the room, mentioning her, with the page's result.
func TestWebMatrixOneTimeLink(t *testing.T) {
	w, base := newMxWebWorld(t, dendritetest.Options{})
	w.start(t, zariaBinary(t))
	room := w.room(t)
	ctx := context.Background()

	cmd := w.say(t, room, "!app")
	waitReplies(t, w.alice, room, w.bot, []id.EventID{cmd}, 60*time.Second)
	if got := replyBody(t, w.alice, room, w.bot, cmd); !strings.Contains(got, "privately") || strings.Contains(got, "/app/l/") {
		t.Fatalf("!app answered in the room %q", got)
	}

	// The direct room: invited, alone with the bot.
	var dm id.RoomID
	waitUntil(t, 30*time.Second, "the invite to a direct room", func() bool {
		resp, err := w.alice.SyncRequest(ctx, 0, "", "", false, event.PresenceOffline)
		if err != nil {
			return false
		}
		for r := range resp.Rooms.Invite {
			dm = r
			return true
		}
		return false
	})
	if _, err := w.alice.JoinRoomByID(ctx, dm); err != nil {
		t.Fatal(err)
	}
	members, err := w.alice.JoinedMembers(ctx, dm)
	if err != nil || len(members.Joined) != 2 {
		t.Fatalf("direct room members: %v %v", members, err)
	}
	var link string
	re := regexp.MustCompile(regexp.QuoteMeta(base) + `l/([A-Za-z0-9_-]{22})`)
	waitUntil(t, 30*time.Second, "the link in the direct room", func() bool {
		msgs, err := w.alice.Messages(ctx, dm, "", "", mautrix.DirectionBackward, nil, 20)
		if err != nil {
			return false
		}
		for _, ev := range msgs.Chunk {
			_ = ev.Content.ParseRaw(ev.Type)
			if m := ev.Content.AsMessage(); ev.Sender == w.bot && m != nil {
				if sub := re.FindStringSubmatch(m.Body); sub != nil {
					link = sub[1]
					return true
				}
			}
		}
		return false
	})

	post := func(path, auth, body string) (int, string) { return webPost(t, base, path, auth, body) }
	// The page the link opens is the shell; the link is spent by redeem.
	if resp, err := http.Get(base + "l/" + link); err != nil || resp.StatusCode != 200 || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("opening the link: %v %v", resp, err)
	}
	code, body := post("api/redeem", "", `{"link":"`+link+`"}`)
	var s struct{ Session, Chat string }
	if code != 200 || json.Unmarshal([]byte(body), &s) != nil || s.Session == "" {
		t.Fatalf("redeem: %d %s", code, body)
	}
	if code, _ := post("api/redeem", "", `{"link":"`+link+`"}`); code != 401 {
		t.Errorf("the link opened twice: %d, want 401", code)
	}
	auth := "Bearer " + s.Session
	code, body = post("c/"+s.Chat+"/do", auth, `{"op":"roll","n":2,"sides":6,"mod":1}`)
	var a webAnswer
	if code != 200 || json.Unmarshal([]byte(body), &a) != nil || a.Error || !a.Posted {
		t.Fatalf("roll: %d %s", code, body)
	}
	total := regexp.MustCompile(`= (\d+)`).FindStringSubmatch(a.text())
	if total == nil {
		t.Fatalf("no total on the page: %q", a.text())
	}
	waitUntil(t, 30*time.Second, "the roll in the room", func() bool {
		msgs, err := w.alice.Messages(ctx, room, "", "", mautrix.DirectionBackward, nil, 20)
		if err != nil {
			return false
		}
		for _, ev := range msgs.Chunk {
			_ = ev.Content.ParseRaw(ev.Type)
			if m := ev.Content.AsMessage(); ev.Sender == w.bot && m != nil &&
				strings.Contains(m.Body, "📱 alice: /roll 2d6+1") && strings.Contains(m.Body, "= "+total[1]) {
				return true
			}
		}
		return false
	})
	// A forged session, and the session in another chat's path.
	if code, _ := post("c/"+s.Chat+"/do", "Bearer "+s.Session[:len(s.Session)-2]+"xx", `{"op":"roll","n":1,"sides":6}`); code != 401 {
		t.Errorf("forged session: %d, want 401", code)
	}
	if code, _ := post("c/AAAAAAAAAAAAAAAAAAAAAA/do", auth, `{"op":"roll","n":1,"sides":6}`); code != 403 {
		t.Errorf("session in another chat's path: %d, want 403", code)
	}
}
