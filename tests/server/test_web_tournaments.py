"""The tournaments page in a real browser: the list, then one tournament whose
standings change as its round is played; a person who registers on the page, plays
their round on the board and sees the standings change (Debian's headless Chromium
against a real ``backgammon serve``)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from .browser import keep_said, needs_chromium, play_to_the_end, watch

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _account(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url)
    answer = client.post("/api/register", json={"name": name, "password": f"password-{name}"})
    answer.raise_for_status()
    client.headers["authorization"] = f"Bearer {answer.json()['token']}"
    return client


def test_the_page_lists_a_tournament_and_shows_its_standings_change(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    ada, bob = _account(server.url, "ada"), _account(server.url, "bob")
    body = {
        "name": "<b>Club</b> cup",
        "format": "swiss",
        "rounds": 1,
        "early_length": 1,
        "clock": {"delay_seconds": 0, "reserve_per_point_seconds": 1},
        # Unrated: a rated event's clock has 30 s a point at least, and its start
        # withdraws players connected nowhere (ada and bob have no connection here).
        "rated": False,
    }
    created = ada.post("/api/tournaments", json=body)
    created.raise_for_status()
    tournament_id = created.json()["id"]
    for client in (ada, bob):
        client.post(f"/api/tournaments/{tournament_id}/register").raise_for_status()
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(server.url + "/tournaments", wait_until="load")
    link = page.locator('ul[data-status="open"] a', has_text="<b>Club</b> cup")
    link.wait_for()
    link.click()
    page.wait_for_selector("#tournament:not([hidden])")
    assert page.locator("#tournament-name").text_content() == "<b>Club</b> cup"
    page.locator("#tournament-status", has_text="open").wait_for()
    page.locator("#tournament-status", has_text="starts when the organiser starts it").wait_for()
    assert page.locator("#standings tbody tr").count() == 0
    ada.post(f"/api/tournaments/{tournament_id}/start").raise_for_status()
    # Nobody moves: the player on roll loses on the clock; the page follows.
    page.locator("#tournament-status", has_text="finished").wait_for(timeout=20_000)
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("td").nth(2).text_content() == "1"
    assert "won" in (page.locator("#rounds").text_content() or "")


def _points(page: Any) -> dict[str, str]:
    rows = page.locator("#standings tbody tr")
    return {
        str(rows.nth(i).locator("td").nth(1).text_content()): str(
            rows.nth(i).locator("td").nth(2).text_content()
        )
        for i in range(rows.count())
    }


def test_a_person_registers_plays_the_round_and_sees_the_standings_change(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    organiser = _account(server.url, "org")
    body = {"name": "Evening Swiss", "format": "swiss", "rounds": 1, "early_length": 1}
    tournament_id = organiser.post("/api/tournaments", json=body).json()["id"]
    organiser.post(
        f"/api/tournaments/{tournament_id}/bots", json={"level": "beginner"}
    ).raise_for_status()
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill("ada")
    page.locator("#login-form input[name=password]").fill("password-ada")
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    page.goto(f"{server.url}/tournaments?id={tournament_id}", wait_until="load")
    page.locator("#tournament-entry button", has_text="Register").click()
    page.locator("#tournament-players", has_text="bot_beginner_1 (bot), ada").wait_for()
    page.locator("#tournament-entry button", has_text="Withdraw").wait_for()
    assert page.locator("#standings tbody tr").count() == 0
    organiser.post(f"/api/tournaments/{tournament_id}/start").raise_for_status()
    # The person on the event's page is taken to their match as the round starts.
    page.wait_for_url("**/#/match/*", timeout=10_000)
    page.wait_for_selector("#board .place", state="attached")
    play_to_the_end(page)
    page.goto(f"{server.url}/tournaments?id={tournament_id}", wait_until="load")
    page.locator("#tournament-status", has_text="finished").wait_for(timeout=20_000)
    after = _points(page)
    view = httpx.get(f"{server.url}/api/tournaments/{tournament_id}").json()
    winner = view["rounds"][0]["pairings"][0]["winner"]
    assert after == {winner: "1", ({"ada", "bot_beginner_1"} - {winner}).pop(): "0"}
    score = "1–0" if winner == view["rounds"][0]["pairings"][0]["players"][0] else "0–1"
    assert f"{score}, {winner} won" in (page.locator("#rounds").text_content() or "")
    assert problems == []


def _person(browser: Any, url: str, name: str, width: int = 1200) -> tuple[Any, list[str]]:
    """A new person registered from the lobby's form, in a browser context of their own."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    problems = watch(page)
    page.goto(url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill(name)
    page.locator("#login-form input[name=password]").fill(f"password-{name}")
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    return page, problems


WAITING_PLACES = {
    "org": "/tournaments?id={id}",  # the event's page
    "ann": "/#/",  # the lobby (then the review page: _follow)
    "bob": "/tournaments",  # the tournaments' list
    "cat": "/chouettes",  # the chouette tables
}
"""Where each person waits for the first round."""

AWAY_BETWEEN_ROUNDS = {"ann": "/#/review", "bob": "/tournaments", "cat": "/chouettes"}
"""Where a person goes once their match is over, other than back to the event."""


def test_an_organiser_creates_a_swiss_with_bots_from_the_web_and_it_runs_to_its_winner(
    server_factory: Any, browser: Any
) -> None:
    """From an empty site: the organiser finds Tournaments in the lobby's header, creates
    a Swiss of 2 rounds for 6 with 2 bots from the form, three people register on its
    page and the organiser too (6 players), the organiser starts it, and each person is
    taken to each round's match from wherever they are (the event's page, the lobby,
    the review page, the tournaments' list, the chouette tables), which names the event
    (nobody moves there: a 1-second clock ends it) and leads back to it; every person's
    dice nonce is in every match of theirs (so each match waited for them: nobody's
    clock ran while they were elsewhere); the event ends with its winner, shown to
    everyone, and the standings have a column for each tie-break."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    org, problems = _person(browser, server.url, "org")
    org.get_by_role("link", name="Tournaments").click()
    form = org.locator("#tournament-new")
    form.wait_for()
    form.get_by_label("Name").fill("Club Swiss")
    form.get_by_label("Format").select_option("swiss")
    form.get_by_label("Rounds").fill("2")
    form.get_by_label("Match length (points)").fill("1")
    form.get_by_label("Players at most").fill("6")
    form.get_by_label("Reserve per point (seconds)").fill("1")
    form.get_by_label("Delay per move (seconds)").fill("0")
    form.get_by_label("Rated").uncheck()
    form.get_by_label("Bots to enter").fill("2")
    form.get_by_label("Level").select_option("beginner")
    form.get_by_role("button", name="Create").click()
    org.wait_for_url("**/tournaments?id=*")
    tournament_id = org.url.split("id=")[1]
    org.locator(
        "#tournament-players", has_text="bot_beginner_1 (bot), bot_beginner_2 (bot)"
    ).wait_for()
    people = {"org": (org, problems)}
    for name in ("ann", "bob", "cat"):
        page, watched = _person(browser, server.url, name)
        page.goto(f"{server.url}/tournaments?id={tournament_id}", wait_until="load")
        page.get_by_role("button", name="Register").click()
        page.get_by_role("button", name="Withdraw").wait_for()
        people[name] = (page, watched)
    people["ann"][0].add_init_script(keep_said("#status"))
    org.get_by_role("button", name="Register").click()
    org.locator("#tournament-status", has_text="6 of 6 players").wait_for()
    for name, place in WAITING_PLACES.items():
        people[name][0].goto(server.url + place.format(id=tournament_id), wait_until="load")
    people["bob"][0].locator("#tournament-list a", has_text="Club Swiss").wait_for()
    people["cat"][0].locator("#chouette-tables").wait_for()
    org.get_by_role("button", name="Start now").click()
    visited = _follow(people, server.url, tournament_id)
    final = _finished(server.url, tournament_id)
    for name in people:
        theirs = [
            pairing["match"]
            for played in final["rounds"]
            for pairing in played["pairings"]
            if pairing["match"] and name in pairing["players"]
        ]
        assert visited[name] == theirs and len(theirs) == 2, (name, visited[name], theirs)
        for match_id in theirs:
            state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
            nonce = state["dice"]["nonces"][state["players"].index(name)]
            assert nonce, (name, match_id, state["dice"])
    told = people["ann"][0].evaluate("window.__said")
    for number in (1, 2):
        assert any(f"Club Swiss, round {number}: you play " in line for line in told), told
    winner = final["standings"][0]["name"]
    for page, _ in people.values():
        if "/tournaments?id=" not in page.url:
            page.goto(f"{server.url}/tournaments?id={tournament_id}", wait_until="load")
        page.locator("#tournament-winner", has_text=f"Winner: {winner}").wait_for(timeout=20_000)
        headings = page.locator("#standings thead th").all_text_contents()
        assert headings[:3] == ["#", "Player", "Points"], headings
        assert "Buchholz" in headings[3:] and "Tie-breaks" not in headings, headings
        for row in page.locator("#standings tbody tr").all():
            assert row.locator("td").count() == len(headings)
    for _, watched in people.values():
        assert watched == []


def _follow(
    people: dict[str, tuple[Any, list[str]]], url: str, tournament_id: str
) -> dict[str, list[str]]:
    """Each person's matches, in the order their pages were taken to them, until the
    event is over. A match's page names the event and round, offers no rematch, and
    once the match is over leads back: the people in :data:`AWAY_BETWEEN_ROUNDS` go
    there instead (the next round must find them there), the others follow the link
    back to the event."""
    visited: dict[str, list[str]] = {name: [] for name in people}

    def record(name: str, address: str) -> None:  # every navigation, hash changes too
        found = re.search(r"#/match/([\w-]+)$", address)
        if found is not None and found[1] not in visited[name]:
            visited[name].append(found[1])

    for name, (page, _) in people.items():
        main = page.main_frame
        page.on("framenavigated", lambda frame, n=name, m=main: frame == m and record(n, frame.url))
        record(name, page.url)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = httpx.get(f"{url}/api/tournaments/{tournament_id}").json()
        at_matches = 0
        for name, (page, _) in people.items():
            if re.search(r"#/match/[\w-]+$", page.url) is None:
                continue
            at_matches += 1
            back = page.get_by_role("link", name="Back to Club Swiss")
            if not back.is_visible():
                continue
            assert "Club Swiss, round" in (page.locator("#match-event").text_content() or "")
            assert page.locator("#do-rematch").is_hidden()
            if name in AWAY_BETWEEN_ROUNDS:
                page.goto(url + AWAY_BETWEEN_ROUNDS[name], wait_until="load")
            else:
                back.click()
                page.wait_for_url("**/tournaments?id=*")
        if view["status"] == "finished" and at_matches == 0:
            return visited
        people["org"][0].wait_for_timeout(200)
    raise AssertionError(f"the event did not end: {visited}")


def _finished(url: str, tournament_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        view = httpx.get(f"{url}/api/tournaments/{tournament_id}").json()
        if view["status"] == "finished":
            return dict(view)
        time.sleep(0.3)
    raise AssertionError("the tournament did not finish")


def test_an_event_that_starts_when_full_is_cancelled_by_its_organiser(
    server_factory: Any, browser: Any
) -> None:
    """From the form: a rated 2-player event that starts when full starts at the second
    registration, both people present though only on its page (no live connection:
    the page's polls count), and each taken to the match; its organiser cancels it from
    its page (after a confirmation)."""
    server = server_factory("--no-warm-up", "--no-bots")
    org, problems = _person(browser, server.url, "org")
    org.goto(server.url + "/tournaments", wait_until="load")
    form = org.locator("#tournament-new")
    form.get_by_label("Name").fill("Quick pair")
    form.get_by_label("Players at most").fill("2")
    form.get_by_label("When full").check()
    form.get_by_role("button", name="Create").click()
    # Refused with the field named, before anything is made: 3 rounds for 2 players.
    org.locator("#status", has_text="rounds: more rounds than players").wait_for()
    form.get_by_label("Rounds").fill("1")
    form.get_by_role("button", name="Create").click()
    org.wait_for_url("**/tournaments?id=*")
    org.locator("#tournament-status", has_text="starts when full").wait_for()
    org.get_by_role("button", name="Register").click()
    ann, ann_problems = _person(browser, server.url, "ann")
    ann.goto(org.url, wait_until="load")
    ann.get_by_role("button", name="Register").click()
    event_page = org.url
    org.wait_for_url("**/#/match/*", timeout=10_000)  # the start takes org to the match
    org.on("dialog", lambda dialog: dialog.accept())
    org.goto(event_page, wait_until="load")
    org.locator("#tournament-status", has_text="running, round 1").wait_for()
    (pairing,) = httpx.get(event_page.replace("/tournaments?id=", "/api/tournaments/")).json()[
        "rounds"
    ][0]["pairings"]
    assert sorted(pairing["players"]) == ["ann", "org"], "nobody withdrawn as absent"
    org.get_by_role("button", name="Cancel the tournament").click()
    org.locator("#tournament-status", has_text="cancelled").wait_for(timeout=10_000)
    ann.wait_for_url("**/#/match/*", timeout=10_000)
    ann.goto(event_page, wait_until="load")
    ann.locator("#tournament-status", has_text="cancelled").wait_for(timeout=10_000)
    assert ann.get_by_role("button", name="Cancel the tournament").count() == 0
    # The one refusal asked for (3 rounds for 2 players), and nothing else.
    assert all("422" in problem for problem in problems), problems
    assert ann_problems == []


def test_a_player_withdraws_from_a_running_event_on_its_page(
    server_factory: Any, browser: Any
) -> None:
    """Once it runs, a player withdraws from the event's page (after a confirmation):
    their match is conceded, they are listed as withdrawn, and the opponent wins."""
    server = server_factory("--no-warm-up", "--no-bots")
    org = _account(server.url, "org")
    body = {"name": "Pair", "format": "swiss", "rounds": 1, "max_players": 2, "rated": False}
    created = org.post("/api/tournaments", json={**body, "start_when_full": True}).json()
    event_page = f"{server.url}/tournaments?id={created['id']}"
    org.post(f"/api/tournaments/{created['id']}/register").raise_for_status()
    ann, problems = _person(browser, server.url, "ann")
    ann.goto(event_page, wait_until="load")
    ann.get_by_role("button", name="Register").click()
    ann.wait_for_url("**/#/match/*", timeout=10_000)  # the start takes ann to her match
    ann.goto(event_page, wait_until="load")
    ann.on("dialog", lambda dialog: dialog.accept())
    ann.get_by_role("button", name="Withdraw").click()
    ann.locator("#tournament-players", has_text="ann (withdrawn)").wait_for()
    ann.locator("#tournament-winner", has_text="Winner: org").wait_for(timeout=20_000)
    assert ann.get_by_role("button", name="Withdraw").count() == 0
    assert problems == []


def test_the_organiser_pauses_after_a_round_and_resumes_from_the_page(
    server_factory: Any, browser: Any
) -> None:
    """Four bots in a Swiss of two rounds: paused from the page, round 1 plays on and
    round 2 waits (the page says so); resumed, the event runs to its winner."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page, problems = _person(browser, server.url, "org")
    org = httpx.Client(base_url=server.url)  # the organiser's own calls, as org
    login = org.post("/api/login", json={"name": "org", "password": "password-org"})
    org.headers["authorization"] = f"Bearer {login.json()['token']}"
    body = {"name": "Bots night", "format": "swiss", "rounds": 2, "rated": False}
    created = org.post("/api/tournaments", json={**body, "early_length": 1}).json()
    for _ in range(4):
        org.post(f"/api/tournaments/{created['id']}/bots", json={"level": "beginner"})
    page.goto(f"{server.url}/tournaments?id={created['id']}", wait_until="load")
    page.get_by_role("button", name="Start now").click()
    page.get_by_role("button", name="Pause after this round").click()
    page.locator("#tournament-status", has_text="paused by the organiser").wait_for()
    view = _round_over(server.url, created["id"], 1)
    assert all(p["match"] is None for p in view["rounds"][1]["pairings"])
    page.get_by_role("button", name="Resume").click()
    page.locator("#tournament-winner", has_text="Winner: bot_beginner_").wait_for(timeout=90_000)
    assert problems == []


def _round_over(url: str, tournament_id: str, number: int) -> dict[str, Any]:
    """The tournament's view once round ``number`` has a winner in every pairing."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        view = httpx.get(f"{url}/api/tournaments/{tournament_id}").json()
        rounds = view["rounds"]
        if len(rounds) >= number and all(p["winner"] for p in rounds[number - 1]["pairings"]):
            time.sleep(1)  # the step after the round's last match has run
            return dict(httpx.get(f"{url}/api/tournaments/{tournament_id}").json())
        time.sleep(0.3)
    raise AssertionError(f"round {number} did not end")


def test_a_person_whose_tab_is_hidden_is_told_of_the_round_by_the_browser(
    server_factory: Any, browser: Any
) -> None:
    """The round's start reaches a person whose tab is in the background as the
    browser's own notification (they allowed it), and the tab is at the match when
    they come back to it."""
    from .test_web_social import BACKGROUND

    server = server_factory("--no-warm-up", "--bot-processes", "1")
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_init_script(BACKGROUND)
    page = context.new_page()
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill("ann")
    page.locator("#login-form input[name=password]").fill("password-ann")
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    org = _account(server.url, "org")
    body = {"name": "Night cup", "format": "swiss", "rounds": 1, "rated": False}
    created = org.post("/api/tournaments", json={**body, "early_length": 1}).json()
    path = f"/api/tournaments/{created['id']}"
    org.post(f"{path}/bots", json={"level": "beginner"}).raise_for_status()
    page.evaluate(f"fetch('{path}/register', {{method: 'POST'}})")
    page.evaluate("window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    org.post(f"{path}/start").raise_for_status()
    page.wait_for_function("() => window.__notices.length > 0", timeout=20_000)
    notices = page.evaluate("window.__notices")
    assert notices == ["Night cup, round 1: you play bot_beginner_1."], notices
    page.wait_for_function("() => location.hash.startsWith('#/match/')")
    assert problems == []
