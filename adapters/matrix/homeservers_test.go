package matrix

import (
	"context"
	"testing"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/matrix/dendritetest"
	"zaria/adapters/matrix/synapsetest"
)

// homeserver is a real homeserver the tests run on: Dendrite
// (dendritetest) or Synapse (synapsetest).
type homeserver interface {
	HomeserverURL() string
	Register(ctx context.Context, localpart, password string, admin bool) (id.UserID, error)
	Login(ctx context.Context, localpart, password string) (*mautrix.Client, error)
	Restart()
}

var (
	_ homeserver = (*dendritetest.Server)(nil)
	_ homeserver = (*synapsetest.Server)(nil)
)

// startSynapse starts Synapse with its default message rate limit and
// registers the bot account (not exempted: as most self-hosters run it).
func startSynapse(t testing.TB) *synapsetest.Server {
	t.Helper()
	hs := synapsetest.Start(t, synapsetest.Options{})
	if _, err := hs.Register(context.Background(), botName, botPassword, false); err != nil {
		t.Fatal(err)
	}
	return hs
}

// newSynapseUser is newUser on Synapse, exempted from the message rate
// limit (a person types far slower than a test).
func newSynapseUser(t testing.TB, hs *synapsetest.Server, name string, withCrypto bool) *user {
	t.Helper()
	if _, err := hs.Register(context.Background(), name, userPass, false); err != nil {
		t.Fatal(err)
	}
	if err := hs.Exempt(context.Background(), id.NewUserID(name, synapsetest.ServerName)); err != nil {
		t.Fatal(err)
	}
	return newDevice(t, hs, name, withCrypto)
}
