"""``stonecave doctor`` and ``stonecave engines`` say which search core runs, and why."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import ai.core

ROOT = Path(__file__).resolve().parents[2]


def run(args, **env):  # type: ignore[no-untyped-def]
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, **env))


def test_doctor_names_the_core_and_each_games_kernel():
    result = run(["doctor"])
    assert result.returncode == 0, result.stderr
    expected = "compiled (Cython extension" if ai.core.module() is not None else "pure Python ("
    assert f"search core: {expected}" in result.stdout
    for game in ("kalah", "oware", "hus", "magnetic-cave"):
        assert any(line.split()[:1] == [game] for line in result.stdout.splitlines()), game


def test_doctor_says_why_the_fallback_runs_and_how_to_build_the_core():
    result = run(["doctor"], STONECAVE_CORE="python")
    assert result.returncode == 0, result.stderr
    assert "search core: pure Python (STONECAVE_CORE=python" in result.stdout
    assert "python -m pip install -e ." in result.stdout
    assert "compiled (" not in result.stdout.split("C compiler:")[0].split("search core:")[1].split("\n", 1)[1]


def test_engines_ends_with_the_core_in_use():
    result = run(["engines", "kalah"], STONECAVE_CORE="python")
    assert result.stdout.splitlines()[-1].startswith("search core: pure Python")


def test_a_closed_pipe_ends_the_listing_quietly():
    """``stonecave engines | head -1``: the reader closes first, and the command stops without a traceback."""
    child = subprocess.Popen([sys.executable, "-m", "game", "engines"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    child.stdout.close()  # before the child has written anything: every write it makes meets a closed pipe
    _, errors = child.communicate(timeout=60)
    assert child.returncode == 141, errors
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors
