"""The panels of the game screen, as arcade Sections: the top bar and the right-hand move list.

They only draw; what they show comes from the view each frame through ``show`` calls, which re-lay text out
only when it changed (laying out text is the expensive part of drawing it; ``Ruler`` measures words on a text of
its own, so a panel can fit its words before it sets them).  Each panel's background is a mesh
built when the panel moves and its texts are one pyglet batch, so a panel costs two draw calls a frame.
"""
from __future__ import annotations

from typing import Any

import arcade
import arcade.gui
import pyglet

from game import theme
from game.explain import trim_list
from game.scenes.meshes import Mesh

TOP_BAR = 64
SIDE_PANEL = 300
BOTTOM_BAR = 78


def _set(text: arcade.Text, value: str) -> None:
    if text.text != value:
        text.text = value


class Ruler:
    """How wide words are set in a style: measured once on a text of its own, outside the panel's batch (changing a
    batched text re-lays it out, the costly part of drawing text), then remembered."""

    def __init__(self) -> None:
        self._text = theme.text("", theme.BODY)
        self._known: dict[tuple[str, int, bool], float] = {}

    def width(self, content: str, style: theme.TypeStyle, bold: bool = False) -> float:
        key = (content, style.size, bold)
        width = self._known.get(key)
        if width is None:
            if len(self._known) > 4000:
                self._known.clear()
            text = self._text
            if text.font_size != style.size:
                text.font_size = style.size
            if text.bold != bold:
                text.bold = bold
            text.text = content
            width = self._known[key] = text.content_width
        return width


class _Panel(arcade.Section):
    """A section with a cached background and one batch of texts, placed again only when it moves."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.batch = pyglet.graphics.Batch()
        self._placed: tuple[float, float, float, float] | None = None
        self._background: arcade.shape_list.ShapeElementList | None = None
        self._texts_changed = False
        """A text changed since the last ``place``: texts that share the room are placed again."""

    def background(self, mesh: Mesh) -> None:
        """Add the panel's background shapes to ``mesh`` (subclasses)."""

    def place(self) -> None:
        """Position the texts for the current rectangle (subclasses)."""

    def on_draw(self) -> None:
        rect = (self.left, self.bottom, self.width, self.height)
        if rect != self._placed:
            mesh = Mesh()
            self.background(mesh)
            self._background = mesh.build()
            self.place()
            self._placed = rect
        elif self._texts_changed:
            self.place()
        self._texts_changed = False
        assert self._background is not None
        self._background.draw()
        self.batch.draw()


class TopBar(_Panel):
    """Game name and variant, whose turn (in the mover's accent), the scores and the last move."""

    def __init__(self, left: int, bottom: int, width: int, height: int) -> None:
        super().__init__(left, bottom, width, height, name="top-bar", accept_keyboard_keys=False,
                         accept_mouse_events=False)
        self.title = theme.text("", theme.LABEL, theme.TEXT, anchor_y="center",
                                 batch=self.batch)
        self.variant = theme.text("", theme.BODY, theme.TEXT_DIM, anchor_y="center",
                                   batch=self.batch)
        self.turn = theme.text("", theme.LABEL, theme.ACCENTS[0], anchor_x="center",
                                anchor_y="center", batch=self.batch)
        self.scores = theme.text("", theme.LABEL, theme.TEXT, anchor_x="right",
                                  anchor_y="center", batch=self.batch)
        self.last = theme.text("", theme.BODY, theme.TEXT_DIM, anchor_x="center",
                                anchor_y="center", batch=self.batch)

    TURN_SIZE, LAST_SIZE = 18, 12
    scale = 1.0
    """The window's type scale (``theme.type_scale``): the bar and its words grow with the window."""

    VARIANT_SHARE = 0.3
    """The variant line takes the room left of whose turn and the last move (centred), and at least this share of
    the bar's width; it is shortened with "..." beyond: whose turn comes first."""

    def show(self, title: str, variant: str, turn: str, turn_colour: theme.Color, scores: str, last: str) -> None:
        self._last_text = last
        variant_before, self._variant_text = getattr(self, "_variant_text", None), variant  # placed (and shortened)
        before = (self.title.text, variant_before, self.turn.text, self.scores.text, self.last.text)  # by ``place``
        _set(self.title, title)
        _set(self.turn, turn)
        if tuple(self.turn.color) != tuple(turn_colour):  # setting a colour re-lays the text out
            self.turn.color = turn_colour
        _set(self.scores, scores)
        _set(self.last, last)
        if before != (self.title.text, variant, self.turn.text, self.scores.text, last):
            self._texts_changed = True

    def background(self, mesh: Mesh) -> None:
        mesh.rectangle(self.left, self.bottom, self.width, self.height, theme.PANEL)
        mesh.rectangle(self.left, self.bottom - 1, self.width, 2, theme.PANEL_EDGE)

    def place(self) -> None:
        """The name on the left, the scores on the right, whose turn and the last move centred in the room
        between them: smaller, and the last move shortened, when the window is too narrow for them."""
        middle = self.bottom + self.height / 2
        scale = self.scale
        for text, style in ((self.title, theme.LABEL), (self.variant, theme.BODY), (self.scores, theme.LABEL)):
            if text.font_size != round(style.size * scale):
                text.font_size = round(style.size * scale)
        self.title.position = self.left + 20 * scale, middle + 9 * scale
        self.variant.position = self.left + 20 * scale, middle - 17 * scale
        self.scores.position = self.right - 20 * scale, middle
        _set(self.variant, getattr(self, "_variant_text", self.variant.text))
        _set(self.last, getattr(self, "_last_text", self.last.text))
        for text, size in ((self.turn, self.TURN_SIZE), (self.last, self.LAST_SIZE)):
            if text.font_size != round(size * scale):
                text.font_size = round(size * scale)
        widest = max(self.turn.content_width, self.last.content_width)  # centred, at full size
        variant_room = max(self.VARIANT_SHARE * self.width,
                           self.left + self.width / 2 - widest / 2 - 24 * scale - self.variant.left)
        while self.variant.content_width > variant_room and len(self.variant.text) > 4:
            self.variant.text = self.variant.text[:-4] + "..."
        room_left = max(self.title.right, self.variant.right) + 16
        room_right = (self.scores.left if self.scores.text else self.right) - 16
        centre = self.left + self.width / 2
        for text, size in ((self.turn, round(self.TURN_SIZE * scale)), (self.last, round(self.LAST_SIZE * scale))):
            if text is self.last:
                _set(text, getattr(self, "_last_text", text.text))
            if text.font_size != size:
                text.font_size = size
            while text.content_width > room_right - room_left and text.font_size > size - 4:
                text.font_size -= 1
            while text.content_width > room_right - room_left and len(text.text) > 4:
                text.text = text.text[:-4] + "..."
        widest = max(self.turn.content_width, self.last.content_width)
        if centre - widest / 2 < room_left or centre + widest / 2 > room_right:
            centre = (room_left + room_right) / 2  # off the window's centre, between the name and the scores
        self.turn.position = centre, middle + 9 * scale
        self.last.position = centre, middle - 17 * scale


class SidePanel(_Panel):
    """The move list, the computer's thinking line and the hint's reason."""

    LINES = 22

    def __init__(self, left: int, bottom: int, width: int, height: int) -> None:
        super().__init__(left, bottom, width, height, name="side-panel", accept_keyboard_keys=False,
                         accept_mouse_events=False)
        self.heading = theme.text("Moves", theme.LABEL, theme.ACCENTS[0],
                                   batch=self.batch)
        self.moves = theme.text("", theme.MONO, theme.TEXT, multiline=True,
                                 width=SIDE_PANEL - 30, anchor_y="top", batch=self.batch)
        self.thinking_heading = theme.text("Computer", theme.LABEL, theme.ACCENTS[1],
                                            batch=self.batch)
        self.thinking = theme.text("", theme.BODY, theme.TEXT, multiline=True,
                                    width=SIDE_PANEL - 30, anchor_y="top", batch=self.batch)
        self.hint = theme.text("", theme.BODY, theme.TEXT_DIM, multiline=True,
                                width=SIDE_PANEL - 30, anchor_y="top", batch=self.batch)
        self._moves: list[str] = []
        self._fitted: tuple[object, ...] | None = None
        """What the move list was last fitted for (the moves, its room, its font size and width)."""

    scale = 1.0
    """The window's type scale on a screen whose panel grows with the window (1: the design sizes)."""

    def show(self, moves: list[str], thinking: str, hint: str) -> None:
        """With no computer's words (``thinking`` empty: hot-seat) the Computer heading goes and the move list
        takes its room (all of the panel when there is no hint either)."""
        if (self.thinking.text, self.hint.text) != (thinking, hint):
            self._texts_changed = True  # a longer hint lifts what is over it
        _set(self.thinking_heading, "Computer" if thinking else "")
        _set(self.thinking, thinking)
        _set(self.hint, hint)
        self._moves = moves
        self._fit_moves()

    def _offsets(self) -> tuple[float, float]:
        """Where the hint's reason and the computer's words start (their tops), above the panel's foot: 100 and
        200 design pixels (times the type scale), higher when the hint's words need more room than that."""
        scale = self.scale
        hint = max(100 * scale, self.hint.content_height + 6 * scale) if self.hint.text else 100 * scale
        return hint, max(200 * scale, hint + 100 * scale)

    def _moves_floor(self) -> float:
        """How far above the panel's foot the move list must end: over the computer's heading, else over the
        hint's reason, else a small margin (design pixels times the type scale)."""
        hint, thinking = self._offsets()
        return thinking + 40 * self.scale if self.thinking.text else hint + 10 * self.scale if self.hint.text \
            else 20 * self.scale

    def _fit_moves(self) -> None:
        """The last moves that fit between the list's top and its floor, measured in the list's own line height
        (at this window's type scale), so the list never runs into what is under the panel (the bottom bar)."""
        room_px = self.height - 40 * self.scale - self._moves_floor()
        key = (tuple(self._moves), room_px, self.moves.font_size, self.moves.width)
        if key == self._fitted:
            return
        self._fitted = key
        room = max(1, int(room_px / (19 * self.scale)))
        _set(self.moves, "\n".join(trim_list(self._moves, room)) or "(no moves yet)")
        lines = self.moves.text.count("\n") + 1
        line = self.moves.content_height / lines or 19 * self.scale  # the font's real line height
        fits = max(1, int(room_px / line))
        if fits < lines:
            _set(self.moves, "\n".join(trim_list(self._moves, fits)) or "(no moves yet)")

    def background(self, mesh: Mesh) -> None:
        mesh.rectangle(self.left, self.bottom, self.width, self.height, theme.PANEL)
        mesh.rectangle(self.left - 1, self.bottom, 2, self.height, theme.PANEL_EDGE)

    def place(self) -> None:
        scale = self.scale
        for text, style in ((self.heading, theme.LABEL), (self.moves, theme.MONO),
                            (self.thinking_heading, theme.LABEL), (self.thinking, theme.BODY), (self.hint, theme.BODY)):
            if text.font_size != round(style.size * scale):
                text.font_size = round(style.size * scale)
            if text.multiline and text.width != int(self.width - 30 * scale):
                text.width = int(self.width - 30 * scale)
        self._fit_moves()  # the room or the type scale changed: the list fits again
        x = self.left + 15 * scale
        self.heading.position = x, self.top - 30 * scale
        self.moves.position = x, self.top - 40 * scale
        # Five lines each for the computer's words (its reasoning and thinking) and the hint's.
        hint, thinking = self._offsets()
        self.thinking_heading.position = x, self.bottom + thinking + 10 * scale
        self.thinking.position = x, self.bottom + thinking
        self.hint.position = x, self.bottom + hint


def fit_line(text: arcade.Text, room: float, smallest: int = 10) -> None:
    """Make a one-line text fit ``room`` pixels: a point or two smaller, then shortened in the middle (a folder's
    path keeps its start and its file name)."""
    while text.content_width > room and text.font_size > smallest:
        text.font_size -= 1
    full = text.text
    cut = len(full)
    while text.content_width > room and cut > 8:
        cut -= max(1, cut // 10)
        text.text = full[:cut // 2] + "..." + full[len(full) - cut // 2:]


def follow_window(view: Any) -> None:
    """Point the GL viewport and the view's UI (its cameras and the surfaces its layouts measure) at the window's
    size now.  A screen shown again after the window changed size while it was hidden got no resize event: its
    UIManager still measured the old size, so an anchored row was placed for it (at 800x500, grown to 1366x768
    under the rules: the puzzle's Hint and Undo at negative x)."""
    window = view.window
    window.viewport = (0, 0, window.width, window.height)
    ui = getattr(view, "ui", None)
    if ui is not None:
        ui.on_resize(window.width, window.height)


class ChromeSections(arcade.SectionManager):
    """The game screens' section manager, which lays the screen out from the window's size whatever the moment.

    arcade's ``SectionManager.on_resize`` stops the event once the view and its sections have it, so the window's
    own handler, which points the GL viewport at the new size, never runs while a game screen is shown: grown,
    the screen was drawn into the old rectangle (the top bar above it, the panel cut at the old width); after F11,
    into the lower-left corner.  Here the viewport follows first.  ``on_draw`` also lays the screen out again if
    the window's size changed without an event reaching it (a size set while another screen was shown)."""

    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self.laid_out_for: tuple[int, int] | None = None

    def on_resize(self, width: int, height: int) -> bool:
        window = self.view.window
        window.viewport = (0, 0, width, height)  # what ``arcade.Window._on_resize`` would have done
        self.laid_out_for = (width, height)
        return super().on_resize(width, height)

    def enable(self) -> None:
        """Called as the view is shown (before it lays itself out): the GL viewport and the UI's camera and
        surfaces follow the window's size now, as the window may have changed size while another screen (the
        rules, Settings, a review) covered this one; the view's layout then places its widgets for that size."""
        super().enable()
        window = self.view.window
        size = (window.width, window.height)
        follow_window(self.view)
        self.laid_out_for = size  # the view lays itself out as it is shown

    def on_draw(self) -> bool:
        window = self.view.window
        size = (window.width, window.height)
        if size != self.laid_out_for or tuple(window.viewport) != (0, 0, *size):
            follow_window(self.view)  # the widgets' camera and surfaces, as the event would have
            self.on_resize(*size)
        return super().on_draw()


TOAST_TIME = 1.8
"""Seconds a toast (a short announcement over the board) stays up."""


class ScreenChrome:
    """What every game screen has around its board: the top bar and side panel (as arcade sections), a
    toast over the board, a notice line above the bottom bar, and one overlay panel at a time.

    A mixin of ``arcade.gui.UIView`` subclasses: call ``_init_chrome`` in ``__init__`` before anything that
    may say or toast; ``clock`` (seconds since the screen opened) is the screen's own.
    """

    ui: arcade.gui.UIManager
    SCALES_CHROME = False
    """True for a screen whose side panel, bottom bar and messages grow with the window's type scale, as its top
    bar and board do (a screen that lays its panels out in fixed sizes keeps them at 1; the top bar always grows)."""

    @property
    def clock(self) -> float:
        """Seconds since the screen opened (each screen reads its controller's)."""
        raise NotImplementedError

    def _init_chrome(self) -> None:
        self.toasts: list[tuple[str, float]] = []
        self.notice = ""
        self.notice_warning = False
        self._overlay: arcade.gui.UIWidget | None = None
        self.top_bar = TopBar(0, 0, 10, 10)
        self.side_panel = SidePanel(0, 0, 10, 10)
        self.section_manager = ChromeSections(self)
        self.section_manager.add_section(self.top_bar)
        self.section_manager.add_section(self.side_panel)
        self._toast_text = theme.text("", theme.HEADING, theme.TEXT, anchor_x="center",
                                       anchor_y="center")
        self._notice_text = theme.text("", theme.BODY, theme.TEXT_DIM,
                                        anchor_x="center", anchor_y="center")

    def _place_bars(self, width: int, height: int) -> None:
        """The top bar across the top, the side panel down the right between the bars."""
        self.top_bar.scale = theme.type_scale(width, height)
        self.side_panel.scale = self.chrome_scale
        bar, bottom, side = self.top_bar_height, self.bottom_bar_height, self.side_panel_width
        self.top_bar.left, self.top_bar.bottom, self.top_bar.width, self.top_bar.height = 0, height - bar, width, bar
        self.side_panel.left, self.side_panel.bottom = width - side, bottom
        self.side_panel.width, self.side_panel.height = side, max(10, height - bar - bottom)

    @property
    def chrome_scale(self) -> float:
        """How much the side panel, the bottom bar and the messages grow (``SCALES_CHROME``)."""
        return self.top_bar.scale if self.SCALES_CHROME else 1.0

    @property
    def side_panel_width(self) -> int:
        return round(SIDE_PANEL * self.chrome_scale)

    @property
    def bottom_bar_height(self) -> int:
        return round(BOTTOM_BAR * self.chrome_scale)

    @property
    def top_bar_height(self) -> int:
        """The top bar's height in this window: ``TOP_BAR`` at 1280x720, taller with the type scale."""
        return round(TOP_BAR * self.top_bar.scale)

    def toast(self, text: str) -> None:
        self.toasts.append((text, self.clock + TOAST_TIME))

    def say(self, text: str, warning: bool = False) -> None:
        self.notice, self.notice_warning = text, warning

    def _expire_toasts(self) -> None:
        self.toasts = [(text, until) for text, until in self.toasts if until > self.clock]

    def _draw_messages(self, x: float, toast_y: float, notice_y: float) -> None:
        """The latest toast over the board and the notice above the bottom bar, centred on ``x``."""
        scale = self.chrome_scale
        if self._toast_text.font_size != round(theme.HEADING.size * scale):
            self._toast_text.font_size = round(theme.HEADING.size * scale)
        # A text not drawn this frame is emptied, so what the screen reports (``game.views.layout``) is what it shows.
        if not self.toasts and self._toast_text.text:
            self._toast_text.text = ""
        if not self.notice and self._notice_text.text:
            self._notice_text.text = ""
            self._notice_for = None
        if self.toasts:
            toast = self._toast_text
            toast.text = self.toasts[-1][0]
            toast.position = x, toast_y
            # On a plate of its own: a toast may lie over the board's top edge (its side's name) on a short window,
            # and must read as one line there, not as a jumble of the two.
            pad = 8 * scale
            plate = (x - toast.content_width / 2 - 2 * pad, toast_y - toast.content_height / 2 - pad,
                     toast.content_width + 4 * pad, toast.content_height + 2 * pad)
            arcade.draw_lbwh_rectangle_filled(*plate, (*theme.PANEL[:3], 255))  # opaque: nothing shows through
            arcade.draw_lbwh_rectangle_outline(*plate, theme.PANEL_EDGE, 2)
            toast.draw()
        if self.notice:
            notice = self._notice_text
            key = (self.notice, x, scale)
            if key != getattr(self, "_notice_for", None):  # laid out again only when it changes
                self._notice_for = key
                notice.font_size = round(theme.BODY.size * scale)
                notice.text = self.notice
                fit_line(notice, 2 * x - 24)  # the room beside the panel (a long folder name must not leave it)
            notice.color = theme.WARNING if self.notice_warning else theme.TEXT_DIM
            notice.position = x, notice_y
            notice.draw()

    def _hide_overlay(self) -> None:
        if self._overlay is not None:
            self.ui.remove(self._overlay)
            self._overlay = None
