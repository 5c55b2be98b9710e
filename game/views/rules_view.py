"""The rules screens: one per game, a short explanation beside a small board diagram with arrows.

The words are data (``game/menus/games.yaml``, following ``docs/rules/``); the illustrations are
drawn by ``game/views/rules_diagrams.py`` with arcade's primitives, one function per kind of board: the sowing direction and a capture for
Kalah and Oware, the two private rings and a capture for Hus, the legal row ends of the Magnetic Cave, the two
directions and a store drop for Solitaire Mancala.  Tabs across the top switch games; Back (or Escape) returns
to the game screen that opened the rules (F1 there) or to the title screen.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial

import arcade
import arcade.gui

from game import catalogue, theme
from game.context import AppContext
from game.views.base import MESSAGE_BAND, MenuView
from game.views.rules_diagrams import DIAGRAMS, Illustration
from game.views.widgets import fit_font, text_button
from guarded.kinds import ProgramFileDamaged

RULES_PATH = catalogue.GAMES_PATH
TOP, TAB_HEIGHT, BACK_HEIGHT = 20, 38, 42
"""The tabs' distance from the window's top and their height; the Back button's height."""


@dataclass(frozen=True)
class RulesPage:
    """One game's rules screen: its heading, illustration kind, caption and paragraphs."""

    name: str
    title: str
    diagram: str
    caption: str
    rules: tuple[str, ...]


@lru_cache(maxsize=1)
def pages() -> tuple[RulesPage, ...]:
    """The pages in ``games.yaml``, checked (a malformed entry is a ProgramFileDamaged naming what is wrong)."""
    try:
        return _read_pages(catalogue.game_pages())
    except ProgramFileDamaged:
        raise
    except ValueError as error:
        raise ProgramFileDamaged(RULES_PATH, error) from None


def _read_pages(entries: tuple[dict, ...]) -> tuple[RulesPage, ...]:
    result = []
    for index, raw in enumerate(entries):
        where = f"games[{index}]"
        if not isinstance(raw, dict) or not all(isinstance(raw.get(key), str) for key in
                                                ("name", "title", "diagram", "caption")):
            raise ValueError(f"{where}: expected name, title, diagram and caption texts")
        if raw["diagram"] not in DIAGRAMS:
            raise ValueError(f"{where}.diagram: expected one of {', '.join(DIAGRAMS)}, found {raw['diagram']!r}")
        paragraphs = raw.get("rules")
        if not isinstance(paragraphs, list) or not paragraphs or not all(isinstance(p, str) for p in paragraphs):
            raise ValueError(f"{where}.rules: expected a list of paragraphs")
        result.append(RulesPage(raw["name"], raw["title"], raw["diagram"], raw["caption"], tuple(paragraphs)))
    return tuple(result)


class RulesView(MenuView):
    """The rules of one game, with tabs for the others."""

    def __init__(self, context: AppContext, game_name: str | None = None,
                 back_to: arcade.View | None = None) -> None:
        names = [page.name for page in pages()]
        self.index = names.index(game_name) if game_name in names else 0
        self.back_to = back_to
        self.illustration: Illustration | None = None
        self._texts: list[arcade.Text] = []
        self.first_paragraph = 0
        self._more_below = 0
        super().__init__(context)

    @property
    def page(self) -> RulesPage:
        return pages()[self.index]

    def build(self) -> None:
        px = theme.px  # design lengths (pixels at 1280x720) in this window's pixels (``MenuView``)
        width, height = self.window.width, self.window.height
        tabs = arcade.gui.UIBoxLayout(vertical=False, space_between=px(8))
        tab_width = min(px(200), (width - px(40)) / len(pages()) - px(8))
        for index, page in enumerate(pages()):
            widget = text_button(page.title.split(" (")[0], tab_width, px(TAB_HEIGHT),
                                 14 if tab_width >= px(170) else 12)
            fit_font(widget, smallest=10)  # more games, narrower tabs: a long title takes a smaller size
            if index == self.index:
                widget.disabled = True  # the page shown: greyed, like a selected tab
            tabs.add(self.on_click(widget, partial(self.select, index)))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(tabs, anchor_x="center", anchor_y="top", align_y=-px(TOP))
        back = self.on_click(theme.button("Back", width=px(160), height=px(BACK_HEIGHT)), self.back)
        anchor.add(back, anchor_x="center", anchor_y="bottom", align_y=px(MESSAGE_BAND))
        self.ui.add(anchor)
        self._lay_out_page(width, height)

    def _lay_out_page(self, width: int, height: int) -> None:
        """The page's title and words on the left (as large as fit), the illustration and caption on the right."""
        page, px, pt = self.page, theme.px, theme.pt
        top = height - px(TOP + TAB_HEIGHT + 20)
        bottom = px(MESSAGE_BAND + BACK_HEIGHT + 16)
        text_left = px(30)
        title = theme.text(page.title, theme.sized(theme.HEADING, 24 if height >= 640 else 18), theme.ACCENTS[0],
                           text_left, top, anchor_y="top")
        self._texts = [title]
        body_top = title.bottom - px(14)
        paragraphs = list(page.rules[self.first_paragraph:])
        # The words take what they need: the largest size (and then the narrowest column) at which they fit.
        fitted = None
        for size in (13, 12, 11):
            for share in (0.38, 0.44, 0.5):
                text_width = int(max(px(260), width * share))
                body = arcade.Text("\n\n".join(paragraphs), text_left, body_top, theme.TEXT, pt(size),
                                   font_name=theme.BODY_FONT, anchor_y="top", multiline=True, width=text_width)
                fitted = body
                if body.bottom >= bottom:
                    break
            if body.bottom >= bottom:
                break
        assert fitted is not None
        self._more_below = 0
        while fitted.bottom < bottom and len(paragraphs) > 1:  # still too long: the rest is a scroll away
            paragraphs.pop()
            self._more_below += 1
            fitted.text = "\n\n".join(paragraphs)
        self._texts.append(fitted)
        hints = []
        if self.first_paragraph:
            hints.append(f"{self.first_paragraph} paragraphs above (Page Up)")
        if self._more_below:
            hints.append(f"{self._more_below} more below (Page Down or the wheel)")
        if hints:
            self._texts.append(arcade.Text("; ".join(hints), text_left, bottom - px(4), theme.TEXT_DIM, pt(11),
                                           font_name=theme.BODY_FONT, anchor_y="top"))
        text_width = fitted.width or int(px(260))
        diagram_left = text_left + text_width + px(40)
        diagram_width = max(px(200), width - diagram_left - px(40))
        caption = arcade.Text(page.caption, diagram_left + diagram_width / 2, bottom, theme.TEXT_DIM, pt(12),
                              font_name=theme.BODY_FONT, anchor_x="center", anchor_y="bottom", multiline=True,
                              width=int(diagram_width), align="center")
        self._texts.append(caption)
        diagram_bottom = caption.top + px(16)
        rect = (diagram_left, diagram_bottom, diagram_width, max(px(120), top - diagram_bottom))
        self.illustration = Illustration(page.diagram, rect)

    def scroll(self, steps: int, x: float, y: float) -> bool:
        """Page Up / Down and the wheel move through the paragraphs of a page too long for the window."""
        first = (self.first_paragraph + min(steps, self._more_below) if steps > 0
                 else max(0, self.first_paragraph + steps))
        if first == self.first_paragraph:
            return False
        self.first_paragraph = first
        self.rebuild()
        return True

    def select(self, index: int) -> None:
        self.index = index % len(pages())
        self.first_paragraph = 0
        self.rebuild()

    def back(self) -> None:
        if self.back_to is not None:
            self.context.show(self.back_to)
        else:
            self.context.show_title()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol in (arcade.key.LEFT, arcade.key.RIGHT):
            self.select(self.index + (1 if symbol == arcade.key.RIGHT else -1))
            return True
        return super().on_key_press(symbol, modifiers)

    def on_draw_before_ui(self) -> None:
        if self.illustration is not None:
            self.illustration.draw()
        for text in self._texts:
            text.draw()
