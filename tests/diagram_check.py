#!/usr/bin/env python3
"""diagram_check.py — the chapters' diagrams are generated, current and well formed.

Each chapter that declares DIAGRAMS in its workbook_chapter() call has a host program,
<name>_diagrams, that computes its pictures from the chapter's CPU model and writes them as
OUTDIR/<diagram>.svg; the committed copies live in chapters/NN_x/diagrams/.

  diagram_check.py check  --program EXE --committed DIR [--out DIR]
      runs EXE twice into two fresh folders and fails (exit 1), naming every file, if
        * the two runs differ (a picture must be byte-deterministic: no dates, no random ids),
        * a committed picture differs from the program's, is missing, or is committed but no longer
          drawn,
        * a picture is not well-formed XML, is not an <svg> or does not begin with a non-empty
          <title> that names what it shows.
  diagram_check.py update --program EXE --committed DIR
      writes the program's pictures into DIR and removes committed .svg files it no longer draws.
  diagram_check.py update-all --manifest build/diagrams_manifest.json
      update for every chapter (the target update_diagrams; plots/plot_timings.py --update calls it).
  diagram_check.py selftest --program EXE
      the check must fail on a committed picture changed by one byte, and on a missing <title>.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"


def draw(program, out):
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([program, out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit(f"FAIL: {program} exited {r.returncode}")
    return sorted(f for f in os.listdir(out) if f.endswith(".svg"))


def well_formed(path):
    """None, or what is wrong with the SVG at path."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return f"not well-formed XML ({e})"
    if root.tag != SVG_NS + "svg":
        return f"root element is {root.tag}, not svg"
    first = next(iter(root), None)
    if first is None or first.tag != SVG_NS + "title" or not (first.text or "").strip():
        return "does not begin with a non-empty <title>"
    return None


def read(path):
    with open(path, "rb") as f:
        return f.read()


def check(program, committed, out=None):
    tmp = tempfile.mkdtemp(prefix="diagrams_")
    try:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        names = draw(program, a)
        names_b = draw(program, b)
        problems = []
        if not names:
            problems.append("the program drew no picture")
        if names != names_b:
            problems.append(f"two runs drew different files: {names} vs {names_b}")
        for n in names:
            if n in names_b and read(os.path.join(a, n)) != read(os.path.join(b, n)):
                problems.append(f"{n}: two runs differ (not byte-deterministic)")
            bad = well_formed(os.path.join(a, n))
            if bad:
                problems.append(f"{n}: {bad}")
        have = sorted(f for f in os.listdir(committed) if f.endswith(".svg")) if os.path.isdir(committed) else []
        for n in names:
            if n not in have:
                problems.append(f"{n}: drawn but not committed in {committed}")
            elif read(os.path.join(committed, n)) != read(os.path.join(a, n)):
                problems.append(f"{n}: the committed picture differs from what the model draws")
        for n in have:
            if n not in names:
                problems.append(f"{n}: committed but no longer drawn")
        if out:
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(a, out)
        for p in problems:
            print("FAIL:", p)
        if problems:
            print(f"regenerate with `cmake --build build --target update_diagrams` "
                  f"(or `python3 plots/plot_timings.py --update`)")
            return 1
        print(f"PASS: {len(names)} diagrams current, deterministic and titled: {', '.join(names)}")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def update(program, committed):
    tmp = tempfile.mkdtemp(prefix="diagrams_")
    try:
        names = draw(program, tmp)
        for n in names:
            bad = well_formed(os.path.join(tmp, n))
            if bad:
                raise SystemExit(f"FAIL: {n}: {bad}")
        os.makedirs(committed, exist_ok=True)
        for f in os.listdir(committed):
            if f.endswith(".svg") and f not in names:
                os.remove(os.path.join(committed, f))
                print(f"removed {os.path.join(committed, f)}")
        for n in names:
            src, dst = os.path.join(tmp, n), os.path.join(committed, n)
            if not os.path.exists(dst) or read(dst) != read(src):
                shutil.copyfile(src, dst)
                print(f"updated {dst}")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def selftest(program):
    tmp = tempfile.mkdtemp(prefix="diagrams_selftest_")
    try:
        good = os.path.join(tmp, "committed")
        update(program, good)
        if check(program, good) != 0:
            print("FAIL: the check rejects the program's own pictures")
            return 1
        first = sorted(os.listdir(good))[0]
        p = os.path.join(good, first)
        data = read(p)
        with open(p, "wb") as f:  # one byte changed
            f.write(data.replace(b"<title>", b"<title>x", 1))
        if check(program, good) == 0:
            print("FAIL: the check passed a picture changed by one byte")
            return 1
        with open(p, "wb") as f:
            f.write(data)
        t = os.path.join(tmp, "untitled.svg")
        with open(t, "w") as f:
            f.write('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>')
        if well_formed(t) is None:
            print("FAIL: a picture without <title> passed")
            return 1
        print("PASS: the check fails on a changed picture and on a missing <title>")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["check", "update", "update-all", "selftest"])
    p.add_argument("--program")
    p.add_argument("--committed")
    p.add_argument("--out")
    p.add_argument("--manifest")
    o = p.parse_args(argv)
    if o.mode == "check":
        return check(o.program, o.committed, o.out)
    if o.mode == "update":
        return update(o.program, o.committed)
    if o.mode == "selftest":
        return selftest(o.program)
    with open(o.manifest) as f:
        for entry in json.load(f):
            update(entry["program"], entry["committed"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
