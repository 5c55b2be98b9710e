"""The menus list every game as ready; a game whose rules cannot be loaded is greyed out with the reason."""
from __future__ import annotations

import rules
from game import catalogue
from tests import registered


def test_every_listed_game_and_menu_item_is_ready():
    entries = catalogue.games()
    assert {entry.name for entry in entries} == {name for name in registered.names()
                                                 if catalogue.registration(name).scene != "puzzle"}
    assert all(entry.available and not entry.why_not for entry in entries)
    assert all(item.enabled for item in catalogue.main_menu())


def test_a_game_whose_rules_fail_to_load_is_listed_with_the_reason(monkeypatch):
    real = rules.game_class

    def broken(name: str):
        if name == "hus":
            raise ImportError("No module named 'rules.hus'")
        return real(name)

    monkeypatch.setattr(rules, "game_class", broken)
    hus = next(entry for entry in catalogue.games() if entry.name == "hus")
    assert not hus.available and "rules failed to load" in hus.why_not and "rules.hus" in hus.why_not
    assert all(entry.available for entry in catalogue.games() if entry.name != "hus")


def test_a_menu_item_needing_a_game_whose_rules_fail_to_load_is_disabled(monkeypatch):
    def broken(name: str):
        raise ImportError("No module named 'rules.solitaire'")

    monkeypatch.setattr(rules, "game_class", broken)
    puzzles = next(item for item in catalogue.main_menu() if item.action == "puzzles")
    assert not puzzles.enabled and "rules.solitaire" in puzzles.why_not
    assert next(item for item in catalogue.main_menu() if item.action == "play").enabled
