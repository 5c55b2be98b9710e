"""The compiled search core against the pure-Python kernels, on the same positions, in one run.

    python bench/bench_core.py speed --game kalah [--depth 12] [--positions 6] [--rev 9a166f1]
    python bench/bench_core.py depth --game kalah [--seconds 1] [--runs 3]
    python bench/bench_core.py cancel --game kalah [--runs 40]

``speed``: each position searched to a fixed depth by the compiled core and by the pure-Python fallback
(``ai.search._Run`` over the game's Python kernel), alternating, CPU time summed per side; the scores must
agree (both are exact at a fixed depth).  With ``--rev`` the earlier commit's packed Python loop
(``KalahRun``/``OwareRun`` of ``ai/fast/<game>.py`` at that commit) is timed too: the fastest Python this
project had.  ``depth``: the depth completed from the start position in ``--seconds`` of wall time, and the whole process's
peak RSS (Hus's course limit is 500 MB).
``cancel``: how long a search takes to return after ``CancelToken.cancel()`` from another thread.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ai.core  # noqa: E402
from ai.base import CancelToken, Limits  # noqa: E402
from ai.fast import kernel_for  # noqa: E402
from ai.search import PVSEngine, new_table  # noqa: E402
from bench.record import add_flag, game_label, record  # noqa: E402
from rules import parse_game_spec  # noqa: E402


DEPTH_TARGETS = {
    "kalah": "depth 20 in 1 s, >= 8 M nodes/s",
    "oware": "depth 18 in 1 s, >= 5 M nodes/s",
    "hus": "depth 10 in 2 s, < 500 MB",
}
"""The compiled core's targets for the depth completed from the start (the issue's figures)."""


def positions(game, count: int, seed: int) -> list:
    """The start and ``count - 1`` positions from random openings of 4..20 plies."""
    rng = random.Random(seed)
    found = [game.initial_state()]
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(4, 21)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found


def engine_on(game, depth: int | None, compiled: bool, time_limit: float | None = None,
              memory: float | None = None) -> PVSEngine:
    engine = PVSEngine(game, time=time_limit, depth=depth, **({} if memory is None else {"memory": memory}))
    engine.kernel = kernel_for(game, engine.evaluator, compiled=compiled)
    engine.table = new_table(engine.kernel, engine.memory)
    return engine


def earlier_engine(game, depth: int, rev: str) -> PVSEngine:
    """An engine whose Python kernel runs the packed loop of ``ai/fast/<game>.py`` at commit ``rev``."""
    from tools.revisions import load_earlier

    module = load_earlier(game.name, rev)
    kernel_class = {"kalah": "KalahKernel", "oware": "OwareKernel"}[game.name]
    engine = PVSEngine(game, time=None, depth=depth)
    engine.kernel = getattr(module, kernel_class)(game, engine.evaluator)
    from ai.transposition import TranspositionTable

    engine.table = TranspositionTable(1_000_000)
    return engine


def speed(args) -> None:
    game = parse_game_spec(args.game)
    sides = {"compiled": lambda: engine_on(game, args.depth, True), "python": lambda: engine_on(game, args.depth, False)}
    if args.rev:
        sides[f"packed@{args.rev}"] = lambda: earlier_engine(game, args.depth, args.rev)
    totals = {name: [0, 0.0] for name in sides}
    for state in positions(game, args.positions, args.seed):
        scores = {}
        for name, make in sides.items():
            engine = make()
            started = time.process_time()
            result = engine.search(state, Limits())
            totals[name][0] += result.nodes
            totals[name][1] += time.process_time() - started
            scores[name] = result.score
        if len(set(scores.values())) != 1:
            sys.exit(f"scores differ on {game.to_text(state)}: {scores}")
    print(f"{game.spec}, depth {args.depth}, {args.positions} positions (seed {args.seed}); core: "
          f"{ai.core.status().describe()}")
    base = totals["compiled"][0] / totals["compiled"][1]
    for name, (nodes, seconds) in totals.items():
        rate = nodes / seconds
        print(f"  {name:<22} {nodes:>12,} nodes {seconds:8.3f} CPU s {rate / 1e6:8.3f} M nodes/CPU-s"
              f"   compiled is {base / rate:6.1f}x")
    python = totals["python"][0] / totals["python"][1]
    yardstick = f"the pure-Python fallback, {python / 1e6:.3g} M"
    if args.rev:
        packed = totals[f"packed@{args.rev}"][0] / totals[f"packed@{args.rev}"][1]
        yardstick += f" (the packed@{args.rev} loop: {packed / 1e6:.3g} M, {base / packed:.1f}x)"
    record(args.record, "core", f"{game_label(game)} nodes per CPU-s, depth {args.depth}, {args.positions} positions",
           round(base / 1e6, 2), "M", target=">= 15x the fallback", yardstick=yardstick, ratio=base / python)


def depth(args) -> None:
    game = parse_game_spec(args.game)
    depths, partials, rates = [], [], []
    for run in range(args.runs):
        engine = engine_on(game, None, not args.python, time_limit=args.seconds, memory=args.memory)
        started = time.perf_counter()
        result = engine.search(game.initial_state(), Limits())
        wall = time.perf_counter() - started
        print(f"{game.spec} run {run + 1}: depth {result.depth} completed"
              f" (cut-short iteration {result.info.get('partial_depth', '-')}), {result.nodes:,} nodes in {wall:.3f} s,"
              f" {result.nodes / wall / 1e6:.2f} M nodes/s, core {result.info.get('core')}")
        depths.append(result.depth)
        partials.append(result.info.get("partial_depth"))
        rates.append(result.nodes / wall / 1e6)
    print(f"  whole-process RSS: peak {peak_rss_mb():.0f} MB (table {engine.memory:g} MB)")
    deepest = max(depths)
    cut = sum(partial is not None for partial in partials)
    value = (f"depth {deepest} in {depths.count(deepest)} of {args.runs}"
             + (f" ({deepest + 1} cut short in {cut})" if cut else "")
             + f", {min(rates):.1f}-{max(rates):.1f} M nodes/s, peak RSS {peak_rss_mb():.0f} MB")
    core = "pure-Python kernel" if args.python else "compiled core"
    memory = f", {args.memory:g} MB table" if args.memory else ""
    record(args.record, "core", f"{game_label(game)} from the start, {args.seconds:g} s of wall time{memory}"
           + (f" ({core})" if args.python else ""), value, target=DEPTH_TARGETS.get(game.name, "none"))


def peak_rss_mb() -> float:
    """The process's peak resident set in MB (Linux reports ``ru_maxrss`` in kB, macOS in bytes)."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def cancel(args) -> None:
    game = parse_game_spec(args.game)
    rng = random.Random(args.seed)
    latencies, stops = [], []
    for _ in range(args.runs):
        engine = engine_on(game, 60, not args.python)
        runs = []
        make_run = getattr(engine.kernel, "make_run", None)
        if make_run is not None:  # keep the compiled run to read when its loop saw the flag
            engine.kernel.make_run = lambda *a, **k: runs.append(make_run(*a, **k)) or runs[-1]
        token = CancelToken()
        thread = threading.Thread(target=engine.search, args=(game.initial_state(), Limits(), token))
        thread.start()
        time.sleep(rng.uniform(0.02, 0.2))
        cancelled = time.perf_counter()
        token.cancel()
        thread.join()
        latencies.append(time.perf_counter() - cancelled)
        if runs and runs[-1].run.aborted_at is not None:
            stops.append(runs[-1].run.aborted_at - cancelled)

    def summary(values: list[float]) -> str:
        values = sorted(values)
        return (f"median {statistics.median(values) * 1e3:.3f} ms, 90% {values[int(0.9 * len(values))] * 1e3:.3f} ms,"
                f" max {values[-1] * 1e3:.3f} ms")

    core = "python" if args.python else "compiled"
    print(f"{game.spec} ({core} core), {args.runs} searches cancelled from another thread:")
    if stops:
        print(f"  cancel() to the search loop seeing it (in C): {summary(stops)}")
    print(f"  cancel() to search() returned in its thread (scheduling included): {summary(latencies)}")
    if stops:
        record(args.record, "core", f"cancel() from another thread to the C loop seeing it, {args.runs} "
               f"{game_label(game)} searches", short(stops), target="within 1 ms")
    record(args.record, "core", f"cancel() to search() returned in its thread, {args.runs} {game_label(game)} "
           f"searches on the {core} core", short(latencies))


def short(values: list[float]) -> str:
    """'median 0.020 ms, max 0.057 ms' of latencies in seconds."""
    return f"median {statistics.median(values) * 1e3:.3f} ms, max {max(values) * 1e3:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("speed", "depth", "cancel"))
    parser.add_argument("--game", default="kalah")
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rev", help="also time this commit's packed Python loop (kalah, oware)")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--memory", type=float, help="depth: the table's MB (default: the engine's)")
    parser.add_argument("--python", action="store_true", help="depth/cancel on the pure-Python kernel")
    add_flag(parser)
    args = parser.parse_args()
    {"speed": speed, "depth": depth, "cancel": cancel}[args.mode](args)


if __name__ == "__main__":
    main()
