"""Reading what a player's screen says: every text a view holds (its UIManager's widgets, its own ``arcade.Text``
and pyglet labels, its Sections' and panels' texts), and the engine words that must not be among them.

``ENGINE_WORDS`` are the words of engine developers (issue 30): an engine spec (``pvs:time=2,memory=64``),
plies, nodes, positions per second, the clock's poll, the evaluator's ``eval``, ``packed-dfs``, a search depth
("17 moves ahead", "depth"), state counts ("274 states in 0.00 s"), the compiled core.  With the Details
setting on they come back, for those who want them.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

ENGINE_WORDS = {
    "an engine spec": re.compile(r"\b[a-z][a-z-]*:[a-z_]+=[\w.]+"),
    "plies": re.compile(r"\bpl(y|ies)\b", re.IGNORECASE),
    "nodes": re.compile(r"\bnodes?\b", re.IGNORECASE),
    "positions/s": re.compile(r"positions?\s*/\s*s\b|\bk positions\b", re.IGNORECASE),
    "poll": re.compile(r"\bpoll\b", re.IGNORECASE),
    "eval": re.compile(r"\beval\b", re.IGNORECASE),
    "packed-dfs": re.compile(r"packed-dfs|\bdfs\b", re.IGNORECASE),
    "a search depth": re.compile(r"\bdepth\b|\b\d+ moves? ahead\b|looking \d+", re.IGNORECASE),
    "state counts": re.compile(r"\b[\d,]+ states\b|\bstates (in|explored)\b", re.IGNORECASE),
    "the compiled core": re.compile(r"\b(compiled|python) core\b", re.IGNORECASE),
}
"""Engine words, by what they are, as patterns on a screen's text."""

OCR_WORDS = {name: ENGINE_WORDS[name] for name in ("plies", "positions/s", "the compiled core", "an engine spec")}
"""The patterns that still hold on OCR's reading of a screenshot (longer words, fewer false readings)."""


def engine_words(texts: Iterable[str]) -> list[str]:
    """``what: "the text"`` for each engine word found in ``texts``."""
    found = []
    for text in texts:
        for name, pattern in ENGINE_WORDS.items():
            if pattern.search(text):
                found.append(f"{name}: {text!r}")
    return found


def widget_texts(widget: Any) -> list[str]:
    """The texts of an arcade.gui widget and its children."""
    texts = []
    text = getattr(widget, "text", None)
    if isinstance(text, str) and text:
        texts.append(text)
    for child in getattr(widget, "children", ()) or ():
        texts += widget_texts(child)
    return texts


def view_texts(view: Any) -> list[str]:
    """Every text a view holds: its UIManager's widgets on every layer, and every ``arcade.Text`` / pyglet label /
    arcade.gui widget reachable from its attributes (its Sections, panels, bars, controllers' words)."""
    import arcade
    import arcade.gui
    import pyglet

    texts: list[str] = []
    seen: set[int] = set()

    def visit(item: Any, depth: int) -> None:
        if depth > 6 or id(item) in seen or item is None or isinstance(item, (int, float, bool, bytes)):
            return
        seen.add(id(item))
        if isinstance(item, str):
            return
        if isinstance(item, (arcade.Text, pyglet.text.layout.TextLayout)):
            if item.text:
                texts.append(str(item.text))
            return
        if isinstance(item, arcade.gui.UIWidget):
            texts.extend(widget_texts(item))
            return
        if isinstance(item, arcade.gui.UIManager):
            for layer in item.children.values():
                for widget in layer:
                    texts.extend(widget_texts(widget))
            return
        if isinstance(item, dict):
            for value in list(item.values())[:400]:
                visit(value, depth + 1)
            return
        if isinstance(item, (list, tuple, set, frozenset)):
            for value in list(item)[:400]:
                visit(value, depth + 1)
            return
        module = type(item).__module__ or ""
        if module.startswith("game.") or isinstance(item, arcade.Section):
            for name, value in list(vars(item).items()) if hasattr(item, "__dict__") else ():
                if isinstance(value, str) and name.endswith(("text", "_text", "message", "title", "line")):
                    texts.append(value)
                visit(value, depth + 1)
            for name in ("hint_text", "computer_text", "thinking", "reasoning"):  # the controller's words
                value = getattr(type(item), name, None)
                if isinstance(value, property):
                    try:
                        said = getattr(item, name)
                    except Exception:  # noqa: BLE001 - a property that needs more state says nothing here
                        continue
                    if isinstance(said, str) and said:
                        texts.append(said)

    visit(view, 0)
    manager = getattr(view, "section_manager", None)
    if manager is not None:
        visit(list(manager.sections), 1)
    return texts


def ocr(image: Any, folder: Any, name: str) -> str:
    """Tesseract's reading of a whole screenshot (light text on dark: inverted and enlarged first)."""
    import subprocess

    from PIL import Image, ImageOps

    gray = ImageOps.invert(image.convert("L"))
    gray = ImageOps.autocontrast(gray).resize((gray.width * 2, gray.height * 2), Image.LANCZOS)
    path = folder / f"{name}-ocr.png"
    gray.save(path)
    done = subprocess.run(["tesseract", str(path), "-", "--psm", "11"], capture_output=True, text=True, timeout=120)
    return done.stdout
