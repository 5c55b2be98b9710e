"""Adding a game breaks no test and is covered everywhere: a throwaway sixth game, Addax (``tests/sixth_game.py``,
a two-row sowing game registered only as docs/architecture.md's "How to add a game" says), meets the generic
machinery (catalogue, menus, rules screen, presets, console, controller, session, save and load, words) with no
further edit, and the generic suites run over it as over any registered game."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rules
from ai.base import Limits
from ai.registry import make_engine
from game import catalogue, explain, savegame
from game.console.manager import main as console_main
from game.controller import MatchController, PlayMove, ShowResult
from game.savegame import Seat
from game.session import Session
from tests import registered, sixth_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def addax(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    sixth_game.install(monkeypatch.setattr)
    yield rules.get_game(sixth_game.NAME)
    monkeypatch.undo()
    sixth_game._clear_caches()


class Settings:
    def get(self, name: str) -> object:
        return {"think_time": 0.05}.get(name)

    def engine_spec(self, game: object, role: str) -> str:
        return "random"


class Statistics:
    def __init__(self) -> None:
        self.recorded = 0

    def mark_recorded(self, match: Session) -> None:
        pass

    def record_match(self, match: Session) -> list[str]:
        self.recorded += 1
        return []


def test_the_registrations_menus_and_rules_screen_take_the_new_game_with_no_record(addax) -> None:  # type: ignore[no-untyped-def]
    assert sixth_game.NAME in registered.names() and sixth_game.NAME in registered.sowing()
    record = catalogue.registration(addax)
    assert record == catalogue.Registration(sixth_game.NAME) and record.scene == "sowing" and record.console == "play"
    assert sixth_game.NAME in registered.with_scene("sowing")
    entry = next(entry for entry in catalogue.games() if entry.name == sixth_game.NAME)
    assert entry.available and entry.title == "Addax" and entry.blurb == sixth_game.PAGE["blurb"]
    from game.views.rules_view import pages

    assert [page.title for page in pages() if page.name == sixth_game.NAME] == ["Addax"]
    presets = record.presets()
    assert list(presets)[:4] == ["Easy", "Medium", "Hard", "Strongest"]
    state = addax.initial_state()
    assert make_engine(addax, presets["Easy"]).search(state).move in addax.legal_moves(state)


def test_the_settings_give_it_an_engine_for_every_role(addax, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from game.settings import SettingsStore

    settings, problems = SettingsStore(tmp_path).load()
    assert not problems
    state = addax.initial_state()
    for role, _title in settings.schema.engines_item.roles:
        spec = settings.engine_spec(addax, role)
        assert make_engine(addax, spec).search(state, Limits(time=0.2)).move in addax.legal_moves(state), (role, spec)


def test_the_words_speak_of_its_pits_and_seeds(addax) -> None:  # type: ignore[no-untyped-def]
    state = addax.initial_state()
    assert explain.move_name(addax, state, 2) == "pit 3"
    assert explain.move_text(addax, state, 2) == "South sows pit 3 (4 seeds): plays again"
    assert explain.words_of(addax) is catalogue.SOWING_WORDS


def test_a_session_plays_saves_and_loads_it(addax, tmp_path) -> None:  # type: ignore[no-untyped-def]
    session = Session.new(addax, (Seat(), Seat("random", 0.1)))
    while len(session.moves) < 8 and not session.is_over:
        session.play(session.legal_moves[-1])
    path = tmp_path / "addax.save"
    session.save(path)
    assert path.read_text(encoding="utf-8").count(f"game: {sixth_game.NAME}") == 1
    loaded = Session.from_saved(savegame.load(path), path)
    assert loaded.game.name == sixth_game.NAME and loaded.states == session.states


def test_the_controller_plays_a_whole_game_between_two_computers(addax) -> None:  # type: ignore[no-untyped-def]
    statistics = Statistics()
    controller = MatchController(Session.new(addax, (Seat("random", 0.05), Seat("random", 0.05))), Settings(), None,
                                 statistics)
    deadline = time.monotonic() + 60
    shown = False
    while not shown:
        assert time.monotonic() < deadline, "the game did not end"
        step = controller.update(0.5, animating=False)
        if isinstance(step, PlayMove):
            controller.play(step.move)
        shown = isinstance(step, ShowResult)
        if shown:
            controller.record_game_over()  # what the screen does when it shows the result
        time.sleep(0.002)
    assert controller.session.is_over and statistics.recorded == 1
    assert explain.result(controller.session).headline.split()[0] in ("South", "North", "A")


def test_the_console_plays_it_to_the_end(addax) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    code = console_main([sixth_game.NAME, "--south", "random", "--north", "random", "--time", "0.01"],
                        io.StringIO("new\nquit\nquit\n"), out)
    assert code == 0, out.getvalue()
    assert re.search(r"(South|North) wins|draw", out.getvalue()), out.getvalue()[-500:]


GENERIC = [
    "tests/rules/test_conformance.py", "tests/rules/test_move_events.py", "tests/rules/test_perft.py",
    "tests/game/test_catalogue.py", "tests/game/test_catalogue_registration.py", "tests/game/test_console.py",
    "tests/game/test_console_analyse.py", "tests/game/test_savegame.py", "tests/game/test_session.py",
    "tests/game/test_board_words.py", "tests/ai/test_analysis.py", "tests/game/test_hardening_console.py",
    "tests/ai/test_ai_engines.py", "tests/game/test_hardening_cli.py",
]
"""The generic suites (those that run over every registered game) that need no window."""


def test_the_generic_suites_run_over_a_sixth_game_and_pass() -> None:
    """The generic suites again, with Addax registered for the whole run (``-p tests.sixth_game``): every test
    that names the game passes, and so does every test of the catalogue (which checks each game's record)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("CI", None)  # CI=true demands a compiled search in the run; a sixth game has no compiled kernel
    command = [sys.executable, "-m", "pytest", "-q", "-p", "tests.sixth_game", "-p", "no:cacheprovider",
               "-k", f"{sixth_game.NAME} or catalogue or registry or bad_games", *GENERIC]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    tail = result.stdout[-3000:] + result.stderr[-2000:]
    assert result.returncode == 0, tail
    passed = re.search(r"(\d+) passed", result.stdout)
    assert passed and int(passed.group(1)) >= 30, tail
    assert not re.search(r"\d+ (failed|error|skipped)", result.stdout), tail


WINDOW = ["tests/game/test_board_fit.py", "tests/game/test_gui_sowing.py", "tests/game/test_gui_polish.py",
          "tests/game/test_gui_layout.py"]
"""The generic window suites: a sowing board's words fit at three sizes, moves animate to the rules' position,
every rules page opens with its drawing, and the Rules screen (a tab per game) fits at three window sizes."""


def test_the_generic_window_suites_run_over_a_sixth_game_and_pass() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("CI", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "tests.sixth_game", "-p", "no:cacheprovider",
               "-k", f"{sixth_game.NAME} or rules_screen or rules-", *WINDOW]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    tail = result.stdout[-3000:] + result.stderr[-2000:]
    assert result.returncode == 0, tail
    passed = re.search(r"(\d+) passed", result.stdout)
    assert passed and int(passed.group(1)) >= 5, tail
    assert not re.search(r"\d+ (failed|error|skipped)", result.stdout), tail
