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
  svg-model --model MODEL --diagram-check PY -- ARGS...
      `MODEL ARGS... --svg F` must exit 0 and write F, a well-formed SVG that begins with a
      non-empty <title> (the well_formed() of tests/diagram_check.py, file PY).
  svg-match --model MODEL --program PROGRAM -- ARGS...
      `PROGRAM ARGS... --svg F1` (the GPU) and `MODEL ARGS... --svg F2` must both exit 0, print the
      same stdout but for the file's name, and write identical files, byte for byte.
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
import tempfile
import xml.etree.ElementTree as ET

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


def draw_svg(cmd, args, folder, name):
    """Run CMD ARGS --svg folder/name; returns (process, path)."""
    path = os.path.join(folder, name)
    return run(cmd + args + ["--svg", path]), path


def cmd_svg_model(opts, args):
    import importlib.util
    spec = importlib.util.spec_from_file_location("diagram_check", opts.diagram_check)
    dc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dc)
    with tempfile.TemporaryDirectory() as tmp:
        proc, path = draw_svg([opts.model], args, tmp, "model.svg")
        if proc.returncode != 0 or not os.path.exists(path):
            sys.stdout.write(text(proc.stdout) + text(proc.stderr))
            print(f"FAIL: the model exited {proc.returncode}" + ("" if os.path.exists(path) else ", no SVG written"))
            return 1
        problem = dc.well_formed(path)
        if problem:
            print(f"FAIL: the model's SVG {problem}")
            return 1
        title = ET.parse(path).getroot()[0].text.strip()
        print(f"PASS: the model wrote a well-formed SVG ({os.path.getsize(path)} bytes), <title>{title}</title>")
    return 0


def cmd_svg_match(opts, args):
    with tempfile.TemporaryDirectory() as tmp:
        model, mpath = draw_svg([opts.model], args, tmp, "model.svg")
        if model.returncode != 0:
            sys.stdout.write(text(model.stderr))
            print(f"FAIL: the model exited {model.returncode}")
            return 1
        prog, ppath = draw_svg([opts.program], args, tmp, "gpu.svg")
        if prog.returncode == SKIP:
            reason = text(prog.stderr).strip().splitlines()
            skip(f"{os.path.basename(opts.program)} exited 77: {reason[-1] if reason else 'no reason given'}")
        if prog.returncode != 0:
            sys.stdout.write(text(prog.stdout)[-3000:] + text(prog.stderr)[-3000:])
            print(f"FAIL: the program exited {prog.returncode}")
            return 1
        if prog.stdout.replace(ppath.encode(), b"F") != model.stdout.replace(mpath.encode(), b"F"):
            print("FAIL: the program's stdout differs from the model's")
            return 1
        if not os.path.exists(ppath):
            print("FAIL: the program wrote no SVG")
            return 1
        a, b = open(ppath, "rb").read(), open(mpath, "rb").read()
        if a != b:
            print(f"FAIL: the GPU's SVG ({len(a)} bytes) differs from the model's ({len(b)} bytes)")
            return 1
        print(f"PASS: the GPU's SVG equals the model's, byte for byte ({len(a)} bytes): " + " ".join(args))
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
    sm = sub.add_parser("svg-model")
    sm.add_argument("--model", required=True)
    sm.add_argument("--diagram-check", required=True)
    sg = sub.add_parser("svg-match")
    sg.add_argument("--model", required=True)
    sg.add_argument("--program", required=True)
    n = sub.add_parser("must-not-compile")
    n.add_argument("--nvcc", required=True)
    n.add_argument("--file", required=True)
    n.add_argument("--expect", action="append", required=True)
    opts = p.parse_args(argv)
    if opts.mode == "compare" and not rest:
        p.error("compare needs the program after --")
    handler = {"compare": cmd_compare, "selftest": cmd_selftest, "fake": cmd_fake,
               "svg-model": cmd_svg_model, "svg-match": cmd_svg_match,
               "must-not-compile": cmd_must_not_compile}[opts.mode]
    return handler(opts, rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
