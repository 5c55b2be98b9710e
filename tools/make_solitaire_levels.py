"""Generate the curated Solitaire Mancala levels in levels/solitaire/ (kept in the repository, re-runnable).

    python tools/make_solitaire_levels.py [--per-variant 16] [--candidates 80] [--playouts 400]

For each variant, candidate deals (seeded) are measured by the stones a careful random player stores (the
mean over ``--playouts`` play-outs choosing uniformly among the rounds that do not lose at once: a deal where
such play stores little is one where rounds that look safe lead to dead ends) and
solved by the heuristic depth-first engine; ``--per-variant`` deals spread evenly over that measure are kept
and written easiest first (``dose-01`` is the easiest dose deal).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml  # noqa: E402

from ai.base import Limits  # noqa: E402
from ai.registry import make_engine  # noqa: E402
from levels.solitaire import LEVEL_DIR  # noqa: E402
from rules.solitaire import Solitaire, random_deal  # noqa: E402

NAMES = (
    "Pebble Beach", "River Stones", "Morning Tide", "Quiet Harbour", "Sandbar", "Shell Garden", "Low Water",
    "Drift Line", "Salt Marsh", "Tide Pools", "Crab Walk", "Cove", "Shingle", "Rock Pool", "Breakwater",
    "Undertow", "Lantern Row", "Millstone", "Counting House", "Abacus", "Seed Bank", "Granary", "Hourglass",
    "Twin Rows", "Long Furrow", "Harvest", "Threshing Floor", "Orchard", "Stone Circle", "Cairn", "Old Well",
    "Last Light",
)
MEASURE = "mean stones stored by careful random play-outs"
SEED_OFFSET = {"dose": 1000, "lewis": 2000}


def random_playout_mean(game: Solitaire, holes: tuple[int, ...], playouts: int, seed: int) -> float:
    rng = random.Random(seed)
    totals = []
    for _ in range(playouts):
        state = game.deal(holes)
        while not game.is_terminal(state):
            # A careful random player: any round that does not lose at once (when there is one).
            nexts = [game.apply(state, move) for move in game.legal_moves(state)]
            safe = [n for n in nexts if n.end is None] or nexts
            state = rng.choice(safe)
        totals.append(state.stored)
    return statistics.fmean(totals)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-variant", type=int, default=16)
    parser.add_argument("--candidates", type=int, default=80)
    parser.add_argument("--playouts", type=int, default=400)
    args = parser.parse_args(argv)
    names = iter(NAMES)
    LEVEL_DIR.mkdir(exist_ok=True)
    for old in LEVEL_DIR.glob("*.yaml"):
        old.unlink()
    for variant in ("dose", "lewis"):
        game = Solitaire(variant=variant)
        engine = make_engine(game, "heuristic-dfs:time=20")
        candidates = []
        for number in range(args.candidates):
            seed = SEED_OFFSET[variant] + number
            holes = random_deal(seed)
            measure = random_playout_mean(game, holes, args.playouts, seed)
            candidates.append((measure, seed, holes))
        candidates.sort(reverse=True)  # easiest (highest random score) first
        step = (len(candidates) - 1) / max(1, args.per_variant - 1)
        chosen = [candidates[round(i * step)] for i in range(args.per_variant)]
        for rank, (measure, seed, holes) in enumerate(chosen, start=1):
            state = game.deal(holes)
            result = engine.search(state, Limits(time=20))
            line = []
            for move in result.pv:
                line.append(game.format_move(state, move))
                state = game.apply(state, move)
            level_id = f"{variant}-{rank:02d}"
            text = (
                f"id: {level_id}\n"
                f"name: {next(names)}\n"
                f"variant: {variant}\n"
                f"holes: [{', '.join(map(str, holes))}]   # hole01..hole12\n"
                f"solution:\n"
                f"  goal: {game.ceiling}\n"
                f"  best: {int(result.score)}\n"
                f"  proven: {str(bool(result.exhaustive)).lower()}\n"
                f"  length: {len(line)}\n"
                f"  line: {', '.join(line)}\n"
                f"difficulty:\n"
                f"  measure: {MEASURE}\n"
                f"  value: {measure:.2f}   # higher is easier\n"
                f"  playouts: {args.playouts}\n"
                f"source: random deal, seed {seed}\n"
            )
            data = yaml.safe_load(text)
            path = LEVEL_DIR / f"{level_id}.yaml"
            path.write_text(text, encoding="utf-8")
            print(f"{level_id} {data['name']:<16} measure {measure:5.2f} best {int(result.score)} "
                  f"in {len(line)} rounds ({result.time:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
