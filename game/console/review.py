"""The review of a game at a terminal: ``review [SECONDS]`` in the text console (on the game in progress or just
finished) and ``stonecave review FILE [--time S]`` (a saved or autosaved game).  Both print the turning points and
each player's accuracy (``game.review_words``); Ctrl-C stops the review early and prints what was done."""
from __future__ import annotations

import math
import sys
from typing import Callable, Sequence

from game.review import DEFAULT_SECONDS, SECONDS_RANGE, Budget, ReviewRun
from game.review_words import review_lines
from rules import Game, Move, State
from rules.base import clip

WAIT_STEP = 0.2
"""Seconds between looks at the review's progress (Ctrl-C is seen at once)."""


def review_seconds(argument: str | None, what: str = "review") -> float:
    """Seconds per position of ``review [SECONDS]`` (``DEFAULT_SECONDS`` when empty or None; ``2`` or ``2s``), or of
    the option ``what`` (None: not given; empty is refused), written with the digits 0-9; ValueError saying what
    would be right."""
    if argument is None:
        return DEFAULT_SECONDS
    text = argument.strip().lower()
    low, high = SECONDS_RANGE
    if not text and what == "review":  # the console's bare ``review``; an option given empty is refused
        return DEFAULT_SECONDS
    number = text[:-1].rstrip() if text.endswith("s") else text
    right = f"{what} takes {low:g} to {high:g} seconds per position, written with the digits 0-9"
    if not number or len(number) > 20 or not all(char in "0123456789." for char in number) or number.count(".") > 1 \
            or number == ".":
        raise ValueError(f"{right}, not {clip(argument.strip())!r}")
    seconds = float(number)
    if not math.isfinite(seconds) or not low <= seconds <= high:
        raise ValueError(f"{right}, not {clip(argument.strip())}")
    return seconds


def _tty(stream: object) -> bool:
    try:
        return bool(getattr(stream, "isatty")())
    except (AttributeError, ValueError, OSError):
        return False


def run_review(say: Callable[[str], None], game: Game, states: Sequence[State], moves: Sequence[Move],
               seconds: float) -> bool:
    """Review the game, printing through ``say``; False when there was nothing to review."""
    if not moves:
        say("Nothing to review yet: no move has been played.")
        return False
    total = len(moves)
    shown = _tty(sys.stderr)  # a progress line a terminal rewrites in place; nothing in a pipe or a file
    run = ReviewRun(game, states, moves, Budget(seconds=seconds), start=False)
    try:  # a Ctrl-C at any moment from here stops the review and prints what was done
        run.start()
        say(f"Reviewing {total} move{'s' if total != 1 else ''} of {game.title}, up to {seconds:g} s each "
            f"(about {max(1, math.ceil(total * seconds))} s; Ctrl-C stops early)...")
        while not run.wait(WAIT_STEP):
            if shown:
                sys.stderr.write(f"\r  {run.done_count} of {total} moves reviewed ")
                sys.stderr.flush()
    except KeyboardInterrupt:
        run.cancel()
        run.wait(None)
    if shown:
        sys.stderr.write("\r" + " " * 40 + "\r")
        sys.stderr.flush()
    progress = run.poll()
    if progress.error:
        say(f"The review stopped: {progress.error}")
    for line in review_lines(progress.review):
        say(line)
    return True
