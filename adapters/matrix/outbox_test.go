package matrix

import (
	"context"
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"

	"zaria/core/reply"
	"zaria/storage/sqlite"
)

// TestRecordedReplyWhole: what a later run sends from the record is the
// reply as deliver reads it, whole: lines and styles, buttons and their
// Actions, a chart (its series, marks and text), a secret roll's part and
// its GMs, a file, a status message. Only what no chat shows (a series'
// exact fractions, Data) is left out.
func TestRecordedReplyWhole(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	o := &outbound{state: st, journal: newJournal(st), log: slog.New(slog.NewTextHandler(testWriter{t}, nil))}
	total, aim := int64(11), int64(9)
	rep := &reply.Reply{
		Lines:   []reply.Line{{reply.T("🎲 2d6 "), reply.B("11"), reply.C("[5, 6]")}, {reply.I("ok")}},
		Buttons: []reply.Button{{Kind: reply.ButtonAgain, Label: "🎲", Action: &reply.Action{Kind: reply.ActAgain, Command: "/roll 2d6", Actual: &total}}, {Label: "Ataque", Symbol: "▶", Action: &reply.Action{Kind: reply.ActRun, Button: 7, Values: []string{"Drake"}}}},
		Command: "/roll 2d6",
		Chart: &reply.Chart{Title: "2d6", Series: []reply.Series{{Label: "2d6", Min: 2, P: []float64{1.0 / 36, 2.0 / 36}, Exact: func() []string { return []string{"1/36"} }}},
			Target: &aim, Actual: &total, Text: []reply.Line{{reply.T("▇▇")}}},
		Secret:   &reply.Reply{Lines: []reply.Line{{reply.B("17")}}, Lang: "el"},
		SecretTo: []string{"@gm:localhost"},
		Blind:    true,
		File:     &reply.File{Name: "x.json", MIME: "application/json", Data: []byte(`{"a":1}`)},
		Status:   &reply.Reply{Lines: []reply.Line{{reply.T("▶ Drake")}}},
		Slot:     "initiative",
		Mention:  []string{"@alice:localhost"},
		Lang:     "es",
		Data:     map[string]any{"x": 1},
	}
	tg := target{room: "!r:localhost", txn: "$cmd"}
	o.record(context.Background(), tg, rep)
	got, ok := o.recorded(context.Background(), "$cmd")
	if !ok {
		t.Fatal("no record")
	}
	want := recordable(rep)
	want.Chart.Series = []reply.Series{want.Chart.Series[0]}
	want.Chart.Series[0].Exact = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("recorded:\n%+v\nwant:\n%+v", got, want)
	}
	if got.Chart.Series[0].P[1] != 2.0/36 || got.Secret.Lines[0][0].Text != "17" || *got.Buttons[0].Action.Actual != 11 {
		t.Errorf("recorded reply lost its roll: %+v", got)
	}
	if _, ok := o.recorded(context.Background(), "$other"); ok {
		t.Error("a record for an event never answered")
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
