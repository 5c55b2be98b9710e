"""Tune an evaluator's weights by tournament: each candidate plays the current default, same engine, same depth.

    python tools/tune_eval.py kalah [--games 24] [--depth 6]
    python tools/tune_eval.py oware [--games 24] [--depth 5]
    python tools/tune_eval.py hus [--games 12] [--depth 2]

Every game pair starts from a balanced opening (``ai.tournament.balanced_openings``) with colours swapped, so
deterministic engines do not replay one game.  A candidate is registered in-process as evaluator ``candidate``
(so the tournament runs with ``jobs=1``).  The table lists each candidate's score against the default; the
best one becomes the default when it scores clearly above 50% (and the figures go to BENCHMARKS.md).
"""
from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import games  # noqa: E402
from ai.evaluators.hus import HusEvaluator  # noqa: E402
from ai.evaluators.oware import OwareEvaluator  # noqa: E402
from ai.evaluators.sowing import SowingEvaluator  # noqa: E402
from ai.tournament import compare  # noqa: E402

CANDIDATE = None


def candidate(game):
    return CANDIDATE


GRIDS = {
    "kalah": lambda: [SowingEvaluator("candidate", side=s, mobility=m)
                      for s, m in itertools.product((0.0, 0.25, 0.5, 1.0), (0.0, 0.25, 0.5))],
    "oware": lambda: [OwareEvaluator("candidate", side=s, mobility=m, vulnerable=v)
                      for s, m, v in itertools.product((0.0, 0.25), (0.0, 0.25, 0.5), (0.0, 0.25, 0.5))],
    "hus": lambda: [HusEvaluator("candidate", mobility=m) for m in (0.0, 0.25, 0.5, 1.0, 2.0)],
}


def main() -> None:
    global CANDIDATE
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(GRIDS))
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--depth", type=int, default=6)
    args = parser.parse_args()
    games.register_evaluator(args.game, "candidate", "__main__:candidate")
    engine = f"pvs:time=none,depth={args.depth}"
    print(f"| candidate | vs {engine} (default evaluator) | W-D-L | score % |")
    print("|---|---|---|---|")
    for weights in GRIDS[args.game]():
        CANDIDATE = weights
        result = compare(args.game, f"{engine},eval=candidate", engine, games=args.games, jobs=1,
                         openings=args.games // 2, seed=1)
        summary = result.summary(0)
        terms = ", ".join(f"{key}={value:g}" for key, value in vars(weights).items() if key != "name")
        print(f"| {terms} | {args.games} games | {summary.wins}-{summary.draws}-{summary.losses} | "
              f"{100 * summary.score:.1f} |", flush=True)


if __name__ == "__main__":
    main()
