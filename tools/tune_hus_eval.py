"""Tune the Hus evaluator's weights by tournament: every candidate plays a reference, same engine, same depth.

    python tools/tune_hus_eval.py [--games 24] [--depth 3] [--jobs 2] [--reference default|seeds]
    HUS_TUNE="inner=-0.25 mobility=1,inner=-0.1" python tools/tune_hus_eval.py --games 96

Each candidate (a few values of one term at a time: mobility, exposure, inner) plays ``pvs`` at a fixed depth
against the same engine with the reference evaluator, from the start and from balanced openings, both
colours; ``HUS_TUNE`` (space-separated, each ``term=value[,term=value]``) names the candidates
instead, for a longer second round.  Candidates are registered as evaluators ``cand0``, ``cand1``... when this module is imported, so the
tournament's worker processes (which import it again) know them too and ``--jobs`` can be above 1.

The table gives each candidate's score against the reference; a weight moves into ``ai.evaluators.hus`` only
when it scores clearly above 50% (and its figures go to BENCHMARKS.md).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import games  # noqa: E402
from ai.evaluators.hus import HUS_EXPOSURE, HUS_INNER, HUS_MOBILITY, HusEvaluator  # noqa: E402
from ai.tournament import compare  # noqa: E402

BASE = {"mobility": HUS_MOBILITY, "exposure": HUS_EXPOSURE, "inner": HUS_INNER}
STEPS = {
    "mobility": (0.0, 0.25, 1.0, 2.0),
    "exposure": (-0.5, -0.25, -0.1, 0.1),
    "inner": (-0.25, -0.1, 0.1, 0.25),
}


def candidates() -> list[HusEvaluator]:
    """The candidates named by ``HUS_TUNE``, else one term changed at a time around the current defaults."""
    found = []
    for index, item in enumerate(os.environ.get("HUS_TUNE", "").split()):
        changes = {term: float(value) for term, _, value in (pair.partition("=") for pair in item.split(","))}
        unknown = set(changes) - set(STEPS)
        if unknown:
            raise SystemExit(f"HUS_TUNE: unknown term(s) {', '.join(sorted(unknown))} (valid: {', '.join(STEPS)})")
        found.append(HusEvaluator(f"cand{index}", **{**BASE, **changes}))
    if found:
        return found
    for term, values in STEPS.items():
        for value in values:
            if value != BASE[term]:
                found.append(HusEvaluator(f"cand{len(found)}", **{**BASE, term: value}))
    return found


CANDIDATES = candidates()
for _candidate in CANDIDATES:
    games.register_evaluator("hus", _candidate.name, f"{__name__}:{_candidate.name}")


def __getattr__(name: str):
    """``candN`` is the factory of candidate N (the evaluator registry calls ``factory(game)``)."""
    for candidate in CANDIDATES:
        if candidate.name == name:
            return lambda game: candidate
    raise AttributeError(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--reference", default="default", choices=("default", "seeds"))
    parser.add_argument("--only", default=None, help="comma-separated terms to vary (default: all)")
    args = parser.parse_args()
    terms = set(args.only.split(",")) if args.only else set(STEPS)
    engine = f"pvs:time=none,depth={args.depth}"
    print(f"reference: {engine},eval={args.reference}  (default weights {BASE})")
    print("| candidate | W-D-L | score % | Elo [95%] |")
    print("|---|---|---|---|")
    for candidate in CANDIDATES:
        changed = [term for term in STEPS if getattr(candidate, term) != BASE[term]]
        if not set(changed) & terms:
            continue
        result = compare("hus", f"{engine},eval={candidate.name}", f"{engine},eval={args.reference}",
                         games=args.games, jobs=args.jobs, openings=args.games // 2, seed=1,
                         judge="pvs:time=none,depth=3")
        summary = result.summary(0)
        weights = ", ".join(f"{term}={getattr(candidate, term):g}" for term in STEPS)
        print(f"| {weights} | {summary.wins}-{summary.draws}-{summary.losses} | {100 * summary.score:.1f} | "
              f"{summary.elo:+.0f} [{summary.elo_low:+.0f}, {summary.elo_high:+.0f}] |", flush=True)


if __name__ == "__main__":
    main()
