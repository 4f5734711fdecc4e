#!/usr/bin/env python3
"""Checks scripts/sass_check.py's rules without a GPU or cuobjdump, on made-up SASS: exact counts
hold exactly under the nvcc the rules were recorded with and as lower bounds under another, the
other rules as written, a rules file's `nvcc X.Y` line wins over RULES_NVCC, and a rule that matches
no kernel fails (never a silent pass of nothing)."""
import io
import os
import sys
import tempfile
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import sass_check as sc  # noqa: E402


def kernel(name, texts):
    k = sc.Kernel(name)
    k.lines = [(f"{16 * i:04x}", t) for i, t in enumerate(texts)]
    k.res = {"REG": 16, "STACK": 0, "LOCAL": 0}
    return k


K = [kernel("warpReduce", ["SHFL.BFLY PT, R3, R2, 0x10, 0x1f"] * 6 + ["EXIT"])]  # six, not five


def failures(rules_text, relax):
    with tempfile.NamedTemporaryFile("w", suffix=".sass", delete=False) as f:
        f.write(rules_text)
    try:
        rules, recorded = sc.read_rules(f.name)
        sc.RELAX_EXACT = relax
        with redirect_stdout(io.StringIO()):
            return sc.check_rules(rules, K, f.name), recorded
    finally:
        sc.RELAX_EXACT = False
        os.unlink(f.name)


cases = [
    # (what, rules, relax, failures wanted)
    ("exact count, same nvcc: 6 found, 5 wanted", "warpReduce | has 5 SHFL.BFLY\n", False, 1),
    ("exact count, other nvcc: a lower bound", "warpReduce | has 5 SHFL.BFLY\n", True, 0),
    ("lower bound still fails below it", "warpReduce | has 7 SHFL.BFLY\n", True, 1),
    ("at most stays at most", "warpReduce | has <=5 SHFL.BFLY\n", True, 1),
    ("lacks stays lacks", "warpReduce | lacks SHFL*\n", True, 1),
    ("no kernel matches: a failure", "nosuch | has SHFL.BFLY\n", True, 1),
    ("exact count that holds", "warpReduce | has 6 SHFL.BFLY\n", False, 0),
]
bad = 0
for what, text, relax, want in cases:
    got, _ = failures(text, relax)
    ok = got == want
    bad += not ok
    print(f"{'ok   ' if ok else 'WRONG'} {what}: {got} failure(s), want {want}")
_, recorded = failures("nvcc 12.8\nwarpReduce | has 6 SHFL.BFLY\n", False)
ok = recorded == "12.8"
bad += not ok
print(f"{'ok   ' if ok else 'WRONG'} a rules file's nvcc line: {recorded} (want 12.8)")
_, recorded = failures("warpReduce | has 6 SHFL.BFLY\n", False)
ok = recorded == sc.RULES_NVCC
bad += not ok
print(f"{'ok   ' if ok else 'WRONG'} no nvcc line: {recorded} (want RULES_NVCC {sc.RULES_NVCC})")
print(f"{len(cases) + 2 - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
