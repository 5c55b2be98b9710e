"""Learn to play: a guided first game on the real board, one step at a time (``game.tutorial`` holds the steps).

``LearnMenuView`` lists the games that have a guided game; ``TutorialView`` shows one step: its text above the
board (drawn by the game's own scene, through the scene's public methods), the move to make glowing in the hint's
colour with a ring, and places the text talks about ringed in white.  Clicking the glowing pit or cell, or
pressing Enter or Space, plays the move with its animation, then the opponent's answer if the step has one;
then Enter or Space goes on to the next step, on the same board when the step continues from where the last
one left it.
Escape leaves, back to this menu.  The rules state is the truth: each step's position is parsed by the rules and
the move applied by them.
"""
from __future__ import annotations

from typing import Callable

import arcade
import arcade.gui

import rules
from game import catalogue, theme
from game.context import AppContext
from game.scenes.cave_scene import CaveScene
from game.scenes.solitaire_board import SolitaireScene, counts, hole_location, plan_round, visual_direction
from game.scenes.sowing_board import BoardSpec, plan_move
from game.scenes.sowing_scene import SowingScene
from game.tutorial import STORE, TUTORIALS, Mark, Step, Tutorial
from game.views.base import MenuView
from game.views.focus import board_bounds

BAR = 160
"""Height kept under the board: the message line (at 40, as on every menu), the buttons above it, and the
announcement ("Capture 6") above them."""
BUTTONS_AT = 62
BAR_SHORT = 112
"""In a short window (under ``SHORT`` pixels high) only the buttons and the message line are kept under the board
(the announcement is written on the board's own caption line, which the tutorial leaves empty): a four-row board
(Hus) needs the height to keep its counts and numbers apart."""
SHORT = 600
TEXT_WIDTH = 900


class LearnMenuView(MenuView):
    """One button per guided game."""

    heading = "Learn to play"

    def build(self) -> None:
        px = theme.px  # design lengths (pixels at 1280x720) in this window's pixels (``MenuView``)
        box = arcade.gui.UIBoxLayout(space_between=px(10))
        for entry in TUTORIALS:
            widget = theme.button(entry.title, width=px(320), height=px(50))
            box.add(self.on_click(widget, self._opener(entry)))
        box.add(self.on_click(theme.button("Back", width=px(200), height=px(44)), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="center", align_y=-px(20))
        self.ui.add(anchor)
        self.message("A few steps on a real board teach each game's moves and its special rules.")

    def _opener(self, entry: Tutorial) -> Callable[[], None]:
        return lambda: self.context.show(TutorialView(self.context, entry))

    def back(self) -> None:
        self.context.show_play()


class TutorialView(MenuView):
    """One guided game, step by step."""

    def __init__(self, context: AppContext, tutorial: Tutorial) -> None:
        self.tutorial = tutorial
        self.game = rules.get_game(tutorial.game)
        self.index = 0
        self.played = False
        self.answer_due = False
        """The step's move has played and the opponent's answer comes once it has landed."""
        self.banner = ""
        self._text = theme.text("", theme.LABEL, theme.TEXT, anchor_x="center", anchor_y="top", multiline=True,
                                width=TEXT_WIDTH, align="center")
        self._banner = theme.text("", theme.HEADING, theme.TEXT, anchor_x="center", anchor_y="center")
        self.scene: SowingScene | SolitaireScene | CaveScene | None = None
        super().__init__(context)
        self.show_step(0)

    # -- steps ------------------------------------------------------------------------------------------------
    @property
    def step(self) -> Step:
        return self.tutorial.steps[self.index]

    @property
    def heading(self) -> str:  # type: ignore[override]
        return f"Learn {self.tutorial.title}: step {self.index + 1} of {len(self.tutorial.steps)}"

    @property
    def waiting_for_move(self) -> bool:
        return self.step.move is not None and not self.played

    def show_step(self, index: int) -> None:
        """Set up step ``index``: its position (on the board as it is when the step continues from there, else on
        a fresh scene), its text, nothing played yet."""
        position = self.game.from_text(self.tutorial.steps[index].position)
        continues = index > 0 and self.scene is not None and position == getattr(self, "state", None)
        self.index = index
        self.played = False
        self.answer_due = False
        self.banner = ""
        self.state = position
        self._text.text = self.step.text
        scene = catalogue.registration(self.game).scene
        if continues:
            if isinstance(self.scene, SowingScene) and scene not in ("cave", "puzzle"):
                names = tuple(self.game.player_names)
                self.scene.set_sides((f"{names[0]} (you)", names[1]), (names[0], names[1]),
                                     self.game.to_move(self.state))
            self._place_scene()  # the text's height may differ: the board keeps its stones and bricks
        elif scene == "cave":
            self.scene = CaveScene(self.game)  # type: ignore[arg-type]
            self._place_scene()
            self.scene.show(self.state)
        elif scene == "puzzle":
            self.scene = SolitaireScene()
            self._place_scene()
            self.scene.show(counts(self.state))
        else:
            self.spec = BoardSpec.of(self.game, self.state)
            self.scene = SowingScene(self.spec, words=True)  # the pit numbers the steps' words use
            names = tuple(self.game.player_names)
            self.scene.set_sides((f"{names[0]} (you)", names[1]), (names[0], names[1]), self.game.to_move(self.state))
            self._place_scene()
            self.scene.show(self.spec.counts(self.state))
        assert self.scene is not None
        self.scene.announce = self._announce
        self.scene.speed = float(self.context.settings.get("animation_speed") or 1.0)
        self.message(self._prompt())
        self.rebuild()

    def _prompt(self) -> str:
        if self.waiting_for_move:
            return f"Click the glowing {self._noun()} (or press Enter).   Escape leaves."
        last = self.index == len(self.tutorial.steps) - 1
        return ("Enter: finish." if last else "Enter or Space: next step.") + "   Escape leaves."

    def play(self) -> None:
        """Make the step's move: the rules apply it, the scene animates it (the answer follows once it lands)."""
        self._animate(self.step.move)
        self.played = True
        self.answer_due = self.step.answer is not None
        self.message(self.step.done + "   " + self._prompt())
        self.rebuild()

    def play_answer(self) -> None:
        """The opponent's answer (the step's ``done`` has said what it does)."""
        self.answer_due = False
        self._animate(self.step.answer)

    def _animate(self, move: object) -> None:
        before, after = self.state, self.game.apply(self.state, move)
        if isinstance(self.scene, CaveScene):
            winner = getattr(after, "winner", None)
            labels = [f"{self.game.player_names[winner]}: five in a row"] if winner is not None else []
            self.scene.place(before, move, after, labels)  # type: ignore[arg-type]
        elif isinstance(self.scene, SolitaireScene):
            self.scene.animate(plan_round(self.game, before, move, after))  # type: ignore[arg-type]
        else:
            assert self.scene is not None
            self.scene.animate(plan_move(self.game, before, move, after, self.spec))
        self.state = after

    def advance(self) -> None:
        """Enter or Space: play the move if it waits, finish a running animation (then the answer), else go on."""
        assert self.scene is not None
        if self.scene.is_animating:
            self.scene.finish()
        elif self.answer_due:
            self.play_answer()
        elif self.waiting_for_move:
            self.play()
        elif self.index + 1 < len(self.tutorial.steps):
            self.show_step(self.index + 1)
        else:
            self.back()

    def back(self) -> None:
        self.context.show(LearnMenuView(self.context))

    def _announce(self, text: str) -> None:
        self.banner = text

    def _noun(self) -> str:
        return catalogue.registration(self.game).words.place

    def _start_hole(self) -> int:
        """Solitaire: the index of the hole the step's round starts from."""
        move = self.step.move
        hole = getattr(move, "hole", None)
        return hole - 1 if hole is not None else self.state.selected

    # -- places -----------------------------------------------------------------------------------------------
    def location_of(self, mark: Mark) -> int:
        """The scene's location for a step's mark (or for the move, as (mover, move))."""
        player, place = mark
        if isinstance(self.scene, CaveScene):
            return place
        if isinstance(self.scene, SolitaireScene):
            return hole_location(place)
        return self.spec.store(player) if place == STORE else self.spec.move_location(player, place)

    def target(self) -> int | None:
        """The location the player must click, while the step waits for its move."""
        move = self.step.move
        if move is None or self.played:
            return None
        if isinstance(self.scene, SolitaireScene):
            return hole_location(self._start_hole())
        return self.location_of((self.game.to_move(self.state), move))  # type: ignore[arg-type]

    # -- layout and drawing -----------------------------------------------------------------------------------
    def build(self) -> None:
        if self.scene is None:
            return  # the first build, before the first step is set up
        px = theme.px  # design lengths (pixels at 1280x720) in this window's pixels (``MenuView``)
        last = self.index == len(self.tutorial.steps) - 1
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=px(16))
        row.add(self.on_click(theme.button("Leave", width=px(160), height=px(44)), self.back))
        label = "Play the move" if self.waiting_for_move else ("Finish" if last else "Next")
        row.add(self.on_click(theme.button(label, width=px(200), height=px(44)), self.advance))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(row, anchor_x="center", anchor_y="bottom", align_y=px(BUTTONS_AT))
        self.ui.add(anchor)

    def board_stop(self) -> tuple[float, float, float, float] | None:
        """The board is the first stop of Tab (Enter there does the step's next thing, as with no focus)."""
        return board_bounds(self.scene) if self.scene is not None else None

    def _text_top(self) -> float:
        return self.content_box()[1] + self.content_box()[3] - 4 * self.scale  # under the heading, at any height

    def _place_scene(self) -> None:
        if self.scene is None:
            return
        width, height, scale = self.window.width, self.window.height, self.scale
        # A small window keeps the board's room; a large one draws the words (and the bands) larger.
        size = round((theme.BODY if height < 600 else theme.LABEL).size * scale)
        if self._text.font_size != size:
            self._text.font_size = size
        self._text.width = int(min(TEXT_WIDTH * scale, width - 60 * scale))
        text_height = self._text.content_height if self._text.text else 60 * scale
        short = height < SHORT
        top = self._text_top() - max(60 * scale, text_height) - (8 if short else 20) * scale
        bar = (BAR_SHORT if short else BAR) * scale
        self.scene.set_rect(40 * scale, bar, max(100, width - 80 * scale), max(100, top - bar))

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._place_scene()

    def on_update(self, delta_time: float) -> None:
        if self.scene is not None:
            self.scene.update(delta_time)
            if self.answer_due and not self.scene.is_animating:
                self.play_answer()

    def on_draw_before_ui(self) -> None:
        super().on_draw_before_ui()
        assert self.scene is not None
        width = self.window.width
        self._text.position = width / 2, self._text_top()
        self._text.draw()
        highlights: dict[int, theme.Color] = {}
        outlines = {self.location_of(mark): theme.TEXT for mark in self.step.marks}
        target = self.target()
        if target is not None and not self.scene.is_animating:
            highlights[target] = theme.HINT
            outlines[target] = theme.HINT
        if isinstance(self.scene, SowingScene):  # a short window: the announcement on the board's caption line
            self.scene.set_caption(self.banner if self.window.height < SHORT else "")
        self.scene.draw(highlights, outlines)
        if isinstance(self.scene, SolitaireScene) and target is not None and not self.scene.is_animating:
            hole = self._start_hole()
            direction = getattr(self.step.move, "direction", "")
            left, right = (theme.HINT if visual_direction(hole, rightwards) == direction else theme.TEXT_DIM
                           for rightwards in (False, True))
            self.scene.draw_arrows(hole, (left, right))
        if self.banner and not (isinstance(self.scene, SowingScene) and self.window.height < SHORT):
            self._banner.text = self.banner
            if self._banner.font_size != round(theme.HEADING.size * self.scale):
                self._banner.font_size = round(theme.HEADING.size * self.scale)
            self._banner.position = width / 2, (BAR - 25) * self.scale
            self._banner.draw()

    # -- input ------------------------------------------------------------------------------------------------
    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        assert self.scene is not None
        location = self.scene.location_at(x, y)
        if location is None:
            return None
        if self.scene.is_animating:
            self.scene.finish()
            return True
        if not self.waiting_for_move:
            return True
        if location == self.target():
            self.play()
        else:
            self.message(f"Not that one: this step is about the glowing {self._noun()}.   Escape leaves.",
                         warning=True)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        # Enter presses the focused button (Tab), else it does the step's next thing.
        if symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER, arcade.key.SPACE) \
                and not self.focus_on_control:
            self.advance()
            return True
        return super().on_key_press(symbol, modifiers)
