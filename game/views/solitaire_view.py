"""The puzzle screen: one Solitaire Mancala deal on the board, played by the player or watched being solved.

The session (``game.puzzle_session``) is the truth; the scene (``game.scenes.solitaire_board``, the
sowing scene's stones and board laid out as the source draws it) animates the difference.  Hint and watch
(``game.views.solitaire_watch``) search in a separate process drained once a frame in ``on_update``; save,
load and the rules screen are in ``game.views.solitaire_files``.

Playing a round: click a hole (only before the first round, or when the rules free the choice again; later
rounds start where the last one ended), then a direction: the Clockwise / Anti-clockwise buttons, the arrows
beside the hole's name, or the Left/Right keys (the way the stones first move on screen: clockwise runs left
to right along the top row, as the arrows beside the hole show).  Under ``lewis``, when the round will have one stone in hand at a row end, the
screen asks: Set aside (S) or Keep sowing (K).  Up/Down step through the holes when the choice is free.

The bottom bar follows the two-player screens: Hint, Undo, Redo, Save, then Load, Restart, Watch, Speed, Rules
and Puzzles (the way back).  Keys, the same as there where they mean the same: H hint, U or Ctrl+Z undo, R or
Ctrl+Y redo, Ctrl+S save, Ctrl+O (or L) load, F1 rules, W watch / stop, P pause, +/- speed, E end a dose game
here, Space finish the animation, Escape close the Load panel or back to the puzzle list.
"""
from __future__ import annotations

import arcade
import arcade.gui

from game import theme
from game.context import AppContext
from game.records import RecordsStore
from game.scenes.solitaire_board import (
    STORE_LOCATIONS,
    SolitaireScene,
    counts,
    hole_at,
    hole_location,
    plan_round,
    round_locations,
    visual_direction,
)
from game.puzzle_search import engine_spec, engine_title
from game.puzzle_session import Puzzle, PuzzleSession
from game.views.frugal_ui import FrugalUIManager
from game.views.panels import BOTTOM_BAR, SIDE_PANEL, TOP_BAR, ScreenChrome
from game.views.solitaire_files import PuzzleFiles
from game.views.solitaire_watch import ROUND_GAP, SPEEDS, PuzzleSearches
from rules.solitaire import CCW, CW, Round, can_set_aside

__all__ = ["ROUND_GAP", "SPEEDS", "SolitaireView"]

GOLD = theme.ACCENTS[0]
CONTROL_ROW = 64
"""Height of the row of direction buttons under the board."""


def _set_text(text: arcade.Text, value: str, colour: theme.Color, position: tuple[float, float]) -> None:
    if text.text != value:
        text.text = value
    if tuple(text.color) != tuple(colour):
        text.color = colour
    if tuple(text.position) != position:
        text.position = position


class SolitaireView(PuzzleSearches, PuzzleFiles, ScreenChrome, arcade.gui.UIView):
    """Play (or watch) one Solitaire Mancala puzzle."""

    def __init__(self, context: AppContext, puzzle: Puzzle, records: RecordsStore | None = None,
                 session: PuzzleSession | None = None) -> None:
        """``session``, when given, is a puzzle already in progress (a loaded save) of ``puzzle``."""
        super().__init__()
        self._init_chrome()  # bars, toasts, notice, overlay (game.views.panels.ScreenChrome)
        self.ui = FrugalUIManager()
        self.context = context
        self.background_color = theme.TABLE
        self.session = session if session is not None else PuzzleSession(puzzle)
        self.game = self.session.game
        self.records = records
        if self.records is None:
            self.records = RecordsStore(context.store.directory)
            problems = self.records.load()
            context.notices.extend(problems)
        self.hint_spec = engine_spec(context.settings, self.game, "hint")
        self.watch_spec = engine_spec(context.settings, self.game, "watch")
        self.scene = SolitaireScene()
        self.scene.announce = self.toast
        self.scene.on_sound = self.context.sounds.play
        self.chosen: int | None = None
        """The hole the player picked when the choice is free (before the first round)."""
        self.asking: str | None = None
        """A direction waiting for the lewis decision: set the last stone aside or keep sowing."""
        self.hint_state = None
        self.hint_move: Round | None = None
        self.hint_text = ""
        self.watching = False
        self.paused = False
        self.watch_state = None
        self.plan: list[Round] = []
        self.plan_complete = False
        """The plan being played is the engine's whole line (a goal, or proven best), not just its next round."""
        self.watch_line: tuple = ()
        """(state the line starts from, the line): the last line the watched engine found."""
        self.search_text = ""
        self.last_round_at = 0.0
        self.speed_index = 1
        self.clock = 0.0
        self.last_text = ""
        self.last_location: int | None = None
        self.finish_shown = False
        self.record_line = ""
        self.mouse = (0.0, 0.0)
        self._buttons: dict[str, arcade.gui.UIFlatButton] = {}
        self._round_list_key: tuple | None = None
        self._round_list: list[str] = []
        self._rules_text = theme.text(self._rules_line(), theme.BODY, theme.TEXT_DIM,
                                       anchor_x="center", anchor_y="center")
        self._apply_speed()
        self._layout(context.window.width, context.window.height)
        self.scene.show(counts(self.session.state))

    # -- geometry and widgets ---------------------------------------------------------------------------------
    def _rules_line(self) -> str:
        if self.game.is_lewis:
            return ("Lewis's variant: clear every hole to win. At a row end with one stone in hand you may set it "
                    "aside into the store.")
        return (f"Source rules (dose): no deal can be cleared, so store as many as you can. Par {self.session.par}"
                " is a perfect game.")

    def _layout(self, width: int, height: int) -> None:
        self._place_bars(width, height)
        self.board_width = max(200, width - SIDE_PANEL)
        margin = 24
        bottom = BOTTOM_BAR + CONTROL_ROW + 40
        self.scene.set_rect(margin, bottom, self.board_width - 2 * margin, max(100, height - TOP_BAR - bottom - 70))
        self._build_buttons(width)
        self._load_panel = None  # the widgets were cleared; Load can be opened again
        if self._overlay is not None:  # the verdict again over the new layout (the result is already recorded)
            self._overlay = None
            self._show_verdict(self.session.verdict())

    def _build_buttons(self, width: int) -> None:
        self.ui.clear()
        self._buttons.clear()
        actions = {
            "Hint": self.hint, "Undo": self.undo, "Redo": self.redo, "Save": self.save, "Load": self.show_load,
            "Restart": self.restart, "Watch": self.toggle_watch, "Speed": self.faster, "Rules": self.show_rules,
            "Puzzles": self.leave,
            "Anti-clockwise": lambda: self.choose(CCW), "Clockwise": lambda: self.choose(CW),
            "Set aside": lambda: self.decide(True), "Keep sowing": lambda: self.decide(False),
            "End here": self.end_here, "Pause": self.toggle_pause, "Stop": self.toggle_watch,
        }
        # The two-player screens' bar (Hint, Undo, Redo, Save, New game, Speed, Menu) with the puzzle's own.
        # Its labels never change (Stop and Pause are under the board while the computer plays): a new label
        # lays the bar out and paints it again, tens of milliseconds of one frame on a software renderer.
        bar = arcade.gui.UIBoxLayout(vertical=False, space_between=8)
        names = ["Hint", "Undo", "Redo", "Save", "Load", "Restart", "Watch", "Speed", "Rules", "Puzzles"]
        button_width = min(140, (width - 40) / len(names) - 8)
        for name in names:
            bar.add(self._button(name, actions[name], button_width, 46))
        # Under the board, one row at a time: the directions; while the lewis question is asked, Set aside /
        # Keep sowing; while the computer plays, Pause and Stop.
        self._rows: dict[str, arcade.gui.UIBoxLayout] = {}
        rows = {
            "directions": ["Anti-clockwise", "Clockwise"] + ([] if self.game.is_lewis else ["End here"]),
            "asking": ["Set aside", "Keep sowing"] if self.game.is_lewis else [],
            "watching": ["Pause", "Stop"],
        }
        for row, row_names in rows.items():
            box = arcade.gui.UIBoxLayout(vertical=False, space_between=14)
            for name in row_names:
                box.add(self._button(name, actions[name], 150 if name == "End here" else 270, 44))
            self._rows[row] = box
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(bar, anchor_x="center", anchor_y="bottom", align_y=14)
        self.ui.add(anchor)
        # Swapped, not hidden: a hidden widget would ask to be rendered again every frame.
        self._controls = arcade.gui.UIAnchorLayout()
        self._controls_row: str | None = None
        self.ui.add(self._controls)
        self._refresh_buttons()

    def _button(self, name: str, action, width: float, height: float) -> arcade.gui.UIFlatButton:  # type: ignore[no-untyped-def]
        widget = theme.button(self._button_text(name), width=width, height=height, size=theme.BODY)
        widget.event("on_click")(lambda event, w=widget: None if w.disabled else action())
        self._buttons[name] = widget
        return widget

    def _button_text(self, name: str) -> str:
        if name == "Speed":
            return f"Speed x{SPEEDS[self.speed_index]:g}"
        if name == "Pause":
            return "Resume (P)" if self.paused else "Pause (P)"
        if name == "Stop":
            return "Stop (W)"
        if name == "Set aside":
            return "Set aside (S)"
        if name == "Keep sowing":
            return "Keep sowing (K)"
        return name

    def _refresh_buttons(self) -> None:
        """Texts, enabled and visible states of the buttons for the position (only what changed is touched)."""
        over = self.session.is_over
        player = not over and not self.watching
        start = self.start_hole()
        asking = self.asking is not None
        choosing = player and start is not None and not asking
        states = {
            "Hint": player, "Undo": self.session.can_undo(), "Redo": self.session.can_redo(), "Save": True,
            "Load": True, "Restart": self.session.rounds > 0, "Rules": True,
            "Watch": not over and not self.watching, "Speed": True, "Puzzles": True,
            "Anti-clockwise": choosing, "Clockwise": choosing, "Set aside": player and asking,
            "Keep sowing": player and asking, "End here": player and self.session.rounds > 0,
            "Pause": self.watching, "Stop": self.watching,
        }
        for name, enabled in states.items():
            widget = self._buttons.get(name)
            if widget is None:
                continue
            text = self._button_text(name)
            if widget.text != text:
                widget.text = text
            if widget.disabled == enabled:
                widget.disabled = not enabled
        row = "watching" if self.watching else ("asking" if asking else "directions")
        if self._controls_row != row:
            self._controls_row = row
            self._controls.clear()
            self._controls.add(self._rows[row], anchor_x="center", anchor_y="bottom", align_y=BOTTOM_BAR + 8,
                               align_x=-(SIDE_PANEL / 2))

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._layout(width, height)
        self.scene.show(counts(self.session.state))

    def on_show_view(self) -> None:
        self.section_manager.enable()
        super().on_show_view()
        self._layout(self.window.width, self.window.height)
        self.open_searches()
        self.resume_after_rules()

    def on_hide_view(self) -> None:
        self.close_searches()
        super().on_hide_view()
        self.section_manager.disable()

    # -- the round being chosen -------------------------------------------------------------------------------
    def start_hole(self) -> int | None:
        """The hole the next round starts from: set by the rules, or the one the player picked when free."""
        if self.session.is_over:
            return None
        selected = self.session.state.selected
        return selected if selected is not None else self.chosen

    def click_hole(self, hole: int) -> None:
        """A click on a hole: select it when the choice is free, else say where the round starts."""
        if self.watching:
            self.say("The computer is playing: Stop (W) to take over.")
            return
        if self.session.is_over:
            self.say("The game is over: Undo, Restart or back to the Puzzles.")
            return
        state = self.session.state
        if state.selected is not None:
            if hole == state.selected:
                self.say(f"This round starts from hole{hole + 1:02d}: choose a direction.")
            else:
                self.say(f"This round starts from hole{state.selected + 1:02d}, where the last one ended: "
                         "choose a direction.", warning=True)
            return
        if not state.holes[hole]:
            self.say(f"hole{hole + 1:02d} is empty: select a hole with stones.", warning=True)
            return
        self.chosen = hole
        self.asking = None
        self.say(f"hole{hole + 1:02d} selected ({state.holes[hole]} stones): choose a direction.")

    def step_choice(self, step: int) -> None:
        """Up/Down: move the free choice to the next hole with stones."""
        state = self.session.state
        if self.watching or self.session.is_over or state.selected is not None:
            return
        filled = [hole for hole in range(12) if state.holes[hole]]
        if not filled:
            return
        if self.chosen in filled:
            index = (filled.index(self.chosen) + step) % len(filled)
        else:
            index = 0 if step > 0 else len(filled) - 1
        self.click_hole(filled[index])

    def choose(self, direction: str) -> None:
        """A direction was chosen: play the round, or ask first whether to set the last stone aside (lewis)."""
        if self.watching or self.session.is_over:
            return
        start = self.start_hole()
        if start is None:
            self.say("Select a hole first: click one with stones.", warning=True)
            return
        state = self.session.state
        if self.game.is_lewis and can_set_aside(state.holes, start, direction):
            self.asking = direction
            end = self._aside_store(start, direction)
            self.say(f"One stone will be in hand at a row end: set it aside into store{end + 1:02d} (S) "
                     "or keep sowing (K)?")
            return
        self.play(self._round(start, direction, False))

    def decide(self, set_aside: bool) -> None:
        """The lewis decision for the direction being asked about."""
        start = self.start_hole()
        if self.asking is None or start is None or self.watching:
            return
        direction, self.asking = self.asking, None
        self.play(self._round(start, direction, set_aside))

    def _round(self, start: int, direction: str, set_aside: bool) -> Round:
        hole = None if self.session.state.selected is not None else start + 1
        return Round(hole, direction, set_aside)

    def _aside_store(self, start: int, direction: str) -> int:
        stored = self.game.report(self.session.state, self._round(start, direction, True)).set_aside
        return stored.index if stored is not None else 0

    # -- playing ----------------------------------------------------------------------------------------------
    def play(self, move: Round, by_computer: bool = False) -> None:
        """Play a round and animate it."""
        description = self.game.describe_move(self.session.state, move)
        start, _ = round_locations(self.game, self.session.state, move)
        before, after = self.session.play(move, by_computer)
        self._after_change()
        self.last_text = f"Round {self.session.rounds}: {description}"
        self.last_location = start
        self.last_round_at = self.clock
        if self.context.settings.get("skip_animations"):
            self.scene.show(counts(after))
            for label in plan_round(self.game, before, move, after).labels:
                self.toast(label)
        else:
            self.scene.animate(plan_round(self.game, before, move, after))

    def _after_change(self) -> None:
        """The position changed: a hint for the old one is stale; the autosave is renewed."""
        self._autosave()
        if self.hint_worker is not None:
            self.hint_worker.cancel()
        self.hint_worker = self.hint_state = None
        self.hint_move = None
        self.hint_text = ""
        self.chosen = None
        self.asking = None
        self.finish_shown = False
        self._hide_overlay()

    def undo(self) -> None:
        self.scene.finish()
        self.stop_watch()
        if not self.session.undo():
            self.say("Nothing to undo: this is the deal as dealt.")
            return
        self._after_change()
        self.last_text, self.last_location = (f"Took back round {self.session.rounds + 1}", None)
        self.scene.show(counts(self.session.state))
        self.say("")

    def redo(self) -> None:
        """Play again the last round taken back (as the computer's when the computer first played it)."""
        self.scene.finish()
        self.stop_watch()
        move = self.session.next_redo
        if move is None:
            self.say("Nothing to redo.")
            return
        self.play(move, self.session.next_redo_by_computer)
        self.say("")

    def restart(self) -> None:
        self.scene.finish()
        self.stop_watch()
        self.session.restart()
        self._after_change()
        self.last_text, self.last_location = "", None
        self.scene.show(counts(self.session.state))
        self.say("The deal again, from the start (Redo replays your rounds).")

    def replace_session(self, session: PuzzleSession) -> None:
        """Continue another puzzle in progress (a loaded save): searches stop, the board shows its position."""
        self.scene.finish()
        self.stop_watch()
        self.cancel_search()
        self.session, self.game = session, session.game
        self._after_change()
        moves = session.moves
        self.last_text = (f"Round {session.rounds}: {self.game.describe_move(session.states[-2], moves[-1])}"
                          if moves else "")
        self.last_location = None
        self._rules_text.text = self._rules_line()
        self._round_list_key = None
        self._layout(self.window.width, self.window.height)  # lewis and dose have different controls
        self.scene.show(counts(session.state))

    def _autosave(self) -> None:
        problem = self.context.autosave.keep(self.session.saved_as(self.watch_spec), self.session.is_over)
        if problem:
            self.say(problem, warning=True)

    def end_here(self) -> None:
        if self.game.is_lewis or self.watching or self.session.is_over or not self.session.rounds:
            return
        self.session.end_here()
        self._autosave()
        self.say("")

    def leave(self) -> None:
        self.cancel_search()
        from game.views.puzzles import PuzzlesView

        self.context.show(PuzzlesView(self.context, self.records))

    # -- the end ----------------------------------------------------------------------------------------------
    def _finish(self) -> None:
        """The game just ended: record the result, show the verdict."""
        session = self.session
        verdict = session.verdict()
        result = session.result()
        assert self.records is not None
        if session.assisted:
            computer = sum(session.by_computer)
            self.record_line = f"Not recorded: the computer played {computer} of the {session.rounds} rounds."
        else:
            best_before = self.records.best(session.puzzle.key)
            try:
                improved = self.records.record(session.puzzle.key, result)
            except OSError as error:
                improved = False
                self.say(f"Could not save the record to {self.records.path}: {error.strerror or error}", warning=True)
            best = self.records.best(session.puzzle.key)
            if improved:
                self.record_line = "A new best for this puzzle!" if best_before else "Your first result here, recorded."
            else:
                self.record_line = f"Your best here: {best.describe(session.par)}." if best else ""
        self._show_verdict(verdict)
        self.finish_shown = True
        self.context.sounds.play("end")
        if verdict.perfect:
            self.toast("Perfect game!")

    def _show_verdict(self, verdict) -> None:  # type: ignore[no-untyped-def]
        colour = GOLD if verdict.perfect else (theme.WARNING if verdict.won is False else theme.TEXT)
        box = arcade.gui.UIBoxLayout(space_between=10)
        box.add(theme.label(verdict.headline, theme.HEADING, colour))
        box.add(theme.label(verdict.detail, theme.BODY, theme.TEXT_DIM, width=620, multiline=True, align="center"))
        if self.record_line:
            box.add(theme.label(self.record_line, theme.BODY, theme.TEXT))
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=12)
        for text, action in (("Undo", self.undo), ("Restart", self.restart), ("Puzzles", self.leave)):
            widget = theme.button(text, width=150, height=46, size=theme.BODY)
            widget.event("on_click")(lambda event, action=action: action())
            row.add(widget)
        box.add(row)
        frame = arcade.gui.UIBoxLayout()
        frame.add(box.with_padding(all=22))
        frame.with_background(color=theme.PANEL).with_border(color=colour, width=2)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(frame, anchor_x="center", anchor_y="center", align_x=-SIDE_PANEL / 2, align_y=40)
        self._overlay = self.ui.add(anchor, layer=1)


    # -- frame ------------------------------------------------------------------------------------------------
    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time
        self.scene.update(delta_time)
        self._expire_toasts()
        self._poll_workers()
        if self.watching:
            self._step_watch()
        self.refill_searches()
        if self.session.is_over and not self.finish_shown and not self.scene.is_animating and not self.watching:
            self._finish()

    def _refresh_panels(self) -> None:
        session, state = self.session, self.session.state
        puzzle = session.puzzle
        variant = self.game.variant
        if session.is_over:
            turn = "Game over"
        elif self.watching:
            turn = "The computer is solving" + (" (paused)" if self.paused else "")
        elif state.selected is not None:
            turn = f"Round {session.rounds + 1}: from hole{state.selected + 1:02d}"
        else:
            turn = f"Round {session.rounds + 1}: select a hole"
        colour = theme.ACCENTS[1] if self.watching else GOLD
        if self.game.is_lewis:
            scores = f"Stored {state.stored} of 48   left {state.left}"
        else:
            possible = session.still_possible
            extra = f" (at most {possible} now)" if possible is not None and possible < session.par else ""
            scores = f"Stored {state.stored}   par {session.par}{extra}"
        self.top_bar.show("Solitaire Mancala", f"{puzzle.title} ({variant})", turn, colour, scores,
                          self.last_text or "No round yet")
        key = (session.rounds, id(session.moves[-1]) if session.moves else None)
        if key != self._round_list_key:
            self._round_list_key = key
            self._round_list = [
                f"{number:>3}. {self.game.format_move(before, move)}"
                + (" +1" if after.stored > before.stored else "") + (" (cpu)" if computer else "")
                for number, (before, move, after, computer) in enumerate(
                    zip(session.states, session.moves, session.states[1:], session.by_computer), start=1)
            ]
        thinking = self.search_text or f"Watch: {engine_title(self.watch_spec)}"
        self.side_panel.show(self._round_list, thinking, self.hint_text)
        self._refresh_buttons()

    def on_draw(self) -> None:
        self._refresh_panels()
        super().on_draw()

    def on_draw_before_ui(self) -> None:
        highlights: dict[int, tuple[int, int, int, int]] = {}
        outlines: dict[int, tuple[int, int, int, int]] = {}
        state = self.session.state
        if self.last_location is not None:
            outlines[self.last_location] = theme.LAST_MOVE
        start = self.start_hole()
        over = self.session.is_over
        if not over and not self.watching and self._overlay is None:
            if state.selected is None:
                hovered = hole_at(self.scene.location_at(*self.mouse))
                if hovered is not None and state.holes[hovered]:
                    highlights[hole_location(hovered)] = GOLD[:3] + (150,)
            if start is not None:
                highlights[hole_location(start)] = GOLD
        if self.asking is not None and start is not None:
            outlines[STORE_LOCATIONS[self._aside_store(start, self.asking)]] = GOLD
        hint = self.hint_move
        if hint is not None and not over:
            hint_start, drops = round_locations(self.game, state, hint)
            highlights[hint_start] = theme.HINT
            if drops:
                outlines[drops[-1]] = theme.HINT
        if over and self.session.verdict().perfect:
            for location in STORE_LOCATIONS:
                highlights[location] = GOLD
        self.scene.draw(highlights, outlines)
        if start is not None and not self.watching and self._overlay is None:
            colours = [theme.TEXT_DIM, theme.TEXT_DIM]
            if hint is not None:
                rightwards = visual_direction(start, True) == hint.direction
                colours[1 if rightwards else 0] = theme.HINT
            if self.asking is not None:
                rightwards = visual_direction(start, True) == self.asking
                colours[1 if rightwards else 0] = GOLD
            self.scene.draw_arrows(start, (colours[0], colours[1]))
        width = self.board_width
        # Setting a text or a colour lays the text out again: only when it changed.
        if self.toasts:
            _set_text(self._toast_text, self.toasts[-1][0], theme.TEXT, (width / 2, self.window.height - TOP_BAR - 26))
            self._toast_text.draw()
        _set_text(self._rules_text, self._rules_text.text, theme.TEXT_DIM, (width / 2, BOTTOM_BAR + CONTROL_ROW + 28))
        self._rules_text.draw()
        notice, colour = self.notice, theme.WARNING if self.notice_warning else theme.TEXT
        if not notice:
            notice, colour = self.prompt(), theme.TEXT_DIM
        if notice:
            _set_text(self._notice_text, notice, colour, (width / 2, BOTTOM_BAR + CONTROL_ROW + 6))
            self._notice_text.draw()

    def prompt(self) -> str:
        """What to do next, shown under the board when there is no message: a new player needs no manual."""
        if self.watching or self.session.is_over or self._overlay is not None:
            return ""
        if self.asking is not None:
            return "Set the stone aside (S) or keep sowing (K)."
        if self.start_hole() is None:
            return "Click a hole with stones (or Up/Down), then choose a direction. H asks for a hint, F1 the rules."
        return "Choose a direction: the arrows beside the hole, Left/Right, or the buttons. H asks for a hint."

    # -- input ------------------------------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.mouse = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.mouse = (x, y)
        if self._overlay is not None or self._load_panel is not None:
            return None
        if self.scene.is_animating:
            self.scene.finish()
        start = self.start_hole()
        if start is not None and not self.watching and self.asking is None:
            rightwards = self.scene.arrow_at(start, x, y)
            if rightwards is not None:
                self.choose(visual_direction(start, rightwards))
                return True
        hole = hole_at(self.scene.location_at(x, y))
        if hole is not None:
            self.click_hole(hole)
            return True
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        key = arcade.key
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if symbol == key.F11:
            self.toggle_fullscreen()
            return True
        if self.scene.is_animating and symbol != key.ESCAPE:
            self.scene.finish()
            if symbol == key.SPACE:
                return True
        if symbol == key.ESCAPE:
            if self._load_panel is not None:
                self.close_load()
            else:
                self.leave()
        elif ctrl and symbol in (key.S, key.O, key.Y, key.Z):
            {key.S: self.save, key.O: self.show_load, key.Y: self.redo, key.Z: self.undo}[symbol]()
        elif symbol == key.F1:
            self.show_rules()
        elif symbol == key.L:
            self.show_load()
        elif symbol == key.R:
            self.redo()
        elif symbol in (key.LEFT, key.RIGHT):
            start = self.start_hole()
            if start is None:
                self.say("Select a hole first: click one with stones (or Up/Down).", warning=True)
            elif self.asking is None:
                self.choose(visual_direction(start, symbol == key.RIGHT))
        elif symbol in (key.UP, key.DOWN):
            self.step_choice(1 if symbol == key.DOWN else -1)
        elif symbol == key.S and self.asking is not None:
            self.decide(True)
        elif symbol in (key.K, key.ENTER, key.RETURN) and self.asking is not None:
            self.decide(False)
        elif symbol == key.C and self.asking is None:
            self.choose(CW)
        elif symbol == key.A and self.asking is None:
            self.choose(CCW)
        elif symbol == key.U:
            self.undo()
        elif symbol == key.H:
            self.hint()
        elif symbol == key.W:
            self.toggle_watch()
        elif symbol == key.P:
            self.toggle_pause()
        elif symbol == key.E:
            self.end_here()
        elif symbol in (key.PLUS, key.EQUAL, key.NUM_ADD):
            self.faster()
        elif symbol in (key.MINUS, key.NUM_SUBTRACT):
            self.slower()
        else:
            return None
        return True
