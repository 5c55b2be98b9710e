"""The strong default engine: iterative-deepening negamax alpha-beta with principal-variation search.

- Negamax over the score from the side to move; a move after which the same player moves again (Kalah's
  extra turn) is searched without negation.
- Principal-variation search: the first move with the full window, the others with a null window and a
  re-search when they turn out better.
- A transposition table of bounded size (``ai.transposition``) gives the first move to try and cuts off
  positions already searched to the same depth.  Entries whose subtree reached only finished games are
  *resolved*: true values, reusable at any greater depth, and when the root is resolved the search stops
  early with an exact result (``exhaustive``), so endgames are played perfectly.
- Move ordering: the table's move, moves that keep the turn, the two killer moves of the ply, then the
  history heuristic.
- Limits: depth, nodes and time (the tighter of the engine's parameters and the ``Limits`` given).  The
  search polls its budget every ``poll`` nodes (which also yields the GIL to a GUI thread through the cancel
  token) and, when cancelled or out of time, unwinds and returns the last completed depth's result.

- An opening book (``ai.book``, built offline by deep fixed-depth searches) can answer the first plies,
  when the search is limited by time only (a depth or node limit searches, exactly).  It is off by default
  (``engine.book = book_for(game)`` turns it on): no measurement so far has shown a book stronger than the
  1 s search it replaces, so none is played unless asked for.
- Time: the clock is polled about every millisecond (``Budget.poll`` adapts its node interval to the
  measured speed; the compiled search reads it every 32 nodes).  The search uses all of its time: when the
  clock stops an iteration whose first root move (the previous best) is already searched, the best root move
  proven so far is played.  The deadline is the move's own (``Limits.deadline``, taken when the move was
  requested, so building the engine and loading tables count), less a safety margin measured from how late
  recent searches stopped and how far apart their clock checks came (``ai.base.lateness``); endgame tables
  load in the background and a timed search waits for them a quarter of its time at most (``tables_by``).

A table cut-off needs an entry of exactly the depth asked (or a resolved one), so a depth-limited search
returns exactly the plain minimax value with the same evaluator: ``tests/ai/test_ai_search.py`` checks this.
A timed search with ``reuse`` (off by default) also cuts on an entry of a deeper search (``Budget.deeper_cutoffs``),
so what the engine's earlier searches proved deeper is not searched again (``tests/ai/test_search_reuse.py``).
The search runs on a kernel (``ai.fast.kernel_for``).  Where the compiled core is built (``ai.core``), a
game's compiled kernel offers ``make_run``: this same search in C (``ai/core/search.pxi``), one iteration per
call without the GIL, polling the clock and the cancel flag in C; ``_Run`` here is the one Python version,
over the kernel protocol, for the pure-Python kernels (the fallback and the reference).  The iterations,
progress reports, the book and the cut-short rule below are shared by both.
"""
from __future__ import annotations

import os
import time
from typing import Any, Hashable, TypeVar

from ai.base import (
    CancelToken, Engine, EngineError, Limits, ProgressCallback, SearchAborted, SearchResult, gc_paused, lateness,
)
from ai.book import OpeningBook
from ai.evaluators import Evaluator, evaluator_for, final_score, get_evaluator
from ai.fast import GameKernel, kernel_for, kernel_holding
from ai.table_loading import TABLE_WAIT, use_tables
from ai.transposition import BYTES_PER_ENTRY, EXACT, LOWER, UPPER, TranspositionTable
from rules import Game, Move, State

INFINITY = 1e12
EPSILON = 1e-7
"""Width of a null window: far below any difference between two distinct scores."""
MAX_DEPTH = 200
POLL_SECONDS = 0.001
"""Aim for a poll of the clock and the cancel token about this often."""
MIN_POLL = 16
"""Never poll more often than every this many nodes."""


Number = TypeVar("Number", int, float)


def tighter(first: Number | None, second: Number | None) -> Number | None:
    """The smaller of two optional limits (None means unlimited)."""
    if first is None:
        return second
    if second is None:
        return first
    return min(first, second)


class Budget:
    """A search's depth, node and time budget, and its cancel token.

    ``poll(nodes)`` raises SearchAborted when the token is cancelled (it also yields the GIL), the deadline
    has passed or the node limit is reached; otherwise it returns how many nodes to search before the next
    poll.  That interval adapts to the measured speed so a poll comes about every ``POLL_SECONDS`` (never
    more than ``poll`` nodes apart, never past the node limit): a slow search still notices its deadline or a cancel within a millisecond or two, and a fast
    one does not poll more than it needs.  Engine
    parameters and the ``Limits`` of one search combine: the tighter bound wins.
    """

    __slots__ = ("started", "deadline", "due", "whole", "max_nodes", "max_depth", "cancel", "max_interval",
                 "_last", "max_gap", "deeper_cutoffs")

    def __init__(
        self,
        limits: Limits | None,
        cancel: CancelToken | None,
        time_limit: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        poll: int = 256,
    ) -> None:
        limits = limits or Limits()
        self.started = time.perf_counter()
        self.due = due_instant(limits, cancel, time_limit, self.started)
        """The move's one deadline: the instant the caller must have its move (``Limits.deadline``, taken when
        the move was requested; the cancel token's; or the time counted from now), or None."""
        self.whole: float | None = None
        """The move's whole time (its limit, when the deadline came with one), which caps the margin."""
        if self.due is None:
            self.deadline = None
        else:
            seconds = self.due - self.started
            self.whole = max(seconds, limits.time or 0.0) if limits.deadline is not None else seconds
            # the margin is measured (``ai.base.lateness``: how late recent stops and clock checks have been)
            self.deadline = self.due - lateness.margin(self.whole)
        self.max_nodes = tighter(nodes, limits.nodes)
        self.max_depth = tighter(depth, limits.depth)
        self.cancel = cancel
        self.max_interval = max(1, poll)
        self._last = (0, self.started)
        self.max_gap = 0.0
        """The longest time between two polls so far (seconds)."""
        self.deeper_cutoffs = False
        """Whether a table entry of a deeper search may cut (set by ``PVSEngine`` for a timed search); otherwise
        only an entry of exactly the depth asked does, so a depth- or node-limited search stays exact."""

    def share(self, part: float) -> float | None:
        """The instant ``part`` of this search's time from its start (None: no deadline)."""
        return None if self.deadline is None else self.started + part * max(0.0, self.deadline - self.started)

    def limits_left(self) -> Limits:
        """Limits for a search nested in this one (a fallback, a stage): the same deadline, nothing more."""
        return Limits(depth=self.max_depth, time=self.whole, deadline=self.due)

    def stopped(self, result: SearchResult, poll_gap: float | None = None) -> SearchResult:
        """Note, for the safety margin, how late a timed search returns ``result`` after its stop (when the clock
        stopped it) and the longest gap between its clock checks (``poll_gap``: how late it could have noticed
        the deadline; tens of milliseconds when the machine is busy); pass ``result`` on."""
        if self.deadline is not None:
            now = time.perf_counter()
            late = max(now - self.deadline, poll_gap or 0.0)
            if late > 0:
                lateness.note(late)
        return result

    @property
    def is_unbounded(self) -> bool:
        return self.deadline is None and self.max_nodes is None and self.max_depth is None and self.cancel is None

    @property
    def seconds(self) -> float | None:
        """The time allowed, less the safety margin (None: no deadline)."""
        return None if self.deadline is None else self.deadline - self.started

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def poll(self, nodes: int) -> int:
        seconds = POLL_SECONDS
        if self.cancel is not None:
            self.cancel.check()
        now = time.perf_counter()
        if self.deadline is not None:
            if now >= self.deadline:
                raise SearchAborted
            seconds = min(seconds, max(0.0002, (self.deadline - now) / 2))  # closer polls as it nears
        if self.max_nodes is not None and nodes >= self.max_nodes:
            raise SearchAborted
        last_nodes, last_time = self._last
        self._last = (nodes, now)
        if now - last_time > self.max_gap:
            self.max_gap = now - last_time
        interval = self.max_interval
        if now > last_time and nodes > last_nodes:
            rate = (nodes - last_nodes) / (now - last_time)
            interval = max(MIN_POLL, min(interval, int(rate * seconds)))
        if self.max_nodes is not None:
            interval = max(1, min(interval, self.max_nodes - nodes))
        return interval


def due_instant(limits: Limits, cancel: CancelToken | None, time_limit: float | None, start: float) -> float | None:
    """The earliest of the limits' deadline (or their time from ``start``), the engine's own time from
    ``start`` and the cancel token's deadline: when the move is due (None: no clock)."""
    due = limits.deadline_from(start)
    if time_limit is not None:
        due = tighter(due, start + time_limit)
    if cancel is not None and cancel.deadline is not None:
        due = tighter(due, cancel.deadline)
    return due


def machine_megabytes() -> float:
    """The machine's physical memory in MB (a generous figure where the system will not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1_000_000
    except (AttributeError, ValueError, OSError):
        return 1_000_000.0


def check_memory(engine: str, megabytes: float) -> float:
    """``megabytes`` for a search table, checked up front: above 0 and at most half the machine's memory, so
    a size the machine cannot hold is refused with its limit before a game starts, never mid-game."""
    limit = machine_megabytes() / 2
    if not megabytes > 0:
        raise EngineError(f"{engine}: memory is the table's size in MB, above 0, not {megabytes!r}")
    if megabytes > limit:
        raise EngineError(
            f"{engine}: memory={megabytes:g} MB is more than a table may take on this machine "
            f"(at most {limit:,.0f} MB, half of its {2 * limit:,.0f} MB)"
        )
    return float(megabytes)


def new_table(kernel: Any, megabytes: float) -> Any:
    """A transposition table of ``megabytes`` for ``kernel``: in C memory for a compiled kernel, else a
    bounded dict of about ``BYTES_PER_ENTRY`` bytes an entry."""
    make = getattr(kernel, "new_table", None)
    if make is not None:
        try:
            return make(megabytes)
        except MemoryError as error:
            raise EngineError(f"{error}: choose a smaller memory (MB)") from None
    return TranspositionTable(int(megabytes * 1_000_000 / BYTES_PER_ENTRY))


def check_two_player(engine: str, game: Game) -> None:
    if game.num_players != 2:
        raise EngineError(f"{engine} plays two-player games; {game.title} is a one-player puzzle")


class PVSEngine(Engine):
    """Iterative-deepening PVS with a transposition table (the strong default engine)."""

    name = "pvs"

    def __init__(
        self,
        game: Game,
        time: float | None = 1.0,
        depth: int | None = None,
        nodes: int | None = None,
        memory: float = 16,
        poll: int = 256,
        eval: str = "default",
        fast: bool = True,
        tables: bool = False,
        table_seeds: int | None = None,
        reuse: bool = False,
    ) -> None:
        check_two_player(self.name, game)
        super().__init__(game, time=time, depth=depth, nodes=nodes, memory=memory, poll=poll, eval=eval, fast=fast,
                         tables=tables, table_seeds=table_seeds, reuse=reuse)
        if poll < 1:
            raise EngineError(f"pvs: poll must be at least 1 node, not {poll}")
        self.time_limit = time
        self.depth_limit = depth
        self.node_limit = nodes
        self.poll_interval = poll
        self.memory = check_memory(self.name, memory)
        self.evaluator = get_evaluator(game, eval)
        self.kernel = kernel_for(game, self.evaluator, fast=fast)
        self.wants_tables = tables
        self.table_seeds = table_seeds
        """The most seeds of the table layers used (None: every layer there is)."""
        self.tables = use_tables(self.kernel, by=0.0, seeds=table_seeds) if tables else None  # loading starts
        """The endgame tables the compiled kernel answers from (``ai.tables``), or None.  Looked up again before
        every search: the first search starts building them if needed, and they serve once they are built."""
        self.table = new_table(self.kernel, self.memory)
        self.playing: Evaluator | None = None
        """The evaluation the table's scores were stored under (``evaluator_for`` the last root searched)."""
        self.reuse = reuse
        """A timed search lets a table entry of a deeper search cut (``Budget.deeper_cutoffs``): what earlier
        searches of this game proved deeper is used, not searched again at a shallower depth."""
        self.book: OpeningBook | None = None
        """An opening book (``ai.book.book_for``) played at once by time-limited searches; None: search."""

    # -- the engine protocol ----------------------------------------------------------------------------------
    def search(
        self,
        state: State,
        limits: Limits | None = None,
        cancel: CancelToken | None = None,
        progress: ProgressCallback | None = None,
    ) -> SearchResult:
        # The collector stays off while searching: a collection pause can overrun the deadline, and the
        # search's objects (lists of ints, int table entries) hold no cycles for it to find.
        with gc_paused():
            return self._search(state, limits, cancel, progress)

    def _search(
        self,
        state: State,
        limits: Limits | None,
        cancel: CancelToken | None,
        progress: ProgressCallback | None,
    ) -> SearchResult:
        game = self.game
        budget = Budget(limits, cancel, self.time_limit, self.depth_limit, self.node_limit, self.poll_interval)
        budget.deeper_cutoffs = self.reuse and budget.max_depth is None and budget.max_nodes is None
        if game.is_terminal(state):
            return SearchResult(None, final_score(game, state, game.to_move(state)), 0, 0, (), 0.0, True)
        if self.book is not None and budget.max_depth is None and budget.max_nodes is None:
            entry = self.book.lookup(state)
            if entry is not None:  # a fixed-depth search must stay exact, so only a timed one plays the book
                return SearchResult(entry.move, entry.score, entry.depth, 0, (entry.move,), budget.elapsed(),
                                    False, {"book": True, "evaluator": self.evaluator.name})
        max_depth = budget.max_depth if budget.max_depth is not None else MAX_DEPTH
        if budget.is_unbounded and max_depth == MAX_DEPTH:
            raise EngineError("pvs needs a limit: a depth, a node count or a time (e.g. pvs:time=1)")
        playing = evaluator_for(self.evaluator, game, state)
        if playing != self.playing:  # scores stored for the other side's evaluation would mislead this search
            self.playing = playing
            self.table.clear()
        if self.wants_tables:
            tables = use_tables(self.kernel, build=True, by=budget.share(TABLE_WAIT), seeds=self.table_seeds)
            if tables is not self.tables:  # scores stored without (or with fewer) tables: start afresh
                self.tables = tables
                self.table.clear()
        self.table.new_search()
        kernel = kernel_holding(self.kernel, state)  # a position the packed kernel cannot hold: the rules'
        table = self.table if kernel is self.kernel else new_table(kernel, self.memory)
        make_run = getattr(kernel, "make_run", None)
        if make_run is not None and getattr(kernel, "compiled", False):
            run = make_run(table, budget, self.poll_interval, state=state)
        else:
            run = make_run(table, budget, self.poll_interval) if make_run is not None else None
        if run is None:
            run = _Run(kernel, table, budget, self.poll_interval)
        root = kernel.encode(state)
        best: SearchResult | None = None
        for depth in range(1, max(1, max_depth) + 1):
            try:
                score, move, resolved = run.root(root, depth)
            except SearchAborted:
                best = self._cut_short(run, depth, best)
                break
            pv = run.principal_variation(root, move, depth)
            best = SearchResult(
                move, score, depth, run.nodes, pv, budget.elapsed(), resolved,
                {"tt_entries": len(table), "evaluator": self.evaluator.name,
                 "core": "compiled" if getattr(kernel, "compiled", False) else "python"},
            )
            if progress is not None:
                progress(best)
            if resolved:
                break
        if best is None:  # not even depth 1 finished: the best move of the partial iteration, or the first
            move = run.partial_move if run.partial_move is not None else kernel.children(root)[0][0]
            best = SearchResult(move, run.partial_score, 0, run.nodes, (move,), budget.elapsed())
        else:
            best = SearchResult(
                best.move, best.score, best.depth, run.nodes, best.pv, budget.elapsed(), best.exhaustive, best.info
            )
        compiled = getattr(run, "run", None)  # the compiled search measures its own clock checks' gaps
        return budget.stopped(best, getattr(compiled, "max_poll_gap", budget.max_gap))

    def _cut_short(self, run: Any, depth: int, best: SearchResult | None) -> SearchResult | None:
        """The result when iteration ``depth`` was cut short by the clock, a cancel or the node limit.

        The search uses its whole time: it never stops early to save an iteration it predicts cannot finish.
        Instead, once the cut-short iteration has searched its first root move (the last iteration's best) in
        full, its best root move so far is at least as good as that one, seen one ply deeper, and a move that
        proved better replaces it (the standard practice).  ``depth`` stays the last completed iteration's;
        ``info["partial_depth"]`` names the iteration the move came from.
        """
        if best is None or getattr(run, "partial_depth", 0) != depth or run.partial_move is None:
            return best
        info = {**best.info, "partial_depth": depth}
        if run.partial_move == best.move:
            return SearchResult(best.move, run.partial_score, best.depth, best.nodes, best.pv, best.time,
                                best.exhaustive, info)
        return SearchResult(run.partial_move, run.partial_score, best.depth, best.nodes, (run.partial_move,),
                            best.time, False, info)


class _Run:
    """One search: the recursive PVS with its counters, killers and history (fresh for every search)."""

    def __init__(self, kernel: Any, table: TranspositionTable, budget: Budget, poll: int) -> None:
        self.kernel = kernel
        self.table = table
        self.budget = budget
        self.poll = poll
        self.nodes = 0
        self.horizon = 0
        """Heuristic leaves met so far; unchanged across a subtree means the subtree is resolved."""
        self.next_poll = poll
        self.killers: list[list[Move]] = [[None, None] for _ in range(MAX_DEPTH + 2)]
        self.history: dict[Move, int] = {}
        self.previous_best: Move | None = None
        self.partial_move: Move | None = None
        self.partial_score = 0.0
        self.partial_depth = 0
        """The iteration ``partial_move`` belongs to: the best move among the root moves searched so far."""
        self.pvs = self._build()

    def _note_partial(self, move: Move, value: float, depth: int) -> None:
        """Remember the best root move proven so far in this iteration (used if the iteration is cut short)."""
        self.partial_move, self.partial_score, self.partial_depth = move, value, depth

    def root(self, root: Hashable, depth: int) -> tuple[float, Move, bool]:
        """Search the root to ``depth``; return (score, best move, resolved)."""
        kernel = self.kernel
        pvs = self.pvs
        children = kernel.children(root)
        previous = self.previous_best
        children.sort(key=lambda c: (c[0] != previous, c[3] is None, not c[2]))
        horizon_before = self.horizon
        alpha, beta = -INFINITY, INFINITY
        best_score, best_move = -INFINITY, children[0][0]
        first = True
        for move, child, same, final in children:
            if final is not None:
                value = final
            elif same:
                if first:
                    value = pvs(child, depth - 1, alpha, beta, 1)
                else:
                    value = pvs(child, depth - 1, alpha, alpha + EPSILON, 1)
                    if alpha < value < beta:
                        self._note_partial(move, value, depth)  # proven better already, should the re-search abort
                        value = pvs(child, depth - 1, alpha, beta, 1)
            else:
                if first:
                    value = -pvs(child, depth - 1, -beta, -alpha, 1)
                else:
                    value = -pvs(child, depth - 1, -alpha - EPSILON, -alpha, 1)
                    if alpha < value < beta:
                        self._note_partial(move, value, depth)
                        value = -pvs(child, depth - 1, -beta, -alpha, 1)
            first = False
            if value > best_score:
                best_score, best_move = value, move
                if value > alpha:
                    alpha = value
                self._note_partial(move, value, depth)
        resolved = self.horizon == horizon_before
        self.previous_best = best_move
        table = self.table
        key = kernel.key(root)
        if key in table.entries or len(table.entries) < table.capacity:
            table.entries[key] = (depth, EXACT, best_score, best_move, resolved)
        return best_score, best_move, resolved

    def principal_variation(self, root: Hashable, move: Move, depth: int) -> tuple:
        """The best line, read from the table (as far as it goes, at most ``depth`` moves)."""
        kernel = self.kernel
        line = [move]
        position = root
        seen = {kernel.key(root)}
        while len(line) < depth:
            child = next((c[1] for c in kernel.children(position) if c[0] == line[-1]), None)
            if child is None:
                break
            key = kernel.key(child)
            entry = self.table.entries.get(key)
            if entry is None or entry[3] is None or key in seen:
                break
            seen.add(key)
            line.append(entry[3])
            position = child
        return tuple(line)

    def _build(self):
        """The recursive search as a closure over local names (much faster than attribute look-ups)."""
        run = self
        kernel = self.kernel
        children_of = kernel.children
        evaluate = kernel.evaluate
        best_leaf = kernel.best_leaf
        position_is_key = not isinstance(kernel, GameKernel)
        key_of = kernel.key
        entries = self.table.entries
        capacity = self.table.capacity
        budget = self.budget
        deeper = getattr(budget, "deeper_cutoffs", False)
        poll_interval = self.poll
        killers = self.killers
        history = self.history
        history_get = history.get
        tt_get = entries.get

        def pvs(position: Hashable, depth: int, alpha: float, beta: float, ply: int) -> float:
            run.nodes += 1
            if run.nodes >= run.next_poll:
                run.next_poll = run.nodes + budget.poll(run.nodes)
            if depth <= 0:
                run.horizon += 1
                return evaluate(position)
            key = position if position_is_key else key_of(position)
            entry = tt_get(key)
            table_move = None
            if entry is not None:
                entry_depth, flag, value, table_move, resolved = entry
                if entry_depth == depth or (deeper and entry_depth > depth) or (resolved and depth >= entry_depth):
                    if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                        if not resolved:
                            run.horizon += 1
                        return value
            horizon_before = run.horizon
            if depth == 1:
                # The leaves: the kernel scores the children itself, stopping at the first cut-off.
                best, best_move, leaves = best_leaf(position, beta)
                run.nodes += leaves
                run.horizon += leaves
            else:
                children = children_of(position)
                best = -INFINITY
                best_move = None
                killer = killers[ply]
                first_killer, second_killer = killer
                if len(children) > 1:
                    children.sort(
                        key=lambda c: -(
                            (1 << 40 if c[0] == table_move else 0)
                            + (1 << 39 if c[3] is not None and c[3] > 0 else 0)
                            + (1 << 38 if c[2] else 0)
                            + (1 << 37 if c[0] == first_killer else 1 << 36 if c[0] == second_killer else 0)
                            + history_get(c[0], 0)
                        )
                    )
                a = alpha
                first = True
                for move, child, same, final in children:
                    if final is not None:
                        value = final
                    elif same:
                        if first:
                            value = pvs(child, depth - 1, a, beta, ply + 1)
                        else:
                            value = pvs(child, depth - 1, a, a + EPSILON, ply + 1)
                            if a < value < beta:
                                value = pvs(child, depth - 1, a, beta, ply + 1)
                    elif first:
                        value = -pvs(child, depth - 1, -beta, -a, ply + 1)
                    else:
                        value = -pvs(child, depth - 1, -a - EPSILON, -a, ply + 1)
                        if a < value < beta:
                            value = -pvs(child, depth - 1, -beta, -a, ply + 1)
                    first = False
                    if value > best:
                        best, best_move = value, move
                        if value > a:
                            a = value
                            if a >= beta:
                                if final is None and move != first_killer:
                                    killer[1] = first_killer
                                    killer[0] = move
                                history[move] = history_get(move, 0) + depth * depth
                                break
            flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
            if key in entries or len(entries) < capacity:
                entries[key] = (depth, flag, best, best_move, run.horizon == horizon_before)
            return best

        return pvs
