"""The title screen: the StoneCave name over a slowly drifting handful of stones, then the main menu.

The stones are pymunk bodies in a frictionless box the size of the window, nudged now and then so the drift
never dies; the menu comes from ``game/menus/main.yaml``.  Notices waiting in the context (a settings file
that had to be set aside) are shown here, in the warning colour, until the player moves on.
"""
from __future__ import annotations

import random

import arcade
import arcade.gui
import pymunk

from game import catalogue, theme
from game.scenes import textures
from game.views.base import MenuView

DRIFTERS = 14
STONE_RADIUS = 22


class DriftingStones:
    """A few stones drifting and bumping slowly inside the window."""

    def __init__(self, width: float, height: float, seed: int = 3) -> None:
        self.rng = random.Random(seed)
        self.space = pymunk.Space()
        self.space.damping = 1.0
        self.sprites = arcade.SpriteList()
        self.bodies: list[pymunk.Body] = []
        self._walls: list[pymunk.Shape] = []
        self.resize(width, height)
        for index in range(DRIFTERS):
            body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, STONE_RADIUS))
            body.position = self.rng.uniform(60, width - 60), self.rng.uniform(60, height - 60)
            body.velocity = self.rng.uniform(-25, 25), self.rng.uniform(-25, 25)
            shape = pymunk.Circle(body, STONE_RADIUS)
            shape.elasticity = 1.0
            self.space.add(body, shape)
            self.bodies.append(body)
            sprite = arcade.Sprite(textures.stone(index % len(theme.STONE_COLOURS)))
            sprite.scale = 2 * STONE_RADIUS / textures.STONE_PIXELS
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
        for body in self.bodies:
            x, y = body.position
            body.position = min(max(x, 40), width - 40), min(max(y, 40), height - 40)

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

    def __init__(self, context) -> None:  # type: ignore[no-untyped-def]
        self.drift = DriftingStones(context.window.width, context.window.height)
        name, tagline = catalogue.title()
        self._name = arcade.Text(name, 0, 0, theme.ACCENTS[0], 64, font_name=theme.TITLE_FONT, anchor_x="center")
        self._tagline = arcade.Text(tagline, 0, 0, theme.TEXT_DIM, 18, font_name=theme.BODY_FONT, anchor_x="center")
        super().__init__(context)
        if context.notices:
            self.message("\n".join(context.notices), warning=True)
            context.notices.clear()

    def build(self) -> None:
        box = arcade.gui.UIBoxLayout(space_between=10)
        kept = self.context.autosave
        if kept is not None and kept.exists():
            saved, problem = kept.load()
            if saved is not None:
                widget = theme.button(f"Resume the game you were playing ({kept.summary(saved)})", width=560,
                                      height=46, font_size=16)
                box.add(self.on_click(widget, self.resume))
            elif problem:
                self.context.notices.append(problem)
        actions = {
            "play": self.context.show_play,
            "puzzles": self.context.show_puzzles,
            "load": self.context.show_load,
            "settings": self.context.show_settings,
            "rules": self.context.show_rules,
            "statistics": self.context.show_statistics,
            "quit": self.context.quit,
        }
        for item in catalogue.main_menu():
            widget = theme.button(item.label, width=320, height=46, font_size=18, enabled=item.enabled)
            box.add(self.on_click(widget, actions[item.action]))
            if not item.enabled:  # its game's rules failed to load: say so rather than hide the button
                self.context.notices.append(f"{item.label}: {item.why_not}")
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="center", align_y=-70)
        self.ui.add(anchor)

    def resume(self) -> None:
        from game.views.load_view import resume

        problem = resume(self.context)
        if problem:
            self.message(problem, warning=True)

    def back(self) -> None:
        """Escape on the title screen does nothing (Quit is a button, so no game is lost to a stray key)."""

    def on_resize(self, width: int, height: int) -> None:
        self.drift.resize(width, height)
        super().on_resize(width, height)

    def on_update(self, delta_time: float) -> None:
        self.drift.update(delta_time)

    def on_draw_before_ui(self) -> None:
        width, height = self.window.width, self.window.height
        self.drift.draw()
        self._name.position = width / 2, height - 150
        self._name.draw()
        self._tagline.position = width / 2, height - 190
        self._tagline.draw()
