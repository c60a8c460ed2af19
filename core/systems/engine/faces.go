package engine

// Dice whose faces come from the inputs (faces_of): Dungeon Hack's
// damage die (a weapon's 1d8, a typed 2d12) and DB die (d6, d4); and
// counts whose threshold does (count_ge(diff), pool.go's readingArg).
// The pool is one rollStep per number of faces and thresholds, each with
// its own distributions, made when a check first rolls it.

// facesOf compiles a roll step's faces_of, in place of a constant faces.
func facesOf(rs *rollStep, st Step, sc *scope) error {
	if st.FacesOf == "" {
		if st.Faces < 2 || st.Faces > MaxFaces {
			return limitErr("faces", MaxFaces, st.Faces)
		}
		return nil
	}
	if st.Faces != 0 {
		return fileErr(0, "roll %s: faces or faces_of, not both", st.Roll)
	}
	if st.Explode != nil {
		return fileErr(0, "roll %s: a die of faces_of does not explode", st.Roll)
	}
	fn, err := compileExpr(st.FacesOf, sc)
	if err != nil {
		return err
	}
	if sc.dyn {
		return fileErr(0, "roll %s: faces_of reads the inputs, not the dice", st.Roll)
	}
	rs.facesOf = fn
	return nil
}

// poolKey is a pool as rolled: its faces and its counts' thresholds.
type poolKey struct {
	faces int
	args  [MaxReadings]int
}

// maxSized bounds the pools of faces and thresholds a step keeps; past
// it they are made again (each with its distributions).
const maxSized = 256

// sized is the pool as rolled in e: itself, or for faces_of and the
// counts whose threshold is an expression, the pool of the faces and
// thresholds e gives, each reading's threshold written in (a limit error
// for faces outside 2..MaxFaces, an error for a threshold that is no
// whole number).
func (rs *rollStep) sized(e *env) (*rollStep, error) {
	if rs.facesOf == nil && rs.argOf == nil {
		return rs, nil
	}
	k := poolKey{faces: rs.faces}
	if rs.facesOf != nil {
		v := rs.facesOf(e)
		if !v.isInt() || v.n < 2 || v.n > MaxFaces {
			got := 0
			if v.isInt() {
				got = int(v.n)
			}
			return nil, limitErr("faces", MaxFaces, got)
		}
		k.faces = int(v.n)
	}
	reads := make([]reading, len(rs.reads))
	for i, rd := range rs.reads {
		if rd.of > 0 {
			v := rs.argOf[rd.of-1](e)
			if !v.isInt() {
				return nil, &Error{Key: "engine.error.count_arg", Args: map[string]any{"pool": rs.name}}
			}
			// Past the die's values a count counts the same: every die or
			// none; past the pool's dice a keep keeps them all.
			top := int64(k.faces*(rs.times+1) + 1)
			if rd.kind == "sum_highest" || rd.kind == "sum_lowest" {
				top = MaxPoolDice
			}
			rd.arg = int(min(max(v.n, 0), top))
			k.args[i] = rd.arg
		}
		reads[i] = rd
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if p := rs.sizes[k]; p != nil {
		return p, nil
	}
	if rs.sizes == nil || len(rs.sizes) >= maxSized {
		rs.sizes = map[poolKey]*rollStep{}
	}
	p := &rollStep{name: rs.name, faces: k.faces, count: rs.count, countDyn: rs.countDyn, countS: rs.countS,
		explode: rs.explode, times: rs.times, reads: reads, first: rs.first, level: rs.level, lvl: rs.lvl, memo: map[int]*poolDist{}}
	rs.sizes[k] = p
	return p, nil
}
