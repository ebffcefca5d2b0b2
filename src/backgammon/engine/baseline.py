"""Simple baseline players: a random mover and a hand-written heuristic.

They need no training and no data, so they serve as the terminal game's opponent
until the neural engine arrives, and as fixed yardsticks for strength benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from backgammon.rules.dice import Roll, RollLike
from backgammon.rules.game import Game
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

__all__ = [
    "HeuristicCube",
    "HeuristicPlayer",
    "PipCountPlayer",
    "Player",
    "RandomPlayer",
    "heuristic_score",
]


class Player(Protocol):
    """Anything that picks a play for a position and roll."""

    def choose(
        self,
        position: Position,
        roll: RollLike,
        variant: Variant | None = None,
        continues: Callable[[Play], bool] | None = None,
    ) -> Play:
        """Return one of ``position.legal_plays(roll, variant)`` (the no-move play if
        there is none). ``continues(play)``, where given, says whether the mover plays
        on after ``play`` (:meth:`~backgammon.rules.game.Game.play_continues`); players
        that value the position a play leaves use it, the others may ignore it."""
        ...


class RandomPlayer:
    """Picks a legal play uniformly at random, reproducibly from a seed."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(
        self,
        position: Position,
        roll: RollLike,
        variant: Variant | None = None,
        continues: Callable[[Play], bool] | None = None,
    ) -> Play:
        """A random legal play (the no-move play when nothing can move)."""
        plays = position.legal_plays(roll, variant)
        if not plays:
            return Play.no_move(position)
        return plays[self._random.randrange(len(plays))]


_POINT_VALUE = (0, 1.0, 1.5, 2.0, 3.0, 3.5, 4.0, 3.5, 1.5, 1.0, 0.5, 0.5, 0.5)


def heuristic_score(result: Position, same_direction: bool = False) -> float:
    """A hand-made score of a position just after the mover played (higher is better
    for the mover): pips, hits, made points, exposed blots and checkers off.
    ``same_direction``: both sides move the same way round (Russian backgammon,
    tabula), so an opposing checker threatens our blots below it, not above it."""
    player, opponent = result.player, result.opponent
    my_pips, their_pips = result.pip_counts()
    score = (their_pips - my_pips) * 0.1 + player[0] * 1.5
    if not same_direction and result.is_race():
        return score + sum(player[point] * point * point for point in range(1, 7)) * -0.01
    score += opponent[25] * 4.0
    for point in range(1, 13):
        if player[point] >= 2:
            score += _POINT_VALUE[point]
    if same_direction:
        # The opponent's point i is our point i; it moves toward our 1-point, as we
        # do, so it threatens our blots below it; its bar (25) too.
        attackers = [i for i in range(1, 26) if opponent[i]]
        sign = -1
    else:
        # The opponent's point i is our point 25 - i; it moves toward our 24-point,
        # so it threatens our blots above it. Checkers on its bar enter on our
        # points 1..6.
        attackers = [25 - i for i in range(1, 25) if opponent[i]]
        if opponent[25]:
            attackers.append(0)
        sign = 1
    for point in range(1, 25):
        if player[point] != 1:
            continue
        shots = sum(1 for attacker in attackers if 0 < sign * (point - attacker) <= 12)
        if shots:
            score -= 1.0 + (2.0 if point <= 6 else 0.5) + 0.2 * min(shots, 6)
    if player[25]:
        score -= 3.0 * player[25]
    return score


class HeuristicPlayer:
    """Picks the play with the best :func:`heuristic_score`; ties go to the first.

    By default it reads every board as the standard one (the opponent moving the
    other way round: the yardstick of docs/variants.md); with ``follow_direction``
    it reads a board where both sides move the same way (Russian backgammon, tabula)
    as it is, an opposing checker threatening the blots below it.
    """

    def __init__(self, follow_direction: bool = False) -> None:
        self.follow_direction = follow_direction

    def choose(
        self,
        position: Position,
        roll: RollLike,
        variant: Variant | None = None,
        continues: Callable[[Play], bool] | None = None,
    ) -> Play:
        """The best play by the heuristic (the no-move play when nothing can move)."""
        dice = 2 if variant is None else variant.dice
        plays = position.legal_plays(Roll.coerce(roll, dice), variant)
        if not plays:
            return Play.no_move(position)
        same_direction = self.follow_direction and variant is not None and variant.same_direction
        return max(plays, key=lambda play: heuristic_score(play.position, same_direction))


def _race_margin(position: Position) -> float:
    """How far ahead the side on roll is in the race, as a fraction of its pips."""
    mine, theirs = position.pip_counts()
    return (theirs - mine) / max(mine, 1)


class HeuristicCube:
    """Simple cube handling for the heuristic opponent: doubles and takes by the pip
    count in races, and a few rough signs of a winning attack in contact positions.
    A stand-in until the neural engine's cube decisions (issue 5) arrive."""

    def should_double(self, game: Game) -> bool:
        """Whether the side on roll should double now."""
        position = game.position
        margin = _race_margin(position)
        if position.is_race():
            return margin >= 0.08
        closed = sum(1 for point in range(1, 7) if position.player[point] >= 2)
        return margin >= 0.15 and position.opponent_bar >= 1 and closed >= 4

    def should_take(self, game: Game) -> bool:
        """Whether to take a double (the doubler is on roll)."""
        position = game.position
        margin = _race_margin(position)
        if position.is_race():
            return margin <= 0.12
        closed = sum(1 for point in range(1, 7) if position.player[point] >= 2)
        return not (position.opponent_bar >= 2 and closed >= 5) and margin <= 0.25

    def accepts_resignation(self, game: Game, level: int) -> bool:
        """Whether to accept a resignation at ``level`` (1 single, 2 gammon, 3
        backgammon) offered by the side on roll."""
        position = game.position.flip()
        if level >= 2:
            return True
        return position.is_race() and _race_margin(position) >= 0.3


class PipCountPlayer:
    """The pip-count racer baseline: the play that leaves the biggest pip lead, then
    the fewest blots within reach of an opposing checker, then the most made points."""

    def choose(
        self,
        position: Position,
        roll: RollLike,
        variant: Variant | None = None,
        continues: Callable[[Play], bool] | None = None,
    ) -> Play:
        """The best play by pip lead, safety and made points."""
        plays = position.legal_plays(Roll.coerce(roll), variant)
        if not plays:
            return Play.no_move(position)

        def score(play: Play) -> tuple[int, int, int]:
            result = play.position
            mine, theirs = result.pip_counts()
            player, opponent = result.player, result.opponent
            rearmost = max((i for i in range(1, 26) if opponent[i]), default=0)
            behind = 25 - rearmost  # our points above this have an opponent checker behind
            blots = 0
            if result.has_contact():
                blots = sum(1 for p in range(1, 25) if player[p] == 1 and p > behind)
            made = sum(1 for p in range(1, 25) if player[p] >= 2)
            return theirs - mine, -blots, made

        return max(plays, key=score)
