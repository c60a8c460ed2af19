package matrix

import (
	"context"
	"sync"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// defaultWorkers is how many rooms are handled at once (Config.Workers).
const defaultWorkers = 16

// task is one event waiting in its room's queue.
type task struct {
	evt *event.Event
	run func(ctx context.Context, evt *event.Event)
	b   *batch // the sync batch it came in (nil: none to account to)
}

// rooms runs each room's events in order, one at a time, and up to
// Config.Workers rooms at once: a room that waits (rate limited, a slow
// homeserver, a secret room being created) holds only itself.
//
// At a stop no queued event is started any more; the ones being handled get
// the adapter's grace to finish (handlers detach their context). Queued
// events are not lost: the sync token saved is never past a batch with an
// event not handled (see batches), so the next run gets them again, and the
// journal skips the ones already answered.
type rooms struct {
	a   *Adapter
	ctx context.Context // the adapter's run: its end stops the workers
	sem chan struct{}

	mu     sync.Mutex
	queues map[id.RoomID][]task // a room is here while its worker runs
	closed bool
	wg     sync.WaitGroup // workers
}

func newRooms(ctx context.Context, a *Adapter, workers int) *rooms {
	return &rooms{a: a, ctx: ctx, sem: make(chan struct{}, workers), queues: map[id.RoomID][]task{}}
}

// push queues evt for its room. It returns false once the adapter stops.
func (r *rooms) push(t task) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.ctx.Err() != nil {
		return false
	}
	if t.b != nil {
		r.a.batches.add(t.b)
	}
	room := t.evt.RoomID
	q, running := r.queues[room]
	r.queues[room] = append(q, t)
	if !running {
		r.wg.Add(1)
		go r.work(room)
	}
	return true
}

// pending is how many messages from others (maybe commands) wait in
// room's queue behind the one being handled.
func (r *rooms) pending(room id.RoomID) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, t := range r.queues[room] {
		if t.evt.Sender != r.a.cli.UserID && (t.evt.Type == event.EventMessage || t.evt.Type == event.EventReaction || t.evt.Type == event.EventRedaction) {
			n++
		}
	}
	return n
}

// queued is how many events of room wait, of any kind.
func (r *rooms) queued(room id.RoomID) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queues[room])
}

func (r *rooms) work(room id.RoomID) {
	defer r.wg.Done()
	var last lastEvent
	for {
		r.mu.Lock()
		q := r.queues[room]
		if len(q) == 0 || r.ctx.Err() != nil {
			delete(r.queues, room)
			r.mu.Unlock()
			return
		}
		t := q[0]
		q[0] = task{}
		r.queues[room] = q[1:]
		r.mu.Unlock()
		select {
		case r.sem <- struct{}{}:
		case <-r.ctx.Done():
			continue // not started: the next run gets it again
		}
		if r.ctx.Err() == nil {
			t.run(r.ctx, t.evt)
		}
		<-r.sem
		if r.ctx.Err() != nil {
			continue // maybe cut short: no account of it (the journal has it)
		}
		if t.evt.Mautrix.EventSource&event.SourceTimeline != 0 {
			last = lastEvent{Event: t.evt.ID, TS: t.evt.Timestamp}
		}
		// The newest handled event, once the room's queue is empty (one
		// write per run of events, not per event: a catch-up that starts
		// from an older one still stops at the first event the journal
		// has).
		if last.Event != "" && r.queued(room) == 0 {
			if err := r.a.journal.setLast(r.ctx, room, last); err != nil {
				r.a.log.Error("save last event", "room", room, "err", err)
			}
			last = lastEvent{}
		}
		if t.b != nil {
			r.a.batches.done(r.ctx, t.b)
		}
	}
}

// close refuses new events and waits until every handler has returned.
func (r *rooms) close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.wg.Wait()
}

// batch is one /sync response: its token is saved once all its events,
// and all those of the batches before it, are handled.
type batch struct {
	next       string
	left       int
	dispatched bool // every event of it has been queued
}

// batches saves the sync token as far as the handled events allow.
type batches struct {
	a    *Adapter
	mu   sync.Mutex
	list []*batch
}

func (bs *batches) begin(next string) *batch {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b := &batch{next: next}
	bs.list = append(bs.list, b)
	return b
}

func (bs *batches) add(b *batch) {
	bs.mu.Lock()
	b.left++
	bs.mu.Unlock()
}

func (bs *batches) done(ctx context.Context, b *batch) {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b.left--
	bs.advance(ctx)
}

// dispatched records that b's events are all queued.
func (bs *batches) dispatched(ctx context.Context, b *batch) {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b.dispatched = true
	bs.advance(ctx)
}

// advance saves the token of the newest batch that, with every batch
// before it, is handled. Called with mu held.
func (bs *batches) advance(ctx context.Context) {
	token := ""
	for len(bs.list) > 0 && bs.list[0].dispatched && bs.list[0].left <= 0 {
		token = bs.list[0].next
		bs.list[0] = nil
		bs.list = bs.list[1:]
	}
	if token == "" || ctx.Err() != nil {
		return
	}
	if err := bs.a.cli.Store.SaveNextBatch(ctx, bs.a.cli.UserID, token); err != nil {
		bs.a.log.Error("save sync token", "err", err)
	}
}

type batchKey struct{}

// queue wraps a handler so that the sync loop only queues the event in its
// room; the handler runs in the room's worker.
func (a *Adapter) queue(h func(ctx context.Context, evt *event.Event)) func(ctx context.Context, evt *event.Event) {
	return func(ctx context.Context, evt *event.Event) {
		b, _ := ctx.Value(batchKey{}).(*batch)
		a.rooms.push(task{evt: evt, run: h, b: b})
	}
}
