"""Resizing while stones are held in the sower's hand (location -1) must not lose the game (issue 22)."""
from __future__ import annotations

from game.physics import Bowl, StoneField

HAND = -1


def _bowls(scale: float) -> dict[int, Bowl]:
    return {pit: Bowl((100 * scale * (pit + 1), 100 * scale), (100 * scale * (pit + 1), 100 * scale), 30 * scale)
            for pit in range(3)}


def test_stones_in_the_hand_survive_a_new_geometry() -> None:
    field = StoneField(stone_radius=8)
    field.set_bowls(_bowls(1.0), 8)
    stones = [field.add_stone(0, colour) for colour in range(4)]
    for stone in stones[:3]:
        field.lift(stone, 1.5)
        stone.location = HAND
    field.fly(stones[0], 1, 0.2)  # one already on its way
    field.set_bowls(_bowls(1.5), 12)  # raised KeyError: -1 before
    assert len(field.at(HAND)) == 2
    assert all(stone.shape.radius == 12 for stone in field.stones)
    for stone in field.at(HAND):
        field.fly(stone, 2, 0.1)
    field.land_all()
    assert field.counts() == {0: 1, 1: 1, 2: 2}
