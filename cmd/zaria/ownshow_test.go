package main

import (
	"strings"
	"testing"
)

// A file sent to the chat with a show section rolls, by its own command,
// as it declares: its faces' texts and its total's words, in the chat's
// language.
func TestOwnSystemShow(t *testing.T) {
	d := newForkDesk(t)
	file := strings.Replace(rollOver, "vectors:\n", `show:
  faces: {20: "⭐", 1: "💀"}
  total:
    text: {es: "{n} en total", el: "{n} συνολικά", en: "{n} in all"}
vectors:
`, 1)
	d.want(d.send("a", true, "/sistema importar\n"+file), false, "su propio sistema, Tirada", "/ro")
	d.want(d.send("a", false, "/ro 2 tn12", 20), false, "🎲 ⭐ = 22 en total", "crítico")
	d.want(d.send("a", false, "/ro 2 tn12", 1), false, "🎲 💀 = 3 en total", "fallo")
	d.want(d.send("a", false, "/ro 2 tn12", 10), false, "🎲 10 = 12 en total", "éxito")
}
