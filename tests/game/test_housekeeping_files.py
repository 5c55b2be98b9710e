"""How StoneCave's own files are kept: an unreadable file is set aside, never lost and never over another."""
from __future__ import annotations

from pathlib import Path

from game.records import RecordsStore
from game.settings import SettingsStore, set_aside
from game.statistics import StatisticsStore


def test_a_file_set_aside_keeps_its_content_and_never_replaces_an_earlier_one(tmp_path: Path) -> None:
    path = tmp_path / "statistics.yaml"
    asides = []
    for text in ("first", "second", "third"):  # within one second the stamps are equal: a counter tells them apart
        path.write_text(text)
        asides.append(set_aside(path))
    assert not path.exists()
    assert [aside.read_text() for aside in asides] == ["first", "second", "third"]
    assert len(set(asides)) == 3 and all(aside.parent == tmp_path for aside in asides)
    assert all(aside.name.startswith("statistics.yaml.bad-") for aside in asides)


def test_every_store_sets_an_unreadable_file_aside_under_its_own_name(tmp_path: Path) -> None:
    stores = [RecordsStore(tmp_path), StatisticsStore(tmp_path), SettingsStore(tmp_path)]
    for store in stores:
        store.path.write_text("version: [unclosed\n")
        problems = store.load()
        problems = problems[1] if isinstance(problems, tuple) else problems  # settings: (values, problems)
        assert problems and "set aside" in problems[0], problems
        assert [p.read_text() for p in tmp_path.glob(store.path.name + ".bad-*")] == ["version: [unclosed\n"]
