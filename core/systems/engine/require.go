package engine

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Require is a condition a check's inputs must meet together, checked
// before anything is rolled (Kingdom Hearts' heartless and nobody dice,
// 10 at most: "s + i <= 10"): an expression that reads only the check's
// inputs, and the message of inputs that break it, a catalog key (error)
// or the file's own text in es, el and en (message, where {name} is a
// var or an input's value); vars are the message's further arguments.
type Require struct {
	That    string         `yaml:"that"`
	Error   string         `yaml:"error,omitempty"`
	Message *Names         `yaml:"message,omitempty"`
	Vars    map[string]int `yaml:"vars,omitempty"`
}

// Unmet is a check's inputs that break one of its requirements: the
// catalog message Key, or the file's own Text when Key is ""; Args are
// the requirement's vars and the side's inputs by key.
type Unmet struct {
	Check string
	That  string
	Key   string
	Text  *Names
	Args  map[string]any
}

func (u *Unmet) Error() string {
	return fmt.Sprintf("check %s: the inputs break the requirement %q", u.Check, u.That)
}

// Message is the catalog message of u in lang and its arguments: the
// file's key, or "engine.error.require" with the file's own text, its
// {name}s replaced, as "text".
func (u *Unmet) Message(lang string) (key string, args map[string]any) {
	args = map[string]any{}
	for k, v := range u.Args {
		args[k] = v
	}
	if u.Key != "" {
		return u.Key, args
	}
	args["text"] = placeholderRE.ReplaceAllStringFunc(u.Text.In(lang), func(m string) string {
		if v, ok := u.Args[m[1:len(m)-1]]; ok {
			return fmt.Sprint(v)
		}
		return m
	})
	return "engine.error.require", args
}

// requirement is a compiled Require.
type requirement struct {
	def   *Require
	that  evalFn
	reads []int // the input slots it reads: a side that gives none of one skips it
}

// placeholderRE is a {name} of a requirement's own message.
var placeholderRE = regexp.MustCompile(`\{[^{}]*\}`)

// compileRequires checks and compiles a check's requirements: each an
// expression over the check's inputs alone, reading at least one, and
// either a catalog key or a text in the three languages whose {name}s
// are its vars or the check's inputs.
func (s *System) compileRequires(def *Check) ([]requirement, error) {
	if len(def.Require) > MaxRequires {
		return nil, limitErr("requires", MaxRequires, len(def.Require))
	}
	var out []requirement
	for i := range def.Require {
		r := &def.Require[i]
		sc := &scope{sys: s, vars: map[string]int{}, inputsOnly: true, reads: map[int]bool{}}
		for _, k := range def.Inputs {
			sc.vars[k] = slices.Index(s.inputSlots, k)
		}
		// Each error names the requirement, and its line.
		fail := func(err error) error {
			var e *Error
			if !errors.As(err, &e) {
				e = fileErr(0, "%v", err)
			}
			if e.Args == nil {
				e.Args = map[string]any{}
			}
			e.Args["at"] = r.That
			return at(e, "require "+strconv.Quote(r.That))
		}
		fn, err := compileExpr(r.That, sc)
		if err != nil {
			return nil, fail(err)
		}
		if len(sc.reads) == 0 {
			return nil, fail(fileErr(0, "reads none of the check's inputs"))
		}
		for k := range r.Vars {
			if !keyRE.MatchString(k) {
				return nil, fail(fileErr(0, "vars: %q is no key of a-z, 0-9 and _", k))
			}
		}
		switch {
		case (r.Error == "") == (r.Message == nil):
			return nil, fail(fileErr(0, "one of error (a catalog key) and message (es, el, en)"))
		case r.Error != "" && !catalogKeyRE.MatchString(r.Error):
			return nil, fail(fileErr(0, "error: %q is no catalog key", r.Error))
		case r.Message != nil:
			if err := checkNames(*r.Message, label("message")); err != nil {
				return nil, fail(err)
			}
			for _, t := range []string{r.Message.ES, r.Message.EL, r.Message.EN} {
				if c := utf8.RuneCountInString(t); c > MaxRequireText {
					return nil, fail(limitErr("require_text", MaxRequireText, c))
				}
				for _, m := range placeholderRE.FindAllString(t, -1) {
					name := m[1 : len(m)-1]
					if _, ok := r.Vars[name]; !ok && !slices.Contains(def.Inputs, name) {
						return nil, fail(fileErr(0, "message: %s is neither a var nor an input of the check", m))
					}
				}
			}
		}
		req := requirement{def: r, that: fn}
		for slot := range sc.reads {
			req.reads = append(req.reads, slot)
		}
		slices.Sort(req.reads)
		out = append(out, req)
	}
	return out, nil
}

// Require reports whether pr meets every requirement of check key ("" =
// the first): nil, or an *Unmet naming the first one broken, by the
// active side, then an opposed check's passive side. Roll and the odds
// check it too; a command checks it first, to name the breach in the
// chat's language before anything is rolled.
func (s *System) Require(key string, pr Params) error {
	c, err := s.check(key)
	if err != nil {
		return err
	}
	if len(c.reqs) == 0 {
		return nil
	}
	a, p := s.sides(c, pr)
	return s.require(c, a, p)
}

// require is the first requirement of c that side a or p (nil: none)
// breaks, as an *Unmet (nil: none).
func (s *System) require(c *check, a, p *env) error {
	for _, e := range []*env{a, p} {
		if e == nil {
			continue
		}
		for i := range c.reqs {
			r := &c.reqs[i]
			if r.applies(e) && !r.that(e).truth() {
				return s.unmet(c, r, e)
			}
		}
	}
	return nil
}

// applies: a requirement speaks of inputs given; one that reads an input
// left out (optional, no default) does not apply.
func (r *requirement) applies(e *env) bool {
	for _, slot := range r.reads {
		if e.v[slot].imp {
			return false
		}
	}
	return true
}

func (s *System) unmet(c *check, r *requirement, e *env) *Unmet {
	args := map[string]any{}
	for _, k := range c.inputs {
		if v := e.v[slices.Index(s.inputSlots, k)]; v.isInt() {
			args[k] = int(v.n)
		}
	}
	for k, v := range r.def.Vars {
		args[k] = v
	}
	return &Unmet{Check: c.def.Key, That: strings.TrimSpace(r.def.That), Key: r.def.Error, Text: r.def.Message, Args: args}
}

// Params are a parsed check's inputs as Roll, the odds and Require take
// them: the active side's, an opposed check's passive side apart, the
// passive inputs of a check that is not opposed (RQ's defensive value)
// with the active side's.
func (s *System) Params(p *Parsed) Params {
	pr := Params{Inputs: p.Active.Inputs}
	if p.Passive == nil {
		return pr
	}
	if c, err := s.check(p.Check); err == nil && c.opposed {
		pr.Passive = p.Passive.Inputs
		return pr
	}
	pr.Inputs = map[string]int{}
	for _, sd := range []*Side{&p.Active, p.Passive} {
		for k, v := range sd.Inputs {
			pr.Inputs[k] = v
		}
	}
	return pr
}

// exampleMeets is the requirement an example's words break (an
// *Unmet), or nil: an example is a roll the command makes, so "For
// example: /l5r 5k3" may not answer "This roll can't be made". Words
// naming sheet values are not judged: the sheet is not known here.
func (s *System) exampleMeets(p *Parsed) error {
	noSheet := func(string) (int, error) { return 0, errors.New("no sheet") }
	for _, sd := range []*Side{&p.Active, p.Passive} {
		if sd == nil {
			continue
		}
		if _, err := s.Resolve(sd, noSheet); err != nil {
			return nil
		}
	}
	return s.Require(p.Check, s.Params(p))
}
