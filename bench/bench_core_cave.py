"""The compiled Magnetic Cave kernel against the pure-Python one (``ai.fast.magnetic_cave.CaveKernel``).

    python bench/bench_core_cave.py rate [--positions 12] [--depth 5]
    python bench/bench_core_cave.py depth [--positions 10] [--seconds 3]
    python bench/bench_core_cave.py solver [--positions 10] [--empties 22]

*rate*: nodes per CPU second of the same PVS (iterative deepening to ``--depth``, fresh table) on the same
mid-game positions, the Python search (``ai.search._Run``) on CaveKernel against the compiled search on the
compiled kernel; the two must return the same values (checked).

*depth*: the depth each completes in ``--seconds`` from the same positions, driven like ``PVSEngine``: the
kernel's ``make_run`` (the endgame solver in front) and a ``Budget`` with that time, one iteration after
another until the clock stops one.

Positions: 10-30 plies into games of a careful random player (it wins when it can, blocks a single threat
and avoids opening one for the opponent), seeded, so the same on every machine.
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ai.core as core  # noqa: E402
from ai.base import Limits, SearchAborted, gc_paused  # noqa: E402
from ai.evaluators.magnetic_cave import ThreatEvaluator  # noqa: E402
from ai.fast.magnetic_cave import CaveKernel  # noqa: E402
from ai.search import Budget, _Run  # noqa: E402
from ai.transposition import TranspositionTable  # noqa: E402
from rules.magnetic_cave import CaveState, MagneticCave, completes_five  # noqa: E402

GAME = MagneticCave()


def careful_positions(count: int, seed: int, low: int = 10, high: int = 30) -> list[CaveState]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.initial_state()
        for _ in range(rng.randint(low, high)):
            if GAME.is_terminal(state):
                break
            moves = GAME.legal_moves(state)
            afters = [GAME.apply(state, move) for move in moves]
            wins = [after for after in afters if after.winner is not None]
            safe = [after for after in afters if not GAME.is_terminal(after) and not wins_now(after)]
            state = wins[0] if wins else rng.choice(safe or afters)
        if not GAME.is_terminal(state) and not wins_now(state):
            found.append(state)
    return found


def wins_now(state: CaveState) -> bool:
    mine = state.black if state.to_move == 0 else state.white
    return any(completes_five(mine | 1 << move, move) for move in GAME.legal_moves(state))


def compiled_kernel():
    from ai.core.kernels import CompiledCaveKernel

    return CompiledCaveKernel(GAME, ThreatEvaluator())


def rate(positions: list[CaveState], depth: int) -> dict:
    python, compiled = CaveKernel(GAME, ThreatEvaluator()), compiled_kernel()
    totals = {"python": [0, 0.0], "compiled": [0, 0.0]}
    table = compiled.new_table(64)
    for state in positions:
        run = _Run(python, TranspositionTable(1_000_000), Budget(None, None), 256)
        root = python.encode(state)
        started = time.process_time()
        with gc_paused():
            expected = [run.root(root, d)[0] for d in range(1, depth + 1)]
        totals["python"][0] += run.nodes
        totals["python"][1] += time.process_time() - started
        table.clear()  # one table for all, as an engine keeps its own: a fresh one would time the page faults
        crun = core.module().CaveRun(compiled.core, table)
        root = compiled.encode(state)
        started = time.process_time()
        got = [crun.root(root, d)[0] for d in range(1, depth + 1)]
        totals["compiled"][0] += crun.nodes
        totals["compiled"][1] += time.process_time() - started
        if got != expected:
            raise SystemExit(f"values differ on {GAME.to_text(state)}: {got} against {expected}")
    result = {name: {"nodes": n, "cpu_seconds": round(s, 3), "nodes_per_second": round(n / s)}
              for name, (n, s) in totals.items()}
    result["ratio"] = round(result["compiled"]["nodes_per_second"] / result["python"]["nodes_per_second"], 1)
    return result


def timed_depth(kernel, state: CaveState, seconds: float) -> tuple[int, int]:
    """(depth completed, nodes) in ``seconds``, iterations driven as PVSEngine drives them."""
    budget = Budget(Limits(time=seconds), None)
    table = kernel.new_table(64) if hasattr(kernel, "new_table") else TranspositionTable(1_000_000)
    run = kernel.make_run(table, budget, 256)
    root = kernel.encode(state)
    completed = 0
    with gc_paused():  # as PVSEngine.search
        for depth in range(1, 200):
            try:
                _, _, resolved = run.root(root, depth)
            except SearchAborted:
                break
            completed = depth
            if resolved:
                break
    return completed, run.nodes


def depth(positions: list[CaveState], seconds: float) -> dict:
    python, compiled = CaveKernel(GAME, ThreatEvaluator()), compiled_kernel()
    rows = []
    for state in positions:
        p_depth, p_nodes = timed_depth(python, state, seconds)
        c_depth, c_nodes = timed_depth(compiled, state, seconds)
        rows.append({"position": GAME.to_text(state), "python": p_depth, "compiled": c_depth,
                     "gain": c_depth - p_depth, "python_nodes": p_nodes, "compiled_nodes": c_nodes})
        print(f"  python {p_depth:2d}  compiled {c_depth:2d}  ({p_nodes} / {c_nodes} nodes)", flush=True)
    gains = [row["gain"] for row in rows]
    return {"seconds": seconds, "positions": rows, "min_gain": min(gains), "median_gain": statistics.median(gains),
            "python_median": statistics.median(r["python"] for r in rows),
            "compiled_median": statistics.median(r["compiled"] for r in rows)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["rate", "depth"])
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    if core.module() is None:
        raise SystemExit(f"no compiled core: {core.status().why}")
    positions = careful_positions(args.positions, args.seed)
    if args.mode == "rate":
        result = rate(positions, args.depth)
    else:
        result = depth(positions, args.seconds)
    result["machine"] = f"{platform.machine()} {platform.python_version()}"
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
