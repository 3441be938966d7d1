import os
import json, sys
import cca, trace
from trace import Run, GiB
rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'data', 'calibration', 'measured-h200.json')))
def run_all(label, patch=None):
    errs=[]; out=[]
    for r in rows:
        sc=r['scenario']
        if sc['model']['model_type'] in ('gemma2','mixtral'): continue
        R=r['measured']['reserved_peak_bytes']
        vals=[]
        for desc in (False, True):
            run=Run(sc)
            if patch: patch(run)
            if desc:
                ons=run.a._new_segment
                def ns(size, small, ons=ons):
                    b=ons(size, small); b.addr=(1<<60)-b.addr-size; return b
                run.a._new_segment=ns
            vals.append(run.run(2).peak_reserved)
        e=max(vals)/R-1; errs.append(e); out.append(f"{e*100:+.1f}")
    print(f"{label:28s} mean|err| {100*sum(map(abs,errs))/len(errs):.2f}%  max {100*max(map(abs,errs)):.1f}%  rows: {' '.join(out)}")
run_all("fine, 2 steps")
def no_rotary(run):
    def attn_fwd(x, save, l, self=run):
        T,c,nq,nkv,h=self.T,self.c,self.nq,self.nkv,self.h
        saved=[]
        q,sq=self.linear_fwd("q",h,nq,save,l); k,sk=self.linear_fwd("k",h,nkv,save,l); v,sv=self.linear_fwd("v",h,nkv,save,l)
        saved+=sq+sk+sv
        o=self.A(c*T*nq); lse=self.A(4*self.b*self.nh*self.s)
        if save: saved+=[q,k,v,o,lse]
        else: self.F(q,k,v,lse)
        proj,so=self.linear_fwd("o",nq,h,save,l); saved+=so
        if not save: self.F(o)
        return proj,saved
    run.attn_fwd=attn_fwd
run_all("no rotary temporaries", no_rotary)
def no_small(run):
    A0=run.A
    class Dummy: pass
    def A(n, tag="", A0=A0):
        if n <= (1<<20):
            return None
        return A0(n)
    run.A=A
run_all("small-pool requests dropped", no_small)
