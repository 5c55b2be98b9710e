"""Adversary engine figures: search speed, depth reached, exact solver times, strength against baselines.

    python bench/bench_engines.py speed            # Kalah(6,4) / Oware / Hus / Magnetic Cave from the start
    python bench/bench_engines.py solve            # the exact solver on Kalah(3,3), (4,3), (4,4)
    python bench/bench_engines.py strength [--games 40] [--engine pvs:time=0.1] [--jobs 2]
    python bench/bench_engines.py poll             # nodes/s of PVS with the cancel token at several poll intervals

Speed: the strong engine (``pvs``, default evaluator) searches the start position for ``--seconds`` and
reports the deepest completed iteration and nodes per second (nodes = positions searched, leaves included).
Strength: ``ai.tournament.compare`` with colour-swapped pairs against ``random`` and ``greedy``.
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.base import CancelToken, Limits  # noqa: E402
from ai.registry import make_engine  # noqa: E402
from bench.record import add_flag, game_label, record  # noqa: E402
from rules import parse_game_spec  # noqa: E402

SPEED_GAMES = (("kalah", 1.0), ("oware", 1.0), ("hus", 2.0), ("magnetic-cave", 1.0))


def header() -> None:
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")


def load_average() -> str:
    """The 1-minute load average (how many processes wanted the machine's cores), or '?'."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def playout_speed(game, seconds: float = 1.0) -> float:
    """Plies per second of the rules' ``random_playout`` from the start: the same-run yardstick."""
    import random

    rng = random.Random(0)
    plies, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        plies += game.random_playout(game.initial_state(), rng)[1]
    return plies / (time.perf_counter() - started)


def speed(engine: str, seconds: float | None) -> None:
    """Nodes per second (wall clock and CPU time) and depth reached from the start, with the load average and
    the rules' random-playout speed measured in the same run (a ratio that the machine's load affects less)."""
    print("| game | engine | seconds | depth | nodes | nodes/s | nodes per CPU-second | playout plies/s | "
          "nodes/s / playout plies/s | load | best move | score |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for game_spec, default_seconds in SPEED_GAMES:
        game = parse_game_spec(game_spec)
        budget = seconds or default_seconds
        playouts = playout_speed(game) if hasattr(game, "random_playout") else 0.0
        cpu = time.process_time()
        result = make_engine(game, f"{engine}:time={budget}").search(game.initial_state())
        cpu = time.process_time() - cpu
        ratio = f"{result.nodes_per_second / playouts:.2f}" if playouts else "-"
        print(f"| {game_spec} | {engine} | {budget:g} | {result.depth} | {result.nodes} | "
              f"{result.nodes_per_second:,.0f} | {result.nodes / cpu:,.0f} | {playouts:,.0f} | {ratio} | "
              f"{load_average()} | {game.format_move(game.initial_state(), result.move)} | {result.score:+.2f} |",
              flush=True)
    for game_spec, deepest in (("kalah", 18), ("oware", 14)):
        game = parse_game_spec(game_spec)
        reached = {}

        def note(result):
            reached.setdefault(result.depth, (result.time, result.nodes))

        cpu = time.process_time()
        make_engine(game, f"{engine}:time=60,depth={deepest}").search(game.initial_state(), progress=note)
        cpu = time.process_time() - cpu
        times = ", ".join(f"{depth}: {seconds:.2f} s ({nodes:,} nodes)"
                          for depth, (seconds, nodes) in sorted(reached.items()) if depth >= deepest - 6)
        print(f"\n{game.spec} from the start, time to complete each depth: {times}; "
              f"CPU {cpu:.2f} s of {max(t for t, _ in reached.values()):.2f} s; load {load_average()}")


def solve(condition: str | None = None) -> None:
    print("| variant | value (first player's margin) | nodes | seconds |")
    print("|---|---|---|---|")
    for spec in ("kalah:pits=3,seeds=3", "kalah:pits=4,seeds=3", "kalah:pits=4,seeds=4"):
        game = parse_game_spec(spec)
        started = time.perf_counter()
        result = make_engine(game, "solver").search(game.initial_state())
        seconds = time.perf_counter() - started
        print(f"| {spec} | {result.score:+g} | {result.nodes} | {seconds:.2f} |", flush=True)
        record(condition, "engines", f"exact solver, {game_label(game)}",
               f"{result.score:+g} in {seconds:.2f} s ({result.nodes:,} nodes)",
               target="the published value (Irving, Donkers and Uiterwijk 2000)")


def strength(engine: str, games: int, jobs: int, names: list[str], condition: str | None = None) -> None:
    from ai.elo import format_elo
    from ai.tournament import compare

    print("| game | engine | opponent | games | W-D-L | score % | Elo (95%) |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        scores = []
        for opponent in ("random", "greedy"):
            result = compare(name, engine, opponent, games=games, jobs=jobs, openings=games // 4)
            summary = result.summary(0)
            elo = result.elo(0)
            print(f"| {name} | {engine} | {opponent} | {games} | {summary.wins}-{summary.draws}-{summary.losses} | "
                  f"{100 * summary.score:.1f} | {format_elo(elo.difference)} [{format_elo(elo.low)}, {format_elo(elo.high)}] |", flush=True)
            scores.append(f"{100 * summary.score:g}% ({summary.wins}-{summary.draws}-{summary.losses})")
        record(condition, "engines", f"{game_label(parse_game_spec(name))} with {engine}, {games} games, against "
               "random / greedy", " / ".join(scores), target="99% against random, 90% against greedy")


def poll(seconds: float) -> None:
    game = parse_game_spec("kalah")
    print("| poll (nodes) | nodes/s with a cancel token | nodes/s without |")
    print("|---|---|---|")
    for interval in (64, 128, 256, 512, 1024, 4096):
        engine = make_engine(game, f"pvs:time=none,poll={interval}")
        with_token = engine.search(game.initial_state(), Limits(time=seconds), CancelToken()).nodes_per_second
        engine = make_engine(game, f"pvs:time=none,poll={interval}")
        without = engine.search(game.initial_state(), Limits(time=seconds)).nodes_per_second
        print(f"| {interval} | {with_token:,.0f} | {without:,.0f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("speed", "solve", "strength", "poll"))
    parser.add_argument("--engine", default="pvs")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--game", action="append", help="games for strength (default: all four)")
    add_flag(parser)
    args = parser.parse_args()
    header()
    if args.what == "speed":
        speed(args.engine, args.seconds)
    elif args.what == "solve":
        solve(args.record)
    elif args.what == "strength":
        strength(args.engine, args.games, args.jobs, args.game or ["kalah", "oware", "hus", "magnetic-cave"],
                 args.record)
    else:
        poll(args.seconds or 1.0)


if __name__ == "__main__":
    main()
