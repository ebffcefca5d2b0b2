"""Race training: TD self-play from sampled long races, for the race network.

Self-play from the opening position reaches pure races late, when most checkers are
home, so the race network sees few long races (120 pips and more) and misjudges them.
Here every game starts from a sampled race: each side's checkers spread over its
points 1..k (``k`` from 6 to 12, so contact is already broken), a few sometimes borne
off. The games are played and learned from exactly as in :mod:`backgammon.training.td`
(greedy 0-ply self-play, TD(0)); every position of a race game is a race or bear-off
position, so only the race network changes. The outcomes of the games ground the
values: nothing here comes from another program.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from backgammon.engine.network import Networks
from backgammon.rules.fastgame import new_rng_state
from backgammon.training.td import parameter_views, train_games, zero_traces

__all__ = ["improve_race_network", "sample_race_starts", "train_race"]

_SIDE = 26


def _race_side(rng: np.random.Generator, checkers: int) -> npt.NDArray[np.uint8]:
    side = np.zeros(_SIDE, dtype=np.uint8)
    reach = int(rng.integers(6, 13))
    off = 0 if rng.random() < 0.8 else int(rng.integers(1, 9))
    # Denser near home: points drawn as 1 + floor(reach * u ** 0.8).
    points = 1 + np.floor(reach * rng.random(checkers - off) ** 0.8).astype(np.int64)
    np.add.at(side, points, 1)
    side[0] = off
    return side


def sample_race_starts(count: int, seed: int, checkers: int = 15) -> npt.NDArray[np.uint8]:
    """``count`` race positions (``uint8[count, 52]``, side on roll first): each side's
    checkers on its points 1..12 at most, so no contact is left.

    Raises:
        ValueError: for a negative count.
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    rng = np.random.default_rng(seed)
    boards = np.zeros((count, 2 * _SIDE), dtype=np.uint8)
    for row in range(count):
        boards[row, :_SIDE] = _race_side(rng, checkers)
        boards[row, _SIDE:] = _race_side(rng, checkers)
    return boards


def train_race(
    networks: Networks,
    games: int,
    seed: int,
    alpha: float = 0.01,
    checkers: int = 15,
    progress: Callable[[int], None] | None = None,
) -> Networks:
    """A copy of ``networks`` whose race network learned from ``games`` TD self-play
    games started from sampled races (learning rate ``alpha``); the other networks
    are unchanged. ``progress`` is called with the games done after every 1,000.

    Raises:
        ValueError: for a negative number of games or a learning rate <= 0.
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if not alpha > 0:
        raise ValueError(f"alpha must be > 0, got {alpha}")
    trained = networks.with_networks({name: net.copy() for name, net in networks.by_name().items()})
    views = parameter_views(trained)
    w1s, b1s, w2ts, b2s = views
    traces = zero_traces(views, 0.0)  # TD(0)
    state = new_rng_state(seed)
    starts = sample_race_starts(games, seed + 1, checkers)
    results = np.zeros((1, 3), dtype=np.int64)
    for game in range(games):
        train_games(
            1,
            starts[game],
            checkers,
            w1s,
            b1s,
            w2ts,
            b2s,
            alpha,
            1e18,
            0,
            state,
            results,
            0.0,
            *traces,
        )
        if progress is not None and (game + 1) % 1000 == 0:
            progress(game + 1)
    return trained


def _shortened(boards: npt.NDArray[np.uint8], seed: int) -> npt.NDArray[np.uint8]:
    """Copies of half the races (chosen at random) with every checker on points 1..12
    moved to point ``ceil(p / 2)``: shorter races, more of them near the bear-off."""
    rng = np.random.default_rng(seed)
    short = boards.copy()
    chosen = rng.random(boards.shape[0]) < 0.5
    for base in (0, _SIDE):
        moved = np.zeros((boards.shape[0], 12), dtype=np.uint8)
        for point in range(1, 13):
            moved[:, (point + 1) // 2 - 1] += boards[:, base + point]
        short[chosen, base + 1 : base + 13] = moved[chosen]
    return short


def improve_race_network(
    networks: Networks,
    games: int = 200_000,
    seed: int = 11,
    progress: Callable[[str], None] | None = None,
    samples: int = 40_000,
) -> Networks:
    """The race-network recipe behind the shipped weights (docs/training.md):

    1. TD self-play from ``games`` sampled races at ``alpha`` 0.01, then ``games``
       more at 0.003 (:func:`train_race`);
    2. supervised: ``samples`` (40,000) sampled races and as many shortened ones,
       labelled by the result's own 1-ply search (exact bear-off databases below),
       fitted;
    3. supervised again, from two of our own teachers: the race positions of
       ``samples / 10`` self-play games labelled at 1-ply by the *starting* networks
       (which play ordinary races well) and ``samples * 3 / 4`` sampled long races
       labelled at 1-ply by step 2's networks (which judge long races better).

    Only the race network changes. ``progress`` is told each step's name.
    """
    from backgammon.engine.evaluator import Engine, PositionClass, classify_boards
    from backgammon.training.supervised import collect_positions, fit_networks, label_positions

    def races(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        keep: npt.NDArray[np.uint8] = boards[classify_boards(boards) == int(PositionClass.RACE)]
        return keep

    def say(step: str) -> None:
        if progress is not None:
            progress(step)

    say("TD self-play from sampled races")
    current = train_race(networks, games, seed, alpha=0.01)
    current = train_race(current, games, seed + 1, alpha=0.003)
    say("1-ply labels of sampled races")
    sampled = sample_race_starts(samples, seed + 2)
    boards = races(np.concatenate((sampled, _shortened(sampled, seed + 3))))
    labels = label_positions(Engine(current), boards, 1)
    current, _ = fit_networks(current, boards, labels, epochs=6, seed=seed + 4)
    say("1-ply labels from two teachers")
    original = Engine(networks)
    ordinary = races(collect_positions(original, samples // 10, seed + 5))
    long_races = races(sample_race_starts(samples * 3 // 4, seed + 6))
    boards = np.concatenate((ordinary, long_races))
    labels = np.concatenate(
        (label_positions(original, ordinary, 1), label_positions(Engine(current), long_races, 1))
    )
    current, _ = fit_networks(current, boards, labels, epochs=6, seed=seed + 7)
    return networks.replace(race=current.race)
