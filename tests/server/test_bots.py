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


def test_a_bot_decides_while_the_tools_workers_are_busy_and_more_work_is_queued() -> None:
    """Finding 4 of issue 33: bots shared one FIFO pool with the position tool,
    rollouts and analyses, so a bot's move waited behind every job queued before it.
    Here the tools' worker is held (a job that sleeps ten minutes) with three more
    queued behind it: the bot still decides, and the tools' jobs are provably not
    done when it has (before the fix the decision waited behind them all)."""
    import asyncio
    import time

    live = LiveMatch("busy", MatchSettings(length=1, clock=None), ("a", "b"), bytes(32))
    live.start(0.0)
    game = live.game
    assert game is not None
    request = ("beginner", "standard", game.rules, game.context, list(game.history), 0)
    pool = BotPool(1, tool_processes=1)

    async def scenario() -> tuple[dict[str, object], list[bool]]:
        held = [asyncio.ensure_future(pool.run(time.sleep, 600)) for _ in range(4)]
        await asyncio.sleep(0.5)  # the tools' jobs are submitted first
        action = await asyncio.wait_for(pool.decide(request), 90)
        states = [job.done() for job in held]
        for job in held:
            job.cancel()
        return action, states

    try:
        action, tools_done = asyncio.run(scenario())
    finally:
        pool.close()
    assert action["kind"] == "play"
    assert tools_done == [False] * 4
