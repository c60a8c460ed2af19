package deck

import (
	"strconv"

	"zaria/core/fold"
)

// The built-in decks every chat has.
const (
	KindStandard = "standard" // 52 French-suited cards
	KindJokers   = "jokers"   // the same and two jokers
	KindTarot    = "tarot"    // 78 cards: 22 major arcana, 56 minor
)

// builtinWords are the names a built-in deck is typed by, in es, el and
// en, folded: built once.
var builtinWords = func() map[string]string {
	m := map[string]string{}
	for kind, words := range map[string][]string{
		KindStandard: {"poker", "póker", "cartas", "baraja", "cards", "standard", "πόκερ", "χαρτιά"},
		KindJokers:   {"comodines", "póker con comodines", "jokers", "poker with jokers", "τζόκερ", "πόκερ με τζόκερ"},
		KindTarot:    {"tarot", "ταρό"},
	} {
		for _, w := range words {
			m[fold.Key(w)] = kind
		}
	}
	return m
}()

// Kinds lists the built-in decks in the order /mazo shows them.
func Kinds() []string { return []string{KindStandard, KindJokers, KindTarot} }

// Size is how many cards d holds.
func (d Deck) Size() int {
	switch d.Kind {
	case KindStandard:
		return 52
	case KindJokers:
		return 54
	case KindTarot:
		return 78
	}
	return len(d.Cards)
}

// Left is how many cards are still in the deck.
func (d Deck) Left() int { return d.Size() - len(d.Drawn) }

var (
	suits = []string{"♠", "♥", "♦", "♣"}
	ranks = []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
)

// Card names card i of d; t translates a catalog key with arguments (the
// reader's language), for the jokers and the tarot.
func (d Deck) Card(i int, t func(key string, kv ...any) string) string {
	switch d.Kind {
	case KindStandard, KindJokers:
		if i >= 52 {
			return "🃏 " + t("deck.card.joker")
		}
		return ranks[i%13] + suits[i/13]
	case KindTarot:
		if i < 22 {
			return t("deck.tarot.major." + strconv.Itoa(i))
		}
		i -= 22
		return t("deck.tarot.minor", "rank", t("deck.tarot.rank."+strconv.Itoa(i%14+1)), "suit", t("deck.tarot.suit."+strconv.Itoa(i/14)))
	}
	if i >= 0 && i < len(d.Cards) {
		return d.Cards[i]
	}
	return "?"
}
