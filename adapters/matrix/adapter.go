package matrix

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"go.mau.fi/util/dbutil"
	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/cryptohelper"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
	"maunium.net/go/mautrix/sqlstatestore"

	// mattn/go-sqlite3 registers the "sqlite3" driver used for CryptoDB.
	_ "github.com/mattn/go-sqlite3"

	"zaria/adapters/internal/actions"
	"zaria/adapters/internal/backoff"
	"zaria/core"
	"zaria/core/reply"
)

// Dispatcher is what the adapter asks of the core: the part of core.Port
// (documented there as the manual for adapter authors) it uses;
// *command.Router implements it. The adapter asks the core nothing else
// (TestAdaptersImportOnlyThePort in cmd/zaria).
type Dispatcher interface {
	Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool)
	Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool)
	Recognize(ctx context.Context, msg core.Message) (name string, ok bool)
	TakesFile(text string) bool
	Lang(ctx context.Context, chat core.ChatRef, hint string) string
	Text(lang, key string, kv ...any) string
}

// Adapter is one bot account on one homeserver: the connection (login,
// sync, the rooms' queues, membership, sends) with its inbound side (in:
// events to the core) and its outbound side (out: the core's replies to
// events); see README.md's code map.
type Adapter struct {
	cfg   Config
	d     Dispatcher
	state StateStore
	log   *slog.Logger
	// secrets are scrubbed from every log line and returned error.
	secrets *secrets

	cli     *mautrix.Client
	auth    *bearer // the session's access token, on every request of cli
	db      *dbutil.Database
	crypto  *cryptohelper.CryptoHelper
	syncer  *mautrix.DefaultSyncer
	journal *journal
	acts    *actions.Store // what the buttons of its messages mean (outbound.go)

	// warnedRooms are the encrypted rooms already logged as unreadable.
	warnedRooms map[id.RoomID]bool
	// grace is shutdownGrace (shorter in tests).
	grace time.Duration
	// started is when Run began; settled are the rooms whose barrier
	// this run has seen (outbox.go).
	started time.Time
	settled settled
	// warnMu guards warnedRooms.
	warnMu sync.Mutex
	// rooms runs each room's events in order, several rooms at once;
	// batches saves the sync token as far as they are handled.
	rooms   *rooms
	batches *batches
	held    held
	web     *loginLatch // what the web companion asks of the adapter (web.go)
	// budget is the homeserver's rate limit for the bot (budget.go);
	// courier carries the secret results (courier.go).
	budget  *budget
	courier *courier
	in      *inbound  // events become the core's messages and presses (inbound.go)
	out     *outbound // replies become events (outbound.go)
}

// New checks the configuration and builds an adapter. It does not touch the
// network; Run does.
func New(cfg Config, d Dispatcher, state StateStore, logger *slog.Logger) (*Adapter, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if d == nil || state == nil {
		return nil, errors.New("matrix: a dispatcher and a state store are required")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	sec := &secrets{}
	sec.add(cfg.Password)
	sec.add(cfg.AccessToken)
	sec.add(cfg.PickleKey)
	logger = slog.New(redactHandler{h: logger.Handler(), s: sec}).With("adapter", "matrix")
	a := &Adapter{cfg: cfg, d: d, state: state, log: logger, secrets: sec, journal: newJournal(state), grace: shutdownGrace,
		acts: actions.New(state, prefixPad, "", keepDone, logger)}
	a.batches = &batches{a: a}
	a.budget = newBudget()
	a.out = &outbound{cfg: cfg, text: d, hs: a, secret: a, log: logger, state: state, journal: a.journal, acts: a.acts, budget: a.budget,
		busy: func(room id.RoomID) bool { return a.rooms != nil && a.rooms.pending(room) > 0 }}
	a.web = newLoginLatch()
	return a, nil
}

// Name is the adapter's platform name.
func (a *Adapter) Name() string { return "matrix" }

// Run logs in, sets up encryption if configured, and syncs until ctx ends.
// It returns nil when ctx ends, an error only for what retrying cannot fix
// (bad credentials, a crypto store that does not match).
//
// When ctx ends it takes no new event, lets the handlers already running
// finish (each within the grace, see shutdownGrace), and returns only after
// the last of them has returned: the caller may then close the database.
func (a *Adapter) Run(ctx context.Context) error {
	a.started = time.Now()
	a.rooms = newRooms(ctx, a, a.cfg.Workers)
	pctx, stopCourier := context.WithCancel(ctx)
	a.courier = newCourier(pctx, a)
	if err := a.connect(ctx); err != nil {
		stopCourier()
		if ctx.Err() != nil {
			return nil
		}
		return a.secrets.scrubErr(err)
	}
	defer a.close()
	defer func() { stopCourier(); a.courier.wait() }() // second: the couriers too
	defer a.rooms.close()                              // first: the handlers use the databases
	a.courier.resume(ctx)
	a.web.connect()
	err := a.syncLoop(ctx)
	a.auth.stop() // no handler waits for a login that will not come
	if ctx.Err() != nil {
		return nil
	}
	return a.secrets.scrubErr(err)
}

func (a *Adapter) close() {
	if a.crypto != nil {
		if err := a.crypto.Close(); err != nil {
			a.log.Warn("close crypto store", "err", err)
		}
	} else if a.db != nil {
		if err := a.db.Close(); err != nil {
			a.log.Warn("close state database", "err", err)
		}
	}
}

// connect logs in (retrying while the homeserver is unreachable), opens the
// state database and, with a pickle key, the crypto store.
func (a *Adapter) connect(ctx context.Context) error {
	cli, err := mautrix.NewClient(a.cfg.Homeserver, "", "")
	if err != nil {
		return fmt.Errorf("matrix: homeserver URL: %w", err)
	}
	cli.Log = newZerolog(a.log)
	// Retries are ours: the same transaction id, retry_after_ms honoured.
	cli.DefaultHTTPRetries = 0
	cli.IgnoreRateLimit = true
	a.auth = newBearer(nil)
	cli.Client = &http.Client{Timeout: a.cfg.SyncTimeout + 30*time.Second, Transport: a.auth}
	a.cli = cli

	var who session
	if err := a.retry(ctx, "login", func() (err error) { who, err = a.login(ctx); return err }); err != nil {
		return err
	}
	// Set once, before any room worker or the sync loop reads them.
	cli.UserID, cli.DeviceID = who.user, who.device

	if err := a.journal.migrate(ctx); err != nil {
		return err
	}
	if v, _, err := a.state.State(ctx, keyLimited); err == nil && v == "1" {
		a.budget.Remembered()
	}

	// The file holds the Olm account and sessions: private to this user.
	if err := os.MkdirAll(filepath.Dir(a.cfg.CryptoDB), 0o700); err != nil {
		return fmt.Errorf("matrix: crypto database folder: %w", err)
	}
	if f, err := os.OpenFile(a.cfg.CryptoDB, os.O_CREATE|os.O_RDONLY, 0o600); err == nil {
		f.Close()
	}
	db, err := dbutil.NewWithDialect("file:"+a.cfg.CryptoDB+"?_txlock=immediate&_foreign_keys=on&_journal_mode=WAL&_busy_timeout=5000", "sqlite3")
	if err != nil {
		return fmt.Errorf("matrix: open %s: %w", a.cfg.CryptoDB, err)
	}
	a.db = db
	ss := sqlstatestore.NewSQLStateStore(db, dbutil.ZeroLogger(cli.Log), false)
	if err := ss.Upgrade(ctx); err != nil {
		db.Close()
		return fmt.Errorf("matrix: upgrade state store: %w", err)
	}
	cli.StateStore = ss
	cli.Store = syncStore{a.state}

	syncer := mautrix.NewDefaultSyncer()
	syncer.FilterJSON = &mautrix.Filter{Room: &mautrix.RoomFilter{Timeline: &mautrix.FilterPart{Limit: 100}}}
	cli.Syncer = syncer
	a.syncer = syncer
	syncer.OnEvent(cli.StateStoreSyncHandler)

	if a.cfg.PickleKey != "" {
		helper, err := cryptohelper.NewCryptoHelper(cli, []byte(a.cfg.PickleKey), db)
		if err != nil {
			db.Close()
			return fmt.Errorf("matrix: crypto: %w", err)
		}
		helper.DecryptErrorCallback = a.undecryptableLater
		helper.CustomPostDecrypt = a.postDecrypted
		// Before the helper's own handler, which Init adds: see held.
		syncer.OnEventType(event.EventEncrypted, a.hold)
		if err := a.retry(ctx, "crypto init", func() error { return helper.Init(ctx) }); err != nil {
			db.Close()
			return fmt.Errorf("matrix: crypto init (is the pickle key the one this crypto database was made with?): %w", err)
		}
		cli.Crypto = helper
		a.crypto = helper
		a.crossSign(ctx)
	}
	a.in = &inbound{cfg: a.cfg, d: a.d, out: a.out, look: a, cli: cli, crypto: a.crypto, state: a.state, journal: a.journal,
		acts: a.acts, log: a.log, grace: a.grace}
	if a.crypto == nil {
		syncer.OnEventType(event.EventEncrypted, a.guard(a.onEncryptedWithoutKey))
	}
	syncer.OnEventType(event.StateMember, a.queue(a.guard(a.onMember)))
	syncer.OnEventType(event.EventMessage, a.queue(a.guard(a.in.onMessage)))
	syncer.OnEventType(event.EventReaction, a.queue(a.guard(a.in.onReaction)))
	syncer.OnEventType(event.EventRedaction, a.queue(a.guard(a.in.onRedaction)))
	a.log.Info("logged in", "user", cli.UserID, "device", cli.DeviceID, "encryption", a.crypto != nil)
	return nil
}

// session is who a login made the bot: its user, device and token.
type session struct {
	user   id.UserID
	device id.DeviceID
}

// login reuses the stored session when it is still valid, otherwise logs in
// with the password on the stored device, or uses the configured token. It
// puts the token on a.auth and returns the user and device; it writes
// nothing on a.cli, which room workers may be using (see bearer).
func (a *Adapter) login(ctx context.Context) (session, error) {
	cli := a.cli
	if a.cfg.AccessToken != "" {
		a.auth.set(a.cfg.AccessToken)
		who, err := cli.Whoami(ctx)
		if err != nil {
			return session{}, fmt.Errorf("matrix: check access token: %w", err)
		}
		return session{who.UserID, who.DeviceID}, a.state.SetState(ctx, keyDeviceID, string(who.DeviceID))
	}
	deviceID, _, err := a.state.State(ctx, keyDeviceID)
	if err != nil {
		return session{}, fmt.Errorf("matrix: load device id: %w", err)
	}
	token, _, err := a.state.State(ctx, keyAccessToken)
	if err != nil {
		return session{}, fmt.Errorf("matrix: load session: %w", err)
	}
	storedUser, _, err := a.state.State(ctx, keyUserID)
	if err != nil {
		return session{}, fmt.Errorf("matrix: load session: %w", err)
	}
	if token != "" && sameUser(storedUser, a.cfg.User) {
		a.secrets.add(token)
		a.auth.set(token)
		who, err := cli.Whoami(ctx)
		if err == nil && who.DeviceID == id.DeviceID(deviceID) {
			a.log.Debug("resumed stored session", "device", who.DeviceID)
			return session{who.UserID, who.DeviceID}, nil
		}
		if err != nil && !errors.Is(err, mautrix.MUnknownToken) {
			return session{}, fmt.Errorf("matrix: check session: %w", err)
		}
	}
	a.auth.set("")
	if !sameUser(storedUser, a.cfg.User) {
		deviceID = "" // another account: a new device
	}
	resp, err := cli.Login(ctx, &mautrix.ReqLogin{
		Type:                     mautrix.AuthTypePassword,
		Identifier:               mautrix.UserIdentifier{Type: mautrix.IdentifierTypeUser, User: a.cfg.User},
		Password:                 a.cfg.Password,
		DeviceID:                 id.DeviceID(deviceID),
		InitialDeviceDisplayName: a.cfg.DeviceName,
	})
	if err != nil {
		return session{}, fmt.Errorf("matrix: login as %s: %w", a.cfg.User, err)
	}
	a.secrets.add(resp.AccessToken)
	for k, v := range map[string]string{keyDeviceID: string(resp.DeviceID), keyAccessToken: resp.AccessToken, keyUserID: a.cfg.User} {
		if err := a.state.SetState(ctx, k, v); err != nil {
			return session{}, fmt.Errorf("matrix: save session: %w", err)
		}
	}
	a.auth.set(resp.AccessToken)
	return session{resp.UserID, resp.DeviceID}, nil
}

func sameUser(stored, configured string) bool { return stored == configured }

// syncLoop long-polls /sync, hands each batch to the handlers and saves the
// token after the batch is handled.
func (a *Adapter) syncLoop(ctx context.Context) error {
	since, err := a.cli.Store.LoadNextBatch(ctx, a.cli.UserID)
	if err != nil {
		return fmt.Errorf("matrix: load sync token: %w", err)
	}
	var filterID string
	err = a.retry(ctx, "create filter", func() error {
		filterID, err = a.filter(ctx)
		return err
	})
	if err != nil {
		return err
	}
	bo := a.newBackoff()
	var failingSince time.Time
	for ctx.Err() == nil {
		timeout := int(a.cfg.SyncTimeout / time.Millisecond)
		if since == "" || !failingSince.IsZero() {
			timeout = 0
		}
		resp, err := a.cli.FullSyncRequest(ctx, mautrix.ReqSync{Timeout: timeout, Since: since, FilterID: filterID})
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, mautrix.MUnknownToken) {
				if a.cfg.Password == "" {
					return fmt.Errorf("matrix: the access token was revoked: %w", err)
				}
				a.log.Warn("session ended by the homeserver, logging in again")
				_ = a.state.SetState(ctx, keyAccessToken, "")
				var who session
				if err := a.retry(ctx, "login", func() (err error) { who, err = a.login(ctx); return err }); err != nil {
					return err
				}
				if who.user != a.cli.UserID || who.device != a.cli.DeviceID {
					// The stored device is asked for, so a homeserver that
					// keeps to the spec gives it back; the crypto store
					// belongs to it.
					return fmt.Errorf("matrix: logging in again gave device %s of %s, not %s of %s: restart the bot", who.device, who.user, a.cli.DeviceID, a.cli.UserID)
				}
				if err := a.republishDeviceKeys(ctx); err != nil && ctx.Err() == nil {
					a.log.Error("device keys after logging in again", "err", err)
				}
				continue
			}
			if errCode(err) == "M_UNKNOWN_POS" {
				// An unknown token: start over without history.
				a.log.Warn("homeserver forgot the sync position; resuming without history")
				since = ""
				continue
			}
			if failingSince.IsZero() {
				failingSince = time.Now()
				a.log.Warn("sync failing; retrying quietly until the homeserver answers", "err", err)
			}
			if backoff.Sleep(ctx, bo.After(retryAfter(err))) != nil {
				return nil
			}
			continue
		}
		if !failingSince.IsZero() {
			a.log.Info("sync recovered", "down_for", time.Since(failingSince).Round(time.Millisecond))
			failingSince = time.Time{}
		}
		bo.Reset()
		// The batch's events go to their rooms' queues; its token is saved
		// once they (and those of earlier batches) are handled.
		b := a.batches.begin(resp.NextBatch)
		if err := a.process(context.WithValue(ctx, batchKey{}, b), resp, since); err != nil {
			a.log.Error("sync batch", "err", err)
		}
		if ctx.Err() != nil {
			return nil // the batch may be cut short: keep the old token
		}
		a.batches.dispatched(ctx, b)
		since = resp.NextBatch
	}
	return nil
}

func (a *Adapter) filter(ctx context.Context) (string, error) {
	fid, err := a.cli.Store.LoadFilterID(ctx, a.cli.UserID)
	if err != nil || fid != "" {
		return fid, err
	}
	resp, err := a.cli.CreateFilter(ctx, a.syncer.GetFilterJSON(a.cli.UserID))
	if err != nil {
		return "", fmt.Errorf("matrix: create filter: %w", err)
	}
	return resp.FilterID, a.cli.Store.SaveFilterID(ctx, a.cli.UserID, resp.FilterID)
}

// undecryptable handles a message the bot could not decrypt (keys never
// arrived): history is only noted; a new message gets a 🔒 reaction, so the
// sender knows the bot saw it and could not read it (no text: no language
// to guess).
func (a *Adapter) undecryptable(ctx context.Context, evt *event.Event, err error) {
	if !a.in.fresh(ctx, evt) {
		a.log.Debug("cannot decrypt history", "room", evt.RoomID, "event", evt.ID, "err", err)
		return
	}
	a.log.Warn("cannot decrypt message", "room", evt.RoomID, "event", evt.ID, "sender", evt.Sender, "err", err)
	ctx, cancel := detach(ctx, a.grace)
	defer cancel()
	c := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: evt.ID, Key: lockedKey}}
	if _, err := a.send(ctx, evt.RoomID, event.EventReaction, c, a.out.txnID(evt.ID, "locked")); err != nil && ctx.Err() == nil {
		a.log.Warn("mark undecryptable message", "room", evt.RoomID, "event", evt.ID, "err", err)
	}
}

// lockedKey marks a message the bot could not decrypt.
const lockedKey = "🔒"

// onEncryptedWithoutKey notes, once per room and run, that a room is
// encrypted while encryption is off (no pickle key): the bot cannot read it.
func (a *Adapter) onEncryptedWithoutKey(ctx context.Context, evt *event.Event) {
	if !a.in.fresh(ctx, evt) {
		return
	}
	a.warnMu.Lock()
	defer a.warnMu.Unlock()
	if a.warnedRooms == nil {
		a.warnedRooms = map[id.RoomID]bool{}
	}
	if a.warnedRooms[evt.RoomID] {
		return
	}
	a.warnedRooms[evt.RoomID] = true
	a.log.Warn("encrypted room, but encryption is off (no pickle key): its messages cannot be read", "room", evt.RoomID)
}

// process hands one sync batch to the handlers.
func (a *Adapter) process(ctx context.Context, resp *mautrix.RespSync, since string) error {
	// The bot's joins first: the timeline of a room just joined starts with
	// history from before the join, which must not be answered.
	for room, data := range resp.Rooms.Join {
		for _, evt := range append(data.State.Events[:len(data.State.Events):len(data.State.Events)], data.Timeline.Events...) {
			if ts, ok := a.ownJoin(evt); ok {
				a.raiseFloor(ctx, room, ts)
			}
		}
	}
	if since != "" {
		for room, data := range resp.Rooms.Join {
			// After the floors: in a room just joined, what a limited
			// timeline leaves out is mostly history, and the walk back
			// stops at the join.
			if data.Timeline.Limited && data.Timeline.PrevBatch != "" {
				a.fillGap(ctx, room, data, since)
			}
		}
	}
	if since == "" {
		last := map[id.RoomID]int64{}
		for room, data := range resp.Rooms.Join {
			for _, evt := range data.Timeline.Events {
				last[room] = max(last[room], evt.Timestamp)
			}
		}
		a.markHistory(ctx, last)
	}
	a.dropEncryptedHistory(ctx, resp)
	if err := a.syncer.ProcessResponse(ctx, resp, since); err != nil {
		return err
	}
	// Each room's worker records its newest handled event (a later
	// catch-up stops there).
	return nil
}

// dropEncryptedHistory takes out of the batch the encrypted events from
// before the bot joined their room (or from before a fresh state): they are
// never answered, and the bot has no keys for them. Left in, each one
// would have the crypto helper wait for its key and then send the sender a
// room key request: 150 requests for a room with 150 messages of history.
func (a *Adapter) dropEncryptedHistory(ctx context.Context, resp *mautrix.RespSync) {
	for room, data := range resp.Rooms.Join {
		floor := int64(-1)
		kept := data.Timeline.Events[:0]
		for _, evt := range data.Timeline.Events {
			if evt.Type.Type == event.EventEncrypted.Type {
				if floor < 0 {
					v, _, err := a.state.State(ctx, keyJoined(room))
					if err != nil {
						a.log.Error("load join time", "room", room, "err", err)
					}
					floor = parseInt(v)
				}
				if evt.Timestamp < floor {
					continue
				}
			}
			kept = append(kept, evt)
		}
		clear(data.Timeline.Events[len(kept):])
		data.Timeline.Events = kept
	}
}

// maxGap bounds how many missed events of one room are fetched after a
// long absence.
const maxGap = 2000

// gapPage is how many events one /messages request asks for.
const gapPage = 100

// fillGap fetches the events a limited timeline left out (more arrived
// while the bot was away than one sync returns) and puts them before it, so
// none is skipped. It walks back from the timeline to the newest event it
// already knows: the last event of the last completed batch, an event
// already answered, anything older than either or than the bot's join.
// The homeserver's "to" (the stored sync token) is passed too, but not
// relied on: Dendrite keeps paging past it to the room's creation.
func (a *Adapter) fillGap(ctx context.Context, room id.RoomID, data *mautrix.SyncJoinedRoom, since string) {
	last, err := a.journal.last(ctx, room)
	if err != nil {
		a.log.Error("load last event", "room", room, "err", err)
	}
	floorV, _, err := a.state.State(ctx, keyJoined(room))
	if err != nil {
		a.log.Error("load join time", "room", room, "err", err)
	}
	floor := parseInt(floorV)
	known := func(e *event.Event) bool {
		if e.ID == last.Event || (last.TS > 0 && e.Timestamp < last.TS) || e.Timestamp < floor {
			return true
		}
		if e.Type == event.StateCreate {
			return true
		}
		done, err := a.journal.seen(ctx, e.ID)
		if err != nil {
			a.log.Error("journal", "room", room, "err", err)
		}
		return done
	}
	var missed []*event.Event
	from := data.Timeline.PrevBatch
	reached := false
	pages := 0
	for len(missed) < maxGap && !reached {
		var resp *mautrix.RespMessages
		err := a.retry(ctx, "fetch missed events", func() error {
			var err error
			resp, err = a.cli.Messages(ctx, room, from, since, mautrix.DirectionBackward, nil, gapPage)
			return err
		})
		if err != nil {
			if ctx.Err() == nil {
				a.log.Warn("missed events of a room could not be fetched", "room", room, "err", err)
			}
			break
		}
		pages++
		for _, e := range resp.Chunk {
			if known(e) {
				reached = true
				break
			}
			missed = append(missed, e)
		}
		if resp.End == "" || len(resp.Chunk) == 0 || resp.End == from {
			break
		}
		from = resp.End
	}
	if len(missed) >= maxGap {
		missed = missed[:maxGap]
		a.log.Warn("too many missed events in a room; the oldest are skipped", "room", room, "kept", len(missed))
	}
	slices.Reverse(missed)
	data.Timeline.Events = append(missed, data.Timeline.Events...)
	a.log.Info("fetched events missed while away", "room", room, "count", len(missed), "pages", pages)
}

// guard wraps an event handler so that a panic in one event is logged and
// the rest of the batch still runs.
func (a *Adapter) guard(h func(ctx context.Context, evt *event.Event)) mautrix.EventHandler {
	return func(ctx context.Context, evt *event.Event) {
		defer func() {
			if v := recover(); v != nil {
				a.log.Error("event handler panic", "room", evt.RoomID, "event", evt.ID, "panic", fmt.Sprint(v))
			}
		}()
		h(ctx, evt)
	}
}
