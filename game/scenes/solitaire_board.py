"""The Solitaire Mancala board on screen: the sowing scene's board, pits and stones, laid out as the source draws it.

The source document (SR001) draws::

    store01  hole01 hole02 hole03 hole04 hole05 hole06  store02
             hole07 hole08 hole09 hole10 hole11 hole12

The sowing scene (``game.scenes.sowing_scene``) already draws a two-row board with a store at each end and
animates stones with pymunk; this module only says where each solitaire hole sits in that scene's locations
and turns a round into the scene's ``MovePlan``.  Scene locations of a 2 x 6 board with stores: 0..5 are the
bottom row left to right, 6..11 the top row right to left, 12 the right store and 13 the left store.  So
hole07..hole12 are locations 0..5, hole01..hole06 are locations 11..6, store01 is 13 and store02 is 12.

``SolitaireScene`` numbers the holes 1 to 12 as a player counts them (the source's hole01..hole12: the top
row 1-6 left to right, the bottom row 7-12), labels each store, and draws arrows beside the hole a round
starts from that show (and accept clicks for) the two directions.
"""
from __future__ import annotations

import math

import arcade
import pyglet

from game import theme
from game.puzzle_words import visual_direction
from game.scenes.sowing_board import BoardSpec, Lap, Location, MovePlan
from game.scenes.sowing_scene import SowingScene
from rules.solitaire import HOLES, Round, Solitaire, SolitaireState

Colour = tuple[int, int, int, int]
__all__ = ["SPEC", "STORE_LOCATIONS", "SolitaireScene", "board_marks", "counts", "hole_at",
           "hole_location", "plan_round", "round_locations", "visual_direction"]
SPEC = BoardSpec(rows=2, columns=6, has_stores=True, per_player=6)
STORE_LOCATIONS = (13, 12)
"""Scene locations of store01 (left) and store02 (right)."""


def hole_location(hole: int) -> Location:
    """The scene location of hole index ``hole`` (0..11 for hole01..hole12)."""
    return 11 - hole if hole < 6 else hole - 6


def hole_at(location: Location | None) -> int | None:
    """The hole index at a scene location, or None for a store or nothing."""
    if location is None or location >= HOLES:
        return None
    return 11 - location if location >= 6 else location + 6


def counts(state: SolitaireState) -> dict[Location, int]:
    """Stones per scene location in ``state``: what the stones on screen must match."""
    result = {hole_location(hole): count for hole, count in enumerate(state.holes)}
    result[STORE_LOCATIONS[0]], result[STORE_LOCATIONS[1]] = state.stores
    return result


def round_locations(game: Solitaire, state: SolitaireState, move: Round) -> tuple[Location, tuple[Location, ...]]:
    """Where a round starts and every location that receives a stone, in order (a stored stone last)."""
    events = game.report(state, move)
    drops = tuple(STORE_LOCATIONS[place.index] if place.store else hole_location(place.index)
                  for place in events.drops)
    return hole_location(events.picked.index if events.picked else 0), drops


def plan_round(game: Solitaire, state: SolitaireState, move: Round, after: SolitaireState) -> MovePlan:
    """The animation of one round: the hole's stones lifted, dropped one by one, a stored stone into its store."""
    events = game.report(state, move)
    start, drops = round_locations(game, state, move)
    plan = MovePlan(after=counts(after))
    plan.laps.append(Lap(((start, events.seeds),), drops))
    if events.set_aside is not None:
        plan.labels.append("Set aside" if move.set_aside else "Stored")
    outcome = game.outcome(after)
    if outcome is not None:
        plan.labels.append({"board cleared": "Board cleared!"}.get(outcome.reason.value,
                                                                    outcome.reason.value.capitalize()))
    return plan


def board_marks(game: Solitaire, state: SolitaireState, *, last: int | None, start: int | None,
                hovered: int | None, aside_store: Location | None, hint: Round | None,
                perfect: bool) -> tuple[dict[Location, Colour], dict[Location, Colour]]:
    """(highlights, outlines) of the board: the hole the last round started from, the hole under the mouse and
    the hole this round starts from (``start``: None while the player cannot choose), the store a stone set
    aside would go to, the hint's hole (None once the game is over) and where its last stone lands, and both stores after a perfect game."""
    gold = theme.ACCENTS[0]
    highlights: dict[Location, Colour] = {}
    outlines: dict[Location, Colour] = {}
    if last is not None:
        outlines[hole_location(last)] = theme.LAST_MOVE
    if hovered is not None and state.holes[hovered]:
        highlights[hole_location(hovered)] = gold[:3] + (theme.CURSOR_ALPHA,)
    if start is not None:
        highlights[hole_location(start)] = gold
    if aside_store is not None:
        outlines[aside_store] = gold
    if hint is not None:
        hint_start, drops = round_locations(game, state, hint)
        highlights[hint_start] = theme.HINT
        if drops:
            outlines[drops[-1]] = theme.HINT
    if perfect:
        for location in STORE_LOCATIONS:
            highlights[location] = gold
    return highlights, outlines


class SolitaireScene(SowingScene):
    """The sowing scene with the source's hole and store names and direction arrows."""

    ARROW_OFFSET = 0.72
    """How far from the pit's centre, in pit radii, an arrow's base sits (either side of the hole's name)."""

    def __init__(self, seed: int = 2024) -> None:
        super().__init__(SPEC, seed)
        self._name_batch = pyglet.graphics.Batch()
        self._names: list[arcade.Text] = []
        self._name_y: dict[int, float] = {}

    def set_rect(self, left: float, bottom: float, width: float, height: float) -> None:
        super().set_rect(left, bottom, width, height)
        assert self.layout is not None
        self._name_batch = pyglet.graphics.Batch()
        self._names = []
        size = max(10, min(int(14 * self.layout.type_scale), int(self.layout.pit_radius * 0.3)))  # grows as the
        # window does, as the board's other words
        for hole in range(HOLES):
            place = self.layout.places[hole_location(hole)]
            top = hole < 6
            y = place.y + place.half_height + size * 1.6 if top else place.y - place.half_height - size * 1.6
            self._name_y[hole] = y
            self._names.append(arcade.Text(str(hole + 1), place.x, y, theme.TEXT, size,
                                           font_name=theme.BODY_FONT, anchor_x="center", anchor_y="center",
                                           batch=self._name_batch))
        for store, location in enumerate(STORE_LOCATIONS):
            place = self.layout.places[location]
            self._names.append(arcade.Text("Store", place.x, place.y + place.half_height + size * 1.6,
                                           theme.TEXT_DIM, size, font_name=theme.BODY_FONT, anchor_x="center",
                                           anchor_y="center", batch=self._name_batch))

    def texts(self) -> list[arcade.Text]:
        """The board's words with the holes' and stores' names."""
        return [*super().texts(), *self._names]

    def text_boxes(self) -> list[tuple[str, float, float, float, float]]:
        """The board's words' boxes (``SowingScene.text_boxes``) with the holes' and stores' names."""
        names = [(f"name {text.text}", text.left, text.bottom, text.right, text.top) for text in self._names]
        return [*super().text_boxes(), *names]

    def arrow_tip(self, hole: int, rightwards: bool) -> tuple[float, float, float]:
        """(x, y, size) of the arrow beside ``hole``'s name pointing right (or left) along its row."""
        assert self.layout is not None
        place = self.layout.places[hole_location(hole)]
        size = max(8.0, place.half_width * 0.3)
        sign = 1 if rightwards else -1
        base_x = place.x + sign * place.half_width * self.ARROW_OFFSET
        return base_x + sign * size, self._name_y[hole], size

    def arrow_at(self, hole: int, x: float, y: float) -> bool | None:
        """True (right arrow) or False (left arrow) when the point is on one of ``hole``'s arrows, else None."""
        for rightwards in (True, False):
            tip_x, tip_y, size = self.arrow_tip(hole, rightwards)
            centre_x = tip_x - (1 if rightwards else -1) * size * 0.5
            if math.hypot(x - centre_x, y - tip_y) <= size * 0.9:
                return rightwards
        return None

    def draw_arrows(self, hole: int, colours: tuple[theme.Color, theme.Color]) -> None:
        """Draw the two direction arrows beside ``hole``: ``colours`` for (left, right)."""
        for rightwards, colour in ((False, colours[0]), (True, colours[1])):
            tip_x, tip_y, size = self.arrow_tip(hole, rightwards)
            back = tip_x - (1 if rightwards else -1) * size
            arcade.draw_triangle_filled(tip_x, tip_y, back, tip_y + size * 0.7, back, tip_y - size * 0.7, colour)

    def draw(self, highlights=None, outlines=None) -> None:
        super().draw(highlights, outlines)
        self._name_batch.draw()
