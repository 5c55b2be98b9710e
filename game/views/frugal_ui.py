"""A UIManager for game screens, where a few buttons sit over a board that changes every frame.

arcade.gui keeps its widgets in a window-sized offscreen surface, lays the whole tree out again every frame and
copies the whole surface onto the window with blending.  On a software renderer that copy alone costs more
than the board (a textured full-window quad, most of it transparent).  ``FrugalUIManager`` lays out and
re-renders only when a widget asked for it (a hover, a press, a text or a layout change all do), and copies
only the part of each layer's surface that holds widgets.  Widgets, events and layers behave as before.
"""
from __future__ import annotations

from typing import Any, Iterator

import arcade
import arcade.gui
from arcade.types import LBWH, Rect


def _walk(widget: arcade.gui.UIWidget, visible_only: bool = False) -> Iterator[arcade.gui.UIWidget]:
    """The widget and its descendants; with ``visible_only``, hidden widgets and their subtrees are left out
    (arcade never renders them, so their request for a render would otherwise stand for ever)."""
    if visible_only and not widget.visible:
        return
    yield widget
    for child in widget.children:
        yield from _walk(child, visible_only)


_CONTAINERS = (arcade.gui.UIAnchorLayout, arcade.gui.UIBoxLayout, arcade.gui.UIGridLayout, arcade.gui.UILayout)
"""Plain layouts, which paint nothing of their own (buttons and labels are layouts too, by subclassing)."""


def _paints(widget: arcade.gui.UIWidget) -> bool:
    """Whether the widget puts pixels on its surface: any widget but a plain layout without background."""
    if type(widget) not in _CONTAINERS:
        return True
    return bool(widget._bg_color or widget._bg_tex or widget._border_width)


class FrugalUIManager(arcade.gui.UIManager):
    """Layout and rendering only on change; each layer's surface copied only where its widgets are."""

    MARGIN = 4
    """Pixels around the widgets' bounds that are copied too (borders, focus rings)."""

    def __init__(self, window: arcade.Window | None = None) -> None:
        self._areas: dict[int, Rect | None] = {}
        super().__init__(window)

    def _needs_work(self) -> bool:
        if self._requires_render:
            return True
        for layer in self.children.values():
            for root in layer:
                for widget in _walk(root, visible_only=True):
                    if widget._requires_render:
                        return True
        return False

    def trigger_render(self) -> None:
        super().trigger_render()
        self._areas.clear()

    def draw(self, **kwargs: Any) -> None:
        if self._needs_work() or not self._areas:
            self.execute_layout()
            ctx = self.window.ctx
            with ctx.enabled(ctx.BLEND), self._render_to_surface_camera.activate():
                self._do_render()
            self._areas = {layer: self._bounds(layer) for layer in self.children}
        with self.camera.activate():
            ctx = self.window.ctx
            with ctx.enabled(ctx.BLEND):
                for layer in sorted(self.children):
                    area = self._areas.get(layer)
                    if area is not None:
                        self._get_surface(layer).draw(area)

    def _bounds(self, layer: int) -> Rect | None:
        """The rectangle round every painting widget of a layer (None when the layer is empty)."""
        left = bottom = float("inf")
        right = top = float("-inf")
        for root in self.children.get(layer, ()):
            for widget in _walk(root):
                if not widget.visible or not _paints(widget):
                    continue
                rect = widget.rect
                left, bottom = min(left, rect.left), min(bottom, rect.bottom)
                right, top = max(right, rect.right), max(top, rect.top)
        if left == float("inf"):
            return None
        m = self.MARGIN
        return LBWH(left - m, bottom - m, right - left + 2 * m, top - bottom + 2 * m)
