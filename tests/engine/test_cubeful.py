"""The cubeful search: the cube carried through the lookahead (engine/cubeful.py).

Checked against the 0-ply model it extends, a hand-written expectimax over the 21 rolls
(each side's cube action included), and the exact cubeful equities of the two-sided
bear-off database.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

from backgammon import ALL_ROLLS, Position
from backgammon.engine.cube import (
    CubeOwner,
    cube_efficiency,
    match_cube_decision,
    match_cubeful_mwc,
    money_cube_decision,
    money_cubeful_value,
)
from backgammon.engine.cubeful import (
    CubeContext,
    board_efficiencies,
    cube_decision_at,
    cubeful_play_values,
    cubeful_values,
)
from backgammon.engine.evaluator import Engine
from backgammon.engine.met import kazaross_xg2 as default_met

from .test_search import toy


def _positions(count: int, seed: int) -> list[Position]:
    """Positions from random games (both sides still with checkers)."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial()
        for _ in range(rng.randrange(4, 40)):
            plays = position.legal_plays(rng.choice(ALL_ROLLS))
            position = (rng.choice(list(plays)).position if plays else position).flip()
            if not any(position.player[1:]) or not any(position.opponent[1:]):
                break
        else:
            found.append(position)
    return found


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


def test_contexts_flip_double_and_say_who_may_double() -> None:
    met = default_met()
    context = CubeContext(cube=2, owner=CubeOwner.PLAYER, away=(5, 3), met=met)
    assert context.flipped() == CubeContext(cube=2, owner=CubeOwner.OPPONENT, away=(3, 5), met=met)
    assert context.flipped().flipped() == context
    assert context.may_double() and not context.flipped().may_double()
    assert context.doubled() == CubeContext(cube=4, owner=CubeOwner.OPPONENT, away=(5, 3), met=met)
    # A cube covering the side's away score is dead for it; the Crawford game has none.
    assert not CubeContext(cube=4, away=(3, 5), met=met).may_double()
    assert not CubeContext(away=(1, 5), met=met, crawford=True).may_double()
    assert CubeContext().pass_value() == 1.0 and CubeContext(cube=4).pass_value() == 4.0
    with pytest.raises(ValueError, match="match context"):
        CubeContext(away=(3, 3))
    with pytest.raises(ValueError, match="cube"):
        CubeContext(cube=0)


def test_board_efficiencies_match_the_positions(engine: Engine) -> None:
    positions = _positions(30, seed=3)
    boards = np.stack([p.to_array() for p in positions])
    assert board_efficiencies(boards).tolist() == pytest.approx(
        [cube_efficiency(p) for p in positions]
    )


@pytest.mark.parametrize("owner", [CubeOwner.CENTRED, CubeOwner.PLAYER])
def test_at_zero_plies_it_is_todays_money_model(engine: Engine, owner: CubeOwner) -> None:
    for position in _positions(12, seed=5):
        probabilities = tuple(engine.evaluate_boards(position.to_array()[None, :])[0])
        expected = money_cube_decision(probabilities, owner, cube_efficiency(position))
        got = cube_decision_at(
            engine.evaluate_boards, position.to_array(), 0, CubeContext(owner=owner)
        )
        assert got == expected
        value = cubeful_values(
            engine.evaluate_boards, position.to_array()[None, :], 0, [CubeContext(owner=owner)]
        )
        assert value[0, 0] == pytest.approx(
            money_cubeful_value(probabilities, owner, cube_efficiency(position)), abs=1e-12
        )


def test_at_zero_plies_it_is_todays_match_model(engine: Engine) -> None:
    met = default_met()
    for position, (away, cube, owner) in zip(
        _positions(6, seed=7),
        [
            ((7, 7), 1, CubeOwner.CENTRED),
            ((5, 2), 1, CubeOwner.CENTRED),
            ((9, 5), 2, CubeOwner.PLAYER),
            ((3, 4), 1, CubeOwner.CENTRED),
            ((11, 4), 2, CubeOwner.PLAYER),
            ((2, 2), 1, CubeOwner.CENTRED),
        ],
        strict=True,
    ):
        probabilities = tuple(engine.evaluate_boards(position.to_array()[None, :])[0])
        efficiency = cube_efficiency(position)
        expected = match_cube_decision(
            probabilities, met, away, cube=cube, owner=owner, efficiency=efficiency
        )
        context = CubeContext(cube=cube, owner=owner, away=away, met=met)
        got = cube_decision_at(engine.evaluate_boards, position.to_array(), 0, context)
        assert got.action == expected.action
        for field in ("no_double", "double_take", "double_pass"):
            assert getattr(got, field) == pytest.approx(getattr(expected, field), abs=1e-12)
        value = cubeful_values(engine.evaluate_boards, position.to_array()[None, :], 0, [context])
        assert value[0, 0] == pytest.approx(
            match_cubeful_mwc(
                probabilities, met, away, cube=cube, owner=owner, efficiency=efficiency
            ),
            abs=1e-12,
        )


def _leaf(
    evaluator: object, position: Position, context: CubeContext
) -> float:  # the opponent-independent 0-ply value with the cube action, by the public model
    probabilities = tuple(float(v) for v in evaluator(position.to_array()[None, :])[0])  # type: ignore[operator]
    efficiency = cube_efficiency(position)
    if context.away is None:
        return context.cube * money_cubeful_value(
            probabilities, context.owner, efficiency, jacoby=context.jacoby
        )
    assert context.met is not None
    return match_cubeful_mwc(
        probabilities,
        context.met,
        context.away,
        cube=context.cube,
        owner=context.owner,
        efficiency=efficiency,
        cube_alive=not context.crawford,
    )


def _rolled_by_hand(
    evaluator: object, position: Position, context: CubeContext, chooser: CubeContext
) -> float:
    """The roller's value of rolling now (no cube action first), by hand: each roll's
    best play by its 0-ply cubeful value in the ``chooser`` context (the node's first;
    the first on ties), then the opponent's 0-ply value in ``context`` with its own
    cube action, turned round."""
    total = 0.0
    for roll in ALL_ROLLS:
        plays = position.legal_plays(roll)
        children = [play.position.flip() for play in plays] or [position.flip()]
        values = [_leaf(evaluator, child, chooser.flipped()) for child in children]
        mine = [-v if chooser.away is None else 1.0 - v for v in values]
        child = children[int(np.argmax(mine))]
        theirs = _leaf(evaluator, child, context.flipped())
        total += float(roll.weight) * (-theirs if context.away is None else 1.0 - theirs)
    return total


def _expectimax(evaluator: object, position: Position, context: CubeContext) -> float:
    """1-ply by hand, the roller's own cube action before the roll included."""
    no_double = _rolled_by_hand(evaluator, position, context, context)
    if not context.may_double():
        return no_double
    double_take = _rolled_by_hand(evaluator, position, context.doubled(), context)
    return max(no_double, min(double_take, context.pass_value()))


@pytest.mark.parametrize(
    "context",
    [
        CubeContext(),
        CubeContext(owner=CubeOwner.PLAYER, cube=2),
        CubeContext(owner=CubeOwner.OPPONENT, cube=2),
        CubeContext(jacoby=True),
        CubeContext(away=(5, 3), met=default_met()),
        CubeContext(away=(2, 4), met=default_met(), cube=2, owner=CubeOwner.OPPONENT),
        CubeContext(away=(1, 4), met=default_met(), crawford=True),
    ],
    ids=["money", "owned", "theirs", "jacoby", "match", "match-owned", "crawford"],
)
def test_one_ply_equals_a_hand_written_expectimax(context: CubeContext) -> None:
    for position in _positions(3, seed=11):
        board = position.to_array()[None, :]
        got = cubeful_values(toy, board, 1, [context])[0, 0]
        assert got == pytest.approx(_expectimax(toy, position, context), abs=1e-12)


def test_one_ply_cube_choices_by_hand() -> None:
    """The root's "no double" and "double, take" at 1 ply are the rolled values by
    hand, per unit of the cube; in a match, converted from match winning chances."""
    met = default_met()
    for context in (CubeContext(cube=2, owner=CubeOwner.PLAYER), CubeContext(away=(6, 2), met=met)):
        for position in _positions(3, seed=13):
            decision = cube_decision_at(toy, position.to_array(), 1, context)
            no_double = _rolled_by_hand(toy, position, context, context)
            double_take = _rolled_by_hand(toy, position, context.doubled(), context)
            assert decision.no_double == pytest.approx(context.normalised(no_double), abs=1e-12)
            assert decision.double_take == pytest.approx(context.normalised(double_take), abs=1e-12)
            value = cubeful_values(toy, position.to_array()[None, :], 1, [context])[0, 0]
            assert value == pytest.approx(_expectimax(toy, position, context), abs=1e-12)


def test_play_values_are_the_opponents_values_turned_round(engine: Engine) -> None:
    position = Position.initial()
    plays = position.legal_plays(ALL_ROLLS[4])
    assert len(plays) > 1
    children = np.stack([play.position.flip().to_array() for play in plays])
    context = CubeContext(away=(4, 6), met=default_met())
    mine = cubeful_play_values(engine.evaluate_boards, children, 0, context)
    theirs = cubeful_values(engine.evaluate_boards, children, 0, [context.flipped()])[:, 0]
    assert mine == pytest.approx(1.0 - theirs)


def _bearoff_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        mine = [0] * 26
        theirs = [0] * 26
        for side in (mine, theirs):
            for _ in range(rng.randrange(2, 7)):
                side[rng.randrange(1, 7)] += 1
        mine[0], theirs[0] = 15 - sum(mine), 15 - sum(theirs)
        found.append(Position(mine, theirs))
    return found


def test_two_sided_bearoffs_match_the_exact_cubeful_equities(engine: Engine) -> None:
    """Money, two-sided bear-offs: with the database's exact cubeful equities at the
    leaves, the cubeful search's choices at 1 and 2 plies come within 0.005 of the
    exact ones at the root (inner plays are chosen cubelessly, so they could differ)."""
    from backgammon.engine.bearoff import BearoffDatabase

    database = BearoffDatabase.open()
    worst = 0.0
    for position in _bearoff_positions(25, seed=19):
        exact = database.cube_equities(position)
        assert exact is not None
        for plies in (1, 2):
            decision = cube_decision_at(
                engine.evaluate_boards,
                position.to_array(),
                plies,
                CubeContext(),
                exact=database.cube_equity_rows,
            )
            worst = max(
                worst,
                abs(decision.no_double - exact.centred_no_double),
                abs(decision.double_take - exact.double_take),
            )
    assert worst < 0.005, worst


def _random_rows(count: int, seed: int) -> npt.NDArray[np.float64]:
    """Probability rows, some at the edges (certain wins and losses, no gammons)."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(count):
        win = [0.0, 1.0, 0.5][k] if k < 3 else float(rng.random())
        wg = win * float(rng.random()) * (k % 4 != 0)
        lg = (1 - win) * float(rng.random()) * (k % 5 != 0)
        rows.append((win, wg, wg * float(rng.random()) * 0.3, lg, lg * float(rng.random()) * 0.3))
    return np.array(rows)


def test_the_array_models_equal_the_scalar_ones() -> None:
    """The leaves' vectorised Janowski and match models give the scalar functions'
    figures, row by row."""
    from backgammon.engine.cube import (
        match_no_double_mwc,
        match_no_double_mwcs,
        money_cubeful_equity,
        money_no_double_equities,
    )

    rows = _random_rows(60, seed=23)
    efficiency = np.linspace(0.0, 0.7, len(rows))
    for owner in CubeOwner:
        for jacoby in (False, True):
            got = money_no_double_equities(rows, owner, efficiency, jacoby=jacoby)
            expected = [
                money_cubeful_equity(tuple(row), owner, float(x), jacoby=jacoby)
                for row, x in zip(rows, efficiency, strict=True)
            ]
            assert got == pytest.approx(expected, abs=1e-12)
    met = default_met()
    for away, cube in [
        ((7, 7), 1),
        ((2, 9), 1),
        ((9, 2), 2),
        ((4, 3), 2),
        ((11, 5), 4),
        ((1, 3), 1),
    ]:
        for owner in CubeOwner:
            for alive in (True, False):
                got = match_no_double_mwcs(rows, met, away, cube, owner, efficiency, alive)
                expected = [
                    match_no_double_mwc(tuple(row), met, away, cube, owner, float(x), alive)
                    for row, x in zip(rows, efficiency, strict=True)
                ]
                assert got == pytest.approx(expected, abs=1e-12), (away, cube, owner, alive)


def test_an_xgid_gives_its_cube_context() -> None:
    from backgammon.engine.cubeful import cube_context_from_xgid

    money = cube_context_from_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:0:0:3:0:10")
    assert money == CubeContext(cube=2, owner=CubeOwner.PLAYER, jacoby=True, beavers=True)
    # The top player on roll, owning a 4-cube, at 2-4 in a 7-point match (it has 4).
    match = cube_context_from_xgid("XGID=-b----E-C---eE---c-e----B-:2:-1:-1:00:2:4:0:7:10")
    assert match.cube == 4 and match.owner is CubeOwner.PLAYER
    assert match.away == (3, 5) and not match.crawford
    crawford = cube_context_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:3:1:7:10")
    assert crawford.crawford and crawford.away == (1, 4) and not crawford.may_double()
    assert not cube_context_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:0").alive
    with pytest.raises(ValueError, match="ends a 7-point match"):
        cube_context_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:3:0:7:10")
