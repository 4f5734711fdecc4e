#!/usr/bin/env python3
"""sass_check.py — what the compiler made of a chapter: rules on its sm_90 machine code (SASS).

Reads a built program (or object file, or cubin) with `cuobjdump -sass` and `cuobjdump -res-usage`,
splits the SASS per kernel (names demangled with c++filt), and checks the chapter's rules file,
<program>.sass, beside the lesson. Needs no GPU. Standard library only.

The rules file, one rule per line ('#' starts a comment):

    <kernel> | <rule> | <why: one sentence, shown in the README (optional)>

  <kernel>  the kernel's name as the source spells it, template arguments included
            (transposeTiled<64, 8>); * and ? are wildcards. A rule must match at least one kernel,
            and every kernel it matches must obey it. `* except A, B` leaves out the kernels A
            and B (globs too).
  <rule>    has PAT[, PAT...]     every PAT occurs in the kernel; a PAT may start with a count:
                                  5 SHFL.BFLY (exactly 5), >=4 LDG.E.128* (at least), <=2 BAR* (at most)
            lacks PAT[, PAT...]   no PAT occurs
            all PAT before PAT2   both occur, and every PAT comes before (at a lower address than)
                                  the first PAT2: `all LDG.E before BAR.SYNC*` (all loads are
                                  issued before the barrier)
            no spill              no local-memory access (LDL/STL) and a zero stack frame
            ... from nvcc X.Y     (after any rule) it describes the code of nvcc X.Y and later: under
                                  an older nvcc it is reported as not checked, with the reason in
                                  a comment beside it (a compiler's or a library's choice that the
                                  lesson is not about)
  PAT       an opcode with its modifiers, as the SASS prints it: SHFL.BFLY, LDG.E.128.CONSTANT,
            ATOMS.POPC.INC.32; * and ? are wildcards (LDG.E.128*). An optional second word must
            appear in the operands, literally and as a whole operand or its start: `ULDC* c[0x3]`
            is a uniform load from constant bank 3; `IMAD* 0x88` multiplies by 0x88 (not 0x880); a * in
            it stands for any characters within the operand (`S2R SR_SWIN*`).
  <why>     what the rule is for, in one sentence. The README shows each rule that has one, with the
            SASS lines it matched (a few); a rule without one is checked all the same. An exercise's
            rules all have one (a learner reads it when the rule fails).

A failed rule prints, under its line, what it asks for and what the kernel has instead, in the
source's words, then its why, then the instructions themselves:

    FAIL warp_sum64.sass:2: warp_sum64 | has >=5 SHFL.BFLY
           the task asks for at least 5 `__shfl_xor_sync` butterflies (SHFL.BFLY); your kernel warp_sum64 has: SHFL.DOWN ×5
           why: Five butterfly steps; a 64-bit shuffle is two 32-bit SHFL.BFLY per step.
           kernel warp_sum64(...): wanted at least 5 'SHFL.BFLY', found 0; its SHFL instructions: ...

Compiler version. Exact counts ("5 SHFL.BFLY") are what one nvcc made of the source; another
version may unroll, fuse or schedule differently. The rules hold for the nvcc they were recorded
with: RULES_NVCC below (major.minor), or a line `nvcc X.Y` in the rules file. Under that nvcc every
rule is checked as written. Under another, the test says so on its first line and every exact count
is checked as a lower bound ("5 SHFL.BFLY" as "at least 5"); "at least", "at most", "lacks", "all ...
before" and "no spill" are checked as written. An nvcc whose version cannot be read is treated as
another.

Example (chapters/04_warpReduce/warpReduce.sass):

    warpReduce | has 5 SHFL.BFLY | The loop over 16, 8, 4, 2, 1 is unrolled into five butterflies.
    warpReduce | no spill        |

usage:
  sass_check.py --binary FILE --rules FILE.sass [--readme README.md]     check (exit 0 pass, 1 fail)
  sass_check.py --binary FILE --rules FILE.sass --markdown                print the README block
  sass_check.py --binary FILE --rules FILE.sass --update-readme README.md rewrite the README block
  sass_check.py --binary FILE --list [KERNEL-GLOB]                        kernels and their opcodes
  sass_check.py --binary FILE --dump KERNEL-GLOB                          a kernel's SASS, cleaned
Options: --arch sm_90, --cuobjdump PATH, --cxxfilt PATH, --cuda-bin DIR (where to look for the
tools), --nvcc-version X.Y.Z (the compiler that built FILE; default: `nvcc --version`).

The README block sits between `<!-- sass:begin` and `<!-- sass:end -->`. With --readme, the check
also requires that block to equal what --markdown prints now, so it cannot go stale: when it
differs the test fails with a diff (rewrite it with --update-readme, or the build target
update_sass_readmes). The SASS depends on the compiler's version, so the block names the nvcc
version it came from; under another nvcc major.minor the block is not compared (the test says so)
and the rules alone decide.
"""
import argparse
import difflib
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import skips  # noqa: E402  (a missing tool is a skip with its remedy)

RULES_NVCC = "13.0"  # the nvcc (major.minor) that the committed rules files were recorded with
BEGIN = "<!-- sass:begin"
END = "<!-- sass:end -->"
MAX_LINES = 6  # SASS lines shown per rule in the README


def fail_exit(msg):
    print("FAIL: " + msg)
    sys.exit(1)


# ------------------------------------------------------------------------------------------------
# Tools
# ------------------------------------------------------------------------------------------------

def find_tool(name, given, cuda_bin):
    """An explicit path, else PATH, else the CUDA bin folder, else a pip-installed CUDA wheel
    (nvidia/cu*/bin/<name> on sys.path: `pip install nvidia-cuda-cuobjdump`)."""
    if given:
        return given if os.path.exists(given) else None
    found = shutil.which(name)
    if found:
        return found
    dirs = [cuda_bin] if cuda_bin else []
    nvcc = shutil.which("nvcc")
    if nvcc:
        dirs.append(os.path.dirname(os.path.realpath(nvcc)))
    for d in dirs:
        if d and os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    for p in sys.path:
        for hit in sorted(glob.glob(os.path.join(p, "nvidia", "cu*", "bin", name))):
            return hit
    return None


TOOL_ENV = None  # the environment for cuobjdump: PATH with nvdisasm's folder (cuobjdump -sass runs it)


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=TOOL_ENV)
    if r.returncode != 0:
        fail_exit(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return r.stdout


def nvcc_version(given, cuda_bin):
    if given:
        return given
    nvcc = find_tool("nvcc", None, cuda_bin)
    if not nvcc:
        return "unknown"
    m = re.search(r"release (\d+\.\d+), V([\d.]+)", run([nvcc, "--version"]))
    return m.group(2) if m else "unknown"


def major_minor(version):
    return ".".join(version.split(".")[:2])


# ------------------------------------------------------------------------------------------------
# SASS: per kernel, its instructions and resource usage
# ------------------------------------------------------------------------------------------------

class Kernel:
    def __init__(self, mangled):
        self.mangled = mangled
        self.name = mangled      # demangled, without the parameter list
        self.signature = mangled  # demangled, full
        self.lines = []          # (address, text) with the predicate, no trailing ';'
        self.res = {}            # REG, STACK, SHARED, LOCAL, ...

    def instructions(self):
        """(address, mnemonic, operands, full text) per instruction."""
        for addr, text in self.lines:
            body = re.sub(r"^@!?U?P\w+\s+", "", text)  # drop the guard predicate (@P0, @!P1, @UP0)
            parts = body.split(None, 1)
            yield addr, parts[0], parts[1] if len(parts) > 1 else "", text

    def opcode_counts(self):
        counts = {}
        for _, mnemonic, _, _ in self.instructions():
            counts[mnemonic] = counts.get(mnemonic, 0) + 1
        return counts


def strip_params(sig):
    """`void f<1, 2>(int*, float)` -> `f<1, 2>`: the name as the source spells it."""
    s = sig.strip()
    if s.endswith(")"):
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            if s[i] == ")":
                depth += 1
            elif s[i] == "(":
                depth -= 1
                if depth == 0:
                    s = s[:i]
                    break
    # Function templates demangle with their return type first; template arguments may hold spaces.
    depth = 0
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == " " and depth == 0:
            return strip_params(s[i + 1:]) if s[:i] in ("void",) else s
    return s


def read_sass(binary, arch, cuobjdump, cxxfilt):
    sass = run([cuobjdump, "-sass", "-arch", arch, binary])
    if not re.search(r"code for " + re.escape(arch) + r"\b", sass):
        fail_exit(f"{binary} holds no {arch} machine code (cuobjdump -sass -arch {arch} found none). "
                  f"Build it for {arch} (CMAKE_CUDA_ARCHITECTURES with 90, or 90-real), or let "
                  f"cmake/Sass.cmake build the separate {arch} object it builds when the program has none.")
    kernels = {}
    cur = None
    for line in sass.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            cur = kernels.setdefault(m.group(1), Kernel(m.group(1)))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\*", line)
        if m and cur is not None:
            cur.lines.append((m.group(1), re.sub(r"\s+", " ", m.group(2)).rstrip(" ;")))
    res = run([cuobjdump, "-res-usage", "-arch", arch, binary])
    cur = None
    for line in res.splitlines():
        m = re.match(r"\s*Function (\S+):\s*$", line)
        if m:
            cur = kernels.get(m.group(1))
            continue
        if cur is not None and "REG:" in line:
            cur.res = {k: int(v) for k, v in re.findall(r"([A-Z]+(?:\[\d+\])?):(\d+)", line)}
            cur = None
    names = list(kernels)[::-1]  # cuobjdump lists the kernels last-defined first: source order
    demangled = run([cxxfilt], stdin="\n".join(names) + "\n").splitlines()
    if len(demangled) != len(names):
        fail_exit(f"{cxxfilt} returned {len(demangled)} names for {len(names)}")
    for mangled, sig in zip(names, demangled):
        kernels[mangled].signature = sig
        kernels[mangled].name = strip_params(sig)
    return [kernels[m] for m in names]


# ------------------------------------------------------------------------------------------------
# Rules
# ------------------------------------------------------------------------------------------------

class Pattern:
    def __init__(self, text, lineno):
        m = re.match(r"^(?:(>=|<=)?\s*(\d+)\s*x?\s+)?(\S+)(?:\s+(\S.*))?$", text.strip())
        if not m:
            raise ValueError(f"line {lineno}: cannot read the instruction pattern '{text}'")
        self.cmp = m.group(1) or ("==" if m.group(2) else ">=")
        self.count = int(m.group(2)) if m.group(2) else 1
        self.opcode = m.group(3)
        self.operand = m.group(4)
        self.text = text.strip()

    def matches(self, mnemonic, operands):
        if not fnmatch.fnmatchcase(mnemonic, self.opcode):
            return False
        # The operand text must stand alone or open an operand: `0x80` is not found in `0x800`,
        # `c[0x3]` is found in `c[0x3][0x4]`.
        # A * in it stands for any run of characters within the operand (`SR_SWIN*`).
        return self.operand is None or re.search(
            r"(^|[\s,\[])" + re.escape(self.operand).replace(r"\*", r"[^\s,\[\]]*") + r"($|[\s,\]\[.])",
            operands) is not None

    def ok(self, n):
        cmp = ">=" if self.cmp == "==" and RELAX_EXACT else self.cmp
        return {"==": n == self.count, ">=": n >= self.count, "<=": n <= self.count}[cmp]

    def wanted(self):
        if self.cmp == "==" and RELAX_EXACT:
            return f"at least {self.count} (exactly {self.count} under nvcc {RULES_NVCC})"
        return {"==": f"exactly {self.count}", ">=": f"at least {self.count}", "<=": f"at most {self.count}"}[self.cmp]


class Rule:
    def __init__(self, kernel, rule, why, lineno):
        self.kernel, self.rule, self.why, self.lineno = kernel, rule, why, lineno
        # `<kernel> except A, B`: the kernels the glob matches, less those named (each a glob too).
        self.glob, _, excluded = kernel.partition(" except ")
        self.glob = self.glob.strip()
        self.excluded = [e.strip() for e in excluded.split(",") if e.strip()]
        # `<rule> from nvcc X.Y`: the rule describes what nvcc X.Y and later make of the source; under
        # an older nvcc it is reported as not checked (a compiler's choice, not the lesson's).
        self.since = None
        m = re.match(r"^(.*\S)\s+from nvcc (\d+\.\d+)$", rule)
        if m:
            rule, self.since = m.group(1), m.group(2)
        words = rule.split(None, 1)
        self.kind = words[0] if words else ""
        if rule == "no spill":
            self.kind, self.patterns = "no spill", []
        elif self.kind == "all" and len(words) == 2 and " before " in words[1]:
            first, then = words[1].split(" before ", 1)
            self.patterns = [Pattern(first, lineno), Pattern(then, lineno)]
            if any(p.cmp != ">=" or p.count != 1 for p in self.patterns):
                raise ValueError(f"line {lineno}: 'all ... before ...' takes no count")
        elif self.kind in ("has", "lacks") and len(words) == 2:
            self.patterns = [Pattern(p, lineno) for p in words[1].split(",")]
            if self.kind == "lacks" and any(p.cmp != ">=" or p.count != 1 for p in self.patterns):
                raise ValueError(f"line {lineno}: 'lacks' takes no count")
        else:
            raise ValueError(f"line {lineno}: unknown rule '{rule}' "
                             "(has PAT, lacks PAT, all PAT before PAT, no spill)")

    def select(self, kernels):
        return [k for k in kernels if fnmatch.fnmatchcase(k.name, self.glob)
                and not any(fnmatch.fnmatchcase(k.name, e) for e in self.excluded)]

    def applies(self, nvcc):
        """False when the rule holds from an nvcc (`from nvcc X.Y`) newer than this one."""
        return self.since is None or version_tuple(nvcc) >= version_tuple(self.since)

    def check(self, k):
        """A list of failure messages for kernel k (empty: the rule holds)."""
        problems = []
        if self.kind == "no spill":
            local = [t for _, mn, _, t in k.instructions() if mn.startswith(("LDL", "STL"))]
            stack, lmem = k.res.get("STACK"), k.res.get("LOCAL")
            if stack is None:
                problems.append("no resource usage found for it (cuobjdump -res-usage)")
            elif stack or lmem:
                problems.append(f"stack frame {stack} bytes, local memory {lmem} bytes")
            if local:
                problems.append("local-memory instructions: " + "; ".join(local[:8]))
            return problems
        if self.kind == "all":
            first, then = ([(int(a, 16), t) for a, mn, ops, t in k.instructions() if p.matches(mn, ops)]
                           for p in self.patterns)
            if not first or not then:
                missing = [p.text for p, h in zip(self.patterns, (first, then)) if not h]
                problems.append("found no " + " and no ".join(f"'{m}'" for m in missing))
            else:
                late = [t for a, t in first if a > then[0][0]]
                if late:
                    problems.append(f"{len(late)} '{self.patterns[0].text}' after the first "
                                    f"'{self.patterns[1].text}' ({then[0][1]}): " + "; ".join(late[:8]))
            return problems
        for p in self.patterns:
            hits = [t for _, mn, ops, t in k.instructions() if p.matches(mn, ops)]
            if self.kind == "has" and not p.ok(len(hits)):
                what = p.opcode + (" " + p.operand if p.operand else "")
                problems.append(f"wanted {p.wanted()} '{what}', found {len(hits)}" + related(k, p))
            if self.kind == "lacks" and hits:
                problems.append(f"wanted no '{p.text}', found {len(hits)}: " + "; ".join(hits[:8]))
        return problems


# What a learner writes, for the opcodes the rules name: the failure message speaks of the source.
LEARNER_NAMES = [
    (r"SHFL\.IDX", "`__shfl_sync`"),
    (r"SHFL\.UP", "`__shfl_up_sync`"),
    (r"SHFL\.DOWN", "`__shfl_down_sync`"),
    (r"SHFL\.BFLY", "`__shfl_xor_sync` butterflies"),
    (r"SHFL", "`__shfl*_sync` warp shuffles"),
    (r"LDS", "shared-memory loads"),
    (r"STS", "shared-memory stores"),
    (r"ATOMS", "shared-memory atomics"),
    (r"ATOM", "atomics such as `atomicAdd`"),
    (r"RED", "atomics such as `atomicAdd` whose result is unused"),
    (r"BAR", "`__syncthreads()` barriers"),
    (r"LDG\.E\.128", "128-bit global loads such as `float4`"),
    (r"LDG\.E\.STRONG\.SYS", "system-scope strong global loads, such as a `volatile` read"),
    (r"LDG", "global-memory loads"),
    (r"STG", "global-memory stores"),
    (r"ULDC|LDC", "constant-memory loads"),
    (r"FFMA", "float multiply-adds"),
    (r"LDL|STL", "local-memory accesses"),
]


def learner_name(p):
    """`__shfl_xor_sync` butterflies (SHFL.BFLY): what the source writes, then the opcode."""
    name = next((n for rx, n in LEARNER_NAMES if re.match(rx, p.opcode)), None)
    what = p.opcode + (" " + p.operand if p.operand else "")
    return f"{name} ({what})" if name else what


def tally(texts):
    """'SHFL.DOWN ×5, SHFL.IDX ×1': the instructions by opcode, in order of first appearance."""
    counts = {}
    for t in texts:
        mn = re.sub(r"^@!?U?P\w+\s+", "", t).split(None, 1)[0]
        counts[mn] = counts.get(mn, 0) + 1
    return ", ".join(f"{m} ×{c}" for m, c in counts.items())


def learner_message(rule, k):
    """One line in the learner's words: what the rule asks for, and what the kernel has instead."""
    ins = list(k.instructions())
    if rule.kind == "no spill":
        local = [t for _, mn, _, t in ins if mn.startswith(("LDL", "STL"))]
        stack = k.res.get("STACK")
        has = ([f"a {stack}-byte stack frame"] if stack else []) + ([tally(local)] if local else [])
        return ("the task asks that every value stay in registers (no local memory, no stack frame); "
                f"your kernel has: {', '.join(has) or 'no resource usage to read'}")
    if rule.kind == "all":
        a, b = rule.patterns
        return (f"the task asks for all {learner_name(a)} before the first of the {learner_name(b)}; "
                f"your kernel has: {tally(t for _, mn, ops, t in ins if a.matches(mn, ops)) or 'none of the first'}"
                f", {tally(t for _, mn, ops, t in ins if b.matches(mn, ops)) or 'none of the second'}, "
                "not in that order")
    asks, has = [], []
    for p in rule.patterns:
        hits = [t for _, mn, ops, t in ins if p.matches(mn, ops)]
        if rule.kind == "lacks":
            asks.append(f"no {learner_name(p)}")
            if hits:
                has.append(tally(hits))
            continue
        wanted = p.wanted().replace(f" (exactly {p.count} under nvcc {RULES_NVCC})", "")
        asks.append(f"{wanted} {learner_name(p)}")
        if not p.ok(len(hits)):
            base = re.split(r"[.*?\[]", p.opcode)[0]
            fam = [t for _, mn, _, t in ins if mn.split(".")[0] == base]
            has.append(tally(fam) if fam else f"no {base} at all")
    return f"the task asks for {' and '.join(asks)}; your kernel has: {', '.join(has)}"


def related(k, p):
    """The instructions found of the pattern's family (same base opcode), for a failure message."""
    base = re.split(r"[.*?\[]", p.opcode)[0]
    fam = [t for _, mn, _, t in k.instructions() if mn.split(".")[0] == base]
    if fam:
        more = f" (+{len(fam) - 12} more)" if len(fam) > 12 else ""
        return f"; its {base} instructions: " + "; ".join(fam[:12]) + more
    counts = k.opcode_counts()
    return f"; it has no {base} at all. Its opcodes: " + ", ".join(f"{m} x{c}" for m, c in sorted(counts.items()))


RELAX_EXACT = False  # set by main() when this nvcc is not the one the rules were recorded with


def read_rules(path):
    """The rules of a file, and the nvcc (major.minor) they hold for: its `nvcc X.Y` line, else RULES_NVCC."""
    rules, recorded = [], RULES_NVCC
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"^\s*nvcc\s+(\d+\.\d+)\s*$", line)
            if m:
                recorded = m.group(1)
                continue
            cells = [c.strip() for c in line.split("|", 2)]
            if len(cells) < 2 or not cells[0] or not cells[1]:
                raise ValueError(f"{path}:{lineno}: expected '<kernel> | <rule> | <why>'")
            try:
                rules.append(Rule(cells[0], cells[1], cells[2] if len(cells) > 2 else "", lineno))
            except ValueError as e:
                raise ValueError(f"{path}: {e}") from None
    if not rules:
        raise ValueError(f"{path}: no rules")
    return rules, recorded


def version_tuple(v):
    """(major, minor) of "12.4.131" or "13.0"; (0, 0) when it cannot be read."""
    m = re.match(r"(\d+)\.(\d+)", v or "")
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def check_rules(rules, kernels, path, nvcc=None):
    failures = 0
    for r in rules:
        sel = r.select(kernels)
        where = f"{os.path.basename(path)}:{r.lineno}"
        if nvcc and not r.applies(nvcc):
            print(f"skip {where}: {r.kernel} | {r.rule}: it describes nvcc {r.since} and later's code; this is nvcc {nvcc}")
            continue
        if not sel:
            print(f"FAIL {where}: no kernel matches '{r.kernel}'. Kernels: " +
                  ", ".join(sorted(k.name for k in kernels)))
            failures += 1
            continue
        for k in sel:
            problems = r.check(k)
            status = "FAIL" if problems else "ok  "
            print(f"{status} {where}: {k.name} | {r.rule}")
            if problems:  # first in the learner's words and what the rule is for, then the details
                print(f"       {learner_message(r, k).replace('your kernel', f'your kernel {k.name}', 1)}")
                print(f"       why: {r.why}" if r.why else "       why: (the rules file gives no reason)")
            for pr in problems:
                print(f"       kernel {k.signature}: {pr}")
            failures += bool(problems)
    return failures


# ------------------------------------------------------------------------------------------------
# Markdown for the README
# ------------------------------------------------------------------------------------------------

def shown_lines(rule, k):
    """An excerpt of the matching instructions, in program order: each pattern's first match, then
    the others from the top, at most MAX_LINES lines, and a line equal to the one shown just before
    it (an unrolled loop) skipped. Returns (lines, how many matches are not shown)."""
    if rule.kind not in ("has", "all"):
        return [], 0
    texts = [t for _, _, _, t in k.instructions()]
    hits = [(i, p_i) for i, (_, mn, ops, _) in enumerate(k.instructions())
            for p_i, p in enumerate(rule.patterns) if p.matches(mn, ops)]
    if rule.kind == "all":  # every match of the first pattern, the first match of the second
        hits = [h for h in hits if h[1] == 0] + [h for h in hits if h[1] == 1][:1]
    order = sorted({i for i, _ in hits})
    must = {next(i for i, q in hits if q == p_i) for p_i in {q for _, q in hits}}
    shown, last = [], None
    room = MAX_LINES - len(must)
    for i in order:
        if i in must or (room > 0 and texts[i] != last):
            if i not in must:
                room -= 1
            shown.append(texts[i])
            last = texts[i]
    return shown, len(order) - len(shown)


def describe(rule):
    if rule.kind == "no spill":
        return "no spill"
    if rule.kind == "all":
        a, b = (f"`{p.opcode} … {p.operand}`" if p.operand else f"`{p.opcode}`" for p in rule.patterns)
        return f"every {a} before the first {b}"
    parts = []
    for p in rule.patterns:
        pat = f"`{p.opcode} … {p.operand}`" if p.operand else f"`{p.opcode}`"
        if rule.kind == "lacks":
            parts.append("no " + pat)
        elif p.cmp == "==":
            parts.append(f"{p.count} × {pat}")
        elif p.count > 1:
            parts.append(f"{'≥' if p.cmp == '>=' else '≤'} {p.count} × {pat}")
        else:
            parts.append(pat)
    return ", ".join(parts)


def markdown(rules, kernels, rules_path, version, arch):
    rel = os.path.basename(rules_path)
    out = [f"{BEGIN} generated by scripts/sass_check.py from {rel}; `ctest -L sass` fails if it is stale -->",
           f"{arch} SASS from nvcc {major_minor(version)}, read by `cuobjdump -sass` without a GPU. "
           f"The test `{os.path.splitext(rel)[0]}.sass` checks every rule in [`{rel}`]({rel}) and that "
           f"this section is what nvcc makes of the current source.", ""]
    for r in rules:
        if not r.why:
            continue
        sel = r.select(kernels)
        if not sel:
            continue
        if len(sel) > 1 and any(c in r.kernel for c in "*?"):
            names = f"`{r.kernel}` ({len(sel)} kernels)"
        else:
            names = ", ".join(f"`{k.name}`" for k in sel)
        out.append(f"- **{names}: {describe(r)}.** {r.why}")
        if r.kind == "no spill":
            regs = sorted({k.res.get("REG", 0) for k in sel})
            reg = f"{regs[0]}" if len(regs) == 1 else f"{regs[0]}–{regs[-1]}"
            out.append(f"  (`cuobjdump -res-usage`: REG {reg}, STACK 0, LOCAL 0.)")
            continue
        lines, left_out = shown_lines(r, sel[0])
        if lines:
            out.append("  ```")
            out += [f"  {t}" for t in lines]
            if left_out:
                out.append(f"  (+ {left_out} more lines the rule matched, not shown)")
            out.append("  ```")
    out.append(END)
    return "\n".join(out) + "\n"


def readme_block(text):
    b = text.find(BEGIN)
    e = text.find(END)
    if b < 0 or e < b:
        return None, None, None
    e += len(END)
    if e < len(text) and text[e] == "\n":
        e += 1
    return b, e, text[b:e]


def block_version(block):
    m = re.search(r"SASS from nvcc (\d+\.\d+)", block)
    return m.group(1) if m else None


# ------------------------------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", required=True, help="program, object file or cubin")
    p.add_argument("--rules", help="the chapter's <program>.sass")
    p.add_argument("--readme", help="also check the README block against --markdown")
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--update-readme")
    p.add_argument("--list", nargs="?", const="*", metavar="KERNEL-GLOB")
    p.add_argument("--dump", metavar="KERNEL-GLOB")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--cuobjdump")
    p.add_argument("--cxxfilt")
    p.add_argument("--cuda-bin")
    p.add_argument("--nvcc-version")
    o = p.parse_args()

    if not os.path.exists(o.binary):
        fail_exit(f"{o.binary} does not exist (build it first)")
    cuobjdump = find_tool("cuobjdump", o.cuobjdump, o.cuda_bin)
    nvdisasm = find_tool("nvdisasm", None, os.path.dirname(cuobjdump) if cuobjdump else o.cuda_bin)
    if not cuobjdump or not nvdisasm:
        # What the machine lacks is a skip with its remedy (scripts/skips.py); CI has both tools, and
        # tests/ci_check.py fails a cpu test that skips there.
        sys.exit(skips.report(f"{'cuobjdump' if not cuobjdump else 'nvdisasm'} not found", "no-cuobjdump"))
    global TOOL_ENV
    TOOL_ENV = dict(os.environ, PATH=os.path.dirname(nvdisasm) + os.pathsep + os.environ.get("PATH", ""))
    cxxfilt = find_tool("c++filt", o.cxxfilt, o.cuda_bin) or find_tool("cu++filt", None, o.cuda_bin)
    if not cxxfilt:
        sys.exit(skips.report("c++filt not found (binutils), nor cu++filt (CUDA)", "no-cuobjdump"))

    kernels = read_sass(o.binary, o.arch, cuobjdump, cxxfilt)

    if o.list or o.dump:
        pat = o.dump or o.list
        sel = [k for k in kernels if fnmatch.fnmatchcase(k.name, pat)]
        if not sel:
            fail_exit(f"no kernel matches '{pat}'. Kernels: " + ", ".join(sorted(k.name for k in kernels)))
        for k in sel:
            res = " ".join(f"{x}:{k.res[x]}" for x in ("REG", "STACK", "SHARED", "LOCAL") if x in k.res)
            print(f"{k.name}    [{k.signature}]  {res}")
            if o.dump:
                for addr, text in k.lines:
                    if text != "NOP" and text != f"BRA 0x{int(addr, 16):x}":  # padding, end loop
                        print(f"  /*{addr}*/ {text}")
            else:
                print("  " + ", ".join(f"{m} x{c}" for m, c in sorted(k.opcode_counts().items())))
        return 0

    if not o.rules:
        p.error("--rules is required (or --list / --dump)")
    try:
        rules, recorded = read_rules(o.rules)
    except ValueError as e:
        fail_exit(str(e))
    version = nvcc_version(o.nvcc_version, o.cuda_bin)
    global RULES_NVCC, RELAX_EXACT
    RULES_NVCC = recorded
    if major_minor(version) != recorded:
        RELAX_EXACT = True
        exact = sum(p.cmp == "==" for r in rules for p in r.patterns)
        print(f"note: {os.path.basename(o.rules)} was recorded with nvcc {recorded}; this is nvcc {version}: "
              f"its {exact} exact instruction counts are checked as lower bounds, every other rule as written")
    md = markdown(rules, kernels, o.rules, version, o.arch)

    if o.markdown:
        sys.stdout.write(md)
        return 0
    if o.update_readme:
        text = open(o.update_readme, encoding="utf-8").read()
        b, e, _ = readme_block(text)
        if b is None:
            fail_exit(f"{o.update_readme} has no '{BEGIN} ... {END}' block: add the two marker lines "
                      "where the section goes")
        with open(o.update_readme, "w", encoding="utf-8") as f:
            f.write(text[:b] + md + text[e:])
        print(f"updated {o.update_readme}")

    print(f"{o.binary}: {len(kernels)} {o.arch} kernels; {len(rules)} rules from {o.rules}; "
          f"cuobjdump {cuobjdump}, nvcc {version}")
    failures = check_rules(rules, kernels, o.rules, version)

    if o.readme:
        text = open(o.readme, encoding="utf-8").read()
        b, e, block = readme_block(text)
        if block is None:
            print(f"FAIL: {o.readme} has no '{BEGIN} ... {END}' block (the generated SASS section)")
            failures += 1
        elif block_version(block) and block_version(block) != major_minor(version):
            print(f"note: {o.readme}'s SASS block comes from nvcc {block_version(block)}, this is nvcc "
                  f"{major_minor(version)}: the block is not compared, the rules above decide")
        elif block != md:
            print(f"FAIL: the SASS block in {o.readme} is stale; it differs from what the SASS gives now:")
            sys.stdout.writelines(difflib.unified_diff(block.splitlines(True), md.splitlines(True),
                                                       "README (committed)", "generated now"))
            print(f"Rewrite it: python3 {sys.argv[0]} --binary {o.binary} --rules {o.rules} "
                  f"--update-readme {o.readme}   (or: cmake --build <build> --target update_sass_readmes)")
            failures += 1
        else:
            print(f"ok   {o.readme}: the SASS block is current")

    print(f"{'PASS' if not failures else 'FAIL'}: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
