import os
import json, sys, random
import cca
from trace import Run, GiB
rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
def run(r, seed):
    rng = random.Random(seed)
    orig = cca.Allocator._new_segment
    def ns(self, size, small):
        b = orig(self, size, small)
        if seed: b.addr = rng.randrange(1 << 50) * 512   # segment address order random
        return b
    cca.Allocator._new_segment = ns
    try:
        return Run(r['scenario']).run(4)
    finally:
        cca.Allocator._new_segment = orig
for r in rows:
    if r['scenario']['model']['model_type'] in ('gemma2','mixtral'): continue
    m = r['measured']
    res = [run(r, s).peak_reserved / GiB for s in range(0, 9)]
    print(f"{r['id']:36s} meas {m['reserved_peak_bytes']/GiB:6.2f}  sim det {res[0]:6.2f}  rand-addr min {min(res[1:]):6.2f} max {max(res[1:]):6.2f}")
