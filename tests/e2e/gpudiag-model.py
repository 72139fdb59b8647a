#!/usr/bin/env python3
"""The suite-kernel model of scripts/results-gpudiag.py (Eq. 3.2 with Eq.
3.5's P(c), docs/gpudiag.md "The suite's kernels") on launches whose answer
is worked out by hand below, not taken from the script."""
import importlib.util
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "results_gpudiag", os.path.join(here, "..", "..", "scripts", "results-gpudiag.py"))
rg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rg)

DIAG = {"num_mp": {"n_mp": 14},
        "functional_units": [{"op": "sp", "P1": 9, "thrput": 4}, {"op": "int", "P1": 9, "thrput": 1},
                             {"op": "dpu", "P1": 10, "thrput": 2}, {"op": "sfu", "P1": 18, "thrput": 1},
                             {"op": "smem", "P1": 24, "thrput": 1}]}


def launch(blocks, threads, bps, sp=0, integer=0, branch=0, ldst=0, smem=0, const=0, lat=0):
    return {"block": [threads, 1, 1], "blocks": blocks, "blocks_per_sm": bps, "cycles": 1,
            "unit_insts": {"sp": sp, "int": integer, "dpu": 0, "sfu": 0, "branch": branch,
                           "ldst": ldst},
            "memory": {"smem": {"accesses": smem}, "const": {"accesses": const},
                       "loads": {"avg_latency": lat}}}


class Model(unittest.TestCase):
    def test_latency_bound(self):
        # 28 blocks of 2 warps = 56 warps; per warp 10 sp, 1 branch (as int),
        # 1 global load of latency 100: P_1 = 10*9 + 1*9 + 100 = 199; the
        # sp demand of 2 warps (2 * 10/4 = 5) is below it. g = 2 blocks per
        # SM, one slot: T = 2 P(2) + P(0) = 398.
        t, bound = rg.predict(launch(28, 64, 1, sp=560, branch=56, ldst=56, lat=100), DIAG)
        self.assertAlmostEqual(t, 398)
        self.assertEqual(bound, "latency (P_1)")

    def test_throughput_bound_and_partial_wave(self):
        # 42 blocks of 8 warps (336 warps), per warp 40 sp and 4 shared
        # accesses: P_1 = 40*9 + 4*24 = 456; g = 3, N_slot 2: a full wave of
        # c = 16 warps needs max(456, 16*40/4 = 160, 16*4/1 = 64) = 456, and
        # the last block alone 456: T = 1*456 + 456 = 912. With N_slot 8
        # (all three blocks at once, c = 24): max(456, 240, 96) = 456.
        t, _ = rg.predict(launch(42, 256, 2, sp=40 * 336, ldst=4 * 336, smem=4 * 336), DIAG)
        self.assertAlmostEqual(t, 912)
        # int-heavy: per warp 200 int, P_1 = 1800, c = 16 warps: 16*200/1 =
        # 3200 > 1800, bound int; T = 3200 + P(8) = 3200 + max(1800, 1600)
        t, bound = rg.predict(launch(42, 256, 2, integer=200 * 336), DIAG)
        self.assertAlmostEqual(t, 3200 + 1800)
        self.assertEqual(bound, "int")

    def test_pearson(self):
        self.assertAlmostEqual(rg.pearson([1, 2, 3], [2, 4, 6]), 1.0)
        self.assertAlmostEqual(rg.pearson([1, 2, 3], [3, 2, 1]), -1.0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
