"""The scenes a two-player game screen drives meet its contract, ``game.scenes.contract.MatchScene``: every
method and attribute the protocol names, checked on the classes (no window needed)."""
from __future__ import annotations

import inspect

import pytest

from game.scenes.cave_scene import CaveScene
from game.scenes.contract import MatchScene
from game.scenes.sowing_scene import SowingScene

METHODS = [name for name, value in vars(MatchScene).items()
           if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, property))]
ATTRIBUTES = list(MatchScene.__annotations__)


def test_the_protocol_names_what_match_view_uses():
    assert set(METHODS) == {"is_animating", "set_rect", "update", "finish", "location_at", "draw"}
    assert set(ATTRIBUTES) == {"speed", "announce", "on_sound"}


@pytest.mark.parametrize("scene", [SowingScene, CaveScene])
def test_each_scene_has_every_method_and_sets_every_attribute(scene):
    for name in METHODS:
        assert hasattr(scene, name), f"{scene.__name__} has no {name}"
    for name in METHODS:
        if inspect.isfunction(getattr(MatchScene, name)):
            wanted = list(inspect.signature(getattr(MatchScene, name)).parameters)
            assert list(inspect.signature(getattr(scene, name)).parameters)[:len(wanted)] == wanted, name
    source = inspect.getsource(scene.__init__)
    for name in ATTRIBUTES:
        assert f"self.{name}" in source, f"{scene.__name__} does not set {name}"
