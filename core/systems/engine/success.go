package engine

// A result's success: EXPR decides whether a roll counts as a success,
// instead of its outcome's own flag: Call of Cthulhu's outcome is the
// level reached (hard, success …) while the check succeeds only at the
// level asked ("/coc 65 difícil": a regular success is not enough).

// compileSuccess compiles a check's result's success expression, if any.
func (s *System) compileSuccess(c *check, sc *scope) error {
	if c.def.Result.Success == "" {
		return nil
	}
	if c.opposed {
		return fileErr(0, "check %s: success: is for a check with one side (an opposed check's success is who wins)", c.def.Key)
	}
	fn, err := compileExpr(c.def.Result.Success, sc)
	if err != nil {
		return at(err, "success")
	}
	c.success, c.successS = fn, sc.sy
	return nil
}

// succeeded is whether a roll that gave outcome o (its env e) succeeds.
func (s *System) succeeded(c *check, e *env, o string) bool {
	if c.success != nil {
		return c.success(e).truth()
	}
	return o != "" && s.outcomes[o].Success
}

// OutcomeName is an outcome's name in lang, or its key when the file has
// no such outcome.
func (s *System) OutcomeName(key, lang string) string {
	if o := s.outcomes[key]; o != nil {
		return o.Names.In(lang)
	}
	return key
}

// Renamed is the name s gives outcome in lang, and whether it differs
// from the book's (the shipped file of s's system: a chat's fork renamed
// it). A file of no shipped system renames nothing.
func (s *System) Renamed(outcome, lang string) (string, bool) {
	n := s.OutcomeName(outcome, lang)
	book, err := Builtin(s.File.System)
	if err != nil || book == s {
		return n, false
	}
	return n, n != book.OutcomeName(outcome, lang)
}
