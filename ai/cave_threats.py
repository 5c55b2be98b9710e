"""Magnetic Cave threat-space search: a forced win by continuous fours (VCF), exact under the rules.

A *four* is a move after which the mover has exactly one *playable* threat cell (an empty cell that completes
five and that the magnetic rule lets a brick go on now) while the opponent has none: the opponent's only move
that does not lose at once is the block, so the reply is forced and the mover moves again.  A sequence of
fours that ends in a move leaving two playable threat cells (one block is too few), or in a block that opens
one of the mover's threat cells, is a forced win several moves deeper than a full-width search sees at the
same cost: the opponent has no choice anywhere in the line.

The search is a depth-first OR tree over the mover's fours only (the opponent's replies are forced), bounded
by ``fours`` (the mover's moves in a line: its fours and the last move, unless that one makes five at once)
and a node budget (the moves tried), in ascending cell order so that the
compiled copy (``ai/core/cave.pxi``, ``cave_vcf``) finds the same answer within the same budget.  A node whose
opponent has one playable threat cell must block it, and the line goes on only if the block is itself a four;
two playable threat cells of the opponent end the line.  The moves tried are the legal cells of the mover's
windows of three whose other empty cell is or becomes playable (a brick there makes a four) and the legal
cells beside its threat cells in a row (a brick there makes one playable); every other move makes no
playable threat cell.

``vcf_win`` answers yes or no (what the evaluation asks at a leaf); ``vcf_line`` also gives the line, for
tests and tools.  Both are sound: every line found wins against every defence (tests/ai/test_cave_threats.py
replays each against every reply with the rules).
"""
from __future__ import annotations

from ai.evaluators.magnetic_cave import CELL_WINDOWS, WINDOWS
from rules.magnetic_cave import FULL, NOT_A, NOT_H, WALLS, Cell

VCF_FOURS = 8
"""The mover's moves a line may hold when the evaluation asks (0: no threat search)."""
VCF_NODES = 48
"""The moves a leaf's threat search may try before it answers no."""


def _legal(occupied: int) -> int:
    return (FULL ^ occupied) & (WALLS | ((occupied << 1) & NOT_A) | ((occupied >> 1) & NOT_H))


def _five_cells(bits: int, occupied: int) -> int:
    """The empty cells where one more brick of ``bits`` completes a window of five."""
    found = 0
    for window in WINDOWS:
        own = window & bits
        if own.bit_count() == 4:
            found |= window ^ own
    return found & ~occupied


def _four_cells(mine: int, theirs: int, now: int) -> int:
    """The playable cells where a brick of ``mine`` makes a playable threat cell in a window of three (and
    none of ``theirs``): a playable empty cell of it whose partner (the window's other empty cell) is playable
    too, or lies beside it in the row, so that the brick makes it playable."""
    found = 0
    for window in WINDOWS:
        if window & theirs:
            continue
        own = window & mine
        if own.bit_count() == 3:
            empty = window ^ own
            playable, waiting = empty & now, empty & ~now
            if not waiting or (((playable << 1) & NOT_A) | ((playable >> 1) & NOT_H)) & waiting:
                found |= playable
    return found


def _play(mine: int, theirs: int, threats: int, dangers: int, cell: Cell) -> tuple[str, int, int]:
    """The mover (no win in one; ``threats`` / ``dangers`` its and the opponent's threat cells) plays ``cell``:
    ("win", 0, 0) for two playable threat cells, ("four", mine, theirs) with the forced block made, or
    ("none", 0, 0) (a quiet move, a loss, or a full board), as ``ai.fast.magnetic_cave.CaveKernel._play``."""
    bit = 1 << cell
    mine |= bit
    occupied = mine | theirs
    if occupied == FULL:
        return "none", 0, 0
    now = _legal(occupied)
    if dangers & now:
        return "none", 0, 0
    for window in CELL_WINDOWS[cell]:
        if window & theirs:
            continue
        rest = window & ~mine
        if rest and not rest & (rest - 1):
            threats |= rest
    threats &= now
    if not threats:
        return "none", 0, 0
    if threats & (threats - 1):
        return "win", 0, 0
    if occupied | threats == FULL:
        return "none", 0, 0
    return "four", mine, theirs | threats


def _search(mine: int, theirs: int, fours: int, budget: list[int], line: list[Cell]) -> bool:
    occupied = mine | theirs
    now = _legal(occupied)
    threats = _five_cells(mine, occupied)
    wins = threats & now
    if wins:
        line.append((wins & -wins).bit_length() - 1)
        return True
    if fours <= 0:
        return False
    dangers = _five_cells(theirs, occupied)
    blocks = dangers & now
    if blocks & (blocks - 1):
        return False
    near = now & (((threats << 1) & NOT_A) | ((threats >> 1) & NOT_H))
    cells = (blocks or now) & (_four_cells(mine, theirs, now) | near)
    while cells:
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        low = cells & -cells
        cells ^= low
        cell = low.bit_length() - 1
        what, after, blocked = _play(mine, theirs, threats, dangers, cell)
        if what == "win":
            line.append(cell)
            return True
        if what == "four":
            block = (blocked ^ theirs).bit_length() - 1
            mark = len(line)
            line.extend((cell, block))
            if _search(after, blocked, fours - 1, budget, line):
                return True
            del line[mark:]
    return False


def vcf_line(mine: int, theirs: int, fours: int | None = None, nodes: int | None = None) -> tuple[Cell, ...] | None:
    """A forced win by fours for the side to move (bricks ``mine``; the opponent's ``theirs``), or None when
    none is found within ``fours`` fours and ``nodes`` moves tried (by default ``VCF_FOURS``, ``VCF_NODES``,
    read at each call).

    The line: the mover's move, the forced block, ..., ending with the move that wins at once or leaves two
    playable threat cells (after which every reply loses).
    """
    line: list[Cell] = []
    found = _search(mine, theirs, VCF_FOURS if fours is None else fours, [VCF_NODES if nodes is None else nodes], line)
    return tuple(line) if found else None


def vcf_win(mine: int, theirs: int, fours: int | None = None, nodes: int | None = None) -> bool:
    """True when ``vcf_line`` finds a forced win (the same defaults)."""
    return _search(mine, theirs, VCF_FOURS if fours is None else fours, [VCF_NODES if nodes is None else nodes], [])
