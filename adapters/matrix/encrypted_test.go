package matrix

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
)

// TestEncryptedRoom: in a room encrypted from its creation, the bot reads
// alice's encrypted command and answers; alice's client decrypts the reply
// and the 🎲 offer; the homeserver's copy of the room holds only encrypted
// message events.
func TestEncryptedRoom(t *testing.T) { onHomeservers(t, testEncryptedRoom) }

func testEncryptedRoom(t *testing.T, hs homeserver) {
	alice := newUser(t, hs, "alice", true)
	b := startBot(t, hs, newRouter(t), botOpts{crypto: true})
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond) // let alice's crypto see the new member

	start := time.Now()
	cmd := alice.say(room, "!zaria 4+2 dc15")
	got := alice.waitFor("encrypted reply", wait, replyTo(botID(), cmd))
	t.Logf("encrypted !zaria → notice in %v", time.Since(start))
	if !got.Mautrix.WasEncrypted {
		t.Errorf("the reply reached alice unencrypted")
	}
	c := got.Content.AsMessage()
	if c.Format != event.FormatHTML || !strings.Contains(c.FormattedBody, "<b>") || !strings.Contains(c.Body, "15") {
		t.Errorf("reply = %q / %q, want the check with HTML", c.Body, c.FormattedBody)
	}
	offer := alice.waitFor("🎲 offered", wait, func(e *event.Event) bool {
		return e.Sender == botID() && e.Type == event.EventReaction && e.Content.AsReaction().RelatesTo.EventID == got.ID
	})
	if !offer.Mautrix.WasEncrypted {
		t.Errorf("the 🎲 reaction was sent in clear in an encrypted room")
	}
	// alice's 🎲, encrypted like Element does, re-runs the roll.
	react := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: got.ID, Key: "🎲"}}
	enc, err := alice.cli.Crypto.Encrypt(context.Background(), room, event.EventReaction, react)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := alice.cli.SendMessageEvent(context.Background(), room, event.EventEncrypted, enc); err != nil {
		t.Fatal(err)
	}
	reroll := alice.waitFor("encrypted re-roll", wait, replyTo(botID(), got.ID))
	alice.waitFor("🎲 offered on the re-roll", wait, func(e *event.Event) bool {
		return e.Sender == botID() && e.Type == event.EventReaction && e.Content.AsReaction().RelatesTo.EventID == reroll.ID
	})

	// What the homeserver holds: read the room with a client that has no keys.
	raw, err := hs.Login(context.Background(), "alice", userPass)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := raw.Messages(context.Background(), room, "", "", mautrix.DirectionBackward, nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	encrypted := 0
	for _, e := range msgs.Chunk {
		switch e.Type.Type {
		case event.EventEncrypted.Type:
			encrypted++
		case event.EventMessage.Type, event.EventReaction.Type:
			t.Errorf("homeserver holds a clear %s from %s: %s", e.Type.Type, e.Sender, e.Content.VeryRaw)
		}
	}
	// alice: command + 🎲; bot: reply + 🎲 + re-roll + its 🎲.
	if encrypted < 6 {
		t.Errorf("homeserver holds %d encrypted events, want at least 6", encrypted)
	}
	_ = b
}

// TestEncryptedNewDevice: alice logs in on a second device after the bot
// has already answered her; a command from the new device is read, and the
// reply can be decrypted on both devices.
func TestEncryptedNewDevice(t *testing.T) {
	hs := startServer(t, optsNone)
	phone := newUser(t, hs, "alice", true)
	startBot(t, hs, newRouter(t), botOpts{crypto: true})
	room := phone.createRoom(true, botID())
	phone.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)
	c1 := phone.say(room, "!zaria 4+2 dc15")
	phone.waitFor("first reply", wait, replyTo(botID(), c1))

	laptop := newDevice(t, hs, "alice", true)
	laptop.waitJoined(room, botID())
	time.Sleep(500 * time.Millisecond) // the bot's sync sees alice's new device
	c2 := laptop.say(room, "!zaria 2+2 dc10")
	onLaptop := laptop.waitFor("reply on the new device", wait, replyTo(botID(), c2))
	onPhone := phone.waitFor("reply on the old device", wait, replyTo(botID(), c2))
	if !onLaptop.Mautrix.WasEncrypted || !onPhone.Mautrix.WasEncrypted {
		t.Errorf("replies not encrypted")
	}
}

// TestUndecryptable: a message the bot cannot decrypt (damaged in transit)
// gets a 🔒 reaction, not silence and not a guess.
func TestUndecryptable(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", true)
	startBot(t, hs, newRouter(t), botOpts{crypto: true})
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)
	c := alice.say(room, "!zaria 4+2 dc15") // the bot gets the session
	alice.waitFor("reply", wait, replyTo(botID(), c))

	ctx := context.Background()
	enc, err := alice.cli.Crypto.Encrypt(ctx, room, event.EventMessage, &event.MessageEventContent{MsgType: event.MsgText, Body: "!zaria 1+1 dc5"})
	if err != nil {
		t.Fatal(err)
	}
	enc.MegolmCiphertext = bytes.Clone(enc.MegolmCiphertext)
	mid := len(enc.MegolmCiphertext) / 2 // one damaged base64 letter
	if enc.MegolmCiphertext[mid] == 'A' {
		enc.MegolmCiphertext[mid] = 'B'
	} else {
		enc.MegolmCiphertext[mid] = 'A'
	}
	resp, err := alice.cli.SendMessageEvent(ctx, room, event.EventEncrypted, enc)
	if err != nil {
		t.Fatal(err)
	}
	alice.waitFor("🔒", wait, func(e *event.Event) bool {
		r := e.Content.AsReaction().RelatesTo
		return e.Sender == botID() && e.Type == event.EventReaction && r.EventID == resp.EventID && r.Key == lockedKey
	})
	if n := len(alice.matching(replyTo(botID(), resp.EventID))); n != 0 {
		t.Errorf("the damaged message was answered %d times", n)
	}
}
