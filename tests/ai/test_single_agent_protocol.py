"""The bookkeeping the single-agent algorithms share, on a toy problem small enough to reason about by hand:
children generated once each, goals found when generated, dead ends left out, ties taken in action order,
budgets, and when a Solution counts as proven."""
from __future__ import annotations

import math

import pytest

from ai.base import CancelToken, SearchAborted
from ai.single_agent import (
    POLL_EVERY,
    Budget,
    SearchProblem,
    beam_search,
    breadth_first,
    heuristic_depth_first,
    solution_for,
)
from ai.solitaire_packed import packed_depth_first
from ai.solitaire_problem import SolitaireProblem
from rules.solitaire import Solitaire


class Steps(SearchProblem[int, int]):
    """Walk from 0 to ``goal`` in steps of 1 or 2 (many transpositions: each number is reached many ways).

    Numbers in ``dead`` cannot reach the goal (heuristic inf); ``flat`` makes the heuristic 0 everywhere.
    Every state whose actions were asked for is logged in ``expanded``.
    """

    def __init__(self, goal: int = 10, dead: frozenset[int] = frozenset(), flat: bool = False) -> None:
        self.initial = 0
        self.goal = goal
        self.dead = dead
        self.flat = flat
        self.expanded: list[int] = []

    def actions(self, state: int) -> tuple[int, ...]:
        self.expanded.append(state)
        return tuple(step for step in (1, 2) if state + step <= self.goal)

    def result(self, state: int, action: int) -> int:
        return state + action

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def heuristic(self, state: int) -> float:
        if state in self.dead:
            return math.inf
        return 0.0 if self.flat else (self.goal - state) / 2

    def value(self, state: int) -> float:
        return state


SEARCHES = {
    "bfs": lambda problem, budget: breadth_first(problem, None, budget),
    "heuristic-dfs": heuristic_depth_first,
    "beam": lambda problem, budget: beam_search(problem, 3, budget),
}


@pytest.mark.parametrize("name", SEARCHES)
def test_each_state_is_generated_once_and_the_first_goal_generated_ends_the_search(name):
    problem = Steps(goal=10)
    solution = SEARCHES[name](problem, Budget())
    assert solution.solved and solution.exhaustive and solution.reason == "goal found"
    assert solution.final == 10 and sum(solution.path) == 10
    assert solution.states == tuple(sum(solution.path[:i]) for i in range(len(solution.path) + 1))
    # 11 numbers in all; a search that generated a number once per way of reaching it would count hundreds.
    assert solution.stats.visited <= 11
    assert 10 not in problem.expanded  # found when generated, never expanded


def test_breadth_first_finds_the_fewest_steps():
    assert breadth_first(Steps(goal=10)).path == (2, 2, 2, 2, 2)


@pytest.mark.parametrize("name", ["heuristic-dfs", "beam"])
def test_dead_ends_are_left_out_of_informed_searches(name):
    problem = Steps(goal=9, dead=frozenset({2, 4, 6}))
    solution = SEARCHES[name](problem, Budget())
    assert solution.solved and not set(solution.states) & problem.dead
    assert not set(problem.expanded) & problem.dead


def test_heuristic_depth_first_takes_equals_in_action_order():
    # With a flat heuristic every child ties, so a step of 1 is tried before a step of 2; a number already
    # generated as a sibling is not generated again, so from 1 the only new child is 3, from 4 it is 6.
    # Taking the last action first instead would give (2, 2, 2).
    assert heuristic_depth_first(Steps(goal=6, flat=True)).path == (1, 2, 1, 2)


def test_a_node_budget_is_checked_at_every_expansion_and_the_clock_every_poll():
    budget = Budget(nodes=5)
    budget.stats.visited = 5
    with pytest.raises(SearchAborted):
        budget.expand()
    clock = Budget(seconds=0.0)
    for _ in range(POLL_EVERY - 1):
        clock.expand()  # the deadline has passed, but it is only looked at every POLL_EVERY expansions
    with pytest.raises(SearchAborted):
        clock.expand()


def test_the_stop_reason_tells_a_cancel_from_a_spent_budget():
    assert Budget(nodes=3).stop_reason == "budget spent"
    token = CancelToken()
    token.cancel()
    assert Budget(cancel=token).stop_reason == "cancelled"
    spent = breadth_first(Steps(goal=40), None, Budget(nodes=20))
    assert spent.reason == "budget spent" and not spent.solved and not spent.exhaustive
    assert spent.value == max(spent.states)  # the best line found so far, not the root
    cancelled = breadth_first(Steps(goal=2000), None, Budget(cancel=token))  # the token is polled: a long walk
    assert cancelled.reason == "cancelled" and not cancelled.exhaustive


def test_the_packed_search_reports_a_cancel_as_the_generic_ones_do():
    game = Solitaire()
    token = CancelToken()
    token.cancel()
    solution = packed_depth_first(SolitaireProblem(game, game.initial_state(seed=4)), Budget(cancel=token))
    assert solution.reason == "cancelled" and not solution.exhaustive and not solution.solved


class Capped(Steps):
    """Steps whose lines can score at most ``cap`` (the value of a state is the number reached)."""

    def __init__(self, cap: float) -> None:
        super().__init__(goal=10)
        self.cap = cap

    def bound(self, state: int) -> float:
        return self.cap


def test_a_line_that_reaches_the_bound_is_proven_without_an_exhaustive_search():
    states = (0, 2, 4)
    reached = solution_for(Capped(4), (2, 2), states, False, False, "budget spent", Budget())
    assert reached.exhaustive and not reached.solved and reached.value == 4 and reached.path == (2, 2)
    short = solution_for(Capped(5), (2, 2), states, False, False, "budget spent", Budget())
    assert not short.exhaustive and short.reason == "budget spent" and short.stats.time >= 0.0
    assert solution_for(Capped(5), (2, 2), states, False, True, "every state examined", Budget()).exhaustive
