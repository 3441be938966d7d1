import os
import json, sys, bisect
import cca
from trace import Run, GiB
MiB = 1 << 20
rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
r = [x for x in rows if sys.argv[1] in x['id']][0]
run = Run(r['scenario'])
A = run.a
A.live_blocks = set(); A.segs = []
om, of, ons = A.malloc, A.free_block, A._new_segment
def malloc(n):
    b = om(n); A.live_blocks.add(b); b.req = n; b.when = getattr(A, 'phase', 'load'); return b
def free_block(b):
    A.live_blocks.discard(b); of(b)
snaps = []
def new_segment(size, small):
    b = ons(size, small); A.segs.append((b.addr, size, small, getattr(A, 'phase', 'load')))
    return b
A.malloc, A.free_block, A._new_segment = malloc, free_block, new_segment
# snapshot right before each large-pool segment creation in steps >= 1
def new_segment2(size, small):
    if not small and size > 1 << 30 and getattr(A, 'phase', 'load') != 'load':
        snaps.append((A.phase, size, snapshot()))
    return new_segment(size, small)
A._new_segment = new_segment2
def snapshot():
    starts = [s[0] for s in A.segs]
    occ = {}
    for b in A.live_blocks:
        i = bisect.bisect_right(starts, b.addr) - 1
        occ.setdefault(i, []).append(b)
    out = []
    for i, (addr, size, small, ph) in enumerate(A.segs):
        if small or size < 256 * MiB: continue
        bl = occ.get(i, [])
        out.append((size, ph, sum(b.size for b in bl), sorted(((b.size, b.when) for b in bl), reverse=True)[:4], len(bl)))
    return out
run.run(int(sys.argv[2]) if len(sys.argv) > 2 else 3)
print("peak reserved", A.peak_reserved / GiB, "at", A.peak_reserved_at, "peak alloc", A.peak_alloc / GiB)
for ph, size, s in snaps:
    print(f"--- before cudaMalloc of {size/MiB:.0f} MiB at {ph}; reserved {sum(x[0] for x in s)/GiB:.2f} GiB in big segments")
    for seg in s:
        print(f"  seg {seg[0]/MiB:8.0f} MiB (made {seg[1]:8s}) used {seg[2]/MiB:8.0f} MiB in {seg[4]:4d} blocks; largest {[(round(a/MiB), w) for a, w in seg[3]]}")
