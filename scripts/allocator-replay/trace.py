"""Synthetic allocation trace of a Hugging Face decoder training step (harness.py of calibration/h200),
at tensor granularity for the tensors that matter (>= a few KiB), replayed through cca.Allocator."""
import json, sys
from cca import Allocator, MiB

GiB = 1 << 30


class Run:
    def __init__(self, sc, expandable=False, verbose=False):
        m = sc["model"]
        self.sc = sc
        self.h = m["hidden_size"]; self.f = m["intermediate_size"]; self.L = m["num_hidden_layers"]
        self.nh = m["num_attention_heads"]; self.nkvh = m["num_key_value_heads"]
        self.hd = m.get("head_dim") or self.h // self.nh
        self.nq = self.nh * self.hd; self.nkv = self.nkvh * self.hd
        self.V = m["vocab_size"]; self.tied = m.get("tie_word_embeddings", False)
        self.bias = m["model_type"] == "qwen2"
        self.b = sc["micro_batch"]; self.s = sc["seq_len"]; self.T = self.b * self.s
        self.acc = sc.get("gradient_accumulation", 1)
        self.gc = sc.get("gradient_checkpointing", "none") != "none"
        self.amp = sc.get("precision") == "amp-bf16"
        self.pb = 4 if self.amp else 2     # parameter bytes
        self.c = 2                          # compute (activation) bytes
        self.rb = 4 if self.amp else 2     # residual-stream bytes (fp32 embedding output under autocast)
        ov = sc.get("framework_overrides") or {}
        self.fused = ov.get("optimizer_step") == "fused"
        self.lora = sc["method"] == "lora"
        if self.lora:
            lo = sc["lora"]
            t = lo["targets"]
            self.ltargets = {"q", "k", "v", "o", "gate", "up", "down"} if t == "all-linear" else \
                {x.replace("_proj", "") for x in t}
            self.r = lo["rank"]
            self.lb = 2 if lo.get("dtype") == "bf16" else 4
        self.a = Allocator(expandable=expandable)
        self.live = {}
        self.verbose = verbose
        self.log = []

    # --- allocator front end -------------------------------------------------------------------
    def A(self, n, tag=""):
        blk = self.a.malloc(int(n))
        return blk

    def F(self, *blks):
        for b in blks:
            if b is not None:
                self.a.free_block(b)

    # --- parameters ----------------------------------------------------------------------------
    def needs_input(self, nm):
        """Does autograd keep this linear's input? Only for its weight gradient (full) or PEFT's lora_A."""
        return not self.lora or nm in self.ltargets

    def linears(self):
        h, f, nq, nkv = self.h, self.f, self.nq, self.nkv
        return [("q", nq, h), ("k", nkv, h), ("v", nkv, h), ("o", h, nq), ("gate", f, h), ("up", f, h), ("down", h, f)]

    def build(self):
        """Parameters in registration order; returns list of (name, numel, trainable)."""
        P = [("embed", self.V * self.h, not self.lora)]
        for l in range(self.L):
            for nm, o, i in self.linears():
                P.append((f"{l}.{nm}", o * i, not self.lora))
                if self.bias and nm in ("q", "k", "v"):
                    P.append((f"{l}.{nm}.bias", o, not self.lora))
            P.append((f"{l}.ln1", self.h, not self.lora)); P.append((f"{l}.ln2", self.h, not self.lora))
        P.append(("norm", self.h, not self.lora))
        if not self.tied:
            P.append(("lm_head", self.V * self.h, not self.lora))
        if self.lora:  # PEFT injects adapters after the model is built
            for l in range(self.L):
                for nm, o, i in self.linears():
                    if nm in self.ltargets:
                        P.append((f"{l}.{nm}.lora_A", self.r * i, True))
                        P.append((f"{l}.{nm}.lora_B", o * self.r, True))
        self.params = P
        self.pblk = {}
        for name, n, tr in P:
            bytes_ = n * (self.lb if ".lora_" in name else self.pb)
            self.pblk[name] = self.A(bytes_)
        self.grads = {}

    def pbytes(self, name):
        n = dict((p[0], p[1]) for p in self.params)[name]
        return n * (self.lb if ".lora_" in name else self.pb)

    def grad(self, name, blk_bytes=None):
        """AccumulateGrad: first gradient is stolen as .grad; later ones are added in place and freed."""
        nb = blk_bytes or self.pbytes(name)
        g = self.A(nb)
        if name in self.grads:
            self.F(g)
        else:
            self.grads[name] = g

    # --- modules -------------------------------------------------------------------------------
    def rmsnorm_fwd(self, save):
        T, h, rb = self.T, self.h, self.rb
        a = self.A(4 * T * h) if rb != 4 else None   # x.float() (a no-op on an fp32 residual stream)
        p = self.A(4 * T * h); v = self.A(4 * T); self.F(p)
        r = self.A(4 * T)
        n = self.A(4 * T * h)                     # a * rsqrt
        if not save:
            self.F(a)
        if rb != 4:
            nb = self.A(rb * T * h)               # .to(input_dtype)
            self.F(n)
        else:
            nb = n
        out = self.A(rb * T * h)                  # weight * nb
        saved = [a, r, nb] if save else []
        if save and self.lora and nb is not n:
            self.F(nb); saved = [a, r]
        if not save:
            self.F(r, nb)
        self.F(v)
        return out, saved

    def rmsnorm_bwd(self, dout, saved, wname):
        T, h, rb = self.T, self.h, self.rb
        t = self.A(rb * T * h); self.F(t)         # dout * nb -> sum for weight grad
        if not self.lora:
            self.grad(wname)
        dnb = self.A(rb * T * h)                  # dout * weight
        dn = self.A(4 * T * h); self.F(dnb)       # to fp32
        d1 = self.A(4 * T * h)                    # dn * r
        t2 = self.A(4 * T * h); dr = self.A(4 * T); self.F(t2)
        d2 = self.A(4 * T * h)                    # pow/mean backward
        self.F(dn, dr)
        dx = self.A(rb * T * h)                   # back to input dtype (sum of d1 + d2)
        self.F(d1, d2)
        self.F(*saved)
        return dx

    def lin_in(self, x_bytes):
        """Under autocast a linear casts an fp32 input to bf16 (not cached: not a leaf)."""
        if self.amp and x_bytes == 4:
            return self.A(2 * self.T * (self.h))
        return None

    def lora_fwd(self, nm, i, o, save):
        """PEFT LoraLayer.forward: x cast to the adapter dtype, lora_B(lora_A(x)) * scaling added."""
        if not self.lora or nm not in self.ltargets:
            return []
        T, lb, c = self.T, self.lb, self.c
        xs = self.A(lb * T * i) if lb != c else None      # x.to(lora dtype)
        la = self.A(lb * T * self.r)
        lbo = self.A(lb * T * o)
        sc = self.A(lb * T * o); self.F(lbo)
        res = self.A(max(lb, c) * T * o)                  # result + lora
        self.F(sc)
        if lb != c:
            r2 = self.A(c * T * o); self.F(res); res = r2
        saved = [xs, la] if save else []
        if not save:
            self.F(xs, la)
        return saved, res

    def linear_fwd(self, nm, i, o, save, lname):
        T, c = self.T, self.c
        y = self.A(c * T * o)
        extra = []
        if self.lora and nm in self.ltargets:
            s, res = self.lora_fwd(nm, i, o, save)
            self.F(y); y = res; extra = s
        return y, extra

    def attn_fwd(self, x, save, l):
        T, c, nq, nkv, h = self.T, self.c, self.nq, self.nkv, self.h
        saved = []
        q, sq = self.linear_fwd("q", h, nq, save, l)
        k, sk = self.linear_fwd("k", h, nkv, save, l)
        v, sv = self.linear_fwd("v", h, nkv, save, l)
        saved += sq + sk + sv
        outs = []
        for t, d in ((q, nq), (k, nkv)):
            t1 = self.A(c * T * d)                # t * cos
            neg = self.A(c * T * d // 2); cat = self.A(c * T * d); self.F(neg)
            t2 = self.A(c * T * d); self.F(cat)   # rotate_half * sin
            e = self.A(c * T * d); self.F(t1, t2, t)
            outs.append(e)
        qe, ke = outs
        o = self.A(c * T * nq); lse = self.A(4 * self.b * self.nh * self.s)
        if save:
            saved += [qe, ke, v, o, lse]
        else:
            self.F(qe, ke, v, lse)
        proj, so = self.linear_fwd("o", nq, h, save, l)
        saved += so
        if not save:
            self.F(o)
        return proj, saved

    def mlp_fwd(self, x, save, l):
        T, c, f, h = self.T, self.c, self.f, self.h
        g, sg = self.linear_fwd("gate", h, f, save, l)
        a = self.A(c * T * f)
        if not save:
            self.F(g)
        u, su = self.linear_fwd("up", h, f, save, l)
        p = self.A(c * T * f)
        if not save:
            self.F(a, u)
        d, sd = self.linear_fwd("down", f, h, save, l)
        if not save or not self.needs_input("down"):
            self.F(p); p = None
        return d, ([g, a, u, p] + sg + su + sd if save else [])

    def layer_fwd(self, x, save, l):
        """Returns (output, saved dict)."""
        T, h, rb = self.T, self.h, self.rb
        out1, s1 = self.rmsnorm_fwd(save)
        c1 = [self.lin_in(rb) for _ in range(3)]          # autocast copies for q, k, v
        proj, s2 = self.attn_fwd(out1, save, l)
        if not save or not any(self.needs_input(n) for n in ("q", "k", "v")):
            self.F(out1, *c1); out1 = None; c1 = []
        h1 = self.A(rb * T * h); self.F(proj)
        out2, s3 = self.rmsnorm_fwd(save)
        c2 = [self.lin_in(rb) for _ in range(2)]
        d, s4 = self.mlp_fwd(out2, save, l)
        if not save or not any(self.needs_input(n) for n in ("gate", "up")):
            self.F(out2, *c2); out2 = None; c2 = []
        y = self.A(rb * T * h); self.F(d)
        keep_h1 = save and self.rb == 4            # fp32 residual: the norm's x.float() is x itself, saved
        saved = dict(n1=s1, a=s2, n2=s3, m=s4, out1=[out1] + c1, out2=[out2] + c2, h1=h1 if keep_h1 else None)
        if not keep_h1:
            self.F(h1)
        return y, saved

    def lin_bwd(self, nm, i, o, l, dy):
        """grad input (T x i) and the weight gradient (or LoRA's)."""
        T, c = self.T, self.c
        dx = self.A(c * T * i)
        if not self.lora:
            if self.amp:
                g16 = self.A(2 * i * o); self.grad(f"{l}.{nm}"); self.F(g16)
            else:
                self.grad(f"{l}.{nm}")
        elif nm in self.ltargets:
            lb = self.lb
            t = self.A(lb * T * o)                    # grad of lora_B output (scaled, cast)
            self.grad(f"{l}.{nm}.lora_B")
            dla = self.A(lb * T * self.r)
            self.grad(f"{l}.{nm}.lora_A")
            dxs = self.A(lb * T * i); self.F(t, dla)
            dx2 = self.A(c * T * i) if lb != c else None
            self.F(dxs, dx2)
        return dx

    def layer_bwd(self, dy, sv, l):
        T, c, f, h, nq, nkv, rb = self.T, self.c, self.f, self.h, self.nq, self.nkv, self.rb
        g, a, u, p = sv["m"][:4]
        lora_m = sv["m"][4:]
        # MLP
        dp = self.lin_bwd("down", f, h, l, dy); self.F(p)
        da = self.A(c * T * f); du = self.A(c * T * f); self.F(dp, a, u)
        dxu = self.lin_bwd("up", h, f, l, du); self.F(du)
        dg = self.A(c * T * f); self.F(da, g)
        dxg = self.lin_bwd("gate", h, f, l, dg); self.F(dg)
        self.F(dxg)                                      # accumulated into dxu
        self.F(*[x for x in lora_m if x is not None])
        self.F(*[x for x in sv["out2"] if x is not None])
        dn2 = self.rmsnorm_bwd(dxu, sv["n2"], f"{l}.ln2"); self.F(dxu)
        dh1 = self.A(rb * T * h); self.F(dn2, dy)
        # attention
        qe, ke, v, o, lse = self._attn_saved(sv["a"])
        do = self.lin_bwd("o", nq, h, l, dh1)
        acc = self.A(4 * T * nq); dq = self.A(c * T * nq); dke = self.A(c * T * nq); dve = self.A(c * T * nq)
        sd = self.A(4 * self.b * self.nh * self.s)
        dk = self.A(c * T * nkv); dv = self.A(c * T * nkv)
        self.F(dke, dve, acc, sd, do, qe, ke, v, o, lse)
        self.F(*[x for x in sv["a"] if x not in (qe, ke, v, o, lse) and x is not None])
        res = []
        for t, d in ((dq, nq), (dk, nkv)):
            t1 = self.A(c * T * d); t2 = self.A(c * T * d); r = self.A(c * T * d)
            self.F(t2)
            e = self.A(c * T * d); self.F(t1, r, t)
            res.append(e)
        dq, dk = res
        d1 = self.lin_bwd("q", h, nq, l, dq); self.F(dq)
        d2 = self.lin_bwd("k", h, nkv, l, dk); self.F(dk, d2)
        d3 = self.lin_bwd("v", h, nkv, l, dv); self.F(dv, d3)
        if self.bias and not self.lora:
            for nm in ("q", "k", "v"):
                self.grad(f"{l}.{nm}.bias")
        self.F(*[x for x in sv["out1"] if x is not None])
        dn1 = self.rmsnorm_bwd(d1, sv["n1"], f"{l}.ln1"); self.F(d1, sv["h1"])
        dx = self.A(rb * T * h); self.F(dn1, dh1)
        return dx

    def _attn_saved(self, lst):
        # attn_fwd appends [qe, ke, v, o, lse] after the q/k/v LoRA saves and before o's LoRA saves
        n_o = 2 if (self.lora and "o" in self.ltargets) else 0
        core = lst[len(lst) - n_o - 5: len(lst) - n_o]
        return core

    # --- one training step ---------------------------------------------------------------------
    def micro_step(self):
        T, h, V, c, rb = self.T, self.h, self.V, self.c, self.rb
        ids = self.A(8 * T)
        cos = self.A(2 * T * self.hd); sin = self.A(2 * T * self.hd)
        x = self.A(rb * T * h)                          # embedding output
        xs, saved = [x], []
        self.a.phase = f"{self.stepno}:fwd"
        for l in range(self.L):
            y, sv = self.layer_fwd(xs[-1], not self.gc, l)
            xs.append(y); saved.append(sv)
        self.a.phase = f"{self.stepno}:loss"
        fn, sfn = self.rmsnorm_fwd(True)
        fnc = self.lin_in(rb)
        logits = self.A(c * T * V)
        lf = self.A(4 * T * V)                         # logits.float()
        ls = self.A(4 * T * V)                         # log_softmax, saved
        self.F(lf)                                     # end of ForCausalLMLoss
        self.F(logits)                                 # output object dropped by the harness
        # backward
        g1 = self.A(4 * T * V)                         # nll_loss_backward
        g2 = self.A(4 * T * V)                         # log_softmax_backward
        self.F(g1, ls)
        g3 = self.A(c * T * V)                         # ToCopyBackward to bf16
        self.F(g2)
        dfn = self.A(c * T * h)
        lm = "embed" if self.tied else "lm_head"
        if not self.lora:
            if self.amp:
                g16 = self.A(2 * V * h); self.grad(lm); self.F(g16)
            else:
                self.grad(lm)
        self.F(g3, fnc)
        dy = self.rmsnorm_bwd(dfn, sfn, "norm"); self.F(dfn, fn)
        for l in reversed(range(self.L)):
            self.a.phase = f"{self.stepno}:bwd{l}"
            if self.gc:
                _, sv = self.layer_fwd(xs[l], True, l)   # recompute (its output is dropped)
                self.F(_)
            else:
                sv = saved[l]
            dx = self.layer_bwd(dy, sv, l)
            self.F(xs[l + 1])
            dy = dx
        if not self.lora:                                 # embedding_dense_backward
            self.grad("embed", V * h * (4 if self.amp else 2))
        self.F(dy, xs[0], ids, cos, sin)

    def opt_step(self):
        trainable = [p for p in self.params if p[2]]
        self.a.phase = f"{self.stepno}:opt"
        if not hasattr(self, "state"):
            self.state = {}
            for name, n, _ in trainable:                  # _init_group: exp_avg, exp_avg_sq per parameter
                self.state[name] = (self.A(self.pbytes(name)), self.A(self.pbytes(name)))
        if not self.fused:                                # _foreach_sqrt(exp_avg_sqs): one state-sized list
            tmp = [self.A(self.pbytes(name)) for name, n, _ in trainable]
            self.F(*tmp)
        for name, n, _ in trainable:                      # zero_grad(set_to_none=True)
            self.F(self.grads.pop(name))

    def run(self, steps=4):
        self.build()
        self.a.reset_peaks()
        for st in range(steps):
            self.stepno = st
            for _ in range(self.acc):
                self.micro_step()
            self.opt_step()
        return self.a


def main():
    rows = json.load(open(sys.argv[1]))
    only = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    for r in rows:
        if only and not any(o in r["id"] for o in only):
            continue
        if r["scenario"]["model"]["model_type"] in ("gemma2", "mixtral"):
            continue
        m = r["measured"]
        out = []
        for exp in (False, True):
            a = Run(r["scenario"], expandable=exp).run(steps=4)
            out.append(a)
        a, e = out
        print(f"{r['id']:36s} alloc {m['allocated_peak_bytes']/GiB:6.2f} sim {a.peak_alloc/GiB:6.2f} | "
              f"resv {m['reserved_peak_bytes']/GiB:6.2f} sim {a.peak_reserved/GiB:6.2f} "
              f"({(a.peak_reserved/m['reserved_peak_bytes']-1)*100:+5.1f}%) | expandable {e.peak_reserved/GiB:6.2f}")


if __name__ == "__main__":
    main()
