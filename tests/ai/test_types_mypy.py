"""The type checker runs over rules/, ai/ and game/ with no error, under pyproject.toml's [tool.mypy]; no module
has its errors ignored (an ``ignore_errors`` override would need ALLOWED_MODULES raised, with its reason)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mypy import api

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser from PyPI (tomli, a test dependency there)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
ALLOWED_MODULES = 0
"""At most this many modules (a package pattern counts as one) may have their errors ignored, all in game/: none now."""


def _ignored_modules() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    modules: list[str] = []
    for override in config["tool"]["mypy"].get("overrides", []):
        if override.get("ignore_errors"):
            named = override["module"]
            modules += [named] if isinstance(named, str) else list(named)
    return modules


def test_the_allow_list_is_short_and_only_in_game() -> None:
    modules = _ignored_modules()
    assert len(modules) <= ALLOWED_MODULES, modules
    assert all(module.startswith("game.") for module in modules), modules


@pytest.mark.slow
def test_mypy_finds_no_error_in_rules_ai_and_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir",
                                      str(ROOT / ".mypy_cache"), "rules", "ai", "game"])
    assert status == 0, stdout + stderr
    assert stdout.startswith("Success: no issues found"), stdout
