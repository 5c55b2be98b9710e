"""The Magnetic Cave search kernel: packed bitboards, forced moves played at once, the threat evaluator inline.

*Positions.*  A position is one int, ``mine | theirs << 64``: the side to move's bricks in the low 64 bits and
the opponent's above (bit ``row * 8 + column`` as in ``rules.magnetic_cave``).  It is its own transposition
key and colour-free, which is exact here: the rules treat both colours alike once the first move is made.

*Threats by shifts.*  The cells that would complete five for a set of bricks are found with 8 shifted copies
of the bitboard per direction (the bricks 1..4 steps either way) and five AND patterns, one per place of the
empty cell in its line of five: about 150 integer operations instead of a loop over the 96 windows.

*Forced moves* (deliberate, sound pruning; every proven value is exact, with every win worth the same):

- the side to move has an immediate win: that one child, scored as a win; the rest cannot do better;
- the opponent has an immediate win: only a block can avoid losing, so only the block is a child (with two
  or more threat cells open the position is lost, and one child says so);
- a move that opens a threat cell of the opponent (or leaves one open) loses at once: a final loss;
- a move that leaves two playable threat cells of the mover (the opponent having no win) wins: a final win;
- a *four*, a move that leaves one playable threat cell, forces the opponent's block there: the child is the
  position after the block, with the same player to move (``same_mover``), so a sequence of fours costs one
  ply each and the iterative deepening finds threat-space wins twice as deep.  Such a line's principal
  variation leaves the forced blocks out.

A depth-limited search on this kernel therefore sees more than plain minimax on the rules (``GameKernel``)
at the same depth; ``tests/test_cave_player.py`` checks every proven child against the rules, and that the
heuristic scores are exactly ``ThreatEvaluator``'s.

*Evaluation.*  ``evaluate`` is ``ai.evaluators.magnetic_cave.ThreatEvaluator`` on the two ints, without
building a state; ``best_leaf`` (the depth-1 nodes, the search's hottest loop) scores each child with it and
stops at the first that reaches ``beta``, trying fours first.
"""
from __future__ import annotations

from ai.evaluators import WIN, Evaluator
from ai.evaluators.magnetic_cave import (
    ATTACK,
    CELL_WINDOWS,
    DEFEND,
    LOSS_NEXT,
    THREAT_BLOCK,
    THREAT_LATER,
    THREAT_NEXT,
    NEXT_BONUS,
    NOW_BONUS,
    WIN_NEXT,
    WINDOW_VALUE,
    WINDOWS,
    ThreatEvaluator,
)
from rules import Game, State
from rules.magnetic_cave import FULL, NOT_A, NOT_H, SIZE, WALLS, CaveState, Cell

BOARD_BITS = SIZE * SIZE


def _columns(low: int, high: int) -> int:
    """The cells whose column lies in ``low..high``."""
    return sum(1 << (row * SIZE + column) for row in range(SIZE) for column in range(low, high + 1))


def _shift_plan() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per direction, for k = 1..4 then -1..-4: (shift, mask) so that ``bits >> shift & mask`` (or ``<<`` for a
    negative shift) holds cell x exactly when ``bits`` holds the cell k steps from x along the direction."""
    plans = []
    for step, column_step in ((1, 1), (SIZE, 0), (SIZE + 1, 1), (SIZE - 1, -1)):
        plan = []
        for k in (1, 2, 3, 4, -1, -2, -3, -4):
            # x + k*step must stay on the board: its column x_col + k*column_step within 0..7.
            low = max(0, -k * column_step)
            high = min(SIZE - 1, SIZE - 1 - k * column_step)
            plan.append((k * step, _columns(low, high)))
        plans.append(tuple(plan))
    return tuple(plans)


_PLAN = _shift_plan()
_TABLE = tuple(
    tuple(
        tuple(WINDOW_VALUE[n] + NOW_BONUS[n] * now + NEXT_BONUS[n] * later for later in range(6))
        for now in range(6)
    )
    for n in range(4)
)
"""A live window's worth by (own bricks 0..3, empty cells playable now, empty cells playable next)."""


def five_cells(bits: int) -> int:
    """Every cell (empty or not) where one more brick of ``bits`` would lie in a line of five or more."""
    found = 0
    for (s1, m1), (s2, m2), (s3, m3), (s4, m4), (t1, n1), (t2, n2), (t3, n3), (t4, n4) in _PLAN:
        f1 = bits >> s1 & m1
        f2 = bits >> s2 & m2
        f3 = bits >> s3 & m3
        f4 = bits >> s4 & m4
        b1 = bits << -t1 & n1
        b2 = bits << -t2 & n2
        b3 = bits << -t3 & n3
        b4 = bits << -t4 & n4
        ahead = f1 & f2
        behind = b1 & b2
        found |= ahead & f3 & (f4 | b1) | behind & b3 & (b4 | f1) | ahead & behind
    return found


def _reach(occupied: int) -> tuple[int, int]:
    """(legal moves, cells beside them in a row that are still empty): ``ai.evaluators.magnetic_cave.reach``."""
    now = (FULL ^ occupied) & (WALLS | ((occupied << 1) & NOT_A) | ((occupied >> 1) & NOT_H))
    beside = ((now << 1) & NOT_A) | ((now >> 1) & NOT_H)
    return now, beside & ~(occupied | now) & FULL


def threat_score(mine: int, theirs: int) -> int:
    """``ThreatEvaluator``'s score of the position with ``mine`` to move, from the bricks alone."""
    occupied = mine | theirs
    now, later = _reach(occupied)
    table = _TABLE
    score = 0
    my_threats = their_threats = 0
    for window in WINDOWS:
        a = window & mine
        if a:
            if window & theirs:
                continue
            count = a.bit_count()
            empty = window ^ a
            if count == 4:
                my_threats |= empty
            else:
                score += table[count][(empty & now).bit_count()][(empty & later).bit_count()]
        else:
            b = window & theirs
            if b:
                count = b.bit_count()
                empty = window ^ b
                if count == 4:
                    their_threats |= empty
                else:
                    score -= table[count][(empty & now).bit_count()][(empty & later).bit_count()]
    if my_threats & now:
        return WIN_NEXT
    urgent = their_threats & now
    if urgent:
        if urgent & (urgent - 1):
            return -LOSS_NEXT
        free = FULL ^ (occupied | urgent)
        opened = free & (((urgent << 1) & NOT_A) | ((urgent >> 1) & NOT_H)) & ~now
        if opened & their_threats:
            return -LOSS_NEXT
        score -= THREAT_BLOCK
        their_threats ^= urgent
    score += THREAT_NEXT * ((my_threats & later).bit_count() - (their_threats & later).bit_count())
    rest = FULL ^ (now | later)
    return score + THREAT_LATER * ((my_threats & rest).bit_count() - (their_threats & rest).bit_count())


def _priority(mine: int, theirs: int, cell: Cell) -> int:
    """A cheap attack-and-defence count for ordering (``ai.evaluators.magnetic_cave.move_priority`` without
    its threat term: moves that open an opponent's threat are already final losses here)."""
    priority = 0
    for window in CELL_WINDOWS[cell]:
        a = window & mine
        b = window & theirs
        if not b:
            priority += ATTACK[a.bit_count()]
        elif not a:
            priority += DEFEND[b.bit_count()]
    return priority


class CaveKernel:
    """The Magnetic Cave kernel for the default (threat) evaluator."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator) -> bool:
        return game.name == "magnetic-cave" and isinstance(evaluator, ThreatEvaluator)

    def __init__(self, game: Game, evaluator: Evaluator, margins: bool = False) -> None:
        self.game = game
        self.evaluator = evaluator
        self.margins = margins
        self.win = 1.0 if margins else WIN + 1.0
        """The score of a won game: ``final_score`` (or ``final_margin``) of a five, which scores (1, 0)."""
        self.loss = -self.win

    # -- positions --------------------------------------------------------------------------------------------
    def encode(self, state: State) -> int:
        if state.to_move == 0:
            return state.black | state.white << BOARD_BITS
        return state.white | state.black << BOARD_BITS

    @staticmethod
    def decode(position: int, to_move: int) -> CaveState:
        """The rules state of a position, given who is to move (for tests and tools)."""
        mine, theirs = position & FULL, position >> BOARD_BITS
        return CaveState(mine, theirs, 0) if to_move == 0 else CaveState(theirs, mine, 1)

    def key(self, position: int) -> int:
        return position

    def evaluate(self, position: int) -> float:
        return float(threat_score(position & FULL, position >> BOARD_BITS))

    # -- search -----------------------------------------------------------------------------------------------
    def _candidates(self, mine: int, theirs: int) -> tuple[list[tuple], list[Cell], int, int]:
        """The forced part of a node: (final children, cells still to play, the mover's threat cells, the
        opponent's threat cells).

        A won node comes back as one final child and no cells; a node with one open threat of the opponent
        as its block; a lost node as one final child.
        """
        occupied = mine | theirs
        now = (FULL ^ occupied) & (WALLS | ((occupied << 1) & NOT_A) | ((occupied >> 1) & NOT_H))
        threats = five_cells(mine) & ~occupied
        wins = threats & now
        if wins:
            return [((wins & -wins).bit_length() - 1, None, False, self.win)], [], 0, 0
        dangers = five_cells(theirs) & ~occupied
        blocks = dangers & now
        if blocks:
            cell = (blocks & -blocks).bit_length() - 1
            if blocks & (blocks - 1):
                return [(cell, None, False, self.loss)], [], threats, dangers
            return [], [cell], threats, dangers
        cells = []
        while now:
            low = now & -now
            cells.append(low.bit_length() - 1)
            now ^= low
        return [], cells, threats, dangers

    def _play(
        self, mine: int, theirs: int, threats: int, dangers: int, cell: Cell
    ) -> tuple[int | None, bool, float | None]:
        """The mover (no immediate win; ``threats`` and ``dangers`` its and the opponent's threat cells) plays
        ``cell``: (child, same_mover, final score or None)."""
        bit = 1 << cell
        mine |= bit
        occupied = mine | theirs
        if occupied == FULL:
            return None, False, 0.0
        now = (FULL ^ occupied) & (WALLS | ((occupied << 1) & NOT_A) | ((occupied >> 1) & NOT_H))
        if dangers & now:
            return None, False, self.loss
        for window in CELL_WINDOWS[cell]:  # the new threat cells can only be on lines through the brick
            a = window & mine
            if a.bit_count() == 4 and not window & theirs:
                threats |= window ^ a
        threats &= now
        if not threats:
            return theirs | mine << BOARD_BITS, False, None
        if threats & (threats - 1):
            return None, False, self.win
        # A four: the opponent must block it (its own threats are all closed), then the mover plays again.
        theirs |= threats
        if occupied | threats == FULL:
            return None, False, 0.0
        return mine | theirs << BOARD_BITS, True, None

    def children(self, position: int) -> list[tuple]:
        """The children: forced ones alone when a win or a block is forced, else finals and fours first, then
        the rest by an attack-and-defence count."""
        mine, theirs = position & FULL, position >> BOARD_BITS
        finals, cells, threats, dangers = self._candidates(mine, theirs)
        if not cells:
            return finals
        play = self._play
        if len(cells) == 1:
            child, same, final = play(mine, theirs, threats, dangers, cells[0])
            return [(cells[0], child, same, final)]
        wins, fours, quiet, losses = [], [], [], []
        for cell in cells:
            child, same, final = play(mine, theirs, threats, dangers, cell)
            if final is not None:
                (wins if final > 0 else losses).append((cell, None, False, final))
            elif same:
                fours.append((cell, child, True, None))
            else:
                quiet.append((-_priority(mine, theirs, cell), cell, child))
        quiet.sort()
        return wins + fours + [(cell, child, False, None) for _, cell, child in quiet] + losses

    def best_leaf(self, position: int, beta: float) -> tuple[float, Cell | None, int]:
        """A depth-1 node: each child scored by the evaluator (or exactly when proven), fours first, stopping
        at the first that reaches ``beta``: (best score, its move, children evaluated)."""
        mine, theirs = position & FULL, position >> BOARD_BITS
        finals, cells, threats, dangers = self._candidates(mine, theirs)
        if not cells:
            return finals[0][3], finals[0][0], 0
        play = self._play
        best, best_move, leaves = -float("inf"), None, 0
        deferred = []
        for cell in cells:
            child, same, final = play(mine, theirs, threats, dangers, cell)
            if final is not None:
                value = final
            elif same:
                leaves += 1
                value = threat_score(child & FULL, child >> BOARD_BITS)
            else:
                deferred.append((cell, child))
                continue
            if value > best:
                best, best_move = value, cell
                if value >= beta:
                    return best, best_move, leaves
        for cell, child in deferred:
            leaves += 1
            value = -threat_score(child & FULL, child >> BOARD_BITS)
            if value > best:
                best, best_move = value, cell
                if value >= beta:
                    break
        return best, best_move, leaves

