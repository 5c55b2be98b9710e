"""What the puzzle screen does that is not drawing: the round being chosen, hint and watch (``game.puzzle_watch``),
undo, save and load, the end and its record, the buttons' states and the message line.

``game.views.solitaire_view.SolitaireView`` translates input into calls here and draws what this holds; nothing
here imports arcade, so it is tested without a window (``tests/game/test_puzzle_controller.py``).  The session
(``game.puzzle_session``) is the truth.  Rounds played (by the player, redo or the watched computer) and
positions to show at once (undo, restart, load) are queued in ``board_changes`` for the view to animate or
show; the searches run in processes (``game.puzzle_search.PuzzleSearches``) that ``update`` drains once a
frame, never waiting.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from ai.worker import Failed, Finished, Progress
from game import savegame
from game.puzzle_search import PuzzleSearches, describe_live, engine_spec
from game.puzzle_watch import Watch
from game.puzzle_words import describe_hint, describe_round, hole_name, stones, store_name, visual_direction
from game.puzzle_session import PuzzleSession, Verdict, describe_error, read_puzzle
from game.records import RecordsStore
from game.savegame import SavedGame
from rules import RulesError
from rules.solitaire import CW, Round, Solitaire, SolitaireState, can_set_aside

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
ROUND_GAP = 0.5
"""Seconds between two rounds the computer plays while watched (at speed 1)."""


class AutosaveLike(Protocol):
    """What the controller uses of ``game.autosave.Autosave``."""

    def keep(self, saved: SavedGame, is_over: bool, slot: str | None = None) -> str: ...

    def new_slot(self) -> str: ...


@dataclass(frozen=True)
class BoardChange:
    """What the board must show next: a round to animate (``move`` and ``before``), or ``after`` at once."""

    after: SolitaireState
    before: SolitaireState | None = None
    move: Round | None = None


class PuzzleController:
    """One puzzle in progress on the puzzle screen, less the screen."""

    def __init__(self, session: PuzzleSession, settings: Any, autosave: AutosaveLike | None,
                 records: RecordsStore, searches: PuzzleSearches | None = None) -> None:
        self.session = session
        self.settings = settings
        self.autosave = autosave
        self.records = records
        self.searches = searches if searches is not None else PuzzleSearches()
        self.hint_spec = engine_spec(settings, self.game, "hint")
        self.chosen: int | None = None
        """The hole the player picked when the choice is free (before the first round)."""
        self.asking: str | None = None
        """A direction waiting for the lewis decision: set the last stone aside or keep sowing."""
        self.hint_move: Round | None = None
        self.hint_text = ""
        self.hint_wanted = False
        """A hint was being thought about when another screen opened: ask again on coming back."""
        self.speed_index = 1
        self.clock = 0.0
        self.last_round_at = 0.0
        self.last_text = ""
        self.last_start: int | None = None
        """The hole the last round played started from (None after undo, restart or load)."""
        self.finish_shown = False
        self.record_line = ""
        self.save_path: Path | None = None
        """The file this puzzle was loaded from or last saved to (None: a save makes a new one)."""
        self.notice = ""
        self.notice_warning = False
        self.board_changes: list[BoardChange] = []
        self.watch = Watch(self.searches, engine_spec(settings, self.game, "watch"), self.say)

    @property
    def game(self) -> Solitaire:
        return self.session.game

    @property
    def watch_spec(self) -> str:  # the save names it when the computer played a round
        return self.watch.spec

    def say(self, text: str, warning: bool = False) -> None:
        """The line the screen shows under the board (until the next one)."""
        self.notice, self.notice_warning = text, warning

    @property
    def speed(self) -> float:  # of the animation and the watched computer's rounds, x1 normal
        return SPEEDS[self.speed_index]

    # -- the round being chosen -------------------------------------------------------------------------------
    def start_hole(self) -> int | None:
        """The hole the next round starts from: set by the rules, or the one the player picked when free."""
        if self.session.is_over:
            return None
        selected = self.session.state.selected
        return selected if selected is not None else self.chosen

    def _refused(self) -> bool:
        """True, having said why, when the player cannot play a round now (the computer plays, or it is over)."""
        if self.watch.active:
            self.say("The computer is playing: Stop (W) to take over.")
        elif self.session.is_over:
            self.say("The game is over: Undo, Restart or back to the Puzzles.")
        else:
            return False
        return True

    def click_hole(self, hole: int) -> None:
        """A click on a hole: select it when the choice is free, else say where the round starts."""
        if self._refused():
            return
        state = self.session.state
        if state.selected is not None:
            if hole == state.selected:
                self.say(f"This round starts from {hole_name(hole)}: choose a direction.")
            else:
                self.say(f"This round starts from {hole_name(state.selected)}, where the last one ended: "
                         "choose a direction.", warning=True)
            return
        if not state.holes[hole]:
            self.say(f"{hole_name(hole).capitalize()} is empty: pick a hole with stones.", warning=True)
            return
        self.chosen = hole
        self.asking = None
        self.say(f"{hole_name(hole).capitalize()} ({stones(state.holes[hole])}): choose a direction.")

    def step_choice(self, step: int) -> None:
        """Up/Down: move the free choice to the next hole with stones."""
        state = self.session.state
        if self.watch.active or self.session.is_over or state.selected is not None:
            return
        filled = [hole for hole in range(len(state.holes)) if state.holes[hole]]
        if not filled:
            return
        if self.chosen in filled:
            index = (filled.index(self.chosen) + step) % len(filled)
        else:
            index = 0 if step > 0 else len(filled) - 1
        self.click_hole(filled[index])

    def choose(self, direction: str) -> None:
        """A direction was chosen: play the round, or ask first whether to set the last stone aside (lewis)."""
        if self._refused():
            return
        start = self.start_hole()
        if start is None:
            self.say("Select a hole first: click one with stones (or Up/Down).", warning=True)
            return
        state = self.session.state
        if self.game.is_lewis and can_set_aside(state.holes, start, direction):
            self.asking = direction
            end = self.aside_store(start, direction)
            self.say(f"One stone will be in hand at the end of the row: set it aside into {store_name(end)} (S) "
                     "or keep sowing (K)?")
            return
        self.play(self._round(start, direction, False))

    def decide(self, set_aside: bool) -> None:
        """The lewis decision for the direction being asked about."""
        start = self.start_hole()
        if self.asking is None or start is None or self.watch.active:
            return
        direction, self.asking = self.asking, None
        self.play(self._round(start, direction, set_aside))

    def _round(self, start: int, direction: str, set_aside: bool) -> Round:
        hole = None if self.session.state.selected is not None else start + 1
        return Round(hole, direction, set_aside)

    def aside_store(self, start: int, direction: str) -> int:
        """The store a stone set aside would go into, sowing ``direction`` from ``start``."""
        stored = self.game.report(self.session.state, self._round(start, direction, True)).set_aside
        return stored.index if stored is not None else 0

    # -- playing ----------------------------------------------------------------------------------------------
    def play(self, move: Round, by_computer: bool | None = False) -> None:
        """Play a round (IllegalMoveError if it is not legal) and queue its animation."""
        description = describe_round(self.game, self.session.state, move)
        picked = self.game.report(self.session.state, move).picked
        start = picked.index if picked is not None else 0
        before, after = self.session.play(move, by_computer)
        self.after_change()
        self.last_text = f"Round {self.session.rounds}: {description}"
        self.last_start = start
        self.last_round_at = self.clock
        self.board_changes.append(BoardChange(after, before, move))

    def choose_side(self, rightwards: bool) -> None:
        """Left/Right: the direction in which the stones first move on screen from the starting hole."""
        start = self.start_hole()
        if start is not None and self.asking is None and not self.watch.active:
            self.choose(visual_direction(start, rightwards))
        elif self.asking is None:
            self.choose(CW)  # says why no round can start

    def after_change(self) -> None:
        """The position changed: a hint, a selection or a message about the old one is stale; the autosave is
        renewed."""
        self.say("")
        self._autosave()
        self.searches.cancel("hint")
        self.hint_move = None
        self.hint_text = ""
        self.chosen = None
        self.asking = None
        self.finish_shown = False

    def _show_now(self) -> None:
        self.board_changes.append(BoardChange(self.session.state))

    def undo(self) -> None:
        self.watch.stop()
        if not self.session.undo():
            self.say("Nothing to undo: this is the deal as dealt.")
            return
        self.after_change()
        self.last_text, self.last_start = f"Took back round {self.session.rounds + 1}", None
        self._show_now()
        self.say("")

    def redo(self) -> None:
        """Play again the last round taken back (as the computer's when the computer first played it)."""
        self.watch.stop()
        move = self.session.next_redo
        if move is None:
            self.say("Nothing to redo.")
            return
        self.play(move, self.session.next_redo_by_computer)
        self.say("")

    def restart(self) -> None:
        self.watch.stop()
        self.session.restart()
        self.after_change()
        self.last_text, self.last_start = "", None
        self._show_now()
        self.say("The deal again, from the start (Redo replays your rounds).")

    def replace_session(self, session: PuzzleSession) -> None:
        """Continue another puzzle in progress (a loaded save): searches stop, the board shows its position."""
        self.watch.stop()
        self.cancel_search()
        self.session = session
        self.after_change()
        moves = session.moves
        self.last_text = (f"Round {session.rounds}: {describe_round(self.game, session.states[-2], moves[-1])}"
                          if moves else "")
        self.last_start = None
        self._show_now()

    def _autosave(self) -> None:
        if self.autosave is None:
            return
        session = self.session
        if session.slot is None and session.moves and not session.is_over:
            session.slot = self.autosave.new_slot()  # its own slot: no other game in progress is replaced
        problem = self.autosave.keep(session.saved_as(self.watch_spec), session.is_over, session.slot)
        if problem:
            self.say(problem, warning=True)

    def end_here(self) -> None:
        if self.game.is_lewis or self.watch.active or self.session.is_over or not self.session.rounds:
            return
        self.session.end_here()
        self._autosave()
        self.say("")

    # -- hint and watch -----------------------------------------------------------------------------------------
    def cancel_search(self) -> None:
        """Stop every search at once (its process is killed; nothing it sent afterwards is used)."""
        self.searches.cancel()

    def hint(self) -> None:
        if self._refused():
            return
        if self.searches.is_running("hint"):
            return
        problem = self.searches.start("hint", self.game, self.hint_spec, self.session.state)
        if problem:
            self.say(problem, warning=True)
        else:
            self.hint_text = "Hint: thinking..."

    def resume_hint(self) -> None:
        """Back from another screen: ask again for the hint that was being thought about when it opened."""
        if self.hint_wanted:
            self.hint_wanted = False
            self.hint()

    def toggle_watch(self) -> None:
        if self.watch.active:
            self.watch.stop()
            self.say("Stopped: your turn.")
        elif self.session.is_over:
            self.say("The game is over: Undo or Restart first.")
        else:
            self.searches.cancel("hint")
            self.hint_move, self.hint_text = None, ""
            self.chosen = self.asking = None
            self.watch.start()

    def faster(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)

    def slower(self) -> None:
        self.speed_index = max(0, self.speed_index - 1)

    def update(self, delta_time: float, animating: bool) -> None:
        """Once a frame: drain the searches, let the watched computer play when the stones have landed."""
        self.clock += delta_time
        for role, searched, message in self.searches.poll():
            if role == "watch":
                self.watch.receive(self.session, searched, message)
            elif isinstance(message, Progress) and message.result.info.get("live"):
                self.hint_text = "Hint: thinking...\n" + describe_live(message.result)
            elif isinstance(message, Finished):
                result = message.result
                if message.cancelled or searched != self.session.state or result.move is None:
                    continue
                self.session.note_search(result)
                self.hint_move = cast(Round, result.move)  # a Solitaire engine's move is a Round
                self.hint_text = "Hint: " + describe_hint(self.game, self.session.state, result)
                self.say(self.hint_text)
            elif isinstance(message, Failed):
                self.hint_text = f"No hint: {message.error}"
                self.say(self.hint_text, warning=True)
        if self.watch.active and not animating:
            move = self.watch.step(self.session, self.clock - self.last_round_at >= ROUND_GAP / self.speed)
            if move is not None:
                self.play(move, by_computer=True)
        self.searches.refill()

    # -- files ----------------------------------------------------------------------------------------------------
    def save(self, path: Path) -> bool:
        """Write the puzzle in progress to ``path`` (its folder made as needed); False, with a warning, if not."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            savegame.save(path, self.session.saved_as(self.watch_spec))
        except (OSError, ValueError) as error:
            self.say(f"Could not save: {error}", warning=True)
            return False
        self.save_path = path  # still unfinished: it stays among the games in progress, offered for Resume
        self.say(f"Saved to {path}")
        return True

    def load(self, path: Path) -> bool:
        """Continue the puzzle saved at ``path``; on any problem say why and leave the board untouched."""
        try:
            session = read_puzzle(path)
        except (savegame.SaveError, OSError, RulesError, ValueError) as error:
            self.say(f"Cannot load {path.name}: {describe_error(error)}. The puzzle on the board is unchanged.",
                     warning=True)
            return False
        self.replace_session(session)
        self.save_path = path
        self.say(f"Loaded {path.name}: {session.puzzle.title}, {session.rounds} rounds played.")
        return True

    # -- the end ----------------------------------------------------------------------------------------------
    def should_finish(self, animating: bool) -> bool:
        """True once the game is over, the stones have landed and the verdict is not shown yet."""
        return self.session.is_over and not self.finish_shown and not animating and not self.watch.active

    def finish(self) -> Verdict:
        """The game just ended: record the result (when the player played every round); the verdict."""
        self.record_line, problem = self.session.record_in(self.records)
        if problem:
            self.say(problem, warning=True)
        self.finish_shown = True
        return self.session.verdict()

    def enabled(self) -> dict[str, bool]:
        """Which of the screen's buttons can be used now (by name)."""
        session = self.session
        over, watching = session.is_over, self.watch.active
        player = not over and not watching
        asking = self.asking is not None
        choosing = player and self.start_hole() is not None and not asking
        return {
            "Hint": player, "Undo": session.can_undo(), "Redo": session.can_redo(), "Restart": session.rounds > 0,
            "Watch": not over and not watching, "Anti-clockwise": choosing, "Clockwise": choosing,
            "Set aside": player and asking, "Keep sowing": player and asking,
            "End here": player and session.rounds > 0, "Pause": watching, "Stop": watching,
        }

    @property
    def controls_row(self) -> str:
        """Which row of buttons goes under the board: directions, the lewis question, or the watch's."""
        return "watching" if self.watch.active else ("asking" if self.asking is not None else "directions")
