#!/usr/bin/env python3
"""shuffle_check.py — chapter 02's own tests (CTest calls it; see CMakeLists.txt beside it).

  compare --model MODEL -- PROGRAM...
      Run `PROGRAM... --explore-all` (the GPU: every op x width x arg) and `MODEL --explore-all`
      (the rules of common/warp_model.h). Pass only if the two stdouts are identical byte for byte;
      either way print how many of the cases agree, and the first that do not.
  selftest --model MODEL
      Prove that `compare` can fail: run it against a fake program that prints the model's output
      with one lane changed in one case; it must fail and count exactly one disagreeing case.
      Then the model against itself must pass, with every case agreeing.
  fake --model MODEL --case LABEL [--explore-all]
      (used by selftest) the model's --explore-all output with lane 0 of case LABEL changed.
  must-not-compile --nvcc NVCC --file F.cu --expect TEXT [--expect TEXT...] [-- NVCC_ARGS...]
      F.cu must fail to compile, saying every TEXT; F.cu with -DCONTROL must compile (so the
      failure is the code the erratum is about, not a broken compiler).

Exit codes: 0 pass, 1 fail, 77 skip (the program exited 77: no GPU). With WORKBOOK_STRICT=1 in
the environment a skip fails instead, as in tests/wbtest.py.
"""
import argparse
import os
import re
import subprocess
import sys

SKIP = 77
CASE = re.compile(r"^((?:idx|up|down|xor) +arg +\d+ width +\d+) *:")


def run(cmd, timeout=900):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)


def text(b):
    return b.decode("utf-8", errors="replace")


def skip(reason):
    if os.environ.get("WORKBOOK_STRICT", "") not in ("", "0"):
        print(f"FAIL (WORKBOOK_STRICT): this test would skip: {reason}")
        sys.exit(1)
    print(f"SKIPPED: {reason}")
    sys.exit(SKIP)


def cases(out):
    """{label: line} for every case line, and the labels in order."""
    table, order = {}, []
    for line in text(out).splitlines():
        m = CASE.match(line)
        if m:
            table[m.group(1)] = line
            order.append(m.group(1))
    return table, order


def compare(model_cmd, program_cmd):
    """Returns (exit code, report lines)."""
    model = run(model_cmd + ["--explore-all"])
    if model.returncode != 0:
        return 1, [text(model.stderr), f"FAIL: the model exited {model.returncode}"]
    prog = run(program_cmd + ["--explore-all"])
    if prog.returncode == SKIP:
        reason = text(prog.stderr).strip().splitlines()
        skip(f"{os.path.basename(program_cmd[-1])} exited 77: {reason[-1] if reason else 'no reason given'}")
    want, order = cases(model.stdout)
    got, _ = cases(prog.stdout)
    if not order:
        return 1, ["FAIL: the model printed no case lines"]
    agree = [label for label in order if got.get(label) == want[label]]
    report = [f"{len(agree)} of {len(order)} cases agree (the program's --explore-all against the model's)"]
    differ = [label for label in order if got.get(label) != want[label]]
    for label in differ[:5]:
        report += [f"  rules: {want[label]}", f"  GPU:   {got.get(label, '(no such line)')}"]
    ok = True
    if prog.returncode != 0:
        report += [text(prog.stderr)[-2000:], f"FAIL: the program exited {prog.returncode}"]
        ok = False
    if differ:
        report.append(f"FAIL: {len(differ)} cases differ")
        ok = False
    elif prog.stdout != model.stdout:
        report.append(f"FAIL: every case agrees, but the stdouts differ ({len(prog.stdout)} vs "
                      f"{len(model.stdout)} bytes)")
        ok = False
    if ok:
        report.append(f"PASS: stdout ({len(prog.stdout)} bytes) identical to the model's, byte for byte")
    return (0 if ok else 1), report


def cmd_compare(opts, cmd):
    rc, report = compare([opts.model], cmd)
    print("\n".join(report))
    return rc


def cmd_fake(opts, _cmd):
    model = run([opts.model, "--explore-all"])
    lines = text(model.stdout).splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = CASE.match(line)
        if m and m.group(1) == opts.case:
            head, values = line.split(":", 1)
            first = values.split()[0]
            lines[i] = head + ":" + values.replace(first, str((int(first) + 1) % 32), 1)
    sys.stdout.write("".join(lines))
    return model.returncode


def cmd_selftest(opts, _cmd):
    label = "xor  arg  8 width  8"
    fake = [sys.executable, os.path.abspath(__file__), "fake", "--model", opts.model, "--case", label, "--"]
    rc, report = compare([opts.model], fake)
    print("against a fake with one lane changed in case '" + label + "':\n  " + "\n  ".join(report))
    total = len(cases(run([opts.model, "--explore-all"]).stdout)[1])
    if rc != 1 or not report[0].startswith(f"{total - 1} of {total} cases agree"):
        print("FAIL: the comparison did not catch the one changed case")
        return 1
    if not any(label in line for line in report):
        print("FAIL: the comparison did not name the changed case")
        return 1
    rc, report = compare([opts.model], [opts.model])
    print("the model against itself:\n  " + "\n  ".join(report))
    if rc != 0 or not report[0].startswith(f"{total} of {total} cases agree"):
        print("FAIL: the model does not agree with itself")
        return 1
    if total != 4 * 6 * 33:
        print(f"FAIL: {total} cases, expected 4 ops x 6 widths x 33 args = 792")
        return 1
    print(f"PASS: the comparison fails on one changed lane and passes on {total} identical cases")
    return 0


def cmd_must_not_compile(opts, extra):
    base = [opts.nvcc, "-c", opts.file, "-o", os.devnull] + extra
    control = run(base + ["-DCONTROL"], timeout=300)
    if control.returncode != 0:
        sys.stdout.write(text(control.stderr)[-3000:])
        print(f"FAIL: the control (-DCONTROL) does not compile either (exit {control.returncode})")
        return 1
    bad = run(base, timeout=300)
    err = text(bad.stderr) + text(bad.stdout)
    missing = [t for t in opts.expect if t not in err]
    if bad.returncode == 0 or missing:
        sys.stdout.write(err[-3000:])
        print(f"FAIL: expected a compile error saying {missing or opts.expect}; nvcc exited {bad.returncode}")
        return 1
    print(f"PASS: the control compiles; {os.path.basename(opts.file)} does not (nvcc exit {bad.returncode}): "
          + "; ".join(opts.expect))
    return 0


def main(argv):
    if "--" in argv:
        i = argv.index("--")
        argv, rest = argv[:i], argv[i + 1:]
    else:
        rest = []
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--model", required=True)
    s = sub.add_parser("selftest")
    s.add_argument("--model", required=True)
    f = sub.add_parser("fake")
    f.add_argument("--model", required=True)
    f.add_argument("--case", required=True)
    n = sub.add_parser("must-not-compile")
    n.add_argument("--nvcc", required=True)
    n.add_argument("--file", required=True)
    n.add_argument("--expect", action="append", required=True)
    opts = p.parse_args(argv)
    if opts.mode == "compare" and not rest:
        p.error("compare needs the program after --")
    handler = {"compare": cmd_compare, "selftest": cmd_selftest, "fake": cmd_fake,
               "must-not-compile": cmd_must_not_compile}[opts.mode]
    return handler(opts, rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
