"""The words a sowing board writes: count badges on their plates, pit numbers, the sides' names, the line under
the board, the move preview's tags and the lap tag of a Hus move.

``BoardWords`` is the half of ``SowingScene`` (``game.scenes.sowing_scene``) that writes; the scene's other half
lays the board out and moves the stones.  The words are built in pyglet batches when the layout or a name
changes (a count badge's text changes alone when its count does) and drawn over the stones in a few calls.
``texts()`` and ``text_boxes()`` say what is written and where, for the layout checks of the tests and the
screenshot script.
"""
from __future__ import annotations

import math

import arcade
import pyglet

from game import theme
from game.scenes import meshes
from game.scenes.sowing_board import (BoardSpec, Layout, Location, Preview, badge_font, badge_half_size,
                                      caption_font, name_font, number_font, pit_number)

TextBox = tuple[str, float, float, float, float]
"""What a board writes and where: (what, left, bottom, right, top) in window pixels."""


def text_box(name: str, text: arcade.Text) -> TextBox:
    """The box a drawn text takes (its ink's line, whatever its anchor)."""
    return name, text.left, text.bottom, text.right, text.top


class BoardWords:
    """The words of one sowing board (a base of ``SowingScene``, which provides the layout and the counts)."""

    spec: BoardSpec
    layout: Layout | None
    counts: dict[Location, int]
    hand_owner: int
    words: bool

    def _init_words(self) -> None:
        self._plate_shapes: arcade.shape_list.ShapeElementList | None = None
        self._badge_batch = pyglet.graphics.Batch()
        self._badges: dict[Location, arcade.Text] = {}
        self.side_labels: tuple[str, str] = ("South", "North")
        self.side_names: tuple[str, str] = ("South", "North")
        self.mover: int | None = None
        self._words_key: tuple | None = None
        self._word_batch = pyglet.graphics.Batch()
        self._numbers: dict[Location, arcade.Text] = {}
        self._side_texts: list[arcade.Text] = []
        self._caption_text: arcade.Text | None = None
        self.preview: Preview | None = None
        self.lap_tag: tuple[str, Location] | None = None
        self._lap_shapes: arcade.shape_list.ShapeElementList | None = None
        self._lap_text: arcade.Text | None = None
        self._preview_key: tuple | None = None
        self._preview_shapes: arcade.shape_list.ShapeElementList | None = None
        self._preview_batch = pyglet.graphics.Batch()
        self._preview_texts: dict[Location, arcade.Text] = {}

    # -- what is written where --------------------------------------------------------------------------------
    def texts(self) -> list[arcade.Text]:
        """Every word and number the board writes (counts, pit numbers, the sides' names, the caption), for the
        layout checks."""
        found = [*self._badges.values(), *self._numbers.values(), *self._side_texts]
        return found + ([self._caption_text] if self._caption_text is not None else [])

    def text_boxes(self) -> list[TextBox]:
        """Where the board's words are drawn: each count badge's plate (its number inside it), each pit number and
        store name, the sides' names and the line under the board (when it says something).  The journeys check
        that they lie in the window and overlap neither one another nor the screen's widgets."""
        if self.layout is None:
            return []
        found = []
        half_w, half_h = self._badge_half_size()
        for location in self._badges:
            x, y = self.badge_position(location)
            found.append((f"count {location}", x - half_w, y - half_h, x + half_w, y + half_h))
        for location, text in self._numbers.items():
            found.append(text_box(f"number {text.text}", text))
        found += [text_box(f"side {text.text}", text) for text in self._side_texts if text.text.strip()]
        if self._caption_text is not None and self._caption_text.text.strip():
            found.append(text_box("caption", self._caption_text))
        return found

    # -- badges and words -------------------------------------------------------------------------------------
    def _build_plates(self) -> None:
        """The badges' plates: a mesh of their own, drawn over the rings and glows so a count stays readable."""
        plates = meshes.Mesh()
        half_w, half_h = self._badge_half_size()
        for location in self.spec.locations:
            x, y = self.badge_position(location)
            plates.rounded_rectangle(x - half_w, y - half_h, 2 * half_w, 2 * half_h, half_h * 0.45, theme.BADGE)
        self._plate_shapes = plates.build()

    def _badge_font(self) -> int:
        assert self.layout is not None
        return badge_font(self.layout.cell, self.layout.type_scale)

    def _badge_half_size(self) -> tuple[float, float]:
        assert self.layout is not None
        return badge_half_size(self.layout.cell, self.layout.type_scale)

    def badge_position(self, location: Location) -> tuple[float, float]:
        """Where a location's count badge sits: beside the pit, on the side away from its owner (the owner's side
        holds the pit's number)."""
        assert self.layout is not None
        return self.layout.badges[location]

    def _build_badges(self) -> None:
        assert self.layout is not None
        self._badge_batch = pyglet.graphics.Batch()
        self._badges.clear()
        size = self._badge_font()
        for location in self.spec.locations:
            x, y = self.badge_position(location)
            self._badges[location] = arcade.Text(
                str(self.counts.get(location, 0)), x, y - 0.5, theme.TEXT, size, font_name=theme.BODY_FONT,
                anchor_x="center", anchor_y="center", bold=True, batch=self._badge_batch,
            )
        self._build_words()

    def _build_words(self) -> None:
        """The pit numbers, the stores' owners and the sides' names: one batch, rebuilt on layout or name change."""
        layout = self.layout
        assert layout is not None
        self._word_batch = pyglet.graphics.Batch()
        self._numbers.clear()
        self._words_key = (self.side_labels, self.side_names, self.mover)
        if not self.words:
            return
        number_size = number_font(layout.cell, layout.type_scale)
        for location, (x, y) in layout.numbers.items():
            number = pit_number(self.spec, location)
            text = str(number) if number is not None else self.side_names[self.spec.owner(location)]
            self._numbers[location] = arcade.Text(
                text, x, y, self._number_colour(location), number_size, font_name=theme.BODY_FONT,
                anchor_x="center", anchor_y="center", bold=True, batch=self._word_batch)
        name_size = name_font(layout.cell, layout.type_scale)
        self._side_texts = [
            arcade.Text(self.side_labels[player], *layout.sides[player], theme.ACCENTS[player], name_size,
                        font_name=theme.BODY_FONT, anchor_x="center", anchor_y="center", bold=True,
                        batch=self._word_batch)
            for player in (0, 1)]
        self._caption_text = arcade.Text("", *layout.caption, theme.TEXT, caption_font(layout.cell, layout.type_scale),
                                         font_name=theme.BODY_FONT, anchor_x="center", anchor_y="center")

    def _number_colour(self, location: Location) -> tuple[int, int, int, int]:
        """The mover's numbers (their keys) in full, the other side's a little quieter."""
        colour = theme.PIT_NUMBER
        if self.mover is not None and self.spec.owner(location) != self.mover:
            return colour[:3] + (150,)
        return colour

    def set_sides(self, labels: tuple[str, str], names: tuple[str, str], mover: int | None) -> None:
        """Name the sides (``labels`` under and over the board, ``names`` on the stores) and say whose turn it
        is (their pit numbers stand out: the keys 1.. choose them)."""
        if (labels, names, mover) == self._words_key:
            return
        self.side_labels, self.side_names, self.mover = labels, names, mover
        if self.layout is not None:
            self._build_words()

    def set_preview(self, preview: Preview | None) -> None:
        """Show what a pit would do before it is played (None: nothing): a tag on each place saying how many seeds
        it receives (+n) or loses to a capture (-n), and a ring of dots round the last seed's place."""
        self.preview = preview

    def _build_preview(self) -> None:
        preview, layout = self.preview, self.layout
        assert preview is not None and layout is not None
        if self._preview_key is not None and self._preview_key[0] is preview and self._preview_key[1] is layout:
            return
        self._preview_key = (preview, layout)
        mesh = meshes.Mesh()
        self._preview_batch = pyglet.graphics.Batch()
        self._preview_texts = {}
        size = self._badge_font()
        half_h = self._badge_half_size()[1]
        accent = theme.ACCENTS[preview.player]
        # Gains are light plates with dark text, losses dark plates with light text and edge: told apart by
        # lightness and sign, not by hue alone.
        tags = {location: (f"+{count}", theme.PREVIEW_TAG_TEXT, accent, theme.PREVIEW_TAG_TEXT)
                for location, count in preview.receives.items()}
        tags.update({location: (f"\u2212{count}", theme.PREVIEW_CAPTURE, theme.PREVIEW_LOSS, theme.PREVIEW_CAPTURE)
                     for location, count in preview.captured.items()})
        for location, (text, edge, fill, ink) in tags.items():
            # In the middle of the place itself: the tag belongs to no neighbour, whatever the board's size.
            place = layout.places[location]
            half_w = size * (0.45 + 0.32 * len(text))
            x, y = place.x, place.y
            mesh.rounded_rectangle(x - half_w - 1.5, y - half_h - 1.5, 2 * half_w + 3, 2 * half_h + 3, half_h * 0.5,
                                   edge)
            mesh.rounded_rectangle(x - half_w, y - half_h, 2 * half_w, 2 * half_h, half_h * 0.45, fill)
            self._preview_texts[location] = arcade.Text(
                text, x, y - 0.5, ink, size, font_name=theme.BODY_FONT, anchor_x="center",
                anchor_y="center", bold=True, batch=self._preview_batch)
        if preview.last is not None:
            place = layout.places[preview.last]
            dots = 14 if place.half_height <= place.half_width * 1.2 else 30
            dot = max(2.0, layout.cell * 0.035)
            for index in range(dots):
                angle = math.tau * index / dots
                x = place.x + (place.half_width + dot * 2.2) * math.cos(angle)
                y = place.y + (place.half_height + dot * 2.2) * math.sin(angle)
                edge = theme.HIGHLIGHT_HALO  # a dark edge: a light dot alone melts into the wood
                mesh.ellipse(x, y, dot + 1.5, dot + 1.5, (edge, edge), segments=8)
                mesh.ellipse(x, y, dot, dot, (accent, accent), segments=8)
        self._preview_shapes = mesh.build()

    def set_caption(self, text: str) -> None:
        """The line under the board: the move preview's caption, or how to choose a pit by keys."""
        if self._caption_text is not None and self._caption_text.text != text:
            self._caption_text.text = text

    def _show_lap(self, text: str | None, location: Location | None) -> None:
        """Write ``text`` on a tag by ``location`` (None: take the tag away)."""
        self.lap_tag = None if text is None or location is None else (text, location)
        self._lap_shapes = None

    def _draw_lap_tag(self) -> None:
        assert self.layout is not None and self.lap_tag is not None
        text, location = self.lap_tag
        if self._lap_shapes is None:
            place = self.layout.places[location]
            size = int(min(18, max(10, self.layout.cell * 0.22)))
            toward_middle = 1 if self.spec.owner(location) == 0 else -1
            x = place.x
            y = place.y + toward_middle * (place.half_height + size * 1.2)
            self._lap_text = arcade.Text(text, x, y, theme.ACCENTS[self.hand_owner], size, font_name=theme.BODY_FONT,
                                         anchor_x="center", anchor_y="center", bold=True)
            half_w, half_h = self._lap_text.content_width / 2 + size * 0.6, size * 0.95
            x = min(max(x, self.layout.board[0] + half_w), self.layout.board[0] + self.layout.board[2] - half_w)
            self._lap_text.x = x
            mesh = meshes.Mesh()
            mesh.rounded_rectangle(x - half_w - 2, y - half_h - 2, 2 * half_w + 4, 2 * half_h + 4, half_h * 0.5,
                                   theme.ACCENTS[self.hand_owner])
            mesh.rounded_rectangle(x - half_w, y - half_h, 2 * half_w, 2 * half_h, half_h * 0.45, theme.LAP_TAG)
            self._lap_shapes = mesh.build()
        assert self._lap_text is not None  # made with the shapes above
        self._lap_shapes.draw()
        self._lap_text.draw()

    def draw_words(self, animating: bool) -> None:
        """The plates and counts, the numbers and names, the preview (not while a move is ``animating``), the lap
        tag and the caption, over everything else on the board."""
        if self._plate_shapes is not None:
            self._plate_shapes.draw()
        self._badge_batch.draw()
        self._word_batch.draw()
        if self.preview is not None and not animating:
            self._build_preview()
            assert self._preview_shapes is not None
            self._preview_shapes.draw()
            self._preview_batch.draw()
        if self.lap_tag is not None:
            self._draw_lap_tag()
        if self._caption_text is not None and self._caption_text.text:
            self._caption_text.draw()
