import os
"""Coarse replay: per layer only aggregated blocks (saved set, one transient working set, the layer's
gradients / states / step temporary as one block each) + the logits family exactly. Compared with trace.py."""
import json, sys
from cca import Allocator, MiB
from trace import Run, GiB


def layer_numbers(run):
    """Byte sizes from the fine trace's own formulas (Llama-like, pure bf16, no LoRA)."""
    T, h, f, nq, nkv, c = run.T, run.h, run.f, run.nq, run.nkv, run.c
    saved = (4 + 2 + 2) * T * h * 2 + c * T * (nq + nkv + nkv + nq) + 4 * c * T * f   # norms, qkv in, q k v o, mlp
    fwd_trans = 3 * c * T * f                  # gate/act/up alive together in the MLP (forward, no save)
    bwd_trans = 3 * c * T * f                  # d_prod, d_act, d_up
    wl = sum(o * i for _, o, i in run.linears()) * run.pb
    return saved, fwd_trans, bwd_trans, wl


def coarse(sc, steps=3, agg_params=True):
    run = Run(sc)
    a = Allocator()
    T, h, V, c, L = run.T, run.h, run.V, run.c, run.L
    saved, ft, bt, wl = layer_numbers(run)
    emb = V * h * run.pb
    # weights: one segment per tensor (never freed)
    run.params = []
    for _ in range(L):
        for _, o, i in run.linears():
            a.malloc(o * i * run.pb)
    a.malloc(emb)
    if not run.tied:
        a.malloc(emb)
    a.reset_peaks()
    units = [wl] * L + [emb] * (1 if run.tied else 2)
    if not agg_params:
        units = [o * i * run.pb for _ in range(L) for _, o, i in run.linears()] + [emb] * (1 if run.tied else 2)
    states = None
    for st in range(steps):
        grads = None
        for micro in range(run.acc):
            xs = [a.malloc(c * T * h)]
            sv = []
            for l in range(L):
                if run.gc:
                    t = a.malloc(ft); y = a.malloc(c * T * h); a.free_block(t)
                else:
                    s_ = a.malloc(saved); t = a.malloc(ft); y = a.malloc(c * T * h); a.free_block(t); sv.append(s_)
                xs.append(y)
            fn = a.malloc(8 * T * h)
            lg = a.malloc(c * T * V); lf = a.malloc(4 * T * V); ls = a.malloc(4 * T * V)
            a.free_block(lf); a.free_block(lg)
            g1 = a.malloc(4 * T * V); g2 = a.malloc(4 * T * V); a.free_block(g1); a.free_block(ls)
            g3 = a.malloc(c * T * V); a.free_block(g2)
            new = grads is None
            if new:
                grads = []
            gl = a.malloc(emb)
            if new:
                grads.append(gl)
            else:
                a.free_block(gl)
            a.free_block(g3); a.free_block(fn)
            for l in reversed(range(L)):
                s_ = a.malloc(saved) if run.gc else sv[l]
                t = a.malloc(bt)
                lay = [a.malloc(u) for u in (units[:-1][l * 7:(l + 1) * 7] if not agg_params else [wl])]
                if new:
                    grads += lay
                else:
                    for x in lay:
                        a.free_block(x)
                a.free_block(t); a.free_block(s_); a.free_block(xs[l + 1])
            eg = a.malloc(emb); a.free_block(eg)
            a.free_block(xs[0])
        if states is None:
            states = [(a.malloc(u), a.malloc(u)) for u in units]
        if not run.fused:
            tmp = [a.malloc(u) for u in units]
            for x in tmp:
                a.free_block(x)
        for g in grads:
            a.free_block(g)
    return a


if __name__ == "__main__":
    rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
    for r in rows:
        sc = r['scenario']
        if sc['model']['model_type'] in ('gemma2', 'mixtral') or sc['method'] != 'full' or sc.get('precision') != 'bf16':
            continue
        m = r['measured']
        fine = Run(sc).run(3)
        co = coarse(sc, agg_params=True)
        co2 = coarse(sc, agg_params=False)
        print(f"{r['id']:34s} meas R {m['reserved_peak_bytes']/GiB:6.2f} | fine A {fine.peak_alloc/GiB:6.2f} R {fine.peak_reserved/GiB:6.2f} | coarse A {co.peak_alloc/GiB:6.2f} R {co.peak_reserved/GiB:6.2f} | coarse-per-param R {co2.peak_reserved/GiB:6.2f}")
