"""Every button label reads back as itself: screens rendered in the hidden window, read with tesseract OCR.

Arcade's Kenney Future misread at button size (K and X as H, R as A, Z as 2, Q as O: "KALAH" read "HALAH",
"BACK" "BACH", "PUZZLES" "PU22LES"); this test renders the title screen, the Play menu, Learn to play, the
settings and a Kalah game with its bottom bar and the "Extra turn" toast, crops each label out of the
screenshot and asks tesseract to read it.  A face whose letters misread fails here.  It also checks that the
display face really is the shipped Quicksand (not a fallback the machine happened to have) and that it is found
in the installed ``assets`` package.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import rules
from game import theme
from game.savegame import Seat
from game.session import Session

SCALE = 4
"""Crops are enlarged this much before OCR: tesseract wants capital letters some 30 px tall or more."""


def words(text: str) -> str:
    """Lower case letters and digits, single-spaced: what must match between a label and its reading."""
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", text.lower()).split())


def read(image, box: tuple[float, float, float, float], folder: Path, name: str) -> str:  # type: ignore[no-untyped-def]
    """Tesseract's reading of one line of light text on a dark ground inside ``box`` (left, bottom, w, h)."""
    from PIL import Image, ImageOps

    left, bottom, width, height = box
    top = image.height - (bottom + height)
    crop = ImageOps.invert(image.convert("L").crop((int(left), int(top), int(left + width), int(top + height))))
    ink = crop.point(lambda value: 255 if value < 150 else 0).getbbox()  # the letters, without the empty ground
    if ink is not None:
        crop = crop.crop(ink)
    crop = ImageOps.autocontrast(crop).resize((crop.width * SCALE, crop.height * SCALE), Image.LANCZOS)
    crop = ImageOps.expand(crop, border=12 * SCALE, fill=255)
    path = folder / f"{name}.png"
    crop.save(path)
    done = subprocess.run(["tesseract", str(path), "-", "--psm", "7"], capture_output=True, text=True, timeout=30)
    return done.stdout.strip()


def button_boxes(gui):  # type: ignore[no-untyped-def]
    """(label, inner box) of every display-face button on the current screen: its rect less the border."""
    import arcade.gui

    found = []
    for widget in gui.widgets(arcade.gui.UIFlatButton):
        if widget.ui_label.font_name[0] != theme.DISPLAY_FONT or not widget.text.strip():
            continue  # the value controls (Choice, Stepper) use the body face and show arrows, not words
        inset = 4
        rect = widget.rect
        found.append((widget.text, (rect.left + inset, rect.bottom + inset, rect.width - 2 * inset,
                                    rect.height - 2 * inset)))
    return found


def check_buttons(gui, folder: Path, screen: str, expected: set[str]) -> list[str]:  # type: ignore[no-untyped-def]
    """Read every button of the screen; the labels that misread (and make sure ``expected`` were there)."""
    gui.frame(3)
    image = gui.screenshot(folder / f"{screen}.png")
    boxes = button_boxes(gui)
    present = {words(text) for text, _ in boxes}
    assert {words(text) for text in expected} <= present, f"{screen}: buttons {sorted(present)}"
    wrong = []
    for index, (text, box) in enumerate(boxes):
        reading = read(image, box, folder, f"{screen}-{index}")
        if words(reading) != words(text):
            wrong.append(f"{screen}: {text!r} read as {reading!r}")
    return wrong


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed (.ci/run installs it)")
def test_every_button_label_and_the_toast_read_back_as_written(gui, tmp_path):  # type: ignore[no-untyped-def]
    import pyglet

    assert all(Path(path).is_file() for path in theme.font_files())
    weight = "bold" if theme.LABEL.bold else "normal"
    assert pyglet.font.load(theme.DISPLAY_FONT, theme.LABEL.size, weight=weight).name == theme.DISPLAY_FONT

    wrong = check_buttons(gui, tmp_path, "title", {"Play", "Puzzles", "Load game", "Rules", "Settings", "Quit"})
    gui.context.show_play()
    wrong += check_buttons(gui, tmp_path, "play", {"Kalah", "Oware", "Hus", "Magnetic Cave", "Back"})
    gui.context.show_learn()
    wrong += check_buttons(gui, tmp_path, "learn", {"Kalah", "Solitaire Mancala", "Back"})
    gui.context.show_settings()
    wrong += check_buttons(gui, tmp_path, "settings", {"Back"})

    game = rules.get_game("kalah")
    gui.context.show_match(Session.new(game, (Seat(), Seat())))
    view = gui.window.current_view
    extra_turn = next(move for move in view.match.legal_moves if game.report(view.match.state, move).extra_turn)
    view.play(extra_turn)
    view.scene.finish()
    gui.frame(2)
    wrong += check_buttons(gui, tmp_path, "kalah", {"Hint", "Undo", "Save", "Menu"})

    assert view.toasts, "playing into the store shows a toast"
    toast = view._toast_text
    assert words(toast.text) == "extra turn"
    image = gui.screenshot()
    margin = 12
    box = (toast.x - toast.content_width / 2 - margin, toast.y - toast.content_height / 2 - margin,
           toast.content_width + 2 * margin, toast.content_height + 2 * margin)
    reading = read(image, box, tmp_path, "toast")
    if words(reading) != "extra turn":
        wrong.append(f"toast: 'Extra turn' read as {reading!r}")
    assert not wrong, "labels that misread:\n" + "\n".join(wrong)
