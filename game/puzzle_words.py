"""What the puzzle screen says about the puzzle in progress, in words: the rules line, the top bar, the rounds.

Window-free (the view draws these strings; ``tests/game/`` reads them without a window).
"""
from __future__ import annotations

from game.puzzle_session import PuzzleSession
from game.puzzle_watch import Watch


def rules_line(session: PuzzleSession) -> str:
    """One line under the board: what winning means here."""
    if session.game.is_lewis:
        return ("Lewis's variant: clear every hole to win. At a row end with one stone in hand you may set it "
                "aside into the store.")
    return (f"Source rules (dose): no deal can be cleared, so store as many as you can. Par {session.par}"
            " is a perfect game.")


def status(session: PuzzleSession, watch: Watch) -> tuple[str, str, str]:
    """The top bar's (subtitle, whose turn, scores)."""
    state = session.state
    if session.is_over:
        turn = "Game over"
    elif watch.active:
        turn = "The computer is solving" + (" (paused)" if watch.paused else "")
    elif state.selected is not None:
        turn = f"Round {session.rounds + 1}: from hole{state.selected + 1:02d}"
    else:
        turn = f"Round {session.rounds + 1}: select a hole"
    if session.game.is_lewis:
        scores = f"Stored {state.stored} of 48   left {state.left}"
    else:
        possible = session.still_possible
        extra = f" (at most {possible} now)" if possible is not None and possible < session.par else ""
        scores = f"Stored {state.stored}   par {session.par}{extra}"
    return f"{session.puzzle.title} ({session.game.variant})", turn, scores


def round_list(session: PuzzleSession) -> list[str]:
    """Every round played, numbered, for the side panel."""
    game = session.game
    return [
        f"{number:>3}. {game.format_move(before, move)}"
        + (" +1" if after.stored > before.stored else "") + (" (cpu)" if computer else "")
        for number, (before, move, after, computer) in enumerate(
            zip(session.states, session.moves, session.states[1:], session.by_computer), start=1)
    ]


def prompt(session: PuzzleSession, watch: Watch, start: int | None, asking: str | None) -> str:
    """What to do next, shown under the board when there is no message: a new player needs no manual."""
    if watch.active or session.is_over:
        return ""
    if asking is not None:
        return "Set the stone aside (S) or keep sowing (K)."
    if start is None:
        return "Click a hole with stones (or Up/Down), then choose a direction. H asks for a hint, F1 the rules."
    return "Choose a direction: the arrows beside the hole, Left/Right, or the buttons. H asks for a hint."
