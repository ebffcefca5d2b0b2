"""Tests for the neural evaluator: encoding, networks and weights files, the Engine."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from backgammon import Play, Position, Roll, variants
from backgammon.engine.encoding import (
    CONTACT_FEATURE_NAMES,
    CONTACT_INPUT_NAMES,
    CONTACT_INPUTS,
    CONTACT_SIDE_INPUTS,
    RACE_INPUT_NAMES,
    RACE_INPUTS,
    RACE_SIDE_INPUTS,
    encode_batch,
    encode_race_batch,
    escape_rolls,
)
from backgammon.engine.evaluator import (
    BearoffEvaluator,
    Engine,
    Evaluation,
    PositionClass,
    PositionwiseBearoff,
    classify,
    classify_boards,
)
from backgammon.engine.network import (
    FORMAT_VERSION,
    Network,
    Networks,
    WeightsMetadata,
    forward_one,
)
from backgammon.errors import EngineError
from tests.reference import eval_records, position_of

GNUBG_CLASSES = {
    "over": PositionClass.OVER,
    "bearoff1": PositionClass.BEAROFF,
    "bearoff_os": PositionClass.BEAROFF,
    "bearoff2": PositionClass.BEAROFF,
    "bearoff_ts": PositionClass.BEAROFF,
    "race": PositionClass.RACE,
    "crashed": PositionClass.CRASHED,
    "contact": PositionClass.CONTACT,
}


@cache
def eval_positions() -> tuple[Position, ...]:
    return tuple(position_of(record["position"]) for record in eval_records())


@cache
def engine() -> Engine:
    """A small seeded network alone (no bearoff databases), to test the network path."""
    return Engine(Networks.random(seed=7, hidden=32), bearoff=None)


def features(row: npt.NDArray[np.float32], side: int = 0) -> dict[str, float]:
    start = side * CONTACT_SIDE_INPUTS + 100
    return {name: float(row[start + index]) for index, name in enumerate(CONTACT_FEATURE_NAMES)}


def side_points(points: dict[int, int], bar: int = 0, checkers: int = 15) -> list[int]:
    """26 slots of one side from ``{point: count}``, the rest borne off."""
    slots = [0] * 26
    for point, count in points.items():
        slots[point] = count
    slots[25] = bar
    slots[0] = checkers - sum(slots)
    return slots


# --- encoding ---------------------------------------------------------------------------


def test_sizes_and_names() -> None:
    assert CONTACT_INPUTS == 242 == len(CONTACT_INPUT_NAMES) == 2 * CONTACT_SIDE_INPUTS
    assert RACE_INPUTS == 208 == len(RACE_INPUT_NAMES) == 2 * RACE_SIDE_INPUTS
    assert len(set(CONTACT_INPUT_NAMES)) == CONTACT_INPUTS
    boards = np.stack([p.to_array() for p in eval_positions()[:10]])
    assert encode_batch(boards).shape == (10, CONTACT_INPUTS)
    assert encode_race_batch(boards).dtype == np.float32
    assert encode_batch(np.zeros((0, 52), dtype=np.uint8)).shape == (0, CONTACT_INPUTS)
    with pytest.raises(ValueError, match="52"):
        encode_batch(np.zeros((3, 50), dtype=np.uint8))


def test_initial_position_inputs() -> None:
    row = encode_batch(Position.initial().to_array())[0]
    named = dict(zip(CONTACT_INPUT_NAMES, row.tolist(), strict=True))
    # 5 on the 6-point: (0, 0, 1, (5 - 3) / 2); 3 on the 8; 2 on the 24; 5 on the 13.
    assert [named[f"player.p6.u{u}"] for u in range(4)] == [0, 0, 1, 1]
    assert [named[f"player.p8.u{u}"] for u in range(4)] == [0, 0, 1, 0]
    assert [named[f"player.p24.u{u}"] for u in range(4)] == [0, 1, 0, 0]
    assert [named[f"opponent.p13.u{u}"] for u in range(4)] == [0, 0, 1, 1]
    assert named["player.p7.u0"] == 0 and named["player.bar.u0"] == 0
    mine = features(row)
    assert mine["pips"] == pytest.approx(167 / 180)
    assert mine["off_1"] == mine["off_2"] == mine["off_3"] == 0
    assert mine["back"] == pytest.approx(24 / 25)
    assert mine["back_checkers"] == pytest.approx(2 / 15)
    assert mine["home_points"] == pytest.approx(1 / 6)
    assert mine["anchors"] == 0.5
    assert mine["forward_anchor"] == pytest.approx(1 / 7)
    assert mine["blots"] == 0 and mine["hit_chance"] == 0 and mine["pip_loss"] == 0
    assert mine["dance"] == 0 and mine["all_home"] == 0
    assert mine["crossovers"] == pytest.approx((3 * 1 + 5 * 2 + 2 * 3) / 45)
    # The initial position is symmetric: both halves are equal.
    assert np.array_equal(row[:CONTACT_SIDE_INPUTS], row[CONTACT_SIDE_INPUTS:])


def test_bar_units_are_cumulative() -> None:
    for on_bar, units in [(1, [1, 0, 0, 0]), (2, [1, 1, 0, 0]), (5, [1, 1, 1, 1.0])]:
        player = side_points({6: 5, 8: 3}, bar=on_bar)
        position = Position(player, side_points({6: 5, 8: 3, 13: 5, 24: 2}))
        row = encode_batch(position.to_array())[0]
        start = 24 * 4
        assert row[start : start + 4].tolist() == units


def test_flip_swaps_the_halves() -> None:
    boards = np.stack([p.to_array() for p in eval_positions()[:300]])
    flipped = np.concatenate([boards[:, 26:], boards[:, :26]], axis=1)
    for encode, half in (
        (encode_batch, CONTACT_SIDE_INPUTS),
        (encode_race_batch, RACE_SIDE_INPUTS),
    ):
        a, b = encode(boards), encode(flipped)
        assert np.array_equal(a[:, :half], b[:, half:])
        assert np.array_equal(a[:, half:], b[:, :half])
    asymmetric = [p for p in eval_positions()[:300] if p != p.flip()]
    rows = encode_batch(np.stack([p.to_array() for p in asymmetric]))
    rows_flipped = encode_batch(np.stack([p.flip().to_array() for p in asymmetric]))
    assert all(not np.array_equal(x, y) for x, y in zip(rows, rows_flipped, strict=True))


def test_escape_table() -> None:
    assert escape_rolls(0) == 36
    assert escape_rolls(0b1) == 35  # only 1-1 cannot move past a point 1 pip away
    assert escape_rolls(0b11111) == 11  # a 5-point block: only the 6s get past
    assert escape_rolls(0b111111) == 0  # a full prime
    with pytest.raises(ValueError):
        escape_rolls(4096)


@pytest.mark.parametrize(("distance", "shots"), [(1, 11), (6, 17), (8, 6), (11, 2)])
def test_hit_chance_counts_shots(distance: int, shots: int) -> None:
    # A player blot on its 14-point, one opposing checker `distance` pips behind it (in
    # the opponent's direction of travel), everything else out of the way.
    blot = 14
    attacker = blot - distance  # player's numbering
    player = side_points({blot: 1, 1: 14})
    opponent = side_points({25 - attacker: 1, 1: 14})
    row = encode_batch(Position(player, opponent).to_array())[0]
    mine = features(row)
    assert mine["blots"] == pytest.approx(1 / 5)
    assert mine["hit_chance"] == pytest.approx(shots / 36)
    assert mine["pip_loss"] == pytest.approx(shots * (25 - blot) / (36 * 25))


def test_blocked_intermediate_points_stop_combination_shots() -> None:
    # A blot 8 pips from the attacker, with the player holding the points 2, 4 and 6
    # pips in front of the attacker.
    player = side_points({14: 1, 8: 2, 10: 2, 12: 2, 1: 8})
    opponent = side_points({25 - 6: 1, 1: 14})
    mine = features(encode_batch(Position(player, opponent).to_array())[0])
    # 8 pips: 6-2 via 12 or 8 (both blocked), 5-3 via 11 or 9 (open), 4-4 via 10
    # (blocked), 2-2 via 8 (blocked). Only 5-3 hits.
    assert mine["hit_chance"] == pytest.approx(2 / 36)


def test_race_encoding_values() -> None:
    player = side_points({1: 3, 2: 2, 5: 4, 9: 1})
    opponent = side_points({3: 6, 6: 2})
    row = encode_race_batch(Position(player, opponent).to_array())[0]
    named = dict(zip(RACE_INPUT_NAMES, row.tolist(), strict=True))
    assert named["player.off_1"] == 1 and named["player.off_2"] == pytest.approx(0.0)
    assert named["player.pips"] == pytest.approx((3 + 4 + 20 + 9) / 120)
    assert named["player.outside"] == pytest.approx(1 / 15)
    assert named["player.deep"] == pytest.approx(5 / 15)
    assert named["player.gaps"] == pytest.approx(2 / 5)  # points 3 and 4 empty below 5
    assert named["opponent.off_2"] == pytest.approx(2 / 5)
    assert named["player.p1.u2"] == 1


# --- classification -----------------------------------------------------------------------


def test_classes_match_gnubg_reference() -> None:
    records = eval_records()
    positions = eval_positions()
    wanted = [GNUBG_CLASSES[record["class"]] for record in records]
    assert [classify(position) for position in positions] == wanted
    boards = np.stack([p.to_array() for p in positions])
    assert classify_boards(boards).tolist() == [int(cls) for cls in wanted]


def test_classes_of_simple_positions() -> None:
    assert classify(Position.initial()) is PositionClass.CONTACT
    over = Position(side_points({}), side_points({6: 2}))
    assert classify(over) is PositionClass.OVER
    race = Position(side_points({8: 2, 3: 13}), side_points({6: 15}))
    assert classify(race) is PositionClass.RACE
    bearoff = Position(side_points({4: 2, 3: 13}), side_points({6: 15}))
    assert classify(bearoff) is PositionClass.BEAROFF
    crashed = Position(side_points({1: 10, 2: 3, 22: 1}, bar=1), side_points({6: 5, 8: 3, 13: 7}))
    assert classify(crashed) is PositionClass.CRASHED


# --- evaluations --------------------------------------------------------------------------


def test_equity_formula_and_flip() -> None:
    e = Evaluation(0.6, 0.2, 0.01, 0.1, 0.005)
    assert e.equity == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1 + 0.01 - 0.005)
    assert e.probabilities == (0.6, 0.2, 0.01, 0.1, 0.005)
    assert e.lose == pytest.approx(0.4)
    flipped = e.flip()
    assert flipped.win == pytest.approx(0.4) and flipped.win_gammon == 0.1
    assert flipped.lose_backgammon == 0.01
    assert flipped.equity == pytest.approx(-e.equity)
    with pytest.raises(AttributeError):
        e.win = 0.5  # type: ignore[misc]
    assert hash(e) == hash(Evaluation(0.6, 0.2, 0.01, 0.1, 0.005))


def test_reference_equities_follow_the_formula() -> None:
    for record in eval_records()[:200]:
        probs = record["eval"]["ply0"]["probs"]
        assert Evaluation(*probs).equity == pytest.approx(
            record["eval"]["ply0"]["equity"], abs=1e-6
        )


@pytest.mark.parametrize(
    ("loser", "expected"),
    [
        (side_points({3: 2}), (0, 0, 0, 0, 0)),  # the loser has borne off: single game
        (side_points({3: 2}, checkers=2), (0, 0, 0, 1, 0)),  # nothing off: gammon
        (side_points({3: 1, 20: 1}, checkers=2), (0, 0, 0, 1, 1)),  # in the home: backgammon
        (side_points({3: 1}, bar=1, checkers=2), (0, 0, 0, 1, 1)),  # on the bar: backgammon
    ],
)
def test_game_over_is_exact(loser: list[int], expected: tuple[int, ...]) -> None:
    # The side on roll (the loser) sees a winner with nothing left in play.
    done = Position(loser, side_points({}, checkers=sum(loser)))
    evaluation = engine().evaluate(done)
    assert evaluation.probabilities == expected
    assert (
        engine().evaluate(done.flip()).probabilities
        == Evaluation(*map(float, expected)).flip().probabilities
    )
    assert engine().evaluate_many([done])[0] == evaluation


def test_outputs_are_consistent_and_facts_respected() -> None:
    evaluations = engine().evaluate_many(eval_positions())
    for position, e in zip(eval_positions(), evaluations, strict=True):
        assert 0 <= e.win_backgammon <= e.win_gammon <= e.win <= 1
        assert 0 <= e.lose_backgammon <= e.lose_gammon <= 1 - e.win + 1e-7
        if position.opponent_off:
            assert e.win_gammon == 0
        if position.player_off:
            assert e.lose_gammon == 0
        if classify(position) is PositionClass.BEAROFF:
            assert e.win_backgammon == e.lose_backgammon == 0


def test_variant_without_gammons() -> None:
    plain = Engine(engine().networks, variant=variants.find("standard").with_options(gammons=False))
    for e in plain.evaluate_many(eval_positions()[:50]):
        assert e.win_gammon == e.lose_gammon == e.win_backgammon == e.lose_backgammon == 0


def test_evaluate_many_equals_evaluate() -> None:
    positions = eval_positions()
    many = engine().evaluate_many(positions)
    one = [engine().evaluate(position) for position in positions]
    a = np.array([e.probabilities for e in many])
    b = np.array([e.probabilities for e in one])
    assert np.abs(a - b).max() < 1e-5
    assert engine().evaluate_many([]) == []
    boards = np.stack([p.to_array() for p in positions[:20]])
    assert np.allclose(engine().evaluate_boards(boards), a[:20], atol=1e-6)


def test_kernels_agree_with_numpy_forward() -> None:
    net = engine().networks.contact
    x = encode_batch(np.stack([p.to_array() for p in eval_positions()[:50]]))
    dense = net.forward(x)
    out = np.empty(5, dtype=np.float32)
    for row, expected in zip(x, dense, strict=True):
        forward_one(row, net.w1, net.b1, net.w2t, net.b2, out)
        assert np.allclose(out, expected, atol=1e-6)


def test_bearoff_plugin_is_used() -> None:
    class Fixed:
        def covers(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
            return boards[:, 1].astype(bool)  # those with a checker on the 1-point

        def evaluate_boards(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
            return np.tile([0.75, 0.0, 0.0, 0.0, 0.0], (boards.shape[0], 1))

    fixed = Fixed()
    assert isinstance(fixed, BearoffEvaluator)
    plugged = Engine(engine().networks, bearoff=fixed)
    covered = Position(side_points({1: 2, 3: 2}), side_points({6: 3}))
    uncovered = Position(side_points({2: 2, 3: 2}), side_points({6: 3}))
    assert plugged.evaluate(covered).win == 0.75
    assert plugged.evaluate(uncovered).win != 0.75
    assert plugged.evaluate(uncovered).probabilities == pytest.approx(
        engine().evaluate(uncovered).probabilities, abs=1e-6
    )
    many = plugged.evaluate_many([covered, uncovered, Position.initial()])
    assert many[0].win == 0.75
    assert many[1].probabilities == pytest.approx(engine().evaluate(uncovered).probabilities)


def test_positionwise_bearoff_adapter() -> None:
    class Table:
        def classify(self, position: Position) -> str | None:
            return "bearoff1" if classify(position) is PositionClass.BEAROFF else None

        def evaluate(self, position: Position) -> tuple[float, float, float, float, float]:
            return (0.5, 0.25, 0.0, 0.125, 0.0)

    plugged = Engine(engine().networks, bearoff=PositionwiseBearoff(Table()))
    position = Position(side_points({1: 2, 3: 2}), side_points({6: 3}))
    assert plugged.evaluate(position).probabilities == (0.5, 0.0, 0.0, 0.0, 0.0)  # both have off


# --- networks and weights files ------------------------------------------------------------


def test_random_networks_are_deterministic() -> None:
    a, b = Networks.random(seed=3, hidden=8), Networks.random(seed=3, hidden=8)
    c = Networks.random(seed=4, hidden=8)
    for name in ("contact", "race", "crashed"):
        assert np.array_equal(getattr(a, name).params, getattr(b, name).params)
        assert not np.array_equal(getattr(a, name).params, getattr(c, name).params)
    assert not np.array_equal(a.contact.params, a.crashed.params)
    assert a.metadata.trained is False and a.metadata.seed == 3


def test_weights_round_trip(tmp_path: Path) -> None:
    metadata = WeightsMetadata(
        trained=True,
        training_games=12345,
        strength={"opponent": "gnubg 0-ply", "ppg": -0.25, "games": 1000},
        date="2026-01-02T03:04:05Z",
        notes="test file",
        seed=5,
        extra={"alpha": 0.1},
    )
    nets = Networks.random(seed=5, hidden=16, race_hidden=8).replace(metadata=metadata)
    path = tmp_path / "test.weights.npz"
    nets.save(path)
    loaded = Networks.load(path)
    assert loaded.metadata == metadata
    for name in ("contact", "race", "crashed"):
        ours, theirs = getattr(nets, name), getattr(loaded, name)
        assert np.array_equal(ours.params, theirs.params)
        assert (ours.inputs, ours.hidden, ours.encoding) == (
            theirs.inputs,
            theirs.hidden,
            theirs.encoding,
        )
    assert loaded.race.hidden == 8
    with np.load(path, allow_pickle=False) as archive:
        described = json.loads(str(archive["metadata"][()]))
    assert described["format_version"] == FORMAT_VERSION
    assert described["networks"]["contact"] == {
        "encoding": "contact-v1",
        "inputs": 242,
        "hidden": 16,
        "outputs": 5,
    }
    position = eval_positions()[0]
    assert Engine(path).evaluate(position) == Engine(nets).evaluate(position)


def test_bad_weights_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    with pytest.raises(EngineError):
        Networks.load(junk)
    with pytest.raises(EngineError):
        Engine(tmp_path / "missing.npz")
    future = tmp_path / "future.npz"
    nets = Networks.random(seed=1, hidden=4)
    nets.replace(metadata=WeightsMetadata(format_version=FORMAT_VERSION + 1)).save(future)
    with pytest.raises(EngineError, match="version"):
        Networks.load(future)
    with pytest.raises(EngineError, match="inputs"):
        Networks(Network.random(10, 4, "contact-v1", 0), nets.race, nets.crashed)
    with pytest.raises(ValueError):
        Network.from_arrays(np.zeros((10, 4)), np.zeros(3), np.zeros((4, 5)), np.zeros(5), "x")


def test_default_engine_is_honest_about_training() -> None:
    default = Engine()
    metadata = default.networks.metadata
    assert default.networks.contact.inputs == CONTACT_INPUTS
    assert default.networks.contact.hidden >= 128
    if not metadata.trained:
        assert "untrained" in metadata.notes
    else:
        # A shipped, trained net carries its measured strength.
        assert metadata.training_games > 0
        assert metadata.strength["vs_gnubg_0ply"]["games"] >= 2000


# --- plays ---------------------------------------------------------------------------------


def test_best_play_is_the_top_of_the_ranking() -> None:
    for position in eval_positions()[::50]:
        for roll in (Roll(3, 1), Roll(6, 6), Roll(5, 2)):
            plays = position.legal_plays(roll)
            best = engine().best_play(position, roll)
            ranked = engine().rank_plays(position, roll)
            if not plays:
                assert best == Play.no_move(position)
                assert [r.play for r in ranked] == [best]
                continue
            assert best in plays
            assert len(ranked) == len(plays)
            assert {r.play for r in ranked} == set(plays)
            assert ranked[0].play == best
            equities = [r.equity for r in ranked]
            assert equities == sorted(equities, reverse=True)
            # The mover's equity is minus the opponent's, on roll after the play.
            opponent = engine().evaluate(best.position.flip())
            assert ranked[0].equity == pytest.approx(-opponent.equity, abs=1e-6)


def test_no_move_and_plies() -> None:
    # The player's only checker is on the bar against a closed board.
    closed = Position(side_points({6: 14}, bar=1), side_points({k: 2 for k in range(1, 7)}))
    assert not closed.legal_plays((6, 5))
    assert engine().best_play(closed, (6, 5)) == Play.no_move(closed)
    with pytest.raises(ValueError):
        engine().best_play(Position.initial(), (3, 1), ply=-1)
    with pytest.raises(ValueError, match="at most"):
        engine().best_play(Position.initial(), (3, 1), ply=9)


def test_lookahead_ranks_searched_plays_first_and_agrees_with_search() -> None:
    from backgammon.engine.search import evaluate_plies

    eng = engine()
    start = Position.initial()
    ranked = eng.rank_plays(start, (3, 1), ply=1)
    assert eng.best_play(start, (3, 1), ply=1) == ranked[0].play
    # The best play's figures are its result searched one ply deep.
    child = ranked[0].play.position.flip()
    deep = evaluate_plies(eng.evaluate_boards, child.to_array()[None, :], 1)[0]
    assert ranked[0].evaluation.win == pytest.approx(1.0 - deep[0], abs=1e-6)
    assert eng.evaluate_at(start, 1).win == pytest.approx(
        evaluate_plies(eng.evaluate_boards, start.to_array()[None, :], 1)[0][0], abs=1e-6
    )


def test_default_engine_uses_the_exact_bearoff_databases() -> None:
    # One checker each on the 6-point: the side on roll wins 0.8125 exactly (27/36 at
    # once, else the opponent needs its own 27/36).
    position = Position(side_points({6: 1}), side_points({6: 1}))
    default = Engine(Networks.random(seed=7, hidden=32))
    assert default.evaluate(position).win == pytest.approx(0.8125, abs=1e-6)
    assert engine().evaluate(position).win != pytest.approx(0.8125, abs=1e-3)
    with pytest.raises(ValueError, match="bearoff"):
        Engine(Networks.random(seed=7, hidden=32), bearoff="nonsense")


def test_engine_matches_gnubg_on_its_bearoff_positions() -> None:
    """Engine() (default bearoff databases) against GNU Backgammon's 0-ply figures on
    the reference bear-off positions: within 0.002 where it uses its two-sided
    database, 0.01 where it uses the one-sided one."""
    default = Engine(Networks.random(seed=7, hidden=32))
    worst = {"bearoff1": 0.0, "bearoff2": 0.0}
    for record, position in zip(eval_records(), eval_positions(), strict=True):
        kind = record["class"]
        if kind not in worst:
            continue
        theirs = record["eval"]["ply0"]["probs"][0]
        worst[kind] = max(worst[kind], abs(default.evaluate(position).win - theirs))
    assert worst["bearoff2"] < 0.002, worst
    assert worst["bearoff1"] < 0.01, worst
