"""What the shared bookkeeping of the single-agent searches costs: ``ai/single_agent.py`` as it is against the
same file at an earlier commit, on the same Solitaire deals with the same node budgets.

    python tools/single_agent_ab.py [--rev a1ee236~1] [--nodes 5000] [--rounds 30] [--deals 2]

The earlier file is read with ``git show REV:ai/single_agent.py`` and loaded beside the current one.  Each
round times both versions once per algorithm, back to back in alternating order, in CPU time; the figure is
the median of the rounds' now/before ratios with its quartiles (a pair run back to back sees the same load,
so on a shared machine the ratio is far steadier than either time), beside the fastest time of each version.
Both versions must return the same line, value, proof and node counts on every deal; any difference is
printed and the exit code is 1.
The default REV is the commit before breadth-first, heuristic depth-first and beam search began to share
``_Run.new_children``.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ai.single_agent as current  # noqa: E402
from ai.solitaire_problem import SolitaireProblem  # noqa: E402
from rules.solitaire import Solitaire  # noqa: E402
from tools.revisions import load_module_at  # noqa: E402

ALGORITHMS: dict[str, Callable] = {
    "bfs": lambda module, problem, budget: module.breadth_first(problem, None, budget),
    "heuristic-dfs": lambda module, problem, budget: module.heuristic_depth_first(problem, budget),
    "beam": lambda module, problem, budget: module.beam_search(problem, 50, budget),
}


def run_all(module: ModuleType, search: Callable, problems: list[SolitaireProblem], nodes: int) -> tuple[float, list]:
    """(CPU seconds, what each search returned) for one version over every problem."""
    outcomes = []
    started = time.process_time()
    for problem in problems:
        solution = search(module, problem, module.Budget(nodes=nodes))
        outcomes.append((solution.path, solution.value, solution.solved, solution.exhaustive, solution.reason,
                         solution.stats.visited, solution.stats.expanded))
    return time.process_time() - started, outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default="a1ee236~1")
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--deals", type=int, default=2, help="deals per variant (seeds 0..deals-1)")
    args = parser.parse_args(argv)
    before = load_module_at("ai/single_agent.py", args.rev)
    games = [Solitaire(), Solitaire(variant="lewis")]
    problems = [SolitaireProblem(game, game.initial_state(seed=seed)) for game in games for seed in range(args.deals)]
    print(f"{len(problems)} deals (dose and lewis), {args.nodes} nodes each, {args.rounds} rounds, CPU time; "
          f"before = {args.rev}")
    print(f"{'algorithm':<14} {'best before s':>13} {'best now s':>10} {'now/before median':>18} {'quartiles':>13}")
    status = 0
    for name, search in ALGORITHMS.items():
        best = {"before": float("inf"), "now": float("inf")}
        ratios = []
        for round_number in range(args.rounds):
            order = [("before", before), ("now", current)]
            seconds, outcomes = {}, {}
            for label, module in order if round_number % 2 == 0 else order[::-1]:
                seconds[label], outcomes[label] = run_all(module, search, problems, args.nodes)
                best[label] = min(best[label], seconds[label])
            ratios.append(seconds["now"] / seconds["before"])
            if outcomes["now"] != outcomes["before"]:
                print(f"{name}: the two versions disagree: {outcomes['before']} != {outcomes['now']}")
                status = 1
        low, _, high = statistics.quantiles(ratios, n=4)
        print(f"{name:<14} {best['before']:13.3f} {best['now']:10.3f} {statistics.median(ratios):18.3f} "
              f"{low:6.3f}-{high:.3f}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
