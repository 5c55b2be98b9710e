"""Watching the computer solve a puzzle: the watched engine's searches, its plan and what it has found.

Part of the puzzle screen's controller (``game.puzzle_controller``), window-free.  The engine searches from
the position (``game.puzzle_search.PuzzleSearches``, role ``watch``); a whole line (a goal, or proven best)
is then played round by round at the chosen speed, otherwise its next round, and it searches again.  While it
searches, ``text`` shows its progress (states explored, best so far, proven or not).
"""
from __future__ import annotations

from typing import Callable, cast

from ai.worker import Failed, Finished, Progress
from game.puzzle_search import Message, PuzzleSearches, describe_final, describe_live
from game.puzzle_session import PuzzleSession
from rules.solitaire import Round, SolitaireState


class Watch:
    """The computer playing the deal while the player watches (``active``), or paused, or off."""

    def __init__(self, searches: PuzzleSearches, spec: str, say: Callable[..., None]) -> None:
        self.searches = searches
        self.spec = spec
        self.say = say
        """How the watch tells the screen's message line what happened (``say(text, warning=False)``)."""
        self.active = False
        self.paused = False
        self.plan: list[Round] = []
        self.plan_complete = False
        """The plan being played is the engine's whole line (a goal, or proven best), not just its next round."""
        self.line: tuple = ()
        """(state the line starts from, the line): the last line the watched engine found."""
        self.text = ""
        """The search's progress or its finding, for the side panel."""

    @property
    def title(self) -> str:
        """What Watch does, in words (the engine's name is a detail for engine developers: ``engine_title``)."""
        return "the computer playing on from here, round by round"

    def start(self) -> None:
        self.active, self.paused = True, False
        self.plan, self.plan_complete = [], False
        self.say("Watching the computer solve the deal from here.")

    def stop(self) -> None:
        self.searches.cancel("watch")
        self.active = self.paused = False
        self.plan, self.plan_complete = [], False

    def toggle_pause(self) -> None:
        if not self.active:
            return
        self.paused = not self.paused
        self.say("Paused: Resume (P) to go on, Stop (W) to take over." if self.paused else "")

    def receive(self, session: PuzzleSession, searched: SolitaireState | None, message: Message) -> None:
        """A message of the watch's search about the position ``searched``."""
        if isinstance(message, Progress) and message.result.info.get("live"):
            self.text = describe_live(message.result)
        elif isinstance(message, Finished):
            result = message.result
            if message.cancelled or searched != session.state or not self.active:
                return
            session.note_search(result)
            self.text = describe_final(result, self.spec)
            complete = bool(result.info.get("solved") or result.exhaustive) and bool(result.pv)
            self.plan = [cast(Round, move) for move in (result.pv if complete else [result.move] if result.move else [])]
            self.plan_complete = complete
            self.line = (session.state, tuple(self.plan))
        elif isinstance(message, Failed):
            self.stop()
            self.say(f"The engine failed: {message.error}", warning=True)

    def step(self, session: PuzzleSession, due: bool) -> Round | None:
        """Once a frame while active and the stones have landed: the round to play now (``due``: the gap
        since the last round has passed), else None; searches again when the plan is used up."""
        if self.paused or self.searches.is_running("watch"):
            return None
        if self.plan:
            return self.plan.pop(0) if due else None
        if session.is_over:
            self.stop()
            return None
        if self.plan_complete:
            # The engine's whole line is played and the game goes on: it proved nothing more can be stored.
            self.stop()
            if not session.game.is_lewis:
                session.end_here()
            self.say("The computer's line is complete: no more stones can be stored from here (proven).")
            return None
        problem = self.searches.start("watch", session.game, self.spec, session.state)
        if problem:
            self.stop()
            self.say(problem, warning=True)
        else:
            self.text = "The computer is looking for the best line from here..."
        return None
