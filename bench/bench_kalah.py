"""Kalah rules speed: random-playout plies per second and perft nodes per second.

    python bench/bench_kalah.py [--seconds 3] [--depth 7]

With ``--openspiel PYTHON`` (an interpreter with ``pyspiel``) it also times OpenSpiel's C++ Kalah ("mancala",
our rules with ``empty_capture=false``) in alternating rounds, so a busy machine slows both alike, and prints
the median ratio: the issue's target (750k plies/s) is OpenSpiel's speed on these machines.

Random playouts use ``Kalah.random_playout`` (the hot loop MCTS rollouts use); "apply playouts" go through the
public protocol (``legal_moves`` + ``apply``) for comparison.  Perft counts the positions ``apply`` produces.
"""
from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules  # noqa: E402
from bench.peer_speed import openspiel_speed  # noqa: E402
from bench.record import add_flag, record  # noqa: E402


def playout_rate(game, seconds: float) -> tuple[float, int]:
    rng = random.Random(1)
    start = game.initial_state()
    plies = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(200):
            plies += game.random_playout(start, rng)[1]
        games += 200
    return plies / (time.perf_counter() - began), games


def apply_rate(game, seconds: float) -> float:
    rng = random.Random(2)
    plies = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            plies += 1
    return plies / (time.perf_counter() - began)


def perft(game, state, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves(state):
        total += perft(game, game.apply(state, move), depth - 1)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per playout measurement")
    parser.add_argument("--depth", type=int, default=7, help="perft depth")
    parser.add_argument("--game", default="kalah", help="game spec, e.g. kalah:pits=6,seeds=4")
    parser.add_argument("--openspiel", metavar="PYTHON", help="an interpreter with pyspiel, for a same-run ratio")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds for the OpenSpiel ratio")
    add_flag(parser)
    args = parser.parse_args()
    game = rules.parse_game_spec(args.game)
    print(f"{game.spec} on Python {platform.python_version()} ({platform.machine()})")
    rate, games = playout_rate(game, args.seconds)
    print(f"random playouts: {rate:,.0f} plies/s over {games} games")
    protocol = apply_rate(game, args.seconds)
    print(f"apply playouts:  {protocol:,.0f} plies/s (legal_moves + apply per ply)")
    record(args.record, "rules_speed", "Kalah playouts through the protocol", round(protocol, -2), "plies/s",
           yardstick=f"random_playout in the same run, {rate:,.0f}", ratio=protocol / rate)
    began = time.perf_counter()
    nodes = sum(perft(game, game.initial_state(), d) for d in range(1, args.depth + 1))
    elapsed = time.perf_counter() - began
    print(f"perft 1..{args.depth}: {nodes:,} nodes in {elapsed:.2f} s = {nodes / elapsed:,.0f} nodes/s")
    record(args.record, "rules_speed", f"Kalah perft 1..{args.depth} through apply", round(nodes / elapsed, -2),
           "nodes/s")
    ratios = []
    if args.openspiel:
        peer = rules.get_game("kalah", empty_capture=False)
        for round_number in range(1, args.rounds + 1):
            ours = playout_rate(peer, args.seconds)[0]
            spiel = openspiel_speed(args.openspiel, "mancala", args.seconds)
            if spiel is None:
                break
            ratios.append(ours / spiel[0])
            print(f"round {round_number}: StoneCave {ours:,.0f} plies/s, OpenSpiel mancala {spiel[0]:,.0f} plies/s "
                  f"(average game {spiel[1]:.1f} plies), ratio {ratios[-1]:.2f}")
        if ratios:
            print(f"StoneCave / OpenSpiel random-playout speed, median of {len(ratios)}: {statistics.median(ratios):.2f}")
    yardstick = (f"OpenSpiel's C++ mancala via pyspiel, median of {len(ratios)} alternating rounds "
                 f"({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "none")
    record(args.record, "rules_speed", "Kalah random playouts", round(rate, -3), "plies/s", target=">= 750k plies/s",
           yardstick=yardstick, ratio=statistics.median(ratios) if ratios else None)


if __name__ == "__main__":
    main()
