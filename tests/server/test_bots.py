"""The bots play every variant: decisions made by the same function the worker
processes run, applied through the live match as a client's actions are."""

from __future__ import annotations

import pytest

from backgammon.server.bots import BotPool, decide
from backgammon.server.live_match import LiveMatch
from backgammon.server.protocol import ActionBody, MatchSettings
from backgammon.variants import all_variants


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_bots_play_a_whole_match_of_every_variant(variant: str) -> None:
    live = LiveMatch(
        "bots", MatchSettings(variant=variant, length=1, clock=None), ("a", "b"), bytes(32)
    )
    live.start(0.0)
    for turn in range(2000):
        if live.result is not None:
            break
        seat = live.waiting_for
        game = live.game
        assert seat is not None and game is not None
        request = ("beginner", variant, game.rules, game.context, list(game.history), turn)
        action = decide(request)
        live.act(seat, ActionBody(**action), float(turn))
    assert live.result is not None and live.result.reason == "score"


def test_the_pool_decides_in_a_worker_process() -> None:
    import asyncio

    live = LiveMatch("pool", MatchSettings(length=1, clock=None), ("a", "b"), bytes(32))
    live.start(0.0)
    game = live.game
    assert game is not None
    request = ("expert", "standard", game.rules, game.context, list(game.history), 0)
    pool = BotPool(1)
    try:
        action = asyncio.run(pool.decide(request))
    finally:
        pool.close()
    assert action["kind"] == "play"
    assert action["move"] in [str(play) for play in game.legal_plays()]
