"""The display face ships with the package: its files and licence are package data, found through the installed
``assets`` package (not a path into a source checkout), and the type scale names it."""
from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

from game import theme

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser from PyPI (tomli, a test dependency there)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]


def test_the_font_files_and_licence_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"].get("assets", [])
    shipped = [path.relative_to(ROOT / "assets").as_posix() for path in (ROOT / "assets" / "fonts").iterdir()]
    assert "OFL.txt" in {Path(name).name for name in shipped}
    for name in shipped:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), f"assets/{name} would not be installed"


def test_theme_finds_the_fonts_through_the_assets_package() -> None:
    import assets

    files = [Path(path) for path in theme.font_files()]
    assert files and all(path.is_file() and path.suffix == ".ttf" for path in files)
    assert all(path.parent == Path(assets.__file__).parent / "fonts" for path in files)
    assert (files[0].parent / "OFL.txt").read_text().count("SIL Open Font License") >= 1


def test_display_steps_use_the_shipped_face_and_body_steps_the_bundled_one() -> None:
    for style in (theme.TITLE, theme.HEADING, theme.LABEL):
        assert style.font[0] == theme.DISPLAY_FONT and style.bold
    for style in (theme.BODY, theme.SMALL):
        assert style.font[0] == theme.BODY_FONT
    sizes = [style.size for style in (theme.TITLE, theme.HEADING, theme.LABEL, theme.BODY, theme.SMALL)]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
