"""Magnetic Cave knowledge for the search: window evaluators, immediate threats, move ordering, threat search.

Everything works on the rules' bitboards (``CaveState.black`` / ``.white``, bit ``row * 8 + column``).

*Windows.*  The 96 lines of five cells (32 in rows, 32 in columns, 16 on each diagonal direction) are
precomputed as bit masks.  A window holding bricks of both colours can never become a five and counts for
nobody; one holding ``n`` bricks of one colour only is worth something to that colour.

*Reach.*  Only the ends of each row's empty run are playable, so an empty cell is worth more when it can be
filled soon.  ``reach(occupied)`` gives the cells playable *now* (the legal moves) and *next* (one cell further
in: playable once the cell between it and the run's end is filled).  The default evaluator weights each
window's empty cells by their reach, and treats the empty cell of a four (a *threat cell*: filling it makes
five) by its reach too:

- a threat cell of the side to move that is playable now: that side wins next move;
- two distinct playable threat cells of the opponent: the side to move cannot block both and loses;
- one playable opponent threat cell whose block opens another opponent threat cell behind it: lost too;
- otherwise each threat cell counts by reach (next > later), and a playable opponent threat cell is a
  forced block, worth a little to the opponent (tempo);
- the threat cells not yet playable also give a *zugzwang outlook* (``zugzwang_outlook``): who is left
  without safe moves when the cave fills, the *fill game* of the threat cells there are now, solved exactly.

The simple evaluator (``WindowEvaluator``) is the plain textbook one: 1, 10, 100, 1000 per window with 1..4
bricks of one colour, no reach, no threats.  It is the baseline the default evaluator is measured against.

Scores are from the side to move, whole numbers, and stay within ``MAX_SCORE`` (far inside
``ai.evaluators.HEURISTIC_BOUND``).  Both evaluators are exactly symmetric: swapping the colours (and the
side to move) leaves the side to move's score unchanged, so from a fixed colour's view it is negated; the
mirror image and the upside-down board score the same (the walls make the cave symmetric both ways).  The one
exception is a setting, off by default: a search may value its own side's deep windows of three more
(``DEEP_THREE``).

*Search helpers.*  ``winning_moves`` (legal moves that make five now), ``forced_blocks`` (the opponent's
such moves, which the side to move must fill), ``order_moves`` (wins, blocks, then the rest by a cheap
attack-and-defence count, moves that hand the opponent a win last) and ``forced_win``, a small threat-space
search: a sequence of moves each making a playable four, every reply forced, ending in two threats at once.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from rules import Game, Player
from rules.magnetic_cave import (
    CELLS,
    FULL,
    NOT_A,
    NOT_H,
    SIZE,
    WIN_LENGTH,
    CaveState,
    Cell,
    completes_five,
    legal_mask,
    mask_cells,
)


def _windows() -> tuple[int, ...]:
    masks = []
    for row in range(SIZE):
        for column in range(SIZE):
            for row_step, column_step in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row = row + row_step * (WIN_LENGTH - 1)
                end_column = column + column_step * (WIN_LENGTH - 1)
                if 0 <= end_row < SIZE and 0 <= end_column < SIZE:
                    mask = 0
                    for step in range(WIN_LENGTH):
                        mask |= 1 << ((row + row_step * step) * SIZE + column + column_step * step)
                    masks.append(mask)
    return tuple(masks)


WINDOWS = _windows()
"""Every line of five cells as a bit mask (96 of them)."""
CELL_WINDOWS = tuple(tuple(w for w in WINDOWS if w >> cell & 1) for cell in range(CELLS))
"""Per cell, the windows through it."""

MAX_SCORE = 20_000
"""The largest score either evaluator gives (a win next move); any other score is far smaller."""
WIN_NEXT = MAX_SCORE
LOSS_NEXT = MAX_SCORE - 1_000
"""What the side to move's certain loss two plies ahead scores (negated)."""
VCF_WIN = MAX_SCORE - 500
"""A forced win by continuous fours for the side to move, found by the threat-space search (``ai.cave_threats``):
below a win next move, above the opponent's certain loss two plies ahead."""


def reach(occupied: int) -> tuple[int, int]:
    """(cells playable now, cells playable next): the legal moves, and the empty cells beside them in a row."""
    now = legal_mask(occupied)
    beside = ((now << 1) & NOT_A) | ((now >> 1) & NOT_H)
    return now, beside & ~(occupied | now) & FULL


def threat_masks(mine: int, theirs: int) -> tuple[int, int]:
    """(my threat cells, their threat cells) in one pass over the windows: the empty cells completing five.

    Playable threat cells are exactly the immediate wins: ``threat & legal_mask(occupied)``.
    """
    my_threats = their_threats = 0
    for window in WINDOWS:
        a = window & mine
        if a:
            if not window & theirs and a.bit_count() == WIN_LENGTH - 1:
                my_threats |= window ^ a
        else:
            b = window & theirs
            if b and b.bit_count() == WIN_LENGTH - 1:
                their_threats |= window ^ b
    return my_threats, their_threats


def _side_bits(state: CaveState, player: Player) -> tuple[int, int]:
    return (state.black, state.white) if player == 0 else (state.white, state.black)


# -- the evaluators ---------------------------------------------------------------------------------------------

WINDOW_VALUE = (0, 4, 20, 80)
"""Per live window with 1..3 bricks of one colour (index = bricks) ..."""
NOW_BONUS = (0, 2, 10, 60)
"""... plus this per empty cell of the window playable now ..."""
NEXT_BONUS = (0, 1, 5, 25)
"""... and this per empty cell playable next."""
THREAT_NEXT = 300
"""A threat cell playable next: the opponent must never fill the cell in front of it."""
THREAT_LATER = 150
"""A threat cell further in: it will matter when its row fills."""
THREAT_BLOCK = 60
"""The opponent's single playable threat cell: the side to move must block it at once."""

ZUGZWANG = 400
"""The full-board outlook (``zugzwang_outlook``) of the threat cells not yet playable, per +1 / -1."""

DEEP_THREE = (0, 0)
"""What a search playing Black (index 0) or White (1) adds for each of its *own* windows of three bricks whose
two empty cells are both deep (neither playable now nor next): latent threat cells, the evaluator's cheapest
window of three.  Off for both colours: 80 for White lifted White's games against the baseline from 80.7% to
86.3% at depth 6 (150 games), but not at 1 s a move (81% against 88% without, 50 games each in one session),
and 80 for Black cost Black 9 points at depth 6 (BENCHMARKS.md).  ``bench/bench_cave_player.py --deep-three``
sets it for such runs."""

_FLIP = str.maketrans("mt", "tm")
_FILL_MEMO: dict[tuple[int, tuple[str, ...]], int] = {}
_ROW_KINDS: dict[tuple[int, int, int], str] = {}
FILL_MEMO_SIZE = 200_000
"""Fill-game values the memo may hold before it is emptied."""


def _canonical(row: str) -> str:
    """A row's run read from the end that sorts first (the game is the same read either way)."""
    backwards = row[::-1]
    return row if row <= backwards else backwards


def _fill_value(free: int, rows: tuple[str, ...]) -> int:
    """The fill game's value for the mover: ``free`` the parity of the cells in runs without threat cells,
    ``rows`` the runs with threat cells, each a string of kinds from the mover's view ('m' the mover's threat
    cell, 't' the opponent's, 'b' both, '.' neither), canonical and sorted."""
    key = (free, rows)
    known = _FILL_MEMO.get(key)
    if known is not None:
        return known
    ends = [(row[end], index, end) for index, row in enumerate(rows) for end in {0, len(row) - 1}]
    if any(kind == "m" or kind == "b" for kind, _, _ in ends):
        _FILL_MEMO[key] = 1  # a playable threat cell of the mover: it completes five
        return 1
    blocks = [(index, end) for kind, index, end in ends if kind == "t"]
    if len(blocks) > 1:
        _FILL_MEMO[key] = -1  # two playable threat cells of the opponent: one block is too few
        return -1
    forced = blocks[0] if blocks else None
    moves: list[tuple[int, int] | None]
    if forced is not None:
        moves = [forced]
    else:
        moves = []
        for index, row in enumerate(rows):
            moves.append((index, 0))
            if row != row[::-1]:
                moves.append((index, len(row) - 1))
        if free:
            moves.append(None)
    if not moves:
        _FILL_MEMO[key] = 0  # the cave is full
        return 0
    best = -1
    for move in moves:
        child_free, child_rows = free, rows
        if move is None:
            child_free = 0
        else:
            index, end = move
            row = rows[index]
            rest = row[1:] if end == 0 else row[:-1]
            child_rows = rows[:index] + rows[index + 1:]
            if rest.strip("."):
                child_rows += (rest,)
            else:
                child_free ^= len(rest) & 1
        value = -_fill_value(child_free, tuple(sorted(_canonical(row.translate(_FLIP)) for row in child_rows)))
        if value > best:
            best = value
            if best == 1:
                break
    if len(_FILL_MEMO) >= FILL_MEMO_SIZE:
        _FILL_MEMO.clear()
    _FILL_MEMO[key] = best
    return best


def zugzwang_outlook(occupied: int, mine: int, theirs: int) -> int:
    """Who wins the *fill game* of the threat cells there are now: +1, 0 or -1 for the side to move.

    ``occupied`` holds the bricks, ``mine`` / ``theirs`` the side to move's / the opponent's threat cells.
    The fill game plays the cave to the end as if no new threat cell were ever made: each row's empty run is
    filled from its ends; a playable threat cell of the mover wins, one of the opponent's must be blocked
    (two cannot be), and whoever must make one of the opponent's threat cells playable loses; a full cave is
    a tie.  A threat cell inside a run so makes its neighbours poison for the opponent, while its owner may
    fill one as a four whose block keeps the turn: the zugzwang at the end of most games.

    The rows are independent, so the game is solved exactly on an abstraction: per row with threat cells
    its run as a string of cell kinds, and for all the other runs only the parity of their cells (two free
    cells change nothing: whoever takes one, the other can take the other).  Values are memoised, and a
    search meets the same few runs again and again, so a call is mostly one lookup.  Exact for its model;
    the model ignores threat cells made later (about three positions in four at 18 empty cells are valued
    the same as by the exact solver; BENCHMARKS.md).
    """
    empty = FULL & ~occupied
    free = 0
    rows = []
    kinds = _ROW_KINDS
    for shift in range(0, CELLS, SIZE):
        run = empty >> shift & 0xFF
        if not run:
            continue
        own = mine >> shift & 0xFF
        other = theirs >> shift & 0xFF
        if not own | other:
            free ^= run.bit_count() & 1
            continue
        row = kinds.get((run, own, other))
        if row is None:
            low, high = (run & -run).bit_length() - 1, run.bit_length() - 1
            row = _canonical("".join(
                "b" if own >> column & other >> column & 1 else "m" if own >> column & 1
                else "t" if other >> column & 1 else "."
                for column in range(low, high + 1)
            ))
            kinds[(run, own, other)] = row
        rows.append(row)
    return _fill_value(free, tuple(sorted(rows)))


@functools.cache
def window_table(deep_three: int = 0) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """A live window's worth by (bricks 0..3, empty cells playable now, empty cells playable next), a window
    of three with no empty cell playable now or next worth ``deep_three`` more (built once per value)."""
    return tuple(
        tuple(
            tuple(
                WINDOW_VALUE[n] + NOW_BONUS[n] * now + NEXT_BONUS[n] * later
                + (deep_three if n == WIN_LENGTH - 2 and now == later == 0 else 0)
                for later in range(WIN_LENGTH + 1)
            )
            for now in range(WIN_LENGTH + 1)
        )
        for n in range(WIN_LENGTH - 1)
    )


_TABLE = window_table()


@dataclass(frozen=True)
class ThreatEvaluator:
    """The default Magnetic Cave evaluator: windows weighted by reach, threat cells by reach, and the
    decided cases (a win next move, a double threat against the side to move).

    ``favour`` is the colour a search plays for (``playing_for``, which the engines call at their root), whose
    own deep windows of three are worth ``DEEP_THREE[favour]`` more; None (the default) scores both colours
    alike."""

    name: str = "default"
    favour: Player | None = None
    vcf: bool = False
    """At each leaf, ask the threat-space search (``ai.cave_threats``) whether the side to move wins by
    continuous fours: such a position scores ``VCF_WIN`` (``eval=leafvcf``; off by default: it costs a fifth
    to a third of the nodes per second and did not pass its SPRT, BENCHMARKS.md)."""
    root_vcf: bool = False
    """At the root, the deeper threat-space search (``ai.cave_endgame.EndgameRun._threats``, compiled core
    only): a win by fours is played at once, moves that let the opponent win by fours are not searched
    (``eval=rootvcf``; off by default: its SPRT against the default stayed level, BENCHMARKS.md).
    ``eval=novcf`` has both off, as the default."""

    def playing_for(self, player: Player) -> "ThreatEvaluator":
        """This evaluator for a search that plays for ``player`` (itself unfavoured while ``DEEP_THREE`` gives
        that colour nothing)."""
        return ThreatEvaluator(self.name, player if DEEP_THREE[player] else None, self.vcf, self.root_vcf)

    def tables(self, mover: Player) -> tuple[tuple, tuple]:
        """(the side to move's window table, the opponent's) when ``mover`` is to move."""
        if self.favour is None or not DEEP_THREE[self.favour]:
            return _TABLE, _TABLE
        favoured = window_table(DEEP_THREE[self.favour])
        return (favoured, _TABLE) if mover == self.favour else (_TABLE, favoured)

    def evaluate(self, game: Game, state: CaveState) -> float:
        if state.winner is not None:  # finished games normally never reach an evaluator
            return -WIN_NEXT if state.winner != state.to_move else WIN_NEXT
        mover = state.to_move
        mine, theirs = _side_bits(state, mover)
        occupied = mine | theirs
        now, later = reach(occupied)
        table, other = self.tables(mover)
        score = 0
        my_threats = their_threats = 0
        for window in WINDOWS:
            a = window & mine
            b = window & theirs
            if a:
                if b:
                    continue
                count = a.bit_count()
                empty = window ^ a
                if count == 4:
                    my_threats |= empty
                else:
                    score += table[count][(empty & now).bit_count()][(empty & later).bit_count()]
            elif b:
                count = b.bit_count()
                empty = window ^ b
                if count == 4:
                    their_threats |= empty
                else:
                    score -= other[count][(empty & now).bit_count()][(empty & later).bit_count()]
        if my_threats & now:
            return WIN_NEXT
        dangers = their_threats
        urgent = their_threats & now
        if urgent:
            if urgent & (urgent - 1):
                return -LOSS_NEXT
            # The forced block fills ``urgent``: if that opens another of their threat cells, it is lost.
            opened = legal_mask(occupied | urgent) & ~now
            if opened & their_threats:
                return -LOSS_NEXT
            score -= THREAT_BLOCK
            their_threats ^= urgent
        score += THREAT_NEXT * ((my_threats & later).bit_count() - (their_threats & later).bit_count())
        rest = ~(now | later)
        score += THREAT_LATER * ((my_threats & rest).bit_count() - (their_threats & rest).bit_count())
        if my_threats or dangers:
            score += ZUGZWANG * zugzwang_outlook(occupied, my_threats, dangers)
        if self.vcf:
            return float(with_vcf(score, mine, theirs))
        return float(score)


SIMPLE_VALUE = (0, 1, 10, 100, 1000)
"""The simple evaluator's worth of a window holding 0..4 bricks of one colour only."""


@dataclass(frozen=True)
class WindowEvaluator:
    """The baseline: sum over windows of five of 1, 10, 100, 1000 for 1..4 own bricks, minus the same for the
    opponent's; windows holding both colours count for nobody."""

    name: str = "windows"

    def evaluate(self, game: Game, state: CaveState) -> float:
        mine, theirs = _side_bits(state, state.to_move)
        value = SIMPLE_VALUE
        score = 0
        for window in WINDOWS:
            a = window & mine
            b = window & theirs
            if a:
                if not b:
                    score += value[min(a.bit_count(), 4)]
            elif b:
                score -= value[min(b.bit_count(), 4)]
        return float(score)


def with_vcf(score: int, mine: int, theirs: int) -> int:
    """``score`` (the threat evaluation with ``mine`` to move), or ``VCF_WIN`` when it is not decided already
    (a win next move, a loss two plies ahead) and the mover wins by continuous fours (``ai.cave_threats``)."""
    if -LOSS_NEXT < score < WIN_NEXT:
        from ai.cave_threats import vcf_win  # imported here: ai.cave_threats reads this module's windows

        if vcf_win(mine, theirs):
            return VCF_WIN
    return score


def vcf_settings(evaluator: object) -> tuple[int, int, int]:
    """(fours, nodes, score) of the leaves' threat-space search for ``evaluator`` (fours 0: off), read at each
    search as ``ai.cave_threats.VCF_FOURS`` / ``VCF_NODES`` are, so that a bench may vary them."""
    from ai import cave_threats

    on = isinstance(evaluator, ThreatEvaluator) and evaluator.vcf
    return (cave_threats.VCF_FOURS if on else 0), cave_threats.VCF_NODES, VCF_WIN


def default_evaluator(game: Game) -> ThreatEvaluator:
    """The registry's factory for the default evaluator."""
    return ThreatEvaluator()


def novcf_evaluator(game: Game) -> ThreatEvaluator:
    """The evaluator without any threat-space search (the default; the reference the searches are measured
    against under a name of its own)."""
    return ThreatEvaluator("novcf", vcf=False, root_vcf=False)


def rootvcf_evaluator(game: Game) -> ThreatEvaluator:
    """The default evaluator with the threat-space search at the root."""
    return ThreatEvaluator("rootvcf", vcf=False, root_vcf=True)


def leafvcf_evaluator(game: Game) -> ThreatEvaluator:
    """The default evaluator with the threat-space search at the leaves too."""
    return ThreatEvaluator("leafvcf", vcf=True, root_vcf=True)


def simple_evaluator(game: Game) -> WindowEvaluator:
    """The registry's factory for the baseline evaluator."""
    return WindowEvaluator()


# -- immediate threats and move ordering ------------------------------------------------------------------------


def _winning_mask(bits: int, occupied: int) -> int:
    """The legal cells where a brick added to ``bits`` completes five."""
    found = 0
    for cell in mask_cells(legal_mask(occupied)):
        bit = 1 << cell
        if completes_five(bits | bit, cell):
            found |= bit
    return found


def winning_moves(game: Game, state: CaveState, player: Player | None = None) -> tuple[Cell, ...]:
    """The legal moves that make five at once for ``player`` (the side to move by default), in cell order."""
    if game.is_terminal(state):
        return ()
    who = state.to_move if player is None else player
    bits = _side_bits(state, who)[0]
    return mask_cells(_winning_mask(bits, state.black | state.white))


def forced_blocks(game: Game, state: CaveState) -> tuple[Cell, ...]:
    """The opponent's immediate wins: cells the side to move must fill (unless it can win at once itself).

    Two or more mean the side to move cannot stop the opponent, short of winning first.
    """
    return winning_moves(game, state, 1 - state.to_move)


ATTACK = (1, 4, 16, 64, 10_000)
"""Ordering worth of a move for each window through it holding 0..4 of the mover's bricks only."""
DEFEND = (0, 3, 12, 48, 5_000)
"""... and for each window holding 1..4 of the opponent's bricks only."""


def move_priority(state: CaveState, cell: Cell) -> int:
    """A cheap attack-and-defence count for ``cell`` as the side to move's move (higher: try sooner).

    A move that opens one of the opponent's threat cells (makes it playable) loses at once unless it wins
    itself, and scores below every other move.
    """
    mine, theirs = _side_bits(state, state.to_move)
    occupied = mine | theirs
    their_threats = threat_masks(mine, theirs)[1]
    return _priority(mine, theirs, occupied, legal_mask(occupied), their_threats, cell)


def _priority(mine: int, theirs: int, occupied: int, now: int, dangers: int, cell: Cell) -> int:
    priority = 0
    for window in CELL_WINDOWS[cell]:
        a = window & mine
        b = window & theirs
        if not b:
            priority += ATTACK[a.bit_count()]
        elif not a:
            priority += DEFEND[b.bit_count()]
    bit = 1 << cell
    opened = (((bit << 1) & NOT_A) | ((bit >> 1) & NOT_H)) & ~(occupied | now)
    if opened & dangers:
        priority -= 1_000_000
    return priority


def order_moves(game: Game, state: CaveState, moves: tuple[Cell, ...] | None = None) -> list[Cell]:
    """``moves`` (all legal moves by default) in the order a search should try them: immediate wins, then
    blocks of the opponent's immediate wins, then the rest by ``move_priority`` (ties in cell order)."""
    if moves is None:
        moves = game.legal_moves(state)
    mine, theirs = _side_bits(state, state.to_move)
    occupied = mine | theirs
    now = legal_mask(occupied)
    my_threats, their_threats = threat_masks(mine, theirs)
    wins = my_threats & now
    blocks = their_threats & now
    ranked = []
    for cell in moves:
        bit = 1 << cell
        if bit & wins:
            ranked.append((0, 0, cell))
        elif bit & blocks:
            ranked.append((1, 0, cell))
        else:
            ranked.append((2, -_priority(mine, theirs, occupied, now, their_threats, cell), cell))
    ranked.sort()
    return [cell for _, _, cell in ranked]


# -- threat search ----------------------------------------------------------------------------------------------


def _forced_line(mine: int, theirs: int, depth: int) -> tuple[Cell, ...] | None:
    """A forced win for the side to move (bricks ``mine``) by a sequence of fours, or None.

    Each of the mover's moves makes a playable five-threat and the opponent's reply is the forced block; the
    line ends with a move that wins at once or leaves two threats.  ``depth`` bounds the number of fours.
    """
    occupied = mine | theirs
    if occupied == FULL:
        return None
    wins = _winning_mask(mine, occupied)
    if wins:
        return ((wins & -wins).bit_length() - 1,)
    dangers = _winning_mask(theirs, occupied)
    if depth <= 0 or dangers & (dangers - 1):
        return None
    for cell in mask_cells(dangers or legal_mask(occupied)):
        bit = 1 << cell
        after, filled = mine | bit, occupied | bit
        if filled == FULL:
            continue
        threats = _winning_mask(after, filled)
        if not threats or _winning_mask(theirs, filled):
            continue  # no four, or the opponent wins first
        if threats & (threats - 1):
            return (cell,)
        block = threats.bit_length() - 1
        if completes_five(theirs | 1 << block, block):
            continue
        rest = _forced_line(after, theirs | 1 << block, depth - 1)
        if rest is not None:
            return (cell, block) + rest
    return None


def forced_win(game: Game, state: CaveState, max_fours: int = 6) -> tuple[Cell, ...] | None:
    """A forced win for the side to move by continuous threats, or None if none is found within
    ``max_fours`` fours.

    The result is the line: the mover's move, the forced block, the mover's next move, ... up to the move that
    wins at once or makes two threats (after which any reply loses).  Sound: every line returned wins.
    """
    if game.is_terminal(state):
        return None
    mine, theirs = _side_bits(state, state.to_move)
    return _forced_line(mine, theirs, max_fours)


def double_threat_moves(game: Game, state: CaveState) -> tuple[Cell, ...]:
    """The side to move's moves that leave two immediate winning threats the opponent cannot both stop (two
    playable threat cells, or one whose block opens another), the opponent having no win of its own."""
    if game.is_terminal(state):
        return ()
    mine, theirs = _side_bits(state, state.to_move)
    occupied = mine | theirs
    if _winning_mask(theirs, occupied):
        return ()
    found = []
    for cell in mask_cells(legal_mask(occupied)):
        bit = 1 << cell
        after, filled = mine | bit, occupied | bit
        threats = _winning_mask(after, filled)
        if not threats or _winning_mask(theirs, filled) or completes_five(after, cell):
            continue
        if threats & (threats - 1):
            found.append(cell)
            continue
        block = threats.bit_length() - 1
        blocked = theirs | 1 << block
        if not completes_five(blocked, block) and _winning_mask(after, filled | 1 << block):
            found.append(cell)
    return tuple(found)
