package matrix

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/core/reply"
)

// Secret rolls travel apart from the room they were rolled in: the room
// gets its notice at once, and the result is queued durably (the state
// store, before the notice goes) and carried by a courier, one per room
// and roller, to the roller's secret room, found or made. Under a
// homeserver's rate limit the courier waits as long as the homeserver
// asks (retry_after_ms), within Config.SecretRoomFor; only then is the
// game room told, and the result stays queued: the roller's next secret
// roll, in that room or in a direct chat with the bot, brings it. A
// delivery's transaction id derives from the command, so a courier that
// starts again after a crash never shows a result twice.

// pendingSecret is a secret result not yet delivered.
type pendingSecret struct {
	Cmd    id.EventID `json:"cmd"` // the command: transaction ids derive from it
	Origin id.RoomID  `json:"origin"`
	Roller id.UserID  `json:"roller"`
	GMs    []string   `json:"gms,omitempty"` // named with /gm add
	Body   string     `json:"body"`
	HTML   string     `json:"html,omitempty"`
	Lang   string     `json:"lang,omitempty"`
	Told   bool       `json:"told,omitempty"` // the game room was told it is late
}

// keySecretQueue holds the pending secret results (a JSON list).
const keySecretQueue = "matrix/secret_queue"

// maxPendingSecrets bounds the queue; the oldest go first (logged).
const maxPendingSecrets = 200

// courier is the secret-result queue and its runs, one per game room
// and roller, each carrying that roller's results to their secret room.
// Its name is its own: Adapter.Post is the web page's post to a room.
type courier struct {
	a   *Adapter
	ctx context.Context // the run's: couriers stop with it

	mu      sync.Mutex
	loaded  bool
	queue   []pendingSecret
	running map[string]bool // origin|roller with a run on its way
	wg      sync.WaitGroup

	// making: one secret room is made at a time, so a half-made one is
	// never taken for another's.
	making sync.Mutex
}

func newCourier(ctx context.Context, a *Adapter) *courier {
	return &courier{a: a, ctx: ctx, running: map[string]bool{}}
}

func courierKey(origin id.RoomID, roller id.UserID) string {
	return string(origin) + "|" + string(roller)
}

// load reads the queue once; the caller holds mu.
func (p *courier) load(ctx context.Context) error {
	if p.loaded {
		return nil
	}
	v, ok, err := p.a.state.State(ctx, keySecretQueue)
	if err != nil {
		return fmt.Errorf("load secret queue: %w", err)
	}
	if ok && v != "" {
		if err := json.Unmarshal([]byte(v), &p.queue); err != nil {
			p.a.log.Error("secret queue unreadable; starting a new one", "err", err)
			p.queue = nil
		}
	}
	p.loaded = true
	return nil
}

// save writes the queue; the caller holds mu.
func (p *courier) save(ctx context.Context) error {
	b, err := json.Marshal(p.queue)
	if err != nil {
		return err
	}
	if err := p.a.state.SetState(context.WithoutCancel(ctx), keySecretQueue, string(b)); err != nil {
		return fmt.Errorf("save secret queue: %w", err)
	}
	return nil
}

// enqueue keeps s durably (once per command: a command answered again
// after a crash keeps its first result) and sends a courier.
func (p *courier) enqueue(ctx context.Context, s pendingSecret) error {
	p.mu.Lock()
	if err := p.load(ctx); err != nil {
		p.mu.Unlock()
		return err
	}
	known := false
	for _, q := range p.queue {
		known = known || q.Cmd == s.Cmd
	}
	if !known {
		p.queue = append(p.queue, s)
		if n := len(p.queue) - maxPendingSecrets; n > 0 {
			p.a.log.Warn("secret queue full; the oldest results are dropped", "dropped", n)
			p.queue = append(p.queue[:0:0], p.queue[n:]...)
		}
		if err := p.save(ctx); err != nil {
			p.mu.Unlock()
			return err
		}
	}
	p.mu.Unlock()
	p.kick(s.Roller)
	return nil
}

// kick sends a courier for each room with results pending for roller
// ("" for everyone), unless one is on its way.
func (p *courier) kick(roller id.UserID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return
	}
	for _, q := range p.queue {
		if roller != "" && q.Roller != roller {
			continue
		}
		k := courierKey(q.Origin, q.Roller)
		if p.running[k] {
			continue
		}
		p.running[k] = true
		p.wg.Add(1)
		go p.run(q.Origin, q.Roller)
	}
}

// resume sends couriers for what an earlier run left in the queue.
func (p *courier) resume(ctx context.Context) {
	p.mu.Lock()
	err := p.load(ctx)
	n := len(p.queue)
	p.mu.Unlock()
	if err != nil {
		p.a.log.Error("secret queue", "err", err)
		return
	}
	if n > 0 {
		p.a.log.Info("delivering secret results left by an earlier run", "count", n)
		p.kick("")
	}
}

// wait returns once every courier has stopped (they stop with the run).
func (p *courier) wait() { p.wg.Wait() }

// pendingFor lists the results waiting for origin and roller, oldest
// first; when there are none it ends the courier (atomically, so that a
// result queued meanwhile gets one).
func (p *courier) pendingFor(origin id.RoomID, roller id.UserID) []pendingSecret {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []pendingSecret
	for _, q := range p.queue {
		if q.Origin == origin && q.Roller == roller {
			out = append(out, q)
		}
	}
	if len(out) == 0 {
		delete(p.running, courierKey(origin, roller))
	}
	return out
}

// delivered takes cmd's result out of the queue.
func (p *courier) delivered(ctx context.Context, cmd id.EventID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	kept := p.queue[:0]
	for _, q := range p.queue {
		if q.Cmd != cmd {
			kept = append(kept, q)
		}
	}
	clear(p.queue[len(kept):])
	p.queue = kept
	if err := p.save(ctx); err != nil {
		p.a.log.Error("secret queue", "err", err)
	}
}

// giveUp ends the courier of origin and roller, marks its results told and
// returns those that were not yet (atomically: see pendingFor).
func (p *courier) giveUp(ctx context.Context, origin id.RoomID, roller id.UserID) []pendingSecret {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, courierKey(origin, roller))
	var untold []pendingSecret
	for i, q := range p.queue {
		if q.Origin == origin && q.Roller == roller && !q.Told {
			untold = append(untold, q)
			p.queue[i].Told = true
		}
	}
	if len(untold) > 0 {
		if err := p.save(ctx); err != nil {
			p.a.log.Error("secret queue", "err", err)
		}
	}
	return untold
}

// stopped ends a courier cut short by the run's end.
func (p *courier) stopped(origin id.RoomID, roller id.UserID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, courierKey(origin, roller))
}

// run delivers the results pending for origin and roller, trying for
// Config.SecretRoomFor; then the game room is told.
func (p *courier) run(origin id.RoomID, roller id.UserID) {
	defer p.wg.Done()
	a := p.a
	ctx, cancel := context.WithTimeout(p.ctx, a.cfg.SecretRoomFor)
	defer cancel()
	for {
		items := p.pendingFor(origin, roller)
		if len(items) == 0 {
			return
		}
		err := p.carry(ctx, origin, roller, items)
		if err == nil {
			continue
		}
		if p.ctx.Err() != nil {
			p.stopped(origin, roller) // the next run goes on
			return
		}
		untold := p.giveUp(ctx, origin, roller)
		a.log.Warn("secret roll not delivered yet; kept for the roller's next secret roll", "room", origin, "roller", roller, "pending", len(items), "err", err)
		for _, s := range untold {
			p.tell(s)
		}
		return
	}
}

// carry delivers items (one room and roller) to the secret room.
func (p *courier) carry(ctx context.Context, origin id.RoomID, roller id.UserID, items []pendingSecret) error {
	a := p.a
	room, err := a.secretRoom(ctx, origin, roller, items[len(items)-1].GMs)
	if err != nil {
		return err
	}
	for _, s := range items {
		c := &event.MessageEventContent{MsgType: event.MsgNotice, Body: s.Body}
		if s.HTML != "" {
			c.Format, c.FormattedBody = event.FormatHTML, s.HTML
		}
		if s.Roller != "" {
			c.Mentions = &event.Mentions{UserIDs: []id.UserID{s.Roller}}
		}
		sctx, cancel := detach(ctx, a.grace)
		_, err := a.send(sctx, room, event.EventMessage, c, a.out.txnID(s.Cmd, "secret"))
		cancel()
		if err != nil {
			if !temporary(err) {
				// Not that room any more (left, kicked): find or make another.
				_ = a.state.SetState(context.WithoutCancel(ctx), keySecret(origin, roller), "")
			}
			return fmt.Errorf("send secret result: %w", err)
		}
		p.delivered(ctx, s.Cmd)
	}
	return nil
}

// tell says in the game room that s is late (a reply to its command).
func (p *courier) tell(s pendingSecret) {
	a := p.a
	lang := s.Lang
	if lang == "" {
		lang = a.out.lang(p.ctx, s.Origin)
	}
	rep := reply.Warning(lang, a.d.Text(lang, "mx.secret.late"))
	c := notice(rep)
	relate(c, target{room: s.Origin, replyTo: s.Cmd, mention: s.Roller})
	ctx, cancel := detach(p.ctx, a.grace)
	defer cancel()
	if _, err := a.send(ctx, s.Origin, event.EventMessage, c, a.out.txnID(s.Cmd, "secret late")); err != nil && ctx.Err() == nil {
		a.log.Error("tell the room a secret result is late", "room", s.Origin, "err", err)
	}
}
