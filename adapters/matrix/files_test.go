package matrix

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"

	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// gameRouter is the router with characters, on a SQLite game database.
func gameRouter(t *testing.T) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "game.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := chattest.NewServices(st, chattest.Options{})
	r := command.New(command.Config{DefaultLang: "en", Translator: cat, Settings: st, Sheets: svc.Sheets, Aliases: svc.Aliases, GMs: st,
		Observers: []command.Observer{svc.History}, Limits: command.Limits{Burst: 1000, Refill: time.Millisecond}})
	general.Register(r, general.Options{Version: "test"})
	roll.Register(r)
	systems.Register(r)
	svc.Register(r)
	return r
}

// TestExportImport: !exportar answers with an m.file (encrypted in an
// encrypted room); sending that file back with the caption !importar, or
// answering it with a bare !importar, imports it.
func TestExportImport(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", true)
	startBot(t, hs, gameRouter(t), botOpts{crypto: true})
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)
	ctx := context.Background()

	c := alice.say(room, "!pj crear Drake")
	alice.waitFor("character created", wait, replyTo(botID(), c))
	exp := alice.say(room, "!exportar")
	fileEvt := alice.waitFor("export file", wait, func(e *event.Event) bool {
		m := e.Content.AsMessage()
		return e.Sender == botID() && m.MsgType == event.MsgFile && m.RelatesTo != nil && m.RelatesTo.InReplyTo != nil && m.RelatesTo.InReplyTo.EventID == exp
	})
	if !fileEvt.Mautrix.WasEncrypted {
		t.Errorf("the export was sent in clear in an encrypted room")
	}
	f := fileEvt.Content.AsMessage()
	if f.File == nil {
		t.Fatalf("export in an encrypted room has no encrypted file info: %s", fileEvt.Content.VeryRaw)
	}
	uri, err := f.File.URL.Parse()
	if err != nil {
		t.Fatal(err)
	}
	data, err := alice.cli.DownloadBytes(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.File.DecryptInPlace(data); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "Drake") {
		t.Fatalf("export = %s, want Drake in it", data)
	}

	// 1. alice sends the file back (unencrypted upload: the bot reads
	// both kinds) with the caption !importar.
	upload := data
	up, err := alice.cli.UploadBytesWithName(ctx, upload, "application/json", "zaria.json")
	if err != nil {
		t.Fatal(err)
	}
	back := alice.send(room, &event.MessageEventContent{MsgType: event.MsgFile, Body: "!importar", FileName: "zaria.json",
		URL: up.ContentURI.CUString(), Info: &event.FileInfo{MimeType: "application/json", Size: len(upload)}})
	got := alice.waitFor("import by caption", wait, replyTo(botID(), back)).Content.AsMessage().Body
	if !strings.Contains(got, "Imported 1 character") {
		t.Errorf("import by caption answered %q", got)
	}

	// 2. a bare !importar answering the bot's file.
	ans := alice.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: "!importar",
		RelatesTo: &event.RelatesTo{InReplyTo: &event.InReplyTo{EventID: fileEvt.ID}}})
	got = alice.waitFor("import by reply", wait, replyTo(botID(), ans)).Content.AsMessage().Body
	if !strings.Contains(got, "Imported 1 character") {
		t.Errorf("import by reply answered %q", got)
	}
}
