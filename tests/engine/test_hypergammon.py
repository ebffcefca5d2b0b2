"""Solved hypergammon: the move kernel against the rules, hand-solved and brute-forced
positions, self-consistency, GNU Backgammon's own databases, and the engine's use."""

from __future__ import annotations

import functools
import json
import math
import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from backgammon import variants
from backgammon.apps.cli import app
from backgammon.engine import Engine
from backgammon.engine.bearoff import TwoSidedDatabase, default_database_directory
from backgammon.engine.evaluator import EvaluationSource
from backgammon.engine.hypergammon import (
    TIE,
    HypergammonDatabase,
    available,
    default_tolerance,
    pair_count,
    pair_index,
    probability_ranges,
    read_gnubg_database,
    residual,
    side_count,
    side_rank,
    solves,
)
from backgammon.engine.hypergammon.kernels import (
    _VALUES,
    _change_sums,
    _jump_and_keep,
    _side_table,
    _solve_sweep,
    _successor_keys,
)
from backgammon.engine.hypergammon.solver import (
    _finished_values,
    _levels,
    _no_play_table,
    _play_table,
    _playable_order,
    _roll_arrays,
    _solve,
    _starting_values,
)
from backgammon.errors import EngineError, InvalidPositionError
from backgammon.rules.dice import ALL_ROLLS
from backgammon.rules.position import Position
from tests.reference import REFERENCE

VARIANTS = {n: variants.find(f"hypergammon-{n}") for n in (1, 2, 3)}
TOTAL_WEIGHT = float(sum(roll.weight for roll in ALL_ROLLS))
MAKEHYPER = shutil.which("makehyper") or (
    "/usr/games/makehyper" if Path("/usr/games/makehyper").exists() else None
)


@pytest.fixture(scope="module")
def hyper1() -> HypergammonDatabase:
    return HypergammonDatabase.build(1)


@pytest.fixture(scope="module")
def hyper2() -> HypergammonDatabase:
    """Built once into the cache folder (about 20 s), as the engine would."""
    return HypergammonDatabase.open(2)


def position(mine: dict[int, int], theirs: dict[int, int], checkers: int) -> Position:
    """A position from ``{point: count}`` per side (25 = bar), the rest borne off."""
    sides = []
    for side in (mine, theirs):
        slots = [0] * 26
        for point, count in side.items():
            slots[point] = count
        slots[0] = checkers - sum(side.values())
        sides.append(slots)
    return Position(sides[0], sides[1])


def equity(p: tuple[float, ...]) -> float:
    return float(2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4])


def equities(p: np.ndarray) -> np.ndarray:
    """Cubeless equities of rows of five chances."""
    result: np.ndarray = 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
    return result


# --- indexing and moves --------------------------------------------------------------


def test_sizes() -> None:
    assert [side_count(n) for n in (1, 2, 3)] == [26, 351, 3276]
    assert pair_count(3) == 10_732_176


@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_side_table_ranks_every_side_once(checkers: int) -> None:
    table = _side_table(checkers, side_count(checkers))
    seen = set()
    for rank, row in enumerate(table):
        slots = [0] * 26
        for location in row[3 - checkers :]:
            slots[int(location)] += 1
        assert side_rank(slots, checkers) == rank
        seen.add(tuple(row))
    assert len(seen) == side_count(checkers)
    assert side_rank([checkers] + [0] * 25, checkers) == 0


def _rules_key(result: Position, checkers: int) -> int:
    """The kernel's key of a play's result, computed from the rules' Position."""
    mine, theirs = result.player, result.opponent
    if not any(mine[1:]):
        if theirs[0]:
            return -1
        return -3 if any(theirs[19:]) else -2
    return side_rank(theirs, checkers) * side_count(checkers) + side_rank(mine, checkers)


def _random_side(checkers: int, rng: random.Random) -> list[int]:
    slots = [0] * 26
    for _ in range(checkers):
        slots[rng.randrange(26)] += 1
    return slots


@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_kernel_plays_equal_the_rules(checkers: int) -> None:
    """The kernel's results of every roll equal the rules' legal plays, for random
    positions (hits, the bar, blocked entries, bear-offs, rolls with no play)."""
    rng = random.Random(23 + checkers)
    size = side_count(checkers)
    table = _side_table(checkers, size)
    out = np.empty(256, dtype=np.int64)
    tested = no_play = 0
    while tested < 400:
        mine, theirs = _random_side(checkers, rng), _random_side(checkers, rng)
        if not any(mine[1:]) or not any(theirs[1:]):
            continue
        try:
            start = Position(mine, theirs)
        except InvalidPositionError:
            continue
        tested += 1
        a, b = side_rank(mine, checkers), side_rank(theirs, checkers)
        for roll in ALL_ROLLS:
            plays = start.legal_plays(roll, VARIANTS[checkers])
            expected = {_rules_key(play.position, checkers) for play in plays}
            count = _successor_keys(table, checkers, size, a, b, roll.high, roll.low, out)
            assert set(out[:count].tolist()) == expected, (start.slots_text, roll)
            assert count == len(expected)
            no_play += count == 0
    assert no_play > 0 or checkers == 1


def test_pair_index_and_errors() -> None:
    start = Position.initial(VARIANTS[2])
    assert pair_index(start, 2) == side_rank(start.player, 2) * 351 + side_rank(start.opponent, 2)
    with pytest.raises(InvalidPositionError):
        pair_index(Position.initial(VARIANTS[3]), 2)
    with pytest.raises(ValueError, match="1, 2 or 3"):
        HypergammonDatabase.build(4)


def test_solves_only_standard_rules_with_few_checkers() -> None:
    assert all(solves(variant) for variant in VARIANTS.values())
    assert not solves(variants.find("standard"))
    assert not solves(VARIANTS[3].with_options(caucasian=True))
    assert not solves(VARIANTS[3].with_options(gammons=False))


# --- hand-solved and brute-forced values ------------------------------------------------


def test_hand_solved_one_checker_positions(hyper1: HypergammonDatabase) -> None:
    # On the 1- or 2-point against a checker still far away: every roll bears off, and
    # the opponent, with nothing borne off, loses a gammon.
    for point in (1, 2):
        p = hyper1.evaluate(position({point: 1}, {1: 1}, 1))
        assert p == pytest.approx((1, 1, 0, 0, 0), abs=1e-12)
    # ... a backgammon when its checker is on the bar.
    assert hyper1.evaluate(position({1: 1}, {25: 1}, 1)) == pytest.approx((1, 1, 1, 0, 0))
    # On the 7-point against a checker on its 1-point: bear off now (a sum of 7 or
    # more, or a double of 2 or more: 23 rolls in 36) or lose a gammon.
    last = position({7: 1}, {1: 1}, 1)
    assert hyper1.evaluate(last) == pytest.approx((23 / 36, 23 / 36, 0, 13 / 36, 0), abs=1e-12)
    cube = hyper1.cube_equities(last)
    assert cube.centred_no_double == pytest.approx(2 * 23 / 36 - 2 * 13 / 36, abs=1e-12)
    assert cube.opponent_owns == pytest.approx(20 / 36, abs=1e-12)
    assert cube.double_take == pytest.approx(40 / 36, abs=1e-12)
    assert cube.centred == pytest.approx(1.0)  # double, pass
    assert cube.owned == pytest.approx(1.0)
    # Finished games: the side with no checker left has won a gammon.
    won = position({}, {1: 1}, 1)
    assert hyper1.cube_equities(won).centred == 2.0
    assert hyper1.cube_equities(won.flip()).owned == -2.0
    assert hyper1.evaluate(won.flip()) == (0.0, 0.0, 0.0, 1.0, 0.0)


@functools.cache
def _race_value(position: Position, checkers: int) -> tuple[float, ...]:
    """Brute force with the rules' own move generation: a race's chances for the side
    on roll, by recursion over every roll and play (no cycles in a race). Among tied
    plays the one with the most wins (the database may pick another only where both
    give the same chances in a race without gammon choices, which the test checks by
    equity)."""
    best_total = np.zeros(5)
    for roll in ALL_ROLLS:
        best: tuple[float, ...] | None = None
        for play in position.legal_plays(roll, VARIANTS[checkers]):
            result = play.position
            if not any(result.player[1:]):
                gammon = result.opponent[0] == 0
                value: tuple[float, ...] = (1.0, float(gammon), 0.0, 0.0, 0.0)
            else:
                w, wg, wbg, lg, lbg = _race_value(result.flip(), checkers)
                value = (1 - w, lg, lbg, wg, wbg)
            if best is None or equity(value) > equity(best) + 1e-12:
                best = value
        assert best is not None
        best_total += float(roll.weight) / TOTAL_WEIGHT * np.array(best)
    return tuple(best_total.tolist())


@pytest.mark.parametrize(
    ("checkers", "mine", "theirs"),
    [
        (1, {9: 1}, {8: 1}),
        (1, {12: 1}, {4: 1}),
        (2, {6: 1, 3: 1}, {5: 2}),
        (2, {8: 1, 2: 1}, {7: 1, 1: 1}),
        (2, {10: 1}, {9: 1, 4: 1}),
    ],
)
def test_races_equal_brute_force(
    checkers: int,
    mine: dict[int, int],
    theirs: dict[int, int],
    hyper1: HypergammonDatabase,
    hyper2: HypergammonDatabase,
) -> None:
    database = hyper1 if checkers == 1 else hyper2
    race = position(mine, theirs, checkers)
    expected = _race_value(race, checkers)
    got = database.evaluate(race)
    assert equity(got) == pytest.approx(equity(expected), abs=1e-9)
    assert got[0] == pytest.approx(expected[0], abs=1e-6)


def test_bear_offs_without_gammons_equal_the_two_sided_database(
    hyper2: HypergammonDatabase,
) -> None:
    """An independent exact solution: the two-sided bear-off database, wherever both
    sides have one checker off and one on points 1..6 (no gammons possible)."""
    bearoff = TwoSidedDatabase.open()
    for mine in range(1, 7):
        for theirs in range(1, 7):
            race = position({mine: 1}, {theirs: 1}, 2)
            home = ([0] * 6, [0] * 6)
            home[0][mine - 1] = home[1][theirs - 1] = 1
            assert hyper2.evaluate(race)[0] == pytest.approx(
                bearoff.win_probability(*home), abs=1e-6
            )
            ours, exact = hyper2.cube_equities(race), bearoff.cube_equities(*home)
            assert ours.centred == pytest.approx(exact.centred, abs=1e-6)
            assert ours.owned == pytest.approx(exact.owned, abs=1e-6)
            assert ours.opponent_owns == pytest.approx(exact.opponent_owns, abs=1e-6)


def test_a_stopped_build_resumes_from_its_saved_state(
    tmp_path: Path, hyper1: HypergammonDatabase
) -> None:
    state = tmp_path / "hypergammon-1.npz.partial"
    with pytest.raises(EngineError, match="did not converge"):
        _solve(1, max_sweeps=6, state=state)
    assert state.exists()  # saved when it stopped
    resumed = _solve(1, state=state)
    assert resumed.sweeps > 6
    fresh = np.asarray(hyper1._probabilities)
    live = ~np.isnan(fresh[:, 0])
    assert np.abs(resumed.probabilities[live] - fresh[live]).max() < 1e-8
    assert np.nanmax(np.abs(resumed.opponent_owns - np.asarray(hyper1._opponent_owns))) < 1e-8


def test_self_consistency(hyper1: HypergammonDatabase, hyper2: HypergammonDatabase) -> None:
    """Every stored value equals the average over the 21 rolls of the best play's."""
    assert residual(hyper1) < 1e-9
    assert residual(hyper2) < 1e-8


def test_one_thread_and_every_core_reach_the_same_fixed_point(
    hyper1: HypergammonDatabase,
) -> None:
    one = _solve(1, threads=1)
    two = _solve(1, threads=2)
    # Level by level, the one-thread sweep shared: no slower. Not the same count: a
    # same-level read may see another thread's value before or after its update
    # (documented in _solve_sweep), which has ended a two-thread solve 4 sweeps early;
    # the values below are what must agree.
    assert two.sweeps <= one.sweeps + 1
    for name in ("probabilities", "centred_no_double", "owned_no_double", "opponent_owns"):
        assert np.nanmax(np.abs(getattr(one, name) - getattr(two, name))) < 1e-8, name
    assert np.nanmax(np.abs(two.probabilities - np.asarray(hyper1._probabilities))) < 1e-8


def _swept_values(checkers: int, play_memory: int, sweeps: int) -> tuple[np.ndarray, int]:
    """The packed values after ``sweeps`` one-thread sweeps from the build's start,
    the plays read from a table of at most ``play_memory`` bytes (0: none); and how
    many slots the table held."""
    size = side_count(checkers)
    table = _side_table(checkers, size)
    probs, equity = _finished_values(table, checkers)
    values = np.empty((size * size, _VALUES))
    values[:, :5] = probs
    values[:, 5:] = equity[:, None]
    _starting_values(table, values)
    order = _playable_order(table, checkers, values[:, 0])
    levels = _levels(table, order)
    die1, die2, weight = _roll_arrays()
    weight = weight / weight.sum()
    plays = (
        _play_table(order, table, checkers, size, die1, die2, 1, play_memory)
        if play_memory
        else _no_play_table(die1.shape[0])
    )
    change = np.empty(order.shape[0])
    for _ in range(sweeps):
        _solve_sweep(
            order, levels, table, checkers, size, die1, die2, weight, values,
            TIE, False, True, change, False, 1, *plays,
        )  # fmt: skip
    return values, int(np.count_nonzero(plays.starts >= 0))


def test_the_play_table_gives_the_values_of_plays_generated_every_sweep() -> None:
    """The sweeps that read the plays from the table built once (all of them, or the
    slots that fit a smaller budget) reach the values of the sweeps that generate them."""
    generated = _solve(1, threads=1, play_memory=0)
    for memory in (2**30, 30_000):
        tabled = _solve(1, threads=1, play_memory=memory)
        assert tabled.sweeps == generated.sweeps
        for name in ("probabilities", "centred_no_double", "owned_no_double", "opponent_owns"):
            ours, theirs = getattr(tabled, name), getattr(generated, name)
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9, err_msg=name)
    before, _ = _swept_values(2, 0, 3)
    for memory, held in ((2**30, range(106_552, 106_553)), (4_000_000, range(1, 100_000))):
        after, slots = _swept_values(2, memory, 3)
        assert slots in held  # every live position, or only a part
        np.testing.assert_allclose(after, before, rtol=0, atol=1e-9)


def test_a_sampled_residual_and_a_perturbed_database(hyper2: HypergammonDatabase) -> None:
    """The sampled fixed-point check passes on the solution and fails where one value
    is off."""
    assert residual(hyper2, sample=5_000) < 1e-8
    live = int(np.flatnonzero(~np.isnan(np.asarray(hyper2._probabilities)[:, 0]))[500])
    probabilities = np.array(hyper2._probabilities)
    probabilities[live, 0] += 1e-4
    broken = HypergammonDatabase(
        2,
        probabilities,
        np.array(hyper2._centred_no_double),
        np.array(hyper2._owned_no_double),
        np.array(hyper2._opponent_owns),
    )
    assert residual(broken) > 5e-5


def test_a_live_position_without_values_fails_the_residual(hyper2: HypergammonDatabase) -> None:
    """A live position whose chances are NaN is neither skipped nor ignored as a
    successor: the check is infinite (a same-level race once left 547 such positions
    in a two-thread 3-checker build whose sampled residual was 2e-7)."""
    probabilities = np.array(hyper2._probabilities)
    live = np.flatnonzero(~np.isnan(probabilities[:, 0]))
    position = int(live[len(live) // 2])
    assert 0 < probabilities[position, 0] < 1  # a game still in play
    probabilities[position] = np.nan
    broken = HypergammonDatabase(
        2,
        probabilities,
        np.array(hyper2._centred_no_double),
        np.array(hyper2._owned_no_double),
        np.array(hyper2._opponent_owns),
    )
    assert residual(broken, sample=1_000) == math.inf


def test_the_3_checker_build_stops_near_float32_precision() -> None:
    assert default_tolerance(1) == default_tolerance(2) == 1e-9
    assert default_tolerance(3) == 1e-7
    with pytest.raises(ValueError, match="1, 2 or 3"):
        default_tolerance(4)


def test_chances_lie_within_the_ranges_of_tied_strategies(hyper2: HypergammonDatabase) -> None:
    low, high = probability_ranges(hyper2, tolerance=1e-5)
    stored = np.asarray(hyper2._probabilities)
    live = ~np.isnan(stored[:, 0])
    assert np.all(low[live] <= stored[live] + 1e-8)
    assert np.all(stored[live] <= high[live] + 1e-8)
    spread = (high - low)[live].max(axis=1)
    # ties make about 5% of the 2-checker chances non-unique by more than 1e-4
    assert 0.01 < np.mean(spread > 1e-4) < 0.1


def test_start_positions(hyper1: HypergammonDatabase, hyper2: HypergammonDatabase) -> None:
    one = hyper1.evaluate(Position.initial(VARIANTS[1]))
    two = hyper2.evaluate(Position.initial(VARIANTS[2]))
    assert 0.5 < one[0] < 0.7 and 0.5 < two[0] < 0.7
    cube = hyper2.cube_equities(Position.initial(VARIANTS[2]))
    assert cube.centred >= cube.centred_no_double
    assert cube.opponent_owns <= cube.centred <= cube.owned


# --- files and the engine ---------------------------------------------------------------


def test_save_and_open(tmp_path: Path, hyper1: HypergammonDatabase) -> None:
    path = hyper1.save(tmp_path)
    assert path.name == "hypergammon-1.npz"
    loaded = HypergammonDatabase.open(1, tmp_path, build=False)
    start = Position.initial(VARIANTS[1])
    assert loaded.evaluate(start) == pytest.approx(hyper1.evaluate(start), abs=1e-7)
    assert loaded.sweeps == hyper1.sweeps
    with pytest.raises(Exception, match="build it with"):
        HypergammonDatabase.open(2, tmp_path, build=False)


def test_engine_uses_the_exact_values(hyper2: HypergammonDatabase) -> None:
    engine = Engine(variant=VARIANTS[2], exact=hyper2)
    rng = random.Random(5)
    start = Position.initial(VARIANTS[2])
    assert engine.evaluate(start).probabilities == pytest.approx(hyper2.evaluate(start))
    assert engine.evaluate_at(start, 1).probabilities == pytest.approx(hyper2.evaluate(start))
    for roll in rng.sample(ALL_ROLLS, 5):
        ranked = engine.rank_plays(start, roll)
        for item in ranked:
            after = hyper2.evaluate(item.play.position.flip())
            assert item.equity == pytest.approx(-equity(after), abs=1e-9)
        assert engine.best_play(start, roll) == ranked[0].play
    three = Engine(variant=VARIANTS[3]).exact
    assert (three is not None) == available(3)  # built only by the command
    assert Engine(variant=variants.find("standard")).exact is None
    assert Engine(variant=VARIANTS[2], exact=None).exact is None


def test_engine_builds_the_database_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hyper1: HypergammonDatabase
) -> None:
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path))
    engine = Engine(variant=VARIANTS[1])
    start = Position.initial(VARIANTS[1])
    assert engine.evaluate(start).probabilities == pytest.approx(hyper1.evaluate(start), abs=1e-7)
    assert (tmp_path / "hypergammon-1.npz").exists()


def test_cli_eval_and_hint_use_the_exact_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hyper1: HypergammonDatabase
) -> None:
    for cached in default_database_directory().glob("bearoff*.npz"):
        shutil.copy(cached, tmp_path)  # the warm-up opens the bear-off databases
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path))
    hyper1.save(tmp_path)
    start = Position.initial(VARIANTS[1])
    runner = CliRunner()
    result = runner.invoke(
        app, ["eval", start.position_id, "--variant", "hypergammon-1", "--cubeful", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["exact"] is True
    assert data["probabilities"] == pytest.approx(hyper1.evaluate(start), abs=1e-6)
    assert data["cubeful_equity"] == pytest.approx(hyper1.cube_equities(start).centred, abs=1e-6)
    result = runner.invoke(
        app, ["hint", start.position_id, "--variant", "hypergammon-1", "-r", "6-5", "--json"]
    )
    assert result.exit_code == 0, result.output
    best = json.loads(result.stdout)["plays"][0]
    after = [
        -equity(hyper1.evaluate(play.position.flip()))
        for play in start.legal_plays((6, 5), VARIANTS[1])
    ]
    assert best["equity"] == pytest.approx(max(after), abs=1e-4)


def _cache_with_bearoffs(folder: Path) -> None:
    """A cache folder with the bear-off databases (the warm-up opens them) and no
    hypergammon database."""
    for cached in default_database_directory().glob("bearoff*.npz"):
        shutil.copy(cached, folder)


def test_cli_hint_for_hypergammon_3_without_its_database_says_estimate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cache_with_bearoffs(tmp_path)
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path))
    start = Position.initial(VARIANTS[3]).position_id
    runner = CliRunner()
    result = runner.invoke(app, ["hint", start, "--roll", "3-1", "--variant", "hypergammon"])
    assert result.exit_code == 0, result.output
    heading = result.stdout.splitlines()[0]
    assert heading.endswith("equity for the mover, estimate:"), heading
    assert "backgammon build-hypergammon --checkers 3" in result.stdout
    assert "not built" in result.stdout
    result = runner.invoke(
        app, ["hint", start, "--roll", "3-1", "--variant", "hypergammon", "--json"]
    )
    assert result.exit_code == 0, result.output
    source = json.loads(result.stdout)["source"]
    assert source["exact"] is False and "--checkers 3" in source["note"]
    for command in (["eval", start], ["cube", start]):
        result = runner.invoke(app, [*command, "--variant", "hypergammon"])
        assert result.exit_code == 0, result.output
        assert "estimate" in result.stdout and "--checkers 3" in result.stdout
    assert not (tmp_path / "hypergammon-3.npz").exists()  # nothing built behind the user's back


def test_cli_hint_with_the_database_says_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hyper1: HypergammonDatabase
) -> None:
    _cache_with_bearoffs(tmp_path)
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path))
    hyper1.save(tmp_path)
    start = Position.initial(VARIANTS[1]).position_id
    result = CliRunner().invoke(app, ["hint", start, "--roll", "3-1", "--variant", "hyper-1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].endswith("exact (solved database):")
    assert "estimate" not in result.stdout and "note:" not in result.stdout


def test_engine_source_follows_the_database_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path))
    before = Engine(variant=VARIANTS[3])
    assert before.exact is None and not before.source.exact
    assert before.source.note is not None and "build-hypergammon --checkers 3" in before.source.note
    standard = Engine(variant=variants.find("standard")).source
    assert standard == EvaluationSource(exact=False) and standard.note is None
    (tmp_path / "hypergammon-3.npz").write_bytes(b"")  # opened only on first use
    after = Engine(variant=VARIANTS[3])
    assert after.source.exact and after.source.note is None
    assert Engine(variant=VARIANTS[3], exact=None).source.note is not None


# --- GNU Backgammon ---------------------------------------------------------------------


def _gnubg_database(checkers: int, folder: Path, tolerance: str = "1e-6") -> HypergammonDatabase:
    path = folder / f"hyper{checkers}.bd"
    if not path.exists():
        assert MAKEHYPER is not None
        subprocess.run(
            [MAKEHYPER, "-c", str(checkers), "-t", tolerance, "-n", "-f", str(path)],
            check=True,
            capture_output=True,
            cwd=folder,
            timeout=600,
        )
    return read_gnubg_database(path, checkers)


def _sample_rows(ours: HypergammonDatabase, sample: int) -> np.ndarray:
    """``sample`` rows of ``ours`` where both sides have checkers in play, chosen with
    seed 0 (the rows of ``hyper2_sample.npz`` were chosen so)."""
    size = side_count(ours.checkers)
    probs = np.asarray(ours._probabilities)
    index = np.arange(probs.shape[0])
    live = index[(index // size > 0) & (index % size > 0) & ~np.isnan(probs[:, 0])]
    rows = np.random.default_rng(0).choice(live, size=min(sample, live.size), replace=False)
    return np.sort(rows)


def _compare(ours: HypergammonDatabase, rows: np.ndarray, theirs: np.ndarray) -> None:
    """Our chances against GNU Backgammon's ``theirs`` on ``rows``: the equities
    agree, theirs lie within the range of our optimal strategies, and agree where
    that range is one point."""
    mine = np.asarray(ours._probabilities)[rows]
    assert np.abs(equities(mine) - equities(theirs)).max() < 1e-4
    low, high = probability_ranges(ours)
    assert np.all(theirs >= low[rows] - 1e-4) and np.all(theirs <= high[rows] + 1e-4)
    unique = (high[rows] - low[rows]).max(axis=1) < 1e-6
    assert np.abs(mine[unique] - theirs[unique]).max() < 1e-4


@pytest.mark.skipif(MAKEHYPER is None, reason="GNU Backgammon's makehyper is not installed")
def test_against_gnubg_hyper1(tmp_path: Path, hyper1: HypergammonDatabase) -> None:
    gnubg = _gnubg_database(1, tmp_path)
    rows = _sample_rows(hyper1, 601)
    _compare(hyper1, rows, np.asarray(gnubg._probabilities)[rows])
    # One checker can never be blocked, so makehyper's cubeful values are right too.
    for name in ("_centred_no_double", "_owned_no_double", "_opponent_owns"):
        ours, theirs = getattr(hyper1, name), getattr(gnubg, name)
        assert np.nanmax(np.abs(ours - theirs)) < 1e-5


def test_against_gnubg_hyper2(hyper2: HypergammonDatabase) -> None:
    """GNU Backgammon's 2-checker values on 5,000 positions, kept in
    ``tests/data/reference/hyper2_sample.npz`` (its README says how they were made;
    ``benchmarks/hypergammon_check.py`` compares every position)."""
    sample = np.load(REFERENCE / "hyper2_sample.npz")
    rows = sample["rows"]
    assert np.array_equal(rows, _sample_rows(hyper2, 5000))
    _compare(hyper2, rows, sample["probabilities"])
    # With makehyper's rule for rolls with no legal play, its cubeful values too.
    solution = _solve(2, gnubg_no_move=True)
    assert np.abs(solution.opponent_owns[rows] - sample["opponent_owns"]).max() < 1e-5


@pytest.mark.parametrize("threads", [1, 3])
def test_the_extrapolation_passes_sum_and_jump_each_group_apart(threads: int) -> None:
    rng = np.random.default_rng(5)
    before = rng.random((101, _VALUES))
    values = before + rng.normal(0, 1e-3, before.shape)
    before[7] = values[7] = np.nan  # a row that is no position
    values[9, 2] = np.nan  # a value missing on one side only counts nothing
    groups = [list(range(5)), [5], [6], [7]]
    delta = np.nan_to_num(values - before)
    expected = [np.abs(delta[:, columns]).sum() for columns in groups]
    assert _change_sums(values, before, threads) == pytest.approx(expected, rel=1e-12)
    factors = np.array([0.5, 0.0, 2.0, 1.0])
    jumped = values.copy()
    for factor, columns in zip(factors, groups, strict=True):
        jumped[:, columns] += factor * delta[:, columns]
    kept = before.copy()
    _jump_and_keep(values, kept, factors, threads)
    assert np.array_equal(np.isnan(values), np.isnan(jumped))
    assert np.nanmax(np.abs(values - jumped)) < 1e-15
    assert np.array_equal(kept, values, equal_nan=True)
