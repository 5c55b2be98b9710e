"""The single-agent algorithms as engines: one Engine class per algorithm, declared in ai/data/single_agent.yaml.

An engine searches from the position it is given and returns a ``SearchResult`` the GUI and console treat
like any other: ``move`` the next round, ``pv`` the whole line, ``score`` the stones the line stores,
``exhaustive`` when that score is proven (a goal reached, or every line examined), and ``info`` with the
statistics and a one-line ``reason`` fit for a hint ("keeps a win possible", "46 still reachable", "at most
44 now").  The line is replayed through the rules before it is returned.
"""
from __future__ import annotations

import random
from typing import Any, Callable, ClassVar

from ai.base import CancelToken, Engine, EngineError, Limits, ProgressCallback, SearchResult, gc_paused, seconds_to_stop
from ai.single_agent import (
    Budget,
    Solution,
    astar,
    beam_search,
    breadth_first,
    depth_first,
    greedy_best_first,
    heuristic_depth_first,
    hill_climbing,
    ida_star,
    iterative_deepening,
    lowest_cost_first,
)
from ai.solitaire_packed import packed_depth_first
from ai.solitaire_problem import SolitaireProblem
from rules import Game, State
from rules.solitaire import Solitaire, SolitaireState

DEFAULT_TIME = 2.0
"""Seconds a search may take when neither its parameters nor the limits say."""


def explain(game: Solitaire, problem: SolitaireProblem, solution: Solution) -> str:
    """The one-line reason a hint gives for the round it suggests."""
    value = int(solution.value)
    if solution.solved:
        rounds = len(solution.path)
        if game.is_lewis:
            return f"keeps a win possible (won in {rounds} more rounds)"
        return f"{problem.target} still reachable ({rounds} more rounds)"
    if solution.exhaustive:
        if game.is_lewis:
            return f"no win is possible any more; at most {value} stored now"
        return f"at most {value} now"
    return f"best found: {value} stored ({solution.reason}, not proven)"


def solitaire_state(state: State) -> SolitaireState:
    """``state`` as a Solitaire Mancala position; EngineError when it is another game's."""
    if not isinstance(state, SolitaireState):
        raise EngineError(f"a single-agent engine searches Solitaire Mancala positions, not {type(state).__name__}")
    return state


class SingleAgentEngine(Engine):
    """Base of the single-agent engines: subclasses give ``run(problem, budget)``."""

    kind: ClassVar[str] = "single-agent"
    title: ClassVar[str] = ""

    def __init__(self, game: Game, time: float | None = DEFAULT_TIME, nodes: int | None = None,
                 **params: Any) -> None:
        super().__init__(game, time=time, nodes=nodes, **params)
        if not isinstance(game, Solitaire):
            raise EngineError(f"{self.name} knows how to search Solitaire Mancala, not {game.title}")
        self.solitaire = game
        """The game, as the Solitaire rules object it was checked to be."""
        self.time_limit = time
        self.node_limit = nodes

    def run(self, problem: SolitaireProblem, budget: Budget) -> Solution:
        raise NotImplementedError

    def solve(self, state: SolitaireState, limits: Limits | None = None,
              cancel: CancelToken | None = None) -> tuple[SolitaireProblem, Solution]:
        """Run the algorithm from ``state``; the problem (its goal and target) and the solution."""
        limits = limits or Limits()
        seconds = seconds_to_stop(limits, self.time_limit)  # within the move's deadline, less the margin
        nodes = limits.nodes if limits.nodes is not None else self.node_limit
        problem = SolitaireProblem(self.solitaire, state)
        return problem, self.run(problem, Budget(nodes, seconds, cancel))

    def search(self, state: State, limits: Limits | None = None, cancel: CancelToken | None = None,
               progress: ProgressCallback | None = None) -> SearchResult:
        game = self.solitaire
        state = solitaire_state(state)
        if game.is_terminal(state):
            return SearchResult(None, float(state.stored), exhaustive=True, info={"reason": "the game is over"})
        with gc_paused():  # a frontier of millions of nodes would make each collection stall the window
            problem, solution = self.solve(state, limits, cancel)
        line = tuple(solution.path)
        # Replay through the rules: the line must be legal in the real game, history included.
        replay = state
        for move in line:
            replay = game.apply(replay, move)
        reason = explain(game, problem, solution)
        move = line[0] if line else None
        if move is None:
            # Nothing more can be gained (or nothing was found): play on without losing when possible.
            move = _safe_round(game, state)
            reason = "nothing more can be stored" if solution.exhaustive else reason
        stats = solution.stats
        result = SearchResult(
            move=move,
            score=float(solution.value),
            depth=len(line),
            nodes=stats.visited,
            pv=line,
            time=stats.time,
            exhaustive=solution.exhaustive,
            info={
                "reason": reason,
                "solved": solution.solved,
                "target": problem.target,
                "visited": stats.visited,
                "expanded": stats.expanded,
                "states_per_second": stats.states_per_second,
                "iterations": stats.iterations,
                "search": solution.reason,
            },
        )
        if progress is not None:
            progress(result)
        return result


def _safe_round(game: Solitaire, state: SolitaireState):
    moves = game.legal_moves(state)
    for move in moves:
        if not game.is_terminal(game.apply(state, move)):
            return move
    return moves[0] if moves else None


def _engine(name: str, title: str, runner: Callable[..., Solution], params: tuple[str, ...] = ()) -> type:
    """Build the Engine subclass for one algorithm (its own parameters named in ``params``)."""

    def __init__(self, game: Game, time: float | None = DEFAULT_TIME, nodes: int | None = None, **kwargs):
        unknown = set(kwargs) - set(params)
        if unknown:
            raise EngineError(f"{name}: unknown parameter {sorted(unknown)[0]!r} (valid: time, nodes"
                              f"{''.join(', ' + p for p in params)})")
        SingleAgentEngine.__init__(self, game, time, nodes, **kwargs)

    def run(self, problem: SolitaireProblem, budget: Budget) -> Solution:
        return runner(problem, budget, **{key: self.params[key] for key in params if key in self.params})

    cls = type(name.title().replace("-", "") + "Engine", (SingleAgentEngine,),
               {"name": name, "title": title, "__init__": __init__, "run": run,
                "__doc__": f"{title} as an engine: ``{name}`` in the registry (ai/data/single_agent.yaml)."})
    return cls


def _hill(problem, budget, sideways=100, seed=0, steepest=False):
    return hill_climbing(problem, budget, steepest=steepest, max_sideways=sideways, rng=random.Random(seed))


BreadthFirstEngine = _engine("bfs", "Bounded breadth-first",
                             lambda p, b, max_depth=None: breadth_first(p, max_depth, b), ("max_depth",))
DepthFirstEngine = _engine("dfs", "Bounded depth-first",
                           lambda p, b, max_depth=None: depth_first(p, max_depth, b), ("max_depth",))
CycleCheckingEngine = _engine("cycle-dfs", "Cycle-checking depth-first",
                              lambda p, b: depth_first(p, None, b, cycle_check=True))
IterativeDeepeningEngine = _engine("iddfs", "Iterative deepening",
                                   lambda p, b, step=1: iterative_deepening(p, step, None, b), ("step",))
LowestCostEngine = _engine("lowest-cost", "Lowest-cost-first", lambda p, b: lowest_cost_first(p, b))
GreedyBestFirstEngine = _engine("greedy-best-first", "Greedy best-first", lambda p, b: greedy_best_first(p, b))
HeuristicDepthFirstEngine = _engine("heuristic-dfs", "Heuristic depth-first",
                                    lambda p, b: heuristic_depth_first(p, b))
PackedDepthFirstEngine = _engine("packed-dfs", "Packed heuristic depth-first",
                                 lambda p, b: packed_depth_first(p, b))
AStarEngine = _engine("astar", "A*", lambda p, b: astar(p, b))
WeightedAStarEngine = _engine("weighted-astar", "Weighted A*",
                              lambda p, b, weight=2.0: astar(p, b, weight), ("weight",))
IDAStarEngine = _engine("idastar", "IDA*", lambda p, b: ida_star(p, b))
HillClimbingEngine = _engine("hill-climbing", "Hill climbing",
                             lambda p, b, sideways=100, seed=0: _hill(p, b, sideways, seed), ("sideways", "seed"))
SteepestAscentEngine = _engine("steepest-ascent", "Steepest-ascent hill climbing",
                               lambda p, b, sideways=100, seed=0: _hill(p, b, sideways, seed, True),
                               ("sideways", "seed"))
BeamEngine = _engine("beam", "Beam search", lambda p, b, width=10: beam_search(p, width, b), ("width",))

ENGINES: tuple[type, ...] = (
    BreadthFirstEngine, DepthFirstEngine, CycleCheckingEngine, IterativeDeepeningEngine, LowestCostEngine,
    GreedyBestFirstEngine, HeuristicDepthFirstEngine, PackedDepthFirstEngine, AStarEngine, WeightedAStarEngine,
    IDAStarEngine, HillClimbingEngine, SteepestAscentEngine, BeamEngine,
)
"""Every single-agent engine, uninformed first."""
