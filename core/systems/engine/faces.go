package engine

// Dice whose faces come from the inputs (faces_of): Dungeon Hack's
// damage die (a weapon's 1d8, a typed 2d12) and DB die (d6, d4). The
// pool is one rollStep per number of faces, each with its own
// distributions, made when a check first rolls it.

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
	rs.facesOf, rs.sizes = fn, map[int]*rollStep{}
	return nil
}

// sized is the pool as rolled in e: itself, or for faces_of the pool of
// the faces e gives (a limit error outside 2..MaxFaces).
func (rs *rollStep) sized(e *env) (*rollStep, error) {
	if rs.facesOf == nil {
		return rs, nil
	}
	v := rs.facesOf(e)
	if !v.isInt() || v.n < 2 || v.n > MaxFaces {
		got := 0
		if v.isInt() {
			got = int(v.n)
		}
		return nil, limitErr("faces", MaxFaces, got)
	}
	f := int(v.n)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if p := rs.sizes[f]; p != nil {
		return p, nil
	}
	p := &rollStep{name: rs.name, faces: f, count: rs.count, countDyn: rs.countDyn,
		explode: map[int]bool{}, reads: rs.reads, first: rs.first, level: rs.level, memo: map[int]*poolDist{}}
	rs.sizes[f] = p
	return p, nil
}
