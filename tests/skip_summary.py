#!/usr/bin/env python3
"""skip_summary.py — after every ctest run in a workbook build, what was skipped, by cause, with the
remedy once per cause. ctest runs it itself: build/CTestCustom.cmake (written by
cmake/Workbook.cmake) empties build/skips/ before the tests (CTEST_CUSTOM_PRE_TEST) and runs this
after them (CTEST_CUSTOM_POST_TEST), so the test command's output ends with it.

usage: skip_summary.py clear|print BUILD_DIR/skips

Every skip of a workbook test writes BUILD_DIR/skips/<test>.skip (scripts/skips.py: the test's
name, the cause, the reason). `print` groups them by cause; it prints nothing when none skipped.
Always exits 0: it reports, the tests judge.
"""
import glob
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import skips  # noqa: E402


def read(folder):
    """{cause: [(test, reason)]}, tests sorted by name."""
    by_cause = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.skip"))):
        try:
            name, cause, reason = (open(path, encoding="utf-8").read().split("\n") + ["", "", ""])[:3]
        except OSError:
            continue
        cause = cause if cause in skips.CAUSES else "other"
        by_cause.setdefault(cause, []).append((name, reason))
    return by_cause


def render(by_cause):
    total = sum(len(v) for v in by_cause.values())
    if not total:
        return ""
    lines = [f"Skipped tests by cause ({total} in all):"]
    for cause in [c for c in skips.CAUSES if c in by_cause]:
        tests = by_cause[cause]
        what, remedy = skips.CAUSES[cause][:2]
        shown = ", ".join(n for n, _ in tests[:3]) + (f" and {len(tests) - 3} more" if len(tests) > 3 else "")
        lines.append(f"  {len(tests):3d}  {what}: {shown}")
        if cause == "other":
            lines += [f"         {n}: {r}" for n, r in tests[:3]]
        else:
            lines.append(f"       to run them: {remedy}")
    return "\n".join(lines)


def main(argv):
    if len(argv) != 3 or argv[1] not in ("clear", "print"):
        print(__doc__)
        return 0
    if argv[1] == "clear":
        shutil.rmtree(argv[2], ignore_errors=True)
        return 0
    out = render(read(argv[2]))
    if out:
        print("\n" + out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
