# Independent exact odds of the outsider fixtures (python3, fractions,
# brute force over every roll, or the multinomial for Shadowrun's pools).
from fractions import Fraction as F
from itertools import product
from math import comb

def dist(rolls, f):
    out = {}
    rolls = list(rolls)
    for r in rolls:
        k = f(r)
        out[k] = out.get(k, 0) + F(1, len(rolls))
    return out

def dnd(mod, dc, adv=0, dis=0):
    n = 2 if adv != dis else 1
    def f(r):
        v = max(r) if adv and not dis else min(r) if dis and not adv else r[0]
        return 'success' if v + mod >= dc else 'failure'
    return dist(product(range(1, 21), repeat=n), f)

def contest(ma, mp, adv=0):
    # D&D 5e contest: the higher total wins, a tie is a tie (the file's
    # override); the active side may roll with advantage.
    def f(r):
        a = max(r[0], r[1]) if adv else r[0]
        p = r[-1]
        return 'tie' if a + ma == p + mp else 'success' if a + ma > p + mp else 'failure'
    return dist(product(range(1, 21), repeat=3 if adv else 2), f)

def blades(n):
    def f(r):
        best = min(r) if n == 0 else max(r)
        if n > 0 and r.count(6) >= 2: return 'critical'
        return 'full' if best == 6 else 'partial' if best >= 4 else 'bad'
    return dist(product(range(1, 7), repeat=(2 if n == 0 else n)), f)

def sr(pool, threshold=None, limit=None):
    out, glitch = {}, {}
    for h in range(pool + 1):
        for o in range(pool - h + 1):
            p = comb(pool, h) * comb(pool - h, o) * F(1, 3)**h * F(1, 6)**o * F(1, 2)**(pool - h - o)
            hits = min(h, limit) if limit else h
            if threshold:
                k = 'success' if hits >= threshold else 'failure'
                out[k] = out.get(k, 0) + p
            g = ('critical_glitch' if h == 0 else 'glitch') if 2 * o > pool else ''
            glitch[g] = glitch.get(g, 0) + p
    return out, glitch

def iron(mod=None, progress=None):
    def f(r):
        if progress is None:
            a, c1, c2 = r; s = min(a + mod, 10)
        else:
            c1, c2 = r; s = progress
        return ['miss', 'weak', 'strong'][(s > c1) + (s > c2)], ('match' if c1 == c2 else '')
    rolls = product(range(1, 7), range(1, 11), range(1, 11)) if progress is None else product(range(1, 11), repeat=2)
    d = dist(rolls, f)
    o, m = {}, {}
    for (a, b), p in d.items():
        o[a] = o.get(a, 0) + p; m[b] = m.get(b, 0) + p
    return o, m

def cypher(level, ease=0):
    t = 3 * max(level - ease, 0)
    sp = {1: 'intrusion', 17: 'damage1', 18: 'damage2', 19: 'minor', 20: 'major'}
    return dist(range(1, 21), lambda r: 'success' if r >= t else 'failure'), dist(range(1, 21), lambda r: sp.get(r, ''))

for name, v in [
    ('dnd +3 dc15', dnd(3, 15)), ('dnd +3 dc15 adv', dnd(3, 15, 1)), ('dnd +3 dc15 dis', dnd(3, 15, 0, 1)),
    ('dnd -1 dc15 adv dis', dnd(-1, 15, 1, 1)),
    ('dnd +5 vs +3', contest(5, 3)), ('dnd +5 adv vs +3', contest(5, 3, 1)),
    ('blades 0', blades(0)), ('blades 3', blades(3)), ('blades 4', blades(4)),
    ('sr 6 t2', sr(6, 2)), ('sr 12 t4 l3', sr(12, 4, 3)), ('sr 12 t4', sr(12, 4)), ('sr 3', sr(3)), ('sr 20 t5', sr(20, 5)), ('sr 32 t10', sr(32, 10)),
    ('iron 2', iron(2)), ('iron 5+10', iron(15)), ('iron progress 6', iron(progress=6)),
    ('cypher 4', cypher(4)), ('cypher 5 f1', cypher(5, 1)), ('cypher 7', cypher(7)), ('cypher 2 f3', cypher(2, 3)),
]:
    print(name, v)
