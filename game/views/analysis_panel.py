"""The analysis panel of a two-player game screen (key A or the Analysis button): every legal move of the position
on the board with its value in words, best first, as the analysis deepens, and under it the evaluation graph of
the game so far.  It takes the right-hand column in place of the move list while it is shown.

The panel is an arcade Section that only draws and hit-tests; ``game.views.analysis_feed.AnalysisFeed`` holds
the searches.  ``follow(controller, animating)``, called each frame while the panel is shown, points the
analysis at the position the board shows (once its stones have landed; a replayed position too), reads the
latest snapshot, takes the computer's own search scores and keeps the graph's background values coming.

Each move shows its value in the game's units (``game.analysis_words.row_words``: seeds for the sowing games,
the cave's best move's outcome and the others against it) without "proven" (it is marked): a pale
"proven" plate at the row's end (a diamond between name and words when two columns leave no room for the plate),
and on the graph a diamond instead of a dot.  The graph reads from
South's (Black's) side: up is South ahead, the area above the middle line tinted in South's accent and below
in North's; a proven win or loss sits on the edge.  A click on a point calls ``on_pick(index)`` (the view
then shows that position as a paused replay; Shift+Left/Right step there by keyboard); hovering names the point
under the graph.
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable, Sequence

import arcade
import pyglet

from game import theme
from ai.analysis import MoveValue, Point, Snapshot
from game.analysis_words import plies, row_words
from game.evaluation_graph import graph_value
from game.controller import MatchController
from game.scenes.meshes import Mesh, with_alpha
from game.views.analysis_feed import AnalysisFeed, point_words, short_words
from game.views.panels import Ruler

PAD = 14
ROW, SMALL_ROW = 22, 18
"""Pixels between rows of the move list at the body size, and at the small size (a tight two-column list); a
wide panel adds ``2 * grow``."""
WIDE = 360
"""A panel at least this wide (a window of 1600 pixels and more) sets its words a step larger (``grow``)."""
HEADING_ROOM = 30
"""Pixels a panel heading (the label size) takes."""
PLOT_BACK = (22, 18, 16, 255)
MARKER_CLEARANCE = 11
"""Pixels (at scale 1) a move number at the graph's foot keeps from the current move's marker (its ring's radius
and line): a number closer is not shown."""


def panel_width(window_width: int, scale: float = 1.0) -> int:
    """The panel's width: the side panel's 300 pixels, a little more in a wide window; ``scale`` (the window's
    ``theme.type_scale``) times that in a window larger than 1280x720."""
    return round((300 if window_width / scale < 1600 else WIDE) * scale)


class AnalysisPanel(arcade.Section):
    """The move values and the evaluation graph, down the right of the game screen."""

    def __init__(self, game: Any, on_pick: Callable[[int], None], seconds: float | None = None) -> None:
        super().__init__(0, 0, 10, 10, name="analysis-panel", accept_keyboard_keys=False,
                         accept_mouse_events={"on_mouse_press", "on_mouse_motion"},
                         prevent_dispatch_view={"on_mouse_press"})
        self.game = game
        self.on_pick = on_pick
        self.feed = AnalysisFeed(game, seconds)
        self.texts = pyglet.graphics.Batch()
        """Every text of the panel: one draw call."""
        self.heading = theme.text("Analysis", theme.LABEL, theme.ACCENTS[0], batch=self.texts)
        self.status = theme.text("", theme.SMALL, theme.TEXT_DIM, anchor_x="right", batch=self.texts)
        self.subline = theme.text("", theme.SMALL, theme.TEXT_DIM, batch=self.texts)
        self.legend = theme.text("proven", theme.SMALL, theme.TEXT_DIM, anchor_x="right", batch=self.texts)
        self.names: list[arcade.Text] = []
        self.words: list[arcade.Text] = []
        self.tags: list[arcade.Text] = []
        self.more = theme.text("", theme.SMALL, theme.TEXT_DIM, batch=self.texts)
        self.graph_heading = theme.text("Evaluation", theme.LABEL, theme.ACCENTS[0], batch=self.texts)
        self.ahead = [theme.text("", theme.SMALL, accent, anchor_x="right", batch=self.texts)
                      for accent in theme.ACCENTS]
        """Which way is whose, stacked right of the graph's heading (inside the graph the line would cross them)."""
        self.caption = theme.text("", theme.SMALL, theme.TEXT_DIM, batch=self.texts)
        self.ticks = [theme.text("", theme.SMALL, theme.TEXT_DIM, anchor_x="center", batch=self.texts)
                      for _ in range(9)]
        """Move numbers along the graph's foot, every 5, 10, 20... moves (at most nine)."""
        self.states: Sequence[Any] = ()
        self.points: list[Point | None] = []
        self.current = 0
        self.hover: int | None = None
        self._rows: tuple[MoveValue, ...] = ()
        self._lines = ("", "")
        self._waiting = False
        self.details = False
        """The Details setting: the search's depth, nodes and speed for engine developers (off: words only)."""
        self._ruler = Ruler()
        self.plot = (0.0, 0.0, 1.0, 1.0)
        """The graph's rectangle (left, bottom, width, height)."""
        self._drawn: tuple | None = None
        self._shapes: arcade.shape_list.ShapeElementList | None = None

    # -- what it shows ----------------------------------------------------------------------------------------
    def follow(self, controller: MatchController, animating: bool) -> None:
        """Analyse the position the board shows and take in what the searches found (each frame, never waits)."""
        session = controller.session
        self.details = controller.details
        # The computer's own search keeps the machine (two cores, shared with the window) to itself: it plays as
        # strongly with the panel shown as without.  Its score becomes the position's point on the graph.
        self._waiting = controller.worker is not None or controller.pending_move is not None
        if self._waiting:
            self.feed.stop()
        elif not animating:
            self.feed.shelf = controller.analyses  # the hint asked on this position reads the same analysis
            self.feed.follow(controller.board_state)
        snapshot = self.feed.poll()
        self.feed.note_computer(controller.computer_result)  # its score when it moved
        if not self._waiting:
            self.feed.fill(session.states)
        self.states = session.states
        self.points = self.feed.points(session.states)
        current = min(controller.board_index, len(session.states) - 1)
        if current != self.current:
            self.hover = None  # the board moved (a replay ended, a move landed): the caption follows it
        self.current = current
        self._show_moves(snapshot)

    def stop(self) -> None:
        """Cancel every search (the panel closes, the screen is left)."""
        self.feed.stop()

    scale = 1.0
    """The window's type scale (``theme.type_scale``): every size and length of the panel grows with it."""

    def place(self, left: int, bottom: int, width: int, height: int, shown: bool, scale: float = 1.0) -> None:
        """Put the panel there, shown or not (hidden, its searches stop), its words ``scale`` times larger."""
        self.left, self.bottom, self.width, self.height = left, bottom, max(10, width), max(10, height)
        self.scale = scale
        self.enabled = shown
        if not shown:
            self.stop()

    def _show_moves(self, snapshot: Snapshot | None) -> None:
        """The status (right of the heading) and the line under it, kept whole in ``_lines`` (``_place`` cuts the
        line to the panel's width), and the rows to list."""
        state = self.feed.state
        names = self.game.player_names
        status = ""
        if state is None:
            line = "Waiting for the computer's move." if self._waiting else "Waiting for the stones to land."
        elif self.feed.error:
            line = "No analysis: " + self.feed.error
        elif self.game.is_terminal(state):
            line = "The game is over: no moves to weigh."
        else:
            line = f"{names[self.game.to_move(state)]}'s moves, best first"
            if snapshot is None:
                status = "thinking..."
            elif snapshot.error:
                status, line = "failed", "The analysis failed: " + snapshot.error
            elif not self.details:  # a player's words: whether it is still thinking
                status = "done" if snapshot.finished else "thinking..."
            elif snapshot.depth == 0:
                status = "done" if snapshot.finished else "searching"
            else:
                depth = plies(snapshot.depth)
                speed = f", {snapshot.nodes / snapshot.seconds / 1000:,.0f}k nodes/s" if snapshot.seconds > 0 else ""
                status = (depth if snapshot.finished else f"{depth}, searching") + speed
        self._lines = status, line
        rows: tuple[MoveValue, ...] = snapshot.moves if snapshot is not None and state is not None else ()
        self._rows = rows

    # -- geometry ---------------------------------------------------------------------------------------------
    @property
    def grow(self) -> int:
        """Points added to the type scale's sizes in a wide panel."""
        return 2 if self.width >= WIDE * self.scale else 0

    def style(self, base: theme.TypeStyle) -> theme.TypeStyle:
        return theme.sized(base, round((base.size + self.grow * (2 if base is theme.LABEL else 1)) * self.scale))

    def _px(self, length: float) -> float:
        """A length of the panel's design (pixels in a 1280x720 window) in this window's pixels."""
        return length * self.scale

    def _apply_sizes(self) -> None:
        for text, base in ((self.heading, theme.LABEL), (self.graph_heading, theme.LABEL), (self.status, theme.SMALL),
                           (self.subline, theme.SMALL), (self.legend, theme.SMALL), (self.more, theme.SMALL),
                           (self.caption, theme.SMALL), *((text, theme.SMALL) for text in (*self.ahead, *self.ticks)),
                           *((text, theme.SMALL) for text in self.tags)):
            size = self.style(base).size
            if text.font_size != size:
                text.font_size = size

    def _graph_height(self) -> float:
        """The graph takes what the move list leaves (room for six rows at least), within limits."""
        u = self._px
        fixed = u(2 * PAD + 2 * (HEADING_ROOM + 2 * self.grow) + 2 * (22 + self.grow) + 14)
        rows = max(6, len(self._rows)) * u(ROW + 2 * self.grow)
        return max(u(64.0), min(self.height * 0.45, u(340.0), self.height - fixed - rows))

    def _list_room(self) -> tuple[float, float]:
        """The move list's top and bottom."""
        u = self._px
        top = self.top - u(PAD + HEADING_ROOM + 22 + 3 * self.grow)
        bottom = self.bottom + u(PAD + 22 + self.grow) + self._graph_height() + u(HEADING_ROOM + 2 * self.grow + 14)
        return top, bottom

    def _row_plan(self, count: int) -> tuple[int, int, float, theme.TypeStyle]:
        """(columns, rows per column, row pitch, type) for ``count`` moves: one column at the body size when they
        fit, else two, at the small size if need be (the rest then summed up in a line)."""
        top, bottom = self._list_room()
        room = max(0.0, top - bottom)
        u = self._px
        row, small_row, grow = u(ROW + 2 * self.grow), u(SMALL_ROW + 2 * self.grow), u(self.grow)
        body, small = self.style(theme.BODY), self.style(theme.SMALL)
        for columns, pitch, style in ((1, row, body), (2, row, body), (2, small_row, small)):
            per = max(1, int(room // pitch))
            if per * columns >= count:
                return columns, per, pitch, style
        return 2, max(1, int((room - small_row - grow) // small_row)), small_row, small

    def _text_pool(self, count: int) -> None:
        while len(self.names) < count:
            self.names.append(theme.text("", theme.BODY, theme.TEXT, anchor_y="center", batch=self.texts))
            self.words.append(theme.text("", theme.BODY, theme.TEXT, anchor_y="center", batch=self.texts))
            self.tags.append(theme.text("", theme.SMALL, theme.TABLE, anchor_x="center", anchor_y="center",
                                        batch=self.texts))

    def point_x(self, index: int) -> float:
        left, _, width, _ = self.plot
        count = max(2, len(self.states))
        return left + 8 + (width - 16) * index / (count - 1)

    def index_at(self, x: float, y: float) -> int | None:
        """The position whose graph point is nearest ``(x, y)`` (None: outside the graph)."""
        left, bottom, width, height = self.plot
        if not self.states or not (left - 6 <= x <= left + width + 6 and bottom - 6 <= y <= bottom + height + 6):
            return None
        count = max(2, len(self.states))
        index = round((x - left - 8) / max(1.0, width - 16) * (count - 1))
        return max(0, min(len(self.states) - 1, index))

    # -- input ------------------------------------------------------------------------------------------------
    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        index = self.index_at(x, y)
        if index is not None:
            self.on_pick(index)
        return True

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.hover = self.index_at(x, y)

    def on_mouse_leave(self, x: int, y: int) -> None:
        self.hover = None  # the pointer is elsewhere: the caption names the position shown

    # -- drawing ----------------------------------------------------------------------------------------------
    def on_draw(self) -> None:
        rows = self._rows
        key = (self.left, self.bottom, self.width, self.height, rows, tuple(self.points), self.current, self.hover,
               self._lines)
        if key != self._drawn:
            self._drawn = key
            self._place(rows)
        assert self._shapes is not None
        self._shapes.draw()
        self.texts.draw()

    def _place(self, rows: Sequence[MoveValue]) -> None:
        mesh = Mesh()
        mesh.rectangle(self.left, self.bottom, self.width, self.height, theme.PANEL)
        mesh.rectangle(self.left - 1, self.bottom, 2, self.height, theme.PANEL_EDGE)
        u = self._px
        x, right = self.left + u(PAD), self.right - u(PAD)
        self._apply_sizes()
        grow = self.grow
        self.heading.position = x, self.top - u(PAD + 22 + 2 * grow)
        self.status.position = right, self.top - u(PAD + 20 + 2 * grow)
        self.subline.position = x, self.top - u(PAD + HEADING_ROOM + 14 + 3 * grow)
        self.legend.position = right, self.top - u(PAD + HEADING_ROOM + 14 + 3 * grow)
        self.legend.text = "proven" if any(row.proven for row in rows) else ""
        if self.legend.text:
            _diamond(mesh, self.legend.left - u(9), self.legend.y + u(4), u(5), theme.PROVEN)
        self.status.text, line = self._lines
        room = (self.legend.left - u(20) if self.legend.text else right) - x
        while self._ruler.width(line, self.style(theme.SMALL)) > room and len(line) > 4:
            line = line[:-4] + "..."
        self.subline.text = line
        self._place_rows(mesh, rows)
        self._place_graph(mesh)
        self._shapes = mesh.build()

    def _place_rows(self, mesh: Mesh, rows: Sequence[MoveValue]) -> None:
        """The move list: each text changed only where its words, place, weight or colour differ."""
        u = self._px
        columns, per, pitch, style = self._row_plan(len(rows))
        shown = min(len(rows), columns * per)
        self._text_pool(len(rows))
        top, _ = self._list_room()
        column_width = (self.width - u(2 * PAD + (columns - 1) * 10)) / columns
        for index in range(shown, len(self.names)):
            self.names[index].text = self.words[index].text = self.tags[index].text = ""
        name_width = max((self._ruler.width(row.name, style, True) for row in rows[:shown]), default=0.0)
        tag_room = self._ruler.width("proven", self.style(theme.SMALL)) + u(26)
        marks = columns > 1 and any(row.proven for row in rows[:shown])
        # two columns leave no room for tags: a diamond between name and words marks a proven value
        name_room = name_width + u(22 if marks else 10)
        # a tight column drops "about" from every row if one row needs it ("+3.5" says "about +3.5")
        untagged = column_width - name_room - u(12)
        said = [short_words(row_words(self.game, rows, index, self.feed.state, self.details))
                for index in range(shown)]  # the depth only with Details; "proven" is a tag or a diamond
        terse = any(self._ruler.width(said[index], style) > untagged - (tag_room - u(12)) * (
            row.proven and columns == 1) for index, row in enumerate(rows[:shown]))
        for index, row in enumerate(rows[:shown]):
            column, line = divmod(index, per)
            left = self.left + u(PAD) + column * (column_width + u(10))
            middle = top - (line + 0.5) * pitch
            name, words, tag = self.names[index], self.words[index], self.tags[index]
            scored = not math.isnan(row.score)
            tagged = row.proven and columns == 1
            room = column_width - name_room - (tag_room if tagged else u(12))
            text = said[index]
            if terse:  # "about 3 seeds ahead" -> "+3 seeds", "about 1 seed behind" -> "-1 seed"
                text = terse_words(text)
            while self._ruler.width(text, style) > room and len(text) > 4:
                text = text[:-4] + "..."
            for item in (name, words):
                if item.font_size != style.size:
                    item.font_size = style.size
            if name.bold != (index == 0):
                name.bold = index == 0
            colour = theme.TEXT if scored else theme.TEXT_DIM
            if tuple(words.color) != colour:
                words.color = colour
            name.text, words.text, tag.text = row.name, text, "proven" if tagged else ""
            name.position = left + u(2), middle
            words.position = left + name_room, middle
            if index == 0 and scored:  # the best move on a plate of the mover's colour
                state = self.feed.state
                accent = theme.ACCENTS[self.game.to_move(state)] if state is not None else theme.TEXT
                mesh.rounded_rectangle(left - u(4), middle - pitch / 2 + 1, column_width + u(8), pitch - 2, u(5),
                                       with_alpha(accent, 55))
            if tagged:  # in a column at the row's right end
                tag.position = left + column_width - u(10) - tag.content_width / 2, middle
                half = tag.content_height / 2 + 1
                mesh.rounded_rectangle(tag.left - u(6), middle - half, tag.content_width + u(12), 2 * half, u(6),
                                       theme.PROVEN)
            elif row.proven:
                _diamond(mesh, left + name_width + u(13), middle, u(4), theme.PROVEN)
        hidden = len(rows) - shown
        self.more.text = f"and {hidden} more moves" if hidden > 0 else ""
        self.more.position = self.left + u(PAD), top - per * pitch - u(14 + self.grow)

    def _place_graph(self, mesh: Mesh) -> None:
        names, u = self.game.player_names, self._px
        x = self.left + u(PAD)
        height = self._graph_height()
        bottom = self.bottom + u(PAD + 22 + self.grow)
        self.plot = (x, bottom, self.width - u(2 * PAD), height)
        left, _, width, _ = self.plot
        self.graph_heading.position = x, bottom + height + u(10)
        mesh.rounded_rectangle(left, bottom, width, height, u(6), PLOT_BACK)
        middle = bottom + height / 2
        self.ahead[0].text, self.ahead[1].text = f"\u25b2 {names[0]} ahead", f"\u25bc {names[1]} ahead"
        self.ahead[0].position = left + width, bottom + height + u(25 + 2 * self.grow)
        self.ahead[1].position = left + width, bottom + height + u(7)
        located = [(self.point_x(i), middle + graph_value(self.game, p.score, p.proven) * (height / 2 - u(8)), p)
                   if p is not None else None for i, p in enumerate(self.points)]
        for first, second in zip(located, located[1:]):  # the areas, then the line between known points
            if first is not None and second is not None:
                _area(mesh, first[:2], second[:2], middle)
        mesh.rectangle(left + 4, middle - 0.5, width - 8, 1, with_alpha(theme.TEXT_DIM, 110))
        cx = self.point_x(self.current)
        step = next(step for step in (5, 10, 20, 50, 100, 1000) if len(self.states) // step <= len(self.ticks))
        for label, index in zip(self.ticks, [*range(step, len(self.states), step), *[None] * len(self.ticks)]):
            label.text = "" if index is None else str(index)  # a faint line and its move number at the foot
            if index is not None:
                mesh.rectangle(self.point_x(index) - 0.5, bottom + 3, 1, height - 6, with_alpha(theme.TEXT_DIM, 45))
                label.position = self.point_x(index), bottom + u(4)
                if abs(label.x - cx) < label.content_width / 2 + u(MARKER_CLEARANCE):
                    label.text = ""  # beside the current move's marker the number would touch it: the line stays
        for first, second in zip(located, located[1:]):
            if first is not None and second is not None:
                mesh.polyline([first[:2], second[:2]], u(2), theme.TEXT)
        mesh.rectangle(cx - u(1), bottom + 3, u(2), height - 6, with_alpha(theme.LAST_MOVE, 120))
        for index, point in enumerate(located):
            if point is None:
                mesh.ellipse(self.point_x(index), middle, u(2), u(2), [with_alpha(theme.TEXT_DIM, 160)] * 2,
                             segments=10)
                continue
            px, py, value = point
            big = index in (self.current, self.hover)
            if value.proven:
                _diamond(mesh, px, py, u(6 if big else 5), theme.PROVEN)
            else:
                mesh.ellipse(px, py, u(4 if big else 3), u(4 if big else 3), [theme.TEXT, theme.TEXT], segments=12)
            if big:
                mesh.ring(px, py, u(9), u(9), u(2), theme.LAST_MOVE if index == self.current else theme.ACCENTS[0])
        shown = self.hover if self.hover is not None else self.current
        self.caption.position = x, self.bottom + u(PAD + 4)
        caption = self._caption(shown)
        while self._ruler.width(caption, self.style(theme.SMALL)) > width and len(caption) > 4:
            caption = caption[:-4] + "..."
        self.caption.text = caption

    def _caption(self, index: int) -> str:
        """The line under the graph: the hovered (or shown) point's position and value in words."""
        if not self.states:
            return ""
        value = point_words(self.game, self.points[index] if index < len(self.points) else None,
                            self.states[index] if index < len(self.states) else None)
        if index == 0:
            return f"Start: {value}"
        return f"Move {index}: {value}"


def terse_words(words: str) -> str:
    """A value's words made short for a narrow column: ``about 3 seeds ahead`` -> ``+3 seeds``, ``about 1 seed
    behind`` -> ``-1 seed``, ``about even`` -> ``even``; other words as they are."""
    found = re.fullmatch(r"about (\d+) (\w+) (ahead|behind)", words)
    if found:
        return f"{'+' if found.group(3) == 'ahead' else '-'}{found.group(1)} {found.group(2)}"
    return words.replace("about ", "")


def _diamond(mesh: Mesh, x: float, y: float, radius: float, colour: theme.Color) -> None:
    """A diamond with a dark edge (a proven value)."""
    edge = radius + 1.5
    mesh.quad((x, y - edge), (x + edge, y), (x, y + edge), (x - edge, y), theme.TABLE)
    mesh.quad((x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y), colour)


def _area(mesh: Mesh, first: tuple[float, float], second: tuple[float, float], middle: float) -> None:
    """The area between the line from ``first`` to ``second`` and the middle, in the accent of the side ahead
    (split where the line crosses the middle)."""
    (x1, y1), (x2, y2) = first, second
    if (y1 - middle) * (y2 - middle) < 0:
        cross = x1 + (x2 - x1) * (middle - y1) / (y2 - y1)
        _area(mesh, first, (cross, middle), middle)
        _area(mesh, (cross, middle), second, middle)
        return
    above = (y1 + y2) / 2 >= middle
    colour = with_alpha(theme.ACCENTS[0 if above else 1], 70)
    mesh.quad((x1, middle), (x2, middle), (x2, y2), (x1, y1), colour)
