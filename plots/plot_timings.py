#!/usr/bin/env python3
"""plot_timings.py — every measured table, quoted number and figure of the workbook, generated from
the committed CSVs (plots/data/<gpu>/) and the declarations each chapter keeps in its own folder.

usage:
  plot_timings.py [--data-dir plots/data] [--out-dir plots] [--gpu h200|all]
        draw every declared figure whose CSV is present (matplotlib); with several GPUs and --gpu all,
        each figure shows them side by side
  plot_timings.py --check [--data-dir plots/data]
        compare every README block and value with what the declarations make of the CSVs; exit 1 with
        a unified diff when one differs (python3 only, no matplotlib; the `readme.tables` test)
  plot_timings.py --update [--data-dir plots/data] [--out-dir plots]
        rewrite every README block and value, redraw the chapters' diagrams (cmake's update_diagrams, in
        a configured build/), then redraw every figure (the one command to run after
        new CSVs land in plots/data/<gpu>/); --no-figures rewrites the READMEs only
  plot_timings.py --list
        every declared table, value and figure, with its CSV and the report.py that declares it
Exit 2 with a message naming the file (and the column or row) when a CSV lacks what a declaration
needs or holds a bad value.

DECLARATIONS
------------
Each chapter folder may hold `report.py` (chapters/NN_x/report.py); plots/report.py declares what the
top README quotes across chapters. A report.py is plain Python that imports its helpers from this
script (the generator puts plots/ on sys.path first) and defines up to three lists:

    from plot_timings import Table, Col, Value, Field, Figure, at, span

    TABLES = [Table(name, csv, columns, gpu="h200", rows=None, key=("kernel",), where=None)]
    VALUES = [Value(name, csv, compute, fmt, gpu="h200")]
    FIGURES = [Figure(name, csv, columns, title, kind, ...)]

Names are global (the top README may quote any chapter's name) and must be unique; use
"<chapter>.<what>", e.g. "warpReduce.bench", "warpReduce.vec4_vs_cub".

Table(name, csv, columns, gpu="h200", rows=None, key=("kernel",), where=None, render=None)
    csv      a file name under plots/data/<gpu>/ (e.g. "warpReduce.csv")
    gpu      the folder under plots/data/ ("h200" or "h100")
    rows     None: every CSV row for which where(row) is true, in file order. Or a list of dicts, one per
             README row, in README order: the fields named in `key` pick exactly one CSV row (a row that
             is absent, or matches twice, is an error), the other fields are text the cells may use
             (e.g. {"kernel": "reduceVec4", "what": "ours: ..."}); "_bold": True bolds every cell of it.
             Rows the declaration does not name (e.g. a `cudaMemcpy` row added later) are ignored.
    columns  a list of Col(header, cell, align="r"): cell is a str.format template over the row's
             fields (CSV columns, numbers already parsed, plus the row's text fields), e.g.
             "`{kernel}`", "{gbps:.0f}", "{time_ms:.4f}"; or a function (row, q) -> str, where
             q(**match) finds one row of the same CSV (q(csv=..., gpu=..., **match) another one),
             q.rows(csv=None, gpu=None, where=None) several, q.text("logs/x.log") a committed log,
             q.max_sm_mhz() the SM clock in logs/env.txt.
             at(field, fmt, **override) is such a function: the same row's key fields with some
             changed, e.g. Col("N = 2^26: GB/s", at("gbps", "{:.1f}", size=2**26)).
             Columns not named are ignored, so appended columns (min_ms, max_ms, in_l2, sm_mhz) are
             harmless.
    render   instead of rows/columns: a function (q) -> list of Markdown lines, for a table whose
             shape depends on the data (chapter 11's per-bin table).
    README:  <!-- wb:table NAME -->
             (the generated Markdown table)
             <!-- /wb:table -->

Value(name, csv, compute, fmt="{}", gpu="h200")
    compute  a function (q) -> a number, a string, or a tuple for a fmt with several fields, with q as
             above (its csv and gpu are the Value's), e.g. lambda q: q(kernel="reduceVec4")["gbps"] / q(kernel="cub_DeviceReduce_Sum")["gbps"]
    fmt      str.format template of the result, e.g. "{:.3f}×", "{:.0f} GB/s"
    README:  <!-- wb:value NAME -->0.995×<!-- /wb:value -->   (inline, inside prose or a table cell)
span(values, fmt="{:.0f}", sep=" to ", unit="")
    "lo to hi" of some numbers, one number where both print the same (for a compute's result)
Field(name, csv, field, fmt="{}", gpu="h200", **match)
    a Value that is one field of the row that match picks, e.g.
    Field("warpReduce.copy_gbps.h100", "warpReduce.csv", "gbps", "{:.0f}", "h100", kernel="copy")

Figure(name, csv, columns, title, kind, ...) draws plots/<name>.png, one panel per GPU that has the CSV
    columns  the columns the figure needs: a CSV without one is refused (exit 2, naming it)
    numeric  columns that must hold a number in every row (default: y, for "bar" and "lines")
    kind     "bar":    one bar per row of `x` (default "kernel") with the value `y` (default "gbps");
                       colors={kernel or prefix*: color}, the rest blue; subtitle (a template over
                       the first row)
             "lines":  one line per `series` (default "kernel") of `y` against `x` (default "size");
                       x values in file order, as categories (xticks="log2" labels 2^k), or on a
                       log2 axis (logx=True); references={series: color} are dashed
             "panel":  draw(ax, rows, gpu_dir) draws one GPU's panel
             "figure": draw(data_dir, gpus, out_path, title) lays out the whole figure
    xlabel, ylabel   axis labels; where=lambda row: bool keeps some rows ("bar", "lines", "panel");
                     legend_cols ("lines")
    made_by  the script that writes the CSV when it is not a chapter's --bench (e.g. a gpu_extras.sh):
             the workbook run, which runs only the benches, then says where the table comes from
             instead of reporting it missing
    Every figure is FIGSIZE at DPI (tests/plot_test.py checks the PNG size).

CSV rows are dicts: a field that parses as a number is a number (int or float), an empty one "".

A minimal chapters/NN_x/report.py (a new CSV plots/data/<gpu>/shfl_vs_smem.csv, say):

    from plot_timings import Col, Field, Figure, Table

    CSV = "shfl_vs_smem.csv"
    TABLES = [Table("shfl_vs_smem.bench", CSV, rows=[{"kernel": "reduceShfl"}, {"kernel": "reduceSmem"}],
                    columns=[Col("kernel", "`{kernel}`", "l"), Col("time (ms)", "{time_ms:.4f}"),
                             Col("GB/s", "{gbps:.0f}")])]
    VALUES = [Field("shfl_vs_smem.shfl_gbps.h100", CSV, "gbps", "{:.0f} GB/s", "h100", kernel="reduceShfl")]
    FIGURES = [Figure("shfl_vs_smem", CSV, ["kernel", "gbps"], "Shuffle against shared memory", "bar")]

and in its README: a line `<!-- wb:table shfl_vs_smem.bench -->`, a line `<!-- /wb:table -->`, and
in prose `... runs at <!-- wb:value shfl_vs_smem.shfl_gbps.h100 --><!-- /wb:value --> on the H100`;
then `python3 plots/plot_timings.py --update` fills them in and draws plots/shfl_vs_smem.png.
"""
import argparse
import subprocess
import csv
import difflib
import glob
import importlib.util
import json
import math
import os
import re
import sys

FIGSIZE = (11, 6)  # inches; at DPI this gives the PNG size the test checks
DPI = 100
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_DATA = os.path.join(HERE, "data")


class DataError(Exception):
    pass


# ----------------------------------------------------------------------------------------------
# Data
def _parse(v):
    if v is None:
        return ""
    s = v.strip()
    if re.fullmatch(r"[+-]?\d+", s):
        return int(s)
    try:
        return float(s)
    except ValueError:
        return s


_CACHE = {}


def read_csv(path, columns=(), numeric=()):
    """The rows of a CSV as dicts of parsed values; DataError naming the file and column when a
    required column is missing or a numeric column holds text."""
    if path not in _CACHE:
        try:
            with open(path, newline="") as f:
                reader = csv.DictReader(f)
                rows = [{k: _parse(v) for k, v in r.items() if k is not None} for r in reader]
                header = list(reader.fieldnames or [])
        except OSError as e:
            raise DataError(f"{path}: cannot read ({e.strerror})")
        _CACHE[path] = (header, rows)
    header, rows = _CACHE[path]
    if not rows:
        raise DataError(f"{path}: no rows")
    for c in list(columns) + [c for c in numeric if c not in columns]:
        if c not in header:
            raise DataError(f"{path}: missing column '{c}'")
    for i, r in enumerate(rows, start=2):
        for c in numeric:
            if not isinstance(r[c], (int, float)):
                raise DataError(f"{path}, line {i}: column '{c}' holds {r[c]!r}, not a number")
    return [dict(r) for r in rows]


def _same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return str(a) == str(b)


class Query:
    """q(**match): the one row of a CSV whose fields equal match; q(csv=..., gpu=...) another CSV."""

    def __init__(self, data_dir, csv_name, gpu):
        self.data_dir, self.csv, self.gpu = data_dir, csv_name, gpu

    def path(self, csv_name=None, gpu=None):
        return os.path.join(self.data_dir, gpu or self.gpu, csv_name or self.csv)

    def rows(self, csv=None, gpu=None, where=None):
        rows = read_csv(self.path(csv, gpu))
        return [r for r in rows if where is None or where(r)]

    def text(self, name, gpu=None):
        """A committed text file (e.g. "logs/env.txt") of the GPU's folder."""
        path = os.path.join(self.data_dir, gpu or self.gpu, name)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError as e:
            raise DataError(f"{path}: cannot read ({e.strerror})")

    def max_sm_mhz(self, gpu=None):
        """The maximum SM clock nvidia-smi reported in logs/env.txt (clocks.max.sm)."""
        m = re.search(r"(\d+) MHz, \d+ MHz", self.text("logs/env.txt", gpu))
        if not m:
            raise DataError(f"{self.path('logs/env.txt', gpu)}: no 'clocks.max.sm' line")
        return int(m.group(1))

    def __call__(self, csv=None, gpu=None, **match):
        path = self.path(csv, gpu)
        rows = read_csv(path, columns=list(match))
        hits = [r for r in rows if all(_same(r[k], v) for k, v in match.items())]
        if len(hits) != 1:
            what = ", ".join(f"{k}={v}" for k, v in match.items())
            raise DataError(f"{path}: {len(hits)} rows with {what}, expected exactly one")
        return hits[0]


def at(field, fmt="{}", **override):
    """A cell: `field` of the row with the same key fields as this one, some overridden."""
    def cell(row, q):
        match = {k: row[k] for k in row.get("_key", ())}
        match.update(override)
        return fmt.format(q(**match)[field])
    return cell


# ----------------------------------------------------------------------------------------------
# Declarations
class Col:
    def __init__(self, header, cell, align="r"):
        self.header, self.cell, self.align = header, cell, align


class Table:
    def __init__(self, name, csv, columns=(), gpu="h200", rows=None, key=("kernel",), where=None, render=None):
        self.name, self.csv, self.columns, self.gpu = name, csv, list(columns), gpu
        self.rows, self.key, self.where, self.render_fn = rows, tuple(key), where, render

    def render(self, data_dir):
        q = Query(data_dir, self.csv, self.gpu)
        if self.render_fn:
            return "\n".join(self.render_fn(q))
        if self.rows is None:
            picked = [dict(r, _key=self.key) for r in q.rows(where=self.where)]
        else:
            picked = []
            for spec in self.rows:
                r = dict(q(**{k: spec[k] for k in self.key}))
                r.update({k: v for k, v in spec.items() if k not in self.key})
                r["_key"] = self.key
                picked.append(r)
        lines = ["| " + " | ".join(c.header for c in self.columns) + " |",
                 "|" + "|".join("---:" if c.align == "r" else "---" for c in self.columns) + "|"]
        for r in picked:
            cells = []
            for c in self.columns:
                try:
                    text = c.cell(r, q) if callable(c.cell) else c.cell.format(**r)
                except KeyError as e:
                    raise DataError(f"{q.path()}: table {self.name}: no column {e}")
                except (TypeError, ValueError) as e:
                    raise DataError(f"{q.path()}: table {self.name}, column '{c.header}': {e}")
                if r.get("_bold") and text:
                    text = f"**{text}**"
                cells.append(text)
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)


class Value:
    def __init__(self, name, csv, compute, fmt="{}", gpu="h200"):
        self.name, self.csv, self.compute, self.fmt, self.gpu = name, csv, compute, fmt, gpu

    def render(self, data_dir):
        q = Query(data_dir, self.csv, self.gpu)
        try:
            v = self.compute(q)
        except (KeyError, TypeError, ZeroDivisionError) as e:
            raise DataError(f"{q.path()}: value {self.name}: {e!r}")
        return self.fmt.format(*v) if isinstance(v, tuple) else self.fmt.format(v)


def span(values, fmt="{:.0f}", sep=" to ", unit=""):
    """"lo to hi" of some numbers, or one number where both ends print the same: span([107.9, 108.3], "{:.0f}", unit="%")."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return (lo if lo == hi else lo + sep + hi) + unit


def Field(name, csv, field, fmt="{}", gpu="h200", **match):
    """A Value that is one field of one row: Field("x.copy_gbps.h100", "x.csv", "gbps", "{:.0f}", "h100", kernel="copy")."""
    return Value(name, csv, lambda q: q(**match)[field], fmt, gpu=gpu)


class Figure:
    def __init__(self, name, csv, columns, title, kind, **opts):
        self.name, self.csv, self.columns, self.title, self.kind, self.opts = name, csv, list(columns), title, kind, opts


def declaration_files(root=ROOT):
    return sorted(glob.glob(os.path.join(root, "chapters", "*", "report.py"))) + \
        [p for p in [os.path.join(root, "plots", "report.py")] if os.path.exists(p)]


def load_declarations(root=ROOT):
    """{"tables": {name: Table}, "values": {...}, "figures": {...}}, with the file of each."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    sys.modules.setdefault("plot_timings", sys.modules[__name__])
    out = {"tables": {}, "values": {}, "figures": {}}
    where = {}
    for path in declaration_files(root):
        spec = importlib.util.spec_from_file_location("wb_report_" + os.path.basename(os.path.dirname(path)), path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for kind, attr in (("tables", "TABLES"), ("values", "VALUES"), ("figures", "FIGURES")):
            for d in getattr(mod, attr, []):
                if d.name in where:
                    raise DataError(f"{path}: the name {d.name!r} is also declared in {where[d.name]}")
                where[d.name] = path
                d.origin = path
                out[kind][d.name] = d
    return out


# ----------------------------------------------------------------------------------------------
# README blocks and values
TABLE_RE = re.compile(r"(<!-- wb:table (\S+) -->\n)(.*?)(<!-- /wb:table -->)", re.S)
VALUE_RE = re.compile(r"(<!-- wb:value (\S+) -->)(.*?)(<!-- /wb:value -->)", re.S)


def readmes(root=ROOT):
    return ([os.path.join(root, "README.md"), os.path.join(root, "tests", "README.md")] +
            sorted(glob.glob(os.path.join(root, "chapters", "*", "README.md"))))


def update_diagrams(root, build):
    """Redraw the chapters' diagrams from their CPU models (the target update_diagrams), if there is
    a configured build; the pictures are C++ programs, so without one say how instead."""
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        print(f"diagrams: no configured build in {os.path.relpath(build, root)}; configure one "
              "(cmake --preset default) and run `cmake --build build --target update_diagrams`")
        return 0
    return subprocess.call(["cmake", "--build", build, "--target", "update_diagrams"])


def regenerate(text, decl, data_dir, path, used):
    def table(m):
        name = m.group(2)
        if name not in decl["tables"]:
            raise DataError(f"{path}: the table {name!r} is declared in no report.py")
        used.add(name)
        return m.group(1) + decl["tables"][name].render(data_dir) + "\n" + m.group(4)

    def value(m):
        name = m.group(2)
        if name not in decl["values"]:
            raise DataError(f"{path}: the value {name!r} is declared in no report.py")
        used.add(name)
        return m.group(1) + decl["values"][name].render(data_dir) + m.group(4)

    return VALUE_RE.sub(value, TABLE_RE.sub(table, text))


def process_readmes(decl, data_dir, root, write):
    """Regenerate every README; write it (update) or return the diffs (check)."""
    diffs, used = [], set()
    for path in readmes(root):
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new = regenerate(old, decl, data_dir, os.path.relpath(path, root), used)
        if new != old:
            rel = os.path.relpath(path, root)
            if write:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
                print(f"updated {rel}")
            else:
                diffs.append("".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                          rel, rel + " (generated)")))
    return diffs, used


# ----------------------------------------------------------------------------------------------
# Figures (matplotlib is imported only here)
def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def meta_of(gpu_dir, gpu, csv=None):
    """meta.json's gpu, cuda and date; "dates" maps a CSV timed in a later run to that run's date."""
    path = os.path.join(gpu_dir, "meta.json")
    meta = {"gpu": gpu, "cuda": "?", "date": "?"}
    if os.path.exists(path):
        with open(path) as f:
            meta.update(json.load(f))
    if csv and csv in meta.get("dates", {}):
        meta["date"] = meta["dates"][csv]
    return meta


def stamp(fig, metas, title):
    who = "; ".join(f"{m['gpu']}, CUDA {m['cuda']}, {m['date']}" for m in metas)
    fig.suptitle(f"{title}\n{who}", fontsize=11)


def panels(n):
    fig, axes = _plt().subplots(1, n, figsize=FIGSIZE, dpi=DPI, squeeze=False)
    return fig, list(axes[0])


TAB10 = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:gray",
         "tab:olive", "tab:cyan"]


def _color(name, colors, default="tab:blue"):
    for k, c in colors.items():
        if name == k or (k.endswith("*") and name.startswith(k[:-1])):
            return c
    return default


def draw_bar(ax, rows, fig):
    o = fig.opts
    x, y = o.get("x", "kernel"), o.get("y", "gbps")
    ax.bar([str(r[x]) for r in rows], [r[y] for r in rows],
           color=[_color(str(r[x]), o.get("colors", {})) for r in rows])
    for i, r in enumerate(rows):
        ax.text(i, r[y], f"{r[y]:.0f}", ha="center", va="bottom", fontsize=8)
    ax.set_ylabel(o.get("ylabel", "GB/s (read + write, GB = 1e9)"))
    if o.get("subtitle"):
        ax.set_title(o["subtitle"].format(**rows[0]), fontsize=9)
    # slanted names end under their own bar (right-aligned, rotated about that end), so that a long
    # name does not run into its neighbour's
    ax.tick_params(axis="x", labelsize=8)
    _plt().setp(ax.get_xticklabels(), rotation=30, ha="right", rotation_mode="anchor")


def draw_lines(ax, rows, fig):
    o = fig.opts
    x, y, series = o.get("x", "size"), o.get("y", "gbps"), o.get("series", "kernel")
    refs = o.get("references", {})
    xs_in_order = list(dict.fromkeys(r[x] for r in rows))
    pos = (lambda v: v) if o.get("logx") else (lambda v: xs_in_order.index(v))
    # Solid lines take the tab10 colours that no dashed reference line uses (gray counts as
    # tab:gray), in order; past the last colour they start again with square markers.
    taken = {{"gray": "tab:gray", "grey": "tab:gray"}.get(c, c) for c in refs.values()}
    palette = [c for c in TAB10 if c not in taken]
    n_solid = 0
    for k in dict.fromkeys(r[series] for r in rows):
        pts = [(pos(r[x]), r[y]) for r in rows if r[series] == k]
        ref = _color(str(k), refs, None)
        if ref:
            style = {"linestyle": "--", "linewidth": 2.2, "color": ref}
        else:
            style = {"marker": "os"[n_solid // len(palette) % 2], "color": palette[n_solid % len(palette)]}
            n_solid += 1
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=k, **style)
    if o.get("logx"):
        ax.set_xscale("log", base=2)
        ticks = sorted(xs_in_order)
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"{int(t)}" for t in ticks], fontsize=8)
    else:
        labels = [f"2^{int(round(math.log2(v)))}" if o.get("xticks") == "log2" and isinstance(v, int) and v > 0
                  else str(v) for v in xs_in_order]
        ax.set_xticks(range(len(xs_in_order)))
        ax.set_xticklabels(labels, fontsize=8)
    ax.set_xlabel(o.get("xlabel", x))
    ax.set_ylabel(o.get("ylabel", "GB/s (read + write, GB = 1e9)"))
    ax.legend(fontsize=7, ncol=o.get("legend_cols", 2))
    ax.grid(alpha=0.3)


def draw_figure(fig_decl, data_dir, gpus, out_dir):
    """Draw one declared figure from the GPUs that have its CSV; returns the PNG path or None."""
    present = [g for g in gpus if os.path.exists(os.path.join(data_dir, g, fig_decl.csv))]
    if not present:
        return None
    for g in present:  # refuse a table that lacks a column before drawing anything
        numeric = fig_decl.opts.get("numeric", [fig_decl.opts.get("y", "gbps")] if fig_decl.kind in ("bar", "lines") else [])
        read_csv(os.path.join(data_dir, g, fig_decl.csv), fig_decl.columns, numeric)
    out = os.path.join(out_dir, fig_decl.name + ".png")
    plt = _plt()
    if fig_decl.kind == "figure":
        fig_decl.opts["draw"](data_dir, present, out, fig_decl.title)
        return out
    fig, axes = panels(len(present))
    metas = []
    for ax, g in zip(axes, present):
        gdir = os.path.join(data_dir, g)
        rows = read_csv(os.path.join(gdir, fig_decl.csv), fig_decl.columns)
        if fig_decl.opts.get("where"):
            rows = [r for r in rows if fig_decl.opts["where"](r)]
        if fig_decl.kind == "bar":
            draw_bar(ax, rows, fig_decl)
        elif fig_decl.kind == "lines":
            draw_lines(ax, rows, fig_decl)
        elif fig_decl.kind == "panel":
            fig_decl.opts["draw"](ax, rows, gdir)
        else:
            raise DataError(f"{fig_decl.origin}: figure {fig_decl.name}: unknown kind {fig_decl.kind!r}")
        metas.append(meta_of(gdir, g, fig_decl.csv))
        if len(present) > 1:  # the GPU's name heads its panel, above the figure's subtitle if any
            ax.set_title("\n".join(t for t in (metas[-1]["gpu"], ax.get_title()) if t), fontsize=9)
    stamp(fig, metas, fig_decl.title)
    fig.tight_layout()
    fig.savefig(out, dpi=DPI)
    plt.close(fig)
    return out


def draw_all(decl, data_dir, gpus, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    written, missing = [], []
    for f in decl["figures"].values():
        out = draw_figure(f, data_dir, gpus, out_dir)
        (written.append(out) if out else missing.append(f.name))
    for w in written:
        print(f"wrote {w}")
    # A figure whose table another script writes (made_by=..., e.g. a chapter's gpu_extras.sh, which
    # scripts/gpu_check.sh runs) is not the workbook run's to draw: say where it comes from. Only a
    # figure whose table the run should have written and did not is reported as missing.
    elsewhere = [f for f in missing if decl["figures"][f].opts.get("made_by")]
    for f in elsewhere:
        print(f"{f}: its table comes from {decl['figures'][f].opts['made_by']} (scripts/gpu_check.sh runs it), "
              "not from this run; the committed figure is plots/" + f + ".png")
    if len(elsewhere) < len(missing):
        print("no data for: " + ", ".join(f for f in missing if f not in elsewhere))
    return written


def gpus_of(data_dir, which):
    present = sorted(d for d in os.listdir(data_dir) if os.path.isdir(os.path.join(data_dir, d)))
    if which in (None, "all"):
        return present
    if which not in present:
        raise DataError(f"{data_dir}: no folder {which!r} (there are: {', '.join(present) or 'none'})")
    return [which]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 with a diff when a README block differs")
    mode.add_argument("--update", action="store_true", help="rewrite every README block, redraw every figure")
    mode.add_argument("--list", action="store_true", help="list the declarations")
    p.add_argument("--data-dir", default=DEFAULT_DATA)
    p.add_argument("--out-dir", default=HERE)
    p.add_argument("--root", default=ROOT, help="the workbook's top folder (READMEs, chapters/)")
    p.add_argument("--gpu", default=None, help="a folder under DATA_DIR, or 'all' (default: all)")
    p.add_argument("--no-figures", action="store_true", help="with --update: the READMEs only")
    p.add_argument("--build", default=None, help="with --update: the build whose diagram programs redraw "
                   "chapters/*/diagrams/ (default: ROOT/build)")
    o = p.parse_args(argv)
    try:
        decl = load_declarations(o.root)
        if o.list:
            for kind in ("tables", "values", "figures"):
                for name, d in decl[kind].items():
                    print(f"{kind[:-1]:6} {name:40} {d.csv:32} {os.path.relpath(d.origin, o.root)}")
            return 0
        if o.check or o.update:
            diffs, used = process_readmes(decl, o.data_dir, o.root, write=o.update)
            if o.check:
                for d in diffs:
                    sys.stdout.write(d)
                unused = sorted((set(decl["tables"]) | set(decl["values"])) - used)
                if unused:
                    print("declared but quoted in no README (fine, but check): " + ", ".join(unused))
                n = len(used)
                if diffs:
                    print(f"readme.tables: {len(diffs)} README(s) differ from the CSVs; "
                          "run `python3 plots/plot_timings.py --update`")
                    return 1
                print(f"readme.tables: {n} generated tables and values are current")
                return 0
            if o.no_figures:
                return 0
            if update_diagrams(o.root, o.build or os.path.join(o.root, "build")) != 0:
                return 1
        if not os.path.isdir(o.data_dir):
            raise DataError(f"{o.data_dir}: no such folder")
        gpus = gpus_of(o.data_dir, o.gpu or "all")
        if not gpus:
            print(f"plot_timings: no GPU folders in {o.data_dir}", file=sys.stderr)
            return 2
        draw_all(decl, o.data_dir, gpus, o.out_dir)
    except DataError as e:
        print(f"plot_timings: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
