import os
"""Segment-level fluid rule vs the fine replay. Moment allocations taken from the fine replay (the estimator has them)."""
import json, sys
import cca
from trace import Run, GiB
MiB = 1 << 20
r2 = lambda n: ((int(n) + 2 * MiB - 1) // (2 * MiB)) * (2 * MiB)

def moments(sc, steps=2, desc=False):
    run = Run(sc); A = run.a; hist = {}
    om = A.malloc
    def m(n):
        b = om(n); ph = getattr(A, 'phase', 'load'); st, kind = (ph.split(':') + [''])[:2]
        kind = 'bwd' if kind.startswith('bwd') else kind
        hist[(st, kind)] = max(hist.get((st, kind), 0), A.allocated)
        hist[(st, kind, 'R')] = A.reserved
        return b
    A.malloc = m
    if desc:
        ons = A._new_segment
        def ns(size, small):
            b = ons(size, small); b.addr = (1 << 60) - b.addr - size; return b
        A._new_segment = ns
    run.run(steps)
    return run, A, hist

def fluid(run, hist, X=None):
    T, V, c = run.T, run.V, run.c
    B16, B32 = r2(c * T * V), r2(4 * T * V)
    segs = [B16, B32, B32, B32]; L = sum(segs); live = 3 * B32
    Aloss0 = hist[('0', 'loss')]; Abwd0 = hist.get(('0', 'bwd'), 0); Aopt0 = hist[('0', 'opt')]
    Aloss1 = hist[('1', 'loss')]
    Rloss0 = hist[('0', 'loss', 'R')]          # reserved after step-0 loss (X included); the estimator: Aloss0 + L - live + X
    NL0 = Rloss0 - L
    D0 = max(Abwd0, Aopt0)
    spill = max(0, D0 - NL0)
    Rend0 = Rloss0 + max(0, spill - L)
    # fill loss segments ascending with the spill
    holes, left = [], spill
    for s in sorted(segs):
        f = min(s, left); left -= f
        holes.append(s - f)
    # step 1 pre-loss demand spills further into the holes (smallest first)
    D1 = Aloss1 - live
    NL1 = Rend0 - L
    extra = max(0, D1 - (NL1 + (spill if spill < L else L)))   # space already holding the spill is reused
    for i in sorted(range(4), key=lambda i: holes[i]):
        f = min(holes[i], extra); extra -= f; holes[i] -= f
    # replay the loss family's requests against the holes (best fit); misses are new segments
    new = 0
    free = sorted(h for h in holes if h > 0)
    def take(n):
        nonlocal new
        for j, h in enumerate(free):
            if h >= n:
                free.pop(j)
                rem = h - n
                return ('hole', h)
        new += n; return ('new', n)
    def give(t):
        if t[0] == 'hole': free.append(t[1]); free.sort()
        else: free.append(t[1]); free.sort()
    lg = take(B16); lf = take(B32); ls = take(B32); give(lf); give(lg)
    g1 = take(B32); g2 = take(B32)
    return max(Rend0 + new, Rloss0), Rend0, new

if __name__ == "__main__":
    rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
    for r in rows:
        sc = r['scenario']
        if sc['model']['model_type'] in ('gemma2', 'mixtral'): continue
        run, A, hist = moments(sc)
        pred, Rend0, new = fluid(run, hist)
        m = r['measured']['reserved_peak_bytes']
        print(f"{r['id']:34s} meas {m/GiB:6.2f} sim {A.peak_reserved/GiB:6.2f} fluid {pred/GiB:6.2f} ({(pred/m-1)*100:+5.1f}% vs meas, {(pred/A.peak_reserved-1)*100:+5.1f}% vs sim) Rend0 {Rend0/GiB:6.2f} new {new/GiB:5.2f}")
