"""The chouette's stored actions and its clients' view (no server): every action of
random sessions survives the JSON log's round trip, and the view says who decides."""

from __future__ import annotations

import json

import pytest

from backgammon.rules.chouette import Chouette
from backgammon.server.chouettes.codec import action_from_json, action_to_json, session_view

from ..rules.chouette.sessions import four_player_session, random_session


@pytest.mark.parametrize("seed", range(12))
def test_a_replayed_log_gives_the_same_session(seed: int) -> None:
    session = random_session(seed, steps=150)
    log = json.loads(json.dumps([action_to_json(action) for action in session.history]))
    replay = Chouette(session.players, session.rules)
    for data in log:
        replay.push(action_from_json(replay, data))
    assert replay.history == session.history
    assert replay.scores == session.scores
    assert session_view(replay) == session_view(session)


def test_the_view_of_a_session_with_dropped_and_redoubled_cubes() -> None:
    table, _ = four_player_session()
    view = session_view(table)
    assert view["games_played"] == 3
    assert view["box"] == table.box and view["lineup"] == list(table.lineup)
    assert view["queue"] == list(table.team[1:])
    assert view["scores"] == table.scores and sum(view["scores"].values()) == 0
    assert [result["number"] for result in view["results"]] == [1, 2, 3]
    assert all(cube["value"] == 1 and cube["owner"] == "centre" for cube in view["cubes"])
    assert view["deciders"] == list(table.deciders())


def test_a_stored_action_of_an_unknown_kind_is_refused() -> None:
    table = Chouette(["Ann", "Bob", "Cy"])
    with pytest.raises(ValueError, match="not a stored chouette action"):
        action_from_json(table, {"player": "Ann", "kind": "resign"})
