package matrix

import (
	"fmt"
	"sort"
	"testing"
	"time"
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
