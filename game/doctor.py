"""``stonecave doctor``: what this installation runs on, and how to fix what is missing.

It says which search core the engines use (the compiled one, or the pure-Python fallback and why), which
kernel each two-player game gets, whether the compiled core is stale (its sources changed since the build)
and whether it is a portable build, whether a C compiler and Cython are there to build the core, where the
levels, fonts and sounds are read from, whether a display is there for the window, and where settings and
saves go.  It imports arcade only to find its bundled sounds, and says so when arcade cannot be imported.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from importlib import metadata
from pathlib import Path

from guarded import files


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def kernel_lines() -> list[str]:
    """One line per two-player game: the kernel its strong engine searches on."""
    import rules
    from ai.evaluators import get_evaluator
    from ai.fast import kernel_for

    lines = []
    for info in rules.list_games():
        if info.num_players != 2:
            continue
        game = rules.get_game(info.name)
        kernel = kernel_for(game, get_evaluator(game))
        kind = "compiled" if getattr(kernel, "compiled", False) else "pure Python"
        lines.append(f"    {info.name:<14} {kind} ({type(kernel).__name__})")
    return lines


def build_lines() -> list[str]:
    """What the loaded compiled core was built as: stale or matching its sources, portable or for this CPU."""
    import ai.core

    module = ai.core.module()
    if module is None:
        return []
    lines = []
    stale = ai.core.stale_reason(module)
    if stale is not None:
        lines.append(f"  STALE BUILD: the compiled core {stale}")
    cpu = "for this machine's CPU (popcnt)" if getattr(module, "USES_POPCNT", False) else "portable (baseline CPU)"
    lines.append(f"  compiled core build: {cpu}, sources {'changed since' if stale else 'as built'}")
    return lines


def data_lines() -> list[str]:
    """Where the game's data files are read from (a source checkout or site-packages), and whether they are
    all there: the Solitaire levels, the display face, arcade's sounds."""
    from levels.solitaire import LEVEL_DIR

    levels = sorted(LEVEL_DIR.glob("*.yaml"))
    lines = [f"  levels: {len(levels)} Solitaire levels in {LEVEL_DIR}"]
    spec = importlib.util.find_spec("assets")
    fonts = Path(next(iter(spec.submodule_search_locations or []), "")) / "fonts" if spec else None
    faces = sorted(fonts.glob("*.ttf")) if fonts is not None else []
    lines.append(f"  fonts: {len(faces)} font files in {fonts}")
    try:
        import arcade

        from game.sound import SOUNDS
    except Exception as error:  # noqa: BLE001 - a broken arcade install is what this line reports
        lines.append(f"  sounds: arcade cannot be imported ({type(error).__name__}: {error})")
        return lines
    folder = Path(arcade.__file__).parent / "resources" / "assets"
    found = []
    for name in SOUNDS.values():
        try:
            found.append(files.is_regular(arcade.resources.resolve(name)))
        except (FileNotFoundError, ValueError):
            found.append(False)
    lines.append(f"  sounds: {sum(found)} of {len(found)} found in {folder / 'sounds'}")
    return lines


def report() -> list[str]:
    import ai.core

    status = ai.core.status()
    lines = [f"StoneCave doctor (Python {sys.version.split()[0]}, {sys.executable})"]
    lines.append(f"  search core: {status.describe()}")
    lines.extend(build_lines())
    lines.extend(kernel_lines())
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if not status.compiled:
        lines.append("  to get the compiled core (several times faster, and the window stays smooth while the "
                     "computer thinks):")
        if compiler is None:
            lines.append("    1. install a C compiler and Python's headers (Debian/Ubuntu: "
                         "apt-get install gcc python3-dev; macOS: xcode-select --install)")
        lines.append(f"    {'2' if compiler is None else '1'}. reinstall from the source folder: {ai.core.REBUILD}")
    lines.append(f"  C compiler: {compiler or 'not found'}")
    cython = _version("Cython")
    lines.append(f"  Cython: {cython or 'not installed here (pip brings it for the build by itself)'}")
    arcade_version = _version("arcade")
    lines.append(f"  arcade: {arcade_version or 'missing: python -m pip install -e .'}")
    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if sys.platform.startswith("linux") and not display:
        lines.append("  display: none (the window needs one; `stonecave text GAME` plays in the terminal)")
    else:
        lines.append(f"  display: {display or 'the desktop'}")
    lines.extend(data_lines())
    from game.settings import config_dir

    lines.append(f"  settings and saves: {config_dir()}")
    return lines


def main(argv: list[str]) -> int:
    if argv:
        print(f"stonecave doctor takes no arguments, not {' '.join(argv)!r}", file=sys.stderr)
        return 2
    print("\n".join(report()))
    return 0
