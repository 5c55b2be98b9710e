"""Magnetic Cave speed: random playouts, apply, the evaluators and the search helpers; optionally a match
between the two evaluators at equal depth.

    python bench/bench_cave.py [--seconds 3] [--match 0] [--depth 2]

Random playouts use ``MagneticCave.random_playout`` (the hot loop MCTS rollouts use); "apply playouts" go
through the public protocol (``legal_moves`` + ``apply``).  Evaluator and helper rates are measured on the
positions of 100 random games.  ``--match N`` plays N games (colours alternating, two random opening plies
from a fixed seed) between the default evaluator and the simple window baseline, both searching to
``--depth`` plies with the plain alpha-beta of ``ai.alphabeta``: the evaluator's knowledge on its own.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.alphabeta import alphabeta_value  # noqa: E402
from ai.evaluators import final_score  # noqa: E402
from ai.evaluators.magnetic_cave import (  # noqa: E402
    ThreatEvaluator,
    WindowEvaluator,
    forced_win,
    order_moves,
    winning_moves,
)
from bench.record import add_flag, record  # noqa: E402
from rules.magnetic_cave import MagneticCave  # noqa: E402


def playout_rate(game: MagneticCave, seconds: float) -> tuple[float, int]:
    rng = random.Random(1)
    start = game.initial_state()
    plies = games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(50):
            plies += game.random_playout(start, rng)[1]
        games += 50
    return plies / (time.perf_counter() - began), games


def apply_rate(game: MagneticCave, seconds: float) -> float:
    rng = random.Random(2)
    plies = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            plies += 1
    return plies / (time.perf_counter() - began)


def sample_positions(game: MagneticCave, games: int = 100) -> list:
    rng = random.Random(3)
    states = []
    for _ in range(games):
        state = game.initial_state()
        while not game.is_terminal(state):
            states.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return states


def calls_per_second(function, states: list, seconds: float) -> float:
    calls = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for state in states:
            function(state)
        calls += len(states)
    return calls / (time.perf_counter() - began)


def best_move(game: MagneticCave, evaluator, state, depth: int):
    """The move with the best depth-limited alpha-beta value (first of equals, in the rules' order)."""
    mover = state.to_move
    best, best_value = None, float("-inf")
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):
            value = final_score(game, child, mover)
        else:
            value = -alphabeta_value(game, evaluator, child, depth - 1)
        if value > best_value:
            best, best_value = move, value
    return best


def match(game: MagneticCave, games: int, depth: int) -> dict[str, int]:
    """Wins, losses and ties of the default evaluator against the simple one at equal depth."""
    strong, simple = ThreatEvaluator(), WindowEvaluator()
    tally = {"default": 0, "windows": 0, "tie": 0}
    for number in range(games):
        rng = random.Random(1000 + number // 2)  # each opening is played once with each colour
        state = game.initial_state()
        for _ in range(2):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        players = (strong, simple) if number % 2 == 0 else (simple, strong)
        while not game.is_terminal(state):
            state = game.apply(state, best_move(game, players[state.to_move], state, depth))
        winner = game.outcome(state).winner
        tally["tie" if winner is None else players[winner].name] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--match", type=int, default=0, help="games of default vs windows evaluator")
    parser.add_argument("--depth", type=int, default=2, help="search depth of both sides in the match")
    add_flag(parser)
    args = parser.parse_args()
    game = MagneticCave()
    print(f"{game.spec} on Python {platform.python_version()} ({platform.machine()})")
    rate, games = playout_rate(game, args.seconds)
    print(f"random playouts: {rate:,.0f} plies/s over {games} games")
    applied = apply_rate(game, args.seconds)
    print(f"apply playouts:  {applied:,.0f} plies/s (legal_moves + apply per ply)")
    record(args.record, "rules_speed", "Magnetic Cave random playouts", round(rate), "plies/s",
           yardstick=f"apply playouts in the same run, {applied:,.0f} plies/s", ratio=rate / applied)
    states = sample_positions(game)
    print(f"on {len(states)} positions of 100 random games:")
    rates = {}
    for label, function in (
        ("default evaluator", lambda s, e=ThreatEvaluator(): e.evaluate(game, s)),
        ("windows evaluator", lambda s, e=WindowEvaluator(): e.evaluate(game, s)),
        ("winning_moves", lambda s: winning_moves(game, s)),
        ("order_moves", lambda s: order_moves(game, s)),
        ("forced_win (6 fours)", lambda s: forced_win(game, s)),
    ):
        rates[label] = calls_per_second(function, states, args.seconds)
        print(f"  {label:<22}{rates[label]:>10,.0f} calls/s")
    record(args.record, "rules_speed", "Magnetic Cave default evaluator", round(rates["default evaluator"]), "calls/s",
           yardstick=f"the windows (baseline) evaluator in the same run, {rates['windows evaluator']:,.0f} calls/s",
           ratio=rates["default evaluator"] / rates["windows evaluator"])
    if args.match:
        began = time.perf_counter()
        tally = match(game, args.match, args.depth)
        elapsed = time.perf_counter() - began
        print(
            f"match at depth {args.depth}, {args.match} games: default {tally['default']}, "
            f"windows {tally['windows']}, ties {tally['tie']} ({elapsed:.0f} s)"
        )
        record(args.record, "rules_speed", f"Magnetic Cave default evaluator against the windows one, depth "
               f"{args.depth}, {args.match} games", f"{tally['default']} won, {tally['tie']} tied, {tally['windows']} lost")


if __name__ == "__main__":
    main()
