"""Tests for backgammon.engine.bearoff: ranking, move kernel, hand-checked cases, the
two databases, the Position lookup, files and the command line, and GNU Backgammon's
0-ply evaluations of the bear-off records in the reference data."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import ALL_ROLLS, Position
from backgammon.engine import bearoff
from backgammon.engine.bearoff import (
    MAX_ROLLS,
    ONE_SIDED_POSITIONS,
    TWO_SIDED_POSITIONS,
    BearoffDatabase,
    OneSidedDatabase,
    TwoSidedDatabase,
    bearoff_index,
    bearoff_points,
    build_bearoff_databases,
    default_database_directory,
    kernels,
    main,
    storage,
)
from backgammon.errors import EngineError, InvalidPositionError
from tests.reference import eval_records, position_of

EMPTY = (0, 0, 0, 0, 0, 0)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, int, int]]]:
    """Both databases built once into a temporary folder (about 3 s with compiling)."""
    folder = tmp_path_factory.mktemp("bearoff")
    calls: list[tuple[str, int, int]] = []
    build_bearoff_databases(folder, progress=lambda *call: calls.append(call))
    return folder, calls


@pytest.fixture(scope="session")
def db(built: tuple[Path, list[tuple[str, int, int]]]) -> BearoffDatabase:
    """The databases as loaded back from their files."""
    return BearoffDatabase.open(built[0], build=False)


def _sides(points: tuple[int, ...] | list[int]) -> list[int]:
    """26 slots of a side with ``points`` on its points 1..6 and the rest off."""
    return [15 - sum(points), *points, *([0] * 19)]


def _position(
    player: tuple[int, ...] | list[int], opponent: tuple[int, ...] | list[int]
) -> Position:
    return Position(_sides(player), _sides(opponent))


def _counts(points: list[int]) -> list[int]:
    return [points.count(point) for point in range(1, 7)]


bearoff_position = st.lists(st.integers(1, 6), max_size=15).map(_counts)
"""Up to 15 checkers on the six home points, as 6 counts."""


# --- ranking --------------------------------------------------------------------------


def test_ranking_round_trip_over_every_index() -> None:
    seen = set()
    for index in range(ONE_SIDED_POSITIONS):
        points = bearoff_points(index)
        assert bearoff_index(points) == index
        assert (sum(points) <= 6) == (index < TWO_SIDED_POSITIONS)
        seen.add(points)
    assert len(seen) == ONE_SIDED_POSITIONS == math.comb(21, 6)


def test_ranking_matches_the_kernel_table() -> None:
    codes, pips, checkers = storage._position_tables(15)
    for index in range(0, ONE_SIDED_POSITIONS, 97):
        points = bearoff_points(index)
        assert codes[index] == sum(c << (4 * p) for p, c in enumerate(points))
        assert pips[index] == sum((p + 1) * c for p, c in enumerate(points))
        assert checkers[index] == sum(points)


@given(bearoff_position)
def test_ranking_round_trip_from_points(points: list[int]) -> None:
    assert bearoff_points(bearoff_index(points)) == tuple(points)
    assert bearoff_index(np.array(points)) == bearoff_index(points)


@pytest.mark.parametrize(
    "points", [[0] * 5, [0] * 7, [16, 0, 0, 0, 0, 0], [8, 8, 0, 0, 0, 0], [-1, 0, 0, 0, 0, 1]]
)
def test_ranking_refuses_bad_positions(points: list[int]) -> None:
    with pytest.raises(InvalidPositionError):
        bearoff_index(points)


@pytest.mark.parametrize("index", [-1, ONE_SIDED_POSITIONS, True, 1.5])
def test_unranking_refuses_bad_indices(index: object) -> None:
    with pytest.raises(ValueError):
        bearoff_points(index)  # type: ignore[arg-type]


# --- the move kernel against the rules ------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=15).map(_counts))
def test_kernel_results_match_legal_plays(points: list[int]) -> None:
    position = Position(_sides(points), _sides([1, 0, 0, 0, 0, 0]))
    code = sum(c << (4 * p) for p, c in enumerate(points))
    out = np.empty(1296, dtype=np.int64)
    for roll in ALL_ROLLS:
        count = kernels._roll_results(code, roll.high, roll.low, out)
        ours = {bearoff_points(int(kernels._code_index(int(c)))) for c in out[:count]}
        rules = {play.position.player[1:7] for play in position.legal_plays(roll)}
        assert ours == rules, (points, roll)


# --- one-sided: hand-checked cases ----------------------------------------------------


def _in_36ths(distribution: np.ndarray) -> list[int]:
    return [round(36 * p) for p in distribution[:4]]


def test_nothing_left_needs_no_rolls(db: BearoffDatabase) -> None:
    assert db.one_sided.rolls_distribution(EMPTY)[0] == 1.0
    assert db.one_sided.expected_rolls(EMPTY) == 0.0


@pytest.mark.parametrize("points", [[1, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [4, 0, 0, 0, 0, 0]])
def test_checkers_on_the_one_point_go_in_one_roll(db: BearoffDatabase, points: list[int]) -> None:
    # Four on the 1-point only with a double (1-1 bears off four); 2 always suffices.
    distribution = db.one_sided.rolls_distribution(points)
    if sum(points) <= 2:
        assert distribution[1] == pytest.approx(1.0)
    else:
        # Four checkers: any double (6/36) takes all; a non-double takes two.
        assert _in_36ths(distribution) == [0, 6, 30, 0]


def test_one_checker_on_the_six_point(db: BearoffDatabase) -> None:
    # Off in one roll with a 6, two different dice summing to 6 or more, or a double
    # of 2 or more: 10 + 12 + 5 = 27 of 36; every other roll leaves it on 1..3.
    assert _in_36ths(db.one_sided.rolls_distribution([0, 0, 0, 0, 0, 1])) == [0, 27, 9, 0]
    assert db.one_sided.expected_rolls([0, 0, 0, 0, 0, 1]) == pytest.approx(1.25)


def test_two_checkers_on_the_two_point(db: BearoffDatabase) -> None:
    # 1-1 bears both off (2/1/off twice); a 1 with any other number leaves one.
    assert _in_36ths(db.one_sided.rolls_distribution([0, 2, 0, 0, 0, 0])) == [0, 26, 10, 0]
    assert db.one_sided.expected_rolls([0, 2, 0, 0, 0, 0]) == pytest.approx(1 + 10 / 36)


def test_first_checker_off_from_the_six_point(db: BearoffDatabase) -> None:
    # Fifteen on the 6-point: with the others still on the 6-point a checker can only
    # leave from exactly 0 pips: a 6 (11 rolls), 5-1, 4-2 (2 each), 3-3, 2-2 (1 each):
    # 17 of 36. A lone checker there also leaves with 5-3, 4-4 and the like (27 of 36).
    distribution = db.one_sided.gammon_distribution([0, 0, 0, 0, 0, 15])
    assert round(36 * distribution[1]) == 17
    assert distribution.sum() == pytest.approx(1.0)
    assert _in_36ths(db.one_sided.gammon_distribution([0, 0, 0, 0, 0, 1])) == [0, 27, 9, 0]
    assert db.one_sided.gammon_distribution([15, 0, 0, 0, 0, 0])[1] == pytest.approx(1.0)


def test_distributions_are_distributions(db: BearoffDatabase) -> None:
    one = db.one_sided
    bins = np.arange(MAX_ROLLS)
    for index in range(0, ONE_SIDED_POSITIONS, 13):
        points = bearoff_points(index)
        for distribution, mean in (
            (one.rolls_distribution(points), one.expected_rolls(points)),
            (one.gammon_distribution(points), one.expected_gammon_rolls(points)),
        ):
            assert distribution.min() >= 0.0
            assert distribution.sum() == pytest.approx(1.0, abs=1e-5)
            assert distribution @ bins == pytest.approx(mean, abs=1e-4)
            assert distribution[-1] == 0.0  # nothing overflows the last bin
        assert one.expected_gammon_rolls(points) <= one.expected_rolls(points) + 1e-9


def test_fifteen_on_the_six_point_is_the_slowest(db: BearoffDatabase) -> None:
    means = [db.one_sided.expected_rolls(bearoff_points(i)) for i in range(ONE_SIDED_POSITIONS)]
    assert max(means) == db.one_sided.expected_rolls([0, 0, 0, 0, 0, 15])
    assert 12.0 < max(means) < 12.5


def test_one_sided_win_probability(db: BearoffDatabase) -> None:
    one = db.one_sided
    lone_six = [0, 0, 0, 0, 0, 1]
    assert one.win_probability(lone_six, lone_six) == pytest.approx(27 / 36 + (9 / 36) ** 2)
    assert one.win_probability(EMPTY, lone_six) == 1.0
    assert one.win_probability(lone_six, EMPTY) == 0.0
    with pytest.raises(InvalidPositionError):
        one.win_probability(EMPTY, EMPTY)


# --- two-sided ------------------------------------------------------------------------


def test_two_sided_hand_checked(db: BearoffDatabase) -> None:
    two = db.two_sided
    assert two.win_probability([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]) == 1.0
    lone_six = [0, 0, 0, 0, 0, 1]
    assert two.win_probability(lone_six, lone_six) == pytest.approx(0.8125)
    # The opponent, if it gets a turn, wins with 27/36 and redoubles: the side on roll
    # doubles now and the opponent may take or pass (both worth 1).
    cube = two.cube_equities(lone_six, lone_six)
    assert cube.centred_no_double == pytest.approx(0.5)
    assert cube.owned_no_double == pytest.approx(0.75 - 0.25 * 0.5)
    assert cube.opponent_owns == pytest.approx(0.5)
    assert cube.double_take == pytest.approx(1.0)
    assert cube.centred == pytest.approx(1.0)
    assert two.win_probability(EMPTY, lone_six) == 1.0
    assert two.win_probability(lone_six, EMPTY) == 0.0
    with pytest.raises(InvalidPositionError):
        two.win_probability([0, 0, 0, 0, 0, 7], lone_six)


def test_two_sided_is_a_probability_and_cube_is_consistent(db: BearoffDatabase) -> None:
    two = db.two_sided
    for a in range(1, TWO_SIDED_POSITIONS, 17):
        for b in range(1, TWO_SIDED_POSITIONS, 19):
            mine, theirs = bearoff_points(a), bearoff_points(b)
            win = two.win_probability(mine, theirs)
            assert 0.0 <= win <= 1.0
            cube = two.cube_equities(mine, theirs)
            # Owning the cube is worth something; the cube never makes it worse than
            # the opponent owning it, and it is never worth more than a pass.
            assert cube.opponent_owns - 1e-6 <= cube.centred <= cube.owned + 1e-6
            assert cube.owned <= 1.0 + 1e-6
            assert cube.opponent_owns >= -1.0 - 1e-6


def test_one_sided_and_two_sided_agree_closely(db: BearoffDatabase) -> None:
    # The one-sided figures assume independent mean-minimising play, the two-sided
    # ones optimal play for winning: close, not equal.
    differences = []
    for a in range(1, TWO_SIDED_POSITIONS, 5):
        for b in range(1, TWO_SIDED_POSITIONS, 11):
            mine, theirs = bearoff_points(a), bearoff_points(b)
            differences.append(
                db.two_sided.win_probability(mine, theirs)
                - db.one_sided.win_probability(mine, theirs)
            )
    spread = np.abs(differences)
    assert spread.max() < 0.02
    assert spread.mean() < 0.002


# --- Position lookup ------------------------------------------------------------------


def test_classify(db: BearoffDatabase) -> None:
    assert db.classify(_position([1, 2, 3, 0, 0, 0], [0, 0, 0, 0, 0, 6])) == "bearoff2"
    assert db.classify(_position([1, 2, 3, 0, 0, 1], [0, 0, 0, 0, 0, 6])) == "bearoff1"
    assert db.classify(_position([5, 5, 5, 0, 0, 0], [0, 0, 0, 0, 0, 15])) == "bearoff1"
    assert db.classify(_position(EMPTY, [0, 0, 0, 0, 0, 6])) is None  # game over
    assert db.classify(Position.initial()) is None
    outside = _sides([1, 0, 0, 0, 0, 0])
    outside[7], outside[0] = 1, 13
    assert db.classify(Position(outside, _sides([1, 0, 0, 0, 0, 0]))) is None
    with pytest.raises(InvalidPositionError):
        db.evaluate(Position.initial())


def test_evaluate_gammons(db: BearoffDatabase) -> None:
    # The side on roll bears off its last checker at once: the opponent, all 15 on
    # the board, is gammoned.
    win, win_gammon, win_bg, lose_gammon, lose_bg = db.evaluate(
        _position([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 15])
    )
    assert (win, win_gammon, win_bg, lose_gammon, lose_bg) == pytest.approx((1, 1, 0, 0, 0))
    # Fifteen on the 6-point against one checker on the 1-point: the side on roll is
    # gammoned unless it gets a checker off at once (17/36, as above).
    assert db.evaluate(_position([0, 0, 0, 0, 0, 15], [1, 0, 0, 0, 0, 0])) == pytest.approx(
        (0, 0, 0, 19 / 36, 0)
    )
    # Two-sided positions of the standard game have no gammons.
    assert db.evaluate(_position([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1])) == pytest.approx(
        (0.8125, 0, 0, 0, 0)
    )


def test_evaluate_orientation(db: BearoffDatabase) -> None:
    # The side on roll is the player; flipping the position puts the opponent on roll.
    position = _position([0, 0, 3, 0, 0, 0], [0, 2, 0, 0, 0, 0])
    assert db.evaluate(position)[0] == pytest.approx(
        db.two_sided.win_probability([0, 0, 3, 0, 0, 0], [0, 2, 0, 0, 0, 0])
    )
    assert db.evaluate(position.flip())[0] == pytest.approx(
        db.two_sided.win_probability([0, 2, 0, 0, 0, 0], [0, 0, 3, 0, 0, 0])
    )
    assert db.cube_equities(Position.initial()) is None


# --- GNU Backgammon's reference evaluations -------------------------------------------


def _reference_bearoff_records() -> list[dict[str, object]]:
    return [r for r in eval_records() if r.get("class") in ("bearoff1", "bearoff2")]


def test_against_gnubg_bearoff_records(db: BearoffDatabase) -> None:
    records = _reference_bearoff_records()
    assert len(records) >= 400
    worst: dict[str, float] = {"bearoff1": 0.0, "bearoff2": 0.0, "gammon": 0.0, "cube": 0.0}
    for record in records:
        position = position_of(record["position"])  # type: ignore[arg-type]
        kind = record["class"]
        assert db.classify(position) == kind, record["id"]
        ours = db.evaluate(position)
        theirs = record["eval"]["ply0"]["probs"]  # type: ignore[index]
        worst[kind] = max(worst[kind], abs(ours[0] - theirs[0]))  # type: ignore[index]
        for i in (1, 2, 3, 4):
            worst["gammon"] = max(worst["gammon"], abs(ours[i] - theirs[i]))
        if kind == "bearoff2":
            cube = db.cube_equities(position)
            assert cube is not None
            money = record["cube_money"]["ply0"]  # type: ignore[index]
            for ours_value, key in (
                (cube.centred_no_double, "nodouble"),
                (cube.double_take, "take"),
                (cube.centred, "optimal"),
            ):
                worst["cube"] = max(worst["cube"], abs(ours_value - money[key]))
    # Measured: about 3e-5 for every figure (GNU Backgammon stores its databases with
    # less precision).
    assert worst["bearoff2"] < 0.002
    assert worst["bearoff1"] < 0.01
    assert worst["gammon"] < 0.01
    assert worst["cube"] < 0.002


def test_other_reference_positions_are_not_bearoff(db: BearoffDatabase) -> None:
    for record in eval_records():
        if record["class"] in ("bearoff1", "bearoff2"):
            continue
        assert db.classify(position_of(record["position"])) is None, record["id"]


# --- files, building, command line ----------------------------------------------------


def test_build_reports_progress(built: tuple[Path, list[tuple[str, int, int]]]) -> None:
    folder, calls = built
    assert {stage for stage, _, _ in calls} == {"one-sided", "two-sided"}
    for stage in ("one-sided", "two-sided"):
        steps = [(done, total) for name, done, total in calls if name == stage]
        assert steps[-1][0] == steps[-1][1]
    assert (folder / bearoff.ONE_SIDED_FILE).exists()
    assert (folder / bearoff.TWO_SIDED_FILE).exists()


def test_saved_and_loaded_are_equal(db: BearoffDatabase, tmp_path: Path) -> None:
    path = db.two_sided.save(tmp_path)
    again = TwoSidedDatabase.open(tmp_path, build=False)
    assert path.name == bearoff.TWO_SIDED_FILE
    assert again.cube_equities(
        [0, 1, 2, 0, 0, 0], [3, 0, 0, 0, 0, 1]
    ) == db.two_sided.cube_equities([0, 1, 2, 0, 0, 0], [3, 0, 0, 0, 0, 1])


def test_open_without_building(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="bearoff build"):
        OneSidedDatabase.open(tmp_path, build=False)
    with pytest.raises(EngineError):
        BearoffDatabase.open(tmp_path, build=False)
    (tmp_path / bearoff.TWO_SIDED_FILE).write_bytes(b"not a database")
    with pytest.raises(EngineError, match="cannot read"):
        TwoSidedDatabase.open(tmp_path, build=False)


def test_open_rebuilds_a_broken_file(tmp_path: Path) -> None:
    (tmp_path / bearoff.TWO_SIDED_FILE).write_bytes(b"not a database")
    two = TwoSidedDatabase.open(tmp_path)
    assert two.win_probability([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1]) == pytest.approx(0.8125)
    assert TwoSidedDatabase.open(tmp_path, build=False).win_probability(
        [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1]
    ) == pytest.approx(0.8125)


def test_default_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path / "here"))
    assert default_database_directory() == tmp_path / "here"
    monkeypatch.delenv("BACKGAMMON_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_database_directory() == tmp_path / "backgammon"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_database_directory() == Path.home() / ".cache" / "backgammon"


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--dir", str(tmp_path), "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert (tmp_path / bearoff.ONE_SIDED_FILE).exists()
    assert (tmp_path / bearoff.TWO_SIDED_FILE).exists()
    with pytest.raises(SystemExit):
        main([])


def test_hand_fractions_are_exact_enough(db: BearoffDatabase) -> None:
    # float32 storage: one-sided figures agree with exact fractions to 1e-6.
    distribution = db.one_sided.rolls_distribution([0, 0, 0, 0, 0, 1])
    assert abs(distribution[1] - float(Fraction(27, 36))) < 1e-6


def test_batch_evaluation_matches_one_at_a_time(db: BearoffDatabase) -> None:
    rng = np.random.default_rng(7)
    boards = np.zeros((400, 52), dtype=np.uint8)
    for row in boards:
        for base in (0, 26):
            on_board = int(rng.integers(1, 16)) if rng.random() < 0.5 else int(rng.integers(1, 7))
            row[base + 1 : base + 7] = rng.multinomial(on_board, [1 / 6] * 6)
            row[base] = 15 - on_board
    batch = db.evaluate_boards(boards)
    one_by_one = np.array([db.evaluate(Position.from_array(row)) for row in boards])
    assert np.abs(batch - one_by_one).max() < 1e-12
    solved = db.solved(boards)
    small = (boards[:, 1:7].sum(axis=1) <= 6) & (boards[:, 27:33].sum(axis=1) <= 6)
    assert np.array_equal(solved, small)
    outside = boards[:3].copy()
    outside[0, 12] = 1
    with pytest.raises(InvalidPositionError, match="row 0"):
        db.evaluate_boards(outside)


def test_engine_evaluates_bearoffs_one_at_a_time_like_in_batches() -> None:
    from backgammon.engine import Engine

    engine = Engine()
    positions = [
        Position.from_points([2, 3, 1, 0, 0, 0] + [0] * 18, [1, 1, 2, 0, 2, 0] + [0] * 18),
        Position.from_points([0, 0, 0, 0, 0, 15] + [0] * 18, [0, 0, 0, 4, 0, 0] + [0] * 18),
    ]
    batch = engine.evaluate_many(positions)
    for position, together in zip(positions, batch, strict=True):
        alone = engine.evaluate(position)
        assert alone.win == pytest.approx(together.win, abs=1e-6)
        assert alone.lose_gammon == pytest.approx(together.lose_gammon, abs=1e-6)
    assert batch[1].lose_gammon > 0.0  # fifteen checkers on the six-point, none off
