import os
import json, sys
from trace import Run, GiB
rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
for r in rows:
    if sys.argv[1] not in r['id']: continue
    m=r['measured']
    run=Run(r['scenario']); a=run.run(int(sys.argv[2]) if len(sys.argv)>2 else 4)
    print(r['id'], f"alloc meas {m['allocated_peak_bytes']/GiB:.2f} sim {a.peak_alloc/GiB:.2f} at {a.peak_alloc_at} | resv meas {m['reserved_peak_bytes']/GiB:.2f} sim {a.peak_reserved/GiB:.2f} at {getattr(a,'peak_reserved_at','load')}")
