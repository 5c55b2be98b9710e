"""Hus rules speed: random-playout moves per second and perft nodes per second.

Run as ``python bench/bench_hus.py`` (``--quick`` for a short run).  Figures:

- ``random_playout``: the allocation-free hot loop, moves (plies) per second over whole random games.
- the protocol loop: the same kind of games through ``legal_moves`` + ``apply`` (what a generic caller pays,
  every candidate move played once per position for the lap-limit check); the ratio of the two is measured
  in the same run, so it is less sensitive to a busy machine than the absolute figures.
- perft from the start (checked against ``tests/data/perft.json``) and from random mid-game positions,
  in leaf nodes per second, with the children cache emptied first.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.record import add_flag, record  # noqa: E402
from rules.hus import Hus, HusState  # noqa: E402

PERFT_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft.json"


def perft(game: Hus, state: HusState, depth: int) -> int:
    """Move sequences of exactly ``depth`` plies (leaf nodes)."""
    if state.turn >= game.turn_limit:
        return 0 if depth else 1
    children = game.children(state)
    if depth == 1:
        return len(children)
    return sum(perft(game, child, depth - 1) for child in children.values())


def bench_playouts(game: Hus, games: int) -> tuple[int, float]:
    start = game.initial_state()
    plies = 0
    began = time.perf_counter()
    for seed in range(games):
        _, count = game.random_playout(start, random.Random(seed))
        plies += count
    return plies, time.perf_counter() - began


def bench_protocol_loop(game: Hus, games: int) -> tuple[int, float]:
    plies = 0
    began = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial_state()
        while True:
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
            plies += 1
    return plies, time.perf_counter() - began


def midgame_positions(game: Hus, count: int) -> list[HusState]:
    """Positions 20 to 60 plies into random games (still going on)."""
    positions = []
    seed = 1000
    while len(positions) < count:
        rng = random.Random(seed)
        seed += 1
        state = game.initial_state()
        target = rng.randrange(20, 60)
        for _ in range(target):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
        if game.legal_moves(state):
            positions.append(state)
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and a shallower perft")
    add_flag(parser)
    args = parser.parse_args()
    games = 200 if args.quick else 2000
    depth = 3 if args.quick else 4
    game = Hus()

    plies, seconds = bench_playouts(game, games)
    fast = plies / seconds
    print(f"random_playout:      {games} games, {plies} moves ({plies / games:.0f} per game), "
          f"{seconds:.2f} s, {fast:,.0f} moves/s")
    loop_games = max(games // 10, 20)
    plies, seconds = bench_protocol_loop(game, loop_games)
    slow = plies / seconds
    print(f"legal_moves + apply: {loop_games} games, {plies} moves, {seconds:.2f} s, {slow:,.0f} moves/s "
          f"(random_playout is {fast / slow:.1f}x faster)")
    record(args.record, "rules_speed", f"Hus random_playout, {games} games from the start", round(fast, -3), "moves/s",
           yardstick=f"the same games through legal_moves + apply, {slow:,.0f} moves/s", ratio=fast / slow)

    table = json.loads(PERFT_DATA.read_text())["tables"]
    expected = next(item["counts"] for item in table if item["game"] == game.spec and item["position"] is None)
    game = Hus()
    began = time.perf_counter()
    nodes = perft(game, game.initial_state(), depth)
    seconds = time.perf_counter() - began
    check = "matches" if nodes == expected.get(str(depth)) else f"MISMATCH, expected {expected.get(str(depth))}"
    print(f"perft({depth}) from the start: {nodes:,} nodes ({check}), {seconds:.2f} s, "
          f"{nodes / seconds:,.0f} nodes/s")
    record(args.record, "rules_speed", f"Hus perft({depth}) from the start ({nodes:,} leaves)", round(nodes / seconds, -2),
           "nodes/s")

    positions = midgame_positions(game, 10 if args.quick else 40)
    game = Hus()
    began = time.perf_counter()
    nodes = sum(perft(game, state, 3) for state in positions)
    seconds = time.perf_counter() - began
    print(f"perft(3) from {len(positions)} mid-game positions: {nodes:,} nodes, {seconds:.2f} s, "
          f"{nodes / seconds:,.0f} nodes/s")
    record(args.record, "rules_speed", f"Hus perft(3) from {len(positions)} random mid-game positions ({nodes:,} leaves)",
           round(nodes / seconds, -2), "nodes/s")
    if check != "matches":
        sys.exit(1)


if __name__ == "__main__":
    main()
