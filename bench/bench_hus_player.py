"""The default Hus player under the competition limits: 2 s per move (30 s for the first), under 500 MB, no
computing on the opponent's time.

    python bench/bench_hus_player.py [--quick] [--games N] [--spec SPEC]

Prints, for the Strongest preset (``pvs:time=1.7,tt=200000`` on the packed kernel ``ai.fast.hus``):

- the depth it completes within its time from the start and from mid-game positions, with nodes per second
  (and the same for the rules kernel, ``fast=false``, measured in the same run for the ratio);
- a tournament in this one process: the player against greedy, against random and against itself, from
  seeded random 4-move openings with colours swapped, every move timed around the whole ``search`` call as
  the console and ``stonecave compare`` make it (``Limits(time=30)`` for a player's first move, 2 s after,
  and a cancel token with that deadline).  It reports the number of moves, the slowest first move and the
  slowest other move against their limits, the mean move time, the mean depth, and the results;
- the peak memory of the process (``ru_maxrss``: everything, Python itself included) and the largest
  transposition table seen;
- threads: the number alive after every search (1, the main thread: nothing runs between searches, so no
  computing on the opponent's time).
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import registry  # noqa: E402
from ai.base import CancelToken, Limits  # noqa: E402
from ai.search import PVSEngine  # noqa: E402
from bench.record import add_flag, record  # noqa: E402
from rules import get_game  # noqa: E402
from rules.hus import Hus, HusState  # noqa: E402

MOVE_LIMIT = 2.0
FIRST_MOVE_LIMIT = 30.0


def peak_megabytes() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def midgame_positions(game: Hus, plies: tuple[int, ...]) -> list[tuple[int, HusState]]:
    """Positions of a greedy-against-greedy game after the given numbers of plies."""
    greedy = registry.make_engine(game, "greedy")
    state, found = game.initial_state(), []
    for ply in range(max(plies) + 1):
        if game.is_terminal(state):
            break
        if ply in plies:
            found.append((ply, state))
        state = game.apply(state, greedy.search(state).move)
    return found


def depth_report(game: Hus, spec: str, condition: str | None = None) -> None:
    print(f"Depth completed within the time limit ({spec}; rules kernel with fast=false for the ratio):")
    print("| position | depth | nodes | nodes/s | depth (rules kernel) | nodes/s (rules kernel) | speed ratio |")
    print("|---|---|---|---|---|---|---|")
    positions = [(0, game.initial_state())] + midgame_positions(game, (20, 40, 60))
    for ply, state in positions:
        row = []
        for fast in (True, False):
            engine = registry.make_engine(game, spec + ("" if fast else ",fast=false"))
            started = time.perf_counter()
            result = engine.search(state, Limits(time=MOVE_LIMIT), CancelToken(started + MOVE_LIMIT))
            elapsed = time.perf_counter() - started
            row.append((result.depth, result.nodes, result.nodes / elapsed))
        (depth, nodes, speed), (slow_depth, _, slow_speed) = row
        name = "start" if ply == 0 else f"ply {ply}"
        print(f"| {name} | {depth} | {nodes:,} | {speed:,.0f} | {slow_depth} | {slow_speed:,.0f} | "
              f"{speed / max(slow_speed, 1e-9):.1f}x |", flush=True)
        where = "from the start" if ply == 0 else f"greedy game, ply {ply}"
        record(condition, "hus_player", f"{spec}: depth in the time limit, {where}", f"depth {depth}, {speed:,.0f} nodes/s",
               yardstick=f"the rules kernel (fast=false): depth {slow_depth}, {slow_speed:,.0f} nodes/s",
               ratio=speed / max(slow_speed, 1e-9))


class Seat:
    """A player in the tournament: an engine kept for the whole game (its table too), and its move records."""

    def __init__(self, game: Hus, spec: str) -> None:
        self.spec = spec
        self.engine = registry.make_engine(game, spec)
        self.moved = False


def play(game: Hus, specs: tuple[str, str], opening: tuple[int, ...], a_first: bool, records: dict) -> int | None:
    """One game; the winner's index in ``specs`` (None for a draw).  Times every move of the player
    ``specs[0]`` (both seats' in self-play)."""
    state = game.initial_state()
    for move in opening:
        state = game.apply(state, move)
    seats = [Seat(game, spec) for spec in specs]
    first = 0 if a_first else 1
    mover_seat = {state.to_move: first, 1 - state.to_move: 1 - first}
    while not game.is_terminal(state):
        index = mover_seat[state.to_move]
        seat = seats[index]
        limit = MOVE_LIMIT if seat.moved else FIRST_MOVE_LIMIT
        started = time.perf_counter()
        result = seat.engine.search(state, Limits(time=limit), CancelToken(started + limit))
        elapsed = time.perf_counter() - started
        threads = threading.active_count()
        if seat.spec == specs[0]:
            key = "other" if seat.moved else "first"
            records[key].append(elapsed)
            records["depth"].append(result.depth)
            records["threads"] = max(records["threads"], threads)
            table = getattr(seat.engine, "table", None)
            if table is not None:
                records["tt"] = max(records["tt"], len(table))
        seat.moved = True
        state = game.apply(state, result.move)
    outcome = game.outcome(state)
    if outcome.winner is None:
        return None
    return next(index for player, index in mover_seat.items() if player == outcome.winner)


def tournament(game: Hus, spec: str, opponents: list[tuple[str, int]], condition: str | None = None) -> None:
    records = {"first": [], "other": [], "depth": [], "threads": 0, "tt": 0}
    print()
    print(f"Tournament of {spec} (timed moves are its own; openings: 4 random moves, both colours):")
    print("| opponent | games | W-D-L | moves timed so far |")
    print("|---|---|---|---|")
    results = []
    for opponent, pairs in opponents:
        wins = draws = losses = 0
        for pair in range(pairs):
            rng = random.Random(pair)
            state, opening = game.initial_state(), []
            for _ in range(4):
                move = rng.choice(game.legal_moves(state))
                opening.append(move)
                state = game.apply(state, move)
            for a_first in (True, False):
                winner = play(game, (spec, opponent), tuple(opening), a_first, records)
                wins += winner == 0
                draws += winner is None
                losses += winner == 1
        total = len(records["first"]) + len(records["other"])
        print(f"| {opponent} | {2 * pairs} | {wins}-{draws}-{losses} | {total} |", flush=True)
        results.append(f"{wins}-{draws}-{losses}")
    moves = records["first"] + records["other"]
    print()
    print(f"moves timed: {len(moves)} ({len(records['first'])} first moves)")
    print(f"slowest first move: {max(records['first']):.3f} s (limit {FIRST_MOVE_LIMIT:g} s)")
    print(f"slowest other move: {max(records['other']):.3f} s (limit {MOVE_LIMIT:g} s)")
    over = sum(t > MOVE_LIMIT for t in records["other"]) + sum(t > FIRST_MOVE_LIMIT for t in records["first"])
    print(f"moves over their limit: {over}")
    print(f"mean move time: {statistics.mean(moves):.3f} s; median {statistics.median(moves):.3f} s")
    print(f"mean depth completed: {statistics.mean(records['depth']):.2f} "
          f"(min {min(records['depth'])}, max {max(records['depth'])})")
    print(f"largest transposition table: {records['tt']:,} entries")
    print(f"threads alive after a search: at most {records['threads']} (the main thread)")
    area = "hus_player"
    record(condition, area, f"{spec}: slowest move after the first", round(max(records["other"]), 3),
           f"s ({over} of {len(moves)} moves over their limit)", target=f"{MOVE_LIMIT:g} s")
    record(condition, area, f"{spec}: slowest first move", round(max(records["first"]), 3), "s",
           target=f"{FIRST_MOVE_LIMIT:g} s")
    record(condition, area, f"{spec}: mean depth completed over the tournament",
           round(statistics.mean(records["depth"]), 2), f"plies ({min(records['depth'])} to {max(records['depth'])})")
    record(condition, area, f"{spec}: tournament against " + " / ".join(name for name, _ in opponents),
           " / ".join(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one game pair per opponent")
    parser.add_argument("--games", type=int, default=None, help="game pairs against each opponent")
    parser.add_argument("--spec", default=None, help="the player (default: the Strongest preset)")
    add_flag(parser)
    args = parser.parse_args()
    game = get_game("hus")
    spec = args.spec or registry.presets(game)["Strongest"]
    engine = registry.make_engine(game, spec)
    kernel = type(engine.kernel).__name__ if isinstance(engine, PVSEngine) else "-"
    print(f"Hus player {spec} (kernel {kernel}); peak memory before any search: {peak_megabytes():.0f} MB")
    depth_report(game, spec, args.record)
    pairs = 1 if args.quick else (args.games or 2)
    tournament(game, spec, [("greedy", pairs), ("random", max(1, pairs // 2)), (spec, max(1, pairs // 2))],
               args.record)
    print(f"peak memory of the process (ru_maxrss): {peak_megabytes():.0f} MB (limit 500 MB)")
    record(args.record, "hus_player", f"{spec}: peak memory of the whole process", round(peak_megabytes()), "MB",
           target="500 MB")


if __name__ == "__main__":
    main()
