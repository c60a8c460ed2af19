package transfer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/transfer"
	"zaria/internal/chattest"
)

// largestImport builds the largest export document the default limits let
// /importar take: characters with 40 values of the longest names and
// values, as many as fit in the import limit.
func largestImport(tb testing.TB, limit int) string {
	tb.Helper()
	type value struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	type char struct {
		Name      string  `json:"name"`
		Owner     string  `json:"owner"`
		OwnerName string  `json:"owner_name"`
		System    string  `json:"system"`
		Values    []value `json:"values"`
	}
	doc := map[string]any{"format": "zaria-chat", "version": 1, "settings": map[string]any{"lang": "es"}}
	var chars []char
	var last string
	for n := 0; n < 200; n++ {
		c := char{Name: fmt.Sprintf("Personaje%03d", n), Owner: fmt.Sprint(1000 + n/10), OwnerName: "Jugador", System: "zaria"}
		for v := range 40 {
			c.Values = append(c.Values, value{Name: fmt.Sprintf("valor%02d", v) + strings.Repeat("x", 25), Value: strings.Repeat("v", 60) + fmt.Sprint(1000+v)})
		}
		chars = append(chars, c)
		doc["characters"] = chars
		data, err := json.Marshal(doc)
		if err != nil {
			tb.Fatal(err)
		}
		if len(data) > limit {
			break
		}
		last = string(data)
	}
	return last
}

// BenchmarkImport is /importar of the largest document the limits allow.
func BenchmarkImport(b *testing.B) {
	h := newHarness(b, chattest.Limits{})
	doc := largestImport(b, transfer.MaxDocumentBytes)
	b.Logf("document: %d bytes", len(doc))
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := chattest.ProcessCPU()
	for b.Loop() {
		rep, _ := h.R.DispatchWith(ctx, core.Message{Chat: chatB, From: admin, FromGM: true, Text: "/importar --replace " + doc}, dice.Seeded(1))
		if rep.Error {
			b.Fatal(reply.PlainText(rep))
		}
	}
	chattest.ReportCPU(b, cpu)
}

// BenchmarkImportNewChat is /importar of the largest document into a
// chat that has nothing yet (no sheets to delete first).
func BenchmarkImportNewChat(b *testing.B) {
	h := newHarness(b, chattest.Limits{})
	doc := largestImport(b, transfer.MaxDocumentBytes)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := chattest.ProcessCPU()
	n := 0
	for b.Loop() {
		n++
		chat := core.ChatRef{Platform: chatB.Platform, ID: fmt.Sprint("new-", n)}
		rep, _ := h.R.DispatchWith(ctx, core.Message{Chat: chat, From: admin, FromGM: true, Text: "/importar " + doc}, dice.Seeded(1))
		if rep.Error {
			b.Fatal(reply.PlainText(rep))
		}
	}
	chattest.ReportCPU(b, cpu)
}

// BenchmarkExport is /exportar of the chat that document made.
func BenchmarkExport(b *testing.B) {
	h := newHarness(b, chattest.Limits{})
	doc := largestImport(b, transfer.MaxDocumentBytes)
	ctx := context.Background()
	rep, _ := h.R.DispatchWith(ctx, core.Message{Chat: chatB, From: admin, FromGM: true, Text: "/importar " + doc}, dice.Seeded(1))
	if rep.Error {
		b.Fatal(reply.PlainText(rep))
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := chattest.ProcessCPU()
	for b.Loop() {
		rep, _ := h.R.DispatchWith(ctx, core.Message{Chat: chatB, From: admin, Text: "/exportar"}, dice.Seeded(1))
		if rep.Error || rep.File == nil {
			b.Fatal(reply.PlainText(rep))
		}
	}
	chattest.ReportCPU(b, cpu)
}
