"""The puzzle screen: one Solitaire Mancala deal on the board, played by the player or watched being solved.

This view only draws and translates input: everything else (the round being chosen, hint and watch, undo,
save and load, the end and its record, every text) is ``game.puzzle_controller.PuzzleController``, tested
without a window.  The session (``game.puzzle_session``) is the truth; the scene (``game.scenes.solitaire_board``,
the sowing scene's stones and board laid out as the source draws it) animates the rounds the controller
queues.  Its widgets are built by ``game.views.solitaire_panels``.

Playing a round: click a hole (numbered 1-12 on the board; only before the first round, or when the rules free
the choice again; later rounds start where the last one ended), then a direction: the arrows beside the hole's
number, the Left/Right keys (the way the stones first move on screen: clockwise runs left to right along the
top row), or the Clockwise / Anti-clockwise buttons.  Under ``lewis``, when the round will have one stone in
hand at a row end, the screen asks: Set aside (S) or Keep sowing (K).  Up/Down step through the holes when
the choice is free.

The bottom bar follows the two-player screens: Hint, Undo, Redo, Save, then Load, Restart, Watch, Rules and
Puzzles (the way back); Speed is under the board while the computer plays.  Tab and Shift+Tab move a focus ring
over the board (one stop, where the arrows play as always) and the buttons, which Enter presses
(``game.views.focus``, the menus' own mechanism).  Keys, the same as there where they mean the same: H hint, U
or Ctrl+Z undo, R or Ctrl+Y redo, Ctrl+S save, Ctrl+O (or L) load, F1 rules, W watch / stop, P pause, +/- speed,
E end a dose game here, Space finish the animation, Escape close the Load panel or back to the puzzle list.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import arcade
import arcade.gui

from game import theme
from game.context import AppContext
from game.puzzle_controller import ROUND_GAP, SPEEDS, PuzzleController
from game.puzzle_session import Puzzle, PuzzleSession, Verdict
from game.puzzle_words import prompt, round_list, rules_line, status, without_counts
from game.records import RecordsStore
from game.scenes.solitaire_board import (STORE_LOCATIONS, SolitaireScene, board_marks, counts,
                                         hole_at, plan_round, visual_direction)
from game.views.focus import FocusRing, board_bounds
from game.views.frugal_ui import FrugalUIManager
from game.views.load_view import new_save_path
from game.views.panels import BOTTOM_BAR, ScreenChrome
from game.views.solitaire_panels import PuzzleButtons, button_texts, load_panel, verdict_panel
from rules.solitaire import CCW, CW, Round

__all__ = ["ROUND_GAP", "SPEEDS", "SolitaireView"]

GOLD = theme.ACCENTS[0]
CONTROL_ROW = 64
"""Height of the row of direction buttons under the board."""
MESSAGE_Y = BOTTOM_BAR + CONTROL_ROW - 2
"""Where the message line under the board starts (it grows upwards over a panel when it wraps)."""
MESSAGE_LINE = 22
WIDE_TITLE = 1180
"""Narrower windows show the short title, so the top bar's title and whose turn never overlap."""


def _set_text(text: arcade.Text, value: str, colour: theme.Color, position: tuple[float, float]) -> None:
    if text.text != value:
        text.text = value
    if tuple(text.color) != tuple(colour):
        text.color = colour
    if tuple(text.position) != position:
        text.position = position


class SolitaireView(FocusRing, ScreenChrome, arcade.gui.UIView):
    """Play (or watch) one Solitaire Mancala puzzle: draws ``self.controller`` and passes it the input."""

    SCALES_CHROME = True  # the panel, the bars, the buttons and the words grow with the window (ScreenChrome)

    def __init__(self, context: AppContext, puzzle: Puzzle, records: RecordsStore | None = None,
                 session: PuzzleSession | None = None, save_path: Path | None = None) -> None:
        """``session``, when given, is a puzzle already in progress (a loaded save, from ``save_path``)."""
        super().__init__()
        self._init_chrome()  # bars, toasts, notice, overlay (game.views.panels.ScreenChrome)
        self.ui = FrugalUIManager()
        self.context = context
        self.background_color = theme.TABLE
        if records is None:
            records = RecordsStore(context.store.directory)
            context.notices.extend(records.load())
        session = session if session is not None else PuzzleSession(puzzle)
        self.controller = PuzzleController(session, context.settings, context.autosave, records)
        self.controller.save_path = save_path
        self.scene = SolitaireScene()
        self.scene.announce = self.toast
        self.scene.on_sound = self.context.sounds.play
        self.mouse = (0.0, 0.0)
        self._load_panel: arcade.gui.UIWidget | None = None
        self._round_list_key: tuple | None = None
        self._round_list: list[str] = []
        # Both wrap inside the board's width (a long message, a load error, is read whole, never cut off).
        self._rules_text = arcade.Text("", 0, 0, theme.TEXT_DIM, 12, font_name=theme.BODY_FONT, multiline=True,
                                       width=400, align="center", anchor_x="center", anchor_y="bottom")
        self._message = arcade.Text("", 0, 0, theme.TEXT_DIM, 13, font_name=theme.BODY_FONT, multiline=True,
                                    width=400, align="center", anchor_x="center", anchor_y="bottom")
        self._layout(context.window.width, context.window.height)
        self.scene.show(counts(session.state))

    @property
    def session(self) -> PuzzleSession:
        return self.controller.session

    @property
    def clock(self) -> float:
        return self.controller.clock

    @property
    def save_path(self) -> Path | None:
        return self.controller.save_path

    @save_path.setter
    def save_path(self, path: Path | None) -> None:
        self.controller.save_path = path

    def say(self, text: str, warning: bool = False) -> None:
        self.controller.say(text, warning)

    # -- geometry and widgets ---------------------------------------------------------------------------------
    @property
    def message_y(self) -> float:
        """Where the message line under the board starts, in this window (``MESSAGE_Y`` at 1280x720)."""
        return MESSAGE_Y * self.chrome_scale

    def _layout(self, width: int, height: int) -> None:
        self._place_bars(width, height)
        scale = self.chrome_scale
        self.board_width = max(200, width - self.side_panel_width)
        margin = 24
        for text, size in ((self._rules_text, 12), (self._message, 13)):
            text.width = int(self.board_width - 2 * margin)
            if text.font_size != round(size * scale):
                text.font_size = round(size * scale)
        self._rules_text.text = rules_line(self.session, credit=self.board_width >= 900 * scale)
        self._rules_text.position = self.board_width / 2, self.message_y + MESSAGE_LINE * scale
        bottom = self.message_y + MESSAGE_LINE * scale + self._rules_text.content_height + 14 * scale
        self.board_area = (margin, bottom, self.board_width - 2 * margin,
                           max(100, height - self.top_bar_height - bottom - 70 * scale))
        """Where the board is drawn (left, bottom, width, height): the room between the bars and the panel."""
        self.scene.set_rect(*self.board_area)
        self._build_buttons(width)
        self._load_panel = None  # the widgets were cleared; Load can be opened again
        if self._overlay is not None:  # the verdict again over the new layout (the result is already recorded)
            self._overlay = None
            self._show_verdict(self.session.verdict())

    def _build_buttons(self, width: int) -> None:
        focused = self.focus_key(self.focus) if self.focus is not None else None
        self.ui.clear()
        c = self.controller
        actions = {
            "Hint": self.hint, "Undo": self._snap(c.undo), "Redo": self._snap(c.redo), "Save": self.save,
            "Load": self.show_load, "Restart": self._snap(c.restart), "Watch": self._snap(c.toggle_watch),
            "Speed": c.faster, "Rules": self.show_rules, "Puzzles": self.leave,
            "Anti-clockwise": lambda: c.choose(CCW), "Clockwise": lambda: c.choose(CW),
            "Set aside": lambda: c.decide(True), "Keep sowing": lambda: c.decide(False),
            "End here": c.end_here, "Pause": c.watch.toggle_pause, "Stop": self._snap(c.toggle_watch),
        }
        with theme.scaled_ui(self.chrome_scale):
            self.buttons = PuzzleButtons(self.ui, width, self.board_width, self.session.game.is_lewis,
                                         {name: self._then_show(action) for name, action in actions.items()})
        self._refresh_buttons()
        self.refocus(focused)

    def _snap(self, action: Callable[[], object]) -> Callable[[], None]:
        """``action`` after the flying stones have landed at once (undo, restart, watch change the board)."""
        def run() -> None:
            self.scene.finish()
            action()
        return run

    def _then_show(self, action: Callable[[], object]) -> Callable[[], None]:
        """``action``, then the board shows what it changed at once (not a frame later)."""
        def run() -> None:
            action()
            self._show_changes()
        return run

    def _refresh_buttons(self) -> None:
        c = self.controller
        self.buttons.refresh(c.enabled(), button_texts(c.speed, c.watch.paused), c.controls_row)

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._layout(width, height)
        self.scene.show(counts(self.session.state))

    def on_show_view(self) -> None:
        self.section_manager.enable()
        super().on_show_view()
        self._layout(self.window.width, self.window.height)
        self.controller.searches.open()
        self.controller.resume_hint()

    def on_hide_view(self) -> None:
        self.controller.searches.close()
        super().on_hide_view()
        self.section_manager.disable()

    # -- actions that touch the screen as well ----------------------------------------------------------------
    def play(self, move: Round, by_computer: bool = False) -> None:
        """Play a round and start its animation."""
        self.controller.play(move, by_computer)
        self._show_changes()

    def hint(self) -> None:
        self.scene.finish()
        self.controller.hint()

    def cancel_search(self) -> None:
        self.controller.cancel_search()

    def save(self) -> None:
        """Write the puzzle in progress to its save file (a new one the first time)."""
        folder = self.context.save_dir
        assert folder is not None
        self.controller.save(self.save_path or new_save_path(folder, self.session.game.name))

    def show_load(self) -> None:
        """The Load panel over the board: the newest saves, and Cancel (Escape)."""
        self.close_load()
        folder = self.context.save_dir
        assert folder is not None
        scale = self.chrome_scale
        with theme.scaled_ui(scale):
            panel = load_panel(folder, self.load_file, self.close_load, width=min(560 * scale, self.board_width - 80))
        if panel is None:
            self.say(f"No saved games yet in {folder}: Save (Ctrl+S) keeps this puzzle there.", warning=True)
            return
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(panel, anchor_x="center", anchor_y="center", align_x=-self.side_panel_width / 2,
                   align_y=20 * scale)
        self._load_panel = self.ui.add(anchor, layer=2)

    def close_load(self) -> None:
        if self._load_panel is not None:
            self.ui.remove(self._load_panel)
            self._load_panel = None

    def load_file(self, path: Path) -> bool:
        """Continue the puzzle saved at ``path`` (or say why not, the board untouched)."""
        self.close_load()
        self.scene.finish()
        if not self.controller.load(path):
            return False
        self._round_list_key = None
        self._layout(self.window.width, self.window.height)  # lewis and dose have different controls
        self._show_changes()
        return True

    def show_rules(self) -> None:
        """Solitaire Mancala's rules screen; Back comes here again, as it was (a hint asked again)."""
        self.controller.hint_wanted = self.controller.searches.is_running("hint")
        self.context.show_rules(self.session.game.name, back=self)

    def leave(self) -> None:
        self.controller.cancel_search()
        from game.views.puzzles import PuzzlesView

        self.context.show(PuzzlesView(self.context, self.controller.records))

    # -- the board follows the controller ---------------------------------------------------------------------
    def _show_changes(self) -> None:
        """Animate the rounds the controller played, or show its position at once (undo, restart, load)."""
        changes, self.controller.board_changes = self.controller.board_changes, []
        if changes:
            self._hide_overlay()
        for change in changes:
            if change.move is None or change.before is None:
                self.scene.finish()
                self.scene.show(counts(change.after))
                continue
            plan = plan_round(self.session.game, change.before, change.move, change.after)
            if self.context.settings.get("skip_animations"):
                self.scene.show(counts(change.after))
                for label in plan.labels:
                    self.toast(label)
            else:
                self.scene.animate(plan)

    def on_update(self, delta_time: float) -> None:
        self.scene.speed = float(self.context.settings.get("animation_speed")) * self.controller.speed
        self.scene.update(delta_time)
        self._expire_toasts()
        self.controller.update(delta_time, self.scene.is_animating)
        self._show_changes()
        if self.controller.should_finish(self.scene.is_animating):
            verdict = self.controller.finish()
            self._show_verdict(verdict)
            self.context.sounds.play("end")
            if verdict.perfect:
                self.toast("Perfect game!")

    def _show_verdict(self, verdict: Verdict) -> None:
        actions = {"Undo": self._snap(self.controller.undo), "Restart": self._snap(self.controller.restart),
                   "Puzzles": self.leave}
        scale = self.chrome_scale
        with theme.scaled_ui(scale):
            panel = verdict_panel(verdict, self.controller.record_line,
                                  {name: self._then_show(action) for name, action in actions.items()},
                                  width=min(620 * scale, self.board_width - 80))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(panel, anchor_x="center", anchor_y="center", align_x=-self.side_panel_width / 2,
                   align_y=40 * scale)
        self._overlay = self.ui.add(anchor, layer=1)

    # -- drawing ----------------------------------------------------------------------------------------------
    def _refresh_panels(self) -> None:
        c, session = self.controller, self.session
        wide = self.window.width >= WIDE_TITLE
        subtitle, turn, scores = status(session, c.watch, wide)
        colour = theme.ACCENTS[1] if c.watch.active else GOLD
        title = "Solitaire Mancala" if wide else "Solitaire"
        last = c.last_text if wide else without_counts(c.last_text)
        self.top_bar.show(title, subtitle, turn, colour, scores, last or "No round yet")
        key = (session.rounds, id(session.moves[-1]) if session.moves else None)
        if key != self._round_list_key:
            self._round_list_key = key
            self._round_list = round_list(session)
        self.side_panel.show(self._round_list, c.watch.text or f"Watch: {c.watch.title}", c.hint_text)
        self._refresh_buttons()

    def on_draw(self) -> None:
        self._refresh_panels()
        super().on_draw()

    def on_draw_before_ui(self) -> None:
        c = self.controller
        game, state = self.session.game, self.session.state
        start = c.start_hole()
        choosing = not self.session.is_over and not c.watch.active and self._overlay is None
        hovered = hole_at(self.scene.location_at(*self.mouse)) if choosing and state.selected is None else None
        aside = STORE_LOCATIONS[c.aside_store(start, c.asking)] if c.asking is not None and start is not None else None
        highlights, outlines = board_marks(game, state, last=c.last_start, start=start if choosing else None,
                                           hovered=hovered, aside_store=aside,
                                           hint=None if self.session.is_over else c.hint_move,
                                           perfect=self.session.is_over and self.session.verdict().perfect)
        self.scene.draw(highlights, outlines)
        hint = c.hint_move
        if start is not None and not c.watch.active and self._overlay is None:
            colours = [theme.TEXT_DIM, theme.TEXT_DIM]
            for direction, colour in ((hint.direction if hint else None, theme.HINT), (c.asking, GOLD)):
                if direction is not None:
                    colours[1 if visual_direction(start, True) == direction else 0] = colour
            self.scene.draw_arrows(start, (colours[0], colours[1]))
        width = self.board_width
        # Setting a text or a colour lays the text out again: only when it changed.
        scale = self.chrome_scale
        if self.toasts:
            if self._toast_text.font_size != round(theme.HEADING.size * scale):
                self._toast_text.font_size = round(theme.HEADING.size * scale)
            _set_text(self._toast_text, self.toasts[-1][0], theme.TEXT,
                      (width / 2, self.window.height - self.top_bar_height - 26 * scale))
            self._toast_text.draw()
        notice, colour = c.notice, theme.WARNING if c.notice_warning else theme.TEXT
        if not notice and self._overlay is None:
            notice, colour = prompt(self.session, c.watch, c.start_hole(), c.asking), theme.TEXT_DIM
        wrapped = False
        if notice:
            _set_text(self._message, notice, colour, (width / 2, self.message_y))
            wrapped = self._message.content_height > MESSAGE_LINE * scale
        self._message.visible = bool(notice)
        self._rules_text.visible = not wrapped  # a wrapped message takes the rules line's place, on a panel
        if self._rules_text.visible:
            self._rules_text.draw()
        if wrapped:
            arcade.draw_lbwh_rectangle_filled(8, self.message_y - 4 * scale, width - 16,
                                              self._message.content_height + 8 * scale, theme.PANEL)
        if notice:
            self._message.draw()

    def board_stop(self) -> tuple[float, float, float, float] | None:
        return board_bounds(self.scene) or self.board_area

    def on_draw_after_ui(self) -> None:
        self.draw_focus()

    # -- input ------------------------------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.mouse = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.mouse = (x, y)
        if self._overlay is not None or self._load_panel is not None:
            return None
        if self.focus_on_control:
            self.focus = None  # the mouse chose the board: Enter is the board's again
        if self.scene.is_animating:
            self.scene.finish()
        c = self.controller
        start = c.start_hole()
        if start is not None and not c.watch.active and c.asking is None:
            rightwards = self.scene.arrow_at(start, x, y)
            if rightwards is not None:
                c.choose(visual_direction(start, rightwards))
                self._show_changes()
                return True
        hole = hole_at(self.scene.location_at(x, y))
        if hole is not None:
            c.click_hole(hole)
            return True
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        key, c = arcade.key, self.controller
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if symbol != key.ESCAPE and self.focus_keys(symbol, modifiers):
            self._show_changes()
            return True
        if self.scene.is_animating and symbol != key.ESCAPE:
            self.scene.finish()
            if symbol == key.SPACE:
                return True
        asking = c.asking is not None
        if symbol == key.ESCAPE:
            self.close_load() if self._load_panel is not None else self.leave()
        elif ctrl and symbol in (key.S, key.O, key.Y, key.Z):
            {key.S: self.save, key.O: self.show_load, key.Y: c.redo, key.Z: c.undo}[symbol]()
        elif symbol in (key.LEFT, key.RIGHT):
            c.choose_side(symbol == key.RIGHT)
        elif symbol in (key.UP, key.DOWN):
            c.step_choice(1 if symbol == key.DOWN else -1)
        elif symbol in (key.S, key.K, key.ENTER, key.RETURN) and asking:
            c.decide(symbol == key.S)
        elif symbol in (key.C, key.A) and not asking:
            c.choose(CW if symbol == key.C else CCW)
        else:
            action = {key.F1: self.show_rules, key.L: self.show_load, key.R: c.redo, key.U: c.undo,
                      key.H: self.hint, key.W: c.toggle_watch, key.P: c.watch.toggle_pause, key.E: c.end_here,
                      key.PLUS: c.faster, key.EQUAL: c.faster, key.NUM_ADD: c.faster,
                      key.MINUS: c.slower, key.NUM_SUBTRACT: c.slower}.get(symbol)
            if action is None:
                return None
            action()
        self._show_changes()
        return True
