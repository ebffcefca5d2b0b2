"""The table under both environments: every kind of decision, the observation's extra
inputs, and its guards."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from backgammon import Beaver, CubeRules, Double, Raccoon, Take
from backgammon.environments import EXTRA_NAMES, Phase, RollDice, Table, TooManyActionsError
from backgammon.environments.observation import BOARD_INPUTS
from backgammon.errors import IllegalActionError
from backgammon.rules.game import ChooseDouble, Explode
from backgammon.rules.play import Play

Chooser = Callable[[Table, np.random.Generator], int]


def random_choice(table: Table, rng: np.random.Generator) -> int:
    return int(rng.integers(len(table.legal_actions)))


def phases_seen(table: Table, games: int, choose: Chooser = random_choice) -> dict[Phase, set[str]]:
    """Play ``games`` episodes; the kinds of legal action seen in each phase."""
    seen: dict[Phase, set[str]] = {}
    for seed in range(games):
        rng = np.random.default_rng(seed)
        table.reset(rng)
        while not table.is_over:
            kinds = seen.setdefault(table.phase, set())
            kinds.update(type(action).__name__ for action in table.legal_actions)
            table.step(choose(table, rng))
    return seen


def test_acey_deucey_asks_for_the_double_after_a_1_2() -> None:
    seen = phases_seen(Table("acey-deucey"), 3)
    assert seen[Phase.CHOOSE_DOUBLE] == {"ChooseDouble"}
    assert seen[Phase.PLAY] == {"Play"}


def test_atomic_offers_the_bomb_before_rolling() -> None:
    table = Table("atomic")
    table.reset(np.random.default_rng(0))
    while table.phase is not Phase.PRE_ROLL:
        table.step(0)
    assert table.legal_actions == (RollDice(), Explode())


def test_beavers_and_raccoons() -> None:
    """Everyone doubles, beavers and raccoons whenever allowed."""

    def eager(table: Table, rng: np.random.Generator) -> int:
        for action in (Raccoon(), Beaver(), Double()):
            if action in table.legal_actions:
                return table.legal_actions.index(action)
        return 0

    rules = CubeRules(beavers=True, raccoons=True, max_cube=64)
    seen = phases_seen(Table("standard", cube=rules), 2, eager)
    assert seen[Phase.PRE_ROLL] == {"RollDice", "Double"}
    assert seen[Phase.DOUBLE] == {"Take", "Drop", "Beaver"}
    assert seen[Phase.BEAVER] == {"RollDice", "Raccoon"}


def test_without_the_cube_only_plays_are_asked() -> None:
    assert set(phases_seen(Table("standard"), 2)) == {Phase.PLAY}
    # Variants played without the cube ask for no cube decision even with cube=True.
    assert set(phases_seen(Table("tavla", cube=True), 2)) == {Phase.PLAY}


def test_the_observation_shows_the_cube_match_dice_and_decision() -> None:
    table = Table("standard", cube=True, match_length=5)
    table.reset(np.random.default_rng(3))
    while table.phase is not Phase.PRE_ROLL:
        table.step(0)
    doubler = table.decider
    assert doubler is not None
    table.step(table.legal_actions.index(Double()))
    assert table.phase is Phase.DOUBLE and table.decider == 1 - doubler
    table.step(table.legal_actions.index(Take()))
    taker = 1 - doubler
    while table.phase is not Phase.PLAY:
        table.step(0)
    extra = dict(zip(EXTRA_NAMES, table.observe(doubler)[BOARD_INPUTS:], strict=True))
    assert extra["cube.value"] == pytest.approx(1 / 6)
    assert (extra["cube.mine"], extra["cube.theirs"]) == (0.0, 1.0)
    assert extra["match.on"] == 1.0 and extra["match.my_away"] == 1.0
    assert extra["phase.play"] == 1.0 and table.decider == doubler
    dice = table.game.dice
    assert dice is not None
    assert extra[f"dice.high.{dice.high}"] == extra[f"dice.low.{dice.low}"] == 1.0
    seen_by_taker = dict(zip(EXTRA_NAMES, table.observe(taker)[BOARD_INPUTS:], strict=True))
    assert seen_by_taker["cube.mine"] == 1.0 and seen_by_taker["phase.play"] == 0.0


def test_afterstates_are_the_plays_results() -> None:
    table = Table("standard")
    table.reset(np.random.default_rng(1))
    plays = table.legal_actions
    assert all(isinstance(play, Play) for play in plays)
    afterstates = table.afterstates()
    assert afterstates.shape == (len(plays), BOARD_INPUTS)
    assert len({row.tobytes() for row in afterstates}) == len(plays)


def test_guards() -> None:
    table = Table("standard")
    table.reset(np.random.default_rng(1))
    with pytest.raises(TypeError):
        table.step(1.5)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="play decision has"):
        table.step(len(table.legal_actions))
    assert table.forfeit(1) == (3.0, -3.0) and table.is_over and table.forfeited == 1
    with pytest.raises(IllegalActionError, match="episode is over"):
        table.step(0)
    with pytest.raises(ValueError, match="max_actions"):
        Table(max_actions=5)
    small = Table("standard", max_actions=6)
    with pytest.raises(TooManyActionsError, match="exceed max_actions=6"):
        for seed in range(20):
            small.reset(np.random.default_rng(seed))
            while not small.is_over:
                small.step(0)


def test_choose_double_actions_are_the_six_doubles() -> None:
    table = Table("acey-deucey")
    rng = np.random.default_rng(0)
    table.reset(rng)
    while table.phase is not Phase.CHOOSE_DOUBLE:
        table.step(random_choice(table, rng))
    assert table.legal_actions == tuple(ChooseDouble(n) for n in range(1, 7))
    table.step(5)
    assert table.phase is Phase.PLAY and str(table.game.dice) == "6-6"
