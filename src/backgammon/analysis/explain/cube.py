"""Explain a cube decision in the same terms as plays: the chances, the gammons, the
take point, the doubling window and the market.

* **Take point**: passing costs one point; taking risks one more (losing two) to gain
  three (winning two instead of losing one): odds of three to one, so without gammons
  the taker needs 25% of the games. With gammons (``gt``, ``gd``: the extra points per
  game won by the taker and by the doubler, gammons and backgammons) the dead-cube take
  point is ``(0.5 + gd) / (2 + gt + gd)`` (owning the cube lowers it). It is a money
  figure; at a match score the analysis's own equities decide.
* **Window**: the doubler doubles from the point where it would lose its market (its
  good rolls would turn the position into a pass) up to the taker's take point; past
  that it is too good to take, and with enough gammons too good to double.
* **Market**: a first version over one roll: the doubler's rolls of 36 after which its
  best play at 0-ply leaves the taker below its take point (*market losers*).

:data:`CUBE_THEME_IDS` lists the themes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from backgammon.analysis.explain.plans import plans_of
from backgammon.analysis.explain.rolls import ROLLS
from backgammon.rules.position import Position

if TYPE_CHECKING:
    from backgammon.analysis.results import CubeAnalysis
    from backgammon.engine.evaluator import Engine

__all__ = [
    "CUBE_THEME_IDS",
    "CubeExplanation",
    "explain_cube",
    "explain_cube_action",
    "market_losers",
    "take_point",
]

CUBE_THEME_IDS = ("chances", "gammons", "take-point", "market")
"""The themes of a cube explanation."""

THREE_TO_ONE = 0.25
"""The take point without gammons: one game in four."""


def _extra(wins: float, gammons: float, backgammons: float) -> float:
    """Extra points per game won: gammons and backgammons over the wins."""
    return (gammons + backgammons) / wins if wins > 0 else 0.0


def take_point(probabilities: Sequence[float]) -> float:
    """The taker's dead-cube money take point (a chance to win) for the doubler's five
    cubeless ``probabilities``."""
    win, wg, wbg, lg, lbg = probabilities
    doubler = _extra(win, wg, wbg)
    taker = _extra(1 - win, lg, lbg)
    return (0.5 + doubler) / (2 + taker + doubler)


def market_losers(engine: Engine, position: Position) -> int:
    """The doubler's rolls of 36 after which its best play (0-ply) leaves the taker,
    on roll, below its take point."""
    lost = 0
    for roll, ways in ROLLS:
        after = engine.best_play(position, roll).position
        taker = engine.evaluate(after.flip())
        doubler = taker.flip().probabilities
        if taker.win < take_point(doubler):
            lost += ways
    return lost


@dataclass(frozen=True, slots=True)
class CubeExplanation:
    """Why a cube action is right.

    Attributes:
        position_id: the position before the roll, from the doubler.
        action: the right cube action (the analysis's ``cube_action``).
        plans: both sides' plans, the doubler's first.
        win, win_gammon, lose_gammon: the doubler's cubeless chances.
        take_point: the taker's gammon-adjusted take point (money, dead cube).
        market: market losers of 36 (``None`` when not measured).
        says: one sentence per theme of :data:`CUBE_THEME_IDS` (``market`` only when
            measured).
        text: the whole explanation.
    """

    position_id: str
    action: str
    plans: tuple[str, str]
    win: float
    win_gammon: float
    lose_gammon: float
    take_point: float
    market: int | None
    says: tuple[tuple[str, str], ...]
    text: str

    def as_json(self) -> dict[str, object]:
        """``{"kind": "cube", "position_id", "action", "plans": {"before": {...}},
        "chances": {...}, "take_point", "market", "themes": [{"id", "says"}], "text"}``."""
        return {
            "kind": "cube",
            "position_id": self.position_id,
            "action": self.action,
            "plans": {"before": {"player": self.plans[0], "opponent": self.plans[1]}},
            "chances": {
                "win": round(self.win, 4),
                "win_gammon": round(self.win_gammon, 4),
                "lose_gammon": round(self.lose_gammon, 4),
            },
            "take_point": round(self.take_point, 4),
            "market": self.market,
            "themes": [{"id": theme, "says": says} for theme, says in self.says],
            "text": self.text,
        }


def _pct(value: float) -> str:
    return f"{100 * value:.0f}%"


def _take_sentence(taker: float, point: float) -> str:
    verdict = "enough to take" if taker >= point else "not enough to take"
    if abs(point - THREE_TO_ONE) < 0.03:
        return (
            f"The taker wins {_pct(taker)}: passing costs 1 point, taking risks 1 more to "
            f"gain 3, three-to-one, so it needs 25% ({_pct(point)} with the gammons): "
            f"{verdict}."
        )
    return (
        f"The taker wins {_pct(taker)}; the gammons move its take point from 25% "
        f"(three-to-one) to {_pct(point)}: {verdict}."
    )


def _window_sentence(action: str, win: float, point: float) -> str:
    top = 1 - point
    if action.startswith("too good"):
        return (
            f"At {_pct(win)} with these gammons the doubler is past the window: too good to double."
        )
    if "double" in action and not action.startswith("no double"):
        return (
            f"At {_pct(win)} the doubler is in the doubling window (below {_pct(top)}, "
            "where the taker's take point ends it)."
        )
    return f"At {_pct(win)} the doubler is not yet in the doubling window: no double."


def explain_cube(decision: CubeAnalysis, engine: Engine | None = None) -> CubeExplanation:
    """Explain an analysed cube decision; with ``engine`` the market is measured too."""
    return explain_cube_action(
        decision.position_id, decision.probabilities, decision.cube_action, engine
    )


def explain_cube_action(
    position_id: str,
    probabilities: Sequence[float],
    cube_action: str,
    engine: Engine | None = None,
) -> CubeExplanation:
    """Explain ``cube_action`` (as :class:`~backgammon.engine.cube.CubeAction` names it)
    for the side on roll in ``position_id``, with its five cubeless ``probabilities``
    (what ``backgammon cube`` computes); with ``engine`` the market is measured too."""
    position = Position.from_position_id(position_id)
    win, wg, _, lg, _ = probabilities
    point = take_point(probabilities)
    says = [
        ("chances", f"The doubler wins {_pct(win)} of the games, the taker {_pct(1 - win)}."),
        (
            "gammons",
            f"The doubler wins a gammon {_pct(wg)} of the time and loses one {_pct(lg)}.",
        ),
        ("take-point", _take_sentence(1 - win, point)),
    ]
    market = None if engine is None else market_losers(engine, position)
    if market is not None:
        says.append(("market", f"{market} of the doubler's 36 rolls would lose its market."))
    window = _window_sentence(cube_action, win, point)
    text = f"Right: {cube_action}. {window} " + " ".join(s for _, s in says[2:])
    return CubeExplanation(
        position_id,
        cube_action,
        plans_of(position),
        win,
        wg,
        lg,
        point,
        market,
        tuple(says),
        text,
    )
