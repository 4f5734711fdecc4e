#!/usr/bin/env python3
"""Checks scripts/sass_check.py's rules without a GPU or cuobjdump, on made-up SASS: exact counts
hold exactly under the nvcc the rules were recorded with and as lower bounds under another, the
other rules as written, a rules file's `nvcc X.Y` line wins over RULES_NVCC, a rule that matches
no kernel fails (never a silent pass of nothing), and a failed rule says, in the learner's words,
what it asks for, what the kernel has instead, and its why."""
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


def failures(rules_text, relax, kernels=None, out=None, nvcc=None):
    with tempfile.NamedTemporaryFile("w", suffix=".sass", delete=False) as f:
        f.write(rules_text)
    try:
        rules, recorded = sc.read_rules(f.name)
        sc.RELAX_EXACT = relax
        buf = io.StringIO()
        with redirect_stdout(buf):
            n = sc.check_rules(rules, kernels or K, f.name, nvcc)
        if out is not None:
            out.append(buf.getvalue())
        return n, recorded
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
    ("'except' leaves the kernel out: nothing matches, a failure", "* except warp* | has SHFL.BFLY\n", False, 1),
    ("'except' of another name keeps it", "* except other | has 6 SHFL.BFLY\n", False, 0),
    ("an operand with a wildcard: 0x1* matches 0x1f", "warpReduce | has SHFL.BFLY 0x1*\n", False, 0),
    ("an operand without one stays whole: 0x1 is not 0x1f or 0x10", "warpReduce | has SHFL.BFLY 0x1\n", False, 1),
]
# `from nvcc X.Y`: checked under X.Y and later (a failing rule fails), not checked before it.
version_cases = [
    ("'from nvcc 13.0' under 13.0: checked", "warpReduce | has 7 SHFL.BFLY from nvcc 13.0\n", "13.0.88", 1),
    ("'from nvcc 13.0' under 13.5: checked", "warpReduce | has 7 SHFL.BFLY from nvcc 13.0\n", "13.5.37", 1),
    ("'from nvcc 13.0' under 12.4: not checked", "warpReduce | has 7 SHFL.BFLY from nvcc 13.0\n", "12.4.131", 0),
]
bad = 0
for what, text, nvcc, want in version_cases:
    got, _ = failures(text, False, nvcc=nvcc)
    ok = got == want
    bad += not ok
    print(f"{'ok   ' if ok else 'WRONG'} {what}: {got} failure(s), want {want}")
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
# The failure message: a butterfly rule on a kernel of SHFL.DOWN, shared memory where none belongs,
# a stack frame; each says what the task asks for, what the kernel has, and why.
DOWN = [kernel("warp_sum64", ["SHFL.DOWN PT, R3, R2, 0x10, 0x1f"] * 5 + ["STS [R1], R2", "LDS R3, [R1]", "EXIT"])]
DOWN[0].res["STACK"] = 16
VOLATILE = [kernel("consumeOnly", ["LDG.E.STRONG.SYS R2, [R4.64]", "LDG.E R3, [R6.64]", "EXIT"])]
messages = [
    ("warp_sum64 | has >=5 SHFL.BFLY | Five butterfly steps.\n",
     ["the task asks for at least 5 `__shfl_xor_sync` butterflies (SHFL.BFLY); "
      "your kernel warp_sum64 has: SHFL.DOWN ×5", "why: Five butterfly steps."]),
    ("warp_sum64 | lacks LDS*, STS*, BAR* | No shared memory.\n",
     ["the task asks for no shared-memory loads (LDS*) and no shared-memory stores (STS*) and no "
      "`__syncthreads()` barriers (BAR*); your kernel warp_sum64 has: LDS ×1, STS ×1", "why: No shared memory."]),
    ("warp_sum64 | no spill | Registers only.\n",
     ["your kernel warp_sum64 has: a 16-byte stack frame", "why: Registers only."]),
    ("warp_sum64 | has SHFL.IDX |\n", ["has: SHFL.DOWN ×5", "why: (the rules file gives no reason)"]),
]
# A volatile flag read: named as such, not as every global load (the data[] loads are required).
messages.append(("consumeOnly | lacks LDG.E.STRONG.SYS | Read the flag with an atomic.\n",
                 ["the task asks for no system-scope strong global loads, such as a `volatile` read "
                  "(LDG.E.STRONG.SYS); your kernel consumeOnly has: LDG.E.STRONG.SYS ×1"], VOLATILE))
for text, wanted, *ks in messages:
    out = []
    got, _ = failures(text, False, ks[0] if ks else DOWN, out)
    missing = [w for w in wanted if w not in out[0]]
    ok = got == 1 and not missing
    bad += not ok
    print(f"{'ok   ' if ok else 'WRONG'} message of '{text.strip()}'" + (f": missing {missing} in\n{out[0]}" if not ok else ""))
print(f"{len(cases) + 2 + len(messages) - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
