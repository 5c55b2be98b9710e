"""The board's words fit every window: pit numbers, count badges, the sides' names and the line under the board
neither overlap one another nor leave the space between the top bar and the bottom bar, from 800x500 up."""
from __future__ import annotations

import pytest

import rules
from game.savegame import Seat
from game.session import Session
from game.views.panels import BOTTOM_BAR, TOP_BAR
from tests import registered

Box = tuple[float, float, float, float]


def text_box(text) -> Box:  # type: ignore[no-untyped-def]
    """A centred arcade.Text's box (left, bottom, right, top)."""
    w, h = text.content_width, text.content_height
    return text.x - w / 2, text.y - h / 2, text.x + w / 2, text.y + h / 2


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("size", [(800, 500), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("name", registered.with_scene("sowing"))
def test_the_words_on_a_sowing_board_fit_without_overlap(gui, name, size):  # type: ignore[no-untyped-def]
    width, height = size
    gui.window.set_size(width, height)
    gui.window.dispatch_event("on_resize", width, height)
    gui.context.show_match(Session.new(rules.get_game(name), (Seat(), Seat("random", 1.0))))
    gui.frame(2)
    view = gui.window.current_view
    scene = view.scene
    half_w, half_h = scene._badge_half_size()
    boxes: list[tuple[str, Box]] = []
    for location in view.spec.locations:
        x, y = scene.badge_position(location)
        boxes.append((f"badge {location}", (x - half_w, y - half_h, x + half_w, y + half_h)))
        boxes.append((f"number {location}", text_box(scene._numbers[location])))
    # the widest words each line can hold
    scene.set_sides(("South (computer)", "North (computer)"), ("South", "North"), 0)
    for player, text in enumerate(scene._side_texts):
        boxes.append((f"side {player}", text_box(text)))
    scene._caption_text.text = view.key_help()
    boxes.append(("caption", text_box(scene._caption_text)))
    right = width - (300 if view.panel_shown else 0)
    for label, box in boxes:
        assert 0 <= box[0] and box[2] <= right and BOTTOM_BAR <= box[1] and box[3] <= height - TOP_BAR, (label, box)
    for index, (label, box) in enumerate(boxes):
        for other, other_box in boxes[index + 1:]:
            assert not overlap(box, other_box), (label, box, other, other_box)
    # and the pit numbers stay off the hollows they name
    for location, place in scene.layout.places.items():
        hollow = (place.x - place.half_width, place.y - place.half_height,
                  place.x + place.half_width, place.y + place.half_height)
        assert not overlap(text_box(scene._numbers[location]), hollow), location
