package command

import (
	"math/big"
	"strconv"
	"strings"
)

// Percent formats a probability (0..1) for a language: "37,5 %" in Spanish
// and Greek, "37.5%" in English. It keeps up to two decimals, drops trailing
// zeros, and never shows 0 % or 100 % for something merely unlikely or
// likely: those get "<0,01 %" and ">99,99 %".
func Percent(lang string, p *big.Rat) string {
	hundred := new(big.Rat).Mul(p, big.NewRat(100, 1))
	f, _ := hundred.Float64()
	s := strconv.FormatFloat(f, 'f', 2, 64)
	switch {
	case p.Sign() > 0 && s == "0.00":
		s = "<0.01"
	case p.Cmp(big.NewRat(1, 1)) < 0 && s == "100.00":
		s = ">99.99"
	}
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if lang == "en" {
		return s + "%"
	}
	return strings.Replace(s, ".", ",", 1) + " %"
}

// Percent formats p in the request's language.
func (r *Request) Percent(p *big.Rat) string { return Percent(r.Lang, p) }

// Decimal formats a number with up to two decimals in the request's language.
func (r *Request) Decimal(f float64) string { return Decimal(r.Lang, f) }

// Decimal formats a number with up to two decimals for a language.
func Decimal(lang string, f float64) string {
	s := strconv.FormatFloat(f, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}
