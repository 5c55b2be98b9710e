"""What a move does on the board, in a player's words, for the hints: pure functions of the rules, no search.

* Hus (``hus_words``): how many sowings the move relays (its laps), what it captures and from which of the
  opponent's pits, and what it leaves open: the opponent's biggest capture in reply.
* Magnetic Cave (``cave_words``): what a brick makes or stops: five in a row (it wins), a four (open when both
  ends can still be filled), a threat of five, a block of the opponent's five or four, a three.

Pits are named as the board numbers them (each side's pits 1..n, ``Place.number``); cells as the board labels
them (``D4``).  Every phrase is a short clause that ``game.explain`` joins into the hint's sentence.
"""
from __future__ import annotations

from typing import cast

from rules import Game, Move, State
from rules.events import LapKind
from rules.hus import Hus
from rules.magnetic_cave import SIZE, MagneticCave, cell_name, completes_five, legal_mask, mask_cells


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _pits(numbers: list[int]) -> str:
    """``pit 3``, ``pits 3 and 12``, ``pits 3, 5 and 12``."""
    numbers = sorted(set(numbers))
    if len(numbers) == 1:
        return f"pit {numbers[0]}"
    return "pits " + ", ".join(str(number) for number in numbers[:-1]) + f" and {numbers[-1]}"


# -- Hus --------------------------------------------------------------------------------------------------------
def hus_words(game: Game, state: State, move: Move) -> list[str]:
    """What a Hus move does: ``relays twice (3 sowings in all)``, ``captures 9 seeds from North's pits 5, 12, 20 and 27``,
    ``leaves North a capture of 7 seeds (pit 9)`` or ``leaves North no capture``."""
    events = game.report(state, move)
    names = game.player_names
    mover = events.player
    phrases = []
    relays = sum(1 for lap in events.laps if lap.kind is not LapKind.FIRST)
    if relays:
        times = "once" if relays == 1 else "twice" if relays == 2 else f"{relays} times"
        phrases.append(f"relays {times} ({len(events.laps)} sowings in all)")
    if events.captured:
        taken = [place.number for capture in events.captures for place, seeds in capture.taken if seeds]
        phrases.append(f"captures {plural(events.captured, 'seed')} from {names[1 - mover]}'s {_pits(taken)}")
    after = game.apply(state, move)
    if not game.is_terminal(after) and game.to_move(after) != mover:
        reply, seeds = biggest_capture(game, after)
        if seeds:
            phrases.append(f"leaves {names[1 - mover]} a capture of {plural(seeds, 'seed')} "
                           f"(pit {game.move_label(after, reply)})")
        else:
            phrases.append(f"leaves {names[1 - mover]} no capture")
    return phrases


def biggest_capture(game: Game, state: State) -> tuple[Move | None, int]:
    """The side to move's biggest capture in ``state``: (its move, seeds), or (None, 0) when it has none."""
    best: tuple[Move | None, int] = (None, 0)
    for move in game.legal_moves(state):
        seeds = game.report(state, move).captured
        if seeds > best[1]:
            best = (move, seeds)
    return best


# -- Magnetic Cave ----------------------------------------------------------------------------------------------
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _line(bits: int, cell: int, row_step: int, column_step: int) -> tuple[int, list[int]]:
    """The run of ``bits`` through ``cell`` along one direction: its length and the empty-or-not cells just past
    each end that lie on the board (the ends a four could grow at)."""
    length, ends = 1, []
    for sign in (1, -1):
        row, column = divmod(cell, SIZE)
        while True:
            row, column = row + sign * row_step, column + sign * column_step
            if not (0 <= row < SIZE and 0 <= column < SIZE):
                break
            other = row * SIZE + column
            if bits >> other & 1:
                length += 1
                continue
            ends.append(other)
            break
    return length, ends


def longest_line(bits: int, occupied: int, cell: int) -> tuple[int, int]:
    """The longest run of ``bits`` through ``cell`` and how many of its ends are empty cells: (length, open ends)."""
    best = (0, 0)
    for row_step, column_step in DIRECTIONS:
        length, ends = _line(bits, cell, row_step, column_step)
        free = sum(1 for end in ends if not occupied >> end & 1)
        best = max(best, (length, free))
    return best


def winning_cells(bits: int, occupied: int) -> list[int]:
    """The legal cells where a brick would make five for the side holding ``bits``."""
    return [cell for cell in mask_cells(legal_mask(occupied)) if completes_five(bits | 1 << cell, cell)]


def cave_words(game: Game, state: State, move: Move) -> list[str]:
    """What a brick on ``move`` makes or stops: ``makes five in a row``, ``makes an open four``, ``makes a four:
    it threatens five at E4``, ``blocks White's five at C3``, ``blocks White's four``, ``builds a three``."""
    move = cast(int, move)  # a cell
    mover = game.to_move(state)
    other_name = game.player_names[1 - mover]
    bits = (state.black, state.white)  # type: ignore[attr-defined]
    mine, theirs = bits[mover] | 1 << move, bits[1 - mover]
    occupied = mine | theirs
    if completes_five(mine, move):
        return ["makes five in a row"]
    phrases = []
    length, free = longest_line(mine, occupied, move)
    threats = winning_cells(mine, occupied)
    if length >= 4:
        phrases.append("makes an open four" if free == 2 else "makes a four")
    elif length == 3 and free:
        phrases.append("builds a three")
    if len(threats) >= 2:
        phrases.append(f"threatens five at {' and '.join(cell_name(cell) for cell in threats[:2])}: "
                       f"{other_name} cannot stop both")
    elif threats:
        phrases.append(f"threatens five at {cell_name(threats[0])}")
    if completes_five(theirs | 1 << move, move):
        phrases.insert(0, f"blocks {other_name}'s five")
    else:
        blocked, _ = longest_line(theirs | 1 << move, occupied, move)
        if blocked >= 4:
            phrases.insert(0, f"blocks {other_name}'s four")
        elif blocked == 3 and longest_line(theirs | 1 << move, occupied, move)[1]:
            phrases.insert(0, f"stops {other_name}'s three")
    danger = winning_cells(theirs, occupied)
    if danger and not threats:
        phrases.append(f"but {other_name} can make five at {cell_name(danger[0])}")
    return phrases


def move_words(game: Game, state: State, move: Move) -> list[str]:
    """What ``move`` does, for the games whose moves need more than the rules' report says (Hus, the cave);
    empty for the others."""
    if isinstance(game, Hus):
        return hus_words(game, state, move)
    if isinstance(game, MagneticCave):
        return cave_words(game, state, move)
    return []


__all__ = ["biggest_capture", "cave_words", "hus_words", "longest_line", "move_words", "winning_cells"]
