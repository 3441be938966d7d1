import os
import json, sys
import cca
from trace import Run, GiB
rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
def fits(sc, cap):
    run = Run(sc); run.a.capacity = cap
    try:
        run.run(3); return True, getattr(run.a, 'retries', 0)
    except MemoryError:
        return False, None
for r in rows:
    sc = r['scenario']
    if sc['model']['model_type'] in ('gemma2', 'mixtral'): continue
    if len(sys.argv) > 1 and sys.argv[1] not in r['id']: continue
    free = Run(sc).run(3)
    lo, hi = free.peak_alloc, free.peak_reserved
    while hi - lo > 64 * 2**20:
        mid = (lo + hi) / 2
        if fits(sc, mid)[0]: hi = mid
        else: lo = mid
    print(f"{r['id']:34s} A {free.peak_alloc/GiB:6.2f}  R(unconstrained) {free.peak_reserved/GiB:6.2f}  smallest capacity that runs {hi/GiB:6.2f} GiB (retries there {fits(sc, hi)[1]})")
