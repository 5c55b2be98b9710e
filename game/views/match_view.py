"""What every two-player game screen shares: the match, the computer, the panels, the controls, replay.

``MatchView`` is the screen less its board: a subclass (``SowingView`` for the pit-and-seed games, ``CaveView``
for Magnetic Cave) builds the scene and says how a move maps to a place on it (``move_location``), how a
position is shown at once or a move animated, what the scores are and why a click cannot play.  The scene it
builds meets ``game.scenes.contract.MatchScene``.

The match (``game.session``) is the truth; the scene animates the difference between the position shown and
the new one.  What is not drawing (the search workers, the computer's pending move, hint, pause, speed,
replay, counting the finished game) is ``game.controller.MatchController``, drained once a frame in
``on_update``; this view translates input into its calls and draws what it holds.

Input: a click on a legal place (or Left/Right then Enter; subclasses add keys) plays it.  A click or key
during an animation first finishes the animation at once, then acts, so no input is lost.  Keys: H hint,
U or Ctrl+Z undo, R or Ctrl+Y redo, Ctrl+S save, N new game, P pause (computer vs computer), +/- speed,
Tab the move list, Space finish the animation, F1 the game's rules, Escape back to the title screen.
"""
from __future__ import annotations

from pathlib import Path

import arcade
import arcade.gui

from game import theme
from game.context import AppContext
from game.controller import SPEEDS, MatchController
from game.scenes.contract import Location, MatchScene
from game.session import Session
from game.views.frugal_ui import FrugalUIManager
from game.views.match_panels import button_bar, end_panel
from game.views.panels import BOTTOM_BAR, SIDE_PANEL, TOP_BAR, ScreenChrome
from rules import Move, State

__all__ = ["MatchView", "SPEEDS", "Location"]

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
        self.controller = MatchController(match, context.settings, context.autosave, context.statistics,
                                          self.MOVE_TIME_LIMIT, self.MOVE_NOUN)
        self.controller.save_path = save_path
        self.background_color = theme.TABLE
        self.scene = self.make_scene()
        self.scene.announce = self.toast
        self.scene.on_sound = self._sound
        self.mouse = (0.0, 0.0)
        self.cursor = -1
        """Keyboard selection among the legal places; -1 until the arrow keys are used."""
        self.last_text = ""
        self.last_location: Location | None = None
        self.game_over_shown = False
        self._move_list_key: tuple | None = None
        self._move_list: list[str] = []
        self.show_panel = bool(context.settings.get("show_panel"))
        self._buttons: dict[str, arcade.gui.UIFlatButton] = {}
        self._apply_speed()
        self._layout(context.window.width, context.window.height)
        self.show_state(match.state)
        if match.moves:
            self._describe_last()

    @property
    def match(self) -> Session:
        """The game in progress (the controller's session: New game replaces it)."""
        return self.controller.session

    @property
    def save_path(self) -> Path | None:
        """The file this game was loaded from or last saved to (None: Save makes a new one)."""
        return self.controller.save_path

    @property
    def clock(self) -> float:  # type: ignore[override]
        """Seconds since the screen opened (toasts expire by it): the controller's clock."""
        return self.controller.clock

    @property
    def hint_location(self) -> Location | None:
        hint = self.controller.hint_move
        return None if hint is None else self.move_location(self.match.state, hint)

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
        return self.controller.watching

    def _layout(self, width: int, height: int) -> None:
        panel = SIDE_PANEL if self.show_panel else 0
        self._place_bars(width, height)
        self.side_panel.enabled = self.show_panel
        margin = 24
        self.scene.set_rect(margin, BOTTOM_BAR + 40, max(100, width - panel - 2 * margin),
                            max(100, height - TOP_BAR - BOTTOM_BAR - 90))
        self.ui.clear()
        names = ["Pause", "Speed", "Undo", "Redo", "Save", "New game", "Menu"] if self.watching else [
            "Hint", "Undo", "Redo", "Save", "New game", "Speed", "Menu"]
        actions = {"Hint": self.hint, "Undo": self.undo, "Redo": self.redo, "Save": self.save,
                   "New game": self.new_game, "Menu": self.leave, "Pause": self.toggle_pause, "Speed": self.faster}
        bar, self._buttons = button_bar({name: self._button_text(name) for name in names}, actions, width)
        from game.views.widgets import fit_font

        for button in self._buttons.values():
            fit_font(button)  # a narrow window: smaller words rather than cut-off ones
        self.ui.add(bar)
        if self._overlay is not None:
            self._overlay = None
            self.game_over_shown = False

    def _button_text(self, name: str) -> str:
        if name == "Speed":
            return f"Speed x{self.controller.speed:g}"
        if name == "Pause":
            return "Resume" if self.controller.paused else "Pause"
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

    def cancel_search(self) -> None:
        """Stop any search at once (the thread finishes on its own; its result is ignored)."""
        self.controller.cancel_search()

    def _show_notices(self) -> None:
        for text, warning in self.controller.take_notices():
            self.say(text, warning=warning)

    # -- playing ----------------------------------------------------------------------------------------------
    def play(self, move) -> None:  # type: ignore[no-untyped-def]
        """Play ``move`` for the side to move and animate it."""
        game = self.match.game
        before_text = game.describe_move(self.match.state, move)
        before, after = self.controller.play(move)
        self._after_change()
        self.last_text = before_text
        self.last_location = self.move_location(before, move)
        self.animate_move(before, move, after)

    def _after_change(self) -> None:
        """The position changed (the controller renewed the autosave and dropped stale searches): the
        game-over panel goes."""
        self._show_notices()
        self.game_over_shown = False
        self._hide_overlay()

    def _show_position(self) -> None:
        """Show the session's position at once (after undo, a new game)."""
        self._after_change()
        self._describe_last()
        self.show_state(self.match.state)

    def _describe_last(self) -> None:
        last = self.controller.last_move()
        self.last_text = "" if last is None else self.match.game.describe_move(*last)
        self.last_location = None if last is None else self.move_location(*last)

    def legal_locations(self) -> dict[Location, object]:
        if self.match.is_over or self.controller.replay_index is not None:
            return {}
        state = self.match.state
        return {self.move_location(state, move): move for move in self.match.legal_moves}

    def click_location(self, location: Location | None) -> None:
        """A click on the board (already past any animation)."""
        if location is None or self.controller.replay_index is not None:
            return
        refusal = self.controller.why_not_now()
        if refusal:
            self.say(refusal)
            return
        legal = self.legal_locations()
        if location in legal:
            self.say("")
            self.play(legal[location])
        else:
            self.refuse(location)

    # -- commands ---------------------------------------------------------------------------------------------
    def hint(self) -> None:
        self.controller.hint()
        self._show_notices()

    def undo(self) -> None:
        self.scene.finish()
        self.stop_replay()
        if self.controller.undo():
            self._show_position()
        self._show_notices()

    def redo(self) -> None:
        self.scene.finish()
        self.stop_replay()
        replayed = self.controller.redo()  # up to the next human turn: the mirror of undo
        if not replayed:
            self._show_notices()
            return
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
        self.controller.new_game()
        self._show_position()
        self.say("New game.")

    def save(self) -> None:
        from game.views.load_view import new_save_path

        folder = self.context.save_dir
        assert folder is not None
        self.controller.save(self.save_path or new_save_path(folder, self.match.game.name))
        self._show_notices()

    def leave(self) -> None:
        self.cancel_search()
        self.context.show_title()

    def toggle_pause(self) -> None:
        self.controller.toggle_pause()
        self.say("Paused." if self.controller.paused else "")
        if "Pause" in self._buttons:
            self._buttons["Pause"].text = self._button_text("Pause")

    def faster(self) -> None:
        self.controller.faster()
        self._apply_speed()

    def slower(self) -> None:
        self.controller.slower()
        self._apply_speed()

    def _apply_speed(self) -> None:
        self.scene.speed = float(self.context.settings.get("animation_speed")) * self.controller.speed
        if "Speed" in self._buttons:
            self._buttons["Speed"].text = self._button_text("Speed")

    def toggle_panel(self) -> None:
        self.show_panel = not self.show_panel
        self._layout(self.window.width, self.window.height)
        self.show_state(self.match.state)

    # -- replay -----------------------------------------------------------------------------------------------
    def replay(self) -> None:
        """Replay the game from the start, move by move (any button or Escape stops it)."""
        self._hide_overlay()
        self.last_text, self.last_location = "Replay: the start", None
        self.show_state(self.controller.start_replay())

    def stop_replay(self) -> None:
        if self.controller.replay_index is not None:
            self.controller.replay_index = None
            self.show_state(self.match.state)
            self._describe_last()

    def _step_replay(self, dt: float) -> None:
        step = self.controller.replay_step(dt, self.scene.is_animating)
        if step is None:
            if self.controller.replay_index is None:  # the last move has been replayed
                self._describe_last()
                self.game_over_shown = False
            return
        index, before, move, after = step
        self.last_text = f"Replay {index + 1}/{len(self.match.moves)}: " + self.match.game.describe_move(before, move)
        self.last_location = self.move_location(before, move)
        self.animate_move(before, move, after)

    # -- game over --------------------------------------------------------------------------------------------
    def _show_game_over(self) -> None:
        outcome = self.match.outcome
        assert outcome is not None
        scores = " - ".join(str(score) for score in outcome.scores)
        winner = outcome.winner
        headline = f"Draw, {scores}" if winner is None else f"{self.match.game.player_names[winner]} wins, {scores}"
        colour = theme.TEXT if winner is None else theme.ACCENTS[winner]
        detail = f"The game ended because {outcome.reason.value}; {len(self.match.moves)} moves."
        actions = {"Replay": self.replay, "New game": self.new_game, "Undo": self.undo, "Menu": self.leave}
        panel = end_panel(headline, colour, detail, actions, -(SIDE_PANEL / 2 if self.show_panel else 0),
                          self.GAME_OVER_AT_TOP)
        self._overlay = self.ui.add(panel, layer=1)
        self.game_over_shown = True
        self._sound("end")
        self.controller.record_game_over()  # counted once per match, however often shown
        self._show_notices()


    # -- frame ------------------------------------------------------------------------------------------------
    def on_update(self, delta_time: float) -> None:
        controller = self.controller
        self.scene.update(delta_time)
        controller.tick(delta_time, self.scene.is_animating)
        self._expire_toasts()
        self._show_notices()
        if controller.replay_index is not None:
            self._step_replay(delta_time)
            return
        if self.match.is_over:
            landed = not self.scene.is_animating and controller.clock - controller.pending_since >= self.GAME_OVER_DELAY
            if not self.game_over_shown and landed:
                self._show_game_over()
            return
        move = controller.computer_move(self.scene.is_animating)
        self._show_notices()
        if move is not None:
            self.play(move)

    def _refresh_panels(self) -> None:
        match = self.match
        turn, player = self.controller.turn()
        colour = theme.TEXT if player is None else theme.ACCENTS[player]
        self.top_bar.show(match.game.title, self.controller.rules_text(), turn, colour, self.scores_text(),
                          self.last_text or "No move yet")
        if self.show_panel:
            key = (id(match), len(match.moves), match.moves[-1] if match.moves else None)
            if key != self._move_list_key:  # formatting every move each frame would grow with the game
                self._move_list_key, self._move_list = key, match.move_list()
            self.side_panel.show(self._move_list, self.controller.thinking, self.controller.hint_text)
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
        hint = self.hint_location
        if hint is not None:
            highlights[hint] = HINT_COLOUR
        self.scene.draw(highlights, outlines)
        centre = (self.window.width - (SIDE_PANEL if self.show_panel else 0)) / 2
        self._draw_messages(centre, self.window.height - TOP_BAR - 30, BOTTOM_BAR + 18)

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
        plain = {key.U: self.undo, key.R: self.redo, key.H: self.hint, key.F1: self.show_rules, key.N: self.new_game,
                 key.P: self.toggle_pause, key.PLUS: self.faster, key.EQUAL: self.faster, key.NUM_ADD: self.faster,
                 key.MINUS: self.slower, key.NUM_SUBTRACT: self.slower, key.TAB: self.toggle_panel}
        with_ctrl = {key.Z: self.undo, key.Y: self.redo, key.S: self.save}
        if symbol == key.ESCAPE:
            if self.controller.replay_index is not None:
                self.stop_replay()
            else:
                self.leave()
        elif ctrl and symbol in with_ctrl:
            with_ctrl[symbol]()
        elif symbol in plain:
            plain[symbol]()
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

    def show_rules(self) -> None:
        self.cancel_search()
        self.context.show_rules(self.match.game.name, back=self)
