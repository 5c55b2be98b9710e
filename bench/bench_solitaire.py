"""Solitaire Mancala engines over seeded random deals: the share each solves within the time limit.

    python bench/bench_solitaire.py [--deals 1000] [--time 1.0] [--variants dose,lewis] [--engines a,b,...]

Solved means a win under lewis and a 46-storing line under dose (the perfect score: docs/rules/solitaire.md point 6).
For each engine and variant it prints the share of deals solved within ``--time`` seconds, the states
generated per second, and the median time per deal (deals not solved count as the full time).  Deals are
``Solitaire.initial_state(seed)`` for seeds 0..deals-1, so every run sees the same deals.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.base import Limits  # noqa: E402
from ai.registry import engines, make_engine  # noqa: E402
from bench.record import add_flag, record  # noqa: E402
from rules.solitaire import Solitaire  # noqa: E402


def bench(variant: str, engine_name: str, deals: int, seconds: float) -> tuple[float, float, float, float]:
    """(share solved, states per second, median time, mean stones stored) for one engine."""
    game = Solitaire(variant=variant)
    engine = make_engine(game, engine_name)
    solved, visited, spent, times, stored = 0, 0, 0.0, [], []
    for seed in range(deals):
        state = game.initial_state(seed=seed)
        started = time.perf_counter()
        result = engine.search(state, Limits(time=seconds))
        elapsed = time.perf_counter() - started
        ok = bool(result.info.get("solved"))
        solved += ok
        visited += result.nodes
        spent += elapsed
        times.append(elapsed if ok else max(elapsed, seconds))
        stored.append(result.score)
    return solved / deals, visited / spent, statistics.median(times), statistics.fmean(stored)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--variants", default="dose,lewis")
    parser.add_argument("--engines", default=None, help="comma-separated engine specs (default: all)")
    add_flag(parser)
    args = parser.parse_args(argv)
    names = args.engines.split(",") if args.engines else [
        info.name for info in engines(Solitaire()) if info.kind == "single-agent"]
    print(f"{args.deals} deals per variant, {args.time:g} s per deal")
    print(f"{'variant':<7} {'engine':<26} {'solved':>7} {'states/s':>9} {'median s':>9} {'mean stored':>12}")
    for variant in args.variants.split(","):
        found = {}
        for name in names:
            share, rate, median, mean = found[name] = bench(variant, name, args.deals, args.time)
            print(f"{variant:<7} {name:<26} {share:7.1%} {rate:9.0f} {median:9.3f} {mean:12.1f}", flush=True)
        reference = found.get("heuristic-dfs")
        for name, (share, rate, median, mean) in found.items():
            yardstick, ratio = "none", None
            if reference is not None and name != "heuristic-dfs":
                yardstick = (f"heuristic-dfs in the same run: {reference[0]:.1%}, median {reference[2]:.3f} s "
                             "(median-time ratio)")
                ratio = reference[2] / median
            record(args.record, "solitaire", f"{name}, {variant}, {args.deals} deals, solved within {args.time:g} s",
                   round(100 * share, 1), f"% ({rate:,.0f} states/s, median {median:.3f} s, mean stored {mean:.1f})",
                   target=f"99% within {args.time:g} s (the best engine)", yardstick=yardstick, ratio=ratio)
    return 0


if __name__ == "__main__":
    sys.exit(main())
