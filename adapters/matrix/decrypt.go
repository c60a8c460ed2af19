package matrix

import (
	"context"
	"sync"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// held keeps the sync batch of each encrypted event the crypto helper has
// not finished with open: its room key may come later (the helper waits
// up to 25 s and asks the sender for it meanwhile), and the batch's token
// must not be saved before the event is handled, or a stop during the
// wait would lose the command for good. Each event is let go once it was
// decrypted and queued in its room (postDecrypted), or found undecryptable
// (undecryptableLater).
type held struct {
	mu   sync.Mutex
	evts map[id.EventID]heldEvent
}

type heldEvent struct {
	ctx context.Context // the sync batch's (its batchKey)
	b   *batch
}

// hold runs before the crypto helper's handler of each encrypted event.
func (a *Adapter) hold(ctx context.Context, evt *event.Event) {
	b, _ := ctx.Value(batchKey{}).(*batch)
	if b == nil {
		return
	}
	a.held.mu.Lock()
	defer a.held.mu.Unlock()
	if _, ok := a.held.evts[evt.ID]; ok {
		return
	}
	if a.held.evts == nil {
		a.held.evts = map[id.EventID]heldEvent{}
	}
	a.batches.add(b)
	a.held.evts[evt.ID] = heldEvent{ctx: ctx, b: b}
}

// release lets go of evt's batch (after its handling is queued).
func (a *Adapter) release(evt id.EventID) {
	a.held.mu.Lock()
	h, ok := a.held.evts[evt]
	delete(a.held.evts, evt)
	a.held.mu.Unlock()
	if ok {
		a.batches.done(h.ctx, h.b)
	}
}

// heldBatch is the batch evt came in, nil when none is held.
func (a *Adapter) heldBatch(evt id.EventID) *batch {
	a.held.mu.Lock()
	defer a.held.mu.Unlock()
	return a.held.evts[evt].b
}

// postDecrypted hands a decrypted event to the handlers (at once, or when
// its key came late), then lets its batch go.
func (a *Adapter) postDecrypted(ctx context.Context, evt *event.Event) {
	a.syncer.Dispatch(ctx, evt)
	a.release(evt.ID)
}

// undecryptableLater queues the 🔒 of a message that could not be
// decrypted (its key never came), in its batch, then lets the batch go.
func (a *Adapter) undecryptableLater(evt *event.Event, err error) {
	a.rooms.push(task{evt: evt, b: a.heldBatch(evt.ID), run: a.guard(func(ctx context.Context, evt *event.Event) { a.undecryptable(ctx, evt, err) })})
	a.release(evt.ID)
}
