"""One registration per game (game/catalogue.py): the screen, the console and the time rule all come from it."""
from __future__ import annotations

import pytest

import rules
from ai import games
from game import catalogue
from game.console import manager
from game.console.seats import seconds_per_move
from game.savegame import Seat


def test_every_rules_game_has_one_registration_with_a_known_scene_and_console() -> None:
    for info in rules.list_games():
        record = catalogue.registration(info.name)
        assert record == catalogue.REGISTRATIONS.get(info.name, catalogue.Registration(info.name))
        assert record.scene in catalogue.SCENES and record.console in catalogue.CONSOLES
        assert record.rules is rules.game_class(info.name)
        assert {"Easy", "Medium", "Hard", "Strongest"} <= set(record.presets())


def test_aliases_and_rules_objects_find_the_same_record_and_unknown_names_say_what_is_valid() -> None:
    assert catalogue.registration("cave") is catalogue.registration(rules.get_game("magnetic-cave"))
    with pytest.raises(rules.ParameterError, match=r"unknown game 'no-such-game' \(valid: .*kalah"):
        catalogue.registration("no-such-game")


def test_the_cave_time_limit_is_set_once_and_reaches_screen_and_console() -> None:
    cave = catalogue.registration("magnetic-cave")
    assert cave.time_limit == games.CAVE_TIME_LIMIT == cave.engines.seconds()
    assert seconds_per_move(rules.get_game("cave"), Seat("random"), first_move=False) == games.CAVE_TIME_LIMIT
    assert catalogue.registration("kalah").time_limit is None


def test_the_play_menu_and_the_console_read_scene_and_console_from_the_registration() -> None:
    scenes = {entry.name: entry.scene for entry in catalogue.games()}
    assert scenes == {name: catalogue.registration(name).scene for name in scenes}
    assert scenes["magnetic-cave"] == "cave" and scenes["hus"] == "sowing"
    assert manager._is_puzzle("solitaire:variant=lewis") and not manager._is_puzzle("oware")
    assert not manager._is_puzzle("no-such-game")
