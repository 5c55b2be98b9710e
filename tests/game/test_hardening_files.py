"""Every file StoneCave reads goes through one guarded loader: a value or a clear message, never another exception,
always quickly; a bad file is set aside (or reported when it cannot be moved) and the program goes on (issue 22)."""
from __future__ import annotations

import errno
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.records import RecordsStore
from game.settings import SettingsStore
from game.statistics import StatisticsStore
from guarded import files
from guarded.files import FileProblem
from levels.solitaire import LevelError, load_levels, read_level

HANG_SECONDS = 5.0
"""What these tests allow an answer that must come 'at once': a hang (what they guard against) never
answers, and a shared, loaded machine can take a second where a quiet one takes milliseconds."""

ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join(['*a' + (str(i - 1) if i > 1 else '')] * 9)}]\n" for i in range(1, 10))
HOSTILE = {
    "deep": "version: 1\nx: " + "[" * 20000 + "]" * 20000 + "\n",
    "huge int": "version: " + "9" * 5000 + "\n",
    "alias bomb": "version: 1\n" + ALIAS_BOMB,
    "nan": "version: 1\nthink_time: .nan\n",
    "binary": "version: 1\n\0\0\0",
    "latin-1": "version: 1\nname: caf\xe9\n",
}
SETTINGS_GOOD = "version: 1\nthink_time: 0.5\n"
STATS_GOOD = "version: 1\ngames: []\n"
RECORDS_GOOD = "version: 1\nresults: {}\n"


def _stores(folder: Path) -> list:  # type: ignore[type-arg]
    return [SettingsStore(folder), StatisticsStore(folder), RecordsStore(folder)]


def _problems(store) -> list[str]:  # type: ignore[no-untyped-def]
    result = store.load()
    return result[1] if isinstance(result, tuple) else result


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_config_files_are_set_aside_quickly_with_a_message(tmp_path: Path, kind: str) -> None:
    for store in _stores(tmp_path):
        data = HOSTILE[kind]
        store.path.write_bytes(data.encode("latin-1") if kind == "latin-1" else data.encode("utf-8"))
        started = time.perf_counter()
        problems = _problems(store)
        assert time.perf_counter() - started < 5.0  # bounded (a bomb or a FIFO used to hang for good), loosely: a shared machine
        assert problems and "set aside" in problems[0], (kind, problems)
        assert sum(len(problem) for problem in problems) < 1200, problems
        assert not store.path.exists(), "the next start would meet the same file"
        assert _problems(store) == []  # the next start is clean


def test_a_file_of_100_megabytes_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "settings.yaml"
    with open(path, "wb") as stream:
        stream.truncate(100 * 1024 * 1024)  # sparse: costs no disk
    started = time.perf_counter()
    _settings, problems = SettingsStore(tmp_path).load()
    assert time.perf_counter() - started < HANG_SECONDS
    assert "larger than the 1 MB" in " ".join(problems)


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir])
def test_a_fifo_or_folder_in_place_of_a_file_is_refused_without_waiting(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    for store in _stores(tmp_path):
        make(store.path)
        started = time.perf_counter()
        problems = _problems(store)
        assert time.perf_counter() - started < HANG_SECONDS
        assert "not a regular file" in " ".join(problems), problems
    levels_dir = tmp_path / "levels"
    levels_dir.mkdir()
    make(levels_dir / "dose-99.yaml")
    _levels, problems = load_levels(levels_dir)
    assert len(problems) == 1 and "not a regular file" in problems[0]


def test_a_read_only_folder_reports_the_file_instead_of_crashing(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def refuse(source, target):  # type: ignore[no-untyped-def]
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(os, "rename", refuse)
    for store in _stores(tmp_path):
        store.path.write_text("version: [unclosed\n")
        problems = _problems(store)
        assert "could not be set aside" in problems[0] and "Read-only" in problems[0], problems
        assert store.path.exists()
        assert _problems(store)  # reported again next start, still no crash


def test_nan_settings_values_are_refused(tmp_path: Path) -> None:
    from game.settings import SettingsError, SettingsSchema

    schema = SettingsSchema.load()
    for key in ("think_time", "animation_speed"):
        with pytest.raises(SettingsError, match="must be a number"):
            schema.item(key).check(float("nan"))


def test_invalid_engine_choices_in_settings_are_named_not_silently_replaced(tmp_path: Path) -> None:
    (tmp_path / "settings.yaml").write_text(
        "version: 1\nengines:\n  kalah:\n    opponent: greedy:eval=nonexistent\n    hint: pvs:time=1e9\n"
        "  nogame:\n    opponent: random\n")
    settings_, problems = SettingsStore(tmp_path).load()
    text = "\n".join(problems)
    assert "engines.kalah.opponent" in text and "nonexistent" in text and "valid: default" in text
    assert "engines.kalah.hint" in text and "0.001 to 3600" in text
    assert "engines.nogame: unknown game" in text and "kalah" in text
    assert "opponent" not in settings_.engine_choices.get("kalah", {})


def test_quote_never_formats_a_huge_value() -> None:
    nested: list = []
    for _ in range(1000):
        nested = [nested, nested]  # 2**1000 leaves if expanded
    started = time.perf_counter()
    assert len(files.quote(nested)) <= 60 and len(files.quote(10 ** 5000)) <= 60
    assert time.perf_counter() - started < HANG_SECONDS


# -- property tests: generated and mutated files ---------------------------------------------------------------
YAML_BITS = st.sampled_from(["version: 1\n", "games:\n", "results:\n", "  - ", "  x: ", "[", "]", "{", "}", "&a ",
                             "*a ", "!!python/object:os.system ", ".nan", "1e9", "9" * 40, "- ", ": ", "\t", "\n",
                             "'", '"', "#", "\0", "\xff", "think_time: ", "engines:\n  kalah:\n    opponent: ",
                             "game: kalah\n", "moves: 3\n", "true", "null", "~", "-1", "0.5", "holes: [4, 4]\n"])
GOOD_FILES = [SETTINGS_GOOD, STATS_GOOD, RECORDS_GOOD,
              "version: 1\ngames:\n  - {game: kalah, kind: vs-computer, opponent: x, result: won, moves: 3, "
              "date: '2026-01-01'}\n",
              "version: 1\nresults:\n  dose-01: {stored: 40, rounds: 12, cleared: false}\n"]


def _mutated(draw_base: str, cut: int, insert: str) -> str:
    cut = cut % (len(draw_base) + 1)
    return draw_base[:cut] + insert + draw_base[cut:]


FILE_TEXTS = st.one_of(
    st.lists(YAML_BITS, max_size=30).map("".join),
    st.builds(_mutated, st.sampled_from(GOOD_FILES), st.integers(0, 400), st.text(max_size=20)),
    st.text(max_size=200),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(FILE_TEXTS)
def test_config_loaders_give_values_or_messages_never_exceptions(tmp_path: Path, text: str) -> None:
    folder = tmp_path / str(abs(hash(text)))
    folder.mkdir(exist_ok=True)
    for store in _stores(folder):
        store.path.write_bytes(text.encode("utf-8", "surrogatepass"))
        started = time.perf_counter()
        problems = _problems(store)
        assert time.perf_counter() - started < 5.0  # bounded (a bomb or a FIFO used to hang for good), loosely: a shared machine
        assert all(isinstance(problem, str) and len(problem) < 1000 for problem in problems)
        if problems:
            assert not store.path.exists()


LEVEL = (Path(__file__).parents[2] / "levels" / "solitaire" / "dose-01.yaml").read_text(encoding="utf-8")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.builds(_mutated, st.just(LEVEL), st.integers(0, 2000), st.one_of(YAML_BITS, st.text(max_size=12))),
                 FILE_TEXTS))
def test_level_loader_gives_a_level_or_a_message(tmp_path: Path, text: str) -> None:
    path = tmp_path / "dose-77.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    started = time.perf_counter()
    try:
        level = read_level(path)
    except LevelError as error:
        assert str(error).startswith("dose-77.yaml: ") and len(str(error)) < 600
    else:
        assert len(level.holes) == 12 and sum(level.holes) == 48
    assert time.perf_counter() - started < HANG_SECONDS


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300) | FILE_TEXTS.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_the_guarded_parser_raises_only_file_problems(data: bytes) -> None:
    started = time.perf_counter()
    try:
        files.parse_yaml(files.decode(data))
    except FileProblem as error:
        assert str(error) and len(str(error)) < 300
    assert time.perf_counter() - started < HANG_SECONDS
