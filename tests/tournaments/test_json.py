"""Every format writes itself as JSON and reads back the same, mid-event or done."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backgammon.tournaments import (
    Arena,
    DoubleElimination,
    Knockout,
    Pairing,
    Round,
    RoundRobin,
    Standing,
    Swiss,
    play_out,
)
from tests.tournaments.conftest import field, random_winners

FORMATS: dict[str, Any] = {
    "knockout": lambda: Knockout(field(11), seed=3),
    "double-elimination": lambda: DoubleElimination(field(7), seed=3),
    "swiss": lambda: Swiss(field(11), rounds=5, seed=3),
    "round-robin": lambda: RoundRobin(field(7), seed=3),
}


@pytest.mark.parametrize("name", FORMATS)
def test_a_format_round_trips_mid_event_and_finished(name: str) -> None:
    event = FORMATS[name]()
    decide = random_winners(9)
    pending = event.next_round()
    event.record(
        Round(
            pending.number,
            tuple(p if p.is_bye else p.won_by(decide(pending, p)) for p in pending.pairings),
        )
    )
    for _ in range(2):
        text = json.dumps(event.to_json())
        again = type(event).from_json(json.loads(text))
        assert again.to_json() == event.to_json()
        assert again.standings() == event.standings()
        assert again.next_round() == event.next_round()
        play_out(event, decide)


def test_a_tampered_record_is_refused() -> None:
    event = Swiss(field(6), rounds=3, seed=1)
    play_out(event, random_winners(2))
    data = event.to_json()
    data["rounds"][1]["pairings"][0]["players"].reverse()
    with pytest.raises(ValueError, match="round 2's pairings are"):
        Swiss.from_json(data)
    with pytest.raises(ValueError, match="not a knockout record"):
        Knockout.from_json(event.to_json())


def test_an_arena_round_trips_with_matches_in_play() -> None:
    arena = Arena(field(5), duration=300, seed=2)
    arena.pair(["p01", "p02", "p03", "p04"], now=0)
    arena.finish(Pairing(("p01", "p02"), "p02"), now=50)
    again = Arena.from_json(json.loads(json.dumps(arena.to_json())))
    assert again.to_json() == arena.to_json()
    assert again.playing() == {"p03", "p04"}
    assert again.standings() == arena.standings()


def test_plain_values_round_trip() -> None:
    for pairing in (Pairing(("a", "b")), Pairing(("a", "b"), "b"), Pairing.bye("c")):
        assert Pairing.from_json(json.loads(json.dumps(pairing.to_json()))) == pairing
    standing = Standing("a", 3, {"buchholz": 4.5})
    assert Standing.from_json(json.loads(json.dumps(standing.to_json()))) == standing
    with pytest.raises(ValueError, match="winner 'z' is not one of"):
        Pairing(("a", "b"), "z")
    with pytest.raises(ValueError, match="paired with themself"):
        Pairing(("a", "a"))
