package engine

// classes merges a die's values that no reading of its pool tells apart:
// a pool read only by counts (V5's count_ge(6), count(10), count(1)) sees
// a d10 as four kinds of face (1, 2–5, 6–9, 10), so 15 dice are 816
// multisets, not 1.3 million. Pools read by their sum, highest, lowest,
// mean or in order keep every value. The weights of merged values add up;
// each class keeps its first value (the one its readings see).
func (rs *rollStep) classes(vals []int, w []int64) ([]int, []int64) {
	for _, rd := range rs.reads {
		switch rd.kind {
		case "count", "count_ge", "count_le", "all", "any", "size":
		default:
			return vals, w
		}
	}
	var outV []int
	var outW []int64
	index := map[string]int{}
	for i, v := range vals {
		sig := make([]byte, 0, len(rs.reads))
		for _, rd := range rs.reads {
			in := false
			switch rd.kind {
			case "count", "all", "any":
				in = v == rd.arg
			case "count_ge":
				in = v >= rd.arg
			case "count_le":
				in = v <= rd.arg
			}
			sig = append(sig, map[bool]byte{false: '0', true: '1'}[in])
		}
		if at, ok := index[string(sig)]; ok {
			outW[at] += w[i]
			continue
		}
		index[string(sig)] = len(outV)
		outV = append(outV, v)
		outW = append(outW, w[i])
	}
	return outV, outW
}
