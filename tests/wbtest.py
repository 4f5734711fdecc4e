#!/usr/bin/env python3
"""wbtest.py — the workbook's test runner (CTest calls it; see cmake/Workbook.cmake).

  golden      [--runs K] --expected FILE -- CMD...
                                          run CMD K times (default 1); exit 0 required each time;
                                          every stdout must equal FILE byte for byte (a unified diff
                                          is printed when one does not), so that an output that
                                          differs between runs fails too
  match       -- REFERENCE... -- CMD...   run both; exit 0 required; CMD's stdout must equal
                                          REFERENCE's (e.g. a CPU model's) byte for byte
  sanitize    --tool T --sanitizer PATH --probe PROBE -- CMD...
                                          CMD under compute-sanitizer; any hazard fails
  exit-code   --rc N --stderr=TEXT -- CMD...
                                          CMD must exit N and say TEXT on stderr
  update      --manifest JSON --dest DIR  re-record every golden file from a GPU run
  workbook    --manifest JSON --results DIR
                                          run every chapter in order, writing timing CSVs

Exit codes: 0 pass, 1 fail, 77 skip (CTest's SKIP_RETURN_CODE). A program that exits 77 (no GPU,
or a GPU without what it needs) makes its test a skip, never a pass. A skip prints one line with its
cause and its remedy (scripts/skips.py). With WORKBOOK_STRICT=1 in the environment (configure saw a
GPU, or -DWORKBOOK_STRICT=ON) a skip that means the GPU or its driver is unusable fails instead and
says why; what the machine lacks (compute-sanitizer, a GPU as new as a chapter needs) stays a skip,
unless WORKBOOK_REQUIRE_TOOLS=1 (scripts/gpu_check.sh) requires it too.
"""
import argparse
import datetime
import difflib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import skips  # noqa: E402  (why a test skips, its remedy, and whether this machine may skip it)

SKIP = 77


def run(cmd, timeout=900):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)


def text(b):
    return b.decode("utf-8", errors="replace")


def show(proc):
    if proc.stderr:
        sys.stdout.write("--- stderr ---\n" + text(proc.stderr))
        if not proc.stderr.endswith(b"\n"):
            sys.stdout.write("\n")


def skip(reason):
    """Report a skip (exit 77) with its remedy, or, where this machine must not skip it (strict mode,
    scripts/skips.py), a failure that names the reason."""
    sys.exit(skips.report(reason))


def skip_if_77(proc, what):
    if proc.returncode == SKIP:
        reason = text(proc.stderr).strip().splitlines()
        skip(f"{what} exited 77: {reason[-1] if reason else 'no reason given'}")


def require_ok(proc, what):
    skip_if_77(proc, what)
    if proc.returncode != 0:
        show(proc)
        sys.stdout.write(text(proc.stdout)[-4000:])
        print(f"FAIL: {what} exited {proc.returncode}")
        sys.exit(1)


def diff(expected, actual, a_name, b_name):
    lines = difflib.unified_diff(text(expected).splitlines(keepends=True),
                                 text(actual).splitlines(keepends=True), a_name, b_name)
    out = "".join(lines)
    if not out:  # same lines, different bytes (line endings, a missing final newline)
        out = f"(the files differ in bytes only: {len(expected)} vs {len(actual)} bytes)\n"
    return out


def cmd_golden(opts, cmd):
    if not os.path.exists(opts.expected):
        proc = run(cmd)
        skip_if_77(proc, cmd[0])
        print(f"FAIL: no golden file {opts.expected}; record it on a GPU with "
              "`cmake --build build --target update_expected`")
        return 1
    expected = open(opts.expected, "rb").read()
    for i in range(opts.runs):
        proc = run(cmd)
        require_ok(proc, os.path.basename(cmd[0]))
        if proc.stdout != expected:
            show(proc)
            sys.stdout.write(diff(expected, proc.stdout, opts.expected, "stdout of " + cmd[0]))
            print("FAIL: stdout differs from the golden file" + (f" (run {i + 1} of {opts.runs})" if opts.runs > 1 else ""))
            return 1
    runs = f" in each of {opts.runs} runs" if opts.runs > 1 else ""
    print(f"PASS: stdout ({len(expected)} bytes) == {os.path.basename(opts.expected)}{runs}")
    return 0


def cmd_match(opts, cmd):
    if "--" not in cmd:
        print("FAIL: match needs REFERENCE... -- CMD...")
        return 1
    i = cmd.index("--")
    ref_cmd, cmd = cmd[:i], cmd[i + 1:]
    ref = run(ref_cmd)
    if ref.returncode != 0:
        show(ref)
        print(f"FAIL: the reference {os.path.basename(ref_cmd[0])} exited {ref.returncode}")
        return 1
    proc = run(cmd)
    require_ok(proc, os.path.basename(cmd[0]))
    if proc.stdout != ref.stdout:
        show(proc)
        sys.stdout.write(diff(ref.stdout, proc.stdout, "stdout of " + ref_cmd[0], "stdout of " + cmd[0]))
        print("FAIL: stdout differs from the reference's")
        return 1
    print(f"PASS: stdout ({len(proc.stdout)} bytes) == stdout of {os.path.basename(ref_cmd[0])}")
    return 0


RACE_SUMMARY = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)")
ERROR_SUMMARY = re.compile(r"ERROR SUMMARY: (\d+) errors?")


def cmd_sanitize(opts, cmd):
    probe = run([opts.probe])
    skip_if_77(probe, "workbook_probe")
    if not opts.sanitizer or not os.path.exists(opts.sanitizer):
        skip("compute-sanitizer not found (configure found none)" if not opts.sanitizer
             else f"compute-sanitizer not found at {opts.sanitizer}")
    extra = {"memcheck": ["--leak-check", "full"], "racecheck": ["--racecheck-report", "all"],
             "synccheck": [], "initcheck": []}[opts.tool]
    if opts.exclude_kernels:  # kernels left out of this tool's run (the chapter's CMakeLists says why)
        extra += ["--kernel-name-exclude", "kns=" + opts.exclude_kernels]
    if opts.only_kernels:  # only these kernels are checked
        extra += ["--kernel-name", "kns=" + opts.only_kernels]
    proc = run([opts.sanitizer, "--tool", opts.tool, "--error-exitcode", "86"] + extra + cmd)
    skip_if_77(proc, os.path.basename(cmd[0]) + " under compute-sanitizer")
    out = text(proc.stdout) + text(proc.stderr)
    # racecheck ends with a RACECHECK SUMMARY, the other tools with an ERROR SUMMARY; a run
    # without its summary line did not complete and fails too.
    errors = ERROR_SUMMARY.findall(out)
    races = RACE_SUMMARY.findall(out)
    summaries = races if opts.tool == "racecheck" else errors
    bad = proc.returncode != 0 or not summaries or any(int(e) for e in errors)
    bad = bad or any(int(h) + int(e) + int(w) for h, e, w in races)
    if bad:
        sys.stdout.write(out[-8000:])
        print(f"FAIL: compute-sanitizer --tool {opts.tool} exited {proc.returncode}")
        return 1
    summary = [l.strip("= ") for l in out.splitlines() if "SUMMARY" in l]
    print(f"PASS: {opts.tool}: " + "; ".join(summary))
    return 0


def cmd_exit_code(opts, cmd):
    proc = run(cmd)
    if proc.returncode == SKIP and opts.rc != SKIP:
        skip_if_77(proc, os.path.basename(cmd[0]))
    err = text(proc.stderr)
    if proc.returncode != opts.rc or opts.stderr not in err:
        sys.stdout.write(text(proc.stdout)[-2000:])
        show(proc)
        print(f"FAIL: expected exit {opts.rc} and stderr containing {opts.stderr!r}; "
              f"got exit {proc.returncode}")
        return 1
    said = err.strip().splitlines() or text(proc.stdout).strip().splitlines()[-1:] or ["(no output)"]
    print(f"PASS: exit {proc.returncode}: {said[0]}")
    return 0


def load_manifest(path):
    with open(path) as f:
        return json.load(f)


def cmd_update(opts, _cmd):
    manifest = load_manifest(opts.manifest)
    probe = run([manifest["probe"]])
    if probe.returncode != 0:
        print("update_expected refuses: golden files are recorded from a GPU run, and there is none: "
              + text(probe.stderr).strip())
        return 1
    print("recording golden files on " + text(probe.stdout).strip())
    os.makedirs(opts.dest, exist_ok=True)
    for ch in manifest["chapters"]:
        proc = run([ch["program"]])
        if proc.returncode != 0:
            show(proc)
            print(f"update_expected: {ch['name']} exited {proc.returncode}; its golden file is unchanged")
            return 1
        again = run([ch["program"]])
        if again.stdout != proc.stdout:
            print(f"update_expected: {ch['name']} printed different stdout on a second run; refusing")
            return 1
        dest = os.path.join(opts.dest, ch["name"] + ".txt")
        old = open(dest, "rb").read() if os.path.exists(dest) else None
        with open(dest, "wb") as f:
            f.write(proc.stdout)
        state = "unchanged" if old == proc.stdout else ("changed" if old is not None else "new")
        print(f"  {dest}: {len(proc.stdout)} bytes ({state})")
    return 0


def render_plots(manifest, data_dir, gpu):
    """Draw the figures from data_dir/<gpu>/ into build/plots/; say why not if it cannot."""
    python = open(manifest["plot_python_stamp"]).read().strip()
    if python.startswith("ERROR"):
        # What the machine lacks is not the run's failure: the tables are written; say how to draw them.
        print("Figures not drawn: no Python with matplotlib (" + python + "); to draw them: "
              + skips.CAUSES["no-matplotlib"][1] + ", then run the workbook command again")
        return 0
    args = [python, manifest["plot_script"], "--data-dir", data_dir, "--out-dir", manifest["plots_out"]]
    if gpu:
        args += ["--gpu", gpu]
    print("\nDrawing the figures from " + data_dir + (f"/{gpu}" if gpu else ""), flush=True)
    return subprocess.call(args)


def chapter_banner(title):
    print("\n" + "=" * 78 + f"\n  {title}\n" + "=" * 78, flush=True)


def workbook_without_gpu(manifest):
    """Every chapter under its banner, run by its CPU model (the golden and model tests prove the
    model's stdout equal to the GPU's); then the figures from the committed tables."""
    root = manifest.get("root", "")
    failed = []
    for ch in manifest["chapters"]:
        chapter_banner(f"{ch['chapter']}: {ch['name']}")
        print(f"no GPU: this is the CPU model's prediction of the GPU's output (proven equal by the "
              f"{ch['name']}.golden and {ch['name']}.model tests)\n", flush=True)
        rc = subprocess.call([ch["model"]])
        if rc != 0:
            failed.append(f"{ch['name']}_model (exit {rc})")
        readme = os.path.join(root, "chapters", ch["chapter"], "README.md")
        print(f"\n[diagrams and measured tables: {os.path.relpath(readme, root)}; shuffles and banks drawn in a "
              f"browser: explorer/index.html]", flush=True)
    plot_rc = render_plots(manifest, manifest["reference_data"], None)
    if failed:
        print("FAILED: " + ", ".join(failed))
        return 1
    return plot_rc


def cmd_workbook(opts, _cmd):
    manifest = load_manifest(opts.manifest)
    probe = run([manifest["probe"]])
    if probe.returncode != 0:
        reason = text(probe.stderr).strip().splitlines()
        print("No CUDA GPU here (" + (reason[-1] if reason else "probe failed") +
              "): each chapter's CPU model prints what the GPU would print; then the committed "
              "reference data is drawn.", flush=True)
        return workbook_without_gpu(manifest)
    device = text(probe.stdout).strip()
    name, slug = device.split(" sm_")[0], device.split()[-1]
    print("Workbook run on " + device, flush=True)
    failed = []
    only = [n for n in os.environ.get("WORKBOOK_ONLY", "").split(",") if n]  # e.g. WORKBOOK_ONLY=matMul
    for ch in manifest["chapters"]:
        if only and ch["name"] not in only:
            continue
        args = list(ch["bench_args"])
        if args:
            args += ["--csv-dir", opts.results]
        print("\n" + "=" * 78 + f"\n  {ch['chapter']}: {' '.join([ch['name']] + args)}\n" + "=" * 78,
              flush=True)
        rc = subprocess.call([ch["program"]] + args)
        if rc not in (0, SKIP):
            failed.append(f"{ch['name']} (exit {rc})")
        elif rc == SKIP:
            print(f"[{ch['name']} skipped on this GPU]")
    os.makedirs(os.path.join(opts.results, slug), exist_ok=True)
    with open(os.path.join(opts.results, slug, "meta.json"), "w") as f:
        json.dump({"gpu": name, "cuda": manifest["cuda_version"],
                   "date": datetime.date.today().isoformat()}, f)
    print("\nTiming CSVs: " + os.path.join(opts.results, slug))
    plot_rc = render_plots(manifest, opts.results, slug)
    if failed:
        print("FAILED: " + ", ".join(failed))
        return 1
    return plot_rc


def main(argv):
    if "--" in argv:
        i = argv.index("--")
        argv, cmd = argv[:i], argv[i + 1:]
    else:
        cmd = []
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    g = sub.add_parser("golden")
    g.add_argument("--expected", required=True)
    g.add_argument("--runs", type=int, default=1)
    sub.add_parser("match")
    s = sub.add_parser("sanitize")
    s.add_argument("--tool", required=True, choices=["memcheck", "racecheck", "synccheck", "initcheck"])
    s.add_argument("--sanitizer", default="")
    s.add_argument("--probe", required=True)
    s.add_argument("--exclude-kernels", default="", help="kernels whose name contains this, left out")
    s.add_argument("--only-kernels", default="", help="only the kernels whose name contains this")
    e = sub.add_parser("exit-code")
    e.add_argument("--rc", type=int, required=True)
    e.add_argument("--stderr", default="")
    u = sub.add_parser("update")
    u.add_argument("--manifest", required=True)
    u.add_argument("--dest", required=True)
    w = sub.add_parser("workbook")
    w.add_argument("--manifest", required=True)
    w.add_argument("--results", required=True)
    opts = p.parse_args(argv)
    if opts.mode in ("golden", "match", "sanitize", "exit-code") and not cmd:
        p.error("a command after -- is required")
    handler = {"golden": cmd_golden, "match": cmd_match, "sanitize": cmd_sanitize,
               "exit-code": cmd_exit_code, "update": cmd_update, "workbook": cmd_workbook}[opts.mode]
    return handler(opts, cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
