"""Solitaire Mancala as a single-agent search problem, with the goal and heuristic of each variant.

A step is one round and costs 1.  Every round stores at most one stone, so the stones still to store are an
admissible estimate of the rounds still to play, and ``g + h`` grows only on rounds that store nothing: A*
and IDA* look for the line that wastes the fewest rounds.

- ``lewis``: the goal is a cleared board (a win); the heuristic is the stones left.
- ``dose``: no deal can be won and a game that starts with 4 or more stones left never gets below 2
  (docs/rules/solitaire.md point 6, checked in ``tests/rules/test_solitaire_rules.py``), so the goal is 2 left: 46 stored
  from a full deal, the perfect score.  From 3 or fewer stones the floor is 1 (an empty board is never
  reached from 1 to 4 stones).  The value of a line is the stones it stores; a search that cannot reach the
  goal returns the line storing most, proven best when it examined everything.

Search states are plain tuples ``(holes, selected, stored, left)`` built with the rules' own ``sow``, several
times cheaper than full game states.  They leave the repetition history out: every algorithm refuses a state
already on its path (or already reached), which is exactly what the repetition rule forbids, and the few
positions the real game has already seen since its last store are marked dead here.  The engines replay the
line found through ``Solitaire.apply``, so what they return is checked by the rules themselves.
"""
from __future__ import annotations

import math

from ai.single_agent import SearchProblem
from rules.solitaire import CCW, CW, HOLES, Round, Solitaire, SolitaireState, can_set_aside, sow

Node = tuple
"""A search state: (holes, selected index or None, stones stored, stones left); selected is DEAD once lost."""

DEAD = -1
_FIXED = (Round(None, CW), Round(None, CCW))


def floor_of(game: Solitaire, left: int) -> int:
    """The fewest stones a game with ``left`` stones in the holes can get down to (proven bound)."""
    if game.is_lewis:
        return 0
    return 2 if left >= 4 else min(left, 1)


class SolitaireProblem(SearchProblem[Node, Round]):
    """Search from ``state`` for a win (lewis) or the most stones the rules allow (dose)."""

    def __init__(self, game: Solitaire, state: SolitaireState) -> None:
        self.game = game
        self.lewis = game.is_lewis
        left = state.left
        if game.is_terminal(state):
            self.initial = (state.board, DEAD if state.end is not None else None, state.stored, left)
        else:
            self.initial = (state.board, state.selected, state.stored, left)
        self.floor = floor_of(game, left)
        self.target = state.stored + left - self.floor
        """The stones a goal has stored (46 from a fresh dose deal, 48 under lewis)."""
        self._root_stored = state.stored
        self.forbidden = frozenset(state.seen) | {state.position}
        """The (holes, selected) positions the real game has met since its last store: repeating one loses."""

    def actions(self, node: Node) -> tuple[Round, ...]:
        board, selected, _, left = node
        if selected == DEAD or not left:
            return ()
        if selected is not None:
            if not self.lewis:
                return _FIXED
            starts: tuple[int, ...] = (selected,)
        else:
            starts = tuple(i for i in range(HOLES) if board[i])
        moves = []
        for start in starts:
            hole = None if selected is not None else start + 1
            for direction in (CW, CCW):
                moves.append(Round(hole, direction, False))
                if self.lewis and can_set_aside(board, start, direction):
                    moves.append(Round(hole, direction, True))
        return tuple(moves)

    def result(self, node: Node, action: Round) -> Node:
        board, selected, stored, left = node
        if selected is not None:
            start = selected
        elif action.hole is not None:
            start = action.hole - 1
        else:
            raise ValueError(f"{action} names no hole, and the player is free to choose one here")
        cells, last, store, lost = sow(board, start, action.direction, action.set_aside, self.lewis)
        holes = tuple(cells)
        if lost:
            return holes, DEAD, stored, left
        if store is not None:
            return holes, (last if holes[last] else None), stored + 1, left - 1
        if stored == self._root_stored and (holes, last) in self.forbidden:
            return holes, DEAD, stored, left  # the real game would end here by repetition
        return holes, last, stored, left

    def is_goal(self, node: Node) -> bool:
        return node[3] <= self.floor and node[1] != DEAD

    def heuristic(self, node: Node) -> float:
        if node[1] == DEAD:
            return math.inf
        return node[3] - self.floor

    def key(self, node: Node) -> Node:
        return node

    def value(self, node: Node) -> float:
        return node[2]

    def bound(self, node: Node) -> float:
        if node[1] == DEAD:
            return node[2]
        return node[2] + max(0, node[3] - self.floor)
