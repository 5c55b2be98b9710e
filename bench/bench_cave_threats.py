"""The Magnetic Cave threat-space search (ai/cave_threats.py, compiled ``cave_vcf``): what it costs.

    python bench/bench_cave_threats.py speed     # nodes per CPU-second of a depth-7 search, leaves' search on / off
    python bench/bench_cave_threats.py root      # the root search's time per move on positions of random games

Its strength is measured by SPRT with ``stonecave compare`` (``eval=rootvcf`` / ``eval=leafvcf`` against
``eval=novcf``, the commands in BENCHMARKS.md).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import registry  # noqa: E402
from rules import get_game  # noqa: E402


def _positions(count: int, seed: int) -> list:
    game = get_game("magnetic-cave")
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(8, 30)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            states.append(state)
    return states


def speed(positions: int, depth: int, seed: int) -> None:
    game = get_game("magnetic-cave")
    states = _positions(positions, seed)
    for evaluator in ("leafvcf", "novcf"):
        spec = f"pvs:depth={depth},time=none,eval={evaluator}"
        started, nodes = time.process_time(), 0
        for state in states:
            nodes += registry.make_engine(game, spec).search(state).nodes
        seconds = time.process_time() - started
        print(f"{spec}: {nodes:,} nodes in {seconds:.2f} CPU s, {nodes / seconds / 1e6:.2f} M nodes per CPU-s")


def root(games: int, seed: int) -> None:
    from ai.cave_endgame import EndgameRun
    from ai.core.kernels import CompiledCaveKernel, _IntPositions
    from ai.evaluators.magnetic_cave import ThreatEvaluator

    game = get_game("magnetic-cave")
    kernel = CompiledCaveKernel(game, ThreatEvaluator(root_vcf=True))
    run = EndgameRun(_IntPositions(kernel), None, None)
    rng = random.Random(seed)
    times, wins, narrowed = [], 0, 0
    for _ in range(games):
        state = game.initial_state()
        while not game.is_terminal(state):
            position = int.from_bytes(kernel.encode(state), "little")
            started = time.perf_counter()
            proven = run._threats(position)
            times.append(time.perf_counter() - started)
            wins += proven is not None
            narrowed += proven is None and run.kernel.root_moves is not None
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    times.sort()
    print(f"root threat search, {len(times)} positions of {games} random games: median "
          f"{1e3 * statistics.median(times):.3f} ms, p99 {1e3 * times[int(0.99 * (len(times) - 1))]:.3f} ms, "
          f"slowest {1e3 * times[-1]:.3f} ms; wins by fours found {wins}, root moves narrowed {narrowed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("speed", "root"))
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.mode == "speed":
        speed(args.positions, args.depth, args.seed)
    else:
        root(args.games, args.seed)
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
