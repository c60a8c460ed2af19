package matrix

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/signatures"
	"maunium.net/go/mautrix/id"
)

// syncBuffer is an io.Writer safe for the bot's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// ownKeys is what another client of the bot's account reads from the keys
// API: the master key, and for device the self-signing key's valid
// signature (the key that signed it, "" when none).
func ownKeys(t *testing.T, cli *mautrix.Client, device id.DeviceID) (master id.Ed25519, signedBy id.Ed25519) {
	t.Helper()
	resp, err := cli.QueryKeys(context.Background(), &mautrix.ReqQueryKeys{DeviceKeys: mautrix.DeviceKeysRequest{botID(): mautrix.DeviceIDList{}}})
	if err != nil {
		t.Fatal(err)
	}
	mk := resp.MasterKeys[botID()]
	master = mk.FirstKey()
	ssk, ok := resp.SelfSigningKeys[botID()]
	if !ok {
		return master, ""
	}
	sskKey := ssk.FirstKey()
	// The self-signing key is the master key's.
	if ok, err := signatures.VerifySignatureJSON(ssk, botID(), master.String(), master); !ok || err != nil {
		t.Errorf("self-signing key not signed by the master key: %v %v", ok, err)
	}
	dev, ok := resp.DeviceKeys[botID()][device]
	if !ok {
		t.Fatalf("device %s not in the keys API", device)
	}
	if ok, err := signatures.VerifySignatureJSON(dev, botID(), sskKey.String(), sskKey); ok && err == nil {
		return master, sskKey
	}
	return master, ""
}

// TestCrossSigning: on its first start with encryption the bot sets up
// cross-signing for its account: another client of the bot's account sees
// the bot's device signed by the account's self-signing key (checked
// through the keys API, signatures verified). The recovery key is printed
// once, saved in a 0600 file next to the database, and in no log. A
// restart changes nothing and prints nothing; a new device of the bot
// (new crypto store) is signed with the saved recovery key, under the same
// master key.
func TestCrossSigning(t *testing.T) {
	hs := startServer(t, optsNone)
	dir := t.TempDir()
	announce := &syncBuffer{}
	b := startBot(t, hs, newRouter(t), botOpts{dir: dir, crypto: true, cfg: func(c *Config) { c.Announce = announce }})
	waitLog(t, b, "cross-signing set up")
	other, err := hs.Login(context.Background(), botName, botPassword)
	if err != nil {
		t.Fatal(err)
	}
	device := b.a.cli.DeviceID
	master, signedBy := ownKeys(t, other, device)
	if master == "" || signedBy == "" {
		t.Fatalf("master key %q; device %s signed by %q: want a master key and a self-signing signature", master, device, signedBy)
	}
	file := filepath.Join(dir, "matrix.recovery-key")
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("recovery key file mode %v, want 0600", st.Mode().Perm())
	}
	data, _ := os.ReadFile(file)
	key := strings.TrimSpace(string(data))
	if len(key) < 40 || !strings.Contains(announce.String(), key) {
		t.Errorf("recovery key %q not the one printed:\n%s", key, announce)
	}
	b.stop()
	if strings.Contains(b.log.String(), key) || strings.Contains(b.log.String(), strings.ReplaceAll(key, " ", "")) {
		t.Error("the recovery key is in the log")
	}

	// A restart: nothing new.
	announce2 := &syncBuffer{}
	b2 := startBot(t, hs, newRouter(t), botOpts{dir: dir, crypto: true, cfg: func(c *Config) { c.Announce = announce2 }})
	waitLog(t, b2, "this device is signed")
	if m, s := ownKeys(t, other, device); m != master || s != signedBy {
		t.Errorf("after a restart: master %s (was %s), signed by %q", m, master, s)
	}
	if announce2.String() != "" {
		t.Errorf("the restart printed again: %q", announce2)
	}
	b2.stop()

	// A new device of the bot: signed with the saved recovery key.
	b3 := startBot(t, hs, newRouter(t), botOpts{crypto: true, cfg: func(c *Config) { c.RecoveryKeyFile = file; c.Announce = announce2 }})
	waitLog(t, b3, "now signed")
	if b3.a.cli.DeviceID == device {
		t.Fatal("the third run did not make a new device")
	}
	if m, s := ownKeys(t, other, b3.a.cli.DeviceID); m != master || s != signedBy {
		t.Errorf("new device: master %s (was %s), signed by %q (want %s)", m, master, s, signedBy)
	}
	b3.stop()
	if strings.Contains(b3.log.String(), key) {
		t.Error("the recovery key is in the third run's log")
	}
}

func waitLog(t *testing.T, b *bot, s string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for b.log.count(s) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the bot never logged %q:\n%s", s, b.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCrossSigningWithoutPassword: with only an access token the bot
// cannot answer the homeserver's password check for publishing
// cross-signing keys (Dendrite asks for it: 401); it says so once, stays
// unsigned and keeps answering.
func TestCrossSigningWithoutPassword(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", true)
	cli, err := hs.Login(context.Background(), botName, botPassword)
	if err != nil {
		t.Fatal(err)
	}
	b := startBot(t, hs, newRouter(t), botOpts{crypto: true, cfg: func(c *Config) { c.Password, c.User, c.AccessToken = "", "", cli.AccessToken }})
	waitLog(t, b, "this device stays unsigned")
	if _, signed := ownKeys(t, cli, b.a.cli.DeviceID); signed != "" {
		t.Errorf("device signed by %s without the password", signed)
	}
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)
	c := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply from the unsigned bot", wait, replyTo(botID(), c))
	if n := b.log.count("cross-signing: setting up"); n != 1 {
		t.Errorf("logged the failure %d times, want once", n)
	}
}
