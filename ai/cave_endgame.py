"""Exact Magnetic Cave endgames: win, tie or loss with perfect play, for the last empty cells of the cave.

Near the end of a game the branching is small (at most two cells per row are playable, and whole rows are
full) and most positions are decided by *zugzwang*: a threat cell (an empty cell that would complete five)
sitting inside a row's empty run must not be opened by the opponent, so the side that runs out of safe moves
first loses, as with Connect Four's threats.  A heuristic cannot count that reliably; a search to the full
board can, and this one is cheap because it knows only three values (+1 win, 0 tie, -1 loss, from the side to
move) and plays the forced moves without branching:

- the mover can complete five: +1, at once;
- the opponent has two playable threat cells: -1; one: the block is the only move;
- a move that makes an opponent's threat cell playable loses (-1) without a search;
- a move that leaves two playable threat cells of the mover wins (+1) without a search;
- a *four* (one playable threat cell of the mover) forces the block, and the same player moves again: the
  pair costs no branching at all;
- a full board is a tie (0);
- rows whose empty cells are all *dead* (every window through them holds both colours) are pure parity: a
  brick there changes no window and opens only that row's own dead cells, so the moves into all such rows
  lead to the same game and one of them is searched for all;
- once no window open to a colour has two empty cells left, no threat cell can ever be made again, and the
  fill game of the threat cells there are (``ai.evaluators.magnetic_cave.zugzwang_outlook``, exact for that
  case) gives the value without a search.

The windows still open to each colour travel down the search as two masks over the 96 windows, each move
closing the windows through its cell to the opponent, so both shortcuts cost a few integer operations a node.
Near the end of a real game most rows are dead: on positions from the player's games these two cuts leave
0.14-0.31 of the nodes at 16-20 empty cells, and a fiftieth on some drawn ones (BENCHMARKS.md).

Threat cells are kept per colour through the search and grown from the windows through each new brick only.
Alpha-beta with a table of proven bounds (``lower, upper``) per position (the two bitboards: the side to move
follows from the brick count) makes the null-window questions "can the mover win?" and "can the mover avoid
losing?" cheap to ask again from the next move.

``EndgameSolver.solve`` polls a callback every ``POLL_NODES`` nodes (a few milliseconds: the engine's clock
and cancel token), which may raise ``ai.base.SearchAborted``; a node limit (``max_nodes``) bounds one call on
its own.  ``EndgameRun`` puts the solver in front of the engine's search at the root (see its docstring).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Protocol

from ai.base import SearchAborted
from ai.evaluators.magnetic_cave import CELL_WINDOWS, WINDOWS, zugzwang_outlook
from rules.magnetic_cave import FULL, NOT_A, NOT_H, WALLS, Cell

WIN, TIE, LOSS = 1, 0, -1
BOARD_BITS = 64
TABLE_SIZE = 400_000
"""Entries the table of proven bounds may hold before it is emptied (about 150 bytes each)."""
POLL_NODES = 32
"""Nodes between two calls of the poll callback."""


def legal(occupied: int) -> int:
    """The playable cells: empty, against a wall or beside a brick in the row."""
    return (FULL ^ occupied) & (WALLS | ((occupied << 1) & NOT_A) | ((occupied >> 1) & NOT_H))


def five_cells_of(bits: int) -> int:
    """Every cell where one more brick of ``bits`` completes a window of five (a full scan, for the root)."""
    found = 0
    for window in WINDOWS:
        own = window & bits
        if own.bit_count() == 4:
            found |= window ^ own
    return found


def _cell_lines(cell: Cell) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The windows through ``cell`` grouped by direction, each group with the union of its cells."""
    groups: dict[int, list[int]] = {}
    for window in CELL_WINDOWS[cell]:
        low = window & -window
        step = ((window ^ low) & -(window ^ low)).bit_length() - low.bit_length()
        groups.setdefault(step, []).append(window)
    lines = []
    for windows in groups.values():
        union = 0
        for window in windows:
            union |= window
        lines.append((union, tuple(windows)))
    return tuple(lines)


CELL_LINES = tuple(_cell_lines(cell) for cell in range(BOARD_BITS))
"""Per cell: (the cells of its windows in one direction, those windows) for each direction."""

THROUGH = tuple(
    sum(1 << index for index, window in enumerate(WINDOWS) if window >> cell & 1) for cell in range(BOARD_BITS)
)
"""Per cell, the windows through it as a mask over the indexes of ``WINDOWS`` (96 bits)."""
ROW_CELLS = tuple(0xFF << (cell & ~7) for cell in range(BOARD_BITS))
"""Per cell, the cells of its row."""
RUN_WINDOWS = {
    run << row * 8: sum(1 << index for index, window in enumerate(WINDOWS) if window & run << row * 8)
    for row in range(8)
    for run in (((1 << width) - 1) << left for left in range(8) for width in range(1, 9 - left))
}
"""Per run of empty cells in one row (its cell mask), the windows touching it as a mask over window indexes."""


def open_windows(others: int) -> int:
    """The windows (a mask over ``WINDOWS`` indexes) holding no brick of ``others``: still open to the other
    colour."""
    found = 0
    for index, window in enumerate(WINDOWS):
        if not window & others:
            found |= 1 << index
    return found


def grown(threats: int, bits: int, cell: Cell) -> int:
    """``threats`` (the five cells of ``bits`` before ``cell`` was added) with the new ones through ``cell``."""
    for union, windows in CELL_LINES[cell]:
        if (union & bits).bit_count() >= 4:  # a direction with fewer than four bricks holds no four
            for window in windows:
                own = window & bits
                if own.bit_count() == 4:
                    threats |= window ^ own
    return threats


class EndgameSolver:
    """Exact values of Magnetic Cave positions by alpha-beta over win / tie / loss (see the module docstring).

    ``poll`` is called every ``POLL_NODES`` nodes and may raise ``SearchAborted`` to stop a search; the table
    of proven bounds survives between calls (positions of one game recur from move to move).
    """

    def __init__(
        self,
        poll: Callable[[], None] | None = None,
        max_nodes: int | None = None,
        table: dict[int, tuple[int, int, int]] | None = None,
    ) -> None:
        self.poll = poll
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int]] = {} if table is None else table
        """Position -> (lower bound, upper bound, best cell or -1); may be shared between solvers."""
        self._limit = 0
        self._next_poll = 0
        self._root = -1

    # -- the public questions -----------------------------------------------------------------------------------
    def solve(
        self, mine: int, theirs: int, alpha: int = LOSS, beta: int = WIN, max_nodes: int | None = None
    ) -> tuple[int, Cell | None]:
        """(value, best move) of the position with ``mine`` to move, exact when ``alpha < value < beta``,
        otherwise a bound on the side it failed (the usual alpha-beta contract).  Raises ``SearchAborted`` when
        the poll says so or ``max_nodes`` (or the solver's own ``max_nodes``) nodes have been searched."""
        limit = max_nodes if max_nodes is not None else self.max_nodes
        self._limit = self.nodes + limit if limit is not None else 1 << 62
        self._next_poll = min(self.nodes + POLL_NODES, self._limit)
        if self.poll is not None:  # every call polls: a run of small calls must not outlast the clock
            self.poll()
        self._root = mine | theirs << BOARD_BITS
        value = self._search(
            mine, theirs, five_cells_of(mine), five_cells_of(theirs),
            open_windows(theirs), open_windows(mine), alpha, beta,
        )
        entry = self.table.get(self._root)
        move = entry[2] if entry is not None and entry[2] >= 0 else None
        if move is None:
            move = self._forced_move(mine, theirs)
        return value, move

    def value(self, mine: int, theirs: int, max_nodes: int | None = None) -> int:
        """The exact value (+1, 0, -1) of the position with ``mine`` to move."""
        return self.solve(mine, theirs, max_nodes=max_nodes)[0]

    def winning_move(self, mine: int, theirs: int, max_nodes: int | None = None) -> Cell | None:
        """A move that wins by force for the side to move, or None if there is none (the null window 0..1)."""
        value, move = self.solve(mine, theirs, TIE, WIN, max_nodes=max_nodes)
        return move if value >= WIN else None

    def _forced_move(self, mine: int, theirs: int) -> Cell | None:
        """The move of a node decided before the table was written (a win in one, or a forced block)."""
        occupied = mine | theirs
        now = legal(occupied)
        for cells in (five_cells_of(mine) & now, five_cells_of(theirs) & now, now):
            if cells:
                return (cells & -cells).bit_length() - 1
        return None

    # -- the search ---------------------------------------------------------------------------------------------
    @staticmethod
    def _settled(occupied: int, open_any: int) -> bool:
        """True when no window still open to a colour has two or more empty cells: no threat cell can be made
        any more, so the fill game of the threat cells there are (``zugzwang_outlook``) is the exact value."""
        empty = FULL ^ occupied
        windows = WINDOWS
        while open_any:
            low = open_any & -open_any
            cells = windows[low.bit_length() - 1] & empty
            if cells & (cells - 1):
                return False
            open_any ^= low
        return True

    def _search(
        self, mine: int, theirs: int, threats: int, dangers: int, ours: int, others: int, alpha: int, beta: int
    ) -> int:
        """Negamax value of the position (``mine`` to move; ``threats`` / ``dangers`` the cells completing five
        for the mover / the opponent, occupied ones included; ``ours`` / ``others`` the windows still open to
        the mover / the opponent, as masks over ``WINDOWS`` indexes), within ``alpha..beta``."""
        self.nodes += 1
        if self.nodes >= self._next_poll:
            if self.nodes >= self._limit:
                raise SearchAborted
            self._next_poll = min(self.nodes + POLL_NODES, self._limit)
            if self.poll is not None:
                self.poll()
        occupied = mine | theirs
        now = legal(occupied)
        if threats & now:
            return WIN
        blocks = dangers & now
        if blocks & (blocks - 1):
            return LOSS
        key = mine | theirs << BOARD_BITS
        if not blocks and key != self._root and self._settled(occupied, ours | others):
            # Below the root only: the root must be searched so that it names its best move.
            return zugzwang_outlook(occupied, threats & ~occupied, dangers & ~occupied)
        table = self.table
        entry = table.get(key)
        table_move = -1
        if entry is not None:
            lower, upper, table_move = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
        else:
            lower, upper = LOSS, WIN
        start_alpha, start_beta = alpha, beta

        if blocks:
            cells = [blocks.bit_length() - 1]
        else:
            cells = []
            rest = now
            while rest:
                low = rest & -rest
                cells.append(low.bit_length() - 1)
                rest ^= low
            # The table's move first, then cell order: ordering by attack and defence (as the heuristic search
            # does) made the proofs larger here, where zugzwang rather than material decides.
            near = ((threats | dangers) << 1 & NOT_A | (threats | dangers) >> 1 & NOT_H) & now
            if near:
                cells.sort(key=lambda c: near >> c & 1)
            if table_move in cells:
                cells.remove(table_move)
                cells.insert(0, table_move)

        best, best_move = LOSS - 1, -1
        quiet: list[tuple[Cell, int]] = []
        # First pass: decided moves and fours (cheap, often decisive); quiet moves are kept for the second.
        for cell in cells:
            bit = 1 << cell
            after = mine | bit
            filled = occupied | bit
            if filled == FULL:
                value = TIE
            else:
                opened = legal(filled)
                if dangers & opened:
                    value = LOSS
                else:
                    mine_threats = grown(threats, after, cell)
                    playable = mine_threats & opened
                    if playable & (playable - 1):
                        value = WIN
                    elif playable:
                        # A four: the opponent's only move is the block, then the mover moves again.
                        blocked = theirs | playable
                        if filled | playable == FULL:
                            value = TIE
                        else:
                            block = playable.bit_length() - 1
                            value = self._search(
                                after, blocked, mine_threats, grown(dangers, blocked, block),
                                ours & ~THROUGH[block], others & ~THROUGH[cell], alpha, beta,
                            )
                    else:
                        quiet.append((cell, mine_threats))
                        continue
            if value > best:
                best, best_move = value, cell
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if alpha < beta:
            # A row whose empty cells all lie in dead windows only (each holding both colours) is pure parity:
            # a brick there changes no window and opens only that row's own dead cells, so every move into
            # such a row leads to the same game and one of them stands for all.
            empty = FULL ^ occupied
            open_any = ours | others
            parity_tried = False
            for cell, mine_threats in quiet:
                if not RUN_WINDOWS[empty & ROW_CELLS[cell]] & open_any:
                    if parity_tried:
                        continue
                    parity_tried = True
                value = -self._search(
                    theirs, mine | 1 << cell, dangers, mine_threats, others & ~THROUGH[cell], ours, -beta, -alpha
                )
                if value > best:
                    best, best_move = value, cell
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break

        if best <= start_alpha:
            upper = min(upper, best)
        elif best >= start_beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        if len(table) >= TABLE_SIZE:
            table.clear()
        table[key] = (lower, upper, best_move if best > start_alpha else table_move)
        return best


# -- the solver in front of the engine's search ------------------------------------------------------------------

SOLVE_EMPTIES = 22
"""The solver is tried at the root when at most this many cells are empty."""
SOLVE_SHARE = 0.5
"""At most this share of a timed search goes to the solver; the heuristic search gets the rest."""
SOLVE_NODES = 100_000
"""The solver's node budget when the search has no deadline (a depth- or node-limited search)."""
ROOT_VCF_FOURS = 16
"""The threat-space search at the root (``EndgameRun._threats``): the attacker's moves a line may hold (0: off) ..."""
ROOT_VCF_NODES = 2_000
"""... and the moves it may try, per root move."""
SHARED_TABLE: dict[int, tuple[int, int, int]] = {}
"""The solvers' table of proven bounds, one per process: the bounds are facts about positions, so every
engine may reuse them (the positions of one game recur from move to move, and a solver cut off by its time
leaves its proofs behind for the next move)."""


class Solver(Protocol):
    """What ``EndgameRun`` needs of a solver: ``EndgameSolver`` here, or the compiled one of ai/core/kernels.py."""

    poll: Any

    @property
    def nodes(self) -> int: ...

    def solve(self, mine: int, theirs: int, alpha: int = -1, beta: int = 1,
              max_nodes: int | None = None) -> tuple[int, int | None]: ...


class EndgameRun:
    """The engine's search run (``ai.search``'s ``_Run`` interface) with the endgame solver in front.

    Before the first iteration, when at most ``SOLVE_EMPTIES`` cells are empty, the solver gets up to
    ``SOLVE_SHARE`` of the time: a proven win is played at once (the result is exact); when the root holds a
    tie, the moves proven to lose are taken from the heuristic search (``kernel.root_moves``), so it cannot
    drift into a zugzwang loss beyond its horizon, and among the rest it keeps those that give the opponent
    the most chances to go wrong (``_chances``); a proven loss is played for the most chances likewise.
    Otherwise the threat-space search (``_threats``) plays a win by continuous fours at once and takes from
    the search the moves that let the opponent win by fours.  Everything else is the wrapped run's.
    """

    def __init__(self, kernel: Any, inner: Any, budget: Any) -> None:
        self.kernel = kernel
        self.inner = inner
        self.budget = budget
        self.solver: Solver = EndgameSolver(table=SHARED_TABLE)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def root(self, root: int, depth: int):
        if depth == 1:
            self.kernel.root_moves = None
            proven = self._solve(root)
            if proven is None:
                proven = self._threats(root)
            if proven is not None:
                return proven
        return self.inner.root(root, depth)

    def _threats(self, root: int | bytes):
        """The threat-space search at the root (``ai.cave_threats``, deeper than at the leaves): a win by
        continuous fours is played at once, (score, move, True); the moves after which the opponent wins by
        continuous fours are taken from the search (``kernel.root_moves``) unless every move is one.  Only on
        a kernel that offers ``vcf`` (the compiled one: the Python search is too slow for this budget)."""
        vcf = getattr(self.kernel, "vcf", None)
        if vcf is None or not ROOT_VCF_FOURS or not getattr(self.kernel, "threat_search", False):
            return None
        if isinstance(root, bytes):  # the compiled run's position: CaveKernel's int in 16 little-endian bytes
            root = int.from_bytes(root, "little")
        children = self.kernel.children(root)
        allowed = self.kernel.root_moves
        losing: set[Cell] = set()
        for cell, child, same, final in children:
            if final is not None:
                continue
            mine, theirs = child & FULL, child >> BOARD_BITS
            if same and vcf(mine, theirs, ROOT_VCF_FOURS, ROOT_VCF_NODES):
                return self.kernel.win, cell, True  # a four, the forced block, then a win by fours
            if not same and vcf(mine, theirs, ROOT_VCF_FOURS, ROOT_VCF_NODES):
                losing.add(cell)  # the opponent, to move, wins by fours
        if losing:
            cells = frozenset(cell for cell, _, _, _ in children) if allowed is None else allowed
            keep = cells - losing
            if keep:
                self.kernel.root_moves = keep
        return None

    def _solve(self, root: int):
        """Solve the root if it is near the end: (score, move, True) for a proven win, else None, after
        leaving to the search only the root's moves not proven to lose (when the root holds a tie)."""
        mine, theirs = root & FULL, root >> BOARD_BITS
        if BOARD_BITS - (mine | theirs).bit_count() > SOLVE_EMPTIES:
            return None
        budget = self.budget
        solver = self.solver
        cancel = budget.cancel
        seconds = budget.seconds
        stop = None if seconds is None else time.perf_counter() + SOLVE_SHARE * max(0.0, seconds - budget.elapsed())
        max_nodes = SOLVE_NODES if stop is None else None

        def poll() -> None:
            if cancel is not None:
                cancel.check()
            if stop is not None and time.perf_counter() >= stop:
                raise SearchAborted

        solver.poll = poll
        started = solver.nodes
        children = self.kernel.children(root)
        losing: set[Cell] = set()
        traps: frozenset[Cell] = frozenset()
        try:
            # The question worth most first (a null window: a win or not), then whether a tie can be held
            # and by which moves; a move proven to lose is dropped even if the time runs out before the rest.
            value, move = solver.solve(mine, theirs, TIE, WIN, max_nodes=max_nodes)
            if value >= WIN:
                return self.kernel.win, move, True
            if solver.solve(mine, theirs, LOSS, TIE, max_nodes=max_nodes)[0] >= TIE:
                for cell, child, same, final in children:
                    if final is not None:
                        loses = final < 0
                    elif same:
                        loses = solver.solve(child & FULL, child >> BOARD_BITS, LOSS, TIE, max_nodes)[0] < TIE
                    else:
                        loses = solver.solve(child & FULL, child >> BOARD_BITS, TIE, WIN, max_nodes)[0] > TIE
                    if loses:
                        losing.add(cell)
                traps = self._chances([child for child in children if child[0] not in losing], TIE, max_nodes)
            else:
                traps = self._chances(children, LOSS, max_nodes)
        except SearchAborted:
            if cancel is not None and cancel.expired():
                raise
        finally:
            solver.poll = None
            self.inner.nodes += solver.nodes - started
            keep = traps or frozenset(cell for cell, _, _, _ in children) - losing
            self.kernel.root_moves = keep if (losing or traps) and keep else None
        return None

    def _chances(self, moves: list[tuple], value: int, max_nodes: int | None) -> frozenset[Cell]:
        """Among ``moves`` (root moves that keep the root's proven ``value``, a tie or a loss), those that
        leave the opponent the largest share of replies after which we do better than ``value`` (empty when
        none leaves any).

        A tie held against perfect play, or a loss, is not the end: an opponent that does not see to the end
        of the game (every opponent but a solver) may still go wrong, and the more of its replies go wrong,
        the likelier it is.  Replies that lose at once (opening a threat cell) are not counted, and a move
        that lets the opponent win at once has no chance: any opponent sees those.
        """
        solver = self.solver
        best_share, best = 0.0, []
        for cell, child, same, final in moves:
            if final is not None or same:
                continue  # a finished game, or a four whose block is forced: no choice left to the opponent
            answers = self.kernel.children(child)
            if any(answer[3] is not None and answer[3] > 0 for answer in answers):
                continue
            replies = [answer[1:3] for answer in answers if answer[3] is None]
            better = 0
            for after, again in replies:
                mine, theirs = after & FULL, after >> BOARD_BITS
                if again:  # the opponent's four and our forced block: the opponent moves again
                    better += solver.solve(mine, theirs, -value - 1, -value, max_nodes)[0] < -value
                else:
                    better += solver.solve(mine, theirs, value, value + 1, max_nodes)[0] > value
            share = better / len(replies) if replies else 0.0
            if share > best_share:
                best_share, best = share, [cell]
            elif share == best_share and share > 0:
                best.append(cell)
        return frozenset(best)
