# Independent exact odds of the second outsider's fixtures (python3,
# fractions, brute force over every roll; L5R's exploding d10 as the
# distribution of one die, then every combination of dice). Run:
#   python3 odds2.py
# and compare with outsider2_test.go's want.
from fractions import Fraction as F
from itertools import product


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


def l5r(x, k, tn):
    die = l5r_die()
    def keep(r):
        return sum(sorted(r, reverse=True)[:k])
    rolls = list(product(die, repeat=x))
    def p(r):
        w = F(1)
        for v in r:
            w *= die[v]
        return w
    return dist(rolls, lambda r: 'success' if keep(r) >= tn else 'failure', p)


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
