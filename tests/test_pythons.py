"""Every supported Python, tested: the fast, window-free suites run on each supported version this machine has,
each in a fresh virtual environment, and the run says which versions it covered (the terminal summary prints a
line per version; tests/conftest.py).  A version the machine lacks is reported, not failed; under ``CI=true``
at least two versions must have run (this one, with the whole suite, and another).

The supported versions are pyproject.toml's ``Programming Language :: Python :: 3.x`` classifiers; its
``requires-python`` names the oldest of them (checked here, and the docs' claims in tests/test_docs_claims.py).
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import background

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser from PyPI (tomli, a test dependency there)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
FAST_SUITES = ["tests/rules", "tests/test_readme.py", "tests/test_docs_claims.py", "tests/ai/test_ai_search.py",
               "tests/game/test_session.py"]
"""Window-free suites that need only pytest, hypothesis and PyYAML: about 20 s each on a quiet machine."""
DESELECT = "not compiled"
"""The compiled-core cases need the extension built for that Python; the main run covers them."""


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def supported_versions() -> list[str]:
    """The Python versions the project says it supports (its classifiers), oldest first."""
    found = [match.group(1) for classifier in project().get("classifiers", [])
             if (match := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", classifier))]
    return sorted(found, key=lambda version: tuple(map(int, version.split("."))))


def suite_requirements(version: str) -> list[str]:
    """What the fast suites import beyond the standard library, with pyproject.toml's version bounds."""
    wanted = {"pytest", "hypothesis", "pyyaml", "tomli"}
    chosen = []
    for requirement in [*project()["dependencies"], *project()["optional-dependencies"]["test"]]:
        text, _, marker = requirement.partition(";")
        name = re.match(r"[A-Za-z0-9_.-]+", text.strip()).group(0).lower()  # type: ignore[union-attr]
        if name not in wanted:
            continue
        if "python_version < '3.11'" in marker and tuple(map(int, version.split("."))) >= (3, 11):
            continue
        chosen.append(text.strip())
    return chosen


def find_interpreter(version: str) -> str | None:
    """This machine's python ``version``: on PATH as pythonX.Y, under pyenv, or in /usr/bin; None if absent."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return sys.executable
    candidates = [shutil.which(f"python{version}")]
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    patches = glob.glob(os.path.join(pyenv, "versions", f"{version}.*", "bin", f"python{version}"))
    candidates += sorted(patches, key=lambda path: [int(part) for part in re.findall(r"\d+", path.split("versions")[-1])],
                         reverse=True)
    candidates.append(f"/usr/bin/python{version}")
    for candidate in candidates:
        if not candidate or not os.access(candidate, os.X_OK):
            continue
        try:
            probe = subprocess.run([candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                   capture_output=True, text=True, timeout=30, env=background.environ())
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.stdout.strip() == version:
            return candidate
    return None


def run_fast_suites(version: str, interpreter: str, folder: Path) -> tuple[bool, str]:
    """Make a venv for ``interpreter``, install the fast suites' needs, run them: (passed, one-line summary)."""
    venv = folder / f"venv-{version}"
    made = subprocess.run([interpreter, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=300,
                          env=background.environ())
    if made.returncode != 0:
        return False, f"cannot make a virtual environment ({made.stderr.strip().splitlines()[-1:]})"
    python = str(venv / "bin" / "python")
    installed = subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                                *suite_requirements(version)], capture_output=True, text=True, timeout=600,
                               env=background.environ())
    if installed.returncode != 0:
        return False, f"pip install failed: {installed.stderr.strip()[-500:]}"
    env = {key: value for key, value in background.environ().items() if key not in ("PYTHONHOME", "VIRTUAL_ENV")}
    # CI's own rules (skips are failures, the compiled core must have run) are for the main run; here the
    # compiled cases are deselected and any skip is caught below
    env.update(PYTHONPATH=str(ROOT), CI="", PYTHONDONTWRITEBYTECODE="1")
    result = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", DESELECT, *FAST_SUITES],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    summary = (result.stdout.strip().splitlines() or ["no output"])[-1].strip("= ")
    if result.returncode != 0 or re.search(r"\d+ (failed|skipped|error)", summary):
        return False, f"{summary}\n{result.stdout[-4000:]}\n{result.stderr[-2000:]}"
    return True, summary


def test_requires_python_names_the_oldest_supported_version() -> None:
    versions = supported_versions()
    assert len(versions) >= 2, "pyproject.toml's classifiers name the supported Pythons"
    assert project()["requires-python"] == f">={versions[0]}"
    current = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert current in versions, f"this run's Python {current} is not among the supported {versions}"


@background.job("other-pythons")
def other_pythons(folder: Path) -> tuple[dict[str, str | None], dict[str, tuple[bool, str]]]:
    """Each supported version's interpreter (None: absent), and the fast suites' outcome on each other one."""
    current = f"{sys.version_info.major}.{sys.version_info.minor}"
    found = {version: find_interpreter(version) for version in supported_versions()}
    others = {version: path for version, path in found.items() if path and version != current}
    # Two at a time, beside the rest of the suite (tests/background.py): each version's work is one process at
    # a time (venv, pip, pytest).
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = dict(zip(others, pool.map(lambda item: run_fast_suites(*item, folder), others.items())))
    return found, outcomes


@pytest.mark.slow
@pytest.mark.background("other-pythons")
def test_the_fast_suites_pass_on_every_supported_python_present(request: pytest.FixtureRequest) -> None:
    current = f"{sys.version_info.major}.{sys.version_info.minor}"
    found, outcomes = background.result("other-pythons")
    lines, ran, failed = [], [current], []
    for version, path in found.items():
        if version == current:
            lines.append(f"Python {version}: the whole suite (this run, {sys.executable})")
        elif path is None:
            lines.append(f"Python {version}: not on this machine, not tested")
        else:
            passed, summary = outcomes[version]
            lines.append(f"Python {version}: fast suites {'passed' if passed else 'FAILED'} "
                         f"({summary.splitlines()[0]}; {path})")
            if passed:
                ran.append(version)
            else:
                failed.append(f"Python {version}: {summary}")
    for line in lines:
        request.node.user_properties.append(("python_versions", line))
    print("\n".join(lines))
    assert not failed, "\n".join(failed)
    if os.environ.get("CI", "").lower() == "true":
        assert len(ran) >= 2, f"CI=true: only {ran} ran; install another supported Python ({supported_versions()})"
