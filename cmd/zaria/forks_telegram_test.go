package main

import (
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram/telegramtest"
)

// A system file sent as a Telegram document captioned /sistema importar
// reaches the core through the adapter (downloaded because the caption's
// command takes a file): a file with a failing example is refused naming
// it, a good one becomes the group's own command.
func TestForkTelegramDocument(t *testing.T) {
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	bad := strings.Replace(rollOver, "dice: [9], expect: {outcome: failure}", "dice: [9], expect: {outcome: success}", 1)
	w.tg.AddFile("bad-yaml", []byte(bad))
	w.tg.AddFile("good-yaml", []byte(rollOver))
	g := &tgbotapi.Chat{ID: webGroup, Type: "supergroup", Title: "Mesa"}
	ana := telegramtest.User{ID: webAna, Name: "Ana", Lang: "es"}
	doc := func(id, name string) {
		w.tg.Push(tgbotapi.Update{Message: &tgbotapi.Message{MessageID: len(w.tg.SentTo(webGroup)) + 100, Chat: g, From: ana.API(),
			Caption: "/sistema importar", Document: &tgbotapi.Document{FileID: id, FileName: name, FileSize: len(rollOver)}}})
	}
	doc("bad-yaml", "malo.yaml")
	w.waitSent(webGroup, `Archivo rechazado[\s\S]*«miss» no se cumple`)
	doc("good-yaml", "tirada.yaml")
	w.waitSent(webGroup, `su propio sistema, Tirada: /ro`)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/ro 2 tn12")
	w.waitSent(webGroup, `Probabilidad de éxito: 55 %`)
}
