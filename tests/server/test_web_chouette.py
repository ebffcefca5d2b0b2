"""The chouette page in a real browser, as people use it (Debian's headless Chromium
against a real ``backgammon serve``): two people and a bot play two games on the
board (clicks and a drag, on a desktop and a phone), with each member's cube
decisions, the status line saying every decision to whoever must make it, the games'
ends announced and the lineup rotating; and a test for each defect the page had
(issue 52): who throws the opening, the box's play reported to the team, the team's
board in its own numbering, a pending double in the cubes list, an anonymous viewer's
buttons, the cube limit, the board in words; axe-core and 32-pixel targets on a phone.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .browser import TARGETS, chromium, keep_said, needs_chromium, small_targets, watch
from .conftest import ServerProcess
from .test_web_accessibility import axe_violations
from .test_web_layout import MEASURE

pytestmark = [needs_chromium, pytest.mark.slow]

PHONE = {"width": 375, "height": 800}
DESKTOP = {"width": 1280, "height": 900}
BOT = "bot_beginner_1"
TABLES = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module (SQLite; bots think in the server's own process)."""
    started = ServerProcess(
        tmp_path_factory.mktemp("chouette"), "", "--no-warm-up", "--bot-processes", "0"
    )
    started.start()
    yield started
    started.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, through Playwright, for the module."""
    yield from chromium()


class Table:
    """A table of two people (the box and the captain) and a bot, each person's page,
    a spectator's (``watcher``, logged in but not seated) and everything that went
    wrong in any of them."""

    def __init__(self, browser: Any, url: str, *, phone: bool = True, limit: str = "") -> None:
        self.url = url
        self.watched: list[list[str]] = []
        number = next(TABLES)
        self.box_name, self.member_name, watcher = (f"{n}{number}" for n in ("ann", "bob", "cyd"))
        self.box = self.person(browser, self.box_name, DESKTOP)
        self.member = self.person(browser, self.member_name, PHONE if phone else DESKTOP)
        self.watcher = self.person(browser, watcher, DESKTOP)
        self.box.goto(url + "/chouettes", wait_until="load")
        form = self.box.locator("#chouette-new")
        form.locator("select[name=seats]").select_option("3")
        if limit:
            form.locator("select[name=max_cube]").select_option(limit)
        form.locator("button[type=submit]").click()
        self.box.wait_for_selector("#chouette:not([hidden])")
        self.address = self.box.url
        self.member.goto(self.address, wait_until="load")
        self.member.locator("#chouette-sit").click()
        self.member.locator("#chouette-seats li", has_text=self.member_name).wait_for()
        self.box.locator("#chouette-bot").click()  # the table is full: the session starts
        self.watcher.goto(self.address, wait_until="load")
        for page in self.pages:
            page.wait_for_selector("#chouette-session:not([hidden])")

    def person(self, browser: Any, name: str, viewport: dict[str, int]) -> Any:
        """A new browser context logged in as a newly registered ``name``: its page."""
        context = browser.new_context(viewport=viewport)
        answer = context.request.post(
            self.url + "/api/register", data={"name": name, "password": f"password-{name}"}
        )
        assert answer.ok, answer.text()
        page = context.new_page()
        page.add_init_script(keep_said("#chouette-turn"))
        self.watched.append(watch(page))
        return page

    @property
    def pages(self) -> tuple[Any, Any, Any]:
        """The box's, the member's and the spectator's pages."""
        return self.box, self.member, self.watcher

    def all_problems(self) -> list[str]:
        """Everything that went wrong in any of the pages."""
        return [line for problems in self.watched for line in problems]


def status(page: Any) -> str:
    return str(page.locator("#chouette-turn").text_content())


def said(page: Any, words: str | re.Pattern[str], timeout: float = 20_000) -> str:
    """Wait until the page's status line says (or has said, since the page opened)
    ``words``; the first such text."""
    pattern = words.pattern if isinstance(words, re.Pattern) else re.escape(words)
    found = page.wait_for_function(
        "(pattern) => window.__said.find((text) => new RegExp(pattern).test(text))",
        arg=pattern,
        timeout=timeout,
    )
    return str(found.json_value())


def seq(page: Any) -> str:
    return str(page.locator("#chouette").get_attribute("data-seq"))


def after(page: Any, before: str) -> None:
    """Wait until the table's state moves past ``before``."""
    page.wait_for_function(
        "(before) => document.querySelector('#chouette').dataset.seq !== before",
        arg=before,
        timeout=20_000,
    )


def visible_buttons(page: Any) -> list[str]:
    buttons = page.locator("#chouette-actions button:visible")
    return [str(text).strip() for text in buttons.all_text_contents()]


def move_on_the_board(page: Any, drag: bool = False) -> None:
    """Make the play of the dice on the board: click a checker that may move, then a
    lit destination (or drag it there), until Done (or the forced play) sends it."""
    before = seq(page)
    for _ in range(10):
        for button in ("#do-forced", "#do-done"):
            if page.locator(button).is_visible():
                page.locator(button).click()
                after(page, before)
                return
        if page.locator("#chouette-board .place.selected").count() == 0:
            page.locator("#chouette-board .place.movable").first.click()
        target = page.locator("#chouette-board .place.target").first
        if drag:
            drag_to(page, target)
            drag = False
        else:
            target.click()
    raise AssertionError(f"no whole play was made: {status(page)}")


def move_by_keys(page: Any) -> None:
    """The play of the dice with the keyboard alone, as on the match page: on the board
    (focused as Tab would), Enter picks up the first checker that may move and puts it
    on its first destination, until the play is whole; Enter sends it."""
    before = seq(page)
    page.locator("#chouette-board").focus()
    for _ in range(10):
        if page.locator("#do-done").is_visible():
            page.keyboard.press("Enter")
            after(page, before)
            return
        page.keyboard.press("Enter")  # pick up
        page.keyboard.press("Enter")  # put down
    raise AssertionError(f"no whole play was made with the keys: {status(page)}")


def drag_to(page: Any, target: Any) -> None:
    """Drag the picked-up checker to ``target`` with the mouse (put back first, so
    that the drag picks it up)."""
    source = page.locator("#chouette-board .place.selected").first
    start, end = source.bounding_box(), target.bounding_box()
    page.keyboard.press("Escape")
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] * 0.8)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


Policy = Callable[[str, list[str]], str | None]
"""A person's cube decisions: given their name and the buttons they see, the one to
press (None: no cube action; they throw and move)."""


def no_cube(_name: str, buttons: list[str]) -> str | None:
    """Take any double up to 8 (a person must answer), otherwise no cube action."""
    for label in buttons:
        if label.startswith("Take") and int(re.findall(r"to (\d+)", label)[0]) <= 8:
            return label
    return next((label for label in buttons if label.startswith("Drop")), None)


def act_once(page: Any, name: str, policy: Policy, done: Callable[[], bool]) -> bool:
    """What ``name`` does now, if anything: a cube action of the policy, a throw, or
    the play of the dice on the board (nothing once ``done()``). Waits for the state
    it makes."""
    buttons = visible_buttons(page)
    if not buttons and page.locator("#chouette-board .place.movable").count() == 0:
        return False
    if done():  # the state the buttons are of may be the one awaited
        return False
    before = seq(page)
    choice = policy(name, buttons)
    if choice is not None:
        page.locator("#chouette-actions button", has_text=choice).first.click()
    elif page.locator("#do-roll").is_visible():
        page.locator("#do-roll").click()
    elif buttons or page.locator("#chouette-board .place.movable").count():
        if (
            not page.locator("#do-forced").is_visible()
            and not page.locator("#chouette-board .place.movable").count()
        ):
            return False  # only cube buttons the policy leaves alone
        move_on_the_board(page)
        return True
    else:
        return False
    after(page, before)
    return True


def play_until(table: Table, done: Callable[[], bool], policy: Policy, limit: float = 300) -> None:
    """The two people act by ``policy`` (the bot by itself) until ``done()``."""
    deadline = time.monotonic() + limit
    people = ((table.box_name, table.box), (table.member_name, table.member))
    while not done():
        assert time.monotonic() < deadline, f"too long: {status(table.box)}"
        if not any(act_once(page, name, policy, done) for name, page in people):
            time.sleep(0.1)


def over(table: Table, game: int) -> Callable[[], bool]:
    """Whether either person's page has heard of the end of game ``game``."""
    ended = f"Game {game} is over"
    return lambda: any(
        page.locator("#chouette-results li", has_text=ended).count() for page in table.pages[:2]
    )


def test_two_people_and_a_bot_play_two_games_on_the_board(server: Any, browser: Any) -> None:
    table = Table(browser, server.url)
    box, member, watcher = table.pages
    ann, bob = table.box_name, table.member_name
    assert member.locator("#chouette-captain").text_content() == bob
    # Bob's first throw and first play (not a forced one) with the keys.
    play_until(table, lambda: member.locator("#do-roll").is_visible(), no_cube)
    before = seq(member)
    member.keyboard.press("r")
    after(member, before)
    play_until(
        table,
        lambda: (
            member.locator("#chouette-board .place.movable").count() > 0
            and member.locator("#do-forced").is_hidden()
        ),
        no_cube,
    )
    move_by_keys(member)
    said(box, re.compile(rf"{bob} played [0-9/*()a-z ]+\."))
    # Game 1: Bob (on a phone) doubles his own cube; the box drops it.
    play_until(table, lambda: member.locator("#do-double").is_visible(), no_cube)
    before = seq(member)
    member.locator("#do-double").click()
    after(member, before)
    said(box, f"{bob} doubles to 2: will you take or drop?")
    said(member, f"You double to 2: waiting for {ann} to take or drop.")
    box.locator("#chouette-cube-buttons button", has_text=f"Drop {bob}'s double").click()
    said(member, f"{ann} dropped your double: you are out of this game.")
    member.locator(
        "#chouette-cubes li", has_text="Your cube: 1, in the centre; out of this game"
    ).wait_for()
    assert visible_buttons(member) == []
    # The box doubles the bot's cube once (the bot answers); the game is played out.
    doubled = []

    def box_doubles_the_bot(name: str, buttons: list[str]) -> str | None:
        label = f"Double {BOT}'s cube (to 2)"
        if name == ann and label in buttons and not doubled:
            doubled.append(label)
            return label
        return no_cube(name, buttons)

    play_until(table, over(table, 1), box_doubles_the_bot)
    said(member, "Game 1 is over:")
    said(box, "Game 1 is over:")
    ended = said(watcher, "Game 1 is over:")
    assert f"{bob}'s cube (1): {bob} won 1 point on a drop" in ended, ended
    assert "Result:" in ended, ended
    # The captain won against the box: he takes the box, the old box goes to the back.
    for page in table.pages:
        page.locator("#chouette-box", has_text=bob).wait_for()
        assert page.locator("#chouette-captain").text_content() == BOT
        assert page.locator("#chouette-queue").text_content() == ann
    said(member, f"Opening throw: you or {BOT} may press Opening throw.")
    # Game 2: Ann, now on the team, doubles her cube; Bob, the box, takes it.
    play_until(table, lambda: box.locator("#do-double").is_visible(), no_cube)
    before = seq(box)
    box.locator("#do-double").click()
    after(box, before)
    said(member, f"{ann} doubles to 2: will you take or drop?")
    member.locator("#chouette-cube-buttons button", has_text=f"Take {ann}'s double (to 2)").click()
    # (The bot, the captain, may throw at once: the cubes list keeps what the line said.)
    member.locator("#chouette-cubes li", has_text=f"{ann}'s cube: 2, held by you").wait_for()
    watcher.locator("#chouette-cubes li", has_text=f"{ann}'s cube: 2, held by {bob}").wait_for()
    play_until(table, over(table, 2), no_cube)
    # (Said until the next game's first play: at once if a bot won the box and throws.)
    member.locator("#chouette-results li", has_text="Game 2 is over:").wait_for()
    assert member.locator("#chouette-results li").count() == 2
    # Announced on every page (Ann's, Bob's, the watcher's), with each member's result.
    for page, me in zip(table.pages, (ann, bob, None), strict=True):
        ended = said(page, "Game 2 is over:")
        for name in (ann, BOT):
            assert ("your cube (" if name == me else f"{name}'s cube (") in ended, ended
        assert "Result:" in ended, ended
    assert table.all_problems() == [], table.all_problems()


def test_who_presses_the_opening_throw_is_told(server: Any, browser: Any) -> None:
    """Before: 'To decide: ann, bob.' and nobody knew who throws."""
    table = Table(browser, server.url)
    ann, bob = table.box_name, table.member_name
    said(table.box, f"Opening throw: you or {bob} may press Opening throw.")
    said(table.member, f"Opening throw: you or {ann} may press Opening throw.")
    said(table.watcher, f"Opening throw: {ann} (the box) or {bob} (the team) throws.")
    assert visible_buttons(table.box) == ["Opening throw"]
    assert visible_buttons(table.watcher) == []
    before = seq(table.member)
    table.member.locator("#do-roll").click()
    after(table.member, before)
    said(table.watcher, re.compile(rf"Opening throw: {ann} \d, {bob} \d; |both threw"))


def test_the_box_s_play_is_reported_to_the_team(server: Any, browser: Any) -> None:
    """Before: the team heard nothing of the box's play."""
    table = Table(browser, server.url)
    ann = table.box_name
    play_until(table, lambda: table.box.locator(".place.movable").count() > 0, no_cube)
    move_on_the_board(table.box, drag=True)  # a checker dragged, the rest clicked
    said(table.member, re.compile(rf"{ann} played [0-9/*()a-z ]+\."))
    assert table.all_problems() == [], table.all_problems()


def test_the_team_sees_the_board_in_its_own_numbering(server: Any, browser: Any) -> None:
    """Before: the board was always the box's, while the team's plays were written in
    the team's numbering."""
    table = Table(browser, server.url)
    box, member, watcher = table.pages
    for page, own in ((box, "yours"), (member, "yours"), (watcher, f"{table.box_name}'s")):
        page.locator("#board-words-points li", has_text=f"point 24: 2 of {own}").wait_for(
            state="attached"
        )
    # The team member's own checkers (the dark ones) are drawn at the bottom.
    dark = member.locator("#chouette-board circle.checker.bottom").first.get_attribute("fill")
    light = box.locator("#chouette-board circle.checker.bottom").first.get_attribute("fill")
    assert (dark, light) == ("#2a2a2a", "#f4f1e8")
    assert member.locator("#board-words-lines li", has_text="numbered from your side").count()
    # The captain's play, written in the team's numbering, is one the board offered.
    play_until(table, lambda: member.locator(".place.movable").count() > 0, no_cube)
    move_on_the_board(member)
    played = re.search(rf"{table.member_name} played ([^.]+)\.", status(watcher))
    assert played or table.member_name in status(watcher), status(watcher)


def test_a_pending_double_is_shown_in_the_cubes_list(server: Any, browser: Any) -> None:
    """Before: 'bob doubled bob's cube' above the list, the list unchanged."""
    table = Table(browser, server.url)
    ann, bob = table.box_name, table.member_name
    play_until(table, lambda: table.member.locator("#do-double").is_visible(), no_cube)
    table.member.locator("#do-double").click()
    waiting = (
        f"{bob}'s cube: 1, in the centre; {bob} doubles to 2: waiting for {ann} to take or drop"
    )
    table.watcher.locator("#chouette-cubes li", has_text=waiting).wait_for()
    table.member.locator(
        "#chouette-cubes li", has_text="Your cube: 1, in the centre; you double to 2"
    ).wait_for()
    table.box.locator(
        "#chouette-cubes li", has_text=f"{bob} doubles to 2: will you take or drop?"
    ).wait_for()
    assert f"doubled {bob}'s cube" not in table.watcher.locator("body").inner_text()


def test_an_anonymous_viewer_has_no_actions(server: Any, browser: Any) -> None:
    """Before: with the dice rolled, an anonymous viewer saw an active Roll button."""
    table = Table(browser, server.url)
    anonymous = browser.new_context(viewport=PHONE).new_page()
    problems = watch(anonymous)
    anonymous.goto(table.address, wait_until="load")
    anonymous.wait_for_selector("#chouette-session:not([hidden])")
    play_until(
        table,
        lambda: (
            table.box.locator(".place.movable").count() > 0
            or table.member.locator(".place.movable").count() > 0
        ),
        no_cube,
    )
    anonymous.locator("#chouette-turn", has_text="to move").wait_for()
    assert anonymous.locator("#chouette-session button:visible").count() == 0
    assert anonymous.locator("#chouette-board .place.movable").count() == 0
    assert anonymous.locator("#chouette-chat-card").is_hidden()
    assert problems == [], problems


def test_the_cube_limit_is_chosen_when_the_table_opens(server: Any, browser: Any) -> None:
    """Before: no limit (a bot redoubled to 4096). The form offers one; the table says
    it; once a cube reaches it, nobody is offered its double."""
    table = Table(browser, server.url, limit="2")
    ann, bob = table.box_name, table.member_name
    table.watcher.locator("#chouette-state", has_text="cube limit 2").wait_for()
    play_until(table, lambda: table.member.locator("#do-double").is_visible(), no_cube)
    table.member.locator("#do-double").click()
    table.box.locator("#chouette-cube-buttons button", has_text=f"Take {bob}'s double").click()
    table.box.locator("#chouette-cubes li", has_text=f"{bob}'s cube: 2, held by you").wait_for()
    # The box on roll may double the bot's cube, never Bob's (at the limit).
    play_until(
        table, lambda: table.box.locator("#do-roll").is_visible() and seq_is_box(table), no_cube
    )
    buttons = visible_buttons(table.box)
    # The bot may have doubled the box meanwhile (the dice are the table's own): then
    # its cube is at the limit too, and nobody may double it either.
    bot_at_limit = table.box.locator("#chouette-cubes li", has_text=f"{BOT}'s cube: 2").count()
    if bot_at_limit:
        assert not any(label.startswith(f"Double {BOT}'s") for label in buttons), buttons
    else:
        assert f"Double {BOT}'s cube (to 2)" in buttons, buttons
    assert not any(label.startswith(f"Double {bob}'s") for label in buttons), buttons
    assert ann in table.box.locator("#chouette-box").text_content()


def seq_is_box(table: Table) -> bool:
    """Whether the box is to roll (its roll words)."""
    return status(table.box).endswith(("Your roll.", "Your roll: roll, or double first."))


def test_the_board_in_words_and_axe_on_a_phone_and_a_desktop(server: Any, browser: Any) -> None:
    """Before: the board had no text version. The board in words follows the game; the
    table's page passes axe-core mid-move and on the list page, on a phone and a
    desktop, and does not scroll sideways."""
    table = Table(browser, server.url)
    ann, bob = table.box_name, table.member_name
    lines = table.member.locator("#board-words-lines li")
    lines.first.wait_for(state="attached")
    first = lines.all_text_contents()
    assert first[0] == f"Game 1: {ann} in the box against the team of you, {BOT} (captain you)."
    assert "Dice: not rolled." in first
    play_until(
        table, lambda: any(p.locator(".place.movable").count() for p in table.pages[:2]), no_cube
    )
    for page in table.pages:
        assert any(
            line.startswith("Dice: ") and "not rolled" not in line
            for line in page.locator("#board-words-lines li").all_text_contents()
        )
        assert page.evaluate(MEASURE)["scrollWidth"] <= page.evaluate("innerWidth")
        assert axe_violations(page) == []
    table.watcher.goto(server.url + "/chouettes", wait_until="load")
    table.watcher.locator("#chouette-tables li").first.wait_for()
    assert axe_violations(table.watcher) == []
    assert bob and table.all_problems() == [], table.all_problems()


def test_no_target_under_32_pixels_on_a_phone(server: Any, browser: Any) -> None:
    """Every link, button, field and the board's points, bar and tray measure 32 CSS
    pixels or more both ways on a 375-pixel phone, while the phone's player moves
    (the board is turned a quarter there), and on the list page with its form."""
    table = Table(browser, server.url)
    member = table.member
    play_until(table, lambda: member.locator(".place.movable").count() > 0, no_cube)
    member.locator("#chouette-board .place.movable").first.click()
    member.locator("#chouette-board .place.target").first.wait_for()
    measured = member.evaluate(TARGETS)
    assert any(t["name"] == "place 13" for t in measured), measured
    small = small_targets(member)
    member.goto(table.url + "/chouettes", wait_until="load")
    member.locator("#chouette-tables li").first.wait_for()
    small += small_targets(member)
    assert small == [], "\n".join(small)
