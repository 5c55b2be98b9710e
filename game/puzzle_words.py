"""What the puzzle screen says, in words a player uses: holes numbered 1 to 12 as the board shows them, the
stores as the left and the right one, directions as the stones first move on screen, the level sets by name.

Window-free (the view draws these strings; ``tests/game/`` reads them without a window).  The console and the
level files keep the source's notation (``3 cw``); here it never shows.
"""
from __future__ import annotations

import re
from typing import cast

from ai.base import SearchResult
from game.puzzle_session import PuzzleSession
from game.puzzle_watch import Watch
from levels.solitaire import level_set
from rules import Reason
from rules.events import Place
from rules.solitaire import CCW, CW, Round, Solitaire, SolitaireState


def visual_direction(hole: int, rightwards: bool) -> str:
    """The direction ("cw" or "ccw") in which sowing from ``hole`` first moves right (or left) on screen.

    Holes 1-6 are the top row left to right, 7-12 the bottom row: clockwise runs left to right along the top
    row and right to left along the bottom row.
    """
    return CW if rightwards == (hole < 6) else CCW


def side(hole: int, direction: str) -> str:
    """"right" or "left": the way the stones first move on screen sowing ``direction`` from ``hole``."""
    return "right" if visual_direction(hole, True) == direction else "left"


def hole_name(hole: int) -> str:
    """``hole 3`` for hole index 2: the number the board shows."""
    return f"hole {hole + 1}"


def store_name(store: int) -> str:
    """``the left store`` (store 0) or ``the right store``."""
    return "the left store" if store == 0 else "the right store"


def stones(count: int) -> str:
    return f"{count} stone" + ("" if count == 1 else "s")


def describe_round(game: Solitaire, state: SolitaireState, move: Round) -> str:
    """``hole 3 (4 stones) to the right, ends in hole 7`` (or ``into the left store``, or ``... lost``)."""
    events = game.report(state, move)
    start = _index(events.picked)
    text = f"{hole_name(start)} ({stones(events.seeds)}) to the {side(start, move.direction)}"
    if events.set_aside is not None:
        return f"{text}, {'set aside' if move.set_aside else 'one'} into {store_name(events.set_aside.index)}"
    if events.end_reason is Reason.LAST_STONE_IN_EMPTY_HOLE:
        return f"{text}, ends in empty {hole_name(_index(events.last))}: lost"
    return f"{text}, ends in {hole_name(_index(events.last))}"


def _index(place: Place | None) -> int:
    """A hole's index from the rules' report (a round always starts and ends in a hole or a store)."""
    assert place is not None
    return place.index


def without_counts(text: str) -> str:
    """``text`` without its stone counts (``hole 3 (4 stones) to ...`` -> ``hole 3 to ...``): the top bar's
    last round in a narrow window."""
    return re.sub(r" \(\d+ stones?\)", "", text)


def describe_hint(game: Solitaire, state: SolitaireState, result: SearchResult) -> str:
    """``Sow hole 3 to the left: the last stone ends in the left store; 12 rounds to go``."""
    move = cast(Round, result.move)  # a Solitaire engine's move is a Round
    assert move is not None
    events = game.report(state, move)
    start = _index(events.picked)
    text = f"Sow {hole_name(start)} to the {side(start, move.direction)}"
    if events.set_aside is not None:
        verb = "set the last stone aside into" if move.set_aside else "the last stone ends in"
        text += f": {verb} {store_name(events.set_aside.index)}"
    else:
        text += f": the last stone ends in {hole_name(_index(events.last))}"
    solved = bool(result.info.get("solved")) and bool(result.pv)
    if solved and game.is_lewis:
        return text + f"; the board is clear in {len(result.pv)} rounds"
    if solved or (result.exhaustive and result.pv):
        return text + f"; {len(result.pv)} rounds to go, {int(result.score)} stored in all"
    return text + f"; the best line found so far stores {int(result.score)}"


def puzzle_name(session: PuzzleSession) -> str:
    """``Lantern Row, Clear the board``: the puzzle and its set."""
    return f"{session.puzzle.title}, {level_set(session.game.variant).name}"


def rules_line(session: PuzzleSession, credit: bool = True) -> str:
    """One line under the board: what winning means here (and, with ``credit``, whose rules these are)."""
    source = " " + level_set(session.game.variant).credit if credit else ""
    if session.game.is_lewis:
        return ("Clear every hole to win. With one stone in hand at the end of a row you may set it aside into "
                f"the store.{source}")
    return f"No deal can be cleared: store all you can, {session.par} is a perfect game.{source}"


def status(session: PuzzleSession, watch: Watch, wide: bool = True) -> tuple[str, str, str]:
    """The top bar's (subtitle, whose turn, scores); ``wide``: the subtitle names the set too."""
    state = session.state
    if session.is_over:
        turn = "Game over"
    elif watch.active:
        turn = "The computer plays" + (" (paused)" if watch.paused else "")
    elif state.selected is not None:
        turn = f"Round {session.rounds + 1}: {hole_name(state.selected)}"
    else:
        turn = f"Round {session.rounds + 1}: pick a hole"
    if session.game.is_lewis:
        scores = f"Stored {state.stored}, {state.left} left"
    else:
        possible = session.still_possible
        extra = f" (at most {possible} now)" if possible is not None and possible < session.par else ""
        scores = f"Stored {state.stored} of {session.par}{extra}"
    return puzzle_name(session) if wide else session.puzzle.title, turn, scores


def round_list(session: PuzzleSession) -> list[str]:
    """Every round played, numbered, for the side panel: ``  4. hole 3 left +1`` (+1: a stone stored; (PC): the
    computer played it).  At most 26 characters, what the panel's line holds."""
    lines = []
    for number, (before, move, after, computer) in enumerate(
            zip(session.states, session.moves, session.states[1:], session.by_computer), start=1):
        start = (before.selected or 0) if move.hole is None else move.hole - 1  # a free choice names its hole
        lines.append(f"{number:>3}. {hole_name(start)} {side(start, move.direction)}"
                     + (" +1" if after.stored > before.stored else "") + (" (PC)" if computer else ""))
    return lines


def prompt(session: PuzzleSession, watch: Watch, start: int | None, asking: str | None) -> str:
    """What to do next, shown under the board when there is no message: a new player needs no manual."""
    if watch.active or session.is_over:
        return ""
    if asking is not None:
        return "Set the stone aside (S) or keep sowing (K)."
    if start is None:
        return "Click a hole with stones (or Up/Down), then choose a direction. H asks for a hint, F1 the rules."
    return (f"Sow {hole_name(start)}: click an arrow beside it, or press Left or Right. H asks for a hint.")


__all__ = ["CCW", "CW", "describe_hint", "without_counts", "describe_round", "hole_name", "prompt", "round_list", "rules_line",
           "side", "status", "store_name", "visual_direction"]
