package systems_test

import (
	"strings"
	"testing"
)

// A minus sign typed in front of a count is refused, never dropped: "-2"
// broken DB are not 2 to repair (the sheet's armour would be written as
// repaired), "-3s" are not three Heartless dice.
func TestTypedMinusIsNeverDropped(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/dh repara coraza -2", errHas: "DB rotos: de 1 a 10; has puesto −2"},
		{lang: "en", text: "/dh repair breastplate −1", errHas: "you wrote −1"},
		{lang: "es", text: "/kh 5 -3s", errHas: "se añaden, no se quitan: «-3s» no vale. Escribe cuántos, p. ej. /kh 6 +2s +1i dc17"},
		{lang: "el", text: "/kh 5 −1i dc12", errHas: "δεν αφαιρούνται"},
		{lang: "en", text: "/kh 5 2s -1i", errHas: "never taken away: “-1i”"},
		// Still read: the positive forms.
		{lang: "es", text: "/dh repara coraza 2", dice: []int{5, 5}, bold: "2 reparados", outcome: "success", total: ip(3)},
		{lang: "es", text: "/kh 5 +1s 1i dc10", dice: []int{4, 2, 3}, outcome: "success", has: []string{"sincorazón 2", "incorpóreo 3"}},
	})
	// A specialty that says "-2s" on the sheet is refused the same way.
	sh := newSheets()
	sh.active["u1"] = "Sora"
	sh.chars["sora"] = map[string]string{"llave": "-2s"}
	b = newBot(t, sh)
	run(t, b, []expect{{lang: "es", text: "/kh 5 llave dc10", errHas: "«-2s» no vale"}})
}
