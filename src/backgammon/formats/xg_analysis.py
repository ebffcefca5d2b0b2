"""eXtreme Gammon's own analysis, as read from an ``.xg``/``.xgp`` file and kept on the
match record beside ours.

The reader attaches an :class:`XgCheckerAnalysis` to each play and an
:class:`XgCubeAnalysis` to each cube decision XG analysed, in
:attr:`~backgammon.formats.record.RecordEntry.annotations` under the key :data:`XG_KEY`
(a lower-case key, so SGF writers leave it out). ``to_json()`` gives each as JSON-ready
data for reports and the review page.

Probabilities follow the five-output convention, from the side the analysis is about
(the mover for a play, the side that may double for a cube decision): win, win a
gammon, win a backgammon, lose a gammon, lose a backgammon. Equities are XG's, as it
stored them (its cubeful equity, or match winning chances converted to equity).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from backgammon.formats.xg_records import Evaluation, Rollout
from backgammon.rules.play import Play

__all__ = ["XG_KEY", "XgCheckerAnalysis", "XgCubeAnalysis", "XgPlayOption", "level_name"]

XG_KEY = "xg"
"""The annotation key under which XG's analysis is kept on a record entry."""

_LEVELS = {
    -1: "none",
    0: "1-ply",
    1: "2-ply",
    2: "3-ply",
    3: "4-ply",
    4: "5-ply",
    5: "6-ply",
    6: "7-ply",
    12: "3-ply red",
    100: "rollout",
    1000: "XG Roller",
    1001: "XG Roller+",
    1002: "XG Roller++",
    998: "opening book",  # the opening plays of real files: XG's book
}


def level_name(code: int) -> str:
    """XG's name for an analysis level code (its ``PLAYERLEVEL`` table)."""
    return _LEVELS.get(code, f"level {code}")


def probabilities(evaluation: Evaluation) -> tuple[float, float, float, float, float]:
    """XG's 7-number evaluation (lose bg, lose g, lose, win, win g, win bg, equity) as
    the five outputs (win, win g, win bg, lose g, lose bg)."""
    return (evaluation[3], evaluation[4], evaluation[5], evaluation[1], evaluation[0])


def _rollout_json(rollout: Rollout | None) -> dict[str, Any] | None:
    if rollout is None:
        return None
    return {
        "games": rollout.games,
        "probabilities": list(probabilities(rollout.result)),
        "equity": rollout.result[6],
        "confidence": rollout.error,
        "truncated": rollout.truncation if rollout.truncated else None,
        "cubeless": rollout.cubeless,
    }


def best_cube_action(no_double: float, double_take: float, double_drop: float) -> str:
    """The right cube action by the doubler's equities: ``"no double"``, ``"double,
    take"``, ``"double, pass"`` or ``"too good"`` (as XG's and OGXM's analyses state it)."""
    doubled = min(double_take, double_drop)
    if doubled <= no_double:
        return "too good" if double_take > double_drop else "no double"
    return "double, take" if double_take < double_drop else "double, pass"


class CubeEquities(Protocol):
    """A cube analysis's three equities and its best action (XG's or an OGXM file's)."""

    @property
    def no_double(self) -> float: ...
    @property
    def double_take(self) -> float: ...
    @property
    def double_drop(self) -> float: ...
    @property
    def best_action(self) -> str: ...


def cube_equities_json(analysis: CubeEquities) -> dict[str, Any]:
    """The JSON fields every cube analysis shares: ``kind`` ``"cube"``, the three
    equities and the best action."""
    return {
        "kind": "cube",
        "no_double": analysis.no_double,
        "double_take": analysis.double_take,
        "double_drop": analysis.double_drop,
        "best_action": analysis.best_action,
    }


@dataclass(frozen=True, slots=True)
class XgPlayOption:
    """One play XG considered, resolved to the legal play of our rules.

    Attributes:
        play: the legal play.
        equity: XG's equity for it (the mover's).
        probabilities: the five outputs after the play, the mover's.
        level: XG's analysis level (e.g. ``"3-ply"``, ``"XG Roller+"``).
        rollout: the rollout behind it, if XG rolled it out.
    """

    play: Play
    equity: float
    probabilities: tuple[float, float, float, float, float]
    level: str
    rollout: Rollout | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: play (notation), equity, probabilities, level, rollout."""
        return {
            "play": str(self.play),
            "equity": self.equity,
            "probabilities": list(self.probabilities),
            "level": self.level,
            "rollout": _rollout_json(self.rollout),
        }


@dataclass(frozen=True, slots=True)
class XgCheckerAnalysis:
    """XG's analysis of a checker play.

    Attributes:
        options: the plays XG considered, best first.
        played: the index of the play made among ``options`` (``None`` if XG did not
            list it).
        error: the equity the play lost by XG's reckoning (``None``: not analysed).
        luck: the roll's luck by XG's reckoning (``None``: not analysed).
    """

    options: tuple[XgPlayOption, ...]
    played: int | None
    error: float | None
    luck: float | None

    @property
    def best(self) -> XgPlayOption | None:
        """XG's best play, if it listed any."""
        return self.options[0] if self.options else None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: ``kind`` ``"checker"``, options, played, error, luck."""
        return {
            "kind": "checker",
            "options": [option.to_json() for option in self.options],
            "played": self.played,
            "error": self.error,
            "luck": self.luck,
        }


@dataclass(frozen=True, slots=True)
class XgCubeAnalysis:
    """XG's analysis of a cube decision, from the side that may double.

    Attributes:
        no_double, double_take, double_drop: the cubeful equities of each line.
        probabilities: the five outputs without a double.
        level: XG's analysis level.
        double_error: the equity lost by the decision to double or not (``None``:
            not analysed).
        take_error: the equity lost by the opponent's take or drop (``None``: not
            analysed or no double).
        rollout: the rollout behind it, if XG rolled it out.
    """

    no_double: float
    double_take: float
    double_drop: float
    probabilities: tuple[float, float, float, float, float]
    level: str
    double_error: float | None
    take_error: float | None
    rollout: Rollout | None = None

    @property
    def best_action(self) -> str:
        """``"no double"``, ``"double, take"``, ``"double, pass"`` or ``"too good"``,
        by the equities."""
        return best_cube_action(self.no_double, self.double_take, self.double_drop)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: ``kind`` ``"cube"``, the equities, best action, errors."""
        return {
            **cube_equities_json(self),
            "probabilities": list(self.probabilities),
            "level": self.level,
            "double_error": self.double_error,
            "take_error": self.take_error,
            "rollout": _rollout_json(self.rollout),
        }
