"""The wheel a player installs: built from the sdist by ``python -m build`` (so the sdist builds the compiled core
where a compiler exists), installed into a fresh virtual environment outside the source tree with no C compiler
reachable, and played from there with the working folder outside the tree: ``stonecave doctor`` reports the
compiled core and finds the levels, fonts and sounds in site-packages, a console game plays to its end, the
window opens on the title screen under Xvfb, and the desktop entry points at the environment's command.

About 1.5 minutes: the build (two isolated build environments and the compile) is most of it; the
dependencies come from pip's cache (the README's test command has just installed the same ones).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests import background

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
BUILD_TIMEOUT = 900

PROBE = '''
"""Open the real window (game.app.run) and, instead of arcade.run's loop, draw a few frames and report."""
import sys
import arcade
from game import app, theme

def report():
    window = arcade.get_window()
    for _ in range(6):
        window.dispatch_events()
        window._dispatch_updates(1 / 60)
        window.dispatch_event("on_draw")
        window.flip()
    window.dispatch_event("on_draw")
    image = arcade.get_image(0, 0, window.width, window.height)
    image.save(sys.argv[2])
    view = window.current_view
    labels = []
    def walk(widget):
        if hasattr(widget, "text"):
            labels.append(str(widget.text))
        for child in getattr(widget, "children", []):
            walk(child)
    for layer in view.ui.children.values():
        for widget in layer:
            walk(widget)
    print("VIEW", type(view).__name__)
    print("LABELS", "|".join(labels))
    print("COLOURS", len(set(image.convert("RGB").getdata())))
    print("FONTS", "|".join(theme.font_files()))
    print("GAME", app.__file__)
    window.close()

arcade.run = report
sys.exit(app.run(["--config-dir", sys.argv[1], "--windowed"]))
'''


def _run(command: list[str], timeout: float = 300, **options) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    options.setdefault("env", background.environ())
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **options)
    assert result.returncode == 0, f"{' '.join(map(str, command))} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@background.job("dist")
def build_and_install(folder: Path) -> dict[str, Path]:
    """``python -m build``: the sdist, then the wheel built from the unpacked sdist (with this machine's compiler,
    in an isolated build environment); then a fresh virtual environment outside the tree with the wheel
    installed, no C compiler on its PATH.  Beside the rest of the suite (tests/background.py)."""
    out = folder / "dist"
    out.mkdir()
    built = _run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], timeout=BUILD_TIMEOUT)
    (out / "build.log").write_text(built.stdout + built.stderr, encoding="utf-8")
    base = folder / "player"
    base.mkdir()
    assert ROOT not in base.parents
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    wheel = next(out.glob("stonecave-*.whl"))
    env = _no_compiler_env(venv)
    env["CC"] = env["CXX"] = "/bin/false"  # a compile would fail loudly; installing a wheel compiles nothing
    installed = _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-input", str(wheel)], env=env,
                     cwd=base, timeout=600)
    assert "Successfully installed" in installed.stdout and "stonecave-0" in installed.stdout
    home = base / "home"
    home.mkdir()
    return {"dist": out, "venv": venv, "base": base, "home": home}


@pytest.fixture(scope="module")
def dist() -> Path:
    """The folder of the sdist, the wheel and the build's log."""
    return background.result("dist")["dist"]


@pytest.fixture(scope="module")
def player(dist: Path) -> dict[str, Path]:
    """The player's environment: ``venv`` (the wheel installed), ``base`` and ``home`` folders."""
    return background.result("dist")


def _no_compiler_env(venv: Path) -> dict[str, str]:
    """The environment a player without a compiler has: the venv's bin folder as the whole PATH."""
    env = {key: value for key, value in background.environ().items()
           if key not in ("PYTHONPATH", "STONECAVE_CORE", "VIRTUAL_ENV", "CC", "CXX", "PYTHONHOME")}
    env["PATH"] = str(venv / "bin")
    return env


def _player_env(player: dict[str, Path]) -> dict[str, str]:
    env = _no_compiler_env(player["venv"])
    env.update(HOME=str(player["home"]), STONECAVE_CONFIG_DIR=str(player["home"] / "config"),
               XDG_DATA_HOME=str(player["home"] / "share"))
    return env


def _site_packages(player: dict[str, Path]) -> Path:
    found = list((player["venv"] / "lib").glob("python3*/site-packages"))
    assert len(found) == 1, found
    return found[0]


def test_the_sdist_has_the_sources_and_nothing_a_build_left_behind(dist: Path) -> None:
    sdist = next(dist.glob("stonecave-*.tar.gz"))
    with tarfile.open(sdist) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    assert {"setup.py", "pyproject.toml", "README.md", "ai/core/_core.pyx", "ai/core/search.pxi",
            "ai/core/fingerprint.py", "assets/icons/stonecave.png"} <= set(names)
    assert not [name for name in names if name.endswith((".c", ".so", ".pyc"))], "build products in the sdist"


def test_the_sdist_builds_the_compiled_core_where_a_compiler_exists(dist: Path) -> None:
    """``python -m build`` builds the wheel from the unpacked sdist: a wheel with the core is the sdist's build."""
    log = (dist / "build.log").read_text(encoding="utf-8")
    assert "Building wheel from sdist" in log and "building 'ai.core._core' extension" in log, log[-3000:]
    assert "was not built" not in log, log[-3000:]  # setup.py's warning when the compile fails


def test_the_wheel_carries_the_compiled_core_and_the_data_but_no_c_source(dist: Path) -> None:
    wheel = next(dist.glob("stonecave-*.whl"))
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert f"-{tag}-{tag}-" in wheel.name, wheel.name  # a platform wheel: the core is compiled inside
    names = zipfile.ZipFile(wheel).namelist()
    assert [name for name in names if re.fullmatch(r"ai/core/_core\..*\.so", name)], "no compiled core"
    assert len([name for name in names if name.startswith("levels/solitaire/") and name.endswith(".yaml")]) >= 20
    assert {"assets/fonts/Quicksand-Regular.ttf", "assets/fonts/OFL.txt", "assets/icons/stonecave.png",
            "assets/icons/stonecave.svg", "ai/core/_fingerprint.pxi", "ai/data/calibration.json"} <= set(names)
    assert not [name for name in names if name.endswith(".c") or name.startswith("tests/")]
    from ai.kalah_proofs import PROOF_FILES

    assert {f"ai/data/{name}" for name in PROOF_FILES.values()} <= set(names)  # Perfect's opening proofs
    assert not [name for name in names if name.endswith(".partial")]  # a build's progress is for rebuilding only


def test_doctor_in_the_players_environment_reports_the_compiled_core_and_the_data(player: dict[str, Path]) -> None:
    site = _site_packages(player)
    result = _run([str(player["venv"] / "bin" / "stonecave"), "doctor"], env=_player_env(player), cwd=player["home"])
    out = result.stdout
    assert "search core: compiled (Cython extension" in out and "stale" not in out.lower(), out
    assert "compiled core build: portable" in out, out  # a wheel never needs this CPU's popcnt
    assert "C compiler: not found" in out, out
    assert re.search(rf"levels: [1-9]\d* Solitaire levels in {re.escape(str(site))}", out), out
    assert f"fonts: 2 font files in {site}" in out, out
    assert "sounds: 5 of 5 found" in out, out
    assert str(ROOT) not in out, out  # nothing is read from the source tree


def test_a_console_game_plays_to_its_end_from_the_wheel(player: dict[str, Path]) -> None:
    result = _run([str(player["venv"] / "bin" / "stonecave"), "text", "kalah:pits=3,seeds=2",
                   "--south", "pvs:depth=4", "--north", "Easy", "--time", "0.2"],
                  input="1\n", env=_player_env(player), cwd=player["home"], timeout=120)
    assert re.search(r"Game over after \d+ moves: .* Score: South \d+, North \d+\.", result.stdout), result.stdout
    assert "Traceback" not in result.stderr, result.stderr


@pytest.mark.gui  # under CI=true a skip (no display) is a failure (tests/conftest.py)
def test_the_window_opens_on_the_title_screen_from_the_wheel(player: dict[str, Path]) -> None:
    if not os.environ.get("DISPLAY"):
        pytest.skip("no X display and no Xvfb (tests/conftest.py starts one): the window cannot open")
    probe = player["base"] / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    shot = player["base"] / "title.png"
    result = _run([str(player["venv"] / "bin" / "python"), str(probe), str(player["home"] / "config"), str(shot)],
                  env=_player_env(player), cwd=player["home"], timeout=120)
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    site = str(_site_packages(player))
    assert lines.get("VIEW") == "TitleView", result.stdout
    assert "Play" in lines["LABELS"].split("|") and "Quit" in lines["LABELS"].split("|"), lines["LABELS"]
    assert int(lines["COLOURS"]) > 20, "the title screen drew next to nothing"
    assert lines["GAME"].startswith(site) and all(font.startswith(site) for font in lines["FONTS"].split("|"))
    assert shot.stat().st_size > 10_000


def test_the_desktop_entry_starts_the_environments_own_command(player: dict[str, Path]) -> None:
    _run([str(player["venv"] / "bin" / "stonecave"), "desktop", "install"], env=_player_env(player),
         cwd=player["home"])
    entry = (player["home"] / "share" / "applications" / "stonecave.desktop").read_text(encoding="utf-8")
    assert f"Exec={player['venv'] / 'bin' / 'stonecave'}\n" in entry, entry
