package matrix

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"maunium.net/go/mautrix/id"
)

// BenchmarkRoundTrip measures a command's round trip through a real
// Dendrite: a person sends !zaria, the bot answers, the person's client has
// the answer (decrypted, in the encrypted case).
func BenchmarkRoundTrip(b *testing.B) {
	for _, encrypted := range []bool{false, true} {
		name := "plain"
		if encrypted {
			name = "encrypted"
		}
		b.Run(name, func(b *testing.B) {
			hs := startServer(b, optsNone)
			alice := newUser(b, hs, fmt.Sprintf("alice%d", b.N), encrypted)
			startBot(b, hs, newRouter(b), botOpts{crypto: encrypted})
			room := alice.createRoom(encrypted, botID())
			alice.waitJoined(room, botID())
			time.Sleep(200 * time.Millisecond)
			warm := alice.say(room, "!zaria 1+1 dc5")
			alice.waitFor("warm-up", wait, replyTo(botID(), warm))
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				c := alice.say(room, "!zaria 4+2 dc15")
				alice.waitFor("reply", wait, replyTo(botID(), c))
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}

// BenchmarkPadPress compares, through a real Dendrite (plain room), the
// round trip of a typed command with a pad press of the same command:
// typed "!1", and a keycap tap (taps alternate between reacting and taking
// the reaction back, each one a press), from the person's send to the
// answer in their client.
func BenchmarkPadPress(b *testing.B) {
	for _, how := range []string{"command", "typed-line", "keycap"} {
		b.Run(how, func(b *testing.B) {
			hs := startServer(b, optsNone)
			alice := newUser(b, hs, "alice", false)
			startBot(b, hs, padRouter(b), botOpts{cfg: func(c *Config) { c.Reactions = ReactionsOff }})
			room := alice.createRoom(false, botID())
			alice.waitJoined(room, botID())
			add := alice.say(room, "!pad add !roll 4d6kh3+2")
			alice.waitFor("pad add", wait, replyTo(botID(), add))
			show := alice.say(room, "!pad")
			padMsg := alice.waitFor("the pad", wait, replyTo(botID(), show))
			ctx := context.Background()
			var tap id.EventID
			press := func() {
				switch how {
				case "command":
					c := alice.say(room, "!roll 4d6kh3+2")
					alice.waitFor("reply", wait, replyTo(botID(), c))
				case "typed-line":
					c := alice.say(room, "!1")
					alice.waitFor("reply", wait, replyTo(botID(), c))
				case "keycap":
					n := len(alice.matching(replyTo(botID(), padMsg.ID)))
					if tap == "" {
						r, err := alice.cli.SendReaction(ctx, room, padMsg.ID, "1️⃣")
						if err != nil {
							b.Fatal(err)
						}
						tap = r.EventID
					} else {
						if _, err := alice.cli.RedactEvent(ctx, room, tap); err != nil {
							b.Fatal(err)
						}
						tap = ""
					}
					for deadline := time.Now().Add(wait); len(alice.matching(replyTo(botID(), padMsg.ID))) == n; {
						if time.Now().After(deadline) {
							b.Fatalf("no answer to the tap within %v", wait)
						}
						select {
						case <-alice.notify:
						case <-time.After(5 * time.Millisecond):
						}
					}
				}
			}
			press() // warm-up
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				press()
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}
