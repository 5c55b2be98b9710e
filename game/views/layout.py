"""What a screen has laid out, as named rectangles, and what is wrong with them (outside the window, overlapping).

``boxes(view)`` lists every visible button, label and text a view shows: the leaves of its UIManager (a button
or a label, not the layouts that hold them) and the ``arcade.Text`` objects it keeps (as attributes, in lists,
or in its sections).  A view can add rectangles drawn some other way by defining ``layout_boxes()``, and say
which of its texts a scrolling list clips away (not drawn) with ``scrolled_out(text)``.
``problems(found, width, height)`` says which of them leave the window or overlap another; the layout tests
and the screenshot script use both, so a picture and its check always agree.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import arcade
import arcade.gui

TOLERANCE = 1.0
"""Pixels two rectangles may share, or stick out of the window, before it counts (rounding)."""


@dataclass(frozen=True)
class Box:
    """One laid-out thing: what it is (its text), its kind, and its rectangle in window pixels."""

    name: str
    kind: str
    left: float
    bottom: float
    right: float
    top: float
    clipped: bool = False
    """A widget whose text is wider or taller than the widget (cut off where it is drawn)."""

    def overlap(self, other: "Box") -> float:
        """The smaller side of the shared area (0 when they do not share any)."""
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.top, other.top) - max(self.bottom, other.bottom)
        return max(0.0, min(width, height))

    def contains(self, other: "Box") -> bool:
        return (self.left <= other.left + TOLERANCE and self.right >= other.right - TOLERANCE
                and self.bottom <= other.bottom + TOLERANCE and self.top >= other.top - TOLERANCE)


_LEAVES = (arcade.gui.UIFlatButton, arcade.gui.UILabel, arcade.gui.UITextureButton, arcade.gui.UIInputText)


def _widgets(widget: arcade.gui.UIWidget) -> Iterator[arcade.gui.UIWidget]:
    if not widget.visible:
        return
    if isinstance(widget, _LEAVES):
        yield widget
        return  # a button's own label is part of it
    for child in widget.children:
        yield from _widgets(child)


def _texts(value: Any) -> Iterator[arcade.Text]:
    if isinstance(value, arcade.Text):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, arcade.Text):
                yield item


def _is_clipped(widget: arcade.gui.UIWidget) -> bool:
    """Whether the text of a button or label needs more room than the widget has."""
    label = widget if isinstance(widget, arcade.gui.UILabel) else getattr(widget, "_label", None)
    text = getattr(label, "_label", None)  # the arcade.Text a UILabel draws
    if not isinstance(text, arcade.Text) or not text.text:
        return False
    return (text.content_width > widget.content_width + TOLERANCE
            or text.content_height > widget.content_height + TOLERANCE)


def _text_box(text: arcade.Text) -> Box:
    return Box(text.text.replace("\n", " / ")[:60], "text", text.left, text.bottom, text.right, text.top)


def _shown(text: arcade.Text) -> bool:
    return bool(text.text.strip()) and getattr(text, "visible", True)


def boxes(view: arcade.View) -> list[Box]:
    """Every visible widget and text of ``view`` (see the module's docstring)."""
    found: list[Box] = []
    manager = getattr(view, "ui", None)
    if manager is not None:
        for layer in sorted(manager.children):
            for root in manager.children[layer]:
                for widget in _widgets(root):
                    name = getattr(widget, "text", "") or type(widget).__name__
                    rect = widget.rect
                    found.append(Box(str(name).replace("\n", " / ")[:60], type(widget).__name__, rect.left,
                                     rect.bottom, rect.right, rect.top, _is_clipped(widget)))
    owners: list[Any] = [view]
    sections = getattr(view, "section_manager", None)
    if sections is not None:
        owners += [section for section in sections.sections if section.enabled]
    seen: set[int] = set()
    scrolled_out = getattr(view, "scrolled_out", None)
    for owner in owners:
        for value in vars(owner).values():
            for text in _texts(value):
                if callable(scrolled_out) and scrolled_out(text):
                    continue
                if id(text) not in seen and _shown(text):
                    seen.add(id(text))
                    found.append(_text_box(text))
    extra = getattr(view, "layout_boxes", None)
    if callable(extra):
        found += list(extra())
    return found


def problems(found: Iterable[Box], width: float, height: float) -> list[str]:
    """What is wrong with a layout: rectangles outside the window, and pairs that overlap."""
    found = list(found)
    wrong = []
    for box in found:
        if (box.left < -TOLERANCE or box.bottom < -TOLERANCE or box.right > width + TOLERANCE
                or box.top > height + TOLERANCE):
            wrong.append(f"{box.kind} {box.name!r} leaves the {width}x{height} window: "
                         f"({box.left:.0f}, {box.bottom:.0f})-({box.right:.0f}, {box.top:.0f})")
        if box.clipped:
            wrong.append(f"{box.kind} {box.name!r} is cut off: its text needs more room than it has")
    for index, first in enumerate(found):
        for second in found[index + 1:]:
            if first.overlap(second) > TOLERANCE:
                wrong.append(f"{first.kind} {first.name!r} overlaps {second.kind} {second.name!r} by "
                             f"{first.overlap(second):.0f} px")
    return wrong
