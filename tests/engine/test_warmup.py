"""warm_up prepares every stage a bot needs and says so, a line per stage."""

from __future__ import annotations

import pytest

from backgammon.engine.evaluator import Engine
from backgammon.engine.players import EngineCube, EnginePlayer
from backgammon.engine.warmup import STAGES, _groups, _Worker, warm_up
from backgammon.rules.dice import ScriptedDice
from backgammon.rules.game import Game


def test_warm_up_reports_each_stage_then_a_bot_plays() -> None:
    lines: list[str] = []
    seconds = warm_up(2, lines.append, processes=1)
    assert seconds >= 0.0
    assert len(lines) == len(STAGES) == 4
    for number, (line, word) in enumerate(
        zip(lines, ("move generation", "evaluation", "lookahead search", "bear-off"), strict=True),
        1,
    ):
        assert word in line
        assert line.endswith(f"({number}/4)")
        assert line.split()[0] in {"compiling", "loading", "building"}
    engine = Engine()
    game = Game()
    game.roll_dice(ScriptedDice([(6, 4)]))
    assert game.dice is not None
    play = EnginePlayer.at_level(engine, "worldclass").choose(game.position, game.dice)
    assert play in game.legal_plays()
    game.play(play)
    for ply in (0, 2):  # the other side's cube decision before it rolls
        assert isinstance(EngineCube(engine, ply=ply).should_double(game), bool)


def test_warm_up_without_lookahead_has_no_search_stage() -> None:
    lines: list[str] = []
    warm_up(0, lines.append, processes=1)
    assert len(lines) == 3
    assert not any("search" in line for line in lines)
    assert lines[-1].endswith("(3/3)")


def test_warm_up_without_progress() -> None:
    assert warm_up(0, processes=0) >= 0.0


@pytest.mark.parametrize("ply", [-1, 5, True, 1.0])
def test_warm_up_rejects_a_bad_ply(ply: object) -> None:
    with pytest.raises(ValueError, match="ply"):
        warm_up(ply, processes=1)  # type: ignore[arg-type]


def test_warm_up_rejects_negative_processes() -> None:
    with pytest.raises(ValueError, match="processes"):
        warm_up(0, processes=-1)


@pytest.mark.parametrize("processes", [2, 3, 8])
def test_workers_share_every_stage_once(processes: int) -> None:
    groups = _groups(STAGES, processes)
    assert 1 < len(groups) <= processes
    assert sorted(name for group in groups for name in group) == sorted(STAGES)
    for group in groups:
        if "search" in group:  # it comes after the kernels it links or calls
            assert group.index("search") > 0
    assert _groups(["moves", "evaluation", "bearoff"], processes)  # ply 0: no search


def test_a_worker_process_reports_its_stage() -> None:
    worker = _Worker(["moves"])
    try:
        worker.wait("moves")
    finally:
        worker.stop()
    assert worker.finished("moves")


def test_a_worker_that_fails_releases_its_waiters() -> None:
    worker = _Worker(["no such stage"])
    try:
        worker.wait("no such stage")  # returns when the process ends
    finally:
        worker.stop()
    assert not worker.finished("no such stage")
