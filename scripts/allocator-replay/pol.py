import os
import json, sys
import cca
from trace import Run, GiB
rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
def run(r, desc, exp=False, steps=4):
    orig = cca.Allocator._new_segment
    def ns(self, size, small):
        b = orig(self, size, small)
        if desc: b.addr = (1 << 60) - b.addr - size
        return b
    cca.Allocator._new_segment = ns
    try:
        return Run(r['scenario'], expandable=exp).run(steps)
    finally:
        cca.Allocator._new_segment = orig
errs=[]
for r in rows:
    if r['scenario']['model']['model_type'] in ('gemma2','mixtral'): continue
    m = r['measured']; R = m['reserved_peak_bytes']; A_ = m['allocated_peak_bytes']
    a1 = run(r, False); a2 = run(r, True)
    hi = max(a1.peak_reserved, a2.peak_reserved)
    ex = run(r, False, True)
    errs.append(hi/R-1)
    print(f"{r['id']:36s} meas A {A_/GiB:6.2f} R {R/GiB:6.2f} | sim A {a1.peak_alloc/GiB:6.2f} R asc {a1.peak_reserved/GiB:6.2f} desc {a2.peak_reserved/GiB:6.2f} max {(hi/R-1)*100:+5.1f}% | R-A meas {(R-A_)/GiB:5.2f} sim {(hi-a1.peak_alloc)/GiB:5.2f} | expandable R {ex.peak_reserved/GiB:6.2f}")
print("mean abs err %.2f%%" % (100*sum(abs(e) for e in errs)/len(errs)))
