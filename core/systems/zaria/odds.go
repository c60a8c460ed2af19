package zaria

// Outcomes lists every equally likely roll of s (100 for a player
// character, 10 for an NPC) as its doubled total and its epic flag (−1,
// 0, +1): the whole distribution, for /odds.
func (r Rules) Outcomes(s Side) [][2]int { return r.outcomes(s) }
