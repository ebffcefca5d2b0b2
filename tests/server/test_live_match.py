"""Tests for backgammon.server.matches.live: one match as the server holds it.

Random matches of every variant are played to the end by a driver that picks legal
actions for whoever must act, with refusals tried along the way; then the log is
replayed into a fresh match, which must reach the very same state. Directed tests
cover the dice, the clocks, money sessions and what the server does by itself.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import zlib
from typing import Any

import pytest

from backgammon.errors import BackgammonError
from backgammon.rules.dice import Roll
from backgammon.rules.play import legal_plays, parse_play
from backgammon.server.matches import fair_dice
from backgammon.server.matches.live import ActionRefusedError, Entry, LiveMatch
from backgammon.server.protocol import ACTION_KINDS, ActionBody, ClockSettings, MatchSettings
from backgammon.variants import all_variants

SEED = bytes(range(32))
NONCES = ("alice-1", "bob_2")
NAMES = ("alice", "bob")
# A claim is the service's to check (it needs who is connected): see test_disconnect.py.
ALL_KINDS = tuple(kind for kind in ACTION_KINDS if kind != "claim")
# A generous clock for the random matches: it runs, but nobody runs out of time.
LOOSE_CLOCK = ClockSettings(delay=5, reserve_per_point=3600, money_reserve=36000)


# -- helpers -------------------------------------------------------------------------------


def settings(**options: Any) -> MatchSettings:
    """Match settings: a 3-point standard match without a clock unless told otherwise."""
    options.setdefault("length", 3)
    options.setdefault("clock", None)
    return MatchSettings(**options)


def new_match(
    options: MatchSettings | None = None, seed: bytes = SEED, nonces: tuple[str, str] = NONCES
) -> LiveMatch:
    """A match not yet started."""
    return LiveMatch("m1", settings() if options is None else options, NAMES, seed, nonces)


def started(options: MatchSettings | None = None, seed: bytes = SEED) -> LiveMatch:
    """A match started at time 0."""
    live = new_match(options, seed)
    live.start(0)
    return live


def action(kind: str, **fields: Any) -> ActionBody:
    return ActionBody(kind=kind, **fields)


def replayed(live: LiveMatch, entries: list[Entry] | None = None) -> LiveMatch:
    """A fresh match rebuilt from ``live``'s log (through JSON, as the database keeps it)."""
    fresh = LiveMatch(live.id, live.settings, live.names, live._seed, live.nonces)
    log = live.entries if entries is None else entries
    fresh.replay(json.loads(json.dumps(log)))
    return fresh


def snapshot(live: LiveMatch, now: float) -> tuple[Any, ...]:
    """Everything an action could change, to check that a refusal changed nothing."""
    game = live.game
    return (
        json.dumps(live.state(now), sort_keys=True),
        live.seq,
        json.dumps(live.entries),
        live.throws,
        tuple(live.reserves),
        live.turn_started,
        live.result,
        len(live.match.games),
        None if game is None else game.history,
    )


def refused(
    live: LiveMatch,
    now: float,
    seat: int,
    body: ActionBody,
    before: tuple[Any, ...] | None = None,
    **kwargs: Any,
) -> str:
    """Act, expecting a refusal that changes nothing; returns the refusal's code.
    ``before`` is the match's :func:`snapshot` at ``now``, if already taken."""
    if before is None:
        before = snapshot(live, now)
    with pytest.raises(ActionRefusedError) as caught:
        live.act(seat, body, now, **kwargs)
    assert snapshot(live, now) == before, f"refused {body} changed the match"
    assert caught.value.message == str(caught.value)
    return caught.value.code


def expect_refusal(
    live: LiveMatch,
    now: float,
    seat: int,
    body: ActionBody,
    code: str,
    before: tuple[Any, ...] | None = None,
    **kwargs: Any,
) -> None:
    got = refused(live, now, seat, body, before, **kwargs)
    assert got == code, f"{body} by seat {seat}: refused as {got!r}, expected {code!r}"


def workable_double(live: LiveMatch, rng: random.Random) -> int:
    """A number whose double can be played now (acey-deucey), if there is one."""
    game = live.game
    assert game is not None
    numbers = list(range(1, 7))
    rng.shuffle(numbers)
    for number in numbers:
        if legal_plays(game.position, Roll(number, number), game.variant):
            return number
    return numbers[0]


def explodable(live: LiveMatch) -> bool:
    game = live.game
    return game is not None and game.variant.atomic and game.explode_refusal() is None


def choose(live: LiveMatch, rng: random.Random, games: int) -> tuple[int, ActionBody]:
    """A random allowed action for whoever must act: in a money session between games,
    ``next_game`` until ``games`` were played, then ``leave``."""
    state = live.state(0)
    seat = state["waiting_for"]
    if seat is None:
        assert not live.settings.length, "a match with a length never waits between games"
        kind = "leave" if len(live.match.games) >= games else "next_game"
        return rng.randrange(2), action(kind)
    game = state["game"]
    pending = game["pending"]
    if pending is not None:
        assert game["legal_plays"] is None
        kind = pending["kind"]
        limit = live.settings.max_cube
        value = game["cube"]["value"]
        if kind == "double":
            options = ["take", "take", "take", "drop"]
            money_beavers = live.settings.beavers and not live.settings.length
            if money_beavers and (limit is None or value * 4 <= limit):
                options.append("beaver")
            return seat, action(rng.choice(options))
        if kind == "beaver":
            assert live.settings.raccoons, "with raccoons off the doubler rolls at once"
            assert seat == pending["by"]
            if limit is not None and value * 2 > limit:
                return seat, action("roll")
            return seat, action(rng.choice(["raccoon", "roll"]))
        if kind == "resign":
            assert seat != pending["by"]
            return seat, action(rng.choice(["accept", "reject", "reject"]))
        assert kind == "choose-double", pending
        return seat, action("choose_double", number=workable_double(live, rng))
    if rng.random() < 0.01:
        return seat, action("resign", level=rng.randint(1, 3))
    if rng.random() < 0.002:
        return seat, action("leave")
    if game["dice"] is None:
        can_explode = explodable(live)
        assert game["can_double"] or can_explode, (
            "a player with nothing to decide before rolling is rolled for by the server"
        )
        options = ["roll"] * 8
        if game["can_double"]:
            options.append("double")
        if can_explode:
            options.extend(["explode"] * 2)
        return seat, action(rng.choice(options))
    plays = game["legal_plays"]
    assert plays, "a roll with no legal play is played (empty) by the server"
    return seat, action("play", move=rng.choice(plays))


def illegal_moves(live: LiveMatch, rng: random.Random) -> list[str]:
    """Moves in our notation that parse as plays of other rolls but not of this one."""
    game = live.game
    assert game is not None and game.dice is not None
    found: list[str] = []
    roll = Roll(*(rng.randint(1, 6) for _ in range(game.variant.dice)))
    for play in legal_plays(game.position, roll, game.variant)[:3]:
        text = play.notation()
        try:
            parse_play(text, game.position, game.dice, game.variant)
        except BackgammonError:
            found.append(text)
    return found


GARBAGE_MOVES = ["", "garbage", "13/", "/7", "13/7(9)", "99/1", "off/bar", "\x00", "Ø", "*"]


def probe(live: LiveMatch, rng: random.Random, now: float) -> None:
    """Try actions that must be refused, each with its code and changing nothing."""
    state = live.state(now)
    before = snapshot(live, now)
    seat = state["waiting_for"]
    tries: list[tuple[int, ActionBody, str, dict[str, Any]]] = [
        (rng.choice([2, -1, 7]), action("roll"), "not_a_player", {}),
        (rng.randrange(2), action("roll"), "stale", {"expect": live.seq + 1}),
    ]
    if live.seq:
        tries.append((1, action("leave"), "stale", {"expect": live.seq - 1}))
    if live.settings.length:
        tries.append((rng.randrange(2), action("next_game"), "bad_action", {}))
    if seat is None:
        # A money session between games: no game action until next_game.
        tries.append((rng.randrange(2), action("roll"), "bad_action", {}))
    else:
        tries.extend((seat, body, code, {}) for body, code in refusals_for(live, state, rng))
        wrong = rng.choice(["roll", "play", "double", "take", "drop", "resign", "accept"])
        tries.append((1 - seat, action(wrong, move="24/18"), "not_your_turn", {}))
        if not live.settings.length:
            tries.append((rng.randrange(2), action("next_game"), "bad_action", {}))
    for who, body, code, kwargs in tries:
        expect_refusal(live, now, who, body, code, before, **kwargs)


def refusals_for(
    live: LiveMatch, state: dict[str, Any], rng: random.Random
) -> list[tuple[ActionBody, str]]:
    """Actions the waiting player may not take now, with the refusal's code."""
    game = state["game"]
    pending = game["pending"]
    pending_kind = None if pending is None else pending["kind"]
    tries: list[tuple[ActionBody, str]] = []
    if pending_kind != "double":
        tries.append((action(rng.choice(["take", "drop"])), "illegal"))
    if pending_kind != "resign":
        tries.append((action(rng.choice(["accept", "reject"])), "illegal"))
    if pending_kind != "choose-double":
        tries.append((action("choose_double", number=3), "illegal"))
    if pending_kind != "beaver":
        tries.append((action("raccoon"), "illegal"))
    if pending_kind == "double" and live.settings.length:
        tries.append((action("beaver"), "illegal"))
    if pending is not None:
        tries.append((action("resign", level=1), "illegal"))
    if not game["can_double"]:
        tries.append((action("double"), "illegal"))
    if not live.variant.atomic:
        tries.append((action("explode"), "illegal"))
    if game["dice"] is None:
        tries.append((action("play", move="13/7 8/7"), "illegal"))
    else:
        tries.append((action("roll"), "illegal"))
        tries.append((action("double"), "illegal"))
    if game["legal_plays"]:
        tries.append((action("play"), "bad_action"))
        tries.append((action("play", move=rng.choice(GARBAGE_MOVES)), "illegal"))
        tries.extend((action("play", move=move), "illegal") for move in illegal_moves(live, rng))
    return tries


def check_applied(live: LiveMatch, seq: int, applied: list[Entry], seat: int, now: float) -> None:
    """What ``act`` returned is what it logged: the action first, then automatic ones."""
    assert applied, "an accepted action is logged"
    assert live.entries[seq:] == applied
    assert live.seq == seq + len(applied)
    assert applied[0]["by"] == seat and applied[0]["at"] == now
    assert all(entry["by"] is None for entry in applied[1:]), applied
    json.dumps(applied)


def drive(
    live: LiveMatch,
    rng: random.Random,
    *,
    now: float = 0.0,
    games: int = 2,
    probes: float = 0.0,
    steps: int | None = None,
) -> float:
    """Play ``live`` by random allowed actions to its end (or for ``steps`` actions),
    starting at ``now``; returns the time of the last action."""
    for _ in range(5000 if steps is None else steps):
        if live.result is not None:
            return now
        now += rng.choice([0.5, 1.0, 3.0, 7.5])
        if probes and rng.random() < probes:
            probe(live, rng, now)
        seq = live.seq
        seat, body = choose(live, rng, games)
        expect = seq if rng.random() < 0.5 else None
        applied = live.act(seat, body, now, expect=expect)
        check_applied(live, seq, applied, seat, now)
        if live.result is None:
            assert live.state(now)["dice"]["seed"] is None
    assert steps is not None, f"{live.settings.variant}: no result after 5000 actions"
    return now


def check_finished(live: LiveMatch, now: float) -> None:
    """A finished match: a result whose score adds up, and nothing more to do."""
    result = live.result
    assert result is not None
    state = live.state(now)
    assert state["result"] == result.as_json()
    assert state["waiting_for"] is None and live.deadline() is None
    points = [0, 0]
    for game in live.match.games:
        if game.outcome is not None:
            points[game.outcome.winner] += game.outcome.points
    assert tuple(points) == live.match.score == tuple(state["score"])
    length = live.settings.length
    if result.reason == "score":
        assert length
        assert result.score == live.match.score
        assert result.winner is not None
        assert result.score[result.winner] >= length > result.score[1 - result.winner]
    else:
        assert result.reason == "left"
        leave = live.entries[-1]
        assert leave["kind"] == "leave"
        loser = leave["by"]
        assert not length or result.winner == 1 - loser, "leaving a match loses it"
        expected = list(live.match.score)
        game = live.game
        if length:
            expected[1 - loser] = max(expected[1 - loser], length)
        elif game is not None and not game.is_over():
            top = 3 if live.variant.backgammons else 2 if live.variant.gammons else 1
            expected[1 - loser] += top * game.cube.value
        assert list(result.score) == expected
        if result.score[0] == result.score[1]:
            assert result.winner is None and not length
        else:
            assert result.winner == (0 if result.score[0] > result.score[1] else 1)
    for kind in ALL_KINDS:
        for seat in (0, 1):
            expect_refusal(live, now, seat, action(kind), "over")
    expect_refusal(live, now, 2, action("roll"), "not_a_player")
    assert live.timeout(now + 1e6) == []
    assert live.adjudicate(0, now) == []


# -- 1. random matches of every variant, replayed ------------------------------------------

VARIANT_NAMES = [variant.name for variant in all_variants()]

CONFIGS = {
    "match-1": {"length": 1, "clock": LOOSE_CLOCK},
    "match-3": {"length": 3, "clock": LOOSE_CLOCK},
    "money": {
        "length": 0,
        "clock": LOOSE_CLOCK,
        "beavers": True,
        "raccoons": True,
        "automatic_doubles": 2,
        "jacoby": True,
        "max_cube": 64,
    },
}


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_random_match_ends_and_replays(variant: str, config: str) -> None:
    rng = random.Random(zlib.crc32(f"{variant}/{config}".encode()))
    seed = rng.randbytes(32)
    live = started(settings(variant=variant, **CONFIGS[config]), seed=seed)
    now = drive(live, rng, probes=0.1, steps=rng.randint(5, 40))
    if live.result is None:
        again = replayed(live)
        assert again.state(now) == live.state(now), "a replay in the middle of the match differs"
        now = drive(live, rng, now=now, probes=0.05)
    check_finished(live, now)
    again = replayed(live)
    assert again.state(now) == live.state(now), "the log does not reproduce the match"
    assert again.entries == live.entries and again.seq == live.seq
    assert again.result == live.result
    assert again.dice_record() == live.dice_record()
    assert again.record() == live.record()
    assert len(live.record().games) == len(live.match.games)
    assert fair_dice.verify_record(live.dice_record()) is None


def test_random_matches_cover_the_actions() -> None:
    """The driver reaches the rarer actions somewhere (else the tests above prove less)."""
    seen: set[str] = set()
    for variant in ("standard", "acey-deucey", "atomic"):
        for config in ("money", "match-3"):
            for number in range(3):
                rng = random.Random(number)
                live = started(settings(variant=variant, **CONFIGS[config]), seed=rng.randbytes(32))
                drive(live, rng)
                seen.update(entry["kind"] for entry in live.entries if entry["by"] is not None)
                seen.update(f"auto-{e['kind']}" for e in live.entries if e["by"] is None)
    for kind in ALL_KINDS:
        assert kind in seen, f"the driver never chose {kind}"
    assert {"auto-roll", "auto-play", "auto-opening", "auto-new_game"} <= seen


# -- 2. refusals ---------------------------------------------------------------------------


def test_refusals_before_the_start() -> None:
    live = new_match()
    assert live.state(0)["game"] is None and live.state(0)["waiting_for"] is None
    expect_refusal(live, 0, 0, action("roll"), "bad_action")
    expect_refusal(live, 0, 1, action("double"), "bad_action")
    expect_refusal(live, 0, 0, action("next_game"), "bad_action")
    expect_refusal(live, 0, 5, action("roll"), "not_a_player")
    live.start(0)
    with pytest.raises(ActionRefusedError) as caught:
        live.start(1)
    assert caught.value.code == "bad_action"


def test_refusal_codes_at_a_known_point() -> None:
    live = started()
    state = live.state(1)
    seat = state["waiting_for"]
    assert seat is not None and state["game"]["dice"] is not None
    other = 1 - seat
    expect_refusal(live, 1, other, action("roll"), "not_your_turn")
    expect_refusal(
        live, 1, other, action("play", move=state["game"]["legal_plays"][0]), "not_your_turn"
    )
    expect_refusal(live, 1, seat, action("play", move="24/1"), "illegal")
    expect_refusal(live, 1, seat, action("play", move="hello world"), "illegal")
    expect_refusal(live, 1, seat, action("play"), "bad_action")
    expect_refusal(live, 1, seat, action("double"), "illegal")
    expect_refusal(live, 1, seat, action("take"), "illegal")
    expect_refusal(live, 1, seat, action("beaver"), "illegal")
    expect_refusal(live, 1, seat, action("choose_double"), "bad_action")
    expect_refusal(live, 1, seat, action("explode"), "illegal")
    expect_refusal(live, 1, seat, action("roll"), "illegal")
    expect_refusal(live, 1, seat, action("next_game"), "bad_action")
    expect_refusal(live, 1, 2, action("roll"), "not_a_player")
    expect_refusal(live, 1, -1, action("roll"), "not_a_player")
    expect_refusal(live, 1, seat, action("roll"), "stale", expect=live.seq - 1)
    # The same action with the right ``expect`` is applied.
    move = state["game"]["legal_plays"][0]
    applied = live.act(seat, action("play", move=move), 2, expect=live.seq)
    assert applied[0]["move"] == move


@pytest.mark.parametrize(
    ("variant", "length"),
    [("standard", 0), ("standard", 2), ("acey-deucey", 1), ("plakoto", 1), ("atomic", 0)],
)
def test_refusals_change_nothing_at_random_points(variant: str, length: int) -> None:
    rng = random.Random(f"{variant}/{length}")
    live = started(settings(variant=variant, length=length, beavers=not length))
    drive(live, rng, probes=0.5)


def test_acting_after_the_end_is_refused() -> None:
    live = started(settings(length=1))
    seat = live.waiting_for
    assert seat is not None
    live.act(seat, action("leave"), 1)
    assert live.result is not None and live.result.reason == "left"
    check_finished(live, 2)
    expect_refusal(live, 2, 0, action("roll"), "over", expect=live.seq)


# -- 3. dice -------------------------------------------------------------------------------


def throws_of(entries: list[Entry]) -> list[Entry]:
    return [entry for entry in entries if entry["kind"] in ("roll", "opening")]


@pytest.mark.parametrize("variant", ["standard", "acey-deucey", "russian", "tavla"])
def test_every_throw_follows_from_the_seed(variant: str) -> None:
    rng = random.Random(11)
    live = started(settings(variant=variant, length=3))
    drive(live, rng)
    throws = throws_of(live.entries)
    assert [entry["index"] for entry in throws] == list(range(len(throws)))
    for entry in throws:
        assert tuple(entry["dice"]) == fair_dice.derive_throw(SEED, NONCES, entry["index"])
    assert live.throws == len(throws) == live.state(0)["dice"]["throws"]
    # Players' rolls too, not only the server's.
    assert not live.variant.cube or any(
        entry["by"] is not None for entry in throws if entry["kind"] == "roll"
    )
    source = fair_dice.FairDice(SEED, NONCES)
    assert [list(source.roll()) for _ in throws] == [entry["dice"] for entry in throws]


def test_opening_ties_are_thrown_again_with_the_next_index() -> None:
    seed = next(
        bytes([byte]) * 32
        for byte in range(256)
        if len(set(fair_dice.derive_throw(bytes([byte]) * 32, NONCES, 0))) == 1
    )
    live = new_match(seed=seed)
    entries = live.start(0)
    openings = [entry for entry in entries if entry["kind"] == "opening"]
    assert len(openings) >= 2
    assert openings[0]["dice"][0] == openings[0]["dice"][1]
    assert [entry["index"] for entry in openings] == list(range(len(openings)))
    assert openings[-1]["dice"][0] != openings[-1]["dice"][1]


def test_seed_is_secret_until_the_end() -> None:
    live = started()
    state = live.state(0)["dice"]
    assert state["seed"] is None and live.dice_record()["seed"] is None
    assert state["commitment"] == hashlib.sha256(SEED).hexdigest() == live.commitment
    assert state["nonces"] == list(NONCES) and state["version"] == 1
    assert SEED.hex() not in json.dumps(live.state(0)) + json.dumps(live.entries)
    with pytest.raises(ValueError, match="not revealed"):
        fair_dice.verify_record(live.dice_record())
    drive(live, random.Random(3))
    assert live.state(0)["dice"]["seed"] == SEED.hex()
    record = live.dice_record()
    assert record["seed"] == SEED.hex() and record["match"] == "m1"
    assert [throw["dice"] for throw in record["throws"]] == [
        entry["dice"] for entry in throws_of(live.entries)
    ]
    assert fair_dice.verify_record(record) is None


def test_adjudication_reveals_the_seed() -> None:
    live = started()
    entries = live.adjudicate(None, 5)
    assert entries == [{"kind": "adjudicate", "by": None, "at": 5, "winner": None}]
    assert live.result is not None and live.result.as_json() == {
        "winner": None,
        "reason": "adjudicated",
        "score": [0, 0],
    }
    assert live.state(5)["dice"]["seed"] == SEED.hex()
    assert fair_dice.verify_record(live.dice_record()) is None
    assert replayed(live).state(6) == live.state(6)
    other = started()
    other.adjudicate(1, 5)
    assert other.result is not None and other.result.winner == 1


def finished_log() -> tuple[LiveMatch, list[Entry]]:
    live = started()
    drive(live, random.Random(5))
    return live, copy.deepcopy(live.entries)


def test_tampered_dice_make_replay_fail() -> None:
    live, log = finished_log()
    throws = [number for number, entry in enumerate(log) if entry["kind"] in ("roll", "opening")]
    rng = random.Random(1)
    for number in rng.sample(throws, 5):
        tampered = copy.deepcopy(log)
        first, second = tampered[number]["dice"]
        tampered[number]["dice"] = [second % 6 + 1, second] if first == second else [second, first]
        with pytest.raises(ValueError):
            replayed(live, tampered)
        shifted = copy.deepcopy(log)
        shifted[number]["index"] += 1
        with pytest.raises(ValueError):
            replayed(live, shifted)
    dropped = copy.deepcopy(log)
    del dropped[throws[3]]
    with pytest.raises(ValueError):
        replayed(live, dropped)


def test_replay_with_another_seed_or_nonces_fails() -> None:
    live, log = finished_log()
    with pytest.raises(ValueError):
        LiveMatch("m1", live.settings, NAMES, bytes(32), NONCES).replay(log)
    with pytest.raises(ValueError):
        LiveMatch("m1", live.settings, NAMES, SEED, ("", "")).replay(log)
    LiveMatch("m1", live.settings, NAMES, SEED, NONCES).replay(log)


def test_replay_refuses_entries_that_do_not_apply() -> None:
    live, log = finished_log()
    plays = [number for number, entry in enumerate(log) if entry["kind"] == "play" and entry["by"]]
    broken = copy.deepcopy(log)
    broken[plays[0]].update(move="24/1", result="nonsense")
    with pytest.raises(ValueError):
        replayed(live, broken)
    with pytest.raises(ValueError):
        replayed(live, [*log, {"kind": "roll", "by": 0, "at": 1, "dice": [1, 2], "index": 999}])
    with pytest.raises(ValueError):
        replayed(live, [{"kind": "take", "by": 0, "at": 0}])
    with pytest.raises(ValueError):
        replayed(live, [{"kind": "new_game", "by": None, "at": 0}, {"kind": "double"}])


# -- 4. clocks -----------------------------------------------------------------------------

CLOCK = ClockSettings(delay=10, reserve_per_point=5)


def first_play(live: LiveMatch) -> str:
    plays = live.state(0)["game"]["legal_plays"]
    assert plays
    return plays[0]


def clocked() -> tuple[LiveMatch, int]:
    """A 3-point match with 15 s reserves; returns it and the opening player."""
    live = started(settings(clock=CLOCK))
    starter = live.waiting_for
    assert starter is not None and live.state(0)["game"]["dice"] is not None
    return live, starter


def test_clock_delay_then_reserve() -> None:
    live, starter = clocked()
    other = 1 - starter
    assert live.reserves == [15.0, 15.0]
    assert live.deadline() == 0 + 10 + 15
    assert live.state(8)["clock"]["reserves"] == [15.0, 15.0]
    live.act(starter, action("play", move=first_play(live)), 8)
    assert live.reserves == [15.0, 15.0], "acting within the delay costs nothing"
    assert live.waiting_for == other and live.state(8)["game"]["can_double"]
    assert live.turn_started == 8
    assert live.deadline() == 8 + 10 + 15
    reserves = live.state(21)["clock"]["reserves"]
    assert reserves[other] == 12.0 and reserves[starter] == 15.0
    live.act(other, action("roll"), 21)
    assert live.reserves[other] == 12.0 and live.reserves[starter] == 15.0
    assert live.deadline() == 21 + 10 + 12
    state = live.state(30)["clock"]
    assert state["delay"] == 10 and state["deadline"] == 43 and state["now"] == 30
    assert replayed(live).state(30) == live.state(30)


def test_timeout_before_and_after_the_deadline() -> None:
    live, starter = clocked()
    other = 1 - starter
    live.act(starter, action("play", move=first_play(live)), 8)
    live.act(other, action("roll"), 21)
    deadline = live.deadline()
    assert deadline == 43
    assert live.timeout(deadline) == []
    assert live.timeout(30) == []
    assert live.result is None
    expect_refusal(live, deadline + 0.5, other, action("play", move=first_play(live)), "time_up")
    # The player who is not waiting is told it is not their turn, not that time is up.
    expect_refusal(live, deadline + 0.5, starter, action("roll"), "not_your_turn")
    assert live.state(deadline + 0.5)["clock"]["reserves"][other] == 0
    entries = live.timeout(deadline + 0.5)
    assert entries == [{"kind": "timeout", "by": None, "at": deadline + 0.5, "player": other}]
    assert live.result is not None
    assert live.result.as_json() == {
        "winner": starter,
        "reason": "timeout",
        "score": [3, 0] if starter == 0 else [0, 3],
    }
    assert live.timeout(deadline + 100) == []
    assert live.state(deadline + 1)["dice"]["seed"] == SEED.hex()
    expect_refusal(live, deadline + 1, other, action("roll"), "over")
    assert replayed(live).state(99) == live.state(99)


def test_acting_at_the_deadline_is_in_time() -> None:
    live, starter = clocked()
    deadline = live.deadline()
    assert deadline == 25
    live.act(starter, action("play", move=first_play(live)), deadline)
    assert live.reserves[starter] == 0
    assert live.result is None


def test_time_runs_out_with_reserve_already_spent() -> None:
    live, starter = clocked()
    live.act(starter, action("play", move=first_play(live)), 25)  # the whole reserve
    live.act(1 - starter, action("roll"), 26)
    live.act(1 - starter, action("play", move=first_play(live)), 27)
    assert live.waiting_for == starter
    assert live.deadline() == 27 + 10 + 0
    assert live.timeout(37) == []
    assert live.timeout(37.001)[0]["player"] == starter
    assert live.result is not None and live.result.winner == 1 - starter


def test_timeout_in_a_money_session() -> None:
    live = started(settings(length=0, clock=ClockSettings(delay=1, money_reserve=20)))
    assert live.reserves == [20.0, 20.0]
    seat = live.waiting_for
    assert seat is not None
    assert live.deadline() == 21
    live.timeout(22)
    assert live.result is not None
    assert live.result.reason == "timeout" and live.result.winner == 1 - seat
    assert live.result.score[1 - seat] == 3  # an unfinished standard game: a backgammon


def test_no_clock_means_no_deadline() -> None:
    live = started(settings(clock=None))
    assert live.deadline() is None
    assert live.state(1e9)["clock"] is None
    assert live.timeout(1e9) == []
    seat = live.waiting_for
    assert seat is not None
    live.act(seat, action("play", move=first_play(live)), 1e9)
    assert live.result is None


def test_resume_clock_after_a_restart() -> None:
    live, starter = clocked()
    live.act(starter, action("play", move=first_play(live)), 8)
    again = replayed(live)
    assert again.deadline() == live.deadline() == 33
    again.resume_clock(1000)
    assert again.deadline() == 1000 + 10 + 15
    again.resume_clock(500)
    assert again.deadline() == 1000 + 10 + 15, "resuming never moves the clock back"


def test_clock_waits_between_money_games() -> None:
    live = started(settings(length=0, clock=CLOCK))
    seat = live.waiting_for
    assert seat is not None
    live.act(seat, action("resign"), 1)
    live.act(1 - seat, action("accept"), 2)
    assert live.waiting_for is None and live.deadline() is None
    assert live.timeout(1e6) == []
    assert live.reserves_at(1e6) == tuple(live.reserves)


# -- 5. money sessions ---------------------------------------------------------------------


def concede(live: LiveMatch, loser: int, level: int = 1, now: float = 1) -> None:
    """Play (first legal plays, rolls) until ``loser`` is on roll, then resign at ``level``
    and have the opponent accept."""
    for _ in range(20):
        state = live.state(now)
        seat = state["waiting_for"]
        assert seat is not None and state["game"]["pending"] is None
        if seat == loser:
            break
        if state["game"]["dice"] is None:
            live.act(seat, action("roll"), now)
        else:
            live.act(seat, action("play", move=state["game"]["legal_plays"][0]), now)
    live.act(loser, action("resign", level=level), now)
    live.act(1 - loser, action("accept"), now)


def test_money_session_waits_for_next_game() -> None:
    live = started(settings(length=0))
    concede(live, 0)
    state = live.state(1)
    assert state["waiting_for"] is None and state["result"] is None
    assert state["game"]["over"] and state["game"]["outcome"]["winner"] == 1
    assert state["score"] == [0, 1]
    assert live.entries[-1]["kind"] == "accept", "nothing follows a money game by itself"
    expect_refusal(live, 2, 0, action("roll"), "bad_action")
    expect_refusal(live, 2, 1, action("resign"), "bad_action")
    seq = live.seq
    applied = live.act(1, action("next_game"), 3)
    check_applied(live, seq, applied, 1, 3)
    assert [entry["kind"] for entry in applied[:2]] == ["next_game", "opening"]
    state = live.state(3)
    assert state["game"]["number"] == 2 and state["game"]["score"] == [0, 1]
    assert state["waiting_for"] is not None
    expect_refusal(live, 3, 0, action("next_game"), "bad_action")
    concede(live, 1, level=2, now=4)
    assert live.match.score == (2, 1)
    live.act(0, action("leave"), 5)
    assert live.result is not None
    assert live.result.as_json() == {"winner": 0, "reason": "left", "score": [2, 1]}
    check_finished(live, 6)
    assert replayed(live).state(6) == live.state(6)


def test_even_money_session_has_no_winner() -> None:
    live = started(settings(length=0))
    concede(live, 0)
    live.act(0, action("next_game"), 2)
    concede(live, 1, now=3)
    live.act(1, action("leave"), 4)
    assert live.result is not None
    assert live.result.as_json() == {"winner": None, "reason": "left", "score": [1, 1]}


@pytest.mark.parametrize(
    ("variant", "multiplier"),
    [("standard", 3), ("first-hit", 1), ("plakoto", 2), ("russian", 2), ("hypergammon", 3)],
)
def test_leaving_a_money_game_loses_it_at_its_highest_value(variant: str, multiplier: int) -> None:
    live = started(settings(variant=variant, length=0))
    seat = live.waiting_for
    assert seat is not None
    cube = 1
    if variant == "standard":
        # Double and take first: the cube doubles the loss.
        live.act(seat, action("play", move=first_play(live)), 1)
        live.act(1 - seat, action("double"), 2)
        live.act(seat, action("take"), 3)
        cube = 2
    live.act(seat, action("leave"), 4)
    assert live.result is not None
    expected = [0, 0]
    expected[1 - seat] = multiplier * cube
    assert live.result.as_json() == {"winner": 1 - seat, "reason": "left", "score": expected}


def test_leaving_a_match_gives_the_opponent_the_match() -> None:
    live = started(settings(length=5))
    concede(live, 0, level=3)  # player 1 leads 3-0
    seat = 1
    live.act(seat, action("leave"), 9)
    assert live.result is not None
    assert live.result.as_json() == {"winner": 0, "reason": "left", "score": [5, 3]}


def test_next_game_is_for_money_sessions() -> None:
    live = started(settings(length=3))
    for seat in (0, 1):
        expect_refusal(live, 1, seat, action("next_game"), "bad_action")
    concede(live, 0)
    # A match goes on to its next game by itself.
    assert live.state(1)["game"]["number"] == 2
    expect_refusal(live, 1, 1, action("next_game"), "bad_action")


def test_match_ends_by_score() -> None:
    live = started(settings(length=3))
    concede(live, 1, level=3)
    assert live.result is not None
    assert live.result.as_json() == {"winner": 0, "reason": "score", "score": [3, 0]}
    assert live.entries[-1]["kind"] == "accept"
    check_finished(live, 2)


# -- 6. automatic follow-ups ---------------------------------------------------------------


def test_roll_is_automatic_when_the_cube_is_owned_by_the_opponent() -> None:
    live = started(settings(length=5))
    starter = live.waiting_for
    assert starter is not None
    other = 1 - starter
    applied = live.act(starter, action("play", move=first_play(live)), 1)
    assert [entry["kind"] for entry in applied] == ["play"], "the opponent may double: it waits"
    state = live.state(1)
    assert state["waiting_for"] == other and state["game"]["dice"] is None
    assert state["game"]["can_double"]
    live.act(other, action("double"), 2)
    assert live.state(2)["game"]["pending"] == {"kind": "double", "by": other, "level": 1}
    assert live.waiting_for == starter
    applied = live.act(starter, action("take"), 3)
    assert applied[0]["kind"] == "take"
    assert applied[1]["kind"] == "roll" and applied[1]["by"] is None
    state = live.state(3)
    assert state["game"]["cube"] == {"value": 2, "owner": starter}
    assert state["waiting_for"] == other and state["game"]["dice"] == applied[1]["dice"]
    assert not state["game"]["can_double"]
    # The cube's owner may redouble, so their roll waits for them.
    applied = live.act(other, action("play", move=first_play(live)), 4)
    if live.result is None and len(applied) == 1:
        assert live.waiting_for == starter and live.state(4)["game"]["can_double"]


def test_roll_is_automatic_in_the_crawford_game() -> None:
    live = started(settings(length=3))
    concede(live, 0, level=2)
    state = live.state(1)
    assert state["score"] == [0, 2] and state["game"]["crawford"]
    seat = state["waiting_for"]
    assert seat is not None and state["game"]["dice"] is not None
    applied = live.act(seat, action("play", move=first_play(live)), 2)
    assert applied[1]["kind"] == "roll" and applied[1]["by"] is None, applied
    assert not live.state(2)["game"]["can_double"]
    expect_refusal(live, 2, 1 - seat, action("double"), "illegal")
    # After the Crawford game, doubling is back, so the roll waits again.
    concede(live, 1, now=3)
    state = live.state(3)
    assert state["score"] == [1, 2] and not state["game"]["crawford"]
    seat = state["waiting_for"]
    assert seat is not None
    applied = live.act(seat, action("play", move=first_play(live)), 4)
    if len(applied) == 1:
        assert live.state(4)["game"]["can_double"]
        assert live.state(4)["game"]["dice"] is None


@pytest.mark.parametrize("options", [{"cube": False}, {"variant": "tavla"}])
def test_every_roll_is_automatic_without_a_cube(options: dict[str, Any]) -> None:
    live = started(settings(**options))
    rng = random.Random(2)
    for _ in range(40):
        state = live.state(0)
        if live.result is not None:
            break
        assert state["game"]["dice"] is not None or state["game"]["pending"] is not None
        assert not state["game"]["can_double"]
        seat, body = choose(live, rng, games=1)
        assert body.kind != "roll" and body.kind != "double"
        live.act(seat, body, 0)
    rolls = [entry for entry in live.entries if entry["kind"] == "roll"]
    assert rolls and all(entry["by"] is None for entry in rolls)


@pytest.mark.parametrize("length", [1, 2, 3])
def test_the_server_rolls_at_once_where_the_cube_is_dead(length: int) -> None:
    """Issue 35 item 4: in a 1-point match, at double match point, for the leader after
    the Crawford game and for a cube that covers its owner's score, a double could
    gain nothing, so nobody is asked "roll or double": the server rolls. Before, every
    turn of a 1-point match waited for the player to roll."""
    rng = random.Random(length)
    asked = dead = 0
    for _ in range(6):
        live = started(settings(length=length), seed=rng.randbytes(32))
        now = 0.0
        while live.result is None:
            now += 1.0
            game = live.game
            assert game is not None and game.turn is not None
            state = live.state(now)
            seat = state["waiting_for"]
            pending = state["game"]["pending"]
            if pending is not None and pending["kind"] == "double":
                body = action("take" if rng.random() < 0.8 else "drop")
            elif pending is not None:
                body = action("accept")
            elif state["game"]["dice"] is None:
                # Asked to roll: only where a double could change what they win.
                asked += 1
                assert seat == game.turn and state["game"]["can_double"]
                assert not game.context.cube_covers(seat, game.cube.value)
                body = action("double" if rng.random() < 0.3 else "roll")
            else:
                dead += game.context.cube_covers(game.turn, game.cube.value)
                body = action("play", move=rng.choice(state["game"]["legal_plays"]))
            live.act(seat, body, now)
        by_players = [e["kind"] for e in live.entries if e["by"] is not None]
        if length == 1:
            assert "roll" not in by_players and "double" not in by_players
        assert replayed(live).state(now) == live.state(now)
    assert dead > 0
    assert (asked > 0) is (length > 1)


def test_a_beaver_is_rolled_on_unless_raccoons_are_allowed() -> None:
    for raccoons in (False, True):
        live = started(settings(length=0, beavers=True, raccoons=raccoons))
        starter = live.waiting_for
        assert starter is not None
        live.act(starter, action("play", move=first_play(live)), 1)
        live.act(1 - starter, action("double"), 2)
        applied = live.act(starter, action("beaver"), 3)
        state = live.state(3)
        assert state["game"]["cube"] == {"value": 4, "owner": starter}
        assert state["waiting_for"] == 1 - starter
        if raccoons:
            assert [entry["kind"] for entry in applied] == ["beaver"]
            assert state["game"]["pending"] == {"kind": "beaver", "by": 1 - starter, "level": 1}
            live.act(1 - starter, action("raccoon"), 4)
            assert live.state(4)["game"]["cube"] == {"value": 8, "owner": starter}
            assert live.entries[-1]["kind"] == "roll" and live.entries[-1]["by"] is None
        else:
            assert [entry["kind"] for entry in applied[:2]] == ["beaver", "roll"]
            assert applied[1]["by"] is None and state["game"]["dice"] is not None
            expect_refusal(live, 3, 1 - starter, action("raccoon"), "illegal")


def test_a_roll_without_legal_moves_is_played_empty() -> None:
    found = 0
    for number in range(40):
        rng = random.Random(number)
        live = started(settings(cube=False, length=1), seed=rng.randbytes(32))
        drive(live, rng)
        for position, entry in enumerate(live.entries):
            if entry["kind"] != "play" or entry["by"] is not None:
                continue
            found += 1
            assert entry["move"] == ""
            assert live.entries[position - 1]["kind"] in ("roll", "opening")
            # The turn passes: the next throw is the other player's (a new game aside).
            again = replayed(live, live.entries[:position])
            game = again.game
            assert game is not None and game.dice is not None
            assert not legal_plays(game.position, game.dice, game.variant)
            assert entry["result"] == game.position.slots_text
            mover = game.turn
            again.replay([entry])
            assert again.game is not None and again.game.turn == 1 - mover
        if found >= 3:
            break
    assert found >= 3, "no roll without a legal move in 40 random matches"


def test_acey_deucey_chooses_a_double_after_1_2() -> None:
    for number in range(40):
        rng = random.Random(number)
        live = started(settings(variant="acey-deucey", cube=False), seed=rng.randbytes(32))
        for _ in range(400):
            state = live.state(0)
            if (
                live.result is not None
                or (state["game"]["pending"] or {"kind": None})["kind"] == "choose-double"
            ):
                break
            seat, body = choose(live, rng, games=1)
            live.act(seat, body, 0)
        state = live.state(0)
        pending = state["game"]["pending"]
        if pending is None or pending["kind"] != "choose-double":
            continue
        seat = state["waiting_for"]
        assert seat == pending["by"] == state["game"]["turn"]
        assert state["game"]["legal_plays"] is None and state["game"]["dice"] is None
        expect_refusal(live, 0, seat, action("roll"), "illegal")
        expect_refusal(live, 0, seat, action("choose_double"), "bad_action")
        expect_refusal(live, 0, 1 - seat, action("choose_double", number=2), "not_your_turn")
        double = workable_double(live, rng)
        applied = live.act(seat, action("choose_double", number=double), 1)
        assert applied[0] == {"kind": "choose_double", "by": seat, "at": 1, "number": double}
        state = live.state(1)
        if len(applied) == 1:
            assert state["game"]["dice"] == [double, double] and state["waiting_for"] == seat
            live.act(seat, action("play", move=state["game"]["legal_plays"][0]), 2)
        if live.result is None and not live.game.is_over():  # type: ignore[union-attr]
            assert live.state(2)["game"]["turn"] == seat, "after the chosen double, roll again"
        assert replayed(live).state(3) == live.state(3)
        return
    raise AssertionError("no acey-deucey 1-2 in 40 random games")


def test_atomic_explode_passes_the_bomb() -> None:
    live = started(settings(variant="atomic", cube=False))
    starter = live.waiting_for
    assert starter is not None
    other = 1 - starter
    live.act(starter, action("play", move=first_play(live)), 1)
    state = live.state(1)
    assert state["waiting_for"] == other and state["game"]["dice"] is None, (
        "nobody holds the bomb yet, so the roll waits for the player's choice"
    )
    applied = live.act(other, action("explode"), 2)
    assert applied[0] == {"kind": "explode", "by": other, "at": 2}
    assert applied[1]["kind"] == "roll" and applied[1]["by"] is None
    board = live.state(2)["game"]["board"]
    assert board["player0"][25] + board["player1"][25] > 0, "the starter's blot went to the bar"
    # Now the starter holds the bomb; its opponent cannot explode it.
    while live.waiting_for == other and live.result is None:
        state = live.state(3)
        if state["game"]["dice"] is None:
            expect_refusal(live, 3, other, action("explode"), "illegal")
            live.act(other, action("roll"), 3)
        else:
            live.act(other, action("play", move=state["game"]["legal_plays"][0]), 3)
    assert live.waiting_for == starter and live.state(3)["game"]["dice"] is None
    assert replayed(live).state(4) == live.state(4)


def test_next_game_of_a_match_starts_by_itself() -> None:
    live = started(settings(length=5))
    seq = live.seq
    concede(live, 0)
    tail = live.entries[seq:]
    kinds = [entry["kind"] for entry in tail]
    accept = kinds.index("accept")
    assert kinds[accept + 1 : accept + 3] == ["new_game", "opening"]
    assert all(entry["by"] is None for entry in tail[accept + 1 :])


# -- bugs found while writing these tests (they fail until matches/live.py is fixed) --------


def test_a_timed_out_player_has_no_reserve_left() -> None:
    live, starter = clocked()
    assert live.timeout(26) == [{"kind": "timeout", "by": None, "at": 26, "player": starter}]
    reserves = live.state(27)["clock"]["reserves"]
    assert reserves[starter] == 0, (
        f"BUG: {NAMES[starter]} lost on time but the final state still shows "
        f"{reserves[starter]} s of reserve (the timeout entry does not spend it)"
    )
    assert replayed(live).state(27) == live.state(27)


@pytest.mark.parametrize(
    "variant",
    [variant.name for variant in all_variants() if not variant.backgammons],
)
def test_a_backgammon_resignation_counts_no_more_than_the_variant_allows(variant: str) -> None:
    live = started(settings(variant=variant, length=0))
    seat = live.waiting_for
    assert seat is not None
    live.act(seat, action("resign", level=3), 1)
    live.act(1 - seat, action("accept"), 2)
    most = 2 if live.variant.gammons else 1
    points = live.match.score[1 - seat]
    assert points <= most, (
        f"BUG: in {variant} (no backgammons) an accepted level-3 resignation scores "
        f"{points} points; leaving the game costs only {most}"
    )


def test_replay_refuses_entries_after_the_end() -> None:
    live, starter = clocked()
    live.timeout(26)
    log = copy.deepcopy(live.entries)
    extra = {"kind": "play", "by": starter, "at": 27, "move": first_play(live)}
    with pytest.raises(ValueError):
        replayed(live, [*log, extra])
        pytest.fail("BUG: replay applies an entry logged after the match ended (act refuses it)")
