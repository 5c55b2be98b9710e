"""A fast heuristic depth-first search for Solitaire Mancala on packed integer positions.

``heuristic_depth_first`` in ``ai.single_agent`` searches any :class:`SearchProblem`; this module does the
same search for Solitaire Mancala only, several times faster, so the Strongest engine solves nearly every
fresh deal within a second in pure Python:

- A round-start position is one int: hole ``i`` holds its count in bits ``6i..6i+5`` (48 stones fit in 6
  bits), shifted left by 4 to make room for the selected hole (0..11, or ``FREE``).
- A round is precomputed once per variant for every (hole, stones in it): the change it makes to the packed
  board (one addition), the hole it ends in and whether it stores a stone.  Sowing ``n`` stones adds
  ``n // 12`` to every hole and one to the next ``n % 12``; the store step happens exactly when the
  stone before last falls into a row-end hole in the direction of sowing (``rules.solitaire.sow``).
- The search is the graph search of ``heuristic_depth_first``: every position generated is remembered (with
  the round that reached it, which gives the line back), successors that store are tried first, then the
  rest in legal-move order.  Reaching a goal needs only a line of distinct positions, which is what the
  repetition rule allows, so the search is exact: it finds a goal whenever one exists, and an exhausted
  search proves the best score (``tests/ai/test_solitaire_packed.py`` checks it against plain enumeration).

Every line is replayed through ``SolitaireProblem.result`` before it is returned, and the engine replays it
through ``Solitaire.apply``: the packed arithmetic is cross-checked by the rules on every search.
"""
from __future__ import annotations

from ai.base import SearchAborted
from ai.single_agent import Budget, Solution, solution_for
from ai.solitaire_problem import DEAD, SolitaireProblem
from rules.solitaire import _END_STORE, _NEXT, CCW, CW, HOLES, STONES, Round

BITS = 6
MASK = (1 << BITS) - 1
FREE = 12
"""The selected-hole field of a packed position when the player may choose any hole."""
SELECT_BITS = 4
POLL_EVERY = 512
"""Expansions between two checks of the budget (deadline, node limit, cancel token)."""

_SHIFT = tuple(BITS * i for i in range(HOLES))
_EVERY_HOLE = sum(1 << s for s in _SHIFT)

Entry = tuple[int, int, bool, Round, Round]
"""One round from a hole holding a given number of stones: (board change, last hole, stores a stone,
the Round when the hole was selected by the last round, the Round when the player chose the hole)."""


def pack(board: tuple[int, ...], selected: int | None) -> int:
    """The packed position of hole counts ``board`` with ``selected`` (None: free choice)."""
    value = 0
    for i, count in enumerate(board):
        if count > MASK:
            raise ValueError(f"hole{i + 1:02d} holds {count} stones; the packed search handles at most {MASK}")
        value |= count << _SHIFT[i]
    return value << SELECT_BITS | (FREE if selected is None else selected)


def unpack(position: int) -> tuple[tuple[int, ...], int | None]:
    """The hole counts and the selected hole (None: free choice) of a packed position."""
    selected = position & ((1 << SELECT_BITS) - 1)
    board = position >> SELECT_BITS
    return tuple((board >> s) & MASK for s in _SHIFT), (None if selected == FREE else selected)


def _walk(start: int, direction: str, steps: int) -> tuple[int, int]:
    """(the hole ``steps`` holes along the ring from ``start``, the packed stones dropped on the way)."""
    nxt = _NEXT[direction]
    laps, rest = divmod(steps, HOLES)
    added = laps * _EVERY_HOLE
    pos = start
    for _ in range(rest):
        pos = nxt[pos]
        added += 1 << _SHIFT[pos]
    if rest == 0:
        pos = start
    return pos, added


def round_table(lewis: bool) -> tuple[tuple[tuple[Entry, ...], ...], ...]:
    """``table[hole][stones]``: every round from ``hole`` holding ``stones``, in legal-move order."""
    table = []
    for start in range(HOLES):
        by_count: list[tuple[Entry, ...]] = [()]
        for stones in range(1, STONES + 1):
            entries: list[Entry] = []
            taken = -(stones << _SHIFT[start])
            for direction in (CW, CCW):
                ends = _END_STORE[direction]
                last, added = _walk(start, direction, stones)
                keep = (taken + added, last, False,
                        Round(None, direction, False), Round(start + 1, direction, False))
                if stones == 1 and start in ends:
                    # A picked-up single stone at a row end: past the store (dose), or set aside (lewis).
                    aside = (taken, start, True, Round(None, direction, True), Round(start + 1, direction, True))
                    entries.extend((keep, aside) if lewis else (keep,))
                    continue
                before, added_before = _walk(start, direction, stones - 1)
                if stones >= 2 and before in ends:
                    store = (taken + added_before, before, True,
                             Round(None, direction, lewis), Round(start + 1, direction, lewis))
                    entries.extend((keep, store) if lewis else (store,))
                else:
                    entries.append(keep)
            by_count.append(tuple(entries))
        table.append(tuple(by_count))
    return tuple(table)


_TABLES = {False: round_table(False), True: round_table(True)}


def packed_depth_first(problem: SolitaireProblem, budget: Budget | None = None) -> Solution:
    """Heuristic depth-first graph search for ``problem`` on packed positions (see the module docstring)."""
    budget = budget or Budget()
    stats = budget.stats
    table = _TABLES[problem.lewis]
    board0, selected0, stored0, left0 = problem.initial
    floor = problem.floor
    root = pack(board0, selected0)
    # parent[position] = (the position before, the round played); the root and the history have no parent.
    parent: dict[int, tuple[int, Round] | None] = {root: None}
    for holes, selected in problem.forbidden:
        parent.setdefault(pack(holes, selected), None)
    stats.visited += 1
    best, best_left = root, left0
    goal = None
    exhausted = False
    if selected0 == DEAD:
        exhausted = True
    elif left0 <= floor:
        goal = root
    else:
        stack = [(root, left0)]
        expanded = 0
        next_poll = POLL_EVERY
        visited = stats.visited
        try:
            while stack:
                position, left = stack.pop()
                expanded += 1
                if expanded >= next_poll:
                    next_poll += POLL_EVERY
                    stats.expanded, stats.visited = expanded, visited
                    budget.check()
                packed = position >> SELECT_BITS
                selected = position & 15
                starts = [i for i in range(HOLES) if (packed >> _SHIFT[i]) & MASK] if selected == FREE \
                    else (selected,)
                storing = []
                others = []
                for start in starts:
                    for change, last, stores, fixed, chosen in table[start][(packed >> _SHIFT[start]) & MASK]:
                        after = packed + change
                        count = (after >> _SHIFT[last]) & MASK
                        if stores:
                            child = after << SELECT_BITS | (last if count else FREE)
                        elif count == 1:
                            continue  # the last stone fell into an empty hole: lost
                        else:
                            child = after << SELECT_BITS | last
                        if child in parent:
                            continue
                        parent[child] = (position, fixed if selected != FREE else chosen)
                        visited += 1
                        if stores:
                            if left - 1 <= floor:
                                goal = child
                                raise _Found
                            storing.append((child, left - 1))
                        else:
                            others.append((child, left))
                if storing and left - 1 < best_left:
                    best, best_left = storing[0][0], left - 1
                # Pushed in reverse so that the first storing round is popped next.
                stack.extend(reversed(others))
                stack.extend(reversed(storing))
                if len(stack) > stats.max_frontier:
                    stats.max_frontier = len(stack)
            exhausted = True
        except _Found:
            best, best_left = goal if goal is not None else best, floor
        except SearchAborted:
            pass
        finally:
            stats.expanded, stats.visited = expanded, visited
    return _solution(problem, parent, goal if goal is not None else best, goal is not None, exhausted, budget)


class _Found(Exception):
    """A goal was generated: unwinds the search loop."""


def _solution(problem: SolitaireProblem, parent: dict, end: int, solved: bool, exhausted: bool,
              budget: Budget) -> Solution:
    """The line from the root to ``end``, replayed through ``problem.result`` (which checks the packing)."""
    moves = []
    link = parent[end]
    while link is not None:
        end, move = link
        moves.append(move)
        link = parent[end]
    moves.reverse()
    states = [problem.initial]
    for move in moves:
        states.append(problem.result(states[-1], move))
    reason = "goal found" if solved else "every state examined" if exhausted else budget.stop_reason
    return solution_for(problem, moves, states, solved, exhausted, reason, budget)
