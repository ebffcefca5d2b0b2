"""Cube decisions from cubeless probabilities: Janowski's money model and its match
play counterpart through a match equity table.

**Money (Janowski, "Take-Points in Money Games", 1993; GNU Backgammon manual,
"Cubeful equities")**. From the five cubeless probabilities of the side on roll, let
``p`` be its chance to win and

* ``W = (win + win_gammon + win_backgammon) / win``: the average value of a win,
* ``L = (lose + lose_gammon + lose_backgammon) / lose``: the average value of a loss.

Cubeless (dead-cube) equity is ``E_dead = p·W − (1 − p)·L``. With a perfectly live cube
the doubled side takes down to its take point ``TP = (L − 1/2) / (W + L + 1/2)`` and
the doubler cashes from ``CP = (L + 1) / (W + L + 1/2)``; the live-cube equity is
piecewise linear between those points (from −L at p = 0, −1 at TP, +1 at CP, up to
+W at p = 1), and depends on who holds the cube. Real cubes are between dead and live:
``E = x·E_live + (1 − x)·E_dead`` with the cube efficiency ``x`` (0.68 for contact,
0.6–0.7 in races, GNU Backgammon's figures).

A double is right when both "double, take" (twice the equity with the opponent owning
the cube) and "double, pass" (+1) beat "no double"; the opponent takes when "double,
take" is at most +1 (for the doubler). "Too good" is when "no double" beats
"double, pass" because playing on for the gammon is worth more.

**Match play.** Equities are match winning chances (MWC) from the match equity table;
the dead-cube MWC weighs each outcome (win/lose single, gammon, backgammon at the
cube value) by its probability, and the live-cube MWC interpolates between the
doubled side's drop value and its win value at its match take point, as for money;
the result is ``x·live + (1 − x)·dead``. The table's take points are dead-cube ones;
:func:`live_take_point` turns them into live, gammon-aware ones level by level (the
taker's later redouble is worth something only while a win at the doubled cube does not
end its match; the position's gammon shares weigh the values of taking), which gives
money's 20% at long even scores; a cube that already covers both away scores is dead.
Decisions compare MWCs; the report converts them to equities at the current cube with
:meth:`MatchEquityTable.mwc_to_equity`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from backgammon.engine.met import MatchEquityTable
from backgammon.rules.position import Position

__all__ = [
    "CubeAction",
    "CubeDecision",
    "CubeOwner",
    "classify_cube_decision",
    "cube_efficiency",
    "live_take_point",
    "match_cube_decision",
    "match_cubeful_mwc",
    "match_no_double_mwc",
    "match_no_double_mwcs",
    "money_cube_decision",
    "money_cubeful_equity",
    "money_cubeful_value",
    "money_no_double_equities",
    "race_cube_efficiency",
]

CONTACT_EFFICIENCY = 0.68
"""GNU Backgammon's cube efficiency for contact and crashed positions."""


def race_cube_efficiency(pips: int) -> float:
    """GNU Backgammon's race cube efficiency: 0.6 at 40 pips rising linearly to 0.7 at
    120 pips (clamped), for the side on roll's pip count."""
    return min(0.7, max(0.6, 0.6 + (pips - 40) * 0.1 / 80))


def cube_efficiency(position: Position) -> float:
    """The cube efficiency of ``position`` for the side on roll: the race figure for
    its pip count in a race, :data:`CONTACT_EFFICIENCY` otherwise."""
    if position.is_race():
        return race_cube_efficiency(position.pip_counts()[0])
    return CONTACT_EFFICIENCY


class CubeOwner(Enum):
    """Who holds the cube, seen from the side on roll."""

    CENTRED = "centred"
    PLAYER = "player"
    OPPONENT = "opponent"

    @classmethod
    def seen_by(cls, owner: int | None, player: int) -> CubeOwner:
        """Who holds the cube as ``player`` sees it, from the rules' owner (a player's
        index, ``None`` while the cube is centred)."""
        if owner is None:
            return cls.CENTRED
        return cls.PLAYER if owner == player else cls.OPPONENT


class CubeAction(Enum):
    """The right cube action for the side on roll and its opponent's answer, named as
    GNU Backgammon and eXtreme Gammon name them.

    "Too good" is playing on for more than a cashed double is worth; the answer says
    what the opponent should do if doubled all the same. An "optional" double is one
    that neither gains nor loses (doubling and not doubling are worth the same, as
    with a cube that is dead for the doubler).
    """

    NO_DOUBLE = "no double"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    TOO_GOOD = "too good to double, pass"
    TOO_GOOD_TAKE = "too good to double, take"
    OPTIONAL_DOUBLE_TAKE = "optional double, take"
    OPTIONAL_DOUBLE_PASS = "optional double, pass"
    DOUBLE_BEAVER = "double, beaver"
    NO_DOUBLE_BEAVER = "no double, beaver"


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """Cubeful equities of the three choices, for the side on roll, per unit of the
    current cube, and the resulting actions.

    Attributes:
        no_double: equity if it does not double.
        double_take: equity if it doubles and the opponent takes.
        double_pass: equity if it doubles and the opponent passes (+1 in money).
        action: the right action (with the opponent's right answer).
        take: whether the opponent should take a double.
        beaver: whether the opponent should beaver (only when beavers are allowed).
    """

    no_double: float
    double_take: float
    double_pass: float
    action: CubeAction
    take: bool
    beaver: bool = False

    @property
    def should_double(self) -> bool:
        """Whether the side on roll should double now (an optional double counts:
        doubling loses nothing)."""
        return self.action in (
            CubeAction.DOUBLE_TAKE,
            CubeAction.DOUBLE_PASS,
            CubeAction.DOUBLE_BEAVER,
            CubeAction.OPTIONAL_DOUBLE_TAKE,
            CubeAction.OPTIONAL_DOUBLE_PASS,
        )

    @property
    def best_equity(self) -> float:
        """The equity of the right action."""
        if not self.should_double:
            return self.no_double
        return min(self.double_take, self.double_pass)


def _values(probabilities: Sequence[float]) -> tuple[float, float, float]:
    """``(p, W, L)`` from the five cubeless probabilities."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = probabilities
    lose = 1.0 - win
    average_win = 1.0 + (win_gammon + win_backgammon) / win if win > 1e-9 else 1.0
    average_loss = 1.0 + (lose_gammon + lose_backgammon) / lose if lose > 1e-9 else 1.0
    return win, average_win, average_loss


def _live_equity(p: float, w: float, l_: float, owner: CubeOwner) -> float:
    """Janowski's live-cube equity at cube 1 for the side on roll."""
    take = (l_ - 0.5) / (w + l_ + 0.5)
    cash = (l_ + 1.0) / (w + l_ + 0.5)
    if owner is CubeOwner.CENTRED:
        if p <= take:
            return -l_ + (l_ - 1.0) * p / take if take > 0 else -1.0
        if p >= cash:
            return 1.0 + (w - 1.0) * (p - cash) / (1.0 - cash) if cash < 1 else 1.0
        return -1.0 + 2.0 * (p - take) / (cash - take)
    if owner is CubeOwner.PLAYER:
        if p >= cash:
            return 1.0 + (w - 1.0) * (p - cash) / (1.0 - cash) if cash < 1 else 1.0
        return -l_ + (l_ + 1.0) * p / cash
    # The opponent owns the cube.
    if p <= take:
        return -l_ + (l_ - 1.0) * p / take if take > 0 else -1.0
    return -1.0 + (w + 1.0) * (p - take) / (1.0 - take)


def money_cubeful_equity(
    probabilities: Sequence[float],
    owner: CubeOwner = CubeOwner.CENTRED,
    efficiency: float = CONTACT_EFFICIENCY,
    *,
    jacoby: bool = False,
) -> float:
    """The cubeful money equity (per unit of cube) of the side on roll, before it
    decides on the cube: ``x·live + (1 − x)·dead``.

    With ``jacoby`` and a centred cube, gammons count single in the dead part (and the
    live part), as the Jacoby rule scores them.
    """
    p, w, l_ = _values(probabilities)
    if jacoby and owner is CubeOwner.CENTRED:
        w = l_ = 1.0
    dead = p * w - (1.0 - p) * l_
    return efficiency * _live_equity(p, w, l_, owner) + (1.0 - efficiency) * dead


def money_cube_decision(
    probabilities: Sequence[float],
    owner: CubeOwner = CubeOwner.CENTRED,
    efficiency: float = CONTACT_EFFICIENCY,
    *,
    jacoby: bool = False,
    beavers: bool = False,
) -> CubeDecision:
    """The money cube decision for the side on roll from its cubeless probabilities.

    Args:
        probabilities: win, win gammon, win backgammon, lose gammon, lose backgammon
            (gammons include backgammons), for the side on roll before it rolls.
        owner: who holds the cube (the side on roll may double only when it is
            centred or its own).
        efficiency: the cube efficiency ``x`` (see :func:`race_cube_efficiency`).
        jacoby: the Jacoby rule is in force (only matters while the cube is centred).
        beavers: beavers are allowed.

    Raises:
        ValueError: if the side on roll does not have access to the cube.
    """
    if owner is CubeOwner.OPPONENT:
        raise ValueError("the side on roll cannot double: the opponent owns the cube")
    no_double = money_cubeful_equity(probabilities, owner, efficiency, jacoby=jacoby)
    # After a double the opponent owns a cube twice as big (and the Jacoby rule no
    # longer applies, as the cube has been turned).
    double_take = 2.0 * money_cubeful_equity(probabilities, CubeOwner.OPPONENT, efficiency)
    return classify_cube_decision(no_double, double_take, 1.0, beavers=beavers)


def money_cubeful_value(
    probabilities: Sequence[float],
    owner: CubeOwner = CubeOwner.CENTRED,
    efficiency: float = CONTACT_EFFICIENCY,
    *,
    jacoby: bool = False,
    cube_alive: bool = True,
) -> float:
    """The cubeful money equity (per unit of cube) of the side on roll before it rolls,
    when it takes the right cube action: "no double", or the smaller of "double, take"
    and "double, pass" when doubling is right; "no double" when the opponent owns the
    cube. With ``cube_alive`` false (nobody may turn the cube in this game) it is the
    cubeless equity.

    This is what a position is worth to the side about to roll; a checker play is
    worth minus this value of the position it leaves to the opponent.
    """
    if not cube_alive:
        return money_cubeful_equity(probabilities, owner, 0.0, jacoby=jacoby)
    if owner is CubeOwner.OPPONENT:
        return money_cubeful_equity(probabilities, owner, efficiency, jacoby=jacoby)
    return money_cube_decision(probabilities, owner, efficiency, jacoby=jacoby).best_equity


OPTIONAL_MARGIN = 1e-5
"""Doubling is "optional" when it changes the equity by no more than this."""


def classify_cube_decision(
    no_double: float, double_take: float, double_pass: float, *, beavers: bool = False
) -> CubeDecision:
    """The cube action from the three cubeful equities of the side on roll.

    The opponent takes when "double, take" is at most "double, pass", and beavers (if
    allowed) when taking is worth more to it than nothing (``double_take < 0``). The
    side on roll doubles when the answer's equity, ``min(double_take,
    double_pass)``, is at least "no double": an *optional* double when the two are
    within :data:`OPTIONAL_MARGIN`. Otherwise it does not double: "too good" when "no
    double" beats a pass (it plays on for the gammons), with the answer the opponent
    would give ("too good to double, take" or "..., pass"); "no double, beaver" when
    a double would be beavered; "no double" else.
    """
    take = double_take <= double_pass
    beaver = beavers and take and double_take < 0.0
    doubled = min(double_take, double_pass)
    if doubled >= no_double:
        optional = doubled - no_double <= OPTIONAL_MARGIN
        if beaver:
            action = CubeAction.DOUBLE_BEAVER
        elif take:
            action = CubeAction.OPTIONAL_DOUBLE_TAKE if optional else CubeAction.DOUBLE_TAKE
        else:
            action = CubeAction.OPTIONAL_DOUBLE_PASS if optional else CubeAction.DOUBLE_PASS
    elif no_double > double_pass:
        action = CubeAction.TOO_GOOD_TAKE if take else CubeAction.TOO_GOOD
    else:
        action = CubeAction.NO_DOUBLE_BEAVER if beaver else CubeAction.NO_DOUBLE
    return CubeDecision(no_double, double_take, double_pass, action, take, beaver)


def _interpolate(p: float, points: Sequence[tuple[float, float]]) -> float:
    """Piecewise-linear value at ``p`` through ``(p, value)`` points sorted by ``p``."""
    for (p0, v0), (p1, v1) in itertools.pairwise(points):
        if p <= p1:
            if p1 - p0 < 1e-12:
                return v1
            return v0 + (v1 - v0) * (p - p0) / (p1 - p0)
    return points[-1][1]


def live_take_point(
    met: MatchEquityTable,
    away_self: int,
    away_opponent: int,
    cube: int,
    gammons: tuple[float, float] = (0.0, 0.0),
) -> float:
    """The doubled side's take point with a live cube, when doubled from ``cube`` to
    ``2 * cube`` at these away scores; ``gammons`` are the shares of the taker's wins
    and of its losses that are gammons (backgammons counted as gammons).

    Taking plays for ``2 * cube``: losing is worth the gammon-weighted average ``L`` of
    losing 2 or 4 cubes. If a win at ``2 * cube`` does not end the taker's match, it
    owns a useful cube: it redoubles the doubler out at its cash point ``c = 1 - (the
    doubler's live take point at 2 * cube)``, where it collects ``W = MWC(win 2 *
    cube)``; its match winning chance when taking is linear from ``L`` (at 0) to ``W``
    (at ``c``), so the take point is ``(drop - L) / (W - L) · c``. With a dead cube, ``W``
    is the gammon-weighted win and ``c = 1``. Without gammons and at long even scores
    this gives money's 20% against the dead 25%.
    """
    gain, loss = gammons
    doubled = 2 * cube

    def after(points: int) -> float:
        return met.after_game(away_self, away_opponent, points)

    drop = after(-cube)
    lose = (1.0 - loss) * after(-doubled) + loss * after(-2 * doubled)
    if away_self <= doubled:
        # A win at the doubled cube ends the taker's match: the cube is of no use to it.
        win = (1.0 - gain) * after(doubled) + gain * after(2 * doubled)
        cash = 1.0
    else:
        win = after(doubled)
        cash = 1.0 - live_take_point(met, away_opponent, away_self, doubled, (loss, gain))
    if win <= lose:
        return 0.0
    return min(1.0, max(0.0, (drop - lose) / (win - lose) * cash))


def match_no_double_mwc(
    probabilities: Sequence[float],
    met: MatchEquityTable,
    away: tuple[int, int],
    cube: int,
    owner: CubeOwner,
    efficiency: float,
    cube_alive: bool,
) -> float:
    """Cubeful match winning chance of the side on roll at ``cube`` if it does not
    double now (its value before its cube decision), as ``x·live + (1 − x)·dead``;
    with ``cube_alive`` false the dead-cube value. The cubeful search's leaves."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = probabilities
    me, them = away
    outcomes = (
        (win - win_gammon, cube),
        (win_gammon - win_backgammon, 2 * cube),
        (win_backgammon, 3 * cube),
        (1.0 - win - lose_gammon, -cube),
        (lose_gammon - lose_backgammon, -2 * cube),
        (lose_backgammon, -3 * cube),
    )
    values = [(chance, met.after_game(me, them, points)) for chance, points in outcomes]
    dead = sum(chance * value for chance, value in values)
    if not cube_alive or efficiency <= 0.0:
        return dead
    won = sum(chance * value for chance, value in values[:3])
    lost = sum(chance * value for chance, value in values[3:])
    win_value = won / win if win > 1e-9 else met.after_game(me, them, cube)
    lose_value = lost / (1.0 - win) if win < 1 - 1e-9 else met.after_game(me, them, -cube)
    we_cash = met.after_game(me, them, cube)
    they_cash = met.after_game(me, them, -cube)
    gammon_win = (win_gammon / win) if win > 1e-9 else 0.0
    gammon_loss = (lose_gammon / (1.0 - win)) if win < 1 - 1e-9 else 0.0
    take = live_take_point(met, me, them, cube, (gammon_win, gammon_loss))  # if doubled
    cash = 1.0 - live_take_point(met, them, me, cube, (gammon_loss, gammon_win))
    if owner is CubeOwner.CENTRED:
        points = [(0.0, lose_value), (take, they_cash), (cash, we_cash), (1.0, win_value)]
    elif owner is CubeOwner.PLAYER:
        points = [(0.0, lose_value), (cash, we_cash), (1.0, win_value)]
    else:
        points = [(0.0, lose_value), (take, they_cash), (1.0, win_value)]
    live = _interpolate(win, points)
    return efficiency * live + (1.0 - efficiency) * dead


def _match_choices(
    probabilities: Sequence[float],
    met: MatchEquityTable,
    away: tuple[int, int],
    cube: int,
    owner: CubeOwner,
    efficiency: float,
) -> tuple[float, float, float]:
    """The match winning chances of "no double", "double, take" and "double, pass" for
    the side on roll, which has access to the cube."""
    me, them = away
    # A cube that already covers both away scores is dead: nobody can redouble usefully.
    no_double = match_no_double_mwc(
        probabilities, met, away, cube, owner, efficiency, cube < max(me, them)
    )
    double_take = match_no_double_mwc(
        probabilities, met, away, 2 * cube, CubeOwner.OPPONENT, efficiency, 2 * cube < max(me, them)
    )
    return no_double, double_take, met.after_game(me, them, cube)


def match_cube_decision(
    probabilities: Sequence[float],
    met: MatchEquityTable,
    away: tuple[int, int],
    *,
    cube: int = 1,
    owner: CubeOwner = CubeOwner.CENTRED,
    efficiency: float = CONTACT_EFFICIENCY,
    crawford: bool = False,
) -> CubeDecision:
    """The match cube decision for the side on roll, ``away = (its away score, the
    opponent's)``, from cubeless probabilities and a match equity table.

    The equities reported are the match winning chances converted to equity at the
    current cube (``met.mwc_to_equity``), so that "double, pass" is +1 as in money.

    Raises:
        ValueError: if the side on roll cannot double (the opponent owns the cube, or
            this is the Crawford game), or the scores are outside the table.
    """
    if owner is CubeOwner.OPPONENT:
        raise ValueError("the side on roll cannot double: the opponent owns the cube")
    if crawford:
        raise ValueError("no doubling in the Crawford game")
    me, them = away
    no_double, double_take, double_pass = _match_choices(
        probabilities, met, away, cube, owner, efficiency
    )
    decision = classify_cube_decision(no_double, double_take, double_pass)

    def equity(mwc: float) -> float:
        return met.mwc_to_equity(mwc, me, them, cube)

    return dataclasses.replace(
        decision,
        no_double=equity(no_double),
        double_take=equity(double_take),
        double_pass=equity(double_pass),
    )


def match_cubeful_mwc(
    probabilities: Sequence[float],
    met: MatchEquityTable,
    away: tuple[int, int],
    *,
    cube: int = 1,
    owner: CubeOwner = CubeOwner.CENTRED,
    efficiency: float = CONTACT_EFFICIENCY,
    cube_alive: bool = True,
) -> float:
    """The cubeful match winning chance of the side on roll before it rolls, ``away =
    (its away score, the opponent's)``, when it takes the right cube action (the match
    counterpart of :func:`money_cubeful_value`). When the opponent owns the cube, or
    the cube already covers the side's away score, it is the "no double" value; with
    ``cube_alive`` false (the Crawford game: nobody may double) the dead-cube value.

    Raises:
        ValueError: if the scores are outside the table.
    """
    me, them = away
    if not cube_alive:
        return match_no_double_mwc(probabilities, met, away, cube, owner, efficiency, False)
    if owner is CubeOwner.OPPONENT or cube >= me:
        return match_no_double_mwc(
            probabilities, met, away, cube, owner, efficiency, cube < max(me, them)
        )
    choices = _match_choices(probabilities, met, away, cube, owner, efficiency)
    return classify_cube_decision(*choices).best_equity


# -- many positions at once (the cubeful search's leaves) -----------------------------------

_FloatArray = npt.NDArray[np.float64]


def _values_array(probabilities: _FloatArray) -> tuple[_FloatArray, _FloatArray, _FloatArray]:
    """:func:`_values` for rows of five probabilities."""
    win = probabilities[:, 0]
    lose = 1.0 - win
    gammons = probabilities[:, 1] + probabilities[:, 2]
    losses = probabilities[:, 3] + probabilities[:, 4]
    with np.errstate(divide="ignore", invalid="ignore"):
        average_win = np.where(win > 1e-9, 1.0 + gammons / win, 1.0)
        average_loss = np.where(lose > 1e-9, 1.0 + losses / lose, 1.0)
    return win, average_win, average_loss


def _live_equities(
    p: _FloatArray, w: _FloatArray, l_: _FloatArray, owner: CubeOwner
) -> _FloatArray:
    """:func:`_live_equity` for arrays."""
    with np.errstate(divide="ignore", invalid="ignore"):
        take = (l_ - 0.5) / (w + l_ + 0.5)
        cash = (l_ + 1.0) / (w + l_ + 0.5)
        low = np.where(take > 0, -l_ + (l_ - 1.0) * p / take, -1.0)
        high = np.where(cash < 1, 1.0 + (w - 1.0) * (p - cash) / (1.0 - cash), 1.0)
        if owner is CubeOwner.CENTRED:
            middle = -1.0 + 2.0 * (p - take) / (cash - take)
            return np.where(p <= take, low, np.where(p >= cash, high, middle))
        if owner is CubeOwner.PLAYER:
            return np.where(p >= cash, high, -l_ + (l_ + 1.0) * p / cash)
        return np.where(p <= take, low, -1.0 + (w + 1.0) * (p - take) / (1.0 - take))


def money_no_double_equities(
    probabilities: npt.ArrayLike,
    owner: CubeOwner,
    efficiency: npt.ArrayLike,
    *,
    jacoby: bool = False,
) -> _FloatArray:
    """:func:`money_cubeful_equity` for many positions at once: rows of five
    probabilities and each row's cube efficiency (equal to the scalar function's
    results)."""
    rows = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
    x = np.broadcast_to(np.asarray(efficiency, dtype=np.float64), rows.shape[:1])
    p, w, l_ = _values_array(rows)
    if jacoby and owner is CubeOwner.CENTRED:
        w = l_ = np.ones_like(p)
    dead = p * w - (1.0 - p) * l_
    result: _FloatArray = x * _live_equities(p, w, l_, owner) + (1.0 - x) * dead
    return result


def _live_take_points(
    met: MatchEquityTable,
    away_self: int,
    away_opponent: int,
    cube: int,
    gain: _FloatArray,
    loss: _FloatArray,
) -> _FloatArray:
    """:func:`live_take_point` for arrays of gammon shares."""
    doubled = 2 * cube

    def after(points: int) -> float:
        return met.after_game(away_self, away_opponent, points)

    drop = after(-cube)
    lose = (1.0 - loss) * after(-doubled) + loss * after(-2 * doubled)
    if away_self <= doubled:
        win = (1.0 - gain) * after(doubled) + gain * after(2 * doubled)
        cash: _FloatArray | float = 1.0
    else:
        win = np.full_like(gain, after(doubled))
        cash = 1.0 - _live_take_points(met, away_opponent, away_self, doubled, loss, gain)
    with np.errstate(divide="ignore", invalid="ignore"):
        point = np.clip((drop - lose) / (win - lose) * cash, 0.0, 1.0)
    result: _FloatArray = np.where(win <= lose, 0.0, point)
    return result


def _interpolate_rows(
    p: _FloatArray, points: Sequence[tuple[_FloatArray, _FloatArray]]
) -> _FloatArray:
    """:func:`_interpolate` row by row (the same segments, in the same order)."""
    result = np.asarray(points[-1][1], dtype=np.float64).copy()
    done = np.zeros(p.shape, dtype=np.bool_)
    for (p0, v0), (p1, v1) in itertools.pairwise(points):
        here = ~done & (p <= p1)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(p1 - p0 < 1e-12, v1, v0 + (v1 - v0) * (p - p0) / (p1 - p0))
        result = np.where(here, value, result)
        done |= here
    return result


def match_no_double_mwcs(
    probabilities: npt.ArrayLike,
    met: MatchEquityTable,
    away: tuple[int, int],
    cube: int,
    owner: CubeOwner,
    efficiency: npt.ArrayLike,
    cube_alive: bool,
) -> _FloatArray:
    """:func:`match_no_double_mwc` for many positions at once: rows of five
    probabilities and each row's cube efficiency (equal to the scalar function's
    results)."""
    rows = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
    x = np.broadcast_to(np.asarray(efficiency, dtype=np.float64), rows.shape[:1])
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = rows.T
    me, them = away
    chances = np.stack(
        (
            win - win_gammon,
            win_gammon - win_backgammon,
            win_backgammon,
            1.0 - win - lose_gammon,
            lose_gammon - lose_backgammon,
            lose_backgammon,
        ),
        axis=1,
    )
    values = np.array([met.after_game(me, them, k * cube) for k in (1, 2, 3, -1, -2, -3)])
    dead: _FloatArray = chances @ values
    if not cube_alive:
        return dead
    won = chances[:, :3] @ values[:3]
    lost = chances[:, 3:] @ values[3:]
    we_cash = met.after_game(me, them, cube)
    they_cash = met.after_game(me, them, -cube)
    with np.errstate(divide="ignore", invalid="ignore"):
        win_value = np.where(win > 1e-9, won / win, we_cash)
        lose_value = np.where(win < 1 - 1e-9, lost / (1.0 - win), they_cash)
        gammon_win = np.where(win > 1e-9, win_gammon / win, 0.0)
        gammon_loss = np.where(win < 1 - 1e-9, lose_gammon / (1.0 - win), 0.0)
    take = _live_take_points(met, me, them, cube, gammon_win, gammon_loss)
    cash = 1.0 - _live_take_points(met, them, me, cube, gammon_loss, gammon_win)
    zero, one = np.zeros_like(win), np.ones_like(win)
    we = np.full_like(win, we_cash)
    they = np.full_like(win, they_cash)
    if owner is CubeOwner.CENTRED:
        points = [(zero, lose_value), (take, they), (cash, we), (one, win_value)]
    elif owner is CubeOwner.PLAYER:
        points = [(zero, lose_value), (cash, we), (one, win_value)]
    else:
        points = [(zero, lose_value), (take, they), (one, win_value)]
    live = _interpolate_rows(win, points)
    if not np.all(x > 0.0):
        live = np.where(x > 0.0, live, dead)
    result: _FloatArray = x * live + (1.0 - x) * dead
    return result
