package engine

// Canonical reads a check's words as the file's inputs declare them, in
// any order ("dc15 fuerza+atletismo @Elara", "2s dc17 6", "difícil 45"),
// and returns the same words in the file's order: each side's "@Name",
// its flags ("npc"), then the words of each of its check's other inputs
// in the order the check lists them, "vs" between the sides. ok is false when the file's
// grammar does not read them (a sheet key where a number goes, a typo):
// the words are then read as typed, and the command names what is wrong.
func (s *System) Canonical(words []string) ([]string, bool) {
	p, err := s.ParseUnchecked(words) // the command names a range's error
	if err != nil {
		return nil, false
	}
	c, err := s.check(p.Check)
	if err != nil {
		return nil, false
	}
	vs := "vs"
	for _, w := range words {
		if IsVs(w) {
			vs = w
		}
	}
	side := func(sd Side) []string {
		var out []string
		if sd.Who != "" {
			out = append(out, "@"+sd.Who)
		}
		for _, flags := range []bool{true, false} {
			for _, k := range c.def.Inputs {
				if (s.inputs[k].Type == "flag") == flags {
					out = append(out, sd.Words[k]...)
				}
			}
		}
		return out
	}
	out := side(p.Active)
	if p.Passive != nil {
		out = append(append(out, vs), side(*p.Passive)...)
	}
	return out, true
}
