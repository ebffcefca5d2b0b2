"""Games without hitting: long nardy (blocking, the head and six-point rules) and
Plakoto (pinning, the mother rule and its prison form), on hand-built positions."""

from __future__ import annotations

import pytest

from backgammon import Ending, Game, IllegalPlayError, Position, Roll, WinKind, variants
from backgammon.errors import InvalidIdError
from backgammon.rules.blocking_movegen import PINNED

NARDY = variants.find("long-nardy")
PLAKOTO = variants.find("plakoto")
PRISON = variants.find("plakoto-prison")


def side(points: dict[int, int], total: int = 15) -> list[int]:
    slots = [0] * 26
    for point, count in points.items():
        slots[point] = count
    slots[0] = total - sum(slots[1:])
    return slots


def plays(position: Position, roll: tuple[int, int], variant: object) -> set[str]:
    return {str(play) for play in position.legal_plays(roll, variant)}  # type: ignore[arg-type]


# -- long nardy ------------------------------------------------------------------------


def test_long_nardy_registry_and_start() -> None:
    assert variants.find("nardy") is NARDY
    assert NARDY.topology == "crosswise" and not NARDY.cube and not NARDY.backgammons
    start = Position.initial(NARDY)
    assert start.player[24] == 15 and start.opponent[24] == 15
    assert start.problems(NARDY) == []
    # The opponent's head lies on our 12-point.
    assert NARDY.opponent_point(12) == 24 and NARDY.opponent_point(24) == 12


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        ((6, 6), {"24/18(2)"}),  # first roll: two may leave the head
        ((4, 4), {"24/16(2)"}),
        ((3, 3), {"24/18(2)", "24/15 24/21"}),
        ((5, 5), {"24/4"}),  # only one from the head; it jumps the opponent's head
        ((6, 5), {"24/13"}),
        ((2, 1), {"24/21"}),
    ],
)
def test_long_nardy_head_rule_at_the_start(roll: tuple[int, int], expected: set[str]) -> None:
    assert plays(Position.initial(NARDY), roll, NARDY) == expected


def test_long_nardy_head_rule_later_and_blocking() -> None:
    later = Position.unchecked(side({24: 14, 20: 1}), side({24: 15}))
    assert plays(later, (3, 1), NARDY) == {"20/16", "24/20", "24/21 20/19", "24/23 20/17"}
    # A single opposing checker closes a point (their 6-point is our 18-point).
    blocked = Position.unchecked(side({24: 15}), side({24: 14, 6: 1}))
    assert blocked.problems(NARDY) == []
    assert plays(blocked, (6, 1), NARDY) == {"24/17"}
    shared = Position.unchecked(side({24: 14, 18: 1}), side({24: 14, 6: 1}))
    assert shared.problems(NARDY) == ["points [18] hold checkers of both sides"]


def test_long_nardy_six_point_rule() -> None:
    me = side({24: 9, 8: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1})
    trapped = Position.unchecked(me, side({24: 15}))
    without_rule = NARDY.with_options(prime_rule=False)
    # 8/7 would make six points in a row (7..2) with every opposing checker behind.
    assert plays(trapped, (2, 1), without_rule) - plays(trapped, (2, 1), NARDY) == {"24/22 8/7"}
    # With an opposing checker already past the block, the block is allowed.
    passed = Position.unchecked(me, side({24: 14, 5: 1}))
    assert "24/22 8/7" in plays(passed, (2, 1), NARDY)


def test_long_nardy_mars_scores_double() -> None:
    nearly = Position.unchecked(side({1: 1}), side({24: 15}))
    game = Game(NARDY, position=nearly, turn=0, dice=(2, 1))
    game.play("1/off")
    assert game.outcome is not None
    assert game.outcome.kind is WinKind.GAMMON and game.outcome.points == 2
    game.pop()
    assert game.outcome is None and game.position == nearly


# -- Plakoto ---------------------------------------------------------------------------


def test_plakoto_start_and_pinning() -> None:
    start = Position.initial(PLAKOTO)
    assert start.player[24] == 15 and start.opponent[24] == 15
    assert plays(start, (6, 5), PLAKOTO) == {"24/13", "24/19 24/18"}
    lone = Position(side({24: 15}), side({24: 14, 5: 1}))
    assert plays(lone, (4, 1), PLAKOTO) == {"24/19", "24/23 24/20*"}
    pinned = lone.legal_plays((4, 1), PLAKOTO).find("24/23 24/20*").position
    # The opponent's checker stays, marked pinned; nothing went to the bar.
    assert pinned.pinned_points() == ((), (5,))
    assert pinned.opponent[5] == 1 and pinned.opponent_bar == 0
    assert pinned.opponent_checkers() == 15 and pinned.problems(PLAKOTO) == []
    # The opponent may not move it, nor land on the point we hold with one checker.
    theirs = pinned.flip()
    assert all(
        step.source != 5 for play in theirs.legal_plays((5, 4), PLAKOTO) for step in play.steps
    )
    assert "24/20" not in plays(theirs, (4, 3), PLAKOTO)  # their 20 is our 5
    # Landing on our own pinning checker is allowed; leaving it releases the pin.
    assert "24/20 23/21" in plays(pinned, (4, 2), PLAKOTO)
    released = pinned.legal_plays((3, 2), PLAKOTO).find("20/17 23/21")
    assert released.position.pinned_points() == ((), ())


def test_plakoto_two_checkers_block_and_pinned_checker_blocks_bearing_off() -> None:
    held = Position(side({24: 15}), side({24: 13, 5: 2}))
    assert "24/20" not in plays(held, (4, 1), PLAKOTO)
    # Our checker pinned on their home board: we may not bear off.
    data = side({4: 4, 3: 5, 2: 5, 20: 1})
    opponent = side({24: 10, 5: 5})
    data[20] = PINNED + 1
    stuck = Position.unchecked(data, opponent)
    assert stuck.problems(PLAKOTO) == []
    assert all(
        step.destination != 0 for play in stuck.legal_plays((6, 5), PLAKOTO) for step in play.steps
    )
    with pytest.raises(IllegalPlayError):
        stuck.legal_plays((6, 5), PLAKOTO).find("20/14")


def _mother_game(variant: object, our_home: int) -> Game:
    """We are about to pin the opponent's mother (its last checker on its 24-point,
    our 1-point) with 2/1; ``our_home`` checkers of ours are still on our 24-point."""
    mine = side({24: our_home, 2: 1, 8: 15 - our_home - 1})
    theirs = side({24: 1, 10: 14})
    position = Position(mine, theirs)
    return Game(variant, position=position, turn=0, dice=(1, 6))  # type: ignore[arg-type]


def test_plakoto_pinned_mother_loses_double() -> None:
    game = _mother_game(PLAKOTO, our_home=0)
    game.play("2/1* 8/2")
    assert game.outcome is not None
    assert game.outcome.ending is Ending.MOTHER_PINNED
    assert game.outcome.winner == 0 and game.outcome.points == 2


def test_plakoto_mother_exception_draw_and_prison() -> None:
    # While our own mother is still at home, play goes on.
    game = _mother_game(PLAKOTO, our_home=1)
    game.play("2/1* 8/2")
    assert game.outcome is None and game.turn == 1
    # Prison: no exception, the pinned mother loses double at once.
    prison = _mother_game(PRISON, our_home=1)
    prison.play("2/1* 8/2")
    assert prison.outcome is not None and prison.outcome.ending is Ending.MOTHER_PINNED
    # Both mothers pinned: a draw worth nothing.
    mine = side({2: 1, 8: 13, 24: 1})
    mine[24] = PINNED + 1
    theirs = side({24: 1, 1: 1, 10: 13})
    both = Position.unchecked(mine, theirs)
    assert both.problems(PLAKOTO) == []
    game = Game(PLAKOTO, position=both, turn=0, dice=(1, 6))
    game.play("2/1* 8/2")
    assert game.outcome is not None and game.outcome.is_draw and game.outcome.points == 0
    game.pop()
    assert game.outcome is None and game.position == both and game.dice == Roll(1, 6)
    assert "slots:" in repr(game) and "slots:" in repr(both)


def test_plakoto_problems_and_slots_text() -> None:
    bad = side({24: 15})
    bad[20] = PINNED + 1
    loose = Position.unchecked(bad, side({24: 15}))
    assert any("nobody on top" in problem for problem in loose.problems(PLAKOTO))
    assert any("no pinning" in problem for problem in loose.problems(NARDY))
    lone = Position(side({24: 15}), side({24: 14, 5: 1}))
    pinned = lone.legal_plays((4, 1), PLAKOTO).find("24/23 24/20*").position
    text = pinned.slots_text
    assert "*" in text and Position.from_slots_text(text) == pinned
    for position in (Position.initial(NARDY), Position.initial(), pinned.flip()):
        assert Position.from_slots_text(position.slots_text) == position
    for malformed in ("slots:0/0", "24/13", "slots:" + "0" * 26 + "/" + "0" * 25 + "!"):
        with pytest.raises(InvalidIdError):
            Position.from_slots_text(malformed)


def test_custom_combinations_are_checked() -> None:
    with pytest.raises(ValueError, match="need blocking"):
        variants.find("standard").with_options(head_rule=True)
    with pytest.raises(ValueError, match="does not combine"):
        NARDY.with_options(max_per_point=5)
    with pytest.raises(ValueError, match="pick one"):
        PLAKOTO.with_options(blocking=True)
    # A house rule: long nardy without the six-point rule is still long nardy's board.
    house = NARDY.with_options(prime_rule=False)
    assert house.name == "custom" and house.topology == "crosswise"


def test_moves_command_reads_slots_text_under_a_variant() -> None:
    from typer.testing import CliRunner

    from backgammon.apps.cli import app

    start = Position.initial(NARDY).slots_text
    result = CliRunner().invoke(app, ["moves", start, "-r", "6-5", "--variant", "long-nardy"])
    assert result.exit_code == 0, result.output
    assert result.output.split() == ["1.", "24/13"]
    shared = Position.unchecked(side({24: 14, 18: 1}), side({24: 14, 6: 1})).slots_text
    refused = CliRunner().invoke(app, ["moves", shared, "-r", "6-5", "--variant", "nardy"])
    assert refused.exit_code == 2 and "hold checkers of both sides" in refused.output
