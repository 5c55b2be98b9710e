"""A/B timing of a packed search kernel's ``Run`` against an earlier commit's, on the same positions.

    python bench/bench_kernel_ab.py --game kalah --rev 177f16a~1 [--depth 14] [--positions 6] [--rounds 2]
    python bench/bench_kernel_ab.py --game oware --rev HEAD~3 --depth 11

The earlier ``ai/fast/<game>.py`` is read with ``git show REV:ai/fast/<game>.py`` and loaded beside the current
one; its ``KalahRun`` / ``OwareRun`` is swapped into the current kernel for the "before" searches (the kernel,
evaluator and table are today's, so only the search loop differs).  Both search the start position and random
positions to a fixed depth (``pvs:depth=D``), in alternating order round by round so a busy machine slows both
alike; CPU time is summed per side.  The scores must agree (both are exact at a fixed depth): the script stops
with an error if they do not.  It prints nodes, CPU seconds, nodes per CPU-second and the time ratio.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai.registry import make_engine  # noqa: E402
from bench.bench_worker import positions  # noqa: E402
from rules import parse_game_spec  # noqa: E402

RUNS = {"kalah": "KalahRun", "oware": "OwareRun"}


def load_module_at(path: str, rev: str):
    """The module at ``path`` (relative to the repository) as it was at ``rev``, loaded under its own name."""
    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader("earlier_" + Path(path).stem, loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
    return module


def load_earlier(game: str, rev: str):
    """The module ``ai/fast/<game>.py`` as it was at ``rev``."""
    return load_module_at(f"ai/fast/{game}.py", rev)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=tuple(RUNS), default="kalah")
    parser.add_argument("--rev", required=True, help="the commit whose search loop is 'before'")
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    current = importlib.import_module(f"ai.fast.{args.game}")
    name = RUNS[args.game]
    runs = {"before": getattr(load_earlier(args.game, args.rev), name), "now": getattr(current, name)}
    game = parse_game_spec(args.game)
    states = [game.initial_state()] + positions(game, args.positions - 1, random.Random(args.seed))
    totals = {side: [0, 0.0] for side in runs}
    try:
        for round_number in range(args.rounds):
            order = list(runs) if round_number % 2 == 0 else list(reversed(runs))
            for state in states:
                scores = {}
                for side in order:
                    setattr(current, name, runs[side])
                    engine = make_engine(game, f"pvs:depth={args.depth},time=3600")
                    began = time.process_time()
                    result = engine.search(state)
                    totals[side][1] += time.process_time() - began
                    totals[side][0] += result.nodes
                    scores[side] = result.score
                if scores["before"] != scores["now"]:
                    raise SystemExit(f"the scores differ: {scores} on {game.to_text(state)}")
    finally:
        setattr(current, name, runs["now"])
    print(f"{args.game}, depth {args.depth}, {len(states)} positions x {args.rounds} rounds, before = {args.rev}, "
          f"load average {os.getloadavg()[0]:.1f}")
    for side, (nodes, cpu) in totals.items():
        print(f"  {side}: {nodes:,} nodes, {cpu:.2f} CPU s, {nodes / cpu:,.0f} nodes per CPU-second")
    print(f"  time ratio now / before: {totals['now'][1] / totals['before'][1]:.2f}")


if __name__ == "__main__":
    main()
