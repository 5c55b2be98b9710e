"""The compiled Magnetic Cave kernel against the pure-Python one (``ai.fast.magnetic_cave.CaveKernel``).

    python bench/bench_core_cave.py rate [--positions 12] [--depth 5]
    python bench/bench_core_cave.py depth [--positions 10] [--seconds 3]
    python bench/bench_core_cave.py solver [--positions 20] [--empties 22] [--python-empties 18]

*rate*: nodes per CPU second of the same PVS (iterative deepening to ``--depth``, fresh table) on the same
mid-game positions, the Python search (``ai.search._Run``) on CaveKernel against the compiled search on the
compiled kernel; the two must return the same values (checked).

*depth*: the depth each completes in ``--seconds`` from the same positions, driven like ``PVSEngine``: the
kernel's ``make_run`` (the endgame solver in front) and a ``Budget`` with that time, one iteration after
another until the clock stops one.

*solver*: the exact endgame solver's proof of a position (is it a win? if not, can the tie be held?, the two
null-window questions ``EndgameRun`` asks first), the compiled solver on ``--empties`` empty cells (fresh
table each), and both solvers on ``--python-empties`` (the Python one is too slow at 22), with the values
checked to agree.  Positions: games of the careful random player stopped at that many empty cells.

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
from bench.record import add_flag, record  # noqa: E402
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


def late_positions(count: int, empty: int, seed: int) -> list[CaveState]:
    """Undecided positions with ``empty`` empty cells from games of the careful random player."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.initial_state()
        while not GAME.is_terminal(state) and 64 - (state.black | state.white).bit_count() > empty:
            afters = [GAME.apply(state, move) for move in GAME.legal_moves(state)]
            wins = [after for after in afters if after.winner is not None]
            safe = [after for after in afters if not GAME.is_terminal(after) and not wins_now(after)]
            state = wins[0] if wins else rng.choice(safe or afters)
        if not GAME.is_terminal(state):
            found.append(state)
    return found


def prove(solver, mine: int, theirs: int) -> int:
    """The two questions EndgameRun asks first: a win?  If not, a tie held?  (+1, 0 or -1)"""
    if solver.solve(mine, theirs, 0, 1)[0] >= 1:
        return 1
    return 0 if solver.solve(mine, theirs, -1, 0)[0] >= 0 else -1


def solver(count: int, empties: int, python_empties: int, seed: int) -> dict:
    from ai.cave_endgame import EndgameSolver
    from ai.core.kernels import CompiledEndgameSolver

    def sides(state: CaveState) -> tuple[int, int]:
        return (state.black, state.white) if state.to_move == 0 else (state.white, state.black)

    compiled_times, values = [], []
    for state in late_positions(count, empties, seed):
        compiled = CompiledEndgameSolver(table=core.module().EndgameTable(48))
        started = time.perf_counter()
        values.append(prove(compiled, *sides(state)))
        compiled_times.append(time.perf_counter() - started)
        print(f"  {empties} empty: {compiled_times[-1]:.3f} s, {compiled.nodes} nodes, value {values[-1]}", flush=True)
    both = {"python": [0.0, 0], "compiled": [0.0, 0]}
    for state in late_positions(count, python_empties, seed + 1):
        found = []
        for name, made in (("python", EndgameSolver()),
                           ("compiled", CompiledEndgameSolver(table=core.module().EndgameTable(48)))):
            started = time.perf_counter()
            found.append(prove(made, *sides(state)))
            both[name][0] += time.perf_counter() - started
            both[name][1] += made.nodes
        if found[0] != found[1]:
            raise SystemExit(f"the solvers disagree on {GAME.to_text(state)}: {found}")
    return {
        "empties": empties, "positions": count, "values": {v: values.count(v) for v in (1, 0, -1)},
        "compiled_median_seconds": round(statistics.median(compiled_times), 3),
        "compiled_max_seconds": round(max(compiled_times), 3),
        "within_1_5_s": sum(t <= 1.5 for t in compiled_times),
        f"at_{python_empties}": {name: {"seconds": round(t, 3), "nodes": n} for name, (t, n) in both.items()},
        f"ratio_at_{python_empties}": round(both["python"][0] / both["compiled"][0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["rate", "depth", "solver"])
    parser.add_argument("--empties", type=int, default=22)
    parser.add_argument("--python-empties", type=int, default=18)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=2024)
    add_flag(parser)
    args = parser.parse_args()
    if core.module() is None:
        raise SystemExit(f"no compiled core: {core.status().why}")
    if args.mode == "solver":
        result = solver(args.positions, args.empties, args.python_empties, args.seed)
    elif args.mode == "rate":
        result = rate(careful_positions(args.positions, args.seed), args.depth)
    else:
        result = depth(careful_positions(args.positions, args.seed), args.seconds)
    result["machine"] = f"{platform.machine()} {platform.python_version()}"
    print(json.dumps(result, indent=1))
    keep(args, result)


def keep(args, result: dict) -> None:
    """The figures of one mode for ``--record``."""
    if args.mode == "rate":
        record(args.record, "core", f"Magnetic Cave nodes per CPU-s, depth {args.depth}, {args.positions} positions",
               round(result["compiled"]["nodes_per_second"] / 1e6, 2), "M",
               yardstick=f"the pure-Python cave kernel, {result['python']['nodes_per_second'] / 1e6:.3g} M",
               ratio=result["ratio"])
    elif args.mode == "depth":
        record(args.record, "core", f"Magnetic Cave depth in {args.seconds:g} s, {args.positions} mid-game positions",
               f"median {result['compiled_median']:g}; gain min {result['min_gain']}, median {result['median_gain']:g}",
               target=">= 3 plies deeper", yardstick=f"the pure-Python kernel: median {result['python_median']:g}")
    else:
        python, compiled = result[f"at_{args.python_empties}"]["python"], result[f"at_{args.python_empties}"]["compiled"]
        record(args.record, "core", f"Cave endgame solver, {args.positions} positions at {args.empties} empty cells",
               f"median {result['compiled_median_seconds']:.3f} s, max {result['compiled_max_seconds']:.3f} s: "
               f"{result['within_1_5_s']} of {args.positions} within 1.5 s", target="22 empty cells within 1.5 s",
               yardstick=f"the pure-Python solver at {args.python_empties} empty cells: {python['seconds']:g} s "
                         f"against {compiled['seconds']:g} s", ratio=result[f"ratio_at_{args.python_empties}"])


if __name__ == "__main__":
    main()
