"""The title screen: the StoneCave name over a slowly drifting handful of stones, then the main menu.

The stones are pymunk bodies in a frictionless box the size of the window, nudged now and then so the drift
never dies; the menu comes from ``game/menus/main.yaml``.  Beside it, "Games in progress" lists every unfinished
game (``game.autosave``), newest first, each a click from where it stopped.  The menu's places depend on the
window's size alone, never on that list, so a remembered click never lands on another button.  Notices waiting in the context (a settings file
that had to be set aside) are shown here, in the warning colour, until the player moves on.
"""
from __future__ import annotations

import random
from functools import partial

import arcade
import arcade.gui
import pymunk

from game import catalogue, theme
from game.scenes import textures
from game.context import AppContext
from game.autosave import KeptGame
from game.views.base import MESSAGE_BAND, MenuView
from game.views.widgets import fit_font, text_button

PANEL_WIDTH = 560
"""The widest the games-in-progress list beside the menu grows."""
DRIFTERS = 14
STONE_RADIUS = 22


class DriftingStones:
    """A few stones drifting and bumping slowly inside the window, clear of the title (``keep_clear``); a resize
    scales their places with the window, so a shrink never piles them against one side."""

    def __init__(self, width: float, height: float, seed: int = 3) -> None:
        self.rng = random.Random(seed)
        self.space = pymunk.Space()
        self.space.damping = 1.0
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.bodies: list[pymunk.Body] = []
        self._walls: list[pymunk.Shape] = []
        self._clear_walls: list[pymunk.Shape] = []
        self.clear: tuple[float, float, float, float] | None = None
        """The rectangle the stones keep out of (left, bottom, right, top): the title."""
        self.size = (float(width), float(height))
        self.radius = STONE_RADIUS * theme.type_scale(width, height)
        """The stones' radius: larger in a window larger than 1280x720, as the words are."""
        self.shapes: list[pymunk.Circle] = []
        self.resize(width, height)
        for index in range(DRIFTERS):
            body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, STONE_RADIUS))
            body.position = self.rng.uniform(60, width - 60), self.rng.uniform(60, height - 60)
            body.velocity = self.rng.uniform(-25, 25), self.rng.uniform(-25, 25)
            shape = pymunk.Circle(body, self.radius)
            shape.elasticity = 1.0
            self.space.add(body, shape)
            self.bodies.append(body)
            self.shapes.append(shape)
            sprite = arcade.Sprite(textures.stone(index % len(theme.STONE_COLOURS)))
            sprite.scale = 2 * self.radius / textures.STONE_PIXELS
            sprite.alpha = 150
            self.sprites.append(sprite)

    def resize(self, width: float, height: float) -> None:
        if self._walls:
            self.space.remove(*self._walls)
        corners = [(0, 0), (width, 0), (width, height), (0, height)]
        self._walls = []
        for a, b in zip(corners, corners[1:] + corners[:1]):
            wall = pymunk.Segment(self.space.static_body, a, b, 2)
            wall.elasticity = 1.0
            self._walls.append(wall)
        self.space.add(*self._walls)
        old_width, old_height = self.size
        self.size = (float(width), float(height))
        self.radius = STONE_RADIUS * theme.type_scale(width, height)
        for shape, sprite in zip(self.shapes, self.sprites):
            shape.unsafe_set_radius(self.radius)
            sprite.scale = 2 * self.radius / textures.STONE_PIXELS
        for body in self.bodies:  # the same place relative to the window: a shrink keeps the stones spread
            x, y = body.position
            x, y = x * width / max(1.0, old_width), y * height / max(1.0, old_height)
            edge = self.radius + 18
            body.position = min(max(x, edge), width - edge), min(max(y, edge), height - edge)
        if self.clear is not None:
            self._leave_clear()

    def keep_clear(self, left: float, bottom: float, right: float, top: float) -> None:
        """Keep the stones out of this rectangle (the title's name and tagline): a wall round it, and any stone
        inside moved out below it."""
        rect = (left, bottom, right, top)
        if rect == self.clear:
            return
        self.clear = rect
        if self._clear_walls:
            self.space.remove(*self._clear_walls)
        corners = [(left, bottom), (right, bottom), (right, top), (left, top)]
        self._clear_walls = []
        for a, b in zip(corners, corners[1:] + corners[:1]):
            wall = pymunk.Segment(self.space.static_body, a, b, 2)
            wall.elasticity = 1.0
            self._clear_walls.append(wall)
        self.space.add(*self._clear_walls)
        self._leave_clear()

    def _leave_clear(self) -> None:
        """Move every stone that touches the kept-clear rectangle to a free place below it."""
        assert self.clear is not None
        left, bottom, right, top = self.clear
        width, height = self.size
        r = self.radius
        for body in self.bodies:
            x, y = body.position
            if left - r < x < right + r and bottom - r < y < top + r:
                below = max(r + 20, bottom - r - 20)
                body.position = self.rng.uniform(r + 20, max(r + 21, width - r - 20)), self.rng.uniform(r + 20, below)

    def update(self, dt: float) -> None:
        for body in self.bodies:
            speed = body.velocity.length
            if speed < 12 or self.rng.random() < 0.002:
                body.velocity = self.rng.uniform(-25, 25), self.rng.uniform(-25, 25)
            elif speed > 40:
                body.velocity = body.velocity * (40 / speed)
        steps = max(1, min(6, int(dt / (1 / 120)) or 1))
        for _ in range(steps):
            self.space.step(min(dt, 0.05) / steps)
        for body, sprite in zip(self.bodies, self.sprites):
            sprite.position = body.position.x, body.position.y
            sprite.angle = -body.angle * 57.2958

    def draw(self) -> None:
        self.sprites.draw()


class TitleView(MenuView):
    """The main menu over drifting stones."""

    def __init__(self, context: AppContext) -> None:
        self.drift = DriftingStones(context.window.width, context.window.height)
        self._drop = 0.0
        """How far the name and menu sit below the top, to centre them on a tall window."""
        name, tagline = catalogue.title()
        self._name = theme.text(name, theme.TITLE, theme.ACCENTS[0], anchor_x="center", anchor_y="top")
        self._tagline = theme.text(tagline, theme.sized(theme.BODY, 18), theme.TEXT_DIM, anchor_x="center",
                                   anchor_y="top")
        self._kept: list[KeptGame] | None = None
        """The games in progress as read once for this screen: a resize rebuilds the menu, not the files."""
        self._kept_problems: list[str] = []
        self.menu_buttons: list[arcade.gui.UIFlatButton] = []
        """The main menu's buttons, whose places depend on the window's size alone (never on the games kept)."""
        self.resume_buttons: list[arcade.gui.UIFlatButton] = []
        super().__init__(context)
        problems = [*context.notices, *self._problems()]
        if problems:
            self.message("\n".join(problems), warning=True)
            context.notices.clear()

    def kept_games(self) -> list[KeptGame]:
        """The games in progress, newest first (files that cannot be used are set aside, see ``_problems``)."""
        if self._kept is None:
            kept = self.context.autosave
            self._kept, self._kept_problems = kept.games() if kept is not None else ([], [])
        return self._kept

    def _problems(self) -> list[str]:
        """What the title should say is wrong: an unreadable game in progress, a game whose rules failed to load."""
        self.kept_games()
        problems = list(self._kept_problems)
        return problems + [f"{item.label}: {item.why_not}" for item in catalogue.main_menu() if not item.enabled]

    def _title_sizes(self) -> tuple[int, int, float]:
        """The name's and tagline's font sizes and the height the two take at the top."""
        tall, scale = self.window.height >= 640, self.scale
        name, tagline = (round(64 * scale), round(18 * scale)) if tall else (44, 15)
        if self._name.font_size != name:
            self._name.font_size, self._tagline.font_size = name, tagline
        return name, tagline, (30 + 12 + 4) * scale + self._name.content_height + self._tagline.content_height

    def build(self) -> None:
        """The main menu on the left, the games in progress on the right: both places come from the window's
        size alone, so a remembered click lands on the same button whether or not games are kept."""
        # In design lengths (pixels at 1280x720): the window's size divided by its type scale, every length
        # multiplied back by ``theme.px`` where a widget gets it (``MenuView``).
        px, scale = theme.px, theme.ui_scale()
        width, height = self.window.width / scale, self.window.height / scale
        _, _, title_band = self._title_sizes()
        title_band /= scale
        room = height - title_band - MESSAGE_BAND - 16
        actions = {
            "play": self.context.show_play,
            "puzzles": self.context.show_puzzles,
            "load": self.context.show_load,
            "settings": self.context.show_settings,
            "rules": self.context.show_rules,
            "statistics": self.context.show_statistics,
            "quit": self.context.quit,
        }
        items = catalogue.main_menu()
        # As many buttons in a column as fit below the name; the rest in a second (or third) column.
        gap = 10 if height >= 640 else 6
        button_height = min(46, max(36, (room + gap) // len(items) - gap))
        per_column = max(1, int((room + gap) // (button_height + gap)))
        columns = -(-len(items) // per_column)
        per_column = -(-len(items) // columns)
        space = width - 40
        side_gap = 32 if width >= 1000 else 20
        panel_width = min(PANEL_WIDTH, max(240.0, (space - side_gap) * 0.55))
        button_width = min(320, (space - side_gap - panel_width) / columns - 16 * (columns > 1))
        menu_width = columns * button_width + 16 * (columns - 1)
        self.menu_buttons = []
        for item in items:
            widget = theme.button(item.label, width=px(button_width), height=px(button_height),
                                  size=theme.sized(theme.LABEL, 18 if height >= 640 else 16), enabled=item.enabled)
            self.menu_buttons.append(self.on_click(widget, actions[item.action]))  # a disabled one: _problems
        grid = arcade.gui.UIBoxLayout(vertical=False, space_between=px(16), align="top")
        for start in range(0, len(self.menu_buttons), per_column):
            column = arcade.gui.UIBoxLayout(space_between=px(gap))
            for widget in self.menu_buttons[start:start + per_column]:
                column.add(widget)
            grid.add(column)
        # On a tall window the name and the menu sit together a little above the middle, not at the very top.
        menu_height = per_column * (button_height + gap) - gap
        free = height - MESSAGE_BAND - title_band - 8 - menu_height
        self._drop = max(0.0, free * 0.4)
        top = title_band + 8 + self._drop
        left = (width - (menu_width + side_gap + panel_width)) / 2
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(grid, anchor_x="left", anchor_y="top", align_x=px(left), align_y=-px(top))
        panel_room = height - MESSAGE_BAND - 8 - top
        anchor.add(self._in_progress_panel(panel_width, panel_room), anchor_x="left", anchor_y="top",
                   align_x=px(left + menu_width + side_gap), align_y=-px(top))
        self.ui.add(anchor)

    def _in_progress_panel(self, width: float, room: float) -> arcade.gui.UIBoxLayout:
        """"Games in progress": a Resume button for each (game, moves, players, when), newest first, as many
        as fit; the rest are on the Load screen, where a game can also be removed.  ``width`` and ``room`` in
        design lengths (``theme.px``)."""
        px = theme.px
        box = arcade.gui.UIBoxLayout(space_between=px(6), align="left")
        box.add(theme.label("Games in progress", theme.sized(theme.LABEL, 16), theme.ACCENTS[0]))
        kept = self.kept_games()
        self.resume_buttons = []
        row_height = 38
        fits = max(1, int((room - 30 - 6) // (row_height + 6)))
        if not kept:
            box.add(theme.label("None. A game you leave unfinished waits here, however many you start.",
                                theme.SMALL, theme.TEXT_DIM, width=px(width), multiline=True))
            return box
        shown = kept if len(kept) <= fits else kept[:fits - 1]
        assert self.context.autosave is not None
        words = self.context.autosave
        for game in shown:
            text = (f"{words.summary(game.saved)}  -  {words.players(game.saved)}  -  "
                    f"{words.when(game.modified)}")
            widget = text_button(text, px(width), px(row_height), 14 if width >= 400 else 12)
            fit_font(widget)
            widget.slot = game.slot  # type: ignore[attr-defined]  # which game a test or a click resumes
            self.resume_buttons.append(self.on_click(widget, partial(self.resume, game.slot)))
            box.add(widget)
        # One size for the whole list (the smallest any line needed), so the lines read as one list.
        smallest = min(int(widget.style["normal"].font_size) for widget in self.resume_buttons)
        for widget in self.resume_buttons:
            if widget.style["normal"].font_size != smallest:
                widget.style = {state: type(value)(**{**vars(value), "font_size": smallest})
                                for state, value in widget.style.items()}
        if len(shown) < len(kept):
            more = text_button(f"{len(kept) - len(shown)} more on the Load screen", px(width), px(row_height - 6), 12)
            box.add(self.on_click(more, self.context.show_load))
        return box

    def default_action(self) -> None:
        """Enter on the title screen: Play."""
        self.context.show_play()

    def resume(self, slot: str | None = None) -> None:
        """Go on with a game in progress (the newest when ``slot`` is None)."""
        from game.views.load_view import resume

        problem = resume(self.context, slot)
        if problem:
            self._kept = None  # the file was set aside: the list changes
            self.message(problem, warning=True)
            self.rebuild()

    def back(self) -> None:
        """Escape on the title screen does nothing (Quit is a button; games in progress are kept either way)."""

    def on_resize(self, width: int, height: int) -> None:
        self.drift.resize(width, height)
        super().on_resize(width, height)

    def on_update(self, delta_time: float) -> None:
        self.drift.update(delta_time)

    def on_draw_before_ui(self) -> None:
        width, height = self.window.width, self.window.height
        self.drift.draw()
        self._title_sizes()
        self._name.position = width / 2, height - (30 + self._drop) * self.scale
        self._name.draw()
        self._tagline.position = width / 2, self._name.bottom - 12 * self.scale
        self._tagline.draw()
        self.drift.keep_clear(min(self._name.left, self._tagline.left), self._tagline.bottom,
                              max(self._name.right, self._tagline.right), self._name.top)
