"""What every two-player game screen shares: the match, the computer, the panels, the controls, replay.

``MatchView`` is the screen less its board: a subclass (``SowingView`` for the pit-and-seed games, ``CaveView``
for Magnetic Cave) builds the scene and says how a move maps to a place on it (``move_location``), how a
position is shown at once or a move animated, what the scores are and why a click cannot play.  A scene offers
``set_rect``, ``update``, ``finish``, ``is_animating``, ``speed``, ``announce``, ``on_sound``, ``location_at`` and
``draw(highlights, outlines)``, with places ("locations") it can highlight.

The match (``game.session``) is the truth; the scene animates the difference between the position shown and
the new one.  The computer thinks in ``ai.worker.SearchWorker`` threads, drained once a frame in
``on_update``; leaving the screen, undo, redo, new game or load cancel a search at once, and a result that
arrives for a position no longer on the board is dropped.  The window never waits on a thread.

Input: a click on a legal place (or Left/Right then Enter; subclasses add keys) plays it.  A click or key
during an animation first finishes the animation at once, then acts, so no input is lost.  Keys: H hint,
U or Ctrl+Z undo, R or Ctrl+Y redo, Ctrl+S save, N new game, P pause (computer vs computer), +/- speed,
Tab the move list, Space finish the animation, F1 the game's rules, Escape back to the title screen.
"""
from __future__ import annotations

from pathlib import Path

import arcade
import arcade.gui

from ai import registry
from ai.base import EngineError, Limits
from ai.worker import Failed, Finished, Progress, SearchWorker
from game import savegame, theme
from game.context import AppContext
from game.session import Session
from rules import Move, State
from game.views.frugal_ui import FrugalUIManager
from game.views.panels import BOTTOM_BAR, SIDE_PANEL, TOP_BAR, ScreenChrome

Location = int
"""A place on the scene that can be clicked and highlighted (a pit, a store, a cell)."""
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
WATCH_GAP = 0.6
"""Seconds between two computer moves when only computers play (at speed 1)."""
HINT_COLOUR = (140, 230, 140, 255)
class MatchView(ScreenChrome, arcade.gui.UIView):
    """Play one match of a two-player game (subclasses supply the board)."""

    MOVE_NOUN = "move"
    """How the hint names a move ("pit", "cell")."""
    MOVE_TIME_LIMIT: float | None = None
    """The game's own limit on the computer's time per move, in seconds (Magnetic Cave: 3), or None."""
    GAME_OVER_DELAY = 0.0
    """Seconds between the last move landing and the game-over panel (time to see the winning line)."""
    GAME_OVER_AT_TOP = False
    """Show the game-over panel at the top of the board rather than over its middle."""

    def __init__(self, context: AppContext, match: Session, save_path: Path | None = None) -> None:
        super().__init__()
        self._init_chrome()  # bars, toasts, notice, overlay (game.views.panels.ScreenChrome)
        self.ui = FrugalUIManager()  # the bottom bar, laid out and rendered only when it changes
        self.context = context
        self.match = match
        self.save_path = save_path
        self.background_color = theme.TABLE
        self.scene = self.make_scene()
        self.scene.announce = self.toast
        self.scene.on_sound = self._sound
        self.worker: SearchWorker | None = None
        self.worker_state = None
        self.pending_move = None
        self.pending_since = 0.0
        """When the computer's move became playable: its result arrived or the last stones landed."""
        self.hint_worker: SearchWorker | None = None
        self.hint_state = None
        self.hint_location: Location | None = None
        self.hint_text = ""
        self.thinking = ""
        self.paused = False
        self.speed_index = 1
        self.mouse = (0.0, 0.0)
        self.cursor = -1
        """Keyboard selection among the legal places; -1 until the arrow keys are used."""
        self.last_text = ""
        self.last_location: Location | None = None
        self.replay_index: int | None = None
        self.replay_wait = 0.0
        self.game_over_shown = False
        self._move_list_key: tuple | None = None
        self._move_list: list[str] = []
        self.clock = 0.0
        self.show_panel = bool(context.settings.get("show_panel"))
        self._buttons: dict[str, arcade.gui.UIFlatButton] = {}
        self._apply_speed()
        self._layout(context.window.width, context.window.height)
        self.show_state(match.state)
        if match.moves:
            self._describe_last()
        if match.is_over:  # a saved game opened already over was counted when it ended
            context.statistics.mark_recorded(match)

    # -- what a subclass supplies -----------------------------------------------------------------------------
    def make_scene(self):  # type: ignore[no-untyped-def]
        """The scene that draws this game's board."""
        raise NotImplementedError

    def show_state(self, state: State) -> None:
        """Show ``state`` at once (a new game, a load, an undo)."""
        raise NotImplementedError

    def animate_move(self, before: State, move: Move, after: State) -> None:
        """Animate ``move`` from ``before`` to ``after`` (the rules' truth)."""
        raise NotImplementedError

    def move_location(self, before: State, move: Move) -> Location:
        """The place that stands for ``move`` played in ``before`` (highlighted, clicked)."""
        raise NotImplementedError

    def refuse(self, location: Location) -> None:
        """Say why a click on ``location`` cannot play (it is not among the legal places)."""
        moves = ", ".join(self.match.game.format_move(self.match.state, m) for m in self.match.legal_moves)
        self.say(f"That cannot be played (legal: {moves}).", warning=True)

    def scores_text(self) -> str:
        """The scores for the top bar."""
        return ""

    def extra_key(self, symbol: int, modifiers: int) -> bool:
        """A key the game adds (sowing: digits for pits); True when handled."""
        return False

    # -- geometry and widgets ---------------------------------------------------------------------------------
    @property
    def watching(self) -> bool:
        return not self.match.has_human

    def _layout(self, width: int, height: int) -> None:
        panel = SIDE_PANEL if self.show_panel else 0
        self.top_bar.left, self.top_bar.bottom, self.top_bar.width, self.top_bar.height = 0, height - TOP_BAR, width, TOP_BAR
        self.side_panel.left, self.side_panel.bottom = width - SIDE_PANEL, BOTTOM_BAR
        self.side_panel.width, self.side_panel.height = SIDE_PANEL, max(10, height - TOP_BAR - BOTTOM_BAR)
        self.side_panel.enabled = self.show_panel
        margin = 24
        self.scene.set_rect(margin, BOTTOM_BAR + 40, max(100, width - panel - 2 * margin),
                            max(100, height - TOP_BAR - BOTTOM_BAR - 90))
        self._build_buttons(width)
        if self._overlay is not None:
            self._overlay = None
            self.game_over_shown = False

    def _build_buttons(self, width: int) -> None:
        self.ui.clear()
        self._buttons.clear()
        bar = arcade.gui.UIBoxLayout(vertical=False, space_between=10)
        names = ["Hint", "Undo", "Redo", "Save", "New game", "Menu"]
        if self.watching:
            names = ["Pause", "Speed"] + names[1:]
        else:
            names = names[:5] + ["Speed", "Menu"]
        actions = {"Hint": self.hint, "Undo": self.undo, "Redo": self.redo, "Save": self.save,
                   "New game": self.new_game, "Menu": self.leave, "Pause": self.toggle_pause,
                   "Speed": self.faster}
        button_width = min(150, (width - 40) / len(names) - 10)
        for name in names:
            widget = theme.button(self._button_text(name), width=button_width, height=48, font_size=13)
            widget.event("on_click")(lambda event, action=actions[name], w=widget: None if w.disabled else action())
            self._buttons[name] = widget
            bar.add(widget)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(bar, anchor_x="center", anchor_y="bottom", align_y=14)
        self.ui.add(anchor)

    def _button_text(self, name: str) -> str:
        if name == "Speed":
            return f"Speed x{SPEEDS[self.speed_index]:g}"
        if name == "Pause":
            return "Resume" if self.paused else "Pause"
        return name

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._layout(width, height)

    def on_show_view(self) -> None:
        # Sections first, then the UI on top of them, so button clicks reach the UI before the board.
        self.section_manager.enable()
        super().on_show_view()
        self._layout(self.window.width, self.window.height)

    def on_hide_view(self) -> None:
        self.cancel_search()
        super().on_hide_view()
        self.section_manager.disable()

    # -- the computer -----------------------------------------------------------------------------------------
    def cancel_search(self) -> None:
        """Stop any search at once (the thread finishes on its own; its result is ignored)."""
        for worker in (self.worker, self.hint_worker):
            if worker is not None:
                worker.cancel()
        self.worker = self.hint_worker = None
        self.worker_state = self.hint_state = None
        self.pending_move = None
        self.thinking = ""

    def _start_search(self) -> None:
        seat = self.match.seat(self.match.to_move)
        try:
            engine = registry.make_engine(self.match.game, seat.engine or "random")
        except EngineError as error:
            self.say(f"The computer cannot play: {error}", warning=True)
            self.paused = True
            return
        limits = Limits(time=self.think_time(seat.time))
        self.worker = SearchWorker(engine, self.match.state, limits)
        self.worker_state = self.match.state
        self.worker.start()
        name = self.match.game.player_names[self.match.to_move]
        self.thinking = f"{name} ({engine!r}) is thinking..."

    def think_time(self, seat_time: float | None) -> float:
        """Seconds the computer may think: the seat's time or the Settings', within the game's own limit
        (less a margin for the thread to start and the move to arrive)."""
        seconds = seat_time or float(self.context.settings.get("think_time"))
        if self.MOVE_TIME_LIMIT is not None:
            seconds = min(seconds, self.MOVE_TIME_LIMIT - 0.15)
        return seconds

    def _poll_workers(self) -> None:
        if self.worker is not None:
            for message in self.worker.poll():
                if isinstance(message, Progress):
                    self.thinking = self._describe_search(message.result, message.nodes_per_second)
                elif isinstance(message, Finished):
                    self.worker = None
                    if not message.cancelled and self.worker_state == self.match.state:
                        self.pending_move = message.result.move
                        self.pending_since = self.clock
                        self.thinking = self._describe_search(message.result, message.result.nodes_per_second,
                                                              final=True)
                elif isinstance(message, Failed):
                    self.worker = None
                    self.paused = True
                    self.say(f"The computer failed: {message.error}. Paused; undo or start a new game.",
                             warning=True)
        if self.hint_worker is not None:
            for message in self.hint_worker.poll():
                if isinstance(message, Progress):
                    self.hint_text = "Hint: thinking... " + self._describe_search(message.result, message.nodes_per_second)
                elif isinstance(message, Finished):
                    self.hint_worker = None
                    if self.hint_state == self.match.state and message.result.move is not None:
                        result = message.result
                        self.hint_location = self.move_location(self.match.state, result.move)
                        move_text = self.match.game.format_move(self.match.state, result.move)
                        self.hint_text = (f"Hint: {self.MOVE_NOUN} {move_text} (depth {result.depth}, score {result.score:+g}, "
                                          f"{result.nodes:,} nodes)")
                elif isinstance(message, Failed):
                    self.hint_worker = None
                    self.hint_text = f"No hint: {message.error}"

    def _describe_search(self, result, speed: float, final: bool = False) -> str:  # type: ignore[no-untyped-def]
        state = self.worker_state if self.worker_state is not None else self.match.state
        best = "-" if result.move is None else self.match.game.format_move(state, result.move)
        verb = "chose" if final else "best so far"
        core = result.info.get("core")  # which search core ran: compiled, or the pure-Python fallback
        where = "" if core is None else f" ({'compiled' if core == 'compiled' else 'Python'} core)"
        return (f"depth {result.depth}, {verb} {best}, score {result.score:+g}\n"
                f"{result.nodes:,} nodes, {speed / 1000:,.0f}k nodes/s{where}")

    # -- playing ----------------------------------------------------------------------------------------------
    def play(self, move) -> None:  # type: ignore[no-untyped-def]
        """Play ``move`` for the side to move and animate it."""
        game = self.match.game
        before_text = game.describe_move(self.match.state, move)
        before, after = self.match.play(move)
        self._after_change()
        self.last_text = before_text
        self.last_location = self.move_location(before, move)
        self.animate_move(before, move, after)

    def _after_change(self) -> None:
        """The position changed: searches for the old one are stale, the hint too; the autosave is renewed."""
        problem = self.context.autosave.keep(self.match.saved, self.match.is_over)
        if problem:
            self.say(problem, warning=True)
        self.cancel_search()
        self.hint_location = None
        self.hint_text = ""
        self.game_over_shown = False
        self._hide_overlay()

    def _describe_last(self) -> None:
        if self.match.moves:
            before = self.match.states[-2]
            move = self.match.moves[-1]
            self.last_text = self.match.game.describe_move(before, move)
            self.last_location = self.move_location(before, move)
        else:
            self.last_text = ""
            self.last_location = None

    def legal_locations(self) -> dict[Location, object]:
        if self.match.is_over or self.replay_index is not None:
            return {}
        state = self.match.state
        return {self.move_location(state, move): move for move in self.match.legal_moves}

    def click_location(self, location: Location | None) -> None:
        """A click on the board (already past any animation)."""
        if location is None or self.replay_index is not None:
            return
        if self.match.is_over:
            self.say("The game is over: Undo, New game or Replay.")
            return
        if not self.match.is_human_turn:
            self.say(f"It is the computer's turn ({self.match.game.player_names[self.match.to_move]}).")
            return
        legal = self.legal_locations()
        if location in legal:
            self.say("")
            self.play(legal[location])
        else:
            self.refuse(location)

    # -- commands ---------------------------------------------------------------------------------------------
    def hint(self) -> None:
        if self.match.is_over or not self.match.is_human_turn:
            self.say("A hint is for a human's turn.")
            return
        if self.hint_worker is not None:
            return
        try:
            engine = registry.make_engine(self.match.game, self.context.settings.engine_spec(self.match.game, "hint"))
        except (EngineError, ValueError) as error:
            self.say(f"No hint engine: {error}", warning=True)
            return
        self.hint_worker = SearchWorker(engine, self.match.state, Limits(time=self.think_time(None)))
        self.hint_state = self.match.state
        self.hint_worker.start()
        self.hint_text = f"Hint: {engine!r} is thinking..."

    def undo(self) -> None:
        self.scene.finish()
        self.stop_replay()
        self.cancel_search()
        if not self.match.undo():
            self.say("Nothing to undo.")
            return
        self._after_change()
        self._describe_last()
        self.show_state(self.match.state)
        if self.watching:
            self.paused = True
            self.say("Paused after undo: Resume to let the computers play on.")

    def redo(self) -> None:
        self.scene.finish()
        self.stop_replay()
        if not self.match.can_redo():
            self.say("Nothing to redo.")
            return
        replayed = self.match.redo()  # up to the next human turn: the mirror of undo
        if len(replayed) > 1:
            self.show_state(self.match.states[-2])
        before, move, after = self.match.states[-2], replayed[-1], self.match.states[-1]
        self._after_change()
        self.last_text = self.match.game.describe_move(before, move)
        self.last_location = self.move_location(before, move)
        self.animate_move(before, move, after)

    def new_game(self) -> None:
        self.scene.finish()
        self.stop_replay()
        self.cancel_search()
        self.match = Session.new(self.match.game, self.match.seats, self.match.seed)
        self.save_path = None
        self._after_change()
        self._describe_last()
        self.show_state(self.match.state)
        self.say("New game.")

    def save(self) -> None:
        folder = self.context.save_dir
        assert folder is not None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            from game.views.load_view import new_save_path

            path = self.save_path or new_save_path(folder, self.match.game.name)
            savegame.save(path, self.match.saved)
        except (OSError, ValueError) as error:
            self.say(f"Could not save: {error}", warning=True)
            return
        self.save_path = path
        self.context.autosave.clear()  # saved by the player: nothing left to restore
        self.say(f"Saved to {path}")

    def leave(self) -> None:
        self.cancel_search()
        self.context.show_title()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        if self.paused and self.worker is not None:
            self.cancel_search()
        self.say("Paused." if self.paused else "")
        if "Pause" in self._buttons:
            self._buttons["Pause"].text = self._button_text("Pause")

    def faster(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)
        self._apply_speed()

    def slower(self) -> None:
        self.speed_index = max(0, self.speed_index - 1)
        self._apply_speed()

    def _apply_speed(self) -> None:
        self.scene.speed = float(self.context.settings.get("animation_speed")) * SPEEDS[self.speed_index]
        if "Speed" in self._buttons:
            self._buttons["Speed"].text = self._button_text("Speed")

    def toggle_panel(self) -> None:
        self.show_panel = not self.show_panel
        self._layout(self.window.width, self.window.height)
        self.show_state(self.match.state)

    # -- replay -----------------------------------------------------------------------------------------------
    def replay(self) -> None:
        """Replay the game from the start, move by move (any button or Escape stops it)."""
        self.cancel_search()
        self._hide_overlay()
        self.replay_index = 0
        self.replay_wait = 0.4
        self.last_text, self.last_location = "Replay: the start", None
        self.show_state(self.match.states[0])

    def stop_replay(self) -> None:
        if self.replay_index is not None:
            self.replay_index = None
            self.show_state(self.match.state)
            self._describe_last()

    def _step_replay(self, dt: float) -> None:
        assert self.replay_index is not None
        if self.scene.is_animating:
            return
        self.replay_wait -= dt
        if self.replay_wait > 0:
            return
        index = self.replay_index
        if index >= len(self.match.moves):
            self.replay_index = None
            self._describe_last()
            self.game_over_shown = False
            return
        before, move, after = self.match.states[index], self.match.moves[index], self.match.states[index + 1]
        self.last_text = f"Replay {index + 1}/{len(self.match.moves)}: " + self.match.game.describe_move(before, move)
        self.last_location = self.move_location(before, move)
        self.animate_move(before, move, after)
        self.replay_index = index + 1
        self.replay_wait = WATCH_GAP / SPEEDS[self.speed_index]

    # -- game over --------------------------------------------------------------------------------------------
    def _show_game_over(self) -> None:
        outcome = self.match.outcome
        assert outcome is not None
        names = self.match.game.player_names
        scores = " - ".join(str(score) for score in outcome.scores)
        if outcome.winner is None:
            headline = f"Draw, {scores}"
        else:
            headline = f"{names[outcome.winner]} wins, {scores}"
        box = arcade.gui.UIBoxLayout(space_between=12)
        box.add(theme.label(headline, 30, theme.ACCENTS[outcome.winner or 0] if outcome.winner is not None else theme.TEXT,
                            title=True))
        box.add(theme.label(f"The game ended because {outcome.reason.value}; {len(self.match.moves)} moves.",
                            14, theme.TEXT_DIM))
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=12)
        for text, action in (("Replay", self.replay), ("New game", self.new_game), ("Undo", self.undo),
                             ("Menu", self.leave)):
            widget = theme.button(text, width=150, height=48, font_size=14)
            widget.event("on_click")(lambda event, action=action: action())
            row.add(widget)
        box.add(row)
        frame = arcade.gui.UIBoxLayout()
        frame.add(box.with_padding(all=24))
        frame.with_background(color=theme.PANEL).with_border(color=theme.ACCENTS[0], width=2)
        anchor = arcade.gui.UIAnchorLayout()
        align_x = -(SIDE_PANEL / 2 if self.show_panel else 0)
        if self.GAME_OVER_AT_TOP:
            anchor.add(frame, anchor_x="center", anchor_y="top", align_x=align_x, align_y=-(TOP_BAR + 6))
        else:
            anchor.add(frame, anchor_x="center", anchor_y="center", align_x=align_x)
        self._overlay = self.ui.add(anchor, layer=1)
        self.game_over_shown = True
        self._sound("end")
        problem = self.context.record_game(self.match)  # counted once per match, however often shown
        if problem:
            self.say(problem, warning=True)


    # -- frame ------------------------------------------------------------------------------------------------
    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time
        self.scene.update(delta_time)
        if self.scene.is_animating:
            self.pending_since = self.clock  # the pause before the computer's move counts from the landing
        self._expire_toasts()
        self._poll_workers()
        if self.replay_index is not None:
            self._step_replay(delta_time)
            return
        if self.match.is_over:
            landed = not self.scene.is_animating and self.clock - self.pending_since >= self.GAME_OVER_DELAY
            if not self.game_over_shown and landed:
                self._show_game_over()
            return
        if self.match.is_human_turn or self.paused:
            return
        # The computer starts thinking while the last move's stones are still flying (the rules already know
        # the position); its move is played once they have landed.
        if self.pending_move is None and self.worker is None:
            self._start_search()
        elif self.pending_move is not None and not self.scene.is_animating:
            gap = WATCH_GAP / SPEEDS[self.speed_index] if self.watching else 0.15
            if self.clock - self.pending_since >= gap:
                move, self.pending_move = self.pending_move, None
                self.play(move)

    def _refresh_panels(self) -> None:
        game, match = self.match.game, self.match
        names = game.player_names
        if match.is_over:
            turn, colour = "Game over", theme.TEXT
        else:
            who = "computer" if not match.seat(match.to_move).is_human else "you" if sum(
                s.is_human for s in match.seats) == 1 else "human"
            turn, colour = f"{names[match.to_move]} to move ({who})", theme.ACCENTS[match.to_move]
        if self.replay_index is not None:
            turn, colour = "Replay", theme.TEXT
        scores = self.scores_text()
        defaults = {param.name: param.default for param in game.params}
        changed = [f"{key} {value}" for key, value in game.parameters.items() if defaults.get(key) != value]
        params = ", ".join(changed) if changed else "standard rules"
        self.top_bar.show(game.title, params, turn, colour, scores, self.last_text or "No move yet")
        if self.show_panel:
            key = (id(match), len(match.moves), match.moves[-1] if match.moves else None)
            if key != self._move_list_key:  # formatting every move each frame would grow with the game
                self._move_list_key, self._move_list = key, match.move_list()
            self.side_panel.show(self._move_list, self.thinking, self.hint_text)
        for name, enabled in (("Undo", match.can_undo()), ("Redo", match.can_redo()),
                              ("Hint", match.is_human_turn)):
            widget = self._buttons.get(name)
            if widget is not None and widget.disabled == enabled:
                widget.disabled = not enabled

    def on_draw(self) -> None:
        self._refresh_panels()
        super().on_draw()

    def on_draw_before_ui(self) -> None:
        highlights: dict[Location, tuple[int, int, int, int]] = {}
        outlines: dict[Location, tuple[int, int, int, int]] = {}
        if self.last_location is not None:
            outlines[self.last_location] = theme.LAST_MOVE
        if self.match.is_human_turn and self._overlay is None:
            legal = self.legal_locations()
            hovered = self.scene.location_at(*self.mouse)
            accent = theme.ACCENTS[self.match.to_move]
            if hovered in legal:
                highlights[hovered] = accent
            keyboard = self._cursor_location()
            if keyboard is not None and keyboard not in highlights:
                highlights[keyboard] = accent[:3] + (150,)
        if self.hint_location is not None:
            highlights[self.hint_location] = HINT_COLOUR
        self.scene.draw(highlights, outlines)
        width = self.window.width - (SIDE_PANEL if self.show_panel else 0)
        if self.toasts:
            self._toast_text.text = self.toasts[-1][0]
            self._toast_text.position = width / 2, self.window.height - TOP_BAR - 30
            self._toast_text.draw()
        if self.notice:
            self._notice_text.text = self.notice
            self._notice_text.color = theme.WARNING if self.notice_warning else theme.TEXT_DIM
            self._notice_text.position = width / 2, BOTTOM_BAR + 18
            self._notice_text.draw()

    # -- sound ------------------------------------------------------------------------------------------------
    def _sound(self, name: str) -> None:
        self.context.sounds.play(name)

    # -- input ------------------------------------------------------------------------------------------------
    def _cursor_location(self) -> Location | None:
        legal = list(self.legal_locations())
        if not legal or self.cursor < 0:
            return None
        return sorted(legal)[self.cursor % len(legal)]

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.mouse = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.mouse = (x, y)
        if self._overlay is not None:
            return None
        location = self.scene.location_at(x, y)
        if self.scene.is_animating:
            self.scene.finish()
            if location is None:
                return True
        self.click_location(location)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        key = arcade.key
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if symbol == key.F11:
            self.toggle_fullscreen()
            return True
        if self.scene.is_animating and symbol not in (key.ESCAPE,):
            self.scene.finish()
            if symbol == key.SPACE:
                return True
        if symbol == key.ESCAPE:
            if self.replay_index is not None:
                self.stop_replay()
            else:
                self.leave()
        elif symbol in (key.Z, key.U) and (ctrl or symbol == key.U):
            self.undo()
        elif symbol in (key.Y, key.R) and (ctrl or symbol == key.R):
            self.redo()
        elif symbol == key.S and ctrl:
            self.save()
        elif symbol == key.H:
            self.hint()
        elif symbol == key.F1:
            self.cancel_search()
            self.context.show_rules(self.match.game.name, back=self)
        elif symbol == key.N:
            self.new_game()
        elif symbol == key.P:
            self.toggle_pause()
        elif symbol in (key.PLUS, key.EQUAL, key.NUM_ADD):
            self.faster()
        elif symbol in (key.MINUS, key.NUM_SUBTRACT):
            self.slower()
        elif symbol == key.TAB:
            self.toggle_panel()
        elif symbol in (key.LEFT, key.RIGHT):
            count = max(1, len(self.legal_locations()))
            self.cursor = 0 if self.cursor < 0 else (self.cursor + (1 if symbol == key.RIGHT else -1)) % count
        elif symbol in (key.ENTER, key.RETURN, key.SPACE):
            location = self._cursor_location()
            if location is not None:
                self.click_location(location)
        elif not self.extra_key(symbol, modifiers):
            return None
        return True
