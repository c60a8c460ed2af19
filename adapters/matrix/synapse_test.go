package matrix

import (
	"testing"
)

// TestSynapseEncryptedRoundTrip: on Synapse, a command in an encrypted
// room is answered, encrypted.
func TestSynapseEncryptedRoundTrip(t *testing.T) {
	hs := startSynapse(t)
	alice := newSynapseUser(t, hs, "alice", true)
	startBot(t, hs, newRouter(t), botOpts{crypto: true})
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	cmd := alice.say(room, "!roll 2d6")
	got := alice.waitFor("reply", wait, replyTo(botID(), cmd))
	if !got.Mautrix.WasEncrypted {
		t.Errorf("the reply came unencrypted")
	}
}
