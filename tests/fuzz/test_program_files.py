"""A damaged data file of the program itself (engines, presets, menus, rules pages, the settings description) is
named in one line, never a traceback: the generated attacks found each of these raising before."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from guarded.kinds import ProgramFileDamaged

BAD = {
    "not YAML": "engines: [\n",
    "binary": "\x00\x01",
    "another shape": "42\n",
    "a list": "- 1\n- 2\n",
}


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    from ai import registry

    folder = tmp_path / "data"
    shutil.copytree(registry.DATA_DIR, folder)
    monkeypatch.setattr(registry, "DATA_DIR", folder)
    registry._load_registry.cache_clear()
    registry._load_presets.cache_clear()
    yield folder
    registry._load_registry.cache_clear()
    registry._load_presets.cache_clear()


@pytest.mark.parametrize("name", ["engines.yaml", "presets.yaml"])
@pytest.mark.parametrize("text", BAD.values(), ids=BAD.keys())
def test_stonecave_engines_names_a_damaged_engine_file_in_one_line(data_dir, capsys, name, text):
    from game.cli import main

    (data_dir / name).write_text(text, encoding="utf-8")
    assert main(["engines", "kalah"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("stonecave: ") and str(data_dir / name) in error and "reinstall" in error
    assert len(error.strip().splitlines()) == 1 and "Traceback" not in error


def test_an_engine_without_its_class_names_the_file(data_dir):
    from ai import registry

    path = data_dir / "engines.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("class:", "klass:", 1), encoding="utf-8")
    with pytest.raises(ProgramFileDamaged, match=r"engines\.yaml: 'class'"):
        registry.engines()


@pytest.mark.parametrize("text", BAD.values(), ids=BAD.keys())
def test_a_damaged_main_menu_or_rules_page_or_settings_description_is_named(tmp_path, monkeypatch, text):
    from game import catalogue
    from game.settings import SettingsSchema
    from game.views import rules_view

    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(catalogue, "MENU_PATH", path)
    monkeypatch.setattr(catalogue, "GAMES_PATH", path)
    monkeypatch.setattr(rules_view, "RULES_PATH", path)
    catalogue._data.cache_clear()
    catalogue.game_pages.cache_clear()  # an earlier test may have read the real games
    rules_view.pages.cache_clear()
    try:
        for read in (catalogue.main_menu, catalogue.games, rules_view.pages, lambda: SettingsSchema.load(path)):
            with pytest.raises(ProgramFileDamaged, match="broken.yaml: .*reinstall"):
                read()
    finally:
        catalogue._data.cache_clear()
        catalogue.game_pages.cache_clear()  # an earlier test may have read the real games
        rules_view.pages.cache_clear()


def test_a_settings_description_cut_before_its_engines_item_is_named(tmp_path):
    from game.settings import SCHEMA_PATH, SettingsSchema

    text = SCHEMA_PATH.read_text(encoding="utf-8")
    path = tmp_path / "settings.yaml"
    path.write_text(text[: text.index("- key: engines")].rstrip(" "), encoding="utf-8")
    with pytest.raises(ProgramFileDamaged, match="settings.yaml: the settings description has no engines item"):
        SettingsSchema.load(path)


def test_a_menu_entry_of_the_wrong_shape_is_named(tmp_path, monkeypatch):
    from game import catalogue

    menu, games = tmp_path / "main.yaml", tmp_path / "games.yaml"
    menu.write_text("main:\n  - 7\n", encoding="utf-8")
    games.write_text("games:\n  - {blurb: x}\n", encoding="utf-8")
    monkeypatch.setattr(catalogue, "MENU_PATH", menu)
    monkeypatch.setattr(catalogue, "GAMES_PATH", games)
    catalogue._data.cache_clear()
    catalogue.game_pages.cache_clear()  # an earlier test may have read the real games
    try:
        with pytest.raises(ProgramFileDamaged, match=r"main\[0\]: expected a mapping"):
            catalogue.main_menu()
        with pytest.raises(ProgramFileDamaged, match=r"games\[0\]: expected a mapping with a 'name'"):
            catalogue.games()
    finally:
        catalogue._data.cache_clear()
        catalogue.game_pages.cache_clear()  # an earlier test may have read the real games


def test_the_shipped_files_still_load():
    from ai import registry
    from game import catalogue
    from game.settings import SettingsSchema
    from game.views import rules_view

    assert registry.engines() and catalogue.main_menu() and catalogue.games() and rules_view.pages()
    assert SettingsSchema.load().items and Path(registry.DATA_DIR / "presets.yaml").is_file()
