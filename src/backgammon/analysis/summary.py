"""Per-player statistics of an analysed match, ratings, and the JSON form of an analysis.

Definitions (GNU Backgammon manual, "Analysis" and "Overall rating"; gnubg-src
``analysis.c``; XG's PR at
https://backgammondb.com/manual/match-statistics/performance-rating/):

* **Checker decisions** are the unforced plays (more than one legal play). Forced plays
  and "no move" are not counted.
* **Cube decisions** are GNU Backgammon's "close or actual" ones: every double, take,
  pass and beaver, and each implicit "no double" that is close (the right action's
  equity within 0.16 of ``min(double/take, double/pass)``) or was a missed double.
* **Error rate** = total normalised equity lost ÷ (checker decisions + cube decisions)
  × 1000 (GNU Backgammon's mEMG per decision); the checker and cube error rates divide
  their own losses by their own counts. **PR** = the same mean × 500 (eXtreme Gammon's
  scale, with GNU Backgammon's counting of decisions: not XG's own).
* **Rating**: GNU Backgammon's band of the mean normalised error per decision
  (Supernatural < 0.002, World Class < 0.005, Expert < 0.008, Advanced < 0.012,
  Intermediate < 0.018, Casual < 0.026, Beginner < 0.035, else Awful!).
* **Luck**: the sum of the luck of the player's rolls (normalised equity, see
  :mod:`backgammon.analysis.annotate`); the **luck rate** is its mean per roll, rated
  as GNU Backgammon's manual does (> 0.10 "Cheater :-)", > 0.06 "Go to Las Vegas",
  > 0.03 "Good dice, man!", ±0.03 "None", < −0.03 "Bad dice, man!", < −0.06 "Go to
  bed", < −0.10 "Haaa-haaa").
* **Luck-adjusted result**, in points: the net points won (won − lost) minus the
  player's luck in points plus the opponent's (each roll's luck times the cube value
  when it was rolled), after GNU Backgammon (whose match figures use match winning
  chances instead of points).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from backgammon.analysis.annotate import (
    CheckerAnalysis,
    CubeAnalysis,
    Decision,
    Mark,
    MatchAnalysis,
    PlayOption,
)

__all__ = [
    "LUCK_RATINGS",
    "RATING_BANDS",
    "PlayerSummary",
    "analysis_to_json",
    "decision_to_json",
    "luck_rating",
    "rating",
    "summarize",
]

RATING_BANDS: tuple[tuple[float, str], ...] = (
    (0.002, "Supernatural"),
    (0.005, "World Class"),
    (0.008, "Expert"),
    (0.012, "Advanced"),
    (0.018, "Intermediate"),
    (0.026, "Casual"),
    (0.035, "Beginner"),
)
"""GNU Backgammon's rating bands: (upper bound of the mean normalised error per
decision, name); above the last bound the rating is "Awful!"."""

LUCK_RATINGS: tuple[tuple[float, str], ...] = (
    (-0.10, "Haaa-haaa"),
    (-0.06, "Go to bed"),
    (-0.03, "Bad dice, man!"),
    (0.03, "None"),
    (0.06, "Good dice, man!"),
    (0.10, "Go to Las Vegas"),
)
"""(upper bound of the luck per roll, name); above the last the rating is "Cheater :-)"."""

_MARKS = tuple(mark.value for mark in Mark)
_CUBE_ERRORS = ("missed double", "wrong double", "wrong take", "wrong pass")


def rating(error_per_decision: float) -> str:
    """GNU Backgammon's rating of a mean normalised error per decision.

    >>> rating(0.004), rating(0.02), rating(0.1)
    ('World Class', 'Casual', 'Awful!')
    """
    for bound, name in RATING_BANDS:
        if error_per_decision < bound:
            return name
    return "Awful!"


def luck_rating(luck_per_roll: float) -> str:
    """The luck rating of a mean luck per roll (normalised equity).

    >>> luck_rating(0.0), luck_rating(0.2), luck_rating(-0.07)
    ('None', 'Cheater :-)', 'Go to bed')
    """
    for bound, name in LUCK_RATINGS:
        if luck_per_roll < bound:
            return name
    return "Cheater :-)"


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's statistics (see the module doc for the definitions).

    Equities are normalised (per unit of cube); ``*_error_rate`` are ×1000 (mEMG).
    """

    player: int
    name: str
    checker_decisions: int
    forced_moves: int
    checker_loss: float
    cube_decisions: int
    cube_loss: float
    decisions: int
    equity_loss: float
    mean_error: float
    error_rate: float
    pr: float
    checker_error_rate: float
    cube_error_rate: float
    rating: str
    checker_marks: dict[str, int] = field(default_factory=dict)
    cube_marks: dict[str, int] = field(default_factory=dict)
    marks: dict[str, int] = field(default_factory=dict)
    cube_errors: dict[str, int] = field(default_factory=dict)
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    rolls: int = 0
    luck: float = 0.0
    luck_rate: float = 0.0
    luck_rating: str = "None"
    luck_points: float = 0.0
    points_won: int = 0
    points_lost: int = 0
    result: int = 0
    luck_adjusted_result: float = 0.0

    @property
    def checker_loss_mean(self) -> float:
        """Mean equity lost per unforced checker play."""
        return self.checker_loss / self.checker_decisions if self.checker_decisions else 0.0

    @property
    def cube_loss_mean(self) -> float:
        """Mean equity lost per counted cube decision."""
        return self.cube_loss / self.cube_decisions if self.cube_decisions else 0.0


def _ratio(total: float, count: int) -> float:
    return total / count if count else 0.0


def summarize(analysis: MatchAnalysis) -> tuple[PlayerSummary, PlayerSummary]:
    """Both players' statistics, player 0 first."""
    points = [0, 0]
    for game in analysis.games:
        if game.winner is not None:
            points[game.winner] += game.points
    luck_points = [0.0, 0.0]
    for decision in analysis.decisions:
        if isinstance(decision, CheckerAnalysis):
            luck_points[decision.player] += decision.luck * decision.cube
    summaries = []
    for player in (0, 1):
        mine = [d for d in analysis.decisions if d.player == player]
        plays = [d for d in mine if isinstance(d, CheckerAnalysis)]
        cubes = [d for d in mine if isinstance(d, CubeAnalysis)]
        counted_plays = [d for d in plays if d.counted]
        counted_cubes = [d for d in cubes if d.counted]
        checker_loss = sum(d.equity_loss for d in counted_plays)
        cube_loss = sum(d.equity_loss for d in counted_cubes)
        decisions = len(counted_plays) + len(counted_cubes)
        loss = checker_loss + cube_loss
        mean = _ratio(loss, decisions)
        checker_marks = _count_marks(counted_plays)
        cube_marks = _count_marks(counted_cubes)
        luck = sum(d.luck for d in plays)
        luck_rate = _ratio(luck, len(plays))
        result = points[player] - points[1 - player]
        summaries.append(
            PlayerSummary(
                player=player,
                name=analysis.players[player],
                checker_decisions=len(counted_plays),
                forced_moves=len(plays) - len(counted_plays),
                checker_loss=checker_loss,
                cube_decisions=len(counted_cubes),
                cube_loss=cube_loss,
                decisions=decisions,
                equity_loss=loss,
                mean_error=mean,
                error_rate=1000.0 * mean,
                pr=500.0 * mean,
                checker_error_rate=1000.0 * _ratio(checker_loss, len(counted_plays)),
                cube_error_rate=1000.0 * _ratio(cube_loss, len(counted_cubes)),
                rating=rating(mean),
                checker_marks=checker_marks,
                cube_marks=cube_marks,
                marks={name: checker_marks[name] + cube_marks[name] for name in _MARKS},
                cube_errors={
                    name: sum(1 for d in cubes if d.error == name) for name in _CUBE_ERRORS
                },
                doubles=sum(1 for d in cubes if d.action == "double"),
                takes=sum(1 for d in cubes if d.action in ("take", "beaver")),
                passes=sum(1 for d in cubes if d.action == "pass"),
                rolls=len(plays),
                luck=luck,
                luck_rate=luck_rate,
                luck_rating=luck_rating(luck_rate),
                luck_points=luck_points[player],
                points_won=points[player],
                points_lost=points[1 - player],
                result=result,
                luck_adjusted_result=result - luck_points[player] + luck_points[1 - player],
            )
        )
    return summaries[0], summaries[1]


def summarize_games(
    analysis: MatchAnalysis,
) -> list[tuple[PlayerSummary, PlayerSummary]]:
    """Both players' statistics game by game (GNU Backgammon's game statistics), in the
    order of ``analysis.games``: each as :func:`summarize` gives them for a match of
    that game alone."""
    return [summarize(replace(analysis, games=(game,))) for game in analysis.games]


def _count_marks(decisions: list[CheckerAnalysis] | list[CubeAnalysis]) -> dict[str, int]:
    counts = dict.fromkeys(_MARKS, 0)
    for decision in decisions:
        if decision.mark is not None:
            counts[decision.mark.value] += 1
    return counts


def _round(value: float) -> float:
    return round(value, 6)


def _option_json(option: PlayOption, best: float) -> dict[str, Any]:
    return {
        "play": option.play,
        "equity": _round(option.equity),
        "loss": _round(best - option.equity),
        "probabilities": [_round(p) for p in option.probabilities],
    }


def decision_to_json(decision: Decision) -> dict[str, Any]:
    """One decision as a JSON object (see :func:`analysis_to_json`)."""
    common: dict[str, Any] = {
        "game": decision.game,
        "move_number": decision.move_number,
        "entry": decision.entry,
        "player": decision.player,
        "kind": decision.kind,
        "position_id": decision.position_id,
        "cube": decision.cube,
        "cube_owner": decision.cube_owner,
        "equity_loss": _round(decision.equity_loss),
        "mark": None if decision.mark is None else decision.mark.value,
        "counted": decision.counted,
    }
    if isinstance(decision, CheckerAnalysis):
        best = decision.best.equity
        common.update(
            {
                "roll": f"{decision.roll[0]}-{decision.roll[1]}",
                "opening": decision.opening,
                "play": decision.play,
                "forced": decision.forced,
                "legal_plays": decision.legal_plays,
                "equity": _round(decision.played.equity),
                "best_play": decision.best.play,
                "best_equity": _round(best),
                "best_plays": [_option_json(option, best) for option in decision.options],
                "luck": _round(decision.luck),
                "win": _round(decision.win),
                "equity_before": _round(decision.equity_before),
            }
        )
    else:
        common.update(
            {
                "action": decision.action,
                "doubler": decision.doubler,
                "best_action": decision.best_action,
                "cube_action": decision.cube_action,
                "error": decision.error,
                "close": decision.close,
                "exact": decision.exact,
                "probabilities": [_round(p) for p in decision.probabilities],
                "cubeless_equity": _round(decision.cubeless_equity),
                "equities": {
                    "no_double": _round(decision.no_double),
                    "double_take": _round(decision.double_take),
                    "double_pass": _round(decision.double_pass),
                },
            }
        )
    return common


def _player_json(summary: PlayerSummary) -> dict[str, Any]:
    data = asdict(summary)
    for key, value in data.items():
        if isinstance(value, float):
            data[key] = _round(value)
    data["checker_loss_mean"] = _round(summary.checker_loss_mean)
    data["cube_loss_mean"] = _round(summary.cube_loss_mean)
    return data


def analysis_to_json(analysis: MatchAnalysis) -> dict[str, Any]:
    """The analysis as JSON-ready data.

    Keys: ``match`` (players, length, ply, thresholds, what the equities are and
    their ``source``: exact or estimate, with a note),
    ``players`` (two objects, player 0 first, with ``name``, ``error_rate``, ``pr``,
    ``luck``, ``rating`` and the rest of :class:`PlayerSummary`), ``games`` (number,
    score before, winner, points, and ``players``: the same statistics for that game
    alone) and ``decisions`` (one object per checker play and per
    cube decision, in order: ``game``, ``move_number``, ``player``, ``kind``
    (``"checker"`` or ``"cube"``), ``equity_loss``, ``mark`` (``null`` when none), and
    for plays ``best_plays`` (play, equity, loss, probabilities), for cube decisions
    ``best_action``, ``cube_action`` and the ``equities``).
    """
    settings = analysis.settings
    thresholds = settings.thresholds
    return {
        "match": {
            "players": list(analysis.players),
            "length": analysis.length,
            "ply": settings.ply,
            "met": settings.table.name if analysis.length else None,
            "source": analysis.source.as_json(),
            "equity": (
                f"checker plays and luck: {'cubeful' if settings.cubeful else 'cubeless'} "
                "equity at the score, normalised; cube: Janowski cubeful equities (exact in "
                "money two-sided bear-offs)"
            ),
            "thresholds": {
                "doubtful": thresholds.doubtful,
                "bad": thresholds.bad,
                "very bad": thresholds.very_bad,
            },
        },
        "players": [_player_json(summary) for summary in summarize(analysis)],
        "games": [
            {
                "number": game.number,
                "score_before": list(game.score_before),
                "crawford": game.crawford,
                "winner": game.winner,
                "points": game.points,
                "players": [_player_json(summary) for summary in summaries],
            }
            for game, summaries in zip(analysis.games, summarize_games(analysis), strict=True)
        ],
        "decisions": [decision_to_json(decision) for decision in analysis.decisions],
    }
