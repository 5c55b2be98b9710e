"""A build that cannot go stale: the compiled core carries the fingerprint of the .pyx/.pxi sources it was
built from, and a checkout whose sources changed since is warned about on import, named by ``stonecave
doctor`` with the rebuild command, and refused by the test suite (tests/conftest.py)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ai.core
from ai.core.fingerprint import GENERATED, source_files, source_fingerprint
from tests.cores import compiled_only

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "ai" / "core"


def test_the_fingerprint_covers_every_cython_source_and_changes_with_any_of_them(tmp_path: Path) -> None:
    names = {path.name for path in source_files(CORE)}
    assert {"_core.pyx", "search.pxi", "kernel.pxi"} <= names and GENERATED not in names
    for path in source_files(CORE):
        shutil.copy(path, tmp_path / path.name)
    before = source_fingerprint(tmp_path)
    assert before == source_fingerprint(CORE)
    (tmp_path / GENERATED).write_text('SOURCE_FINGERPRINT = "whatever"\n')  # the generated file is left out
    assert source_fingerprint(tmp_path) == before
    with (tmp_path / "hus.pxi").open("a") as source:
        source.write("# a comment is a change too: the build no longer matches\n")
    assert source_fingerprint(tmp_path) != before
    assert source_fingerprint(tmp_path / "nowhere") is None


def test_the_comparison() -> None:
    assert not ai.core.fingerprints_differ("abc", "abc")
    assert ai.core.fingerprints_differ("abc", "abd")
    assert ai.core.fingerprints_differ(None, "abc")  # a build from before fingerprints is stale
    assert not ai.core.fingerprints_differ("abc", None)  # no sources beside the build: nothing to compare


@compiled_only
def test_this_build_matches_its_sources() -> None:
    core = ai.core.require()
    assert core.SOURCE_FINGERPRINT == source_fingerprint(CORE)
    assert ai.core.stale_reason(core) is None
    assert "stale" not in ai.core.status().why


@compiled_only
def test_a_stale_build_is_warned_about_named_by_doctor_and_refused_by_the_suite(tmp_path: Path) -> None:
    """The tree copied with its build, one .pxi edited afterwards, as a maintainer who forgot to rebuild."""
    for folder in ("ai", "rules", "game", "levels", "guarded", "assets"):
        shutil.copytree(ROOT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.c", "*.html"))
    (tmp_path / "tests").mkdir()
    for name in ("conftest.py", "background.py", "slow.txt", "cores.py", "__init__.py"):
        if (ROOT / "tests" / name).exists():
            shutil.copy(ROOT / "tests" / name, tmp_path / "tests" / name)
    (tmp_path / "tests" / "test_nothing.py").write_text("def test_nothing():\n    pass\n")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with (tmp_path / "ai" / "core" / "search.pxi").open("a") as source:
        source.write("# edited after the build\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("STONECAVE_CORE", None)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120)

    imported = run("-c", "import ai.core")
    assert imported.returncode == 0, imported.stderr
    warning = imported.stderr.strip().splitlines()
    assert len(warning) == 1 and "stale" in warning[0] and ai.core.REBUILD_IN_PLACE in warning[0], warning

    doctor = run("-m", "game", "doctor")
    assert doctor.returncode == 0, doctor.stderr
    assert "STALE BUILD" in doctor.stdout and ai.core.REBUILD_IN_PLACE in doctor.stdout, doctor.stdout

    suite = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    assert suite.returncode == pytest.ExitCode.USAGE_ERROR, suite.stdout + suite.stderr
    assert "refusing to test a stale build" in suite.stdout + suite.stderr
    assert ai.core.REBUILD_IN_PLACE in suite.stdout + suite.stderr
    assert "test_nothing" not in suite.stdout

    (tmp_path / "ai" / "core" / "search.pxi").write_bytes((CORE / "search.pxi").read_bytes())  # as built again
    fresh = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    assert fresh.returncode == 0 and "1 passed" in fresh.stdout, fresh.stdout + fresh.stderr


def _cython_lint(*paths: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "import sys; from cython_lint.cython_lint import main; sys.exit(main())"]
    return subprocess.run([*command, *paths], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_the_cython_sources_pass_cython_lint_with_the_projects_settings(tmp_path: Path) -> None:
    """Linted like the Python sources, with pyproject.toml's [tool.cython-lint] (120 columns, E702 allowed)."""
    result = _cython_lint("ai/core")
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr
    # the linter really looks: an unused import and a long line are reported
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (tmp_path / "bad.pyx").write_text("import os\n\n\ndef f():\n    return 0  # " + "x" * 120 + "\n")
    bad = _cython_lint("bad.pyx", cwd=tmp_path)
    assert bad.returncode != 0 and "imported but unused" in bad.stdout and "E501" in bad.stdout, bad.stdout + bad.stderr


def test_the_rebuild_command_reads_this_projects_configuration() -> None:
    """The command the stale-build messages give must run with the setuptools installed here (an SPDX licence
    string, for one, needs setuptools 77 and stopped it once)."""
    assert ai.core.REBUILD_IN_PLACE == "python setup.py build_ext --inplace"
    result = subprocess.run([sys.executable, "setup.py", "--name"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0 and result.stdout.strip().splitlines()[-1] == "stonecave", result.stderr[-2000:]
