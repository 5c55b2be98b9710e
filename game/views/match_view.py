"""What every two-player game screen shares: input and drawing over ``game.controller.MatchController``.

A subclass (``SowingView``, ``CaveView``) builds the scene (a ``game.scenes.contract.MatchScene``) and says how a
move maps to a place on it, how a position is shown or a move animated, and why a click cannot play.  All that
is not input or drawing (session, searches, hint, replay, the texts) is the controller, asked each frame what to
do (``update`` returns a step).  A click or key during an animation first finishes it, then acts.  Keys: H hint,
U/Ctrl+Z undo, R/Ctrl+Y redo, Ctrl+S save, N new game, P pause, +/- speed, A analysis panel
(``game.views.analysis_panel``, in the move list's place), Space finish the animation, Left/Right and Enter choose
a move, Shift+Left/Right step through the game's positions (a paused replay, ``replay_at``, as a click on the
panel's graph), F1 rules, Escape leaves (or ends a replay), M the move list.  Tab and Shift+Tab move a focus ring
over the board (one stop, where the arrows and Enter play as always) and the buttons, which Enter presses
(``game.views.focus``, the menus' own mechanism).
"""
from __future__ import annotations

from pathlib import Path

import math

import arcade
import arcade.gui

from game import catalogue, theme
from game.context import AppContext
from game.controller import SPEEDS, MatchController, PlayMove, ReplayMove, ShowResult
from game.scenes.contract import Location, MatchScene
from game.session import Session
from game.views.analysis_panel import AnalysisPanel, panel_width
from game.views.focus import FocusRing, board_bounds
from game.views.frugal_ui import FrugalUIManager
from game.views.widgets import fit_font
from game.views.match_panels import board_marks, button_bar, end_panel, show_controller
from game.views.panels import ScreenChrome
from rules import Move, State

__all__ = ["MatchView", "SPEEDS", "Location"]

_K = arcade.key
KEYS = {_K.U: "undo", _K.R: "redo", _K.H: "hint", _K.F1: "show_rules", _K.N: "new_game", _K.P: "toggle_pause",
        _K.PLUS: "faster", _K.EQUAL: "faster", _K.NUM_ADD: "faster", _K.MINUS: "slower", _K.NUM_SUBTRACT: "slower",
        _K.M: "toggle_panel", _K.A: "toggle_analysis", _K.F3: "toggle_details"}
CTRL_KEYS = {_K.Z: "undo", _K.Y: "redo", _K.S: "save"}
"""The commands of plain keys and of Ctrl (or Command) with a key: methods of the view, else of the controller."""


class MatchView(FocusRing, ScreenChrome, arcade.gui.UIView):
    """Play one match of a two-player game (subclasses supply the board)."""

    SCALES_CHROME = True  # the panel, the bottom bar and the messages grow with the window (ScreenChrome)
    GAME_OVER_DELAY = 0.0  # seconds between the last move landing and the result (to see the winning line)
    GAME_OVER_AT_TOP = False  # the result panel at the top of the board rather than over its middle

    def __init__(self, context: AppContext, match: Session, save_path: Path | None = None) -> None:
        super().__init__()
        self._init_chrome()  # bars, toasts, notice, overlay (game.views.panels.ScreenChrome)
        self.ui = FrugalUIManager()  # the bottom bar, laid out and rendered only when it changes
        self.context = context
        self.controller = MatchController(match, context.settings, context.autosave, context.statistics,
                                          catalogue.registration(match.game).time_limit, self.GAME_OVER_DELAY)
        self.controller.save_path = save_path
        self.background_color = theme.TABLE
        self.scene: MatchScene = self.make_scene()
        self.scene.announce = self.toast
        self.scene.on_sound = context.sounds.play
        self.mouse = (0.0, 0.0)
        self.cursor = -1
        """Keyboard selection among the legal places; -1 until the arrow keys are used."""
        self.show_panel = bool(context.settings.get("show_panel"))
        self._panel_in_narrow = False
        self.show_analysis = False
        self.analysis = AnalysisPanel(match.game, self.replay_at)
        self.section_manager.add_section(self.analysis)
        self._buttons: dict[str, arcade.gui.UIFlatButton] = {}
        self._apply_speed()
        self._layout(context.window.width, context.window.height)
        self.show_state(match.state)

    @property
    def match(self) -> Session:
        """The controller's session (New game puts a new one there)."""
        return self.controller.session

    @property
    def save_path(self) -> Path | None:
        return self.controller.save_path

    @property
    def clock(self) -> float:
        """The controller's clock: toasts expire by it."""
        return self.controller.clock

    @property
    def watching(self) -> bool:
        return self.controller.watching

    @property
    def game_over_shown(self) -> bool:
        return self.controller.result_shown

    @property
    def hint_location(self) -> Location | None:
        hint = self.controller.hint_move
        return None if hint is None else self.move_location(self.match.state, hint)

    @property
    def last_location(self) -> Location | None:
        """The place of the move the board shows (or is animating), outlined."""
        last = self.controller.last_move(self.controller.board_target)
        return None if last is None else self.move_location(*last)

    # -- what a subclass supplies -----------------------------------------------------------------------------
    def make_scene(self) -> MatchScene:
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
        self.say(self.controller.refusal(), warning=True)

    def extra_key(self, symbol: int, modifiers: int) -> bool:
        """A key the game adds (sowing: digits for pits); True when handled."""
        return False

    # -- geometry and widgets ---------------------------------------------------------------------------------
    @property
    def right_panel(self) -> int:
        """The width of the panel down the right (the analysis, else the move list; 0 when neither is shown)."""
        if self.show_analysis:
            return panel_width(self.window.width, self.chrome_scale)
        return self.side_panel_width if self.panel_shown else 0

    def _layout(self, width: int, height: int) -> None:
        self._place_bars(width, height)  # first: the panel's width follows the window's type scale
        panel = self.right_panel
        self.side_panel.enabled = self.panel_shown and not self.show_analysis
        top_bar, bottom_bar, scale = self.top_bar_height, self.bottom_bar_height, self.chrome_scale
        self.analysis.place(width - panel, bottom_bar, panel, height - top_bar - bottom_bar, self.show_analysis,
                            scale)
        margin = 24
        # Room under the board for the notice line (its centre 18 px over the bar), a little over it for a toast.
        self.board_area = (margin, bottom_bar + 34 * scale, max(100, width - panel - 2 * margin),
                           max(100, height - top_bar - bottom_bar - 58 * scale))
        """Where the board is drawn (left, bottom, width, height): the room between the bars and the panel."""
        self.scene.set_rect(*self.board_area)
        focused = self.focus_key(self.focus) if self.focus is not None else None
        self.ui.clear()
        controller = self.controller
        actions = {"Hint": controller.hint, "Undo": self.undo, "Redo": self.redo, "Save": self.save,
                   "New game": self.new_game, "Menu": self.leave, "Pause": controller.toggle_pause,
                   "Speed": controller.faster, "Analysis": self.toggle_analysis}
        names = self.controller.button_names()
        names.insert(names.index("Menu"), "Analysis")
        bar, self._buttons = button_bar({name: self.controller.button_text(name) for name in names}, actions, width)
        for button in self._buttons.values():
            if scale != 1:  # a large window: larger buttons and words, as the bar is taller
                button.resize(width=button.width * scale, height=button.height * scale)
                button.style = {state: type(value)(**{**vars(value), "font_size": round(value.font_size * scale)})
                                for state, value in button.style.items()}
            fit_font(button)  # a narrow window: smaller words rather than cut-off ones
        self.ui.add(bar)
        self.refocus(focused)  # the same control keeps the ring (the result panel's buttons come again later)
        if self._overlay is not None:  # the panel was cleared with the rest: it is built again for this size
            self._overlay = None
            self.controller.result_shown = False

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

    def cancel_search(self) -> None:
        self.controller.cancel_search()
        self.analysis.stop()  # while the panel is shown it starts again on the next frame

    # -- playing ----------------------------------------------------------------------------------------------
    def play(self, move: Move) -> None:
        """Play ``move`` for the side to move and animate it."""
        before, after = self.controller.play(move)
        self.say("")  # a notice about the last position (a hint, a refusal, "Saved") is stale now
        self._hide_overlay()
        self.animate_move(before, move, after)

    def _show_position(self) -> None:
        """Show the session's position at once (after undo, a new game)."""
        self.scene.finish()
        self._hide_overlay()
        self.show_state(self.match.state)

    def legal_locations(self) -> dict[Location, Move]:
        if self.match.is_over or self.controller.replay_index is not None:
            return {}
        state = self.match.state
        return {self.move_location(state, move): move for move in self.match.legal_moves}

    def click_location(self, location: Location | None) -> None:
        """A click on the board (already past any animation)."""
        if location is None or self.controller.replay_index is not None:
            return
        refusal = self.controller.why_not_now()
        legal = self.legal_locations()
        if refusal:
            self.say(refusal)
        elif location in legal:
            self.play(legal[location])
        else:
            self.refuse(location)

    # -- commands ---------------------------------------------------------------------------------------------
    def undo(self) -> None:
        self.stop_replay()
        if self.controller.undo():
            self._show_position()

    def redo(self) -> None:
        self.stop_replay()  # which lands any stones in flight
        replayed = self.controller.redo()  # up to the next human turn: the mirror of undo
        if replayed:
            self._hide_overlay()
            states = self.match.states
            self.show_state(states[-2])
            self.animate_move(states[-2], replayed[-1], states[-1])

    def new_game(self) -> None:
        self.stop_replay()
        self.controller.new_game()
        self._show_position()

    def save(self) -> None:
        from game.views.load_view import new_save_path

        folder = self.context.save_dir
        assert folder is not None
        self.controller.save(self.save_path or new_save_path(folder, self.match.game.name))

    def leave(self) -> None:
        self.cancel_search()
        self.context.show_title()

    def _apply_speed(self) -> None:
        self.scene.speed = float(self.context.settings.get("animation_speed")) * self.controller.speed

    NARROW = 1100
    """Below this window width a board of more than eight columns (Hus) needs the side panel's room: the panel
    then starts hidden, and M shows it."""

    @property
    def wide_board(self) -> bool:
        """True for a board that needs the window's whole width at small sizes (a subclass says)."""
        return False

    @property
    def panel_shown(self) -> bool:
        """Whether the move list and the computer's panel are beside the board (the setting, unless a wide board
        in a narrow window needs the room and M has not asked for the panel)."""
        if self.wide_board and self.window.width < self.NARROW:
            return self._panel_in_narrow
        return self.show_panel

    def toggle_panel(self) -> None:
        if self.show_analysis:  # M goes from the analysis back to the move list
            self.show_analysis = False
        elif self.wide_board and self.window.width < self.NARROW:
            self._panel_in_narrow = not self._panel_in_narrow
        else:
            self.show_panel = not self.show_panel
        self._layout(self.window.width, self.window.height)
        self.show_state(self.controller.board_state)

    def toggle_analysis(self) -> None:
        """Show or hide the analysis panel (hidden, its searches stop: ``AnalysisPanel.place``)."""
        self.show_analysis = not self.show_analysis
        self._layout(self.window.width, self.window.height)
        self.show_state(self.controller.board_state)

    def toggle_details(self) -> None:
        """The Details setting on or off (F3): the engines' own figures on the analysis and computer panels."""
        settings = self.context.settings
        settings.set("details", not settings.get("details"))
        self.context.save_settings()
        self.say("Details for engine developers: " + ("on" if settings.get("details") else "off"))

    def show_rules(self) -> None:
        self.cancel_search()
        self.context.show_rules(self.match.game.name, back=self)

    def review(self) -> None:
        """The review of the game just played (``game.views.review_view``); Back returns here."""
        from game.views.review_view import open_review

        self.cancel_search()
        problem = open_review(self.context, self.match.game, self.match.states, self.match.moves, back=self)
        if problem:
            self.say(problem, warning=True)

    # -- replay -----------------------------------------------------------------------------------------------
    def replay(self) -> None:
        """Replay the game from the start, move by move (any button or Escape stops it)."""
        self.scene.finish()
        self._hide_overlay()
        self.show_state(self.controller.start_replay())

    def replay_at(self, index: int) -> None:
        """Show the game's position ``index`` and stay there (a click on the evaluation graph): a replay paused at
        that move, which Escape or any button ends; the game's own position ends it at once."""
        controller = self.controller
        if index >= len(self.match.states) - 1:
            self.stop_replay()
            return
        self.scene.finish()
        self._hide_overlay()
        controller.cancel_search()
        controller.replay_index, controller.replay_wait = index, math.inf  # the next move never comes due
        controller.board_index = controller.board_target = index
        controller.result_shown = False
        self.show_state(self.match.states[index])
        where = f"the position after move {index} of {len(self.match.moves)}" if index else "the start"
        self.say(f"Showing {where}: Shift+Left/Right step, Escape returns to the game.")

    def stop_replay(self) -> None:
        """End a replay: the stones in flight land first, then the game's position is shown at once."""
        self.scene.finish()
        if self.controller.stop_replay():
            self.show_state(self.match.state)
            self.say("")

    # -- frame ------------------------------------------------------------------------------------------------
    def on_update(self, delta_time: float) -> None:
        self._apply_speed()  # the Speed button, +/- and the Settings' animation speed
        self.scene.update(delta_time)
        step = self.controller.update(delta_time, self.scene.is_animating)
        self._expire_toasts()
        if isinstance(step, PlayMove):
            self.play(step.move)
        elif isinstance(step, ReplayMove):
            self.animate_move(step.before, step.move, step.after)
        elif isinstance(step, ShowResult):
            self._show_result()
        for text, warning in self.controller.take_notices():  # what the commands and the step had to say
            self.say(text, warning=warning)
        if self.show_analysis:
            self.analysis.follow(self.controller, self.scene.is_animating)

    def _show_result(self) -> None:
        result = self.controller.result()
        colour = theme.TEXT if result.winner is None else theme.ACCENTS[result.winner]
        actions = {"Review": self.review, "Replay": self.replay, "New game": self.new_game, "Undo": self.undo,
                   "Menu": self.leave}
        room = self.right_panel
        with theme.scaled_ui(self.chrome_scale):
            panel = end_panel(result.headline, colour, result.reason, actions, -room / 2, self.GAME_OVER_AT_TOP,
                              self.window.width - room)
        self._overlay = self.ui.add(panel, layer=1)
        self.context.sounds.play("end")
        self.controller.record_game_over()  # counted once per match, however often shown

    def on_draw(self) -> None:
        side_panel = self.side_panel if self.panel_shown and not self.show_analysis else None
        show_controller(self.controller, self.top_bar, side_panel, self._buttons)
        super().on_draw()

    def board_stop(self) -> tuple[float, float, float, float] | None:
        return board_bounds(self.scene) or self.board_area

    def on_draw_after_ui(self) -> None:
        self.draw_focus()

    def on_draw_before_ui(self) -> None:
        choosing = self.match.is_human_turn and self._overlay is None
        hovered = self.scene.location_at(*self.mouse) if choosing else None
        self.scene.draw(*board_marks(self.legal_locations() if choosing else {}, hovered, self._cursor_location(),
                                     self.hint_location, self.last_location, self.match.to_move))
        centre = (self.window.width - self.right_panel) / 2
        scale = self.chrome_scale
        self._draw_messages(centre, self.window.height - self.top_bar_height - 30 * scale,
                            self.bottom_bar_height + 18 * scale)

    # -- input ------------------------------------------------------------------------------------------------
    def _cursor_location(self) -> Location | None:
        legal = sorted(self.legal_locations())
        return legal[self.cursor % len(legal)] if legal and self.cursor >= 0 else None

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.mouse = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.mouse = (x, y)
        if self._overlay is not None:
            return None
        if self.focus_on_control:
            self.focus = None  # the mouse chose the board: Enter is the board's again
        location = self.scene.location_at(x, y)
        if self.scene.is_animating:
            self.scene.finish()
            if location is None:
                return True
        self.click_location(location)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == _K.ESCAPE:
            self.stop_replay() if self.controller.replay_index is not None else self.leave()
            return True
        if self.focus_keys(symbol, modifiers):
            return True
        if self.scene.is_animating:
            self.scene.finish()
            if symbol == _K.SPACE:
                return True
        ctrl = modifiers & (_K.MOD_CTRL | _K.MOD_COMMAND)
        if ctrl and symbol in CTRL_KEYS or symbol in KEYS:
            name = (CTRL_KEYS if ctrl and symbol in CTRL_KEYS else KEYS)[symbol]
            (getattr(self, name, None) or getattr(self.controller, name))()
        elif symbol in (_K.LEFT, _K.RIGHT) and modifiers & _K.MOD_SHIFT and self.show_analysis:  # the graph's points
            self.replay_at(max(0, self.analysis.current + (1 if symbol == _K.RIGHT else -1)))
        elif symbol in (_K.LEFT, _K.RIGHT):
            count = max(1, len(self.legal_locations()))
            self.cursor = 0 if self.cursor < 0 else (self.cursor + (1 if symbol == _K.RIGHT else -1)) % count
        elif symbol in (_K.ENTER, _K.RETURN, _K.SPACE):
            self.click_location(self._cursor_location())
        elif not self.extra_key(symbol, modifiers):
            return None
        return True
