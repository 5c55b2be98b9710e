"""The review screen: a game's evaluation graph with its turning points marked, the list of turning points, the board
of the one chosen (the move played outlined, the best move glowing) and "Play on from here" against the computer.

The review (``game.review.ReviewRun``) runs in a daemon thread and is polled each frame (never waited on); the
graph and the list fill in as it goes, with a progress line.  Keys: Up/Down choose a turning point, Enter shows its
board, P plays on from it, Escape cancels the review and leaves.  A click on a list row or on the graph shows that
position.  Everything is laid out from the window's size (``theme.type_scale``) on every resize.

Reached from the game-over panel of every two-player game (``open_review`` with the match) and from the Load
screen's "Review" beside each save and game in progress.
"""
from __future__ import annotations

from typing import Any, Sequence

import arcade
import arcade.gui

from game import catalogue, theme
from game.context import AppContext
from game.review import DEFAULT_SECONDS, Budget, Judged, Review, ReviewRun, SeriesPoint
from game.review_words import accuracy_words, move_words
from game.session import Session
from game.savegame import Seat
from game.views.base import MenuView, heading_band, message_band
from game.views.widgets import fit_font
from rules import Game, Move, State

GRADE_COLOURS = {"inaccuracy": theme._rgb("#E0C458"), "mistake": theme._rgb("#E09A4F"),
                 "blunder": theme.WARNING}
GRADE_SIZES = {"inaccuracy": 4.0, "mistake": 6.0, "blunder": 8.0}
"""A mark's radius by grade (so the grade reads by size as well as colour)."""
GRAPH_HALF = 4.0
"""Seeds at which the graph is half way to its edge (as the analysis panel's graph)."""


class ReviewBoard:
    """The game's board scene showing one position, with a move outlined and another glowing."""

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        if catalogue.registration(game).scene == "cave":
            from game.scenes.cave_scene import CaveScene

            self.scene: Any = CaveScene(game)  # type: ignore[arg-type]
            self.spec = None
        else:
            from game.scenes.sowing_board import BoardSpec
            from game.scenes.sowing_scene import SowingScene

            self.spec = BoardSpec.of(game, state)
            self.scene = SowingScene(self.spec, words=True)
        self.state = state

    def show(self, state: State) -> None:
        self.state = state
        self.scene.show(state if self.spec is None else self.spec.counts(state))

    def location(self, state: State, move: Move) -> int:
        if self.spec is None:
            return int(move)  # type: ignore[call-overload]
        return int(self.spec.move_location(self.game.to_move(state), move))


def fit_height(text: arcade.Text, height: float, size: int, smallest: int = 9) -> None:
    """``text`` at ``size`` points, or smaller until its wrapped lines fit ``height`` pixels."""
    text.font_size = size
    while text.content_height > height and text.font_size > smallest:
        text.font_size -= 1


def graph_value(point: SeriesPoint) -> float:
    """-1..1 for drawing, the first player's view."""
    if point.margin is not None:
        return point.margin / (abs(point.margin) + GRAPH_HALF)
    return 2 * point.points - 1


class ReviewView(MenuView):
    """Review one game; ``back`` is the screen Escape returns to (None: the Load screen)."""

    heading = "Review"

    def __init__(self, context: AppContext, game: Game, states: Sequence[State], moves: Sequence[Move],
                 back: arcade.View | None = None, budget: Budget | None = None, title: str = "") -> None:
        self.game, self.states, self.moves = game, tuple(states), tuple(moves)
        self.return_to = back
        self.run = ReviewRun(game, self.states, self.moves, budget or Budget(seconds=DEFAULT_SECONDS))
        self.progress = self.run.poll()
        self.title = title or game.title
        self.cursor = -1
        """The turning point the keys are on (-1: none yet)."""
        self.selected: int | None = None
        """The position shown on the board (its index in ``states``)."""
        self.first_row = 0
        self.board = ReviewBoard(game, self.states[0])
        self.texts: dict[str, arcade.Text] = {}
        self.rows: list[tuple[arcade.Text, Judged]] = []
        self.drawn_texts: list[arcade.Text] = []
        """Every text the screen draws (the layout checks of ``game.views.layout`` read them)."""
        self.geometry: dict[str, tuple[float, float, float, float]] = {}
        self.play_on_button: arcade.gui.UIFlatButton | None = None
        super().__init__(context)
        self.show_position(0)

    # -- layout -------------------------------------------------------------------------------------------------
    @property
    def scale(self) -> float:
        return theme.type_scale(self.window.width, self.window.height)

    def layout(self) -> dict[str, tuple[float, float, float, float]]:
        """(left, bottom, width, height) of each part, from the window's size."""
        width, height = self.window.width, self.window.height
        scale = self.scale
        top = height - heading_band(height, scale)
        left, bottom, room = 20.0, message_band(scale), width - 40.0
        summary = 3 * theme.BODY.size * scale * 1.6
        body_top = top - summary - 8
        left_width = room * 0.56
        right_left = left + left_width + 20
        right_width = room - left_width - 20
        graph_height = max(60.0, (body_top - bottom) * 0.32)
        buttons = 44 * scale
        detail = 4 * theme.BODY.size * scale * 1.6
        list_bottom = bottom + buttons + 10 + detail + 8
        return {
            "summary": (left, top - summary, room, summary),
            "graph": (left, body_top - graph_height, left_width, graph_height),
            "board": (left, bottom, left_width, max(60.0, body_top - graph_height - 12 - bottom)),
            "list": (right_left, list_bottom, right_width, max(40.0, body_top - list_bottom)),
            "detail": (right_left, bottom + buttons + 10, right_width, detail),
            "buttons": (right_left, bottom, right_width, buttons),
        }

    def build(self) -> None:
        with theme.scaled_ui(1.0):  # this screen sizes its words and lengths by ``scale`` itself: once, not twice
            self._build()

    def _build(self) -> None:
        self.geometry = geometry = self.layout()
        scale = self.scale
        body = theme.sized(theme.BODY, round(theme.BODY.size * scale))
        left, bottom, width, height = geometry["summary"]
        self.texts = {
            "summary": theme.text("", body, theme.TEXT, round(left), round(bottom + height), anchor_y="top",
                                  multiline=True, width=int(width)),
            "detail": theme.text("", body, theme.TEXT, round(geometry["detail"][0]),
                                 round(geometry["detail"][1] + geometry["detail"][3]), anchor_y="top", multiline=True,
                                 width=int(geometry["detail"][2])),
            "list_title": theme.text("Turning points", theme.sized(theme.LABEL, round(16 * scale)), theme.ACCENTS[0],
                                     round(geometry["list"][0] + 8), round(geometry["list"][1] + geometry["list"][3] - 4),
                                     anchor_y="top"),
        }
        small = theme.sized(theme.SMALL, round(theme.SMALL.size * scale))
        g_left, g_bottom, g_width, g_height = geometry["graph"]
        names = self.game.player_names
        self.texts["graph_top"] = theme.text(f"{names[0]} ahead", small, theme.TEXT_DIM, round(g_left + 6),
                                             round(g_bottom + g_height - 4), anchor_y="top")
        self.texts["graph_bottom"] = theme.text(f"{names[1]} ahead", small, theme.TEXT_DIM, round(g_left + 6),
                                                round(g_bottom + 4), anchor_y="bottom")
        l_left, l_bottom, _, l_height = geometry["list"]
        self.texts["empty"] = theme.text("", body, theme.TEXT_DIM, round(l_left + 10),
                                         round(l_bottom + l_height - 16 * scale * 1.6 - 6 - self.row_height / 2),
                                         anchor_y="center")
        self.board.scene.set_rect(*geometry["board"])
        self.rows = []
        b_left, b_bottom, b_width, b_height = geometry["buttons"]
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=12)
        button_width = (b_width - 12) / 2
        self.play_on_button = theme.button("Play on from here", width=button_width, height=b_height, size=body)
        back = theme.button("Back", width=button_width, height=b_height, size=body)
        for button, action in ((self.play_on_button, self.play_on), (back, self.back)):
            fit_font(button)
            row.add(self.on_click(button, action))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(row, anchor_x="left", anchor_y="bottom", align_x=b_left, align_y=b_bottom)
        self.ui.add(anchor)
        self.refresh()

    # -- the review's progress ----------------------------------------------------------------------------------
    @property
    def review(self) -> Review:
        return self.progress.review

    def on_update(self, delta_time: float) -> None:
        was = (self.progress.done, self.progress.finished)
        self.progress = self.run.poll()
        if (self.progress.done, self.progress.finished) != was:
            if self.progress.finished and self.cursor < 0 and self.review.turning_points:
                self.choose(0)
            self.refresh()
        self.board.scene.update(delta_time)

    def refresh(self) -> None:
        """The texts from the review so far."""
        if not self.texts:
            return
        progress, game = self.progress, self.game
        if progress.error:
            state_line = f"The review stopped: {progress.error}"
        elif not progress.finished:
            state_line = f"Reviewing {self.title}: move {min(progress.done + 1, progress.total)} of {progress.total}" \
                         f"... (Escape stops)"
        elif progress.cancelled:
            state_line = f"Review stopped after {progress.done} of {progress.total} moves."
        else:
            points = len(self.review.turning_points)
            state_line = f"{self.title}: {points} turning point{'' if points == 1 else 's'} in {progress.total} moves."
        lines = [state_line] + [accuracy_words(game, summary) for summary in self.review.players]
        self.texts["summary"].text = "\n".join(lines)
        fit_height(self.texts["summary"], self.geometry["summary"][3], round(theme.BODY.size * self.scale))
        self._fit_rows()
        self._show_detail()

    def _fit_rows(self) -> None:
        scale = self.scale
        body = theme.sized(theme.BODY, round(theme.BODY.size * scale))
        left, bottom, width, height = self.geometry["list"]
        title_height = 16 * scale * 1.6 + 6
        row_height = self.row_height
        room = int((height - title_height) // row_height)
        points = self.review.turning_points
        if self.cursor >= 0:
            self.first_row = min(max(self.first_row, self.cursor - room + 1), self.cursor)
        self.first_row = max(0, min(self.first_row, max(0, len(points) - room)))
        self.rows = []
        top = bottom + height - title_height
        for offset, judged in enumerate(points[self.first_row:self.first_row + max(0, room)]):
            who = self.game.player_names[judged.player]
            words = f"Move {judged.index + 1}, {who}: {judged.name}, {judged.grade}"
            text = theme.text(words, body, GRADE_COLOURS[judged.grade or "inaccuracy"], left + 10,
                              round(top - (offset + 0.5) * row_height), anchor_y="center")
            while text.content_width > width - 20 and len(words) > 8:
                words = words[:-4] + "..."
                text.text = words
            self.rows.append((text, judged))
        empty = "None yet..." if not self.progress.finished else "None: no move lost an inaccuracy's worth."
        self.texts["empty"].text = "" if points else empty
        self.drawn_texts = [*self.texts.values(), *(text for text, _ in self.rows)]

    @property
    def row_height(self) -> float:
        return theme.BODY.size * self.scale * 2.1

    def _show_detail(self) -> None:
        text = self.texts["detail"]
        judged = self._judged_at(self.selected)
        if self.selected is None:
            text.text = ""
        elif judged is not None:
            text.text = move_words(self.game, judged) + "."
        elif self.selected >= len(self.moves):
            text.text = "The final position."
        else:
            text.text = f"The position before move {self.selected + 1}" + \
                        ("" if self.progress.finished else " (not reviewed yet)") + "."
        fit_height(text, self.geometry["detail"][3], round(theme.BODY.size * self.scale))
        if self.play_on_button is not None:
            self.play_on_button.disabled = not self.can_play_on

    def _judged_at(self, index: int | None) -> Judged | None:
        if index is None or index >= len(self.review.judged):
            return None
        return self.review.judged[index]

    # -- choosing -----------------------------------------------------------------------------------------------
    def choose(self, row: int) -> None:
        """Put the keys' cursor on turning point ``row`` and show its board."""
        points = self.review.turning_points
        if not points:
            return
        self.cursor = row % len(points)
        self.show_position(points[self.cursor].index)
        self._fit_rows()

    def show_position(self, index: int) -> None:
        self.selected = max(0, min(index, len(self.states) - 1))
        self.board.show(self.states[self.selected])
        if self.texts:
            self._show_detail()

    @property
    def can_play_on(self) -> bool:
        return self.selected is not None and not self.game.is_terminal(self.states[self.selected])

    def play_on(self) -> None:
        """A new game from the position shown, the side to move played by the player, the other by the computer
        (the Settings' opponent); practice, so Statistics do not count it."""
        if not self.can_play_on or self.selected is None:
            self.message("Choose a position before the end of the game to play on from it.", warning=True)
            return
        state = self.states[self.selected]
        settings = self.context.settings
        mover = self.game.to_move(state)
        computer = Seat(settings.engine_spec(self.game, "opponent"), float(settings.get("think_time")))
        seats = tuple(Seat() if player == mover else computer for player in range(self.game.num_players))
        session = Session(self.game, seats, state)
        if self.context.statistics is not None:
            self.context.statistics.mark_recorded(session)  # practice from a position: not a game for Statistics
        self.run.cancel()
        self.context.show_match(session)

    def cancel_search(self) -> None:
        """Stop the review's thread (leaving the screen, quitting the window); returns at once."""
        self.run.cancel()

    def on_hide_view(self) -> None:
        self.run.cancel()  # whichever way the screen is left, its analysis stops
        super().on_hide_view()

    def back(self) -> None:
        """Escape or Back: the review stops, and the screen it came from comes back."""
        self.run.cancel()
        if self.return_to is not None:
            self.context.show(self.return_to)
        else:
            self.context.show_load()

    def default_action(self) -> None:
        """Enter: show the board of the turning point the keys are on."""
        if self.cursor >= 0:
            self.choose(self.cursor)
        elif self.review.turning_points:
            self.choose(0)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        key = arcade.key
        points = self.review.turning_points
        if symbol in (key.UP, key.DOWN) and points:
            self.focus = None  # the keys are on the list now, not on a button
            self.cursor = (self.cursor + (1 if symbol == key.DOWN else -1)) % len(points) if self.cursor >= 0 else 0
            self._fit_rows()
            return True
        if symbol in (key.ENTER, key.RETURN, key.NUM_ENTER) and self.focus not in self.focusable():
            self.default_action()
            return True
        if symbol == key.P:
            self.play_on()
            return True
        return super().on_key_press(symbol, modifiers)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        for text, judged in self.rows:
            left, _, width, _ = self.geometry["list"]
            if left <= x <= left + width and abs(y - text.y) <= self.row_height / 2:
                self.choose(self.review.turning_points.index(judged))
                return True
        g_left, g_bottom, g_width, g_height = self.geometry.get("graph", (0, 0, 0, 0))
        if g_left <= x <= g_left + g_width and g_bottom <= y <= g_bottom + g_height and len(self.states) > 1:
            index = round((x - g_left) / g_width * (len(self.states) - 1))
            self.show_position(index)
            return True
        return super().on_mouse_press(x, y, button, modifiers)

    def scroll(self, steps: int, x: float, y: float) -> bool:
        self.first_row = max(0, self.first_row + steps)
        self._fit_rows()
        return True

    # -- drawing ------------------------------------------------------------------------------------------------
    def on_draw_before_ui(self) -> None:
        super().on_draw_before_ui()
        self.texts["summary"].draw()
        self._draw_graph()
        self._draw_board()
        self._draw_list()
        self.texts["detail"].draw()

    def _draw_board(self) -> None:
        judged = self._judged_at(self.selected)
        outlines, highlights = {}, {}
        if judged is not None and self.selected is not None:
            state = self.states[self.selected]
            outlines[self.board.location(state, judged.move)] = theme.LAST_MOVE
            if judged.best_move != judged.move:
                best = self.board.location(state, judged.best_move)
                highlights[best] = theme.HINT
                outlines[best] = theme.HINT
        self.board.scene.draw(highlights, outlines)

    def _graph_xy(self, index: int, value: float) -> tuple[float, float]:
        left, bottom, width, height = self.geometry["graph"]
        steps = max(1, len(self.states) - 1)
        return left + width * index / steps, bottom + height / 2 + value * (height / 2 - 6)

    def _draw_graph(self) -> None:
        left, bottom, width, height = self.geometry["graph"]
        arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, theme.PANEL)
        arcade.draw_lbwh_rectangle_outline(left, bottom, width, height, theme.PANEL_EDGE, 1)
        arcade.draw_line(left, bottom + height / 2, left + width, bottom + height / 2, theme.TEXT_DIM[:3] + (90,), 1)
        self.texts["graph_top"].draw()
        self.texts["graph_bottom"].draw()
        previous: tuple[float, float] | None = None
        for index, point in enumerate(self.review.series):
            if point is None:
                previous = None
                continue
            here = self._graph_xy(index, graph_value(point))
            if previous is not None:
                arcade.draw_line(*previous, *here, theme.ACCENTS[0], 2)
            previous = here
        series = self.review.series
        for judged in self.review.turning_points:
            point = series[judged.index]
            if point is None:
                continue
            x, y = self._graph_xy(judged.index, graph_value(point))
            radius = GRADE_SIZES[judged.grade or "inaccuracy"] * min(self.scale, 1.5)
            arcade.draw_circle_filled(x, y, radius, GRADE_COLOURS[judged.grade or "inaccuracy"])
            arcade.draw_circle_outline(x, y, radius, theme.TABLE, 1)
        if self.selected is not None:
            x, _ = self._graph_xy(self.selected, 0)
            arcade.draw_line(x, bottom, x, bottom + height, theme.ACCENTS[1], 2)

    def _draw_list(self) -> None:
        left, bottom, width, height = self.geometry["list"]
        arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, theme.PANEL)
        self.texts["list_title"].draw()
        points = self.review.turning_points
        for text, judged in self.rows:
            row = points.index(judged)
            colour = theme.BUTTON_HOVER if judged.index == self.selected else theme.BUTTON
            arcade.draw_lbwh_rectangle_filled(left + 4, text.y - self.row_height / 2 + 1, width - 8,
                                              self.row_height - 2, colour)
            if row == self.cursor:
                arcade.draw_lbwh_rectangle_outline(left + 4, text.y - self.row_height / 2 + 1, width - 8,
                                                   self.row_height - 2, theme.ACCENTS[1], 2)
            text.draw()
        self.texts["empty"].draw()


def open_review(context: AppContext, game: Game, states: Sequence[State], moves: Sequence[Move],
                back: arcade.View | None = None, title: str = "", budget: Budget | None = None) -> str | None:
    """Show the review of a game; a message instead when it cannot be reviewed (a puzzle, no move yet)."""
    if game.num_players != 2:
        return f"{game.title} is a puzzle for one player: a review is for the two-player games."
    if not moves:
        return "Nothing to review yet: no move has been played."
    context.show(ReviewView(context, game, states, moves, back, budget, title))
    return None

