"""Oware endgame tables: build time, passes, size and memory per layer, and lookups per second.

    python bench/bench_oware_tables.py build --seeds 16 [--folder DIR] [--threads 2] [--grand-slam no-capture]
    python bench/bench_oware_tables.py lookups --seeds 16 --folder DIR [--count 5000000]
    python bench/bench_oware_tables.py estimate --seeds 20 --folder DIR

Each prints one JSON object per measurement (seconds are wall time on this machine); ``build`` reuses the
verified layers already in ``--folder`` and times only the ones it builds.  ``estimate`` extrapolates the
time of the layers not built from the last one built (its seconds per entry, grown by the measured growth
between the last two layers).
"""
from __future__ import annotations

import argparse
import json
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai import tables  # noqa: E402
from bench.record import add_flag, record  # noqa: E402

RECORDED = (10, 12, 14, 16, 17, 18, 19, 20)
"""The layers whose build gets a row in BENCHMARKS.md (every layer is printed)."""


def emit(**fields) -> None:
    fields.update(date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), machine=platform.node())
    print(json.dumps(fields), flush=True)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build(args) -> None:
    folder = Path(args.folder or tempfile.mkdtemp(prefix="oware-tables-"))
    variant = tables.oware_variant(args.grand_slam, not args.keep_start)
    started = time.perf_counter()
    _, built = tables.build_tables(folder, variant, args.seeds, threads=args.threads)
    total = time.perf_counter() - started
    for layer in built:
        below = sum(variant.layer_size(s) for s in range(layer.seeds + 1))
        memory = round((below + layer.entries) / 1e6, 1)  # the layers so far and the layer's dirty marks
        emit(kind="build", variant=variant.stem, seeds=layer.seeds, entries=layer.entries,
             file_bytes=layer.path.stat().st_size, seconds=round(layer.seconds, 3), passes=layer.sweeps,
             evaluated=layer.evaluated, per_second=round(layer.entries / max(layer.seconds, 1e-9)),
             evaluated_per_second=round(layer.evaluated / max(layer.seconds, 1e-9)), threads=args.threads,
             build_memory_mb=memory, all_layers_mb=round(below / 1e6, 1))
        if layer.seeds in RECORDED:
            record(args.record, "oware_tables", f"build, {layer.seeds} seeds ({layer.entries:,} boards)",
                   round(layer.seconds, 1),
                   f"s ({args.threads} threads, {layer.sweeps} passes, {layer.evaluated / layer.entries:.1f} "
                   f"evaluations a board, {layer.evaluated / max(layer.seconds, 1e-9) / 1e6:.1f} M/s; "
                   f"{memory} MB while building, {below / 1e6:.1f} MB for all layers up to it)")
    if built:
        first, last = built[0].seeds, built[-1].seeds
        emit(kind="build-run", first=first, last=last, seconds=round(total, 1), peak_rss_mb=round(peak_rss_mb(), 1))
        record(args.record, "oware_tables", f"build, layers {first}..{last}", round(total, 1),
               f"s ({args.threads} threads, peak {peak_rss_mb():.0f} MB)")


def lookups(args) -> None:
    variant = tables.oware_variant(args.grand_slam, not args.keep_start)
    loaded = tables.load_tables(args.folder, variant, max_seeds=args.seeds)
    for seeds in range(max(1, args.seeds - 4), loaded.top + 1):
        started = time.perf_counter()
        loaded.tables.benchmark_lookups(seeds, args.count)
        seconds = time.perf_counter() - started
        emit(kind="lookups", seeds=seeds, count=args.count, per_second=round(args.count / seconds),
             note="random board (each seed hashed into a house), rank, read the byte; one core")
        if seeds in (loaded.top, 14):
            record(args.record, "oware_tables", f"look-ups, {seeds} seeds", round(args.count / seconds / 1e6, 2),
                   "M/s (one core; rank a random board, read its byte)")


def estimate(args) -> None:
    """Time for the layers above the last one built in the folder, from the last two built layers' rates."""
    variant = tables.oware_variant(args.grand_slam, not args.keep_start)
    rates = {int(seeds): float(rate) for seeds, rate in (item.split("=") for item in args.rates.split(","))}
    top = max(rates)
    growth = rates[top] / rates[top - 1] if top - 1 in rates else 1.0   # seconds per entry, layer to layer
    per_entry = rates[top] / variant.layer_size(top)
    seconds = 0.0
    for seeds in range(top + 1, args.seeds + 1):
        per_entry *= growth
        seconds += per_entry * variant.layer_size(seeds)
        emit(kind="estimate", seeds=seeds, entries=variant.layer_size(seeds), seconds_so_far=round(seconds))
    record(args.record, "oware_tables", f"estimate, layers {top + 1}..{args.seeds}", round(seconds / 60),
           f"min (from the {top}-seed build, its time per board growing {growth:.2f}x a layer as measured; "
           f"{sum(variant.layer_size(s) for s in range(args.seeds + 1)) / 1e6:.1f} MB for all layers)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("build", "lookups", "estimate"))
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument("--folder", default=None)
    parser.add_argument("--grand-slam", default="no-capture", choices=tuple(tables.OWARE_SLAM_NAMES))
    parser.add_argument("--keep-start", action="store_true", help="sowing does not skip the starting house")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--count", type=int, default=5_000_000)
    parser.add_argument("--rates", default="", help="estimate: seconds of built layers, e.g. 17=100,18=260")
    add_flag(parser)
    args = parser.parse_args()
    {"build": build, "lookups": lookups, "estimate": estimate}[args.what](args)


if __name__ == "__main__":
    main()
