"""Oware rules speed: random-playout plies per second and perft nodes per second.

Run ``python bench/bench_oware.py`` (``--seconds`` per measurement, ``--depth`` for perft).  With
``--openspiel PYTHON`` (an interpreter that has ``pyspiel`` installed, e.g. a throwaway venv: OpenSpiel is not
a StoneCave dependency) it also times OpenSpiel's C++ oware driven from Python, alternating rounds of each
(``--rounds``) so that a busy machine slows both alike, and prints the median ratio.

Random playouts use ``Oware.random_playout`` (the MCTS rollout path); perft uses the protocol methods
``legal_moves`` and ``apply`` as a search would, and counts leaves and positions created.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.peer_speed import openspiel_speed  # noqa: E402
from bench.record import add_flag, record  # noqa: E402
from rules.oware import Oware, OwareState  # noqa: E402



def playout_speed(game: Oware, seconds: float) -> tuple[float, float]:
    """(plies per second, average plies per game) of random playouts from the start."""
    rng = random.Random(1)
    start = game.initial_state()
    plies = games = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        plies += game.random_playout(start, rng)[1]
        games += 1
    return plies / (time.perf_counter() - begin), plies / games


def perft(game: Oware, state: OwareState, depth: int) -> tuple[int, int]:
    """(leaves at ``depth``, positions created by ``apply``)."""
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves), 0
    leaves = created = 0
    for move in moves:
        child_leaves, child_created = perft(game, game.apply(state, move), depth - 1)
        leaves += child_leaves
        created += child_created + 1
    return leaves, created


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per playout measurement")
    parser.add_argument("--depth", type=int, default=7, help="perft depth from the start")
    parser.add_argument("--openspiel", metavar="PYTHON", help="an interpreter with pyspiel, for a ratio")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds for the OpenSpiel ratio")
    add_flag(parser)
    args = parser.parse_args()
    game = Oware()
    print(f"Oware ({game.spec}), Python {sys.version.split()[0]}")

    rate, length = playout_speed(game, args.seconds)
    print(f"random playouts: {rate:,.0f} plies/s (average game {length:.1f} plies; target 560,000)")

    begin = time.perf_counter()
    leaves, created = perft(game, game.initial_state(), args.depth)
    elapsed = time.perf_counter() - begin
    print(f"perft({args.depth}) = {leaves:,} in {elapsed:.2f} s: {leaves / elapsed:,.0f} leaves/s, "
          f"{created / elapsed:,.0f} apply/s")
    record(args.record, "rules_speed", f"Oware perft({args.depth}) = {leaves:,} through legal_moves + apply",
           round(leaves / elapsed, -3), f"leaves/s ({elapsed:.2f} s)")

    ratios = []
    if args.openspiel:
        for round_number in range(1, args.rounds + 1):
            ours = playout_speed(game, args.seconds)[0]
            spiel = openspiel_speed(args.openspiel, "oware", args.seconds)
            if spiel is None:
                break
            ratios.append(ours / spiel[0])
            print(f"round {round_number}: StoneCave {ours:,.0f} plies/s, OpenSpiel oware (C++ via pyspiel) "
                  f"{spiel[0]:,.0f} plies/s (average game {spiel[1]:.1f} plies), ratio {ratios[-1]:.2f}")
        if ratios:
            print(f"StoneCave / OpenSpiel random-playout speed, median of {len(ratios)}: "
                  f"{statistics.median(ratios):.2f}")
    yardstick = (f"OpenSpiel's C++ oware via pyspiel, median of {len(ratios)} alternating rounds "
                 f"({', '.join(f'{ratio:.2f}' for ratio in ratios)})" if ratios else "none")
    record(args.record, "rules_speed", "Oware random playouts", round(rate, -3), "plies/s", target="560,000 plies/s",
           yardstick=yardstick, ratio=statistics.median(ratios) if ratios else None)


if __name__ == "__main__":
    main()
