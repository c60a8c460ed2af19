package telegram

import (
	"math"
	"slices"
)

// handledSet is the journal's in-memory record of which updates were
// handled, kept for HandledRetention: about 4 bytes per update (a map of id
// → time took ~150), so a bot answering 30 updates a second keeps ~20 MB
// for 48 hours instead of ~800 MB (TestHandledSetMemory).
//
// Ids are kept in blocks of up to blockIDs, each the ids handled during
// one stretch of time, stored as sorted int32 offsets from the block's
// first id. Only a block's times are kept, not each update's: a block
// expires as a whole once its newest update is older than the retention,
// so an update is remembered for the retention and at most a quarter of it
// more (blockSpan). Telegram's ids grow by one per update, so a lookup
// reads the one or two blocks whose range holds the id.
type handledSet struct {
	blocks []*idBlock // oldest first; the last takes new ids
	// kept: ids whose block expired while their replies were still
	// pending (kept until sent), with their block's newest time.
	kept map[int]int64
	span int64 // a block takes ids for this long (Unix ns), then a new one starts
}

// blockIDs bounds a block (16 KB of offsets).
const blockIDs = 4096

type idBlock struct {
	base        int     // the first id added
	off         []int32 // id - base, sorted
	lo, hi      int     // smallest and largest id
	first, last int64   // the times of its first and newest ids (Unix ns)
}

func newHandledSet(retention int64) *handledSet {
	return &handledSet{kept: map[int]int64{}, span: max(retention/4, 1)}
}

// add records id, handled at at (at never goes down between calls).
func (s *handledSet) add(id int, at int64) {
	var b *idBlock
	if n := len(s.blocks); n > 0 {
		b = s.blocks[n-1]
	}
	d := int64(0)
	if b != nil {
		d = int64(id) - int64(b.base)
	}
	if b == nil || len(b.off) >= blockIDs || at-b.first >= s.span || d < math.MinInt32 || d > math.MaxInt32 {
		b = &idBlock{base: id, lo: id, hi: id, first: at}
		s.blocks = append(s.blocks, b)
		d = 0
	}
	i, found := slices.BinarySearch(b.off, int32(d))
	if !found {
		if i == len(b.off) && cap(b.off) == len(b.off) {
			// Grow to the block's bound at most, never past it.
			b.off = slices.Grow(b.off, min(max(2*len(b.off), 64), blockIDs)-len(b.off))
		}
		b.off = slices.Insert(b.off, i, int32(d))
	}
	b.lo, b.hi = min(b.lo, id), max(b.hi, id)
	b.last = max(b.last, at)
}

// has reports whether id was added and has not expired.
func (s *handledSet) has(id int) bool {
	if _, ok := s.kept[id]; ok {
		return true
	}
	for i := len(s.blocks) - 1; i >= 0; i-- {
		b := s.blocks[i]
		if id < b.lo || id > b.hi {
			continue
		}
		if _, ok := slices.BinarySearch(b.off, int32(int64(id)-int64(b.base))); ok {
			return true
		}
	}
	return false
}

// remove forgets id (an update whose journal write failed).
func (s *handledSet) remove(id int) {
	delete(s.kept, id)
	for _, b := range s.blocks {
		if id < b.lo || id > b.hi {
			continue
		}
		if i, ok := slices.BinarySearch(b.off, int32(int64(id)-int64(b.base))); ok {
			b.off = slices.Delete(b.off, i, i+1)
		}
	}
}

// expire forgets the blocks whose newest id is older than horizon and
// returns their ids, but keeps those pending reports (their replies are
// not all sent) until they are not.
func (s *handledSet) expire(horizon int64, pending func(id int) bool) []int {
	var gone []int
	for id, at := range s.kept {
		if at < horizon && !pending(id) {
			delete(s.kept, id)
			gone = append(gone, id)
		}
	}
	n := 0
	for n < len(s.blocks) && s.blocks[n].last < horizon {
		b := s.blocks[n]
		for _, d := range b.off {
			id := b.base + int(d)
			if pending(id) {
				s.kept[id] = b.last
			} else {
				gone = append(gone, id)
			}
		}
		n++
	}
	if n > 0 {
		s.blocks = slices.Delete(s.blocks, 0, n)
	}
	return gone
}
