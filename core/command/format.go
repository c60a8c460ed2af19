package command

import (
	"math/big"
	"strconv"
	"strings"
)

// Percent formats an exact probability (0..1) for a phone: "37,5 %" in
// Spanish and Greek, "37.5%" in English. It rounds half up to two decimals
// with exact arithmetic and drops trailing zeros; something possible but
// rarer than 0.005 % shows as "<0,01 %", something almost sure as
// ">99,99 %", never as 0 % or 100 %. Rounding is not marked: "≈" is kept
// for approximations, which callers mark themselves.
func Percent(lang string, p *big.Rat) string {
	num := new(big.Int).Mul(p.Num(), big.NewInt(20000))
	den := new(big.Int).Mul(p.Denom(), big.NewInt(2))
	h := new(big.Int).Quo(new(big.Int).Add(num, p.Denom()), den) // round half up of p×10000
	v := h.Int64()
	prefix := ""
	switch {
	case v == 0 && p.Sign() > 0:
		v, prefix = 1, "<"
	case v >= 10000 && p.Cmp(big.NewRat(1, 1)) < 0:
		v, prefix = 9999, ">"
	}
	s := prefix + fixed(lang, v)
	if lang == "en" {
		return s + "%"
	}
	return s + " %"
}

// fixed writes v/100 with up to two decimals, in the language's style.
func fixed(lang string, v int64) string {
	s := strconv.FormatInt(v/100, 10)
	if f := v % 100; f != 0 {
		frac := strings.TrimRight(strconv.FormatInt(f+100, 10)[1:], "0")
		s += decimalSep(lang) + frac
	}
	return s
}

// Percent formats p in the request's language.
func (r *Request) Percent(p *big.Rat) string { return Percent(r.Lang, p) }

// Decimal formats a number with up to two decimals in the request's language.
func (r *Request) Decimal(f float64) string { return Decimal(r.Lang, f) }

// Decimal formats a number rounded half away from zero to at most two
// decimals, in the language's style: "10,5" (es, el), "10.5" (en).
func Decimal(lang string, f float64) string {
	neg := f < 0
	if neg {
		f = -f
	}
	v := int64(f*100 + 0.5)
	s := fixed(lang, v)
	if neg && v != 0 {
		s = "-" + s
	}
	return s
}

// Fixed formats a number with exactly d decimals, in the language's style:
// "3,0" (es, el), "3.0" (en). It is for figures shown with their precision
// (a chi-square statistic, a p-value); Decimal drops trailing zeros.
func Fixed(lang string, f float64, d int) string {
	return strings.Replace(strconv.FormatFloat(f, 'f', d, 64), ".", decimalSep(lang), 1)
}

// decimalSep is the language's decimal separator: a comma in Spanish and
// Greek, a point in English.
func decimalSep(lang string) string {
	if lang == "en" {
		return "."
	}
	return ","
}
