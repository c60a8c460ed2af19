package sqlite

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestParseInts(t *testing.T) {
	for in, want := range map[string][]int{
		"[]":              nil,
		"[7]":             {7},
		"[7,3,10]":        {7, 3, 10},
		"[-1,0,1000]":     {-1, 0, 1000},
		"[ 1 , 2 ]":       {1, 2}, // not what we write: encoding/json decodes it
		"null":            nil,
		"[1,2,3,4,5,6,7]": {1, 2, 3, 4, 5, 6, 7},
	} {
		got, err := parseInts([]byte(in), nil)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("parseInts(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "[", "[1,]", "[,1]", "[1,,2]", "[a]", "[1.5]", "{}", `["1"]`} {
		if got, err := parseInts([]byte(in), nil); err == nil {
			t.Errorf("parseInts(%q) = %v, want an error", in, got)
		}
	}
	// Appends to dst, reusing it.
	dst := make([]int, 0, 8)
	got, err := parseInts([]byte("[4,5]"), append(dst, 1))
	if err != nil || !reflect.DeepEqual(got, []int{1, 4, 5}) || &got[0] != &dst[:1][0] {
		t.Errorf("parseInts into dst = %v, %v", got, err)
	}
}

// FuzzParseInts: whatever encoding/json reads as a list of ints,
// parseInts reads the same; and every list AppendRoll can write reads back.
func FuzzParseInts(f *testing.F) {
	for _, s := range []string{"[]", "[1]", "[6,6,20]", "[-3,0]", "[ 1 ]", "[01]", "[+1]", "[1e2]", "[9223372036854775807]", "null"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want []int
		jsonErr := json.Unmarshal(b, &want)
		got, err := parseInts(b, nil)
		if jsonErr == nil {
			if err != nil || len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
				t.Fatalf("parseInts(%q) = %v, %v; encoding/json says %v", b, got, err, want)
			}
			enc, _ := json.Marshal(ints(want))
			back, err := parseInts(enc, nil)
			if err != nil || len(back) != len(want) || (len(want) > 0 && !reflect.DeepEqual(back, want)) {
				t.Fatalf("round trip of %v: %v, %v", want, back, err)
			}
		}
	})
}
