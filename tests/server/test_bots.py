"""The bots play every variant: decisions made by the same function the worker
processes run, applied through the live match as a client's actions are."""

from __future__ import annotations

import pytest

from backgammon.engine.cube import CubeOwner, match_cube_decision
from backgammon.engine.met import kazaross_xg2
from backgammon.engine.players import EngineCube
from backgammon.rules.cube import CubeRules, Double, MatchContext, Take
from backgammon.rules.dice import Roll
from backgammon.rules.game import Action, Game, OpeningRoll
from backgammon.server.bots.pool import BotPool, decide, engine_for
from backgammon.server.matches.live import LiveMatch
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


def _cube_states() -> list[tuple[str, MatchContext, list[Action], bool]]:
    """Cube decisions of the side on roll: (name, match context, the game's actions,
    whether a double could matter). Player 1 is on roll after player 0's opening 3-1,
    except in "covered", where player 0 owns a cube of 2 that covers its 2 away."""
    opening: list[Action] = [OpeningRoll(3, 1)]
    game = Game(context=MatchContext(5, (3, 0)))
    game.push(opening[0])
    game.play("8/5 6/5")
    game.push(Double())
    game.push(Take())
    game.push(Roll(6, 5))
    game.play("24/13")
    covered = list(game.history)
    opened = covered[:2]
    return [
        ("1-point", MatchContext(1, (0, 0)), opened, False),
        ("double match point", MatchContext(3, (2, 2), post_crawford=True), opened, False),
        ("leader after Crawford", MatchContext(5, (2, 4), post_crawford=True), opened, False),
        ("covered", MatchContext(5, (3, 0)), covered, False),
        ("Crawford game", MatchContext(5, (4, 2), crawford=True), opened, False),
        ("trailer after Crawford", MatchContext(5, (4, 2), post_crawford=True), opened, True),
        ("3-point 0-0", MatchContext(3, (0, 0)), opened, True),
        ("money", MatchContext(), opened, True),
    ]


@pytest.mark.parametrize(
    ("name", "context", "actions", "live"), _cube_states(), ids=[s[0] for s in _cube_states()]
)
def test_the_bots_cube_agrees_with_the_match_equity_table(
    name: str, context: MatchContext, actions: list[Action], live: bool
) -> None:
    """Issue 35 item 4: where the cube is dead for the side on roll (a 1-point match,
    double match point, the leader after the Crawford game, a cube that covers its
    score) or doubling is not allowed (the Crawford game), the bot rolls, and the
    match equity table agrees that a double gains nothing there ("double, take" is
    no better than "no double"); elsewhere it doubles exactly when the engine's
    cube, through the table, says so. Before, the bot doubled at double match point
    (a tie between "no double" and "double, take" was read as a double)."""
    rules = CubeRules()
    game = Game(rules=rules, context=context)
    for action in actions:
        game.push(action)
    assert game.turn is not None and game.dice is None and game.pending is None
    assert game.double_matters() is live
    engine = engine_for("standard")
    for level in ("beginner", "expert"):
        answer = decide((level, "standard", rules, context, actions, 0))
        if not live:
            assert answer == {"kind": "roll"}, (name, level, answer)
    if not live:
        if game.can_double():
            owner = CubeOwner.seen_by(game.cube.owner, game.turn)
            away = (context.away(game.turn), context.away(1 - game.turn))
            probabilities = engine.evaluate_at(game.position).probabilities
            decision = match_cube_decision(
                probabilities, kazaross_xg2(), away, cube=game.cube.value, owner=owner
            )
            assert decision.double_take <= decision.no_double + 1e-9, (name, decision)
        return
    wanted = EngineCube(engine).should_double(game)
    assert decide(("expert", "standard", rules, context, actions, 0)) == {
        "kind": "double" if wanted else "roll"
    }
