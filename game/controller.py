"""What a two-player game screen does that is not drawing: the session, the computer's and the hint's search
workers, the computer's pending move, pause and speed, replay, and counting a finished game; the texts of the
bars, the panel and the result are its part in ``game.match_texts``.

``MatchView`` translates input into calls here and draws what this holds; nothing here imports arcade, so the
whole of it is tested without a window (``tests/game/test_controller.py``, ``tests/game/test_match_steps.py``).  Each
frame ``update`` says what the screen should do (``PlayMove``, ``ReplayMove``, ``ShowResult``).  The computer
thinks in ``ai.worker.SearchWorker`` threads that ``poll`` drains once a frame; undo, redo, new game or leaving
cancel a search at once, and a result that arrives for a position no longer current is dropped.  Nothing waits
on a thread.  The texts speak of the position on the board (``board_index``), which trails the session while a
move's stones fly, so the top bar and the computer's panel change when they land; their words come from
``game.explain``.  What the screen should say is queued in ``notices`` (text, warning) for the view to show.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Union

from ai import registry
from ai.analysis import Asking, Shelf, judged
from ai.base import Engine, EngineError, Limits, SearchResult
from ai.worker import Failed, Finished, Progress, SearchWorker
from game import explain
from game.autosave import Autosave
from game.hint_search import RankedSearch
from game.match_texts import MatchTexts
from game.session import Session
from rules import Move, State

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
WATCH_GAP = 0.6
"""Seconds between two computer moves when only computers play (at speed 1)."""
REPLY_GAP = 0.15
"""Seconds between the human's move landing and the computer's answer being played."""
REPLAY_START = 0.4
"""Seconds the start position is shown before a replay's first move."""


@dataclass(frozen=True)
class PlayMove:
    """The computer's move is due: play and animate it."""

    move: Move


@dataclass(frozen=True)
class ReplayMove:
    """The replay's next move is due: animate it (the session does not change)."""

    before: State
    move: Move
    after: State


@dataclass(frozen=True)
class ShowResult:
    """The game is over and its last move has landed: show the result panel."""


Step = Union[PlayMove, ReplayMove, ShowResult]
"""What ``MatchController.update`` asks the screen to do this frame."""


class SettingsLike(Protocol):
    """What the controller reads of ``game.settings.Settings``."""

    def get(self, name: str) -> Any: ...

    def engine_spec(self, game: Any, role: str) -> str: ...


class StatisticsLike(Protocol):
    """What the controller uses of ``game.statistics.StatisticsStore``."""

    def mark_recorded(self, match: Session) -> None: ...

    def record_match(self, match: Session) -> list[str]: ...


class MatchController(MatchTexts):
    """One match in progress on a screen, less the screen."""

    def __init__(self, session: Session, settings: SettingsLike, autosave: Autosave | None,
                 statistics: StatisticsLike | None, move_time_limit: float | None = None,
                 game_over_delay: float = 0.0) -> None:
        self.session = session
        self.settings = settings
        self.autosave = autosave
        self.statistics = statistics
        self.move_time_limit = move_time_limit
        """The game's own limit on the computer's time per move, in seconds (Magnetic Cave: 3), or None."""
        self.game_over_delay = game_over_delay
        """Seconds between the last move landing and the result panel (time to see the winning line)."""
        self.result_shown = False
        """The result panel is up (or was, until the position or the replay changed)."""
        self.board_index = self.board_target = len(session.states) - 1
        """The position the board shows (an index in ``session.states``) and the one its animation goes to:
        the top bar speaks of the first, so its texts change when the stones land, not when the move starts."""
        self._move_list: tuple[tuple[int, int, Any], list[str]] | None = None
        self.worker: SearchWorker | None = None
        self.worker_state: State | None = None
        self._seat_engines: dict[int, tuple[str, Engine, SearchWorker]] = {}
        """Each computer seat's engine, the spec it was built from and its last search: kept from move to move,
        so its table keeps what its earlier searches proved and is not allocated again every move."""
        self.pending_move: Move | None = None
        self.pending_since = 0.0
        """When the computer's move became playable: its result arrived or the last stones landed."""
        self.analyses = Shelf(session.game)
        """The analyses of this game's positions, shared: the hint reads the analysis panel's when it analyses the
        position already (``ai.analysis.Shelf``)."""
        self.hint_asking: Asking | None = None
        """The hint's question to the analysis (the default helper, ``hint_helper: best``)."""
        self.hint_worker: SearchWorker | None = None
        """The quick helper's search (``hint_helper: quick``: the hint engine's ranked search)."""
        self.hint_state: State | None = None
        self.hint_move: Move | None = None
        self.hint_text = ""
        self.thinking = ""
        """The computer's search in words while it runs (cleared when it stops)."""
        self._reasonings: list[tuple[int, str]] = []
        """What the computer played and why, with the index in ``session.states`` of the position it led to:
        shown once the board has reached it, kept after (until undo or a new game)."""
        self._computer_result: tuple[State, SearchResult] | None = None
        self.paused = False
        self.speed_index = 1
        self.save_path: Path | None = None
        """The file this game was loaded from or last saved to (None: a save makes a new one)."""
        self.replay_index: int | None = None
        self.replay_wait = 0.0
        self.clock = 0.0
        self.notices: list[tuple[str, bool]] = []
        if session.is_over and statistics is not None:  # a saved game opened already over was counted then
            statistics.mark_recorded(session)

    # -- what the screen shows --------------------------------------------------------------------------------
    @property
    def computer_result(self) -> tuple[State, SearchResult] | None:
        """The computer's latest finished search and the position it searched (the analysis graph's point)."""
        return self._computer_result

    @property
    def watching(self) -> bool:
        """Only computers play."""
        return not self.session.has_human

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    def say(self, text: str, warning: bool = False) -> None:
        self.notices.append((text, warning))

    def take_notices(self) -> list[tuple[str, bool]]:
        notices, self.notices = self.notices, []
        return notices

    # -- the computer -----------------------------------------------------------------------------------------
    def cancel_search(self) -> None:
        """Stop any search at once (the thread finishes on its own; its result is ignored)."""
        for worker in (self.worker, self.hint_worker):
            if worker is not None:
                worker.cancel()
        if self.hint_asking is not None:
            self.hint_asking.cancel()
        self.hint_asking = None
        self.worker = self.hint_worker = None
        self.worker_state = self.hint_state = None
        self.pending_move = None
        self.thinking = ""

    def think_time(self, seat_time: float | None) -> float:
        """Seconds the computer may think: the seat's time or the Settings', within the game's own limit
        (less a margin for the thread to start and the move to arrive)."""
        seconds = seat_time or float(self.settings.get("think_time"))
        if self.move_time_limit is not None:
            seconds = min(seconds, self.move_time_limit - 0.15)
        return seconds

    def start_search(self) -> None:
        session = self.session
        seat = session.seat(session.to_move)
        limits = Limits.requested(self.think_time(seat.time))  # the move's clock starts now, engine building included
        spec = seat.engine or "random"
        try:
            engine = self._seat_engine(session.to_move, spec)
        except EngineError as error:
            self.say(f"The computer cannot play: {error}", warning=True)
            self.paused = True
            return
        self.worker = SearchWorker(engine, session.state, limits)
        self._seat_engines[session.to_move] = (spec, engine, self.worker)
        self.worker_state = session.state
        self.worker.start()
        self.thinking = f"{self.computer_name(session.to_move)} is thinking..."

    def _seat_engine(self, player: int, spec: str) -> Engine:
        """The engine of ``player``'s seat: the one its last move was searched with, unless the seat's engine or the
        game has changed or that search is still unwinding (after a cancel), else a new one."""
        kept = self._seat_engines.get(player)
        if kept is not None:
            kept_spec, engine, worker = kept
            if kept_spec == spec and engine.game == self.session.game and not worker.searching:
                return engine
        return registry.make_engine(self.session.game, spec)

    def poll(self) -> None:
        """Drain the workers' messages (once a frame)."""
        if self.worker is not None:
            for message in self.worker.poll():
                if isinstance(message, Progress) and message.result.move is not None:
                    state = self.worker_state or self.session.state
                    who = self.computer_name(self.session.game.to_move(state))
                    self.thinking = explain.thinking_text(self.session.game, state, message.result, who,
                                                          self.details)
                    if self.details:  # the engine, its depth and speed: for engine developers only
                        self.thinking += "\n" + self._search_detail(message.result, message.nodes_per_second)
                elif isinstance(message, Finished):
                    self.worker = None
                    if not message.cancelled and self.worker_state == self.session.state:
                        self.pending_move = message.result.move
                        self.pending_since = self.clock
                        self._computer_result = (self.session.state, message.result)
                elif isinstance(message, Failed):
                    self.worker = None
                    self.paused = True
                    self.say(f"The computer failed: {message.error}. Paused; undo or start a new game.",
                             warning=True)
        if self.hint_asking is not None:
            self._poll_hint_analysis(self.hint_asking)
        if self.hint_worker is not None:
            for message in self.hint_worker.poll():
                if isinstance(message, Progress):
                    self.hint_text = "Hint: thinking..."
                elif isinstance(message, Finished):
                    self.hint_worker = None
                    if self.hint_state == self.session.state and message.result.move is not None:
                        self.show_hint(message.result)
                elif isinstance(message, Failed):
                    self.hint_worker = None
                    self.hint_text = f"No hint: {message.error}"

    def _poll_hint_analysis(self, asking: Asking) -> None:
        """The hint's analysis: its progress, then its best move and value as the hint."""
        asking.poll()
        if not asking.done:
            return
        self.hint_asking = None
        result = asking.answer
        if result is None:
            self.hint_text = f"No hint: {asking.error}"
        elif self.hint_state == self.session.state:
            self.show_hint(result)

    def show_hint(self, result: SearchResult) -> None:
        """The hint found: its move marked on the board, its advice in words."""
        self.hint_move = result.move
        advice = explain.hint_text(self.session.game, self.session.state, result, result.info.get("alternatives"),
                                   self.details)  # Details on: the search's depth too
        self.hint_text = "Hint: " + advice
        self.say("Hint: " + advice.replace("\n", " "))

    def judged(self, state: State, result: SearchResult) -> SearchResult:
        """The computer's move as the screen's analyses value it (``ai.analysis.judged``)."""
        return judged(self.session.game, state, result, self.analyses.latest(state))

    def computer_move(self, animating: bool) -> Move | None:
        """On the computer's turn: start its search, and once its move has arrived, the stones have landed
        and the gap has passed, the move to play now (None meanwhile).  The computer starts thinking while
        the last move's stones are still flying: the rules already know the position."""
        session = self.session
        if session.is_over or session.is_human_turn or self.paused or self.replay_index is not None:
            return None
        if self.pending_move is None and self.worker is None:
            self.start_search()
        elif self.pending_move is not None and not animating:
            gap = WATCH_GAP / self.speed if self.watching else REPLY_GAP
            if self.clock - self.pending_since >= gap:
                move, self.pending_move = self.pending_move, None
                if self._computer_result is not None and self._computer_result[1].move == move:
                    state, result = self._computer_result
                    result = self.judged(state, result)
                    who = self.computer_name(session.game.to_move(state))
                    text = explain.reasoning_text(session.game, state, result, who, self.details)
                    self._reasonings = self._reasonings[-2:] + [(len(session.states), text)]
                return move
        return None

    def tick(self, delta_time: float, animating: bool) -> None:
        """A frame passed: the clock moves on, the workers are drained.  While stones fly, the pause before
        the computer's move (or the game-over panel) counts from their landing."""
        self.clock += delta_time
        if animating:
            self.pending_since = self.clock
        self.poll()

    def update(self, delta_time: float, animating: bool) -> Step | None:
        """One frame: what the screen should do now (play the computer's move, animate the replay's next move,
        show the result), or None.  The board counts as showing its target once the stones have landed."""
        self.tick(delta_time, animating)
        if not animating:
            self.board_index = self.board_target
        if self.replay_index is not None:
            step = self.replay_step(delta_time, animating)
            if step is None:
                return None
            index, before, move, after = step
            self.board_target = index + 1
            return ReplayMove(before, move, after)
        if self.session.is_over:
            landed = not animating and self.clock - self.pending_since >= self.game_over_delay
            if landed and not self.result_shown:
                self.result_shown = True
                return ShowResult()
            return None
        move = self.computer_move(animating)
        return None if move is None else PlayMove(move)

    def _show_at_once(self, index: int | None = None) -> None:
        """The board shows ``session.states[index]`` (default: the last) at once: no animation pending."""
        self.board_index = self.board_target = len(self.session.states) - 1 if index is None else index
        self.result_shown = False

    # -- the player's commands ---------------------------------------------------------------------------------
    def play(self, move: Move) -> tuple[State, State]:
        """Play ``move`` for the side to move (IllegalMoveError when it is not legal); returns (before, after)."""
        before, after = self.session.play(move)
        self.after_change()
        self.board_target = len(self.session.states) - 1
        self.result_shown = False
        return before, after

    def after_change(self) -> None:
        """The position changed: searches for the old one are stale, the hint too; the autosave is renewed."""
        if self.autosave is not None:
            session = self.session
            if session.slot is None and session.moves and not session.is_over:
                session.slot = self.autosave.new_slot()  # its own slot: no other game in progress is replaced
            problem = self.autosave.keep(session.saved, session.is_over, session.slot)
            if problem:
                self.say(problem, warning=True)
        self.cancel_search()
        self.hint_move = None
        self.hint_text = ""

    def why_not_now(self) -> str:
        """Why a human cannot play now (the game is over, the computer's turn), or an empty string."""
        session = self.session
        if session.is_over:
            return "The game is over: Undo, New game or Replay."
        if not session.is_human_turn:
            return f"It is the computer's turn ({session.game.player_names[session.to_move]})."
        return ""

    def hint(self) -> bool:
        """Start the hint; False (and a notice) when there can be none now.  The default helper (Settings'
        ``hint_helper: best``) is the analysis of the position for the thinking time: the hint names its best
        move and value, the ones the analysis panel shows (the panel's own analysis when it has this position);
        ``quick`` is the hint engine's ranked search (``game.hint_search``), weaker and quicker."""
        session = self.session
        if session.is_over or not session.is_human_turn:
            self.say("A hint is for a human's turn.")
            return False
        if self.hint_worker is not None or self.hint_asking is not None:
            return False
        if self.hint_helper() == "best":
            self.hint_asking = Asking(self.analyses, session.state, self.think_time(None))
            self.hint_state = session.state
            self.hint_text = "Hint: thinking..."
            return True
        try:
            engine = registry.make_engine(session.game, self.settings.engine_spec(session.game, "hint"))
        except (EngineError, ValueError) as error:
            self.say(f"No hint engine: {error}", warning=True)
            return False
        self.hint_worker = SearchWorker(RankedSearch(engine), session.state, Limits(time=self.think_time(None)))
        self.hint_state = session.state
        self.hint_worker.start()
        self.hint_text = "Hint: thinking..."
        return True

    def hint_helper(self) -> str:
        """Settings' ``hint_helper``: ``best`` (the analysis, also when the settings lack it) or ``quick``."""
        try:
            return str(self.settings.get("hint_helper"))
        except (KeyError, ValueError):
            return "best"

    def undo(self) -> int:
        """Take moves back by the session's rule; the number taken back.  Pauses computers-only play."""
        self.replay_index = None
        self.cancel_search()
        taken = self.session.undo()
        if not taken:
            self.say("Nothing to undo.")
            return 0
        self.after_change()
        self._show_at_once()
        self._reasonings = []
        if self.watching:
            self.paused = True
            self.say("Paused after undo: Resume to let the computers play on.")
        return taken

    def redo(self) -> list[Move]:
        """Replay undone moves by the session's rule (up to the next human turn); the moves replayed."""
        self.replay_index = None
        if not self.session.can_redo():
            self.say("Nothing to redo.")
            return []
        replayed = self.session.redo()
        self.after_change()
        self._show_at_once(len(self.session.states) - 2)  # the board shows the position before the last move
        self.board_target = len(self.session.states) - 1  # which the screen animates
        return replayed

    def new_game(self) -> None:
        """The same game and seats from the start (the same deal where the start is dealt)."""
        self.replay_index = None
        self.cancel_search()
        session = self.session
        self.session = Session.new(session.game, session.seats, session.seed)
        self.save_path = None
        self.after_change()
        self.say("New game.")
        self._show_at_once()
        self._reasonings = []

    def save(self, path: Path) -> bool:
        """Save the game to ``path`` (its folder made as needed); it stays a game in progress.  False, with a
        warning, when it cannot be written."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.session.save(path)
        except (OSError, ValueError) as error:
            self.say(f"Could not save: {error}", warning=True)
            return False
        self.save_path = path  # still unfinished: it stays among the games in progress, offered for Resume
        self.say(f"Saved to {path}")
        return True

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self.say("Paused." if self.paused else "")
        if self.paused and self.worker is not None:
            self.cancel_search()

    def faster(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)

    def slower(self) -> None:
        self.speed_index = max(0, self.speed_index - 1)

    # -- replay -----------------------------------------------------------------------------------------------
    def start_replay(self) -> State:
        """Replay the game from the start; returns the start to show."""
        self.cancel_search()
        self.replay_index = 0
        self.replay_wait = REPLAY_START
        self._show_at_once(0)
        return self.session.states[0]

    def stop_replay(self) -> bool:
        """End a replay early (the board then shows the game's position at once); False when none runs."""
        if self.replay_index is None:
            return False
        self.replay_index = None
        self._show_at_once()
        return True

    def replay_step(self, delta_time: float, animating: bool) -> tuple[int, State, Move, State] | None:
        """The next replayed move as (index, before, move, after) when it is due, else None; when the last
        move has been replayed the replay ends (``replay_index`` None again)."""
        if self.replay_index is None or animating:
            return None
        self.replay_wait -= delta_time
        if self.replay_wait > 0:
            return None
        index = self.replay_index
        session = self.session
        if index >= len(session.moves):
            self.replay_index = None
            self.result_shown = False  # the result panel comes back
            return None
        self.replay_index = index + 1
        self.replay_wait = WATCH_GAP / self.speed
        return index, session.states[index], session.moves[index], session.states[index + 1]

    # -- the end ----------------------------------------------------------------------------------------------
    def record_game_over(self) -> None:
        """Count the finished game in the statistics (once per session, however often the end is shown)."""
        if self.statistics is not None:
            problems = " ".join(self.statistics.record_match(self.session))
            if problems:
                self.say(problems, warning=True)
