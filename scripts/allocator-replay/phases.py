import os
import json, sys
import cca
from trace import Run, GiB
MiB = 1 << 20
rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
for r in rows:
    if r['scenario']['model']['model_type'] in ('gemma2', 'mixtral'): continue
    run = Run(r['scenario']); A = run.a
    # record per-phase max allocated and reserved at phase end
    hist = {}
    om = A.malloc
    def m(n, A=A, hist=hist, om=om):
        b = om(n); ph = getattr(A, 'phase', 'load').split(':')
        key = (ph[0], 'loss' if ph[-1] == 'loss' else ('opt' if ph[-1] == 'opt' else ('bwd' if ph[-1].startswith('bwd') else ph[-1])))
        hist[key] = max(hist.get(key, 0), A.allocated)
        hist[(key, 'R')] = A.reserved
        return b
    A.malloc = m
    newsegs = []
    ons = A._new_segment
    def ns(size, small, A=A, ons=ons):
        if not small and getattr(A, 'phase', 'load').startswith('1:'): newsegs.append((A.phase, size // MiB))
        return ons(size, small)
    A._new_segment = ns
    run.run(2)
    g = lambda k: hist.get(k, 0) / GiB
    print(f"{r['id']:34s} A: loss0 {g(('0','loss')):6.2f} bwd0 {g(('0','bwd')):6.2f} opt0 {g(('0','opt')):6.2f} loss1 {g(('1','loss')):6.2f} | R: end-loss0 {g((('0','loss'),'R')):6.2f} end-bwd0 {g((('0','bwd'),'R')):6.2f} end0 {g((('0','opt'),'R')):6.2f} peak {A.peak_reserved/GiB:6.2f} | new in step1 {[(p, s) for p, s in newsegs if s > 100]}")
