"""The README is the user's guide: short enough to read, and every picture and page it links to exists."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_the_readme_stays_under_four_hundred_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 400, f"README.md has {len(lines)} lines: move how-it-works detail to docs/"


def test_every_local_link_and_picture_in_the_readme_exists() -> None:
    text = README.read_text(encoding="utf-8")
    targets = {match.split("#")[0] for match in re.findall(r"\]\(([^)\s]+)\)", text)
               if not match.startswith(("http://", "https://", "#"))}
    assert any(target.endswith(".png") for target in targets), "the README shows no screenshot"
    missing = sorted(target for target in targets if target and not (ROOT / target).exists())
    assert not missing, f"README.md links to files that do not exist: {missing}"
