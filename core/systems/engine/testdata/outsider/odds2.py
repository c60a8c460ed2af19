# Independent exact odds of the second outsider's fixtures (python3,
# fractions, brute force over every roll; L5R's exploding d10 as the
# distribution of one die, then every combination of dice, or for the
# large pools (10 dice of 10^6 rolls each) how many dice show each value,
# from the highest down: the multinomial walk of l5r_walk, checked against
# the brute force on small pools). Run:
#   python3 odds2.py
# and compare with outsider2_test.go's want.
from fractions import Fraction as F
from itertools import product
from math import comb


def dist(rolls, f, p=None):
    """Outcome -> chance over equally likely rolls (or weighted by p)."""
    out = {}
    rolls = list(rolls)
    for r in rolls:
        w = p(r) if p else F(1, len(rolls))
        k = f(r)
        out[k] = out.get(k, 0) + w
    return out


def d6(n):
    return product(range(1, 7), repeat=n)


def yze(base, skill=0, gear=0):
    n = base + skill + gear
    def f(r):
        sixes = sum(1 for x in r if x == 6)
        ones = sum(1 for x in r[:base] if x == 1)
        dmg = '' if ones == 0 else 'dmg%d' % min(ones, 4)
        return ('success' if sixes else 'failure', dmg)
    return split(dist(d6(n), f))


def owod(pool, diff=6, spec=False):
    def f(r):
        hits = sum(1 for x in r if x >= diff) + (sum(1 for x in r if x == 10) if spec else 0)
        ones = sum(1 for x in r if x == 1)
        if hits == 0 and ones > 0:
            return 'botch'
        return 'success' if hits - ones >= 1 else 'failure'
    return dist(product(range(1, 11), repeat=pool), f)


def mothership(stat, adv=False, dis=False):
    def rank(v):
        dbl = v // 10 == v % 10
        ok = v < stat and v < 90
        return (3 if dbl else 2) if ok else (0 if dbl else 1)
    name = {3: 'crit_success', 2: 'success', 1: 'failure', 0: 'crit_failure'}
    if adv or dis:
        pick = max if adv else min
        return dist(product(range(100), repeat=2), lambda r: name[pick(rank(r[0]), rank(r[1]))])
    return dist(range(100), lambda v: name[rank(v)])


def age(mod, tn):
    def f(r):
        a, b, dragon = r
        ok = a + b + dragon + mod >= tn
        dbl = a == b or a == dragon or b == dragon
        return ('success' if ok else 'failure', 'sp%d' % dragon if ok and dbl else '')
    return split(dist(d6(3), f))


def tiny(dice=2, focus=False):
    need = 4 if focus else 5
    return dist(d6(dice), lambda r: 'success' if any(x >= need for x in r) else 'failure')


def l5r_die(times=2):
    """One d10 whose 10 is rolled again and added, at most times times."""
    d = {}
    def walk(acc, left, p):
        for x in range(1, 11):
            if x == 10 and left > 0:
                walk(acc + 10, left - 1, p / 10)
            else:
                d[acc + x] = d.get(acc + x, 0) + p / 10
    walk(0, times, F(1))
    return d


def l5r(x, k, tn, times=5):
    die = l5r_die(times)
    def keep(r):
        return sum(sorted(r, reverse=True)[:k])
    rolls = list(product(die, repeat=x))
    def p(r):
        w = F(1)
        for v in r:
            w *= die[v]
        return w
    return dist(rolls, lambda r: 'success' if keep(r) >= tn else 'failure', p)


def l5r_walk(x, k, tn, times=5):
    """l5r by the count of dice showing each value, highest first: the
    first k dice met are the kept ones; a kept sum past tn is tn."""
    die = l5r_die(times)
    states = {(0, 0): F(1)}  # (dice placed, kept sum capped at tn)
    for v in sorted(die, reverse=True):
        nxt = {}
        for (used, s), p in states.items():
            for c in range(x - used + 1):
                kept = min(c, max(k - used, 0))
                key = (used + c, min(s + kept * v, tn))
                nxt[key] = nxt.get(key, 0) + p * comb(x - used, c) * die[v] ** c
        states = nxt
    ok = sum(p for (used, s), p in states.items() if used == x and s >= tn)
    return {'success': ok, 'failure': 1 - ok}


def split(d):
    """{(outcome, also): p} -> ({outcome: p}, {also: p})."""
    a, b = {}, {}
    for (o, x), p in d.items():
        a[o] = a.get(o, 0) + p
        b[x] = b.get(x, 0) + p
    return a, b


def show(name, d):
    print(name, {k: str(v) for k, v in sorted(d.items())})


if __name__ == '__main__':
    for args in [(3, 2, 1), (4,), (2, 3)]:
        o, dmg = yze(*args)
        show('yze %s' % ' '.join(map(str, args)), o)
        show('  damage', dmg)
    show('owod 5 dif 7', owod(5, 7))
    show('owod 3', owod(3))
    show('owod 1', owod(1))
    show('owod 4 dif 8 esp', owod(4, 8, True))
    show('owod 2 dif 10', owod(2, 10))
    show('owod 5 dif 3', owod(5, 3))
    show('owod 4 dif 2 esp', owod(4, 2, True))
    show('owod 6 dif 9', owod(6, 9))
    show('mothership 45', mothership(45))
    show('mothership 45 adv', mothership(45, adv=True))
    show('mothership 45 dis', mothership(45, dis=True))
    show('mothership 99', mothership(99))
    show('mothership 1', mothership(1))
    show('mothership 1 adv', mothership(1, adv=True))
    o, sp = age(3, 13)
    show('age 3 tn13', o)
    show('  stunts', sp)
    o, sp = age(0, 11)
    show('age 0 tn11', o)
    show('  stunts', sp)
    show('tiny', tiny())
    show('tiny adv', tiny(3))
    show('tiny dis focus', tiny(1, True))
    show('l5r 1k1 tn10', l5r(1, 1, 10))
    show('l5r 2k1 tn15', l5r(2, 1, 15))
    show('l5r 3k2 tn15', l5r(3, 2, 15))
    show('l5r 3k3 tn20', l5r(3, 3, 20))
    for x, k, tn in [(1, 1, 10), (2, 1, 15), (3, 2, 15), (3, 3, 20), (3, 2, 45), (2, 2, 61)]:
        assert l5r_walk(x, k, tn) == l5r(x, k, tn), (x, k, tn)
    for x, k, tn in [(10, 1, 30), (10, 5, 40), (10, 9, 60), (10, 10, 60), (6, 6, 30), (8, 3, 25), (5, 2, 55)]:
        show('l5r %dk%d tn%d' % (x, k, tn), l5r_walk(x, k, tn))
