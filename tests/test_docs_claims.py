"""Documents that stay true: what the README and docs/ link to exists (files and the sections their anchors
name), the Markdown files the code's docstrings cite are in the repository, the Python versions the docs name
are the tested ones (pyproject.toml's classifiers and requires-python, what tests/test_pythons.py runs), and the
statements once found stale stay gone."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser from PyPI (tomli, a test dependency there)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "BENCHMARKS.md", *(ROOT / "docs").rglob("*.md")])
SOURCE_FOLDERS = ("ai", "game", "rules", "guarded", "levels", "tests", "tools", "bench")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (not ``-`` or ``_``), spaces to ``-``."""
    text = re.sub(r"[`*_]{1,2}(?=\S)|(?<=\S)[`*_]{1,2}", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not (match := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)):
            continue
        base = slug(match.group(1))
        number = counts.get(base, 0)
        counts[base] = number + 1
        found.add(base if number == 0 else f"{base}-{number}")
    return found


def links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return [target for target in LINK.findall(text) if not target.startswith(("http://", "https://", "mailto:"))]


def supported_versions() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [match.group(1) for classifier in config["project"].get("classifiers", [])
             if (match := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", classifier))]
    return sorted(found, key=lambda version: tuple(map(int, version.split("."))))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_local_link_names_a_file_and_a_section_that_exist(document: Path) -> None:
    problems = []
    for target in links(document):
        file_part, _, anchor = target.partition("#")
        linked = (document.parent / file_part).resolve() if file_part else document
        if not linked.exists():
            problems.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            problems.append(f"{target}: no section #{anchor} in {linked.relative_to(ROOT)}")
    assert not problems, f"{document.relative_to(ROOT)}: {problems}"


def test_the_anchor_rule_matches_githubs() -> None:
    assert slug("The compiled core's contract") == "the-compiled-cores-contract"
    assert slug("Bad files, bad input and crashes") == "bad-files-bad-input-and-crashes"
    assert slug("Solitaire Mancala (single-agent engines)") == "solitaire-mancala-single-agent-engines"
    assert slug("`stonecave text`: the console") == "stonecave-text-the-console"


def test_the_markdown_files_the_code_cites_are_in_the_repository() -> None:
    cited: dict[str, list[str]] = {}
    for folder in SOURCE_FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            for name in re.findall(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\b", path.read_text(encoding="utf-8")):
                cited.setdefault(name, []).append(str(path.relative_to(ROOT)))
    missing = {name: where for name, where in cited.items()
               if not (ROOT / name).exists() and not (ROOT / "docs" / name).exists()}
    assert not missing, f"docstrings or comments cite Markdown files that are not in the repository: {missing}"


def test_the_python_versions_the_docs_name_are_the_tested_ones() -> None:
    versions = supported_versions()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["project"]["requires-python"] == f">={versions[0]}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    claim = re.search(r"Python (3\.\d+) to (3\.\d+)", readme)
    assert claim, "the README's set-up names the supported Pythons as 'Python 3.x to 3.y'"
    assert [claim.group(1), claim.group(2)] == [versions[0], versions[-1]], (claim.group(0), versions)
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        loose = re.findall(r"Python (3\.\d+)\+|Python (3\.\d+) or (?:newer|later)", text)
        assert not loose, f"{document.relative_to(ROOT)} names an open-ended Python range: {loose}"


def test_the_pythons_test_knows_the_same_versions() -> None:
    from tests.test_pythons import supported_versions as tested

    assert tested() == supported_versions()


def test_what_the_engines_page_promises_has_a_section() -> None:
    engines = ROOT / "docs" / "engines.md"
    headings = anchors(engines)
    intro = engines.read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert "opening book" in intro and any("opening-book" in anchor for anchor in headings)
    assert any("endgame-solver" in anchor for anchor in headings) and "endgame solver" in intro
    assert any("background-worker" in anchor for anchor in headings) and "background worker" in intro


def test_the_statements_once_stale_stay_gone() -> None:
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "about to move" not in architecture  # the console and the session have moved
    for module in ("game/console/manager.py", "game/console/play.py", "game/session.py"):
        assert module in architecture and (ROOT / module).exists(), module
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ignored = [override for override in config["tool"]["mypy"].get("overrides", []) if override.get("ignore_errors")]
    assert ("allow-list" in architecture) == bool(ignored), "architecture.md's mypy allow-list and pyproject disagree"
    intro = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert "Pure Python" not in intro, "the README calls the suite pure Python, but it has a compiled core"


def test_the_readme_states_the_default_the_tables_command_builds_on_the_compiled_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The command table's ``tables build`` row says what ``build`` makes without ``--seeds``, for the games the
    Strongest level grows a set for (it once said 18 after the default had become 20).  The table sizes need the
    compiled core, so the other Pythons' fast suites (``-k "not compiled"``, tests/test_pythons.py) leave it out."""
    import dataclasses
    import re

    import rules
    from ai.tables import games
    from game.tables_command import build_seeds

    for shipped in (games.KALAH, games.OWARE):  # the shipped later stages (tests/conftest.py turns them off)
        monkeypatch.setitem(games.TABLE_GAMES, shipped.name, shipped)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `stonecave tables build"))
    stated = re.search(r"default (\d+) for 6-pit Kalah, (\d+) for Oware", row)
    assert stated, row
    for spec, said in (("kalah:pits=6,seeds=4", stated.group(1)), ("oware", stated.group(2))):
        assert build_seeds(rules.parse_game_spec(spec)) == int(said), spec
    from game.tables_command import _parser

    helped = " ".join(_parser().format_help().split())  # the --seeds help says the same
    assert f"default for build: {stated.group(1)} for 6-pit Kalah, {stated.group(2)} for Oware" in helped, helped
