#!/usr/bin/env python3
"""results-teg.py -- TEG (seed 003) beside the cycle model and the thesis.

`make results-teg` (docs/teg.md, "Results"). For each preset it runs
`smcosim teg validate` on seed 003's validation kernels at the thesis's warp
counts and prints, in Markdown:

  R1  Tables 3.2-3.6 on smcosim: thesis measured (GT200) and thesis TEG beside
      the cycle model and TEG on the same trace, and the error
      (TEG - model) / TEG as the thesis divides (G14); the SGEMM kernels of
      ch. 4 likewise, with the fraction of the preset's peak they achieve on
      the cycle model beside the thesis's achieved SGEMM;
  R2  scaling W . T(1) / T(W);
  R3  what-if: T(MatA) / T(MatB), and TEG's smem-conflict-free what-if on MatA;
  R4  SP active % for MatB beside the thesis's;
  R5  the configured latencies beside `teg calibrate`'s (Table 3.1's analogue);
  R6  Table 4.1 by the kepler4 register-bank rule (hand-written SASS traces);
  R7  the SGEMM bound (`smcosim teg bound`);
  R8  speed: TEG and the cycle model on the same traces.

The thesis's columns are another ISA and GPU (GT200): context, not a target.
TEG's parameters are `smcosim teg calibrate`'s set of each preset (the
specification's choice, §5.7), or with --uncalibrated its `from-config` set.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Tables 3.2-3.6 (003 L1139-1209; ../shared/design/teg.md §1.5): W -> (measured, TEG)
THESIS = {
    "mm_abt_conflict": {1: (55605, 52590), 2: (55803, 52878), 4: (71465, 64578), 8: (107668, 109364),
                        16: (186958, 200538)},
    "mm_abt_padded": {1: (17511, 16746), 2: (17291, 17528), 4: (18330, 19510), 8: (23228, 23630),
                      16: (33227, 34896)},
    "hop_aos_dp": {1: (51053, 46034), 2: (68383, 66674), 4: (122430, 110162)},
    "hop_soa_dp": {1: (37926, 36202), 2: (47038, 45204), 4: (73100, 68104)},
}
# Table 3.6: TEG's conflict-free what-if on MatA's trace, against MatB measured
THESIS_WHATIF = {1: 16784, 2: 16868, 4: 18474, 8: 20852, 16: 34688}
NAMES = {"mm_abt_conflict": "MatA (3.2)", "mm_abt_padded": "MatB (3.3)", "hop_aos_dp": "QdA (3.4)",
         "hop_soa_dp": "QdB (3.5)", "hop_soa_sp": "Qf", "blackscholes": "BS",
         "sgemm_rb6_lds64": "SGEMM LDS.64", "sgemm_rb6_lds128": "SGEMM LDS.128"}
WARPS = {"mm_abt_conflict": [1, 2, 4, 8, 16], "mm_abt_padded": [1, 2, 4, 8, 16],
         "hop_aos_dp": [1, 2, 4], "hop_soa_dp": [1, 2, 4], "hop_soa_sp": [1, 2, 4],
         "blackscholes": [1, 2, 4, 8, 16], "sgemm_rb6_lds64": [8, 16], "sgemm_rb6_lds128": [8, 16]}
# The thesis's achieved SGEMM (003 L1292-1296, L1544): GTX580 74.2 % of peak
# (about 90 % of its 82.5 % bound), GTX680 1375 GFLOPS of 3090 (77.3 % of its
# 57.6 % bound)
THESIS_SGEMM = "GTX580: 74.2 % of peak (~90 % of the 82.5 % bound); GTX680: 1375 / 3090 GFLOPS = 44.5 % " \
               "(77.3 % of the 57.6 % bound)"
# R4: SP active % of MatB at 1, 2, 4, 8, 16 warps (003 L1231, L1242)
THESIS_SP_ACTIVE = {1: 11.0, 2: 22.0, 4: 40.0, 8: 71.7, 16: 86.2}
# Table 4.1 (003 L1352-1369): sources -> GTX680 thread-instructions per cycle per SM
TABLE41 = [("FFMA", "R1 R4 R0", 129.0), ("FFMA", "R1 R4 R5", 132.0), ("FFMA", "R1 R3 R5", 66.2),
           ("FFMA", "R1 R3 R9", 44.2), ("FADD", "R1 R2", 132.0), ("FADD", "R1 R3", 66.2),
           ("IADD", "R1 R2", 132.4), ("IADD", "R1 R3", 66.2), ("IMUL", "R1 R2", 33.2),
           ("IMUL", "R1 R3", 33.2), ("IMAD", "R1 R4 R5", 33.1),
           ("IMAD", "R1 R3 R5", 33.2), ("IMAD", "R1 R3 R9", 26.5)]


def run(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("results-teg: %s failed:\n%s" % (" ".join(cmd), p.stderr[-2000:] + p.stdout[-1000:]))
    return p.stdout, time.monotonic() - t0


def validate(smc, preset, kernel, w, steps, params, whatif=None):
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "r.json")
        cmd = [smc, "teg", "validate", "--kernel", kernel, "--warps", str(w), "--config", preset,
               "--json", j] + (["--steps", str(steps)] if steps else [])
        if params:
            cmd += ["--params", params]
        if whatif:
            cmd += ["--what-if", whatif]
        text, secs = run(cmd)
        k = json.load(open(j))["kernels"][0]
        k["secs"] = secs
        mnk = re.search(r"M (\d+) N (\d+) K (\d+)", text)   # the SGEMM kernels' sizes
        if mnk:
            k["mnk"] = tuple(int(x) for x in mnk.groups())
        return k


def err(teg, ref):
    return 100.0 * (teg - ref) / teg if teg else 0.0


def peak_flops_per_cycle(smc, preset):
    """The preset's single-precision peak, flops per core cycle: SMs x FP32
    lanes per SM-cycle x 2 (an FMA), the lanes being every SP unit's warp
    lanes per initiation interval: mem.num_sms x (sched.num x unit.sp.private
    + unit.sp.shared) x mem.warp_size / unit.sp.ii x 2; and the core clock
    (gpu.clock_mhz) to turn it into GFLOPS."""
    text, _ = run([smc, "config", "--config", preset])
    v = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 3 and f[1] == "=":
            v[f[0]] = f[2]
    units = int(v["sched.num"]) * int(v["unit.sp.private"]) + int(v["unit.sp.shared"])
    peak = int(v["mem.num_sms"]) * units * int(v["mem.warp_size"]) / int(v["unit.sp.ii"]) * 2
    return peak, float(v["gpu.clock_mhz"])


def sass_trace(d, op, srcs):
    """32 warps x 8 independent instructions `op R0, srcs`: Pascal's SASS
    (binary version 61), Volta's (70) for IMUL/IMAD, which Pascal has not."""
    binver = 70 if op in ("IMUL", "IMAD") else 61
    os.makedirs(d, exist_ok=True)
    regs = srcs.split()
    with open(os.path.join(d, "kernel-1.traceg"), "w") as f:
        f.write("-kernel name = t41\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (1024,1,1)\n"
                "-shmem = 0\n-nregs = 16\n-binary version = %d\n-cuda stream id = 0\n"
                "-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n-nvbit version = 1.5.5\n"
                "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n#BEGIN_TB\nthread block = 0,0,0\n" % binver)
        for w in range(32):
            f.write("warp = %d\ninsts = 8\n" % w)
            for i in range(8):
                f.write("%04x ffffffff 1 R0 %s %d %s 0\n" % ((i + 1) * 16, op, len(regs), " ".join(regs)))
        f.write("#END_TB\n")
    with open(os.path.join(d, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--size", choices=["small", "default"], default="default",
                    help="small: 2 k-steps / items and W <= 4 (the make test smoke run)")
    ap.add_argument("--presets", default="fermi-gtx480,kepler-k20x")
    ap.add_argument("--uncalibrated", action="store_true",
                    help="TEG with each preset's from-config set instead of teg calibrate's")
    ap.add_argument("--out", help="also write the Markdown here")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless every Table 4.1 row but IMAD 3-way (G25) is within 5 %%")
    a = ap.parse_args()
    smc = os.path.join(a.build, "bin", "smcosim")
    small = a.size == "small"
    steps = 2 if small else 0
    out = []
    p = out.append
    p("# TEG (seed 003) beside the cycle model\n")
    p("`scripts/results-teg.py --size %s --presets %s` (`make results-teg`). TEG's parameters: %s. "
      "The thesis columns are GT200 measurements and TEG predictions (003 Tables 3.2-3.6): another "
      "GPU and ISA, context only.\n" % (a.size, a.presets,
                                         "each preset's `from-config` set (uncalibrated)" if a.uncalibrated
                                         else "`smcosim teg calibrate --config PRESET`'s set"))
    pdir = tempfile.mkdtemp(prefix="results-teg-")
    speed = {"teg_s": 0.0, "model_insts": 0, "n": 0}
    for preset in a.presets.split(","):
        params = None
        calib = None
        if not a.uncalibrated:
            params = os.path.join(pdir, preset + ".teg")
            calib, _ = run([smc, "teg", "calibrate", "--config", preset, "--out", params] +
                           (["--quick"] if small else []))
        res = {}
        for kern, ws in WARPS.items():
            for w in ws:
                if small and w > 4:
                    continue
                res[kern, w] = validate(smc, preset, kern, w, steps, params)
                speed["n"] += 1
        whatif = {}
        for w in WARPS["mm_abt_conflict"]:
            if small and w > 4:
                continue
            whatif[w] = validate(smc, preset, "mm_abt_conflict", w, steps, params, "smem-conflict-free")
        p("\n## %s\n" % preset)
        if calib:
            p("\n### R5: Table 3.1's analogue (`smcosim teg calibrate --config %s`)\n" % preset)
            p("\n".join(l for l in calib.splitlines() if l.startswith("|")))
        p("\n### R1: Tables 3.2-3.6 on smcosim\n")
        p("| kernel | W | thesis measured | thesis TEG | thesis err | cycle model | TEG | err (TEG - model)/TEG |")
        p("|---|---:|---:|---:|---:|---:|---:|---:|")
        errs = []
        for (kern, w), r in res.items():
            th = THESIS.get(kern, {}).get(w)
            e = err(r["cycles"], r["model_cycles"])
            if kern.startswith("mm_"):
                errs.append(abs(e))
            p("| %s | %d | %s | %s | %s | %d | %d | %+.2f %% |" % (
                NAMES[kern], w, th[0] if th else "", th[1] if th else "",
                "%+.2f %%" % err(th[1], th[0]) if th else "", r["model_cycles"], r["cycles"], e))
        for w, r in whatif.items():
            mb = res["mm_abt_padded", w]["model_cycles"]
            th = THESIS["mm_abt_padded"][w][0]
            e = err(r["cycles"], mb)
            errs.append(abs(e))
            p("| MatA what-if (3.6) vs MatB | %d | %d | %d | %+.2f %% | %d | %d | %+.2f %% |" % (
                w, th, THESIS_WHATIF[w], err(THESIS_WHATIF[w], th), mb, r["cycles"], e))
        if errs:
            p("\nMatA/MatB rows (with the what-if): mean |err| %.2f %%, max %.2f %% (thesis: 5.09 / 11.94 %% "
              "claimed, 5.37 / 11.39 %% recomputed from its tables, G15).\n" % (sum(errs) / len(errs), max(errs)))
        sg = [(kern, w) for kern, w in res if kern.startswith("sgemm_")]
        if sg:
            peak, mhz = peak_flops_per_cycle(smc, preset)
            p("\n### R1, SGEMM: achieved on the cycle model\n")
            p("Peak %.0f flops per cycle = mem.num_sms x (sched.num x unit.sp.private + unit.sp.shared) x "
              "mem.warp_size / unit.sp.ii x 2 (`smcosim config --config %s`), %.0f GFLOPS at gpu.clock_mhz "
              "%.0f; achieved = 2 M N K / cycle model cycles. Thesis: %s.\n" % (
                  peak, preset, peak * mhz / 1000, mhz, THESIS_SGEMM))
            p("| kernel | W | M x N x K | cycle model | TEG | err (TEG - model)/TEG | flops per cycle | GFLOPS | "
              "achieved / peak |")
            p("|---|---:|---|---:|---:|---:|---:|---:|---:|")
            for kern, w in sg:
                r = res[kern, w]
                m_, n_, k_ = r["mnk"]
                fpc = 2.0 * m_ * n_ * k_ / r["model_cycles"]
                p("| %s | %d | %d x %d x %d | %d | %d | %+.2f %% | %.0f | %.0f | %.1f %% |" % (
                    NAMES[kern], w, m_, n_, k_, r["model_cycles"], r["cycles"],
                    err(r["cycles"], r["model_cycles"]), fpc, fpc * mhz / 1000, 100.0 * fpc / peak))
        p("\n### R2: scaling W . T(1) / T(W)\n")
        p("| kernel | W | thesis measured | cycle model | TEG |")
        p("|---|---:|---:|---:|---:|")
        for kern in ("mm_abt_conflict", "mm_abt_padded", "hop_aos_dp", "hop_soa_dp"):
            if (kern, 1) not in res:
                continue
            for w in WARPS[kern]:
                if (kern, w) not in res:
                    continue
                th = THESIS[kern]
                p("| %s | %d | %.2f | %.2f | %.2f |" % (
                    NAMES[kern], w, w * th[1][0] / th[w][0],
                    w * res[kern, 1]["model_cycles"] / res[kern, w]["model_cycles"],
                    w * res[kern, 1]["cycles"] / res[kern, w]["cycles"]))
        p("\n### R3: the bank-conflict penalty T(MatA) / T(MatB)\n")
        p("| W | thesis measured | cycle model | TEG | TEG, MatA / its conflict-free what-if |")
        p("|---:|---:|---:|---:|---:|")
        for w in whatif:
            a_, b_ = res["mm_abt_conflict", w], res["mm_abt_padded", w]
            p("| %d | %.2f | %.2f | %.2f | %.2f |" % (
                w, THESIS["mm_abt_conflict"][w][0] / THESIS["mm_abt_padded"][w][0],
                a_["model_cycles"] / b_["model_cycles"], a_["cycles"] / b_["cycles"],
                a_["cycles"] / whatif[w]["cycles"]))
        p("\n### R4: SP active % of MatB (TEG; per SP unit instance of the preset)\n")
        p("| W | thesis (GT200) | TEG |")
        p("|---:|---:|---:|")
        for w in WARPS["mm_abt_padded"]:
            if ("mm_abt_padded", w) in res:
                p("| %d | %.1f | %.1f |" % (w, THESIS_SP_ACTIVE[w],
                                            res["mm_abt_padded", w]["units"]["sp"]["active_pct"]))
        for r in list(res.values()) + list(whatif.values()):
            speed["teg_s"] += r["secs"]
            speed["model_insts"] += r["warp_insts"]

    # R6: Table 4.1 by the kepler4 rule, one engine issuing every cycle (GK104's
    # 132 of 192 thread-instructions per cycle: interval 1), FP/IADD accepted every
    # cycle, IMUL/IMAD every 4 (33 thread-instructions per cycle)
    p("\n## R6: Table 4.1 by the kepler4 register-bank rule\n")
    p("`gk104-issue` set: `--param engines=1 issue_interval=1 fp32/int accept 1, int_mul accept 4, "
      "regbank=kepler4`; 32 warps x 8 independent instructions; throughput = 132 x (instructions / "
      "issue cycles), 132 being the schedulers' measured peak (003 L1346).\n")
    p("| instruction | thesis | TEG | TEG / thesis |")
    p("|---|---:|---:|---:|")
    gk = ["--param", "engines=1", "--param", "issue_interval=1", "--param", "fp32.accept=1",
          "--param", "fp32.warp_busy=1", "--param", "fp32.exec=9", "--param", "int.accept=1",
          "--param", "int.warp_busy=1", "--param", "int.exec=9", "--param", "int_mul.accept=4",
          "--param", "int_mul.warp_busy=1", "--param", "int_mul.exec=9", "--param", "regbank=kepler4"]
    bad41 = []
    with tempfile.TemporaryDirectory() as d:
        for op, srcs, tp in TABLE41:
            td = os.path.join(d, op + srcs.replace(" ", "_"))
            sass_trace(td, op, srcs)
            j = os.path.join(td, "r.json")
            run([smc, "teg", "--trace", os.path.join(td, "kernelslist.g"), "--json", j] + gk)
            k = json.load(open(j))["kernels"][0]
            got = 132.0 * k["warp_insts"] / (k["cycles"] - 9)
            p("| %s R0, %s | %.1f | %.1f | %.2f |" % (op, ", ".join(srcs.split()), tp, got, got / tp))
            if abs(got / tp - 1) > 0.05 and (op, srcs) != ("IMAD", "R1 R3 R9"):
                bad41.append("%s %s: %.1f against %.1f" % (op, srcs, got, tp))
    p("\n## R7: the SGEMM bound\n")
    bound, _ = run([smc, "teg", "bound"])
    p("`smcosim teg bound`'s summary (its full report: docs/teg.md):\n")
    lines = bound.splitlines()
    at = next((i for i, l in enumerate(lines) if l.startswith("## Summary")), len(lines))
    p("\n".join(l for l in lines[at + 1:] if l.startswith("|")))
    p("\n## R8: speed\n")
    # one trace, TEG and the cycle model on it, each the best of three
    with tempfile.TemporaryDirectory() as d:
        pre = a.presets.split(",")[-1]
        w = 4 if small else 8
        run([smc, "teg", "validate", "--kernel", "mm_abt_conflict", "--warps", str(w), "--config", pre,
             "--trace-out", d] + (["--steps", str(steps)] if steps else []))
        lst = os.path.join(d, "kernelslist.g")
        j = os.path.join(d, "r.json")
        t_teg = min(run([smc, "teg", "--trace", lst, "--config", pre, "--json", j])[1] for _ in range(3))
        insts = json.load(open(j))["kernels"][0]["warp_insts"]
        t_run = min(run([smc, "run", "--trace", lst, "--config", pre])[1] for _ in range(3))
    p("MatA, W = %d, on %s: %d warp-instructions; TEG %.3f s (%.2f M warp-instructions/s), "
      "`smcosim run --trace` %.3f s (%.2f M/s): TEG %.1fx faster (process wall time, best of 3, "
      "start-up included; the machine's other load moves it).\n" % (
          w, pre, insts, t_teg, insts / t_teg / 1e6, t_run, insts / t_run / 1e6, t_run / t_teg))
    shutil.rmtree(pdir, ignore_errors=True)
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if a.out:
        os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
        with open(a.out + ".tmp", "w") as f:
            f.write(text)
        os.replace(a.out + ".tmp", a.out)
    if a.check:
        if bad41:
            sys.exit("results-teg: Table 4.1 rows off by more than 5 %%: %s" % "; ".join(bad41))
        print("results-teg: every Table 4.1 row but IMAD 3-way within 5 %")


if __name__ == "__main__":
    main()
