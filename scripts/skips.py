"""skips.py — why a test skips, and what the learner can do about it: one catalogue for every test
runner of the workbook (tests/wbtest.py, scripts/ncu_util.py, tests/exercise_check.py,
tests/explorer_test.py) and for the summary the test command prints at its end
(tests/skip_summary.py).

    code = skips.report("compute-sanitizer not found (configure found none)")

prints one line, `SKIPPED [cause]: <reason>; to run it: <remedy>`, and returns 77; or, where the
machine should have had it, prints `FAIL (...)` and returns 1. A reason is classified by its text
(classify()), so the programs' own exit-77 lines (common/check.h) need no change.

Which skips fail (the environment of the test):
  nothing set            every skip is a skip (a machine without a GPU: CI, a laptop).
  WORKBOOK_STRICT=1      configure saw a GPU (the default there, cmake/Workbook.cmake): a skip that
                         means the GPU or its driver is unusable, or a program skipped for a reason
                         this catalogue does not know, fails. What the learner's machine lacks or
                         keeps from the user (Nsight Compute, readable performance counters,
                         compute-sanitizer, a GPU as new as a chapter needs, Chromium) stays a skip,
                         with its remedy: a test never fails for what the learner's machine lacks.
  WORKBOOK_REQUIRE_TOOLS=1  with strict mode (scripts/gpu_check.sh): the tools and the counters are
                         required too, so only an exercise not attempted and a machine without
                         Chromium may skip.
"""
import os
import re

SKIP = 77

# cause: (what is missing, in a few words; the remedy; does strict mode fail it; does
# WORKBOOK_REQUIRE_TOOLS fail it). The order is the summary's.
CAUSES = {
    "no-gpu": ("no usable CUDA GPU or driver",
               "a CUDA GPU (sm_75 or newer) with its driver; `nvidia-smi` must list it",
               True, True),
    "gpu-too-old": ("the GPU is older than the chapter needs",
                    "a GPU of at least the compute capability named (README: the table's \"needs\" column)",
                    False, True),
    "image-below-floor": ("the program was built without code for what the chapter needs",
                          "rebuild with -DCMAKE_CUDA_ARCHITECTURES=native",
                          True, True),
    "ncu-counters": ("Nsight Compute may not read this GPU's performance counters (ERR_NVGPUCTRPERM)",
                     "run them with administrator rights (`sudo \"$(command -v ctest)\" --test-dir build -L ncu`, "
                     "`-L exercise` for your exercises, then `sudo chown -R \"$USER\" build`), or open the "
                     "counters to every user: on Linux, `echo 'options nvidia "
                     "NVreg_RestrictProfilingToAdminUsers=0' | sudo tee /etc/modprobe.d/nvidia-profiling.conf`, "
                     "`sudo update-initramfs -u` where the driver loads from the initramfs, then reboot; on "
                     "Windows and WSL, NVIDIA Control Panel > Desktop > Enable Developer "
                     "Settings, then Developer > Manage GPU Performance Counters > allow all users "
                     "(NVIDIA's page: developer.nvidia.com/ERR_NVGPUCTRPERM)",
                     False, True),
    "no-ncu": ("Nsight Compute (ncu) not found",
               "install Nsight Compute (in NVIDIA's CUDA toolkit; Debian 13, non-free: `apt install nsight-compute`), "
               "then configure again, or name it: `cmake --preset default -DWORKBOOK_NCU=/path/to/ncu`",
               False, True),
    "no-sanitizer": ("compute-sanitizer not found",
                     "install compute-sanitizer (in NVIDIA's CUDA toolkit; Debian 13, non-free: in "
                     "`nvidia-cuda-toolkit`) and configure again; or, from PyPI in a virtual environment, "
                     "`pip install nvidia-cuda-sanitizer-api` (CUDA 13; `-cu12` for CUDA 12) and name the "
                     "`compute-sanitizer` it installs (`pip show -f nvidia-cuda-sanitizer-api`): "
                     "`cmake --preset default -DWORKBOOK_COMPUTE_SANITIZER=/path/to/compute-sanitizer`",
                     False, True),
    "no-cuobjdump": ("cuobjdump, nvdisasm or c++filt not found (the sass tests read the compiled code with them)",
                     "a full CUDA toolkit has cuobjdump and nvdisasm, binutils has c++filt (Debian: `apt install "
                     "binutils`); with a toolkit from PyPI, `python3 -m pip install nvidia-cuda-cuobjdump "
                     "nvidia-cuda-nvdisasm` of the toolkit's major version, in the Python that runs the tests",
                     False, True),
    "no-browser": ("no headless Chromium to drive the explorer",
                   "Debian: `apt install chromium chromium-driver python3-selenium` (or `pip install selenium`)",
                   False, False),
    "no-matplotlib": ("no Python with matplotlib to draw the figures",
                      "Debian: `apt install python3-matplotlib` (for the python3 CMake found), or let the build "
                      "make build/venv from requirements.txt (needs PyPI; on Debian also `apt install python3-venv`)",
                      False, True),
    "not-attempted": ("exercise not attempted",
                      "write the kernel in the file the line names (the chapter README lists the exercises)",
                      False, False),
    "other": ("the program skipped", "read the reason", True, True),
}

_PATTERNS = [
    ("ncu-counters", re.compile(r"ERR_NVGPUCTRPERM|permission to access NVIDIA GPU Performance Counters", re.I)),
    ("no-ncu", re.compile(r"Nsight Compute \(ncu\) not found|\bncu not found", re.I)),
    ("no-sanitizer", re.compile(r"compute-sanitizer not found", re.I)),
    ("no-cuobjdump", re.compile(r"cuobjdump|nvdisasm|c\+\+filt", re.I)),
    ("not-attempted", re.compile(r"not attempted", re.I)),
    ("no-matplotlib", re.compile(r"matplotlib", re.I)),
    ("no-browser", re.compile(r"chromium|chromedriver|selenium", re.I)),
    ("image-below-floor", re.compile(r"kernels were compiled for |no kernel image", re.I)),
    ("gpu-too-old", re.compile(r"\bneeds? sm_\d+; this GPU \(")),
    ("no-gpu", re.compile(r"no CUDA device|no usable CUDA device|no CUDA GPU", re.I)),
]


def classify(reason):
    """The cause (a key of CAUSES) of a skip whose reason reads `reason`."""
    for cause, pattern in _PATTERNS:
        if pattern.search(reason or ""):
            return cause
    return "other"


def _on(name):
    return os.environ.get(name, "") not in ("", "0")


def fails(cause):
    """Whether a skip of this cause fails under this test's environment (strict, require-tools)."""
    _, _, strict_fails, require_fails = CAUSES[cause]
    if _on("WORKBOOK_REQUIRE_TOOLS") and require_fails:
        return True
    return _on("WORKBOOK_STRICT") and strict_fails


def line(reason, cause=None):
    """The one line a skip prints: reason and remedy ("other" has no remedy of its own)."""
    cause = cause or classify(reason)
    remedy = CAUSES[cause][1]
    return f"SKIPPED [{cause}]: {reason}" + ("" if cause == "other" else f"; to run it: {remedy}")


def announce(reason, cause=None):
    """Print the skip line and record it for the run's summary (tests/skip_summary.py): ctest gives
    every workbook test WORKBOOK_SKIP_DIR and its own name, WORKBOOK_TEST_NAME (cmake/Workbook.cmake)."""
    cause = cause or classify(reason)
    print(line(reason, cause), flush=True)
    folder = os.environ.get("WORKBOOK_SKIP_DIR")
    if folder:
        name = os.environ.get("WORKBOOK_TEST_NAME") or f"pid{os.getpid()}"
        try:
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, re.sub(r"[^\w.-]", "_", name) + ".skip"), "w", encoding="utf-8") as f:
                f.write(f"{name}\n{cause}\n{reason}\n")
        except OSError:
            pass  # the summary is a report; the skip itself stands
    return SKIP


def report(reason, cause=None):
    """Print the skip (77) or, where this machine must not skip it, the failure (1); return the code."""
    cause = cause or classify(reason)
    if fails(cause):
        mode = "WORKBOOK_REQUIRE_TOOLS" if _on("WORKBOOK_REQUIRE_TOOLS") and not CAUSES[cause][2] else "WORKBOOK_STRICT"
        print(f"FAIL ({mode}): this test would skip [{cause}]: {reason}")
        return 1
    return announce(reason, cause)
