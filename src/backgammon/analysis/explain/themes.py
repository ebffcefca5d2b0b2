"""The themes that separate two plays: each measured on both results, a test of
whether the difference is real, and a sentence that says it.

:data:`THEME_IDS` lists every theme, in the order an explanation gives them: ``shots``
(:mod:`.shots`), ``points`` (:mod:`.points`), ``builders`` (:mod:`.builders`),
``escape`` (:mod:`.escape`), ``duplication`` (:mod:`.duplication`), ``race``
(:mod:`.race`), ``gammons`` (:mod:`.gammons`). The thresholds of a real difference are
in :data:`THRESHOLDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from backgammon.analysis.explain import text
from backgammon.analysis.explain.builders import Builders, builders_of
from backgammon.analysis.explain.duplication import duplication_of
from backgammon.analysis.explain.escape import escape_of
from backgammon.analysis.explain.gammons import gammons_of
from backgammon.analysis.explain.points import Points, points_of
from backgammon.analysis.explain.race import race_of
from backgammon.analysis.explain.shots import count_shots
from backgammon.rules.position import Position

__all__ = ["THEME_IDS", "THRESHOLDS", "Measure", "Result", "Theme", "compare"]

THEME_IDS = ("shots", "points", "builders", "escape", "duplication", "race", "gammons")
"""Every theme id, in the order an explanation lists them. Outside checks use these
names: keep them."""

THRESHOLDS: dict[str, float] = {
    "shots": 2,  # rolls of 36, hitting rolls or direct shots
    "builders": 2,  # builders, or 6 rolls of 36 to make one point
    "escape": 3,  # rolls of 36, either side's
    "duplication": 3,  # the opponent's good rolls of 36
    "race": 1,  # pips
    "gammons": 0.02,  # chance of a gammon won or lost
}
"""The smallest difference each theme counts as real (``points``: any point made,
broken or held differently, or another prime length)."""


class Measure(Protocol):
    """What a theme measures on one play's result: a frozen value with a JSON form."""

    def as_json(self) -> dict[str, object]: ...


@dataclass(frozen=True, slots=True)
class Result:
    """One play and what it leads to.

    Attributes:
        play: the play's notation.
        before: the position before it, from the mover.
        after: the position it leaves, from the mover.
        probabilities: the mover's five cubeless probabilities after it.
    """

    play: str
    before: Position
    after: Position
    probabilities: tuple[float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Theme:
    """One theme measured on both plays.

    Attributes:
        id: one of :data:`THEME_IDS`.
        played: its measure on the play made.
        best: its measure on the other (best) play.
        says: a sentence in the game's vocabulary.
        favours: which play the measure favours, ``"best"``, ``"played"`` or
            ``"neither"``.
        weight: how much the difference weighs, on a rough common scale (1: a large
            difference), to order the explanation's sentences.
    """

    id: str
    played: Any
    best: Any
    says: str
    favours: str = "neither"
    weight: float = 0.0

    def as_json(self) -> dict[str, object]:
        """``{"id", "played", "best", "says"}``."""
        return {
            "id": self.id,
            "played": self.played.as_json(),
            "best": self.best.as_json(),
            "says": self.says,
            "favours": self.favours,
        }


def _apart(a: float, b: float, theme: str) -> bool:
    return abs(a - b) >= THRESHOLDS[theme]


def _shots_differ(a: Any, b: Any) -> bool:
    return _apart(a.hitting_rolls, b.hitting_rolls, "shots") or _apart(a.direct, b.direct, "shots")


def _points_differ(a: Any, b: Any) -> bool:
    keys = ("made", "broken", "anchors", "prime", "home_points")
    return any(getattr(a, key) != getattr(b, key) for key in keys)


def _builders_differ(a: Any, b: Any) -> bool:
    if _apart(a.builders, b.builders, "builders"):
        return True
    rolls_a = {target.point: target.rolls for target in a.targets}
    rolls_b = {target.point: target.rolls for target in b.targets}
    return any(
        abs(rolls_a.get(point, 0) - rolls_b.get(point, 0)) >= 3 * THRESHOLDS["builders"]
        for point in rolls_a.keys() | rolls_b.keys()
    )


def _escape_differ(a: Any, b: Any) -> bool:
    return _apart(a.player.rolls, b.player.rolls, "escape") or _apart(
        a.opponent.rolls, b.opponent.rolls, "escape"
    )


def _gammons_differ(a: Any, b: Any) -> bool:
    return _apart(a.win_gammon, b.win_gammon, "gammons") or _apart(
        a.lose_gammon, b.lose_gammon, "gammons"
    )


def _points_gain(points: Points) -> float:
    return (
        2 * points.home_points
        + points.prime
        + 2 * points.five_point
        + points.bar_point
        + len(points.anchors)
    )


def _builders_gain(builders: Builders) -> float:
    return builders.builders + max((t.rolls for t in builders.targets), default=0) / 12


_GAINS: dict[str, tuple[Callable[[Any], float], float]] = {
    "shots": (lambda m: -m.hitting_rolls, 36),
    "points": (_points_gain, 4),
    "builders": (_builders_gain, 6),
    "escape": (lambda m: m.player.rolls - m.opponent.rolls, 36),
    "duplication": (lambda m: -m.good_rolls, 36),
    "race": (lambda m: m.lead, 20),
    "gammons": (lambda m: m.win_gammon - m.lose_gammon, 0.1),
}
"""Per theme: what the mover gains from a measure (higher is better, by the books'
rules of thumb: fewer shots, more points, more builders, ...) and its scale."""


def _judge(theme: str, played: Any, best: Any) -> tuple[str, float]:
    gain, scale = _GAINS[theme]
    difference = gain(best) - gain(played)
    favours = "best" if difference > 0 else "played" if difference < 0 else "neither"
    return favours, abs(difference) / scale


@dataclass(frozen=True, slots=True)
class _Spec:
    id: str
    measure: Callable[[Result], Any]
    differs: Callable[[Any, Any], bool]
    say: Callable[[str, Any, str, Any], str]


_SPECS = (
    _Spec("shots", lambda r: count_shots(r.after), _shots_differ, text.say_shots),
    _Spec("points", lambda r: points_of(r.before, r.after), _points_differ, text.say_points),
    _Spec("builders", lambda r: builders_of(r.after), _builders_differ, text.say_builders),
    _Spec("escape", lambda r: escape_of(r.after), _escape_differ, text.say_escape),
    _Spec(
        "duplication",
        lambda r: duplication_of(r.after),
        lambda a, b: _apart(a.good_rolls, b.good_rolls, "duplication"),
        text.say_duplication,
    ),
    _Spec(
        "race",
        lambda r: race_of(r.after),
        lambda a, b: _apart(a.lead, b.lead, "race"),
        text.say_race,
    ),
    _Spec(
        "gammons",
        lambda r: gammons_of(r.probabilities),
        _gammons_differ,
        text.say_gammons,
    ),
)
assert tuple(spec.id for spec in _SPECS) == THEME_IDS


def measure(theme: str, result: Result) -> Measure:
    """Theme ``theme``'s measure of one play's result.

    Raises:
        KeyError: if ``theme`` is not one of :data:`THEME_IDS`.
    """
    spec = next((spec for spec in _SPECS if spec.id == theme), None)
    if spec is None:
        raise KeyError(f"unknown theme {theme!r}; the themes are {', '.join(THEME_IDS)}")
    measured: Measure = spec.measure(result)
    return measured


def compare(played: Result, best: Result, themes: Sequence[str] = THEME_IDS) -> list[Theme]:
    """The themes of ``themes`` (all by default) whose measures differ for real
    between the two plays, each measured on both, in :data:`THEME_IDS` order."""
    found = []
    for spec in _SPECS:
        if spec.id not in themes:
            continue
        mine, other = spec.measure(played), spec.measure(best)
        if spec.differs(mine, other):
            says = spec.say(played.play, mine, best.play, other)
            found.append(Theme(spec.id, mine, other, says, *_judge(spec.id, mine, other)))
    return found
