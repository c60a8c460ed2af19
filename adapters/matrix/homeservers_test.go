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

// homeservers are the servers onHomeservers runs a test on. Synapse keeps
// its default message rate limit for the bot (newUser exempts the people).
var homeservers = []struct {
	name  string
	start func(t testing.TB) homeserver
}{
	{"dendrite", func(t testing.TB) homeserver { return startServer(t, optsNone) }},
	{"synapse", func(t testing.TB) homeserver { return startSynapse(t) }},
}

// onHomeservers runs f as a subtest on each homeserver.
func onHomeservers(t *testing.T, f func(t *testing.T, hs homeserver)) {
	for _, s := range homeservers {
		t.Run(s.name, func(t *testing.T) { f(t, s.start(t)) })
	}
}

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
