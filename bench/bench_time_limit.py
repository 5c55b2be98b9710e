"""Is the time limit kept under load?  Every computer move, timed from the moment it is requested.

Starts ``--load`` busy processes (a plain ``while True`` loop each, at normal priority: on a 2-core machine 4 of
them make a load of about 4), then plays moves in every two-player game (Kalah, Oware, Hus, Magnetic Cave) with
every preset of the game (Easy..Strongest, Kalah's Perfect) and MCTS, and Solitaire's Watch steps, in every mode
a player meets:

- ``console``: what the text console and a tournament game (``ai.game_play``) do: the request's clock starts,
  the engine is built (the console builds one a move), and ``engine.search`` runs in the caller's thread;
- ``worker``: the window's background worker (``ai.worker.SearchWorker``): the clock starts, the engine is
  built, the worker started, and the move is the instant its ``Finished`` message is posted;
- ``tournament``: one game of ``ai.game_play.play_game`` between two engines, its own per-move times.

A move's *overrun* is its time from request to move minus its limit; the target is at most 10 ms.  Each
(game, preset) starts with the endgame tables and Kalah's opening proofs dropped from memory
(``ai.tables.forget``, ``ai.kalah_proofs.forget``), so its first move pays for loading them if anything does, as
a player's first move does.  Positions are the start and positions after random plies (seeded), so openings,
middlegames and endgames (tables, the prover, the cave's solver) all come up.

    python bench/bench_time_limit.py                 # 2-4 minutes: load 4, 8 moves of 0.5 s per case
    python bench/bench_time_limit.py --record        # also write bench/results/time_limit.json
    python bench/bench_time_limit.py --quick         # a short run for development (about a minute)

Then ``python tools/benchmarks.py`` renders BENCHMARKS.md from the record.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import kalah_proofs, registry  # noqa: E402
from ai import tables as endgame_tables  # noqa: E402
from ai.base import CancelToken, Limits  # noqa: E402
from ai.game_play import GameTask, play_game  # noqa: E402
from ai.worker import SearchWorker, fallback_result  # noqa: E402
from bench.record import add_flag  # noqa: E402
from rules import Game, State, parse_game_spec  # noqa: E402

GAMES = ("kalah", "oware", "hus", "magnetic-cave")
TARGET = 0.010
"""The most a move may overrun its limit, in seconds."""
BUSY = "while True: pass"


@dataclass
class Case:
    """The moves of one game, engine and mode: each move's limit and time from request to move."""

    game: str
    engine: str
    mode: str
    limit: float
    times: list[float] = field(default_factory=list)
    parts: list[dict[str, float]] = field(default_factory=list)

    def overruns(self) -> list[float]:
        return [t - self.limit for t in self.times]


def start_load(count: int) -> list[subprocess.Popen]:
    """``count`` busy processes at normal priority (stopped by ``stop_load``)."""
    return [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(count)]


def stop_load(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.kill()
    for process in processes:
        process.wait()


def positions(game: Game, count: int, seed: int) -> list[State]:
    """The start and ``count - 1`` positions after random plies (seeded), none finished."""
    rng = random.Random(seed)
    found: list[State] = [game.initial_state()]
    while len(found) < count:
        state = game.random_walk(game.initial_state(), rng, rng.randint(4, 80))
        if not game.is_terminal(state):
            found.append(state)
    return found


def console_move(game: Game, spec: str, state: State, limit: float) -> tuple[float, dict[str, float]]:
    """The console's move: the clock starts at the request; the engine is built and searches in this thread."""
    requested = time.perf_counter()
    limits = Limits.requested(limit, requested)
    engine = registry.make_engine(game, spec)
    built = time.perf_counter()
    found = engine.search(state, limits, CancelToken(limits.deadline))
    result = fallback_result(game, state, found)
    game.check_move(state, result.move)
    done = time.perf_counter()
    return done - requested, {"build": built - requested, "search": done - built}


def worker_move(game: Game, spec: str, state: State, limit: float) -> tuple[float, dict[str, float]]:
    """The window's move: the clock starts at the request; the engine is built and a worker thread searches."""
    requested = time.perf_counter()
    limits = Limits.requested(limit, requested)
    engine = registry.make_engine(game, spec)
    built = time.perf_counter()
    worker = SearchWorker(engine, state, limits)
    worker.start()
    worker.wait()
    message = worker.poll()[-1]
    result = getattr(message, "result", None)
    if result is None or result.move is None:
        raise RuntimeError(f"{spec} gave no move: {message}")
    game.check_move(state, result.move)
    ended = worker.search_ended_at or worker.finished_at or built
    return worker.finished_at - requested, {  # type: ignore[operator]
        "build": built - requested, "start": (worker.started_at or built) - built,
        "search": ended - (worker.started_at or built), "answer": worker.finished_at - ended,  # type: ignore[operator]
    }


def specs_for(game: Game, limit: float) -> dict[str, str]:
    """Every preset of the game and MCTS."""
    specs = dict(registry.presets(game))
    if game.num_players == 2:
        specs["MCTS"] = f"mcts:time={limit:g}"
    return specs


def run_cases(args: argparse.Namespace) -> list[Case]:
    cases: list[Case] = []
    modes = {"console": console_move, "worker": worker_move}
    for name in GAMES + ("solitaire",):  # the window imports every engine at start-up: so does the bench
        game = parse_game_spec(name)
        for spec in specs_for(game, args.limit).values():
            registry.make_engine(game, spec)
    for name in GAMES:
        game = parse_game_spec(name)
        states = positions(game, args.moves, seed=len(name))
        for preset, spec in specs_for(game, args.limit).items():
            for mode, move in modes.items():
                case = Case(name, preset, mode, args.limit)
                endgame_tables.forget()  # the first move pays for loading the tables and the opening proof,
                kalah_proofs.forget()    # as a player's first move does
                for state in states:
                    elapsed, parts = move(game, spec, state, args.limit)
                    case.times.append(elapsed)
                    case.parts.append(parts)
                cases.append(case)
                report(case)
        cases.append(tournament(game, args))
        report(cases[-1])
    cases.extend(solitaire_cases(args))
    return cases


def tournament(game: Game, args: argparse.Namespace) -> Case:
    """A short tournament game (``ai.game_play``) between Strongest and MCTS at the limit: its own move times."""
    specs = specs_for(game, args.limit)
    task = GameTask(0, game.spec, (specs["Strongest"], specs["MCTS"]), 0, 0, (), (None, None), args.limit,
                    max_plies=args.moves * 2)
    record = play_game(task)
    case = Case(game.name, "Strongest v MCTS", "tournament", args.limit)
    for stats in record.stats:
        if stats.moves:  # a tournament game keeps only each engine's slowest move (``MoveStats.max_time``)
            case.times.append(stats.max_time)
    if record.forfeit:
        raise RuntimeError(f"tournament game forfeited: {record.forfeit}")
    return case


def solitaire_cases(args: argparse.Namespace) -> list[Case]:
    """Solitaire's Watch steps: each preset's search of a deal within the limit (the console's ``watch``)."""
    game = parse_game_spec("solitaire")
    cases = []
    for preset, spec in registry.presets(game).items():
        case = Case("solitaire", preset, "console", args.limit)
        for state in positions(game, max(2, args.moves // 2), seed=9):
            elapsed, parts = console_move(game, spec, state, args.limit)
            case.times.append(elapsed)
            case.parts.append(parts)
        cases.append(case)
        report(case)
    return cases


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(case: Case) -> None:
    over = case.overruns()
    worst = max(range(len(over)), key=over.__getitem__) if over else 0
    parts = case.parts[worst] if case.parts else {}
    detail = " ".join(f"{key} {value * 1000:.1f}" for key, value in parts.items())
    flag = "  OVER" if over and max(over) > TARGET else ""
    print(f"{case.game:14} {case.engine:18} {case.mode:10} moves {len(over):3}  max overrun "
          f"{max(over) * 1000:7.1f} ms  p99 {percentile(over, 0.99) * 1000:7.1f} ms  (worst: {detail}){flag}",
          flush=True)


def summary(cases: list[Case], load: list[float], busy: int, seconds: float) -> dict[str, Any]:
    rows = []
    for case in cases:
        over = case.overruns()
        rows.append({"game": case.game, "engine": case.engine, "mode": case.mode, "limit": case.limit,
                     "moves": len(over), "max_overrun_ms": round(max(over) * 1000, 1),
                     "p99_overrun_ms": round(percentile(over, 0.99) * 1000, 1)})
    every = [o for case in cases for o in case.overruns()]
    return {
        "target_ms": TARGET * 1000,
        "busy_processes": busy,
        "load_average": [round(x, 2) for x in load],
        "moves": len(every),
        "max_overrun_ms": round(max(every) * 1000, 1),
        "p99_overrun_ms": round(percentile(every, 0.99) * 1000, 1),
        "over_target": sum(o > TARGET for o in every),
        "seconds": round(seconds),
        "cases": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", type=int, default=4, help="busy processes to run beside the moves (default 4)")
    parser.add_argument("--limit", type=float, default=0.5, help="seconds a move (default 0.5)")
    parser.add_argument("--moves", type=int, default=8, help="positions per game, engine and mode (default 8)")
    parser.add_argument("--quick", action="store_true", help="a short run: 3 positions, limit 0.2 s")
    parser.add_argument("--tables", default=str(Path.home() / ".config" / "stonecave" / "tables"),
                        help="the endgame tables' folder (default: a player's, ~/.config/stonecave/tables)")
    add_flag(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.moves, args.limit = 3, 0.2
    if args.load < 0 or not args.limit > 0 or args.moves < 1:
        parser.error("--load must be 0 or more, --limit above 0 seconds, --moves at least 1")
    if Path(args.tables).is_dir():
        os.environ[endgame_tables.ENV] = args.tables
    started = time.perf_counter()
    load = start_load(args.load)
    try:
        time.sleep(1.0)  # the load settles before the first move
        cases = run_cases(args)
        loadavg = list(os.getloadavg())
    finally:
        stop_load(load)
    result = summary(cases, loadavg, args.load, time.perf_counter() - started)
    print(f"\n{result['moves']} moves at load {result['load_average'][0]:.2f} ({args.load} busy processes): "
          f"max overrun {result['max_overrun_ms']} ms, p99 {result['p99_overrun_ms']} ms, "
          f"{result['over_target']} over {TARGET * 1000:g} ms")
    if args.record is not None:
        write_record(args, cases, result)
    return 0 if result["over_target"] == 0 else 1


def write_record(args: argparse.Namespace, cases: list[Case], result: dict[str, Any]) -> None:
    """One row per game and mode in bench/results/time_limit.json, and every case in its ``cases`` table."""
    import json

    from bench.record import RESULTS, record
    from guarded.files import write_atomically

    busy = f"{result['busy_processes']} busy processes beside it"
    load = f"load average {result['load_average'][0]:.1f} with {busy}"
    groups: dict[tuple[str, str], list[Case]] = {}
    for case in cases:
        groups.setdefault((case.game, case.mode), []).append(case)
    for (game, mode), members in groups.items():
        over = [o for case in members for o in case.overruns()]
        worst = max(members, key=lambda case: max(case.overruns()))
        record(args.record, "time_limit", f"{game}, {mode}: overrun of a {args.limit:g} s move ({busy})",
               f"max {max(over) * 1000:.1f} ms ({worst.engine}), p99 {percentile(over, 0.99) * 1000:.1f} ms, "
               f"{sum(o > TARGET for o in over)} of {len(over)} moves over {TARGET * 1000:g} ms ({load})",
               target=f"at most {TARGET * 1000:g} ms over the limit")
    every = [o for case in cases for o in case.overruns()]
    record(args.record, "time_limit", f"every game and mode: overrun of a {args.limit:g} s move ({busy})",
           f"max {max(every) * 1000:.1f} ms, p99 {percentile(every, 0.99) * 1000:.1f} ms, "
           f"{result['over_target']} of {len(every)} moves over {TARGET * 1000:g} ms ({load})",
           target=f"at most {TARGET * 1000:g} ms over the limit")
    path = RESULTS / "time_limit.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["time_limit_cases"] = {"load": load, "limit": args.limit, "rows": result["cases"]}
    write_atomically(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
