package gm_test

import (
	"context"
	"strings"
	"testing"
	"zaria/core"
	"zaria/internal/chattest"
)

func TestGMNaming(t *testing.T) {
	h := newHarness(t, chattest.Limits{GMsPerChat: 2})
	h.Fails(chatA, admin, true, "/gm add @nobody", "I don't know «@nobody»")
	// A Matrix id or a Telegram numeric id is accepted as is.
	contains(t, h.OK(chatA, admin, true, "/gm add @dora:example.org"), "@dora:example.org is now a GM")
	contains(t, h.OK(chatA, admin, true, "/gm add 12345"), "12345 is now a GM")
	contains(t, h.OK(chatA, admin, true, "/gm add 12345"), "already a GM")
	h.Fails(chatA, admin, true, "/gm add 777", "already has 2 named GMs")
	h.Fails(chatA, admin, true, "/gm remove 777", "not a named GM")
	h.Fails(chatA, admin, true, "/gm hola", "/gm add @name")
	contains(t, h.OK(chatA, admin, true, "/gm remove 12345"), "12345 is no longer a GM")
	// A named GM may name others; the router sees it through the store.
	ok, err := h.DB.IsGM(context.Background(), chatA, "@dora:example.org")
	if err != nil || !ok {
		t.Fatalf("IsGM = %v, %v", ok, err)
	}
	dora := ana
	dora.ID, dora.Name = "@dora:example.org", "Dora"
	contains(t, h.OK(chatA, dora, false, "/gm add 12345"), "is now a GM")
	// Nothing leaks to chat B.
	contains(t, h.OK(chatB, ana, false, "/gm"), "Only the chat's admins are GMs")
	h.Fails(chatB, dora, false, "/gm add 4444", "Only the chat's admins and GMs")
}

func TestGMByDisplayName(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	anaG := core.User{ID: "501", Name: "Ana García"}
	anaL := core.User{ID: "502", Name: "Ana López"}
	h.OK(chatA, anaG, false, "/pj crear Uno")
	h.OK(chatA, anaL, false, "/pj crear Dos")
	contains(t, h.OK(chatA, admin, true, "/gm add @AnaGarcia"), "Ana García is now a GM")
	contains(t, h.OK(chatA, admin, true, "/gm add ana-lopez"), "Ana López is now a GM")
	h.Fails(chatA, admin, true, "/gm add @ana", "Several users are called «@ana» (501, 502)")
	contains(t, h.OK(chatA, admin, true, "/gm remove @AnaLopez"), "Ana López is no longer a GM")
	contains(t, h.OK(chatA, admin, true, "/gm remove ana"), "Ana García is no longer a GM")
}

// A Matrix id longer than the spec's 255 bytes is nobody: it is not named
// GM (25 of them filled /gm's list past a message); one of 255 still is.
func TestGMMatrixIDHasTheSpecsLength(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	long := "@" + strings.Repeat("x", 256-len("@:example.org")) + ":example.org"
	h.Fails(chatA, admin, true, "/gm add "+long, "I don't know «"+long[:20])
	contains(t, h.OK(chatA, admin, true, "/gm"), "Only the chat's admins are GMs here")
	ok := long[:1] + long[2:]
	if len(ok) != 255 {
		t.Fatalf("test id of %d bytes", len(ok))
	}
	contains(t, h.OK(chatA, admin, true, "/gm add "+ok), "is now a GM")
}
