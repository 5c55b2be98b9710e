"""Player journeys in a real window, with invariants checked after every step (issue 29).

A journey is a sequence of steps a player takes: open a screen, resize the window (as the window manager does:
``set_size`` and the events that follow, never a hand-made ``on_resize``), press F11 (the real full-screen
switch), press keys, click widgets or the board, let time pass.  ``Journey.step`` runs one and then checks
``violations``: what must hold on every screen, whatever came before:

- the GL viewport is the whole window (a stale one draws the screen into the old rectangle);
- every widget and text lies inside the window, overlaps no other and is not cut off (``game.views.layout``);
- on a game screen the top bar spans the top of the window and its pixels are the bar's, the side panel (when
  shown) runs down the right edge, and the board lies inside its area, fills most of it and stays clear of the
  bars and the panel;
- every text and widget label is at least ``READABLE`` points, and the board's words and the top bar's at least
  ``readable_size`` for the window's size (they grow with it);
- the board's own words (pit numbers, counts, the sides' names, the cave's coordinate labels: the scene's
  ``text_boxes()``) lie inside the window and overlap neither one another nor the screen's widgets and texts
  (a toast on its plate may cover them for its moment, and a dialog over the board hides those under it);
- every game on offer for Resume still resumes to the position it was left at, and no game left unfinished has
  gone unless the player removed it (``games_in_progress.GamesInProgress``: checked after the steps that can
  change the offers, at most every ``OFFER_EVERY`` steps, and at the end).

The window manager's maximise is an action of its own (``Journey.maximise``): Xvfb has no window manager, so the
journey starts a small one (``jwm``, the Debian package, installed by ``.ci/run``) for as long as the window is
maximised, asks it through the real request (``window.maximize()``: the EWMH ``_NET_WM_STATE`` message), and
asks it to restore the window before any resize or F11, then stops it: the other steps and tests run without one.

``random_journey`` walks a seeded random path over the same actions (with legal moves, Ctrl+S, quitting and
starting again); ``evening=True`` makes it an evening of games, mostly moves, so games in progress pile up.  A
failure names the seed and the steps so far, which replays it.  ``JOURNEY_TIMING=1`` prints each step's time.
"""
from __future__ import annotations

import itertools
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import arcade
import arcade.gui

from game import theme
from game.views import layout, tour
from games_in_progress import GamesInProgress, check_every_offer, leave, offers, session_of  # noqa: F401
from window_manager import WINDOW_MANAGER, WindowManager, has_window_manager

SIZES = ((800, 500), (1024, 600), (1280, 720), (1366, 768), (1600, 900), (1920, 1080), (900, 1000), (2560, 1440))
"""Window sizes a journey resizes to (the screen of the tests' Xvfb is 2560x1440)."""
SCREEN_NAMES = tuple(name for name in tour.SCREENS)
GAME_KEYS = (arcade.key.H, arcade.key.U, arcade.key.R, arcade.key.A, arcade.key.TAB, arcade.key.LEFT,
             arcade.key.RIGHT, arcade.key.ENTER, arcade.key.SPACE, arcade.key.KEY_1, arcade.key.KEY_3,
             arcade.key.KEY_4, arcade.key.P, arcade.key.PLUS, arcade.key.DOWN, arcade.key.UP)
"""Keys a random journey presses (Escape and N are steps of their own: they leave or restart)."""
TOUR_KEEPS = ("title-resume", "load")
"""Screens the tour shows with games in progress it writes itself (a journey takes them as left unfinished)."""
GAME_SCREENS = ("kalah", "oware", "hus", "magnetic-cave", "puzzle", "puzzles", "title", "title-resume", "load",
                "kalah-analysis")
"""The screens of an evening of games (``random_journey(..., evening=True)``)."""
PLAYED = ("kalah", "oware", "hus", "magnetic-cave", "puzzle")
"""The games an evening goes into."""
OFFER_EVERY = 10
"""A random journey resumes every offer after a step that can change them (leaving a game, Ctrl+S, quitting),
but at most once in this many steps (each check visits every game on offer), and once at its end."""


READABLE = 9
"""The smallest font size (points) any text may have, at any window size: a digit about 9 px tall."""


def readable_size(width: int, height: int) -> float:
    """The smallest font size (points) the board's words and the top bar may have in a window this big: 9 pt up
    to 1280x720, growing with the window's type scale (18 pt at 2560x1440), so a huge board is not labelled in
    1280x720's sizes."""
    return READABLE * theme.type_scale(width, height)


# -- what a view drew --------------------------------------------------------------------------------------------
def _font_sizes(view: Any) -> Iterator[tuple[str, float, bool]]:
    """(name, font size, scales) of every text the view shows: its own and its sections' texts, its widgets'
    labels, and the numbers, badges and names its board writes (``scene.texts()``); ``scales`` is True for the
    texts that must grow with the window (the board's and the top bar's)."""
    sections = [s for s in getattr(getattr(view, "section_manager", None), "sections", ()) if s.enabled]
    scrolled_out = getattr(view, "scrolled_out", None)
    for owner in [view, *sections]:
        scales = owner is getattr(view, "top_bar", None)
        for value in vars(owner).values():
            for text in layout._texts(value):
                if layout._shown(text) and not (callable(scrolled_out) and scrolled_out(text)):
                    yield text.text[:40], text.font_size, scales
    manager = getattr(view, "ui", None)
    if manager is not None:
        for layer in manager.children.values():
            for root in layer:
                for widget in layout._widgets(root):
                    label = widget if isinstance(widget, arcade.gui.UILabel) else getattr(widget, "_label", None)
                    text = getattr(label, "_label", None)
                    if isinstance(text, arcade.Text) and text.text.strip():
                        yield text.text[:40], text.font_size, False
    texts = getattr(getattr(view, "scene", None), "texts", None)
    if callable(texts):
        for text in texts():
            if text.text.strip():
                yield f"board {text.text[:20]}", text.font_size, True


def board_rect(scene: Any) -> tuple[float, float, float, float] | None:
    """(left, bottom, right, top) of the board a scene draws (None for a scene that has not been laid out)."""
    found = getattr(scene, "layout", None)
    if found is None:
        return None
    board = getattr(found, "board", None)
    if board is not None:  # a sowing board (and the solitaire's)
        left, bottom, width, height = board
        return left, bottom, left + width, bottom + height
    if hasattr(found, "wall"):  # the cave: the grid between its two walls
        return found.left - found.wall, found.bottom, found.right + found.wall, found.bottom + 8 * found.cell
    return None


def board_boxes(view: Any) -> list[layout.Box]:
    """The words the view's board writes (pit numbers, counts, names, the cave's labels: ``scene.text_boxes()``)
    as boxes, so the layout check holds them to the window and keeps them off one another and off the widgets."""
    found = getattr(getattr(view, "scene", None), "text_boxes", None)
    if not callable(found) or getattr(view.scene, "layout", None) is None:
        return []
    return [layout.Box(name, "board word", left, bottom, right, top) for name, left, bottom, right, top in found()]


def _layout_problems(view: Any, width: int, height: int) -> list[str]:
    """``layout.problems`` over the view's widgets and texts and its board's words, except that a toast (a short
    announcement on an opaque plate of its own, up for a moment: ``panels.ScreenChrome``) may cover the board's
    words for its moment, and a dialog over the board (a load panel, the game's verdict) hides those under it;
    neither may cover a widget or another text of the screen."""
    found = layout.boxes(view)
    toast = getattr(getattr(view, "_toast_text", None), "text", "")
    overlays = [box for box in found if toast and box.kind == "text" and box.name == toast[:60]]
    screen = [box for box in found if box not in overlays]
    dialogs = _dialogs(view)
    board = [box for box in board_boxes(view) if not any(box.overlap(dialog) > 0 for dialog in dialogs)]
    wrong = layout.problems([*screen, *board], width, height)
    if overlays:
        wrong += [problem for problem in layout.problems([*overlays, *screen], width, height)
                  if repr(overlays[0].name) in problem]
    return wrong


def _dialogs(view: Any) -> list[layout.Box]:
    """The panels a view shows over its board: the widgets of its UI layers above the first (an anchor layout
    that places a panel counts as the panel it holds)."""
    manager = getattr(view, "ui", None)
    found = []
    for layer, roots in (manager.children.items() if manager is not None else ()):
        for root in roots if layer > 0 else ():
            for panel in (root.children if isinstance(root, arcade.gui.UIAnchorLayout) else [root]):
                if panel.visible:
                    rect = panel.rect
                    found.append(layout.Box("dialog", "panel", rect.left, rect.bottom, rect.right, rect.top))
    return found


def _pixels(window: arcade.Window, x: int, y: int, width: int, height: int) -> list[tuple[int, ...]]:
    image = arcade.get_image(x, y, width, height).convert("RGB")
    return list(image.getdata())


def _near(colour: tuple[int, ...], target: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], target[:3]))


def _blend(top: theme.Color, under: theme.Color) -> tuple[int, int, int]:
    alpha = top[3] / 255
    return tuple(round(a * alpha + b * (1 - alpha)) for a, b in zip(top[:3], under[:3]))  # type: ignore[return-value]


def violations(window: arcade.Window) -> list[str]:
    """What is wrong with the screen as drawn now (see the module's docstring); [] when all holds.  Draws a frame
    and reads a few strips of it back (before the flip)."""
    view = window.current_view
    width, height = window.width, window.height
    wrong: list[str] = []
    window.dispatch_event("on_draw")
    if tuple(window.viewport) != (0, 0, width, height):
        wrong.append(f"the viewport {tuple(window.viewport)} is not the {width}x{height} window")
    wrong += _layout_problems(view, width, height)
    floor = readable_size(width, height)
    small = sorted({f"{name!r} at {size:g} pt" for name, size, scales in _font_sizes(view)
                    if size < (floor if scales else READABLE) - 0.01})
    if small:
        wrong.append(f"texts under {READABLE} pt (the board's and the top bar's under {floor:g} pt) in a "
                     f"{width}x{height} window: " + ", ".join(small[:6]))
    top_bar = getattr(view, "top_bar", None)
    if top_bar is not None:
        wrong += _game_screen(window, view, top_bar)
    window.flip()
    return wrong


def _game_screen(window: arcade.Window, view: Any, top_bar: Any) -> list[str]:
    width, height = window.width, window.height
    wrong = []
    if (top_bar.left, top_bar.right, top_bar.top) != (0, width, height) or top_bar.height < 30:
        wrong.append(f"the top bar is at ({top_bar.left}, {top_bar.bottom})-({top_bar.right}, {top_bar.top}) in a "
                     f"{width}x{height} window")
    # Its top rows, above any text, must be drawn in the bar's colour all across the window.
    bar = _blend(theme.PANEL, theme.TABLE)
    strip = _pixels(window, 0, height - 3, width, 1)
    off = sum(not _near(pixel, bar) for pixel in strip)
    if off > width * 0.02:
        wrong.append(f"the top bar is not drawn: {off} of {width} pixels across the window's top are not its colour")
    side = view.side_panel if view.side_panel.enabled else getattr(view, "analysis", None)
    if side is not None and getattr(side, "enabled", False) and side.width > 20:
        if abs(side.right - width) > 1 or side.left < width * 0.3:
            wrong.append(f"the side panel runs from x={side.left} to {side.right} in a {width}-wide window")
        column = _pixels(window, width - 3, int(side.bottom + 2), 1, max(1, int(side.height - 4)))
        off = sum(not _near(pixel, bar, 40) for pixel in column)
        if off > len(column) * 0.05:
            wrong.append(f"the side panel is not drawn down the window's right edge ({off} of {len(column)} pixels)")
    area = getattr(view, "board_area", None)
    board = board_rect(getattr(view, "scene", None))
    if area is None or board is None:
        return wrong + ["the game screen reports no board area or board"]
    left, bottom, area_w, area_h = area
    if board[0] < left - 1 or board[1] < bottom - 1 or board[2] > left + area_w + 1 or board[3] > bottom + area_h + 1:
        wrong.append(f"the board {tuple(round(v) for v in board)} leaves its area {tuple(round(v) for v in area)}")
    fill = max((board[2] - board[0]) / area_w, (board[3] - board[1]) / area_h)
    if fill < 0.6:
        wrong.append(f"the board fills only {fill:.0%} of its area")
    if board[3] > top_bar.bottom + 1 or board[2] > width + 1:
        wrong.append("the board runs under the top bar or off the window")
    if side is not None and getattr(side, "enabled", False) and side.width > 20 and board[2] > side.left + 1:
        wrong.append(f"the board (right edge {board[2]:.0f}) runs under the side panel (from x={side.left})")
    return wrong


# -- the journey -------------------------------------------------------------------------------------------------
@dataclass
class Journey:
    """Steps a player takes on the test's window (``gui`` from tests/conftest.py), checked after each one."""

    gui: Any
    steps: list[str] = field(default_factory=list)
    checks: int = 0
    games: GamesInProgress = field(default_factory=GamesInProgress)
    offer_checks: int = 0
    window_manager: WindowManager = field(init=False)
    """The window manager, running while the window is maximised."""
    evening_games: Iterator[str] = field(default_factory=lambda: itertools.cycle(PLAYED))
    """The games an evening goes into next (``random_journey(..., evening=True)``)."""

    def __post_init__(self) -> None:
        self.window_manager = WindowManager(self.gui.window)
        self._prepare(self.gui.context)

    def _prepare(self, context: Any) -> None:
        # The real full-screen switch (the fixture's stub keeps other tests from paying for it).
        context.apply_settings = type(context).apply_settings.__get__(context)
        context.quit = lambda: self.steps.append("(quit asked)")
        context.settings.set("think_time", 0.25)

    @property
    def window(self) -> arcade.Window:
        return self.gui.window

    @property
    def view(self) -> Any:
        return self.window.current_view

    def step(self, name: str, action: Callable[[], object], frames: int = 2) -> None:
        """Take one step, let ``frames`` frames pass, then check the invariants (an AssertionError names the
        journey so far)."""
        self.steps.append(name)
        t0 = time.perf_counter()
        asked = getattr(getattr(self.view, "confirming", None), "slot", None)  # the Load screen's "Remove it?"
        action()
        self.gui.frame(frames)
        if asked is not None and asked not in self.gui.context.autosave.slots():
            self.games.expected.pop(asked, None)  # the player removed that game, and only that one
        t1 = time.perf_counter()
        self.check()
        if os.environ.get("JOURNEY_TIMING"):
            print(f"{name}: {t1 - t0:.2f} s + check {time.perf_counter() - t1:.2f} s")

    def check(self) -> None:
        self.checks += 1
        self.games.observe(self.view)
        self._assert(violations(self.window))

    def _assert(self, wrong: list[str]) -> None:
        assert not wrong, (f"after {' -> '.join(self.steps[-12:])} on {type(self.view).__name__} at "
                           f"{self.window.width}x{self.window.height}:\n" + "\n".join(wrong))

    def check_offers(self) -> None:
        """Every game left unfinished is still kept, and each on offer resumes where it was left (a step of its
        own: it visits the title screen and every game it offers, and ends on the title screen)."""
        self.steps.append("resume every offer")
        self.offer_checks += 1
        started = time.perf_counter()
        self._assert(self.games.check(self.gui))
        if os.environ.get("JOURNEY_TIMING"):
            print(f"resume every offer ({len(self.games.expected)} games): {time.perf_counter() - started:.2f} s")
        self.gui.context.show_title()
        self.gui.frame(2)
        self.check()

    # -- actions ------------------------------------------------------------------------------------------------
    def open(self, screen: str) -> None:
        before = set(self.gui.context.autosave.slots())
        self.step(f"open {screen}", lambda: tour.open_screen(self.gui.context, screen), frames=3)
        if screen in TOUR_KEEPS:  # games in progress the tour wrote to show the screen: the journey's too
            made = set(self.gui.context.autosave.slots()) - before
            for kept in self.gui.context.autosave.games()[0]:
                if kept.slot in made:
                    self.games.expected[kept.slot] = tuple(kept.saved.moves)
                    self.games.titles[kept.slot] = kept.saved.game.title

    def save(self) -> None:
        """Ctrl+S: the game is saved under a name of its own (and stays a game in progress)."""
        self.key(arcade.key.S, arcade.key.MOD_CTRL)

    def resize(self, width: int, height: int) -> None:
        """Resize as the window manager does: the window changes size and its events arrive with the frames."""
        self.restore()
        def run() -> None:
            if self.window.fullscreen:
                self.window.set_fullscreen(False)
                self.gui.frame()
            self.window.set_size(width, height)
        self.step(f"resize {width}x{height}", run, frames=3)

    def f11(self) -> None:
        self.restore()
        self.step("F11", lambda: self.window.dispatch_event("on_key_press", arcade.key.F11, 0), frames=3)

    def key(self, symbol: int, modifiers: int = 0) -> None:
        import pyglet.window.key

        name = pyglet.window.key.symbol_string(symbol)
        self.step(f"key {name}", lambda: (self.window.dispatch_event("on_key_press", symbol, modifiers),
                                          self.window.dispatch_event("on_key_release", symbol, modifiers)))

    def click(self, x: float, y: float, what: str = "") -> None:
        def run() -> None:
            for event in ("on_mouse_motion", "on_mouse_press", "on_mouse_release"):
                args = (int(x), int(y), 0, 0) if event == "on_mouse_motion" else (int(x), int(y), 1, 0)
                self.window.dispatch_event(event, *args)
        self.step(f"click {what or (int(x), int(y))}", run)

    def press(self, text: str) -> None:
        """Click the button labelled ``text`` where it is drawn now."""
        self.gui.frame()
        self.click(*self.gui.button(text).rect.center, what=repr(text))

    def wait(self, seconds: float) -> None:
        self.step(f"wait {seconds}s", lambda: self.gui.frame(max(1, int(seconds * 30)), 1 / 30), frames=1)

    def maximise(self) -> None:
        """Maximise as the window manager does when its maximise button is pressed: a window manager is started
        (none runs under Xvfb), asked through the EWMH request, and the window takes the screen less its frame.
        Already maximised: restore it instead (the same button)."""
        if self.window_manager.running:
            self.restore()
            return
        if not has_window_manager():
            raise AssertionError(f"no window manager to maximise the window: install {WINDOW_MANAGER} "
                                 f"(apt-get install {WINDOW_MANAGER}; .ci/run does)")

        def run() -> None:
            if self.window.fullscreen:
                self.window.set_fullscreen(False)
                self.gui.frame()
            before = self.window.get_size()
            if not self.window_manager.maximise():
                raise AssertionError(f"{WINDOW_MANAGER} did not maximise the {before[0]}x{before[1]} window after "
                                     f"{' -> '.join(self.steps[-12:])}")
        self.step("maximise", run, frames=3)

    def restore(self) -> None:
        """Un-maximise (the window manager puts the window back at its size), then stop the window manager."""
        if not self.window_manager.running:
            return

        def run() -> None:
            if not self.window_manager.restore():
                raise AssertionError(f"{WINDOW_MANAGER} did not restore the maximised window after "
                                     f"{' -> '.join(self.steps[-12:])}")
        self.step("restore", run, frames=3)

    def play_a_move(self, rng: random.Random) -> bool:
        """Play a legal move as the player would: a click on a legal pit or cell of a game (a legal round on a
        puzzle: the rounds are chosen with arrows, played here through the screen's own ``play``); False when
        there is none to play now (not the player's turn, a replay, the game over)."""
        from game.views.solitaire_view import SolitaireView

        view = self.view
        legal = getattr(view, "legal_locations", None)
        scene = getattr(view, "scene", None)
        if callable(legal) and scene is not None and scene.layout is not None:
            if not view.match.is_human_turn or view.controller.why_not_now():
                return False
            places = legal()
            if not places:
                return False
            location = rng.choice(sorted(places))
            if hasattr(scene.layout, "places"):  # a sowing board
                x, y = scene.layout.places[location].x, scene.layout.places[location].y
            else:  # the cave
                x, y = scene.centre(location)
            if scene.is_animating:
                self.key(arcade.key.SPACE)  # finish the animation first, as an impatient player does
            self.click(x, y, what=f"legal place {location}")
            return True
        if isinstance(view, SolitaireView) and not view.session.is_over and not view.controller.watch.active:
            moves = view.session.game.legal_moves(view.session.state)
            if moves:
                self.step("a legal round", lambda: view.play(rng.choice(moves)))
                return True
        return False

    def quit_and_resume(self) -> None:
        """Quit (the window closes; every game in progress is kept) and start again the next evening on the same
        saves folder: the title screen of a new start."""
        from game import app

        folder = getattr(self.gui, "config_dir", None)
        assert folder is not None, "the journey's gui names no config_dir to start again from"

        def run() -> None:
            leave(self.gui)
            self.gui.context = app.start(self.window, folder)
            self.gui.context.sounds.enabled = False
            self._prepare(self.gui.context)
        self.step("quit and start again", run, frames=3)

    def leave_full_screen(self) -> None:
        """Back to a window (the end of a journey: the session window is shared)."""
        if self.window_manager.running:
            try:
                self.restore()
            finally:
                self.window_manager.stop()
                self.gui.frame(2)
        if self.window.fullscreen:
            self.window.set_fullscreen(False)
        self.gui.context.settings.set("fullscreen", False)
        self.gui.frame(2)


def random_journey(gui: Any, seed: int, steps: int, screens: tuple[str, ...] = SCREEN_NAMES,
                   sizes: tuple[tuple[int, int], ...] = SIZES, evening: bool = False) -> Journey:
    """``steps`` seeded random steps (screens, resizes, F11, the window manager's maximise, keys, Ctrl+S, clicks on
    widgets and the board, legal moves, time passing, quitting and starting again), the invariants checked after
    each and the games in progress after those that can change them; returns the journey (its ``steps`` say what
    was done).  ``evening``: a player's evening of games instead of a tour of every screen: the game screens,
    mostly moves, with leaving, saving, quitting and resuming between them, so games in progress pile up."""
    rng = random.Random(seed)
    journey = Journey(gui)
    journey.steps.append(f"seed {seed}" + (" (evening)" if evening else ""))
    if evening:
        screens = GAME_SCREENS
        order = list(PLAYED)
        rng.shuffle(order)
        journey.evening_games = itertools.cycle(order)  # each game in turn, so an evening of any length has all
    journey.open(rng.choice(screens))
    since = 0
    try:
        for _ in range(steps):
            in_game = session_of(journey.view) is not None
            changes_offers = _random_step(journey, rng, screens, sizes, evening)
            since += 1
            left_game = in_game and session_of(journey.view) is None
            if (changes_offers or left_game) and since >= OFFER_EVERY:
                journey.check_offers()
                since = 0
        journey.check_offers()
    finally:
        journey.leave_full_screen()
        view = gui.window.current_view
        if hasattr(view, "cancel_search"):
            view.cancel_search()
    return journey


def _random_step(journey: Journey, rng: random.Random, screens: tuple[str, ...],
                 sizes: tuple[tuple[int, int], ...], evening: bool = False) -> bool:
    """One random step; True when it can have changed the games on offer (Ctrl+S, quitting)."""
    roll = rng.random()
    if evening:  # in a game mostly moves, then leaving, saving, quitting; elsewhere mostly into a game
        if session_of(journey.view) is not None:
            if roll < 0.55 and journey.play_a_move(rng):
                return False
            roll = rng.random()
            if roll < 0.1:
                journey.key(arcade.key.ESCAPE)
                return False
            if roll < 0.18:
                journey.save()
                return True
            if roll < 0.22:
                journey.quit_and_resume()
                return True
        else:
            if roll < 0.35:
                journey.open(next(journey.evening_games))
                return False
            if roll < 0.38:
                journey.quit_and_resume()
                return True
            if roll < 0.6:  # the title's Resume offers among them
                roll = 0.6
        roll = rng.uniform(0.07, 1.0) if roll != 0.6 else 0.6  # the tour's other actions, without its screens
    view = journey.view
    if roll < 0.07:
        journey.open(rng.choice(screens))
    elif roll < 0.15:
        journey.resize(*rng.choice(sizes))
    elif roll < 0.18:
        journey.f11()
    elif roll < 0.21 and has_window_manager():
        journey.maximise()  # or restore, when maximised
    elif roll < 0.21:
        journey.resize(*rng.choice(sizes))
    elif roll < 0.225 and session_of(view) is not None:
        journey.save()
        return True
    elif roll < 0.235:
        journey.quit_and_resume()
        return True
    elif roll < 0.53:
        journey.key(rng.choice(GAME_KEYS))
    elif roll < 0.72:
        buttons = [w for w in journey.gui.widgets(arcade.gui.UIFlatButton)
                   if w.visible and not getattr(w, "disabled", False) and w.text not in ("Quit", "Menu", "Back")]
        if buttons:
            widget = rng.choice(buttons)
            journey.click(*widget.rect.center, what=repr(widget.text))
        else:
            journey.wait(0.1)
    elif roll < 0.8 and journey.play_a_move(rng):
        pass
    elif roll < 0.88 and getattr(view, "scene", None) is not None:
        board = board_rect(view.scene)
        if board is not None:
            journey.click(rng.uniform(board[0], board[2]), rng.uniform(board[1], board[3]), what="the board")
    elif roll < 0.92:
        journey.key(arcade.key.ESCAPE)
    else:
        journey.wait(rng.choice((0.1, 0.4)))
    return False
