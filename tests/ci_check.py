#!/usr/bin/env python3
"""After the README's test command: fail unless every test passed or skipped, at least one CPU test
ran, and every CPU test passed (a CPU test may never skip: it needs no GPU).

usage: ci_check.py BUILD_DIR   (reads BUILD_DIR/ctest-junit.xml and asks ctest for the cpu label)
"""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

build = sys.argv[1]
listing = subprocess.run(["ctest", "--test-dir", build, "-N", "-L", "cpu"], capture_output=True,
                         text=True, check=True).stdout
cpu = set(re.findall(r"Test\s+#\d+: (\S+)", listing))
status = {t.get("name"): t.get("status") for t in ET.parse(f"{build}/ctest-junit.xml").iter("testcase")}

failed = sorted(n for n, s in status.items() if s not in ("run", "notrun"))
cpu_not_passed = sorted(n for n in cpu if status.get(n) != "run")
skipped = sorted(n for n, s in status.items() if s == "notrun")
print(f"ci_check: {len(status)} tests; {len(cpu)} cpu tests, "
      f"{sum(status.get(n) == 'run' for n in cpu)} of them passed; {len(skipped)} skipped")
ok = True
if failed:
    print("ci_check: FAILED tests: " + ", ".join(failed))
    ok = False
if not cpu:
    print("ci_check: no CPU test was registered")
    ok = False
if cpu_not_passed:
    print("ci_check: CPU tests that did not pass: " + ", ".join(cpu_not_passed))
    ok = False
sys.exit(0 if ok else 1)
