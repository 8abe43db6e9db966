"""A line-by-line Python mirror of RecoveryCore's PatternArtifactDetector, for the trade-off sweep (tradeoff.py)
only: the box never runs it. tradeoff.py first checks that it gives hrv-dump's verdicts on seeded series, so the
sweep's default point is the box itself; the other points move one constant each."""
import numpy as np

LO_RR, HI_RR = 300.0, 2000.0
def inr(x): return LO_RR <= x <= HI_RR

def threshold(ring, k, lo, hi):
    if len(ring) < 8: return lo
    return min(hi, max(lo, k * float(np.median(ring))))

def detect(rr, k=3.0, lo=0.2, hi=0.35, ring_n=64, c=0.6, spike=0.45, ect=0.5, pause=0.5, prime=()):
    rr = list(map(float, rr)); N = len(rr)
    v = [None] * N
    p = None; ring = []; adjacent = False
    def pair(a, b):
        ring.append(abs(b - a) / a)
        if len(ring) > ring_n: ring.pop(0)
    for x in prime:
        if inr(x):
            if p is not None: pair(p, x)
            p = x
    def nxt(j):
        j += 1
        while j < N and not inr(rr[j]): j += 1
        return j if j < N else None
    i = 0
    while i < N:
        x = rr[i]
        if not inr(x):
            v[i] = 'o'; adjacent = False; i += 1; continue
        if p is None:
            v[i] = 'a'; p = x; adjacent = True; i += 1; continue
        T = threshold(ring, k, lo, hi)
        raw_prev = rr[i-1] if i > 0 else None
        raw_next = rr[i+1] if i + 1 < N else None
        j1 = nxt(i); n = rr[j1] if j1 is not None else None
        j2 = nxt(j1) if j1 is not None else None; n2 = rr[j2] if j2 is not None else None
        def reject(tag, count=1):
            nonlocal i, adjacent
            v[i] = tag
            if count == 2: v[i+1] = tag
            adjacent = False; i += count
        nb = n if n is not None else p
        # missed beat: one interval where two belong
        if abs(x - (p + nb)) < c * abs(x - (p + nb) / 2) and x > max(p, nb):
            reject('m'); continue
        # extra beat with an out-of-range piece before or after
        if raw_prev is not None and raw_prev < LO_RR and v[i-1] == 'o':
            s = raw_prev + x
            if abs(s - p) + abs(s - nb) < c * (abs(x - p) + abs(x - nb)): reject('e'); continue
        if raw_next is not None and raw_next < LO_RR:
            s = raw_next + x
            if abs(s - p) + abs(s - nb) < c * (abs(x - p) + abs(x - nb)): reject('e', 2); continue
        if n is not None and j1 == i + 1:
            after = n2 if n2 is not None else p
            s = x + n
            # extra beat: two intervals where one belongs
            a = (p + after) / 2
            if abs(s - a) < c * (abs(x - a) + abs(n - a)) / 2:
                reject('e', 2); continue
            # premature beat and its compensatory pause: the pair keeps the time of two beats
            e1 = p + (after - p) / 3; e2 = p + 2 * (after - p) / 3
            if x < e1 - ect * T * p and x < p * (1 - T / 2) and n > e2 and n > after and n - x > T * p and \
                    abs(s - (p + after)) < c * (abs(x - e1) + abs(n - e2)):
                reject('x', 2); continue
        # a lone beat away from both neighbours on the same side
        if n is not None and x > p and x > n and min(x - p, x - n) > max(spike, T) * p:
            reject('s'); continue
        if n is not None and x < p and x < n and min(p - x, n - x) > T * p:
            if j1 == i + 1 and n2 is not None and n > max(p, n2) * (1 + pause * T):
                reject('x', 2); continue
            reject('s'); continue
        v[i] = 'a'
        if adjacent: pair(p, x)
        p = x; adjacent = True; i += 1
    return v

def rmssd_adjacent(rr, v):
    d = [rr[i + 1] - rr[i] for i in range(len(rr) - 1) if v[i] == 'a' and v[i + 1] == 'a']
    return float(np.sqrt(np.mean(np.square(d)))) if d else float('nan')
