"""Monte Carlo tree search with the UCT selection rule, over the rules protocol.

Each iteration walks down the tree by UCT (mean reward plus ``c * sqrt(ln N / n)``), adds one child, plays a
rollout from it and backs the reward up the path.  Rewards are 1 for a win, 0.5 for a draw and 0 for a loss,
kept at each node for the player who made the move into it, so a move after which the same player moves
again (Kalah's extra turn) needs no special case.

Rollout policies (parameter ``rollout``):

- ``random``: uniformly random moves to the end of the game (the rules' ``random_playout``: a fast loop where
  the game has one, else ``Game``'s default through ``legal_moves`` and ``apply``);
- ``greedy``: at each step the best move by the evaluator one ply deep, or a random move with probability
  ``GREEDY_EPSILON`` (pure greedy rollouts would all play the same game);
- ``cutoff``: ``cutoff`` random moves, then the evaluator's sign decides the reward (1, 0.5 or 0).

The engine chooses the most visited move.  Randomness comes from ``random.Random(seed)``, made afresh for
every search, so an iteration limit gives the same move for the same position and seed.
"""
from __future__ import annotations

import math
import random
import time

from ai.base import (
    CancelToken, Engine, EngineError, Limits, ProgressCallback, SearchAborted, SearchResult, gc_paused,
)
from ai.evaluators import evaluator_for, final_score, get_evaluator
from ai.search import Budget, check_two_player
from rules import Game, Move, Player, State

GREEDY_EPSILON = 0.25
"""Chance that a greedy rollout plays a random move instead of the greedy one."""
PROGRESS_SECONDS = 0.25
"""How often a time-limited search reports progress."""
TEARDOWN_SECONDS = 1e-6
"""The first guess of the seconds to free a tree node (0.5 microseconds measured on a quiet 2-core machine)."""
POLL_ITERATIONS = 16
"""Iterations between budget polls (one iteration is a whole rollout, tens of microseconds or more)."""


class _Node:
    """A tree node: its state, the player to move there, statistics, children and untried moves."""

    __slots__ = ("state", "to_move", "visits", "reward", "children", "untried", "terminal")

    def __init__(self, game: Game, state: State, rng: random.Random) -> None:
        self.state = state
        self.terminal = game.is_terminal(state)
        self.to_move: Player = game.to_move(state)
        self.visits = 0
        self.reward = 0.0
        """Sum of rewards for the player who moved into this node."""
        self.children: dict[Move, _Node] = {}
        untried = list(game.legal_moves(state))
        rng.shuffle(untried)
        self.untried = untried


class MCTSEngine(Engine):
    """UCT with a time or iteration limit, an exploration constant and a rollout policy."""

    name = "mcts"

    def __init__(
        self,
        game: Game,
        time: float | None = 1.0,
        iterations: int | None = None,
        c: float = 1.4,
        rollout: str = "random",
        cutoff: int = 20,
        eval: str = "default",
        seed: int = 0,
    ) -> None:
        check_two_player(self.name, game)
        super().__init__(
            game, time=time, iterations=iterations, c=c, rollout=rollout, cutoff=cutoff, eval=eval, seed=seed
        )
        if rollout not in ("random", "greedy", "cutoff"):
            raise EngineError(f"mcts: rollout must be random, greedy or cutoff, not {rollout!r}")
        self.time_limit = time
        self.iterations = iterations
        self.exploration = c
        self.rollout = rollout
        self.cutoff = cutoff
        self.seed = seed
        self.evaluator = get_evaluator(game, eval)
        self.rollout_evaluator = self.evaluator
        """The evaluator of the current search (``evaluator_for`` its root)."""
        self.teardown = TEARDOWN_SECONDS
        """Seconds to free the tree, per node: learnt from the last searches (slower on a busy machine)."""

    def search(
        self,
        state: State,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
    ) -> SearchResult:
        game = self.game
        budget = Budget(limits, cancel, self.time_limit, None, self.iterations)
        if game.is_terminal(state):
            return SearchResult(None, final_score(game, state, game.to_move(state)), 0, 0, (), 0.0, True)
        if budget.deadline is None and budget.max_nodes is None and cancel is None:
            raise EngineError("mcts needs a limit: a time or a number of iterations (e.g. mcts:iterations=2000)")
        rng = random.Random(self.seed)
        self.rollout_evaluator = evaluator_for(self.evaluator, game, state)
        root = _Node(game, state, rng)
        # The tree's nodes hold no cycles (reference counting frees what a rollout drops); the collector's full
        # passes over a growing tree took up to 60 ms at 3 s a move, past the deadline when one came last.  The
        # tree is freed inside the pause too, within the move's time: alive after it, the collector's first pass
        # would walk it all (about 100 ms for 80,000 nodes) wherever it came next.
        with gc_paused():
            iterations = self._grow(root, rng, budget, progress)
            result = self._result(root, iterations, budget)
            freeing = time.perf_counter()
            del root
            rate = (time.perf_counter() - freeing) / max(1, iterations)
            self.teardown = max(rate, 0.75 * self.teardown + 0.25 * rate)
        if progress is not None:
            progress(result)
        return budget.stopped(result)

    def _grow(self, root: _Node, rng: random.Random, budget: Budget, progress: ProgressCallback | None) -> int:
        """Iterate until the budget ends (or a cancel); the iterations done."""
        iterations = 0
        next_report = PROGRESS_SECONDS
        clock = time.perf_counter
        stop = budget.deadline
        teardown = self.teardown
        try:
            while True:
                if iterations % POLL_ITERATIONS == 0:
                    budget.poll(iterations)
                elif budget.max_nodes is not None and iterations >= budget.max_nodes:
                    break
                elif stop is not None and clock() >= stop - teardown * iterations:
                    break  # a rollout can take milliseconds: the clock is read every iteration (a tenth of a
                    # microsecond), and the time to free the tree (a node each iteration) is kept back
                self._iterate(root, rng)
                iterations += 1
                if progress is not None and budget.elapsed() >= next_report:
                    next_report += PROGRESS_SECONDS
                    progress(self._result(root, iterations, budget))
        except SearchAborted:
            pass
        return iterations

    # -- one iteration ----------------------------------------------------------------------------------------
    def _iterate(self, root: _Node, rng: random.Random) -> None:
        game = self.game
        node = root
        path = [root]
        log = math.log
        sqrt = math.sqrt
        c = self.exploration
        while not node.terminal and not node.untried:
            scale = log(node.visits)
            best_value, best_child = -1.0, next(iter(node.children.values()))  # every value beats -1
            for child in node.children.values():
                value = child.reward / child.visits + c * sqrt(scale / child.visits)
                if value > best_value:
                    best_value, best_child = value, child
            node = best_child
            path.append(node)
        if not node.terminal:
            move = node.untried.pop()
            child = _Node(game, game.apply(node.state, move), rng)
            node.children[move] = child
            node = child
            path.append(node)
        rewards = self._rollout(node.state, rng)
        for index, visited in enumerate(path):
            visited.visits += 1
            if index:
                visited.reward += rewards[path[index - 1].to_move]

    def _rollout(self, state: State, rng: random.Random) -> tuple[float, float]:
        """(reward for player 0, reward for player 1) of a rollout from ``state``."""
        game = self.game
        if self.rollout == "random":
            state = game.random_playout(state, rng)[0]
        else:
            steps = 0
            while not game.is_terminal(state):
                if self.rollout == "cutoff" and steps >= self.cutoff:
                    score = self.rollout_evaluator.evaluate(game, state)
                    mover_reward = 1.0 if score > 0 else 0.0 if score < 0 else 0.5
                    return (mover_reward, 1 - mover_reward) if game.to_move(state) == 0 else (1 - mover_reward, mover_reward)
                moves = game.legal_moves(state)
                if self.rollout == "greedy" and rng.random() >= GREEDY_EPSILON:
                    move = self._greedy_move(state, moves)
                else:
                    move = moves[int(rng.random() * len(moves))]
                state = game.apply(state, move)
                steps += 1
        outcome = game.outcome(state)
        if outcome is None or outcome.winner is None:  # None only for a rollout cut short: a draw
            return 0.5, 0.5
        return (1.0, 0.0) if outcome.winner == 0 else (0.0, 1.0)

    def _greedy_move(self, state: State, moves: tuple[Move, ...]) -> Move:
        game = self.game
        mover = game.to_move(state)
        best, best_move = -math.inf, moves[0]
        for move in moves:
            child = game.apply(state, move)
            if game.is_terminal(child):
                value = final_score(game, child, mover)
            else:
                value = self.rollout_evaluator.evaluate(game, child)
                if game.to_move(child) != mover:
                    value = -value
            if value > best:
                best, best_move = value, move
        return best_move

    # -- the answer -------------------------------------------------------------------------------------------
    def _result(self, root: _Node, iterations: int, budget: Budget) -> SearchResult:
        if not root.children:  # no iteration finished: the first legal move
            move = self.game.legal_moves(root.state)[0]
            return SearchResult(move, 0.0, 0, iterations, (move,), budget.elapsed())
        order = {move: index for index, move in enumerate(self.game.legal_moves(root.state))}
        move, child = max(root.children.items(), key=lambda item: (item[1].visits, -order[item[0]]))
        pv = [move]
        node, depth = child, 1
        while node.children:
            pv_move, node = max(node.children.items(), key=lambda item: item[1].visits)
            pv.append(pv_move)
            depth += 1
        score = 2 * child.reward / child.visits - 1
        return SearchResult(
            move, score, depth, iterations, tuple(pv), budget.elapsed(), False,
            {"visits": child.visits, "iterations": iterations},
        )
