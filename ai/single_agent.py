"""Single-agent search: a small problem protocol and the classic algorithms on it.

The protocol follows aima's ``Problem``: an initial state, ``actions``, ``result``, ``is_goal``,
``action_cost`` and ``heuristic`` (an admissible estimate of the cost still to pay), plus three things a
puzzle with a score needs: ``key`` (what duplicate detection compares), ``value`` (the score of a line that
stops at a state, so a search that finds no goal still returns its best line) and ``bound`` (a value no line
through the state can beat, so a line reaching it is proven best).

Every algorithm takes a :class:`Budget` (nodes, deadline, cancel token, polled every few hundred nodes) and
returns a :class:`Solution`: the path to a goal, or the best line found; ``solved`` when a goal was reached;
``exhaustive`` when the score is proven (a goal reached, or every line examined without a cut-off); and
:class:`SearchStats`.  The algorithms are functions, as in aima; ``ai.single_agent_engines`` wraps them as
engines.  A search that keeps its own tree (``ai.solitaire_packed``) builds its Solution with
:func:`solution_for`, so every algorithm proves and explains its result the same way.
"""
from __future__ import annotations

import heapq
import math
import random
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, Sequence, TypeVar

from ai.base import CancelToken, SearchAborted

S = TypeVar("S")
A = TypeVar("A")

POLL_EVERY = 256
"""Expansions between two polls of the cancel token and the deadline."""


class SearchProblem(ABC, Generic[S, A]):
    """What a single-agent search needs to know of a puzzle."""

    initial: S

    @abstractmethod
    def actions(self, state: S) -> Sequence[A]:
        """The actions available in ``state`` (empty for a finished game), in a fixed order."""

    @abstractmethod
    def result(self, state: S, action: A) -> S:
        """The state ``action`` leads to."""

    @abstractmethod
    def is_goal(self, state: S) -> bool:
        """True for a state that solves the puzzle."""

    def action_cost(self, state: S, action: A, result: S) -> float:
        """The cost of one step (1 by default)."""
        return 1.0

    def heuristic(self, state: S) -> float:
        """A lower bound on the cost from ``state`` to a goal; ``math.inf`` when no goal is reachable."""
        return 0.0

    def key(self, state: S) -> Hashable:
        """What duplicate detection compares (by default the state itself)."""
        return state

    def value(self, state: S) -> float:
        """The score of a line that stops at ``state`` (higher is better); 0 by default."""
        return 0.0

    def bound(self, state: S) -> float:
        """No line through ``state`` scores more than this (``math.inf`` when nothing is known)."""
        return math.inf


@dataclass
class SearchStats:
    """How much work a search did."""

    visited: int = 0
    """States generated (the root included)."""
    expanded: int = 0
    """States whose successors were generated."""
    time: float = 0.0
    max_frontier: int = 0
    iterations: int = 0
    """Completed iterations (iterative deepening, IDA*, restarts of hill climbing)."""

    @property
    def states_per_second(self) -> float:
        return self.visited / self.time if self.time > 0 else 0.0


@dataclass(frozen=True)
class Solution(Generic[S, A]):
    """What a search returns: a path of actions from the initial state and what it is worth."""

    path: tuple[A, ...]
    states: tuple[S, ...]
    """The states along the path, the initial state first."""
    value: float
    solved: bool
    exhaustive: bool
    reason: str
    stats: SearchStats = field(default_factory=SearchStats)

    @property
    def final(self) -> S:
        return self.states[-1]


class Budget:
    """Counts nodes and stops the search (SearchAborted) past ``nodes``, past ``deadline`` or on cancel."""

    def __init__(self, nodes: int | None = None, seconds: float | None = None,
                 cancel: CancelToken | None = None) -> None:
        self.started = time.perf_counter()
        self.max_nodes = nodes
        self.deadline = None if seconds is None else self.started + seconds
        self.cancel = cancel
        self.stats = SearchStats()
        self._next_poll = POLL_EVERY

    def expand(self) -> None:
        """Count one expansion and check the node limit; every POLL_EVERY expansions, all the limits."""
        stats = self.stats
        stats.expanded += 1
        if stats.expanded >= self._next_poll:
            self._next_poll += POLL_EVERY
            self.check()
        elif self.max_nodes is not None and stats.visited >= self.max_nodes:
            raise SearchAborted

    def check(self) -> None:
        """Check the limits now (for searches that count their own work in ``stats`` and poll now and then)."""
        if self.cancel is not None:
            self.cancel.check()
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchAborted
        if self.max_nodes is not None and self.stats.visited >= self.max_nodes:
            raise SearchAborted

    @property
    def stop_reason(self) -> str:
        """Why a search that stopped early stopped: ``cancelled`` or ``budget spent`` (nodes or time)."""
        return "cancelled" if self.cancel is not None and self.cancel.is_cancelled else "budget spent"


def solution_for(problem: SearchProblem[S, A], path: Sequence[A], states: Sequence[S], solved: bool,
                 exhaustive: bool, reason: str, budget: Budget) -> Solution[S, A]:
    """The Solution of a search that ends with the line ``path`` (``states`` along it, the initial one first).

    Its score is proven when a goal was reached, the search was exhaustive, or the line reaches the bound of the
    initial state; the search time is taken now.
    """
    budget.stats.time = time.perf_counter() - budget.started
    value = problem.value(states[-1])
    proven = solved or exhaustive or value >= problem.bound(problem.initial)
    return Solution(tuple(path), tuple(states), value, solved, proven, reason, budget.stats)


class _Node:
    """A search-tree node: a state and how it was reached."""

    __slots__ = ("state", "parent", "action", "g", "depth")

    def __init__(self, state, parent: "_Node | None" = None, action=None, g: float = 0.0, depth: int = 0):
        self.state = state
        self.parent = parent
        self.action = action
        self.g = g
        self.depth = depth

    def child(self, problem: SearchProblem, action) -> "_Node":
        state = problem.result(self.state, action)
        return _Node(state, self, action, self.g + problem.action_cost(self.state, action, state), self.depth + 1)

    def line(self) -> tuple[tuple, tuple]:
        actions, states = [], []
        node: _Node | None = self
        while node is not None:
            states.append(node.state)
            if node.parent is not None:
                actions.append(node.action)
            node = node.parent
        return tuple(reversed(actions)), tuple(reversed(states))


class _GoalFound(Exception):
    """A goal was generated where the algorithm stops at the first goal it generates: ends the search."""

    def __init__(self, node: _Node) -> None:
        super().__init__()
        self.node = node


class _Run:
    """The bookkeeping every algorithm shares: statistics, the best line so far, and the final Solution."""

    def __init__(self, problem: SearchProblem, budget: Budget | None) -> None:
        self.problem = problem
        self.budget = budget or Budget()
        self.stats = self.budget.stats
        self.root = _Node(problem.initial)
        self.best = self.root
        self.best_value = problem.value(problem.initial)
        self.stats.visited += 1

    def seen(self, node: _Node) -> bool:
        """Record a generated node; True when it is a goal."""
        self.stats.visited += 1
        value = self.problem.value(node.state)
        if value > self.best_value:
            self.best, self.best_value = node, value
        return self.problem.is_goal(node.state)

    def new_children(self, node: _Node, reached: set, ranked: bool = False) -> list:
        """The children of ``node`` whose keys are not in ``reached`` yet (now added), in action order; the
        first goal among them ends the search (for graph searches that test for the goal on generation).

        With ``ranked``, each comes as ``(heuristic, serial, child)`` and those from which no goal can be reached
        are left out; ``serial`` is the count of states generated so far, so that sorting puts the best first
        and equals in the order they were generated (action order), across any number of calls.
        """
        problem = self.problem
        children: list = []
        for action in problem.actions(node.state):
            child = node.child(problem, action)
            k = problem.key(child.state)
            if k in reached:
                continue
            reached.add(k)
            if self.seen(child):
                raise _GoalFound(child)
            if not ranked:
                children.append(child)
                continue
            h = problem.heuristic(child.state)
            if h != math.inf:
                children.append((h, self.stats.visited, child))
        return children

    def finish(self, node: _Node | None, exhaustive: bool, reason: str) -> Solution:
        """The Solution: the goal ``node`` if given, else the best line found."""
        solved = node is not None
        path, states = (node if node is not None else self.best).line()
        return solution_for(self.problem, path, states, solved, exhaustive, reason, self.budget)


def _run(search: Callable[[_Run], Solution], problem: SearchProblem, budget: Budget | None) -> Solution:
    run = _Run(problem, budget)
    if problem.is_goal(problem.initial):
        return run.finish(run.root, True, "the initial state is a goal")
    try:
        return search(run)
    except _GoalFound as found:
        return run.finish(found.node, True, "goal found")
    except SearchAborted:
        return run.finish(None, False, run.budget.stop_reason)


# -- uninformed ----------------------------------------------------------------------------------------------------
def breadth_first(problem: SearchProblem, max_depth: int | None = None, budget: Budget | None = None) -> Solution:
    """Breadth-first graph search, bounded to ``max_depth`` steps: the goal with the fewest steps."""
    def search(run: _Run) -> Solution:
        frontier = [run.root]
        reached = {problem.key(run.root.state)}
        cut = False
        while frontier:
            run.stats.max_frontier = max(run.stats.max_frontier, len(frontier))
            layer, frontier = frontier, []
            for node in layer:
                if max_depth is not None and node.depth >= max_depth:
                    cut = cut or bool(problem.actions(node.state))
                    continue
                run.budget.expand()
                frontier.extend(run.new_children(node, reached))
        return run.finish(None, not cut, "depth limit reached" if cut else "every state examined")
    return _run(search, problem, budget)


def depth_first(problem: SearchProblem, max_depth: int | None = None, budget: Budget | None = None,
                cycle_check: bool = False) -> Solution:
    """Depth-first search bounded to ``max_depth`` steps.

    With ``cycle_check`` it is the classic cycle-checking DFS: no closed set, only the states on the current
    path are refused.  Without, it remembers, for every state met, the most steps left it was searched with,
    and searches it again only with more (the bound stays exact and re-visits stay cheap).
    """
    def search(run: _Run) -> Solution:
        searched: dict = {}
        on_path: set = set()
        cut = False
        # An explicit stack of (node, iterator over actions) keeps deep lines off the Python call stack.
        stack = [(run.root, iter(problem.actions(run.root.state)))]
        on_path.add(problem.key(run.root.state))
        searched[problem.key(run.root.state)] = math.inf if max_depth is None else max_depth
        run.budget.expand()
        while stack:
            node, actions = stack[-1]
            action = next(actions, None)
            if action is None:
                stack.pop()
                on_path.discard(problem.key(node.state))
                continue
            child = node.child(problem, action)
            k = problem.key(child.state)
            if cycle_check:
                if k in on_path:
                    continue
            else:
                left = math.inf if max_depth is None else max_depth - child.depth
                if searched.get(k, -1) >= left:
                    continue
                searched[k] = left
            if run.seen(child):
                return run.finish(child, True, "goal found")
            if max_depth is not None and child.depth >= max_depth:
                cut = cut or bool(problem.actions(child.state))
                continue
            run.budget.expand()
            on_path.add(k)
            stack.append((child, iter(problem.actions(child.state))))
            run.stats.max_frontier = max(run.stats.max_frontier, len(stack))
        return run.finish(None, not cut, "depth limit reached" if cut else "every line examined")
    return _run(search, problem, budget)


def iterative_deepening(problem: SearchProblem, step: int = 1, max_depth: int | None = None,
                        budget: Budget | None = None) -> Solution:
    """Depth-first search to depth ``step``, then ``2 * step``, ... until a goal or no cut-off."""
    budget = budget or Budget()
    depth, last = step, None
    while True:
        last = depth_first(problem, depth, budget)
        budget.stats.iterations += 1
        if last.solved or last.exhaustive or last.reason != "depth limit reached":
            return last
        if max_depth is not None and depth >= max_depth:
            return last
        depth += step


def lowest_cost_first(problem: SearchProblem, budget: Budget | None = None) -> Solution:
    """Uniform-cost search: the cheapest goal (A* with a zero heuristic)."""
    return _best_first(problem, budget, lambda g, h: g)


# -- informed ------------------------------------------------------------------------------------------------------
def greedy_best_first(problem: SearchProblem, budget: Budget | None = None) -> Solution:
    """Expand the state the heuristic rates closest to a goal first."""
    return _best_first(problem, budget, lambda g, h: h, goal_on_generation=True)


def astar(problem: SearchProblem, budget: Budget | None = None, weight: float = 1.0) -> Solution:
    """A* (``weight`` 1: the cheapest goal with an admissible heuristic) or weighted A* (``weight`` > 1)."""
    if weight == 1.0:
        return _best_first(problem, budget, lambda g, h: g + h)
    return _best_first(problem, budget, lambda g, h: g + weight * h, goal_on_generation=True)


def _best_first(problem: SearchProblem, budget: Budget | None, priority: Callable[[float, float], float],
                goal_on_generation: bool = False) -> Solution:
    """Best-first graph search on ``priority(g, h)``; ties go to the smaller h, then to the older node."""
    def search(run: _Run) -> Solution:
        counter = 0
        root = run.root
        h = problem.heuristic(root.state)
        frontier = [(priority(0.0, h), h, counter, root)]
        best_g = {problem.key(root.state): 0.0}
        while frontier:
            run.stats.max_frontier = max(run.stats.max_frontier, len(frontier))
            _, _, _, node = heapq.heappop(frontier)
            if best_g.get(problem.key(node.state), math.inf) < node.g:
                continue  # a cheaper way to this state was found after this entry was pushed
            if not goal_on_generation and node is not root and problem.is_goal(node.state):
                return run.finish(node, True, "goal found")
            run.budget.expand()
            for action in problem.actions(node.state):
                child = node.child(problem, action)
                k = problem.key(child.state)
                if best_g.get(k, math.inf) <= child.g:
                    continue
                best_g[k] = child.g
                if run.seen(child) and goal_on_generation:
                    return run.finish(child, True, "goal found")
                h = problem.heuristic(child.state)
                if h == math.inf:
                    continue
                counter += 1
                heapq.heappush(frontier, (priority(child.g, h), h, counter, child))
        return run.finish(None, True, "every state examined")
    return _run(search, problem, budget)


def heuristic_depth_first(problem: SearchProblem, budget: Budget | None = None) -> Solution:
    """Depth-first graph search that tries the successors the heuristic likes best first."""
    def search(run: _Run) -> Solution:
        reached = {problem.key(run.root.state)}
        stack = [run.root]
        while stack:
            node = stack.pop()
            run.budget.expand()
            # Push the worst first so the best is popped next.
            for _, _, child in sorted(run.new_children(node, reached, ranked=True), reverse=True):
                stack.append(child)
            run.stats.max_frontier = max(run.stats.max_frontier, len(stack))
        return run.finish(None, True, "every state examined")
    return _run(search, problem, budget)


def ida_star(problem: SearchProblem, budget: Budget | None = None) -> Solution:
    """Iterative-deepening A*: depth-first within a bound on g + h, raised to the least value that exceeded it.

    Within an iteration a state met again with a g no smaller than before is not searched again.
    """
    def search(run: _Run) -> Solution:
        threshold = problem.heuristic(run.root.state)
        while threshold < math.inf:
            next_threshold = math.inf
            best_g: dict = {problem.key(run.root.state): 0.0}
            stack = [(run.root, iter(problem.actions(run.root.state)))]
            run.budget.expand()
            while stack:
                node, actions = stack[-1]
                action = next(actions, None)
                if action is None:
                    stack.pop()
                    continue
                child = node.child(problem, action)
                k = problem.key(child.state)
                if best_g.get(k, math.inf) <= child.g:
                    continue
                best_g[k] = child.g
                if run.seen(child):
                    return run.finish(child, True, "goal found")
                f = child.g + problem.heuristic(child.state)
                if f > threshold:
                    next_threshold = min(next_threshold, f)
                    continue
                run.budget.expand()
                stack.append((child, iter(problem.actions(child.state))))
                run.stats.max_frontier = max(run.stats.max_frontier, len(stack))
            run.stats.iterations += 1
            threshold = next_threshold
        return run.finish(None, True, "every state examined")
    return _run(search, problem, budget)


# -- local search --------------------------------------------------------------------------------------------------
def hill_climbing(problem: SearchProblem, budget: Budget | None = None, steepest: bool = False,
                  max_sideways: int = 100, restarts: int | None = None,
                  rng: random.Random | None = None) -> Solution:
    """Hill climbing on ``-heuristic`` (closer to the goal is higher), restarted from the initial state.

    A step goes to a successor at least as good as the current state (sideways at most ``max_sideways``
    times in a row): the first such one in random order, or with ``steepest`` the best (ties broken at
    random).  A walk stops at a goal, a dead end or a local maximum; the next walk starts again from the
    initial state with other random choices, until a goal, ``restarts`` walks or the budget.  Never proves.
    """
    rng = rng or random.Random(0)

    def search(run: _Run) -> Solution:
        walks = 0
        while restarts is None or walks < restarts:
            node, sideways = run.root, 0
            here = problem.heuristic(node.state)
            path_keys = {problem.key(node.state)}
            while True:
                run.budget.expand()
                scored = []
                for action in problem.actions(node.state):
                    child = node.child(problem, action)
                    if problem.key(child.state) in path_keys:
                        continue
                    if run.seen(child):
                        return run.finish(child, True, "goal found")
                    h = problem.heuristic(child.state)
                    if h <= here:
                        scored.append((h, rng.random(), child))
                if not scored:
                    break
                if steepest:
                    h, _, child = min(scored, key=lambda item: (item[0], item[1]))
                else:
                    h, _, child = min(scored, key=lambda item: item[1])
                sideways = sideways + 1 if h == here else 0
                if sideways > max_sideways:
                    break
                node, here = child, h
                path_keys.add(problem.key(node.state))
            walks += 1
            run.stats.iterations = walks
        return run.finish(None, False, "local maximum")
    return _run(search, problem, budget)


def beam_search(problem: SearchProblem, width: int = 10, budget: Budget | None = None) -> Solution:
    """Breadth-first by layers, keeping only the ``width`` best states of each layer (by heuristic).

    Proves nothing unless no layer ever had to be cut.
    """
    def search(run: _Run) -> Solution:
        layer = [run.root]
        reached = {problem.key(run.root.state)}
        pruned = False
        while layer:
            children = []
            for node in layer:
                run.budget.expand()
                children.extend(run.new_children(node, reached, ranked=True))
            run.stats.max_frontier = max(run.stats.max_frontier, len(children))
            if len(children) > width:
                pruned = True
                children = heapq.nsmallest(width, children)
            layer = [child for _, _, child in children]
        return run.finish(None, not pruned, "beam emptied" if pruned else "every state examined")
    return _run(search, problem, budget)
