package main

import "testing"

// Daegon forked: its renamed outcome shows in /daegon's reply and in
// /odds daegon; its choice of how 00 reads is the chat's default, which
// /ajustes still overrides. Another chat reads the book.
func TestForkDaegonNameAndHouseRule(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar daegon"), false, "copia de Daegon")
	d.want(d.send("a", true, "/sistema editar daegon nombre éxito Acierto"), false, "Éxito → Acierto")
	d.want(d.send("a", false, "/daegon 7 d3", 1, 2), false, "Acierto +")
	d.want(d.send("b", false, "/daegon 7 d3", 1, 2), false, "Éxito +")
	d.want(d.send("a", false, "/odds daegon 7 d3"), false, "Acierto")

	// 00 with NH 1 at D4 (1 %): 100 fails by the book, 0 succeeds.
	d.want(d.send("a", false, "/daegon 1 d4", 10, 10), false, "00 = 100", "Fallo")
	d.want(d.send("a", true, "/sistema editar daegon regla daegon_00 cero"), false, "0, la tirada más baja")
	d.want(d.send("a", false, "/daegon 1 d4", 10, 10), false, "🎲 00 ·", "Acierto")
	d.want(d.send("b", false, "/daegon 1 d4", 10, 10), false, "00 = 100", "Fallo")
	d.want(d.send("a", true, "/ajustes daegon_00 cien"), false)
	d.want(d.send("a", false, "/daegon 1 d4", 10, 10), false, "00 = 100", "Fallo")
}

// Dungeon Hack forked with the monsters' penetration rounded up: level 8
// is penetration 1 there (0 by the book), until /ajustes says otherwise.
func TestForkDHHouseRule(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar dh"), false)
	d.want(d.send("a", true, "/sistema editar dh regla dh_pen techo"), false)
	d.want(d.send("a", false, "/dh pen 8"), false, "penetración 1")
	d.want(d.send("b", false, "/dh pen 8"), false, "penetración 0")
	d.want(d.send("a", true, "/ajustes dh_pen redondeo"), false)
	d.want(d.send("a", false, "/dh pen 8"), false, "penetración 0")
}

// RQ forked with its fumble renamed: /rq's reply and /odds rq name it so.
func TestForkRQName(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar rq"), false)
	d.want(d.send("a", true, "/sistema editar rq nombre pifia Desastre"), false, "Pifia → Desastre")
	d.want(d.send("a", false, "/rq 45", 100), false, "Desastre")
	d.want(d.send("b", false, "/rq 45", 100), false, "Pifia")
	d.want(d.send("a", false, "/odds rq 45 normal"), false, "Desastre")
	d.want(d.send("b", false, "/odds rq 45 normal"), false, "Pifia")
}
