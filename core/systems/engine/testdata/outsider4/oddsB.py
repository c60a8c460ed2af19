#!/usr/bin/env python3
"""Exact odds for the outsider4 files, computed independently with
fractions (brute force or per-die convolution, no engine code)."""
from fractions import Fraction as F
from itertools import product
from collections import defaultdict

def conv(a, b):
    out = defaultdict(F)
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] += p * q
    return dict(out)

def power(d, n):
    r = {0: F(1)}
    for _ in range(n):
        r = conv(r, d)
    return r

# 1. Chronicles of Darkness: one die = base d10, success on 8+; a face in
# the again set rolls ONE more d10 (one level), success on 8+.
def cofd_die(again_from):
    d = defaultdict(F)
    for b in range(1, 11):
        s = 1 if b >= 8 else 0
        if b >= again_from:
            for e in range(1, 11):
                d[s + (1 if e >= 8 else 0)] += F(1, 100)
        else:
            d[s] += F(1, 10)
    return dict(d)

def cofd(pool, again_from=10):
    if pool == 0:
        return {'exceptional': F(0), 'success': F(1, 10), 'failure': F(8, 10), 'dramatic_failure': F(1, 10)}
    dist = power(cofd_die(again_from), pool)
    o = defaultdict(F, exceptional=F(0), success=F(0))
    for s, p in dist.items():
        o['exceptional' if s >= 5 else 'success' if s >= 1 else 'failure'] += p
    return o

print("== CofD")
for pool, ag in [(1, 10), (5, 10), (10, 10), (15, 10), (5, 9), (5, 8), (3, 10), (0, 10)]:
    o = cofd(pool, ag)
    print(f"cofd pool={pool} again>={ag}: chance={o['exceptional'] + o['success']} exceptional={o['exceptional']}")

# 2. Burning Wheel: successes = dice >= shade target; open-ended: each 6
# grants one more die (one level), counted at the shade.
def bw(pool, shade, ob, open_=False):
    tot = F(0)
    for faces in product(range(1, 7), repeat=pool):
        s = sum(1 for f in faces if f >= shade)
        if open_:
            sixes = sum(1 for f in faces if f == 6)
            ext = power({1: F(7 - shade, 6), 0: F(shade - 1, 6)}, sixes)
            tot += sum((p for k, p in ext.items() if s + k >= ob), F(0)) / 6 ** pool
        else:
            if s >= ob:
                tot += F(1, 6 ** pool)
    return tot

print("== BW")
for pool, shade, ob, op in [(4, 4, 2, False), (4, 3, 2, False), (4, 2, 3, False), (5, 4, 3, False), (3, 4, 3, True), (6, 4, 4, False), (5, 4, 3, True)]:
    print(f"bw pool={pool} shade={shade} ob={ob} open={op}: chance={bw(pool, shade, ob, op)}")

# 3. Wrath & Glory: pool dice incl. one Wrath die; 4-5 one icon, 6 two.
icon = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}
def wg(pool, dn):
    tot = F(0); crit = F(0); comp = F(0); crit_succ = F(0)
    onedie = defaultdict(F)
    for f in range(1, 7):
        onedie[icon[f]] += F(1, 6)
    reg = power(dict(onedie), pool - 1)
    for w in range(1, 7):
        for k, p in reg.items():
            if k + icon[w] >= dn:
                tot += p / 6
    return tot
print("== W&G")
for pool, dn in [(1, 1), (3, 3), (5, 4), (8, 6), (10, 12), (5, 3)]:
    print(f"wg pool={pool} dn={dn}: chance={wg(pool, dn)}")
print("wg wrath: critical=1/6 complication=1/6 none=2/3")

# 4. Cortex (simplified): total = sum of the two highest of n8 d8 and n6
# d6 (1s included), success when total > difficulty, heroic when
# total >= difficulty + 5; botch when every die is a 1 (a failure).
def cortex(n8, n6, diff):
    o = defaultdict(F)
    w = F(1, 8 ** n8 * 6 ** n6)
    for a in product(range(1, 9), repeat=n8):
        for b in product(range(1, 7), repeat=n6):
            dice = sorted(a + b, reverse=True)
            t = sum(dice[:2])
            ones = dice.count(1)
            if ones == len(dice):
                o['botch'] += w
            elif t >= diff + 5:
                o['heroic'] += w
            elif t > diff:
                o['success'] += w
            else:
                o['failure'] += w
            if 0 < ones < len(dice):
                o['hitch'] += w
    return o
print("== Cortex")
for n8, n6, diff in [(1, 1, 7), (2, 1, 10), (2, 2, 8), (0, 3, 7), (3, 0, 11), (1, 0, 3), (4, 3, 10)]:
    o = cortex(n8, n6, diff)
    print(f"cortex d8={n8} d6={n6} diff={diff}: chance={o['heroic'] + o['success']} heroic={o['heroic']} botch={o['botch']} hitch={o['hitch']}")

# 5. Dark Heresy 2e: d100 (1..100) <= target = characteristic + modifier;
# 01 always succeeds, 100 always fails; a double (11..99, 100 as 00)
# is a critical success when it succeeds, a critical failure when not.
def dh2(ch, mod):
    t = ch + mod
    o = defaultdict(F)
    for r in range(1, 101):
        ok = r == 1 or (r <= t and r != 100)
        dbl = r == 100 or (r >= 11 and r % 11 == 0)
        o[('critical_success' if ok else 'critical_failure') if dbl else ('success' if ok else 'failure')] += F(1, 100)
    return dict(o)
print("== DH2")
for ch, mod in [(35, 0), (35, 10), (40, -60), (90, 30), (33, 0), (35, -10)]:
    o = dh2(ch, mod)
    print(f"dh2 ch={ch} mod={mod}: chance={o.get('critical_success', 0) + o.get('success', 0)} critical_success={o.get('critical_success', 0)} critical_failure={o.get('critical_failure', 0)}")
