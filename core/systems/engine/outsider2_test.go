package engine

import (
	"strings"
	"testing"
)

// The second outsider's files (testdata/outsider): Year Zero's pool of
// base, skill and gear dice with the base dice's 1s as damage, L5R 4e's
// roll and keep (sum_highest, 10 d10 exploding 5 times), Mothership's d100 under a
// stat with doubles as criticals and [+]/[-], the Storyteller system's
// d10 pool against a difficulty with botches, the AGE system's stunt
// points from the Dragon Die, Tiny d6. Each loads (its vectors hold), and
// its exact odds, from the chat's words as the command reads them, are
// the ones testdata/outsider/odds2.py computes on its own (python3 and
// fractions, every roll enumerated). An outcome missing from want has
// chance 0; "" is the rolls with no further result.
func TestOutsider2Files(t *testing.T) {
	cases := []outsiderCase{
		{"yze", "3 2 1", map[string]string{"success": "31031/46656", "failure": "15625/46656"},
			map[string]map[string]string{"damage": {"": "125/216", "dmg1": "25/72", "dmg2": "5/72", "dmg3": "1/216"}}},
		{"yze", "4", map[string]string{"success": "671/1296", "failure": "625/1296"},
			map[string]map[string]string{"damage": {"": "625/1296", "dmg1": "125/324", "dmg2": "25/216", "dmg3": "5/324", "dmg4": "1/1296"}}},
		{"yze", "2 3", map[string]string{"success": "4651/7776", "failure": "3125/7776"},
			map[string]map[string]string{"damage": {"": "25/36", "dmg1": "5/18", "dmg2": "1/36"}}},
		{"owod", "5 dif 7", map[string]string{"botch": "4651/100000", "failure": "3821/20000", "success": "19061/25000"}, nil},
		{"owod", "3", map[string]string{"botch": "61/1000", "failure": "199/1000", "success": "37/50"}, nil},
		{"owod", "1", map[string]string{"botch": "1/10", "failure": "2/5", "success": "1/2"}, nil},
		{"owod", "4 δυσκ 8 esp", map[string]string{"botch": "221/2000", "failure": "603/2500", "success": "6483/10000"}, nil},
		{"owod", "diff 10 2", map[string]string{"botch": "17/100", "failure": "33/50", "success": "17/100"}, nil},
		// The difficulty is the count's threshold (d.count_ge(diff)): 2 and 3 too.
		{"owod", "5 dif 3", map[string]string{"botch": "31/100000", "failure": "3161/100000", "success": "12101/12500"}, nil},
		{"owod", "4 dif 2 esp", map[string]string{"botch": "1/10000", "failure": "21/500", "success": "9579/10000"}, nil},
		{"owod", "6 dif 9", map[string]string{"botch": "28899/200000", "failure": "328721/1000000", "success": "8231/15625"}, nil},
		{"mothership", "45", map[string]string{"crit_failure": "1/20", "crit_success": "1/20", "failure": "1/2", "success": "2/5"}, nil},
		{"mothership", "45 [+]", map[string]string{"crit_failure": "1/400", "crit_success": "39/400", "failure": "3/10", "success": "3/5"}, nil},
		{"mothership", "[-] 45", map[string]string{"crit_failure": "39/400", "crit_success": "1/400", "failure": "7/10", "success": "1/5"}, nil},
		{"mothership", "99", map[string]string{"crit_failure": "1/100", "crit_success": "9/100", "failure": "9/100", "success": "81/100"}, nil},
		{"mothership", "1 ventaja", map[string]string{"crit_failure": "81/10000", "crit_success": "199/10000", "failure": "243/250"}, nil},
		{"age", "3 nd13", map[string]string{"failure": "3/8", "success": "5/8"},
			map[string]map[string]string{"stunts": {"": "53/72", "sp1": "1/108", "sp2": "5/216", "sp3": "1/24", "sp4": "1/18", "sp5": "7/108", "sp6": "5/72"}}},
		{"age", "tn11", map[string]string{"failure": "1/2", "success": "1/2"},
			map[string]map[string]string{"stunts": {"": "7/9", "sp1": "1/108", "sp2": "1/108", "sp3": "7/216", "sp4": "1/24", "sp5": "7/108", "sp6": "7/108"}}},
		{"tinyd6", "", map[string]string{"failure": "4/9", "success": "5/9"}, nil},
		{"tinyd6", "ventaja", map[string]string{"failure": "8/27", "success": "19/27"}, nil},
		{"tinyd6", "μειονέκτημα focus", map[string]string{"failure": "1/2", "success": "1/2"}, nil},
		{"l5r", "1k1 tn10", map[string]string{"failure": "9/10", "success": "1/10"}, nil},
		{"l5r", "2k1 nd15", map[string]string{"failure": "2209/2500", "success": "291/2500"}, nil},
		{"l5r", "3k2 tn15", map[string]string{"failure": "2651/5000", "success": "2349/5000"}, nil},
		{"l5r", "3k3 βσ20", map[string]string{"failure": "3171/5000", "success": "1829/5000"}, nil},
		// 10 d10 exploding 5 times: 10^60 rolls, exact in big integers
		// (odds2.py's l5r_walk).
		{"l5r", "10k1 tn30", map[string]string{"failure": "990044880209748209880044990001/1000000000000000000000000000000", "success": "9955119790251790119955009999/1000000000000000000000000000000"}, nil},
		{"l5r", "10k5 tn40", map[string]string{"failure": "347183636137/1000000000000", "success": "652816363863/1000000000000"}, nil},
		{"l5r", "10k9 tn60", map[string]string{"failure": "267592031791351/500000000000000", "success": "232407968208649/500000000000000"}, nil},
		{"l5r", "10k10 tn60", map[string]string{"failure": "153445393641/312500000000", "success": "159054606359/312500000000"}, nil},
		{"l5r", "6k6 nd30", map[string]string{"failure": "6623271/25000000", "success": "18376729/25000000"}, nil},
		{"l5r", "8k3 tn25", map[string]string{"failure": "40660629/125000000", "success": "84339371/125000000"}, nil},
		{"l5r", "5k2 tn55", map[string]string{"failure": "999275147096691/1000000000000000", "success": "724852903309/1000000000000000"}, nil},
	}
	checkOutsiderOdds(t, cases, 6, func(s *System, p *Parsed) error {
		return s.Require(p.Check, s.Params(p))
	})
}

// An example (an error's "for example", or /odds's) is a roll the
// command makes: one whose inputs break a requirement of its check
// refuses the file, as words the command cannot read do. L5R's file
// keeps no more dice than it rolls: 2k3 is refused.
func TestExampleMeetsRequirements(t *testing.T) {
	src := readOutsider(t, "l5r.yaml")
	const ex = "example: {es: 3k2 nd15, el: 3k2 βσ15, en: 3k2 tn15}"
	if !strings.Contains(src, ex) {
		t.Fatal("the file's example changed")
	}
	if _, err := Load([]byte(src)); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"example: {es: 2k3 nd15, el: 2k3 βσ15, en: 2k3 tn15}",
		"example: {es: 3k2 nd15, el: 3k2 βσ15, en: 3k4 tn15}",
		ex + "\nodds_example: {es: 2k3, el: 3k2, en: 3k2}",
	} {
		_, err := Load([]byte(strings.Replace(src, ex, bad, 1)))
		if err == nil || !strings.Contains(err.Error(), "break the requirement") {
			t.Errorf("%s: got %v, want the requirement named", bad, err)
		}
	}
}

// A let or a pool may not take a name an expression reads as its own
// (won, true, false): AGE's "won" as a let was refused as an opposed
// check's word, at the line of an outcome.
func TestReservedLetNames(t *testing.T) {
	src := readOutsider(t, "age.yaml")
	const let = "{let: hit, is: total >= tn}"
	if !strings.Contains(src, let) {
		t.Fatal("the file's let changed")
	}
	for _, name := range []string{"won", "true", "false"} {
		bad := strings.Replace(src, let, "{let: "+name+", is: total >= tn}", 1)
		bad = strings.ReplaceAll(bad, "when: hit and", "when: "+name+" and")
		_, err := Load([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), `let "`+name+`": a new key`) {
			t.Errorf("a let named %s: %v", name, err)
		}
	}
	bad := strings.Replace(src, "{roll: dragon,", "{roll: won,", 1)
	if _, err := Load([]byte(bad)); err == nil || !strings.Contains(err.Error(), `roll "won": a new key`) {
		t.Errorf("a pool named won: %v", err)
	}
}
