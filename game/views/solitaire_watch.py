"""The puzzle screen's computer: a hint for the player's round, and watching the computer solve the deal.

A mixin of ``SolitaireView`` (it uses the view's session, scene and messages).  Every search runs in a separate
process (``ai.search_process.ProcessWorker``): even A* or BFS over millions of states, whose table resizes
hold the interpreter lock for seconds, never stalls a frame.  A warm process is kept ready while the screen
is shown, so a hint or a watch starts at once; stop, undo, restart, load and leaving kill the process, and a
result for a position no longer on the board is dropped.  A process that dies is reported on the screen.

Watching: the engine searches from the position; a whole line (a goal, or proven best) is played round by
round at the chosen speed, otherwise its next round, then it searches again.  While it searches, the panel
shows its progress (states explored, best so far, proven or not).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ai.base import EngineError, Limits, SearchResult
from ai.search_process import ProcessLauncher, ProcessWorker
from ai.worker import Failed, Finished, Progress
from game.puzzle_search import check_engine, engine_title
from rules.solitaire import Round

if TYPE_CHECKING:
    from game.puzzle_session import PuzzleSession

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
ROUND_GAP = 0.5
"""Seconds between two rounds the computer plays while watched (at speed 1)."""


class PuzzleSearches:
    """Hint and watch for the puzzle screen (mixed into ``SolitaireView``)."""

    session: PuzzleSession
    launcher: ProcessLauncher | None = None
    hint_worker: ProcessWorker | None = None
    watch_worker: ProcessWorker | None = None
    plan: list[Round]

    def open_searches(self) -> None:
        """The screen is shown: keep a warm search process ready."""
        if self.launcher is None or self.launcher.closed:
            self.launcher = ProcessLauncher()

    def close_searches(self) -> None:
        """The screen is hidden: stop every search and end the warm process."""
        self.cancel_search()
        if self.launcher is not None:
            self.launcher.close()
            self.launcher = None

    def refill_searches(self) -> None:
        """Once a frame: while no search runs, make sure a warm process waits for the next one."""
        if self.launcher is not None and not self.launcher.has_spare:
            if not any(worker is not None and worker.running for worker in (self.hint_worker, self.watch_worker)):
                self.launcher.refill()

    def cancel_search(self) -> None:
        """Stop every search at once (its process is killed; nothing it sent afterwards is used)."""
        for worker in (self.hint_worker, self.watch_worker):
            if worker is not None:
                worker.cancel()
        self.hint_worker = self.watch_worker = None
        self.hint_state = self.watch_state = None

    def _worker(self, spec: str) -> ProcessWorker | None:
        """Start ``spec`` on the current position in a search process (None, with a message, if it cannot)."""
        try:
            check_engine(self.game, spec)  # here, so a bad choice is reported at once
        except (EngineError, ValueError) as error:
            self.say(f"No engine: {error}", warning=True)
            return None
        self.open_searches()
        # No time given: the engine's own budget (its time parameter in Settings) applies.
        worker = ProcessWorker(self.game, spec, self.session.state, Limits(), live=True, launcher=self.launcher)
        worker.start()
        return worker

    def hint(self) -> None:
        if self.watching or self.session.is_over:
            self.say("A hint is for your own round.")
            return
        if self.hint_worker is not None:
            return
        self.scene.finish()
        self.hint_worker = self._worker(self.hint_spec)
        self.hint_state = self.session.state
        if self.hint_worker is not None:
            self.hint_text = f"Hint: {self.hint_spec} is thinking..."

    def toggle_watch(self) -> None:
        if self.watching:
            self.stop_watch()
            self.say("Stopped: your turn.")
        else:
            self.start_watch()

    def start_watch(self) -> None:
        if self.session.is_over:
            self.say("The game is over: Undo or Restart first.")
            return
        self.scene.finish()
        if self.hint_worker is not None:
            self.hint_worker.cancel()
            self.hint_worker = None
        self.hint_move, self.hint_text = None, ""
        self.chosen = self.asking = None
        self.watching, self.paused = True, False
        self.plan, self.plan_complete = [], False
        self.say(f"Watching {engine_title(self.watch_spec)} solve the deal from here.")

    def stop_watch(self) -> None:
        if self.watch_worker is not None:
            self.watch_worker.cancel()
        self.watch_worker = self.watch_state = None
        self.watching = self.paused = False
        self.plan, self.plan_complete = [], False

    def toggle_pause(self) -> None:
        if not self.watching:
            return
        self.paused = not self.paused
        self.say("Paused: Resume (P) to go on, Stop (W) to take over." if self.paused else "")

    def faster(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)
        self._apply_speed()

    def slower(self) -> None:
        self.speed_index = max(0, self.speed_index - 1)
        self._apply_speed()

    def _apply_speed(self) -> None:
        self.scene.speed = float(self.context.settings.get("animation_speed")) * SPEEDS[self.speed_index]

    def _describe_live(self, result: SearchResult) -> str:
        info = result.info
        return (f"{info.get('visited', result.nodes):,} states explored\nbest so far: {info.get('best', 0)} stored "
                f"(of {info.get('target', '?')} possible)\nnot proven yet")

    def _describe_final(self, result: SearchResult, spec: str) -> str:
        reason = result.info.get("reason", "")
        if result.exhaustive or result.info.get("solved"):
            return (f"{spec}: {reason}\n{result.nodes:,} states in {result.time:.2f} s, {int(result.score)} stored, "
                    "proven")
        return (f"{spec}: {reason}\ngave up after {result.nodes:,} states in {result.time:.1f} s (its budget): "
                f"best found {int(result.score)} stored, not proven")

    def _poll_workers(self) -> None:
        if self.hint_worker is not None:
            for message in self.hint_worker.poll():
                if isinstance(message, Progress) and message.result.info.get("live"):
                    self.hint_text = "Hint: thinking...\n" + self._describe_live(message.result)
                elif isinstance(message, Finished):
                    self.hint_worker = None
                    result = message.result
                    if message.cancelled or self.hint_state != self.session.state or result.move is None:
                        continue
                    self._note(result)
                    self.hint_move = result.move
                    move = self.game.format_move(self.session.state, result.move)
                    self.hint_text = f"Hint: {move}, {result.info.get('reason', '')}"
                    self.say(self.hint_text)
                elif isinstance(message, Failed):
                    self.hint_worker = None
                    self.hint_text = f"No hint: {message.error}"
                    self.say(self.hint_text, warning=True)
        if self.watch_worker is not None:
            for message in self.watch_worker.poll():
                if isinstance(message, Progress) and message.result.info.get("live"):
                    self.search_text = self._describe_live(message.result)
                elif isinstance(message, Finished):
                    self.watch_worker = None
                    result = message.result
                    if message.cancelled or self.watch_state != self.session.state or not self.watching:
                        continue
                    self._note(result)
                    self.search_text = self._describe_final(result, self.watch_spec)
                    complete = bool(result.info.get("solved") or result.exhaustive) and bool(result.pv)
                    self.plan = list(result.pv) if complete else ([result.move] if result.move else [])
                    self.plan_complete = complete
                    self.watch_line = (self.session.state, tuple(self.plan))
                elif isinstance(message, Failed):
                    self.watch_worker = None
                    self.stop_watch()
                    self.say(f"The engine failed: {message.error}", warning=True)

    def _note(self, result: SearchResult) -> None:
        """An exhaustive search that reached no goal proves the most this position allows."""
        if result.exhaustive and not result.info.get("solved") and result.info.get("target") is not None:
            self.session.note_proof(int(result.score))

    def _step_watch(self) -> None:
        if self.paused or self.watch_worker is not None or self.scene.is_animating:
            return
        if self.plan:
            if self.clock - self.last_round_at >= ROUND_GAP / SPEEDS[self.speed_index]:
                self.play(self.plan.pop(0), by_computer=True)
            return
        if self.session.is_over:
            self.stop_watch()
            return
        if self.plan_complete:
            # The engine's whole line is played and the game goes on: it proved nothing more can be stored.
            self.stop_watch()
            if not self.game.is_lewis:
                self.session.end_here()
            self.say("The computer's line is complete: no more stones can be stored from here (proven).")
            return
        self.watch_worker = self._worker(self.watch_spec)
        self.watch_state = self.session.state
        if self.watch_worker is None:
            self.stop_watch()
        else:
            self.search_text = f"{self.watch_spec}: searching..."

