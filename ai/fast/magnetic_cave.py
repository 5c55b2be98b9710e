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
at the same depth; ``tests/ai/test_cave_player.py`` checks every proven child against the rules, and that the
heuristic scores are exactly ``ThreatEvaluator``'s.

*Evaluation.*  Exactly ``ai.evaluators.magnetic_cave.ThreatEvaluator`` (checked on random positions), its
threat-space search at the leaves included (``ai.cave_threats``, when ``ThreatEvaluator.vcf``), computed
by lines: the window part of a row, column or diagonal depends only on that line's bricks and reach, so a
``LineScorer`` memoises it per line pattern (a search meets the same patterns again and again) and skips the
lines that are dead at the search root (every window holding both colours stays dead below it).
``best_leaf`` (the depth-1 nodes, the search's hottest loop) scores each child so and stops at the first that
reaches ``beta``, trying fours first.

*Endgame.*  ``make_run`` wraps the search's run in ``ai.cave_endgame.EndgameRun``: near the end an exact
solver decides the root first, playing a proven win at once or narrowing the root's moves (``root_moves``,
applied by ``children`` to the root position only) to those not proven to lose.
"""
from __future__ import annotations

import functools
from typing import Any

from ai.evaluators import WIN, Evaluator, evaluator_for
from ai.fast import Child
from ai.evaluators.magnetic_cave import (
    ATTACK,
    CELL_WINDOWS,
    DEFEND,
    LOSS_NEXT,
    THREAT_BLOCK,
    THREAT_LATER,
    THREAT_NEXT,
    WIN_NEXT,
    WINDOWS,
    ThreatEvaluator,
    zugzwang_outlook,
)
from ai.evaluators import magnetic_cave as evaluation
from rules import Game
from rules.magnetic_cave import FULL, NOT_A, NOT_H, SIZE, WALLS, CaveState, Cell, MagneticCave

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


def _window_terms(
    mine: int, theirs: int, now: int, later: int, windows: tuple[int, ...], tables: tuple
) -> tuple[int, int, int]:
    """The window part of ``ThreatEvaluator``: (score of the live windows, my threat cells, their threat cells),
    ``tables`` the window tables of the side to move and of the opponent (``ThreatEvaluator.tables``)."""
    table, other = tables
    score = 0
    my_threats = their_threats = 0
    for window in windows:
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
                    score -= other[count][(empty & now).bit_count()][(empty & later).bit_count()]
    return score, my_threats, their_threats


def _threat_terms(score: int, my_threats: int, their_threats: int, occupied: int, now: int, later: int) -> int:
    """``ThreatEvaluator``'s final score from its window part: the decided cases, then threat cells by reach."""
    if my_threats & now:
        return WIN_NEXT
    dangers = their_threats
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
    score += THREAT_LATER * ((my_threats & rest).bit_count() - (their_threats & rest).bit_count())
    if my_threats or dangers:
        outlook = zugzwang_outlook(occupied, my_threats, dangers)
        score += evaluation.ZUGZWANG * outlook  # read from the module at each call, so a bench can vary it
    return score


def threat_score(mine: int, theirs: int, evaluator: ThreatEvaluator = ThreatEvaluator()) -> int:
    """``evaluator``'s score of the position with ``mine`` to move, from the bricks alone (window by window:
    the reference the line-memo scorer is checked against)."""
    occupied = mine | theirs
    now, later = _reach(occupied)
    tables = evaluator.tables(occupied.bit_count() & 1)  # Black moves when the bricks are even
    score, my_threats, their_threats = _window_terms(mine, theirs, now, later, WINDOWS, tables)
    score = _threat_terms(score, my_threats, their_threats, occupied, now, later)
    return evaluation.with_vcf(score, mine, theirs) if evaluator.vcf else score


def _union(masks: tuple[int, ...]) -> int:
    found = 0
    for mask in masks:
        found |= mask
    return found


def _lines() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The 30 lines holding windows (8 rows, 8 columns, 7 diagonals each way) as (cells mask, its windows)."""
    groups: dict[tuple[int, int], list[int]] = {}
    for window in WINDOWS:
        first = (window & -window).bit_length() - 1
        second = (window ^ (1 << first)) & -(window ^ (1 << first))
        step = second.bit_length() - 1 - first
        row, column = divmod(first, SIZE)
        line = {1: row, SIZE: column, SIZE + 1: row - column, SIZE - 1: row + column}[step]
        groups.setdefault((step, line), []).append(window)
    lines = []
    for windows in groups.values():
        mask = 0
        for window in windows:
            mask |= window
        lines.append((mask, tuple(windows)))
    return tuple(lines)


LINES = _lines()
_REACH4 = tuple(_union(CELL_WINDOWS[cell]) for cell in range(BOARD_BITS))
"""Per cell, the cells of the windows through it: a new four there needs three more bricks among them."""
"""Every line of the board long enough for five, with the windows of five along it."""
LINE_MEMO_SIZE = 200_000
"""Entries the line memo may hold before it is emptied (about 150 bytes each)."""


class LineScorer:
    """``ThreatEvaluator`` by lines: the window part of each line is a function of the line's own bricks and
    reach, so it is computed once per pattern and then looked up (a search meets the same few patterns of a
    line again and again).  Lines whose windows all hold both colours at the search root are skipped.

    A favoured colour (``ThreatEvaluator.favour``) changes the window tables by who is to move, which the
    bricks tell (Black moves when their number is even), so the memo key carries which side's table is the
    favoured one."""

    def __init__(self, evaluator: ThreatEvaluator = ThreatEvaluator()) -> None:
        self.memo: dict[int, tuple[int, int, int]] = {}
        self.vcf = evaluator.vcf
        """Whether the threat-space search scores the leaves (``ThreatEvaluator.vcf``)."""
        self.lines: tuple[tuple[int, tuple[int, ...], int], ...] = ()
        self.evaluator: ThreatEvaluator | None = None
        self.keyed: tuple = ()
        """Per side to move (Black, White): (the mover's and the opponent's window tables, the memo key bit
        telling that side's favoured table apart, 0 when both tables are plain)."""
        self.set_root(0, 0, evaluator)

    def set_root(self, black: int, white: int, evaluator: ThreatEvaluator | None = None) -> None:
        """Skip from now on the lines in which every window holds both colours (they stay dead below), and
        score for ``evaluator`` (by default the one set last)."""
        if evaluator is not None and evaluator != self.evaluator:
            self.evaluator = evaluator
            self.vcf = evaluator.vcf
            self.keyed = tuple(
                (tables, mover << 256 if tables[0] is not tables[1] else 0)
                for mover, tables in ((0, evaluator.tables(0)), (1, evaluator.tables(1)))
            )
            self.memo.clear()
        self.lines = tuple(
            (mask, windows, index << 258)
            for index, (mask, windows) in enumerate(LINES)
            if any(not (window & black and window & white) for window in windows)
        )

    def score(self, mine: int, theirs: int) -> int:
        """The evaluator's score with ``mine`` to move (for a position below the root last set)."""
        occupied = mine | theirs
        now = (FULL ^ occupied) & (WALLS | ((occupied << 1) & NOT_A) | ((occupied >> 1) & NOT_H))
        beside = ((now << 1) & NOT_A) | ((now >> 1) & NOT_H)
        later = beside & ~(occupied | now) & FULL
        memo = self.memo
        get = memo.get
        tables, side = self.keyed[occupied.bit_count() & 1]  # Black moves when the bricks are even
        score = my_threats = their_threats = 0
        for mask, windows, tag in self.lines:
            if not occupied & mask:
                continue
            key = (mine & mask) | (theirs & mask) << 64 | (now & mask) << 128 | (later & mask) << 192 | tag | side
            terms = get(key)
            if terms is None:
                if len(memo) >= LINE_MEMO_SIZE:
                    memo.clear()
                terms = memo[key] = _window_terms(mine & mask, theirs & mask, now, later, windows, tables)
            score += terms[0]
            my_threats |= terms[1]
            their_threats |= terms[2]
        score = _threat_terms(score, my_threats, their_threats, occupied, now, later)
        return evaluation.with_vcf(score, mine, theirs) if self.vcf else score


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
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        return isinstance(game, MagneticCave) and isinstance(evaluator, ThreatEvaluator)

    def __init__(self, game: MagneticCave, evaluator: ThreatEvaluator, margins: bool = False) -> None:
        self.game = game
        self.evaluator = evaluator
        self.margins = margins
        self.win = 1.0 if margins else WIN + 1.0
        """The score of a won game: ``final_score`` (or ``final_margin``) of a five, which scores (1, 0)."""
        self.loss = -self.win
        self.root = (0, 0)
        """The bricks (Black, White) of the last position encoded: the root of the current search."""
        self.root_evaluator = self._playing(game.initial_state())
        """The evaluation of the current search: ``evaluator`` playing for the root's side to move."""
        self.scorer = LineScorer(self.root_evaluator)
        self.root_scorer = self.scorer.score
        """The evaluation for positions below the root (lines dead at the root skipped)."""
        self.plain_scorer = functools.partial(threat_score, evaluator=self.root_evaluator)
        """The same evaluation for any other position, window by window."""
        self.root_position: int | None = None
        self.root_moves: frozenset[Cell] | None = None
        """The root's moves the search may choose from (None: all), set by the endgame solver when it has
        proven which moves keep a tie."""

    def make_run(self, table: Any, budget: Any, poll: int) -> Any:
        """The engine's search with the exact endgame solver in front (``ai.cave_endgame.EndgameRun``)."""
        from ai.cave_endgame import EndgameRun
        from ai.search import _Run  # the generic search itself; the solver only decides or narrows the root

        return EndgameRun(self, _Run(self, table, budget, poll), budget)

    # -- positions --------------------------------------------------------------------------------------------
    def _playing(self, state: CaveState) -> ThreatEvaluator:
        """The threat evaluator playing for ``state``'s side to move (``ai.evaluators.evaluator_for``)."""
        playing = evaluator_for(self.evaluator, self.game, state)
        if not isinstance(playing, ThreatEvaluator):
            raise TypeError(f"{self.evaluator.name}.playing_for gave {type(playing).__name__}, not a ThreatEvaluator")
        return playing

    def encode(self, state: CaveState) -> int:
        """The position of ``state``, which also becomes the root: the evaluation skips its dead windows and
        plays for its side to move (``ai.evaluators.evaluator_for``)."""
        if (state.black, state.white) != self.root:
            self.root = (state.black, state.white)
            self.root_evaluator = self._playing(state)
            self.scorer.set_root(state.black, state.white, self.root_evaluator)
            self.plain_scorer = functools.partial(threat_score, evaluator=self.root_evaluator)
        self.root_moves = None
        if state.to_move == 0:
            self.root_position = state.black | state.white << BOARD_BITS
        else:
            self.root_position = state.white | state.black << BOARD_BITS
        return self.root_position

    @staticmethod
    def decode(position: int, to_move: int) -> CaveState:
        """The rules state of a position, given who is to move (for tests and tools)."""
        mine, theirs = position & FULL, position >> BOARD_BITS
        return CaveState(mine, theirs, 0) if to_move == 0 else CaveState(theirs, mine, 1)

    def key(self, position: int) -> int:
        return position

    def evaluate(self, position: int) -> float:
        return float(self._scorer(position)(position & FULL, position >> BOARD_BITS))

    def _scorer(self, position: int):
        """The root's line scorer when ``position`` holds all the root's bricks, else the plain evaluation."""
        black, white = self.root
        mine, theirs = position & FULL, position >> BOARD_BITS
        if (mine & black == black and theirs & white == white) or (mine & white == white and theirs & black == black):
            return self.root_scorer
        return self.plain_scorer

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
        if (mine & _REACH4[cell]).bit_count() >= 4:  # new threat cells can only be on lines through the brick
            for window in CELL_WINDOWS[cell]:
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
        if position == self.root_position and self.root_moves is not None:
            cells = [cell for cell in cells if cell in self.root_moves] or cells
        play = self._play
        if len(cells) == 1:
            child, same, final = play(mine, theirs, threats, dangers, cells[0])
            return [(cells[0], child, same, final)]
        wins: list[Child] = []
        fours: list[Child] = []
        quiet: list[tuple[int, Cell, int | None]] = []
        losses: list[Child] = []
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
        score = self._scorer(position)
        best, best_move, leaves = -float("inf"), None, 0
        deferred = []
        for cell in cells:
            child, same, final = play(mine, theirs, threats, dangers, cell)
            if final is not None:
                value = final
            elif same:
                leaves += 1
                value = score(child & FULL, child >> BOARD_BITS)  # type: ignore[operator]  # final None: child is an int
            else:
                deferred.append((cell, child))
                continue
            if value > best:
                best, best_move = value, cell
                if value >= beta:
                    return best, best_move, leaves
        for cell, child in deferred:
            leaves += 1
            value = -score(child & FULL, child >> BOARD_BITS)  # type: ignore[operator]  # deferred children are ints
            if value > best:
                best, best_move = value, cell
                if value >= beta:
                    break
        return best, best_move, leaves

