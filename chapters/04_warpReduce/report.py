"""Chapter 04's measured tables (format: plots/plot_timings.py).
shfl_vs_smem: one exchange through a shuffle or through shared memory."""
from plot_timings import Col, Table

SV = "shfl_vs_smem.csv"


def shfl_vs_smem(gpu):
    rows = [{"experiment": e, "warps_per_sm": w, "ilp": i, "kernel": "shfl", "what": what} for e, w, i, what in [
        ("latency", 1, 1, "latency: one warp, a dependent chain"),
        ("throughput", 1, 8, "one warp, 8 independent chains"),
        ("throughput", 64, 1, "SM full (64 warps), 1 chain each"),
        ("throughput", 64, 8, "SM full (64 warps), 8 chains each"),
    ]]

    def other(field, fmt):
        return lambda r, q: fmt.format(q(experiment=r["experiment"], warps_per_sm=r["warps_per_sm"], ilp=r["ilp"],
                                         kernel="smem")[field])

    def ratio(r, q):
        s = q(experiment=r["experiment"], warps_per_sm=r["warps_per_sm"], ilp=r["ilp"], kernel="smem")
        return f"{r['warp_exchanges_per_sm_cycle'] / s['warp_exchanges_per_sm_cycle']:.2f}×"

    return Table(f"shfl_vs_smem.table.{gpu}", SV, gpu=gpu, key=("experiment", "warps_per_sm", "ilp", "kernel"), rows=rows,
                 columns=[Col("case", "{what}", "l"),
                          Col("shfl: cycles per step", "{cycles_per_step:.1f}"),
                          Col("smem: cycles per step", other("cycles_per_step", "{:.1f}")),
                          Col("shfl: warp exchanges per SM cycle", "{warp_exchanges_per_sm_cycle:.3f}"),
                          Col("smem: warp exchanges per SM cycle", other("warp_exchanges_per_sm_cycle", "{:.3f}")),
                          Col("shfl / smem", ratio)])


# after any declarations above in this file
TABLES = globals().get("TABLES", []) + [shfl_vs_smem("h100"), shfl_vs_smem("h200")]
