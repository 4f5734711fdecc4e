"""Chapter 07's measured tables and quoted numbers (format: plots/plot_timings.py).
cache_config: cudaFuncSetCacheConfig and the shared-memory carveout on three transposes."""
from plot_timings import Col, Table, Value

CC = "cache_config.csv"
CC_GPU = "h100"
CC_KEY = ("kernel", "api", "setting")


def cc(kernel, api, setting, field):
    return lambda q: q(kernel=kernel, api=api, setting=setting)[field]


TABLES = globals().get("TABLES", []) + [  # after any declarations above in this file
    Table("cache_config.table.h100", CC, gpu=CC_GPU, key=CC_KEY, where=lambda r: True,
          columns=[Col("kernel", "`{kernel}`", "l"), Col("set with", "{api}", "l"), Col("value", "{setting}", "l"),
                   Col("blocks/SM (occupancy API)", "{blocks_per_sm_api}"),
                   Col("blocks/SM (seen resident)", "{blocks_per_sm_seen}"),
                   Col("time (ms)", "{time_ms:.4f}"), Col("GB/s", "{gbps:.0f}")]),
]

VALUES = globals().get("VALUES", []) + [  # after any declarations above in this file
    Value("cache_config.smem_default_gbps.h100", CC, cc("transposeSmem", "none", "default", "gbps"), "{:.0f}", gpu=CC_GPU),
    Value("cache_config.smem_carveout0_gbps.h100", CC, cc("transposeSmem", "carveout", "0", "gbps"), "{:.0f}", gpu=CC_GPU),
    Value("cache_config.smem_carveout0_ratio.h100", CC,
          lambda q: cc("transposeSmem", "carveout", "0", "gbps")(q) / cc("transposeSmem", "none", "default", "gbps")(q),
          "{:.2f}×", gpu=CC_GPU),
    Value("cache_config.smem_carveout0_blocks.h100", CC, cc("transposeSmem", "carveout", "0", "blocks_per_sm_seen"), "{}",
          gpu=CC_GPU),
    Value("cache_config.preferl1_api.h100", CC, cc("transposeSmem", "cudaFuncSetCacheConfig", "PreferL1", "blocks_per_sm_api"),
          "{}", gpu=CC_GPU),
    Value("cache_config.preferl1_seen.h100", CC, cc("transposeSmem", "cudaFuncSetCacheConfig", "PreferL1", "blocks_per_sm_seen"),
          "{}", gpu=CC_GPU),
    Value("cache_config.readcol_spread.h100", CC,
          lambda q: (min(r["gbps"] for r in q.rows(where=lambda r: r["kernel"] == "naiveGmemReadCol")),
                     max(r["gbps"] for r in q.rows(where=lambda r: r["kernel"] == "naiveGmemReadCol"))),
          "{:.0f} to {:.0f}", gpu=CC_GPU),
    Value("cache_config.naive_spread.h100", CC,
          lambda q: (min(r["gbps"] for r in q.rows(where=lambda r: r["kernel"] == "naiveGmem")),
                     max(r["gbps"] for r in q.rows(where=lambda r: r["kernel"] == "naiveGmem"))),
          "{:.0f} to {:.0f}", gpu=CC_GPU),
]
