"""Settings per round: lengths, cube rules, the ABT/US clock."""

from __future__ import annotations

import pytest

from backgammon.tournaments import Clock, EventSettings, RoundSettings


def test_match_length_grows_for_the_semi_finals_and_final_of_an_elimination() -> None:
    event = EventSettings()
    assert [event.for_round(n, 5).match_length for n in range(1, 6)] == [5, 5, 5, 7, 9]
    assert [event.for_round(n, 5, elimination=False).match_length for n in range(1, 6)] == [5] * 5
    assert event.for_round(1, 1).match_length == 9  # a two-player knock-out is a final
    with pytest.raises(ValueError, match="round 6 is not one of rounds 1 to 5"):
        event.for_round(6, 5)


def test_crawford_is_always_on_and_jacoby_and_beavers_off() -> None:
    rules = RoundSettings(7).cube_rules
    assert rules.crawford and not rules.jacoby and not rules.beavers


def test_the_abt_clock_gives_a_reserve_per_point_less_per_point_scored() -> None:
    clock = Clock()
    assert clock.delay_seconds == 12
    assert clock.reserve_seconds(5) == 600
    assert clock.reserve_seconds(9, score=4) == 600
    with pytest.raises(ValueError, match="score of 7 in a 7-point match"):
        clock.reserve_seconds(7, score=7)
    with pytest.raises(ValueError, match="reserve per point > 0"):
        Clock(12, 0)
    with pytest.raises(ValueError, match="match lengths are >= 1"):
        EventSettings(early_length=0)


def test_settings_round_trip_through_json() -> None:
    event = EventSettings(3, 5, 11, Clock(8, 90))
    assert EventSettings.from_json(event.to_json()) == event
    one = event.for_round(2, 3)
    assert RoundSettings.from_json(one.to_json()) == one
    assert one.to_json()["crawford"] is True
