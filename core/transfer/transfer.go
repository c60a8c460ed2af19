// Package transfer moves a chat's data out and back in: /exportar writes
// its settings and character sheets as one JSON document, /importar
// restores such a document (a GM only), all or nothing.
package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/initiative"
	"zaria/core/pad"
	"zaria/core/reply"
	"zaria/core/sheet"
)

// The export document. /exportar writes it; /importar reads it back. Its
// "format" is always ExportFormat and "version" is ExportVersion; a later
// version of the bot that changes the shape raises the version and keeps
// reading older ones.
//
// Adapters pass an attached file's text as the command's argument: on
// Telegram a document whose caption is /importar, on Matrix a file event
// whose body is !importar or a reply "!importar" to the file, in the
// console the JSON pasted after the command.
const (
	ExportFormat  = "zaria-chat"
	ExportVersion = 2
)

type exportDoc struct {
	Format     string            `json:"format"`
	Version    int               `json:"version"`
	Exported   time.Time         `json:"exported"`
	Chat       string            `json:"chat,omitempty"` // informational only
	Settings   exportSettings    `json:"settings"`
	Characters []exportCharacter `json:"characters"`
	// Pads: since version 2. Absent (version 1) leaves the chat's pads.
	Pads *[]exportPad `json:"pads,omitempty"`
	// Tables and Decks (gmtools.go): optional in version 2. Absent leaves the
	// chat's random tables and decks.
	Tables *[]exportTable `json:"tables,omitempty"`
	Decks  *[]exportDeck  `json:"decks,omitempty"`
	// Initiative is the chat's open turn order, when it has one (since
	// version 2; absent leaves the chat's as it is).
	Initiative *initiative.Order `json:"initiative,omitempty"`
	// Systems are the chat's forks and own systems (/sistema; optional in
	// version 2, absent leaves the chat's).
	Systems *[]exportSystem `json:"systems,omitempty"`

	// settingsTwice is the first field given twice in Settings, or in
	// its options, as written ("" when none is): read, never written.
	settingsTwice string
	// padTwice is the first field given twice in a pad or one of its
	// buttons, in the pad of padOwnerTwice ("" when none is).
	padTwice, padOwnerTwice string
}

type exportPad struct {
	Owner   string            `json:"owner"` // "" is the chat's pad
	Buttons []exportPadButton `json:"buttons"`
}

type exportPadButton struct {
	Label   string `json:"label"`
	Command string `json:"command"`
}

type exportSettings struct {
	Lang    string            `json:"lang,omitempty"`
	Options map[string]string `json:"options,omitempty"`
}

type exportCharacter struct {
	Name      string        `json:"name"`
	Owner     string        `json:"owner"`
	OwnerName string        `json:"owner_name,omitempty"`
	System    string        `json:"system,omitempty"`
	Active    bool          `json:"active,omitempty"`
	Values    []exportValue `json:"values,omitempty"`
	Created   time.Time     `json:"created,omitzero"`
	Updated   time.Time     `json:"updated,omitzero"`
}

type exportValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// MaxDocumentBytes is the default size limit of an /importar document:
// core.MaxDocumentBytes, the adapters' limit for an attached file.
const MaxDocumentBytes = core.MaxDocumentBytes

// Options configure a Service.
type Options struct {
	// DocumentBytes is the size limit of an /importar document (0:
	// MaxDocumentBytes); /exportar writes compact JSON and says when it is
	// larger.
	DocumentBytes int
	Now           func() time.Time // nil: time.Now
}

// Store is what export and import need of the chat's store.
type Store interface {
	ListCharacters(ctx context.Context, chat core.ChatRef) ([]sheet.Character, error)
	PadLister
	GMToolsLister
	SystemsLister
	InitiativeReader
	Importer
}

// Service implements /exportar and /importar on top of a Store, checking
// what it imports as /pj checks what it stores (sheets).
type Service struct {
	store  Store
	sheets *sheet.Service
	max    int
	now    func() time.Time
}

// New returns a Service over store; sheets gives the rules of a sheet.
func New(store Store, sheets *sheet.Service, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.DocumentBytes <= 0 {
		o.DocumentBytes = MaxDocumentBytes
	}
	return &Service{store: store, sheets: sheets, max: o.DocumentBytes, now: o.Now}
}

// Register adds /exportar and /importar to r.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "exportar", Aliases: []string{"export", "εξαγωγή"}, Handler: command.WithHints(s.export, command.PrefixHint)})
	r.Register(command.Command{Name: "importar", Aliases: []string{"import", "εισαγωγή"}, Handler: command.WithHints(s.importChat, command.PrefixHint),
		MaxInput: s.max + 100, TakesFile: true})
}

// internal wraps a store failure once; the router logs it and shows the
// user the generic internal-error message.
func internal(op string, err error) error { return fmt.Errorf("transfer %s: %w", op, err) }

// Limits of the settings part of an import.
const (
	maxImportOptions   = 50
	maxOptionKeyLen    = 32
	maxOptionValueLen  = 64
	maxOwnerIDLen      = 128
	maxImportOwnerName = 128
)

func (s *Service) export(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	chars, err := s.store.ListCharacters(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("list", err)
	}
	now := s.now().UTC()
	doc := exportDoc{
		Format: ExportFormat, Version: ExportVersion, Exported: now, Chat: req.Msg.Chat.String(),
		Settings:   exportSettings{Lang: req.Settings.Lang, Options: req.Settings.Options},
		Characters: make([]exportCharacter, 0, len(chars)),
	}
	if len(doc.Settings.Options) == 0 {
		doc.Settings.Options = nil
	}
	for _, c := range chars {
		ec := exportCharacter{Name: c.Name, Owner: c.Owner, OwnerName: c.OwnerName, System: c.System,
			Active: c.Active, Created: c.Created.UTC(), Updated: c.Updated.UTC()}
		for _, v := range c.Values {
			ec.Values = append(ec.Values, exportValue{Name: v.Name, Value: v.Text})
		}
		doc.Characters = append(doc.Characters, ec)
	}
	pads, err := s.store.ChatPads(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("list pads", err)
	}
	eps := make([]exportPad, 0, len(pads))
	for _, p := range pads {
		ep := exportPad{Owner: p.Owner, Buttons: make([]exportPadButton, 0, len(p.Buttons))}
		for _, b := range p.Buttons {
			ep.Buttons = append(ep.Buttons, exportPadButton{Label: b.Label, Command: b.Command})
		}
		eps = append(eps, ep)
	}
	doc.Pads = &eps
	if err := s.exportGMTools(ctx, req.Msg.Chat, &doc); err != nil {
		return nil, err
	}
	if err := s.exportSystems(ctx, req.Msg.Chat, &doc); err != nil {
		return nil, err
	}
	switch o, err := s.store.Initiative(ctx, req.Msg.Chat); {
	case err == nil && o.Open:
		doc.Initiative = &o
	case err != nil && !errors.Is(err, initiative.ErrNone):
		return nil, internal("read turn order", err)
	}
	// Compact, without HTML escapes ("<" stays one byte): the document is as
	// small as JSON makes it, so that what the quotas allow fits the import.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, internal("export", err)
	}
	data := buf.Bytes() // ends with the encoder's newline
	name := "zaria-" + safeFileName(req.Msg.Chat.String()) + "-" + now.Format("20060102") + ".json"
	rep := reply.Text(req.TP("export.done", "count", len(chars), "file", name))
	if len(data) > s.max {
		// Say so now rather than when the GM tries to restore it.
		rep.Add(reply.I(req.TP("export.too_big_size", "max", s.max, "got", len(data))))
	}
	rep.File = &reply.File{Name: name, MIME: "application/json", Data: data}
	return rep, nil
}

// safeFileName keeps letters, digits, - and _ of s (at most 40).
func safeFileName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return fold.Cut(b.String(), 40)
}

func (s *Service) importChat(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if !req.IsGM {
		return nil, command.Errorf("import.only_gm")
	}
	text, replace, err := importFlags(req.Args)
	if err != nil {
		return nil, err
	}
	if text == "" {
		return nil, command.Errorf("import.usage")
	}
	if n := len(text); n > s.max {
		return nil, command.Errorf("import.too_long", "max", s.max, "got", n)
	}
	// The document is checked in its own goroutine, and each character
	// that passes goes to the store at once: the store writes it while
	// the next ones are checked. What the document lacks is deleted only
	// with --reemplazar; the store decides inside the write, on the
	// characters as they are then.
	ctx, cancel := context.WithCancel(ctx)
	src, checked := NewSource(ctx, sourceBuffer, func(send func(sheet.Character) error) (ChatData, error) {
		return s.parseInto(ctx, req, text, send)
	})
	gone, err := s.store.ReplaceChat(ctx, req.Msg.Chat, src, replace)
	cancel()
	<-checked // the checker reads req: it ends before the handler does
	if ue, ok := command.AsUserError(err); ok {
		return nil, ue
	}
	if errors.Is(err, ErrWouldDelete) {
		return nil, command.Errorf("import.would_delete", "count", len(gone), "names", nameList(gone))
	}
	if err != nil {
		return nil, internal("import", err)
	}
	rep := reply.Text(req.TP("import.done", "count", src.n))
	if len(gone) > 0 {
		rep.Add(reply.T(req.TP("import.deleted", "count", len(gone), "names", nameList(gone))))
	}
	return rep, nil
}

// sourceBuffer is how many checked characters may wait for the store.
const sourceBuffer = 16

// importFlags takes the flags in front of an /importar document (the
// adapters put the caption's words first): --reemplazar, --replace or
// --αντικατάσταση allows deleting the chat's characters the document
// lacks.
func importFlags(args string) (text string, replace bool, err error) {
	text = strings.TrimSpace(args)
	for strings.HasPrefix(text, "-") {
		word, rest := text, ""
		if i := strings.IndexFunc(text, unicode.IsSpace); i >= 0 {
			word, rest = text[:i], text[i:]
		}
		switch fold.Key(strings.TrimLeft(word, "-—")) {
		case "reemplazar", "replace", "αντικατασταση":
			replace = true
		default:
			return "", false, command.Errorf("import.unknown_flag", "flag", fold.Cut(word, 20))
		}
		text = strings.TrimSpace(rest)
	}
	return text, replace, nil
}

// nameList joins up to five names: "Drake, Enyra, Mira…".
func nameList(names []string) string {
	const show = 5
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:show], ", ") + "…"
}

// parseInto decodes and checks an export document, handing each
// character to send as soon as it is read and has passed every check (the
// store writes it while the next ones are read); it returns the settings
// and pads. The document is refused, and the store writes nothing, for
// the first of: JSON that is not whole or has a field no export has
// (import.bad_json), a document that is not an export or is newer, bad
// settings, too many characters, the first character that fails a check,
// bad pads — the same answer whatever order its fields come in.
func (s *Service) parseInto(ctx context.Context, req *command.Request, text string, send func(sheet.Character) error) (ChatData, error) {
	// A document pasted in a chat may come inside a ``` block. An editor
	// that saved it again may have put a byte order mark in front (Matrix
	// hands the file over as it is; Telegram's adapter drops it).
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "\ufeff"))
	if strings.HasPrefix(text, "```") {
		text = strings.TrimPrefix(text, "```")
		text = strings.TrimPrefix(text, "json")
		text = strings.TrimSuffix(strings.TrimSpace(text), "```")
	}
	k := &importCheck{s: s, req: req, lim: s.sheets.Limits(), now: s.now(),
		seen: map[string]string{}, seenCap: map[string]string{}, perOwner: map[string]int{}, activeOf: map[string]string{}}
	var (
		doc      exportDoc
		count    int
		tooMany  bool
		charErr  error // the first character that fails a check
		sendFail error // the store gave up
	)
	err := readDoc(text, &doc, func(ec exportCharacter, tw *twice) {
		count++
		if count > k.lim.CharactersPerChat {
			tooMany = true
		}
		if tooMany || charErr != nil || sendFail != nil {
			return // keep reading: a JSON error later still comes first
		}
		if tw != nil {
			// encoding/json keeps the last of the two silently: which
			// one was meant is the user's to say.
			charErr = tw.error(ec, count)
			return
		}
		c, err := k.character(ec)
		if err != nil {
			charErr = err
			return
		}
		sendFail = send(c)
	})
	if err != nil {
		return ChatData{}, command.Errorf("import.bad_json")
	}
	if doc.Format != ExportFormat || doc.Version < 1 {
		return ChatData{}, command.Errorf("import.not_export")
	}
	if doc.Version > ExportVersion {
		return ChatData{}, command.Errorf("import.newer_version", "version", doc.Version, "max", ExportVersion)
	}
	if doc.settingsTwice != "" {
		// encoding/json keeps the last of the two silently.
		return ChatData{}, command.Errorf("import.settings_field_twice", "field", fold.Cut(fold.Clean(doc.settingsTwice), 40))
	}
	settings, err := s.checkImportSettings(req, doc.Settings)
	if err != nil {
		return ChatData{}, err
	}
	if tooMany {
		return ChatData{}, command.Errorf("import.too_many", "max", k.lim.CharactersPerChat, "got", count)
	}
	if charErr != nil {
		return ChatData{}, charErr
	}
	if sendFail != nil {
		return ChatData{}, sendFail
	}
	out := ChatData{Settings: settings}
	if doc.padTwice != "" {
		return ChatData{}, command.Errorf("import.pad_field_twice", "owner", fold.Cut(fold.Clean(doc.padOwnerTwice), 40), "field", doc.padTwice)
	}
	if doc.Pads != nil {
		pads, err := importPads(*doc.Pads)
		if err != nil {
			return ChatData{}, err
		}
		out.Pads = pads
	}
	if err := importGMTools(&doc, &out); err != nil {
		return ChatData{}, err
	}
	if err := importSystems(&doc, &out); err != nil {
		return ChatData{}, err
	}
	if doc.Initiative != nil {
		if !doc.Initiative.Check() {
			return ChatData{}, command.Errorf("import.bad_initiative", "max", initiative.MaxCombatants)
		}
		doc.Initiative.Open = true
		doc.Initiative.Ended = time.Time{}
		out.Initiative = doc.Initiative
	}
	return out, nil
}

// readDoc decodes the export document text into doc, except its
// characters: each is decoded in turn and handed to each as soon as it
// is read, with the first field given twice in it (nil when none is).
// Like json.Decoder with DisallowUnknownFields, it refuses a field no
// export has (and, unlike it, a top-level field given twice).
func readDoc(text string, doc *exportDoc, each func(exportCharacter, *twice)) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	switch t, err := dec.Token(); {
	case err != nil:
		return err
	case t == nil: // null: nothing, as encoding/json reads it
		if _, err := dec.Token(); err != io.EOF {
			return errBadDoc
		}
		return nil
	case t != json.Delim('{'):
		return errBadDoc
	}
	fields := map[string]any{"format": &doc.Format, "version": &doc.Version, "exported": &doc.Exported,
		"chat": &doc.Chat, "settings": &doc.Settings, "pads": &doc.Pads, "characters": nil,
		"tables": &doc.Tables, "decks": &doc.Decks, "initiative": &doc.Initiative, "systems": &doc.Systems}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		key := ""
		for f := range fields {
			if strings.EqualFold(f, name) { // as encoding/json matches field names
				key = f
			}
		}
		if key == "" {
			return errBadDoc
		}
		if seen[key] {
			return errTwice
		}
		seen[key] = true
		if key == "settings" {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			sd := json.NewDecoder(bytes.NewReader(raw))
			sd.DisallowUnknownFields()
			if err := sd.Decode(&doc.Settings); err != nil {
				return err
			}
			doc.settingsTwice = settingsTwice(raw)
			continue
		}
		if key == "pads" {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			pd := json.NewDecoder(bytes.NewReader(raw))
			pd.DisallowUnknownFields()
			if err := pd.Decode(&doc.Pads); err != nil {
				return err
			}
			doc.padOwnerTwice, doc.padTwice = padsTwice(raw)
			continue
		}
		if key != "characters" {
			if err := dec.Decode(fields[key]); err != nil {
				return err
			}
			continue
		}
		if t, err := dec.Token(); err != nil || (t != json.Delim('[') && t != nil) {
			return errBadDoc
		} else if t == nil {
			continue // "characters": null
		}
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			var ec exportCharacter
			cd := json.NewDecoder(bytes.NewReader(raw))
			cd.DisallowUnknownFields()
			if err := cd.Decode(&ec); err != nil {
				return err
			}
			each(ec, fieldTwice(raw))
		}
		if _, err := dec.Token(); err != nil { // ]
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errBadDoc // something after the document
	}
	return nil
}

// twice is a field given twice in one character of a document: in the
// character itself, or (inValue) in its value of that name.
type twice struct {
	char    string // the character's first "name", "" when it has none
	value   string // the value's first "name", when the field is a value's
	field   string // as the export writes it: "name", "values", "value"…
	inValue bool
}

// error is the refusal of ec, the n-th character, for t.
func (t *twice) error(ec exportCharacter, n int) error {
	char := t.char
	if char == "" {
		char = ec.Name
	}
	if char == "" {
		char = "#" + fmt.Sprint(n)
	}
	char = fold.Cut(fold.Clean(char), 40)
	if t.inValue {
		return command.Errorf("import.value_field_twice", "character", char, "name", fold.Cut(fold.Clean(t.value), 40), "field", t.field)
	}
	return command.Errorf("import.field_twice", "character", char, "field", t.field)
}

// Fields of a character and of its values, as the export writes them.
var (
	characterFields = []string{"name", "owner", "owner_name", "system", "active", "values", "created", "updated"}
	valueFields     = []string{"name", "value"}
)

// fieldName is the field of fields that encoding/json fills for the key
// (it matches names without case), or the key itself.
func fieldName(key string, fields []string) string {
	for _, f := range fields {
		if strings.EqualFold(f, key) {
			return f
		}
	}
	return key
}

// fieldTwice finds the first field given twice in raw, a character that
// encoding/json has read (so raw is one valid JSON object): in the
// character, or in one of the objects of its values.
func fieldTwice(raw []byte) *twice {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var found *twice
	name := ""
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := t.(string)
		f := fieldName(key, characterFields)
		if seen[f] && found == nil {
			found = &twice{field: f}
		}
		seen[f] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		switch {
		case f == "name" && name == "":
			_ = json.Unmarshal(v, &name)
		case f == "values" && found == nil:
			found = valueTwice(v)
		}
	}
	if found != nil {
		found.char = name
	}
	return found
}

// objectFields returns the keys of raw, a JSON object, in order, with
// their values (nil when raw is not an object).
func objectFields(raw json.RawMessage) (keys []string, vals []json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil // null
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil
		}
		keys, vals = append(keys, key), append(vals, v)
	}
	return keys, vals
}

// twiceIn is the first of keys that one before it matches as
// encoding/json fills fields (without case), "" when none is.
func twiceIn(keys, fields []string) string {
	for i, k := range keys {
		for _, prev := range keys[:i] {
			if fieldName(prev, fields) == fieldName(k, fields) {
				return fieldName(k, fields)
			}
		}
	}
	return ""
}

// padsTwice finds the first field given twice in raw, the pads of a
// document that encoding/json has read: in a pad ("owner", "buttons") or
// in one of its buttons ("label", "command"). It returns the pad's first
// owner and the field, field "" when none is.
func padsTwice(raw json.RawMessage) (owner, field string) {
	var pads []json.RawMessage
	if json.Unmarshal(raw, &pads) != nil {
		return "", ""
	}
	padFields, buttonFields := []string{"owner", "buttons"}, []string{"label", "command"}
	for _, p := range pads {
		keys, vals := objectFields(p)
		owner, field = "", twiceIn(keys, padFields)
		var buttons []json.RawMessage
		for i, k := range keys {
			switch fieldName(k, padFields) {
			case "owner":
				if owner == "" {
					_ = json.Unmarshal(vals[i], &owner)
				}
			case "buttons":
				if buttons == nil {
					_ = json.Unmarshal(vals[i], &buttons)
				}
			}
		}
		for _, b := range buttons {
			if field != "" {
				break
			}
			keys, _ := objectFields(b)
			field = twiceIn(keys, buttonFields)
		}
		if field != "" {
			if owner == "" {
				owner = "—"
			}
			return owner, field
		}
	}
	return "", ""
}

// settingsTwice finds the first field given twice in raw, the chat's
// settings that encoding/json has read: "lang" or "options" (matched
// without case, as encoding/json does), or an option's name (matched as
// it is, as a map's key). "" when none is.
func settingsTwice(raw json.RawMessage) string {
	fields, vals := objectFields(raw)
	for i, f := range fields {
		f = fieldName(f, []string{"lang", "options"})
		for _, g := range fields[:i] {
			if fieldName(g, []string{"lang", "options"}) == f {
				return f
			}
		}
		if f == "options" {
			opts, _ := objectFields(vals[i])
			for j, o := range opts {
				if slices.Contains(opts[:j], o) {
					return o
				}
			}
		}
	}
	return ""
}

// valueTwice finds the first field given twice in one of the objects of
// raw, a character's "values".
func valueTwice(raw json.RawMessage) *twice {
	var vs []json.RawMessage
	if json.Unmarshal(raw, &vs) != nil {
		return nil // null
	}
	for _, v := range vs {
		var fields []string
		var name string
		dec := json.NewDecoder(bytes.NewReader(v))
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			continue // null
		}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return nil
			}
			key, _ := t.(string)
			var val json.RawMessage
			if err := dec.Decode(&val); err != nil {
				return nil
			}
			f := fieldName(key, valueFields)
			if f == "name" && name == "" {
				_ = json.Unmarshal(val, &name)
			}
			fields = append(fields, f)
		}
		for i, f := range fields {
			if slices.Contains(fields[:i], f) {
				return &twice{value: name, field: f, inValue: true}
			}
		}
	}
	return nil
}

var (
	errBadDoc = errors.New("not an export document")
	errTwice  = errors.New("a field of the document given twice")
)

// importCheck checks a document's characters one at a time, in order:
// what one character may be, and what the ones before it constrain (one
// key each, quotas per owner, one active character an owner).
type importCheck struct {
	s        *Service
	req      *command.Request
	lim      sheet.Limits
	now      time.Time
	seen     map[string]string // key → name
	seenCap  map[string]string // fold.CapitalSkeleton → name
	perOwner map[string]int
	activeOf map[string]string
}

// character checks ec after the characters before it and returns the
// sheet to store.
func (k *importCheck) character(ec exportCharacter) (sheet.Character, error) {
	if err := k.s.sheets.CheckCharacterName(ec.Name); err != nil {
		return sheet.Character{}, err
	}
	key := sheet.NameKey(ec.Name)
	if prev, dup := k.seen[key]; dup {
		if fold.Key(prev) != fold.Key(ec.Name) {
			return sheet.Character{}, command.Errorf("import.duplicate_lookalike", "name", ec.Name, "other", prev)
		}
		return sheet.Character{}, command.Errorf("import.duplicate", "name", ec.Name)
	}
	k.seen[key] = ec.Name
	// Capitals that look alike where their small letters do not (Cyrillic
	// "Мira" and "Mira"), as /pj crear refuses them.
	capKey := fold.CapitalSkeleton(ec.Name)
	if prev, dup := k.seenCap[capKey]; dup {
		return sheet.Character{}, command.Errorf("import.duplicate_lookalike", "name", ec.Name, "other", prev)
	}
	k.seenCap[capKey] = ec.Name
	// An owner id is shown where there is no name: it may hold no line
	// break, control or invisible character.
	if ec.Owner == "" || utf8.RuneCountInString(ec.Owner) > maxOwnerIDLen || fold.Clean(ec.Owner) != ec.Owner ||
		utf8.RuneCountInString(ec.OwnerName) > maxImportOwnerName {
		return sheet.Character{}, command.Errorf("import.bad_owner", "name", ec.Name)
	}
	ec.OwnerName = fold.UserName(ec.OwnerName)
	for _, f := range []struct {
		name string
		t    time.Time
	}{{"created", ec.Created}, {"updated", ec.Updated}} {
		if !Storable(f.t) {
			return sheet.Character{}, command.Errorf("import.bad_date", "name", ec.Name, "field", f.name,
				"date", fold.Cut(f.t.UTC().Format(time.RFC3339), 40), "min", MinYear, "max", MaxYear)
		}
	}
	k.perOwner[ec.Owner]++
	if k.perOwner[ec.Owner] > k.lim.CharactersPerUser {
		return sheet.Character{}, command.Errorf("import.owner_quota", "owner", sheet.OwnerLabel(sheet.Character{Owner: ec.Owner, OwnerName: ec.OwnerName}), "count", k.lim.CharactersPerUser)
	}
	if ec.Active {
		if prev, dup := k.activeOf[ec.Owner]; dup {
			return sheet.Character{}, command.Errorf("import.two_active", "first", prev, "second", ec.Name)
		}
		k.activeOf[ec.Owner] = ec.Name
	}
	if ec.System != "" {
		if id, ok := sheet.ParseSystem(ec.System); !ok || id != ec.System {
			return sheet.Character{}, command.Errorf("character.system_unknown", "name", ec.System, "systems", sheet.SystemList())
		}
	}
	c := sheet.Character{Owner: ec.Owner, OwnerName: ec.OwnerName, Name: ec.Name, Key: key, System: ec.System,
		Active: ec.Active, Created: ec.Created, Updated: ec.Updated}
	if c.Created.IsZero() {
		c.Created = k.now
	}
	if c.Updated.IsZero() {
		c.Updated = c.Created
	}
	if len(ec.Values) > k.lim.ValuesPerSheet {
		return sheet.Character{}, command.Errorf("character.values_quota", "count", k.lim.ValuesPerSheet, "name", ec.Name)
	}
	keys := make(map[string]bool, len(ec.Values))
	c.Values = make([]sheet.Value, 0, len(ec.Values))
	for _, v := range ec.Values {
		vk, err := sheet.ValueKey(v.Name, k.lim.NameLen)
		if err != nil {
			return sheet.Character{}, err
		}
		if keys[vk] {
			return sheet.Character{}, command.Errorf("import.duplicate_value", "name", v.Name, "character", ec.Name)
		}
		keys[vk] = true
		if err := sheet.CheckValueText(v.Value, k.lim.ValueLen); err != nil {
			return sheet.Character{}, err
		}
		if err := k.s.sheets.ValidateKey(k.req, vk, v.Value); err != nil {
			return sheet.Character{}, err
		}
		c.Values = append(c.Values, sheet.Value{Name: v.Name, Key: vk, Text: strings.TrimSpace(v.Value)})
	}
	return c, nil
}

// importPads checks a document's pads as /pad checks what it stores: one
// pad an owner, at most pad.MaxButtons buttons, labels and commands within
// their lengths and on one line without invisible characters.
func importPads(eps []exportPad) ([]Pad, error) {
	pads := make([]Pad, 0, len(eps))
	owners := map[string]bool{}
	for _, ep := range eps {
		who := ep.Owner
		if who == "" {
			who = "—"
		}
		if utf8.RuneCountInString(ep.Owner) > maxOwnerIDLen || fold.Clean(ep.Owner) != ep.Owner || owners[ep.Owner] {
			return nil, command.Errorf("import.bad_pad", "owner", fold.Cut(who, 40))
		}
		owners[ep.Owner] = true
		if len(ep.Buttons) > pad.MaxButtons {
			return nil, command.Errorf("import.bad_pad", "owner", fold.Cut(who, 40))
		}
		p := Pad{Owner: ep.Owner, Buttons: make([]PadButton, 0, len(ep.Buttons))}
		for _, b := range ep.Buttons {
			label, cmd := b.Label, strings.TrimSpace(b.Command)
			if label == "" || utf8.RuneCountInString(label) > pad.MaxLabel || fold.Clean(label) != label ||
				cmd == "" || utf8.RuneCountInString(cmd) > pad.MaxCommand || fold.Clean(cmd) != strings.Join(strings.Fields(cmd), " ") ||
				strings.ContainsAny(cmd, "\n\r\t") {
				return nil, command.Errorf("import.bad_pad", "owner", fold.Cut(who, 40))
			}
			p.Buttons = append(p.Buttons, PadButton{Label: label, Command: cmd})
		}
		pads = append(pads, p)
	}
	return pads, nil
}

// checkImportSettings validates the settings of a document: a known
// language, bounded option keys and values, and for options the bot knows,
// one of their allowed values.
func (s *Service) checkImportSettings(req *command.Request, in exportSettings) (core.Settings, error) {
	if in.Lang != "" && !core.IsLang(in.Lang) {
		return core.Settings{}, command.Errorf("import.bad_setting", "name", "lang", "value", fold.Cut(in.Lang, 16))
	}
	if len(in.Options) > maxImportOptions {
		return core.Settings{}, command.Errorf("import.too_many_settings", "max", maxImportOptions)
	}
	known := map[string]command.Option{}
	for _, o := range req.Router().Options() {
		known[o.Key] = o
	}
	out := core.Settings{Lang: in.Lang, Options: make(map[string]string, len(in.Options))}
	for k, v := range in.Options {
		if k == "" || utf8.RuneCountInString(k) > maxOptionKeyLen || utf8.RuneCountInString(v) > maxOptionValueLen || strings.ContainsAny(k+v, "\n\r\t") {
			return core.Settings{}, command.Errorf("import.bad_setting", "name", fold.Cut(k, 16), "value", fold.Cut(v, 16))
		}
		// The Matrix command prefix, checked as /ajustes prefijo checks it.
		if k == command.PrefixOption && v != "" && !command.ValidPrefix(v) {
			return core.Settings{}, command.Errorf("import.bad_setting", "name", k, "value", fold.Cut(v, 16))
		}
		// The time zone, checked as /ajustes zona checks it.
		if _, ok := command.LoadZone(v); k == command.TimeZoneOption && !ok {
			return core.Settings{}, command.Errorf("import.bad_setting", "name", k, "value", fold.Cut(v, 16))
		}
		if o, ok := known[k]; ok && len(o.Values) > 0 && !slices.Contains(o.Values, v) {
			return core.Settings{}, command.Errorf("import.bad_setting", "name", k, "value", fold.Cut(v, 16))
		}
		out.Options[k] = v
	}
	return out, nil
}
