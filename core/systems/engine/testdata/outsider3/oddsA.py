#!/usr/bin/env python3
"""Independent exact odds for the outsider3 system files (fractions only).

Each line printed is `file case: quantity = p/q`, the value the file's
vectors expect."""
from fractions import Fraction as F
from itertools import product


def dist(n, faces):
    """All n-die sequences, each with weight 1/faces**n."""
    w = F(1, faces ** n)
    for seq in product(range(1, faces + 1), repeat=n):
        yield seq, w


def show(tag, name, value):
    print(f"{tag}: {name} = {value}")


# 1. GURPS 4e -------------------------------------------------------------
def gurps(skill, mod):
    e = skill + mod
    out = {"crit_success": F(0), "success": F(0), "failure": F(0), "crit_failure": F(0)}
    for seq, w in dist(3, 6):
        r = sum(seq)
        if r <= 4 or (r == 5 and e >= 15) or (r == 6 and e >= 16):
            k = "crit_success"
        elif r == 18 or (r == 17 and e <= 15) or r >= e + 10:
            k = "crit_failure"
        elif r <= e and r != 17:
            k = "success"
        else:
            k = "failure"
        out[k] += w
    return out


for skill, mod in [(12, 0), (15, 0), (16, 0), (10, -3), (18, 2), (5, -3), (14, 1)]:
    o = gurps(skill, mod)
    tag = f"gurps skill {skill} mod {mod}"
    show(tag, "chance", o["crit_success"] + o["success"])
    for k in ("crit_success", "crit_failure"):
        show(tag, k, o[k])


# 2. Traveller (Mongoose 2e) ----------------------------------------------
def traveller(dm, target=8, boon=False, bane=False):
    n = 3 if boon != bane else 2
    out = {}
    for seq, w in dist(n, 6):
        s = sorted(seq)
        if n == 3:
            two = s[1] + s[2] if boon else s[0] + s[1]
        else:
            two = s[0] + s[1]
        eff = two + dm - target
        if eff >= 6:
            k = "exceptional_success"
        elif eff >= 1:
            k = "average_success"
        elif eff == 0:
            k = "marginal_success"
        elif eff == -1:
            k = "marginal_failure"
        elif eff >= -5:
            k = "average_failure"
        else:
            k = "exceptional_failure"
        out[k] = out.get(k, F(0)) + w
    out["chance"] = sum(v for k, v in out.items() if k.endswith("success"))
    return out


for dm, target, boon, bane in [(0, 8, False, False), (0, 8, True, False), (0, 8, False, True),
                                (2, 10, False, False), (1, 8, True, True), (-1, 6, True, False),
                                (4, 14, True, False), (4, 6, True, False), (4, 6, False, True)]:
    o = traveller(dm, target, boon, bane)
    tag = f"traveller dm {dm} target {target} boon {int(boon)} bane {int(bane)}"
    show(tag, "chance", o["chance"])
    show(tag, "exceptional_success", o.get("exceptional_success", F(0)))
    show(tag, "exceptional_failure", o.get("exceptional_failure", F(0)))


# 3. Pendragon -------------------------------------------------------------
def pendragon(skill, mod=0):
    e = skill + mod
    out = {"critical": F(0), "success": F(0), "failure": F(0), "fumble": F(0)}
    for (r,), w in dist(1, 20):
        if e >= 20:
            k = "critical" if r + (e - 20) >= 20 else "success"
        elif r == 20:
            k = "fumble"
        elif r == e:
            k = "critical"
        elif r < e:
            k = "success"
        else:
            k = "failure"
        out[k] += w
    out["chance"] = out["critical"] + out["success"]
    return out


for skill, mod in [(10, 0), (15, 0), (20, 0), (25, 0), (12, 5), (3, -5)]:
    o = pendragon(skill, mod)
    tag = f"pendragon skill {skill} mod {mod}"
    for k in ("chance", "critical", "fumble"):
        show(tag, k, o[k])


# 4. Exalted 3e ------------------------------------------------------------
def exalted(pool, diff, double=10, tn=7):
    # DP over dice: (successes, any 1) -> weight
    states = {(0, False): F(1)}
    for _ in range(pool):
        nxt = {}
        for (s, one), w in states.items():
            for face in range(1, 11):
                add = 0
                if face >= tn:
                    add = 2 if face >= double else 1
                key = (s + add, one or face == 1)
                nxt[key] = nxt.get(key, F(0)) + w / 10
        states = nxt
    out = {"success": F(0), "failure": F(0), "botch": F(0)}
    for (s, one), w in states.items():
        if s >= diff:
            out["success"] += w
        elif s == 0 and one:
            out["botch"] += w
        else:
            out["failure"] += w
    return out


for pool, diff, double in [(1, 1, 10), (5, 1, 10), (5, 3, 10), (10, 5, 10), (15, 8, 10), (6, 4, 9), (3, 2, 7)]:
    o = exalted(pool, diff, double)
    tag = f"exalted pool {pool} diff {diff} double {double}"
    show(tag, "chance", o["success"])
    show(tag, "botch", o["botch"])

for pool, diff, double, tn in [(6, 5, 9, 8), (7, 4, 10, 6), (4, 1, 10, 10)]:
    o = exalted(pool, diff, double, tn)
    tag = f"exalted pool {pool} diff {diff} double {double} tn {tn}"
    show(tag, "chance", o["success"])
    show(tag, "botch", o["botch"])


# 5. Mörk Borg -------------------------------------------------------------
def morkborg(ab, dr):
    out = {"critical": F(0), "success": F(0), "failure": F(0), "fumble": F(0)}
    for (r,), w in dist(1, 20):
        if r == 20:
            k = "critical"
        elif r == 1:
            k = "fumble"
        elif r + ab >= dr:
            k = "success"
        else:
            k = "failure"
        out[k] += w
    out["chance"] = out["critical"] + out["success"]
    return out


for ab, dr in [(0, 12), (3, 14), (-3, 18), (6, 6), (0, 8)]:
    o = morkborg(ab, dr)
    show(f"morkborg ability {ab} dr {dr}", "chance", o["chance"])


# 3b. Pendragon opposed: success beats failure, critical beats success,
# both successful (or both critical) -> the higher (modified) roll wins;
# the same -> a tie; both failed -> nobody wins.
def pendragon_side(e):
    for (r,), w in dist(1, 20):
        total = r + max(0, e - 20)
        crit = (total >= 20) if e >= 20 else (r == e)
        ok = crit or r < e
        fumble = e < 20 and r == 20
        rank = 3 if crit else 2 if ok else 0 if fumble else 1
        yield (rank, total if ok else 0), w


def pendragon_opposed(a, p):
    out = {"win": F(0), "tie": F(0), "lose": F(0), "both_fail": F(0)}
    for ka, wa in pendragon_side(a):
        for kp, wp in pendragon_side(p):
            if ka[0] <= 1 and kp[0] <= 1:
                out["both_fail"] += wa * wp
            elif ka > kp:
                out["win"] += wa * wp
            elif ka == kp:
                out["tie"] += wa * wp
            else:
                out["lose"] += wa * wp
    return out


for a, p in [(12, 10), (15, 15), (25, 18), (20, 22)]:
    o = pendragon_opposed(a, p)
    for k in ("win", "tie", "both_fail"):
        show(f"pendragon opposed {a} vs {p}", k, o[k])


# 1b. GURPS Quick Contest (B348): a success beats a failure; both succeed
# or both fail -> the larger margin wins; the same -> a tie.
def gurps_side(e):
    for seq, w in dist(3, 6):
        r = sum(seq)
        crit_s = r <= 4 or (r == 5 and e >= 15) or (r == 6 and e >= 16)
        crit_f = r == 18 or (r == 17 and e <= 15) or r >= e + 10
        ok = crit_s or (not crit_f and r <= e and r != 17)
        yield (1 if ok else 0, e - r), w


def gurps_quick(a, p):
    out = {"win": F(0), "tie": F(0), "lose": F(0)}
    for ka, wa in gurps_side(a):
        for kp, wp in gurps_side(p):
            k = "win" if ka > kp else "tie" if ka == kp else "lose"
            out[k] += wa * wp
    return out


for a, p in [(12, 12), (14, 10), (8, 16)]:
    o = gurps_quick(a, p)
    for k in ("win", "tie"):
        show(f"gurps quick contest {a} vs {p}", k, o[k])
