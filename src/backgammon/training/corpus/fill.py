"""Filling the queue with positions that teach most.

Positions come from games: self-play of the engine at 0-ply, where one play in a few
is chosen at random among the best four (and a few among all plays) so that games
vary, or games against another player (:data:`Chooser`: GNU Backgammon in
``benchmarks/corpus_gnubg.py``; only its positions are kept, never its values). Each
position on roll is kept with a chance that grows with its plan's weight
(:data:`PLAN_WEIGHTS`: the plans where the engine loses, blitzes and "other contact",
and races where a gammon is at stake, weigh most). On a share of the turns the 0-ply
choice is checked against the 2-ply one; where they differ, both results are queued
(source ``dg``): the positions whose values the network gets wrong. Bear-offs that
the exact database covers, ended games and positions already queued are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from backgammon.engine.evaluator import Engine, PositionClass, classify
from backgammon.engine.plans import Plan, plan_of
from backgammon.rules.position import Position
from backgammon.training.corpus.format import KINDS, QueuedPosition

__all__ = ["PLAN_WEIGHTS", "Chooser", "FillSettings", "game_positions", "sample_positions"]

Chooser = Callable[[Position, tuple[int, int]], Position]
"""Another player: the position after its play of the dice (its side still on roll)."""

PLAN_WEIGHTS = {
    Plan.RACE: 1.5,
    Plan.BACK_GAME: 2.5,
    Plan.BLITZ: 0.7,
    Plan.PRIME: 1.0,
    Plan.HOLDING: 0.6,
    Plan.DEEP_ANCHOR: 0.7,
    Plan.OTHER_CONTACT: 1.8,
}
"""How often a position of each plan is kept, relative to others. In self-play the
plans come about as blitz 32%, holding 18%, deep anchor 14%, race 12%, other contact
12%, prime 9%, back game 3% (:func:`~backgammon.engine.plans.plan_of`, 7,743
positions of 150 games); these weights (and :attr:`FillSettings.gammon_race`) turn that
toward the plans where the by-plan benchmark says the engine loses most: races
(gammon races above all), "other contact" and blitzes, with back games raised from
their rarity."""

_CODES = {cls: code for code, cls in KINDS.items()}


@dataclass(frozen=True, slots=True)
class FillSettings:
    """How positions are drawn from games.

    Attributes:
        keep: the chance of keeping a position of weight 1 (at most 1 for others).
        explore: the chance that a play is a random one of the best four at 0-ply.
        wild: the chance that a play is a random legal play.
        disagreement: the share of turns whose 0-ply choice is checked at 2-ply.
        gammon_race: the weight of a race where a side's gammon chance (0-ply) is at
            least ``gammon_chance``.
        gammon_chance: see ``gammon_race``.
        weights: each plan's weight.
    """

    keep: float = 0.25
    explore: float = 0.12
    wild: float = 0.03
    disagreement: float = 0.08
    gammon_race: float = 4.0
    gammon_chance: float = 0.03
    weights: dict[Plan, float] = field(default_factory=lambda: dict(PLAN_WEIGHTS))


def _queued(engine: Engine, position: Position, source: str) -> QueuedPosition | None:
    """``position`` as a queue entry, or ``None`` if labelling it teaches nothing."""
    cls = classify(position)
    if cls == PositionClass.OVER:
        return None
    bearoff = engine.bearoff if cls == PositionClass.BEAROFF else None
    if bearoff is not None and bearoff.covers(position.to_array()[None, :])[0]:
        return None
    return QueuedPosition(position.position_id, _CODES[cls], plan_of(position), source)


def _weight(engine: Engine, entry: QueuedPosition, position: Position, s: FillSettings) -> float:
    if entry.plan is Plan.RACE:
        values = engine.evaluate(position)
        if max(values.win_gammon, values.lose_gammon) >= s.gammon_chance:
            return s.gammon_race
    return s.weights[entry.plan]


def _our_play(
    engine: Engine, position: Position, dice: tuple[int, int], rng: random.Random, s: FillSettings
) -> Position:
    ranked = engine.rank_plays(position, dice, 0)
    draw = rng.random()
    if draw < s.wild:
        return rng.choice(ranked).play.position
    if draw < s.wild + s.explore:
        return rng.choice(ranked[:4]).play.position
    return ranked[0].play.position


def _disagreement(
    engine: Engine, position: Position, dice: tuple[int, int]
) -> Iterator[QueuedPosition]:
    """The results of the 0-ply and the 2-ply choice (opponent on roll), if they differ."""
    shallow = engine.best_play(position, dice, 0).position
    deep = engine.best_play(position, dice, 2).position
    if shallow == deep:
        return
    for after in (shallow, deep):
        entry = _queued(engine, after.flip(), "dg")
        if entry is not None:
            yield entry


def game_positions(
    engine: Engine,
    rng: random.Random,
    settings: FillSettings,
    opponent: Chooser | None = None,
) -> Iterator[QueuedPosition]:
    """The positions one game gives (see the module doc): self-play (source ``sp``)
    or, with ``opponent``, the engine against it, each first in turn (``gn``)."""
    source = "sp" if opponent is None else "gn"
    opponent_side = rng.randrange(2)
    position = Position.initial()
    for turn in range(1000):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while turn == 0 and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        entry = _queued(engine, position, source)
        if entry is not None:
            chance = settings.keep * _weight(engine, entry, position, settings)
            if rng.random() < chance:
                yield entry
        theirs = opponent is not None and turn % 2 == opponent_side
        if not theirs and rng.random() < settings.disagreement:
            yield from _disagreement(engine, position, dice)
        if theirs:
            assert opponent is not None
            after = opponent(position, dice)
        else:
            after = _our_play(engine, position, dice, rng, settings)
        if after.is_game_over():
            return
        position = after.flip()


def sample_positions(
    engine: Engine,
    count: int,
    rng: random.Random,
    known: set[str],
    settings: FillSettings | None = None,
    opponent: Chooser | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[QueuedPosition]:
    """``count`` positions from new games, none in ``known`` (which grows with them);
    ``progress(found)`` after each game."""
    settings = FillSettings() if settings is None else settings
    found: list[QueuedPosition] = []
    while len(found) < count:
        for entry in game_positions(engine, rng, settings, opponent):
            if entry.position_id not in known and len(found) < count:
                known.add(entry.position_id)
                found.append(entry)
        if progress is not None:
            progress(len(found))
    return found
