"""What an analysis finds, and how it is asked for: the settings
(:class:`AnalysisSettings`, :class:`Thresholds`), each analysed decision
(:class:`CheckerAnalysis` with its :class:`PlayOption` values, :class:`CubeAnalysis`,
their :class:`Mark`), and the analyses of a game and of a match; frozen values, made by
:class:`~backgammon.analysis.analyzer.Analyzer` and
:func:`~backgammon.analysis.annotate.analyze_match`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar, Literal, TypeAlias

from backgammon.engine.evaluator import EvaluationSource
from backgammon.engine.met import MatchEquityTable, kazaross_xg2
from backgammon.rules.position import Position

__all__ = [
    "AnalysisSettings",
    "CheckerAnalysis",
    "CubeAnalysis",
    "Decision",
    "GameAnalysis",
    "Mark",
    "MatchAnalysis",
    "PlayOption",
    "Probabilities",
    "Thresholds",
]

Probabilities: TypeAlias = tuple[float, float, float, float, float]


class Mark(Enum):
    """How bad a decision was (GNU Backgammon's skill marks)."""

    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"

    @property
    def symbol(self) -> str:
        """The annotation symbol: ``?!``, ``?`` or ``??``."""
        return {"doubtful": "?!", "bad": "?", "very bad": "??"}[self.value]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Equity losses (normalised) from which a decision is marked.

    Raises:
        ValueError: unless ``0 < doubtful <= bad <= very_bad``.
    """

    doubtful: float = 0.04
    bad: float = 0.08
    very_bad: float = 0.16

    def __post_init__(self) -> None:
        if not 0.0 < self.doubtful <= self.bad <= self.very_bad:
            raise ValueError(
                "thresholds need 0 < doubtful <= bad <= very bad, got "
                f"{self.doubtful}, {self.bad}, {self.very_bad}"
            )

    def mark(self, loss: float) -> Mark | None:
        """The mark of a decision that lost ``loss``, or ``None`` below ``doubtful``."""
        if loss >= self.very_bad:
            return Mark.VERY_BAD
        if loss >= self.bad:
            return Mark.BAD
        if loss >= self.doubtful:
            return Mark.DOUBTFUL
        return None


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """How to analyse.

    Attributes:
        ply: lookahead of checker-play ranking and cube evaluations (0 = the network).
        thresholds: the marks' thresholds.
        top: how many of the best plays to keep per checker decision.
        close_cube: a "no double" counts as a cube decision (for error rates) when the
            equity of the right action is within this of ``min(double/take,
            double/pass)`` (GNU Backgammon's "close" cube decisions, 0.16).
        met: the match equity table (``None``: Kazaross-XG2).
        exact_bearoff: in money play, use the bearoff database's exact cubeful equities
            for two-sided bear-offs.
        cubeful: value checker plays by cubeful equity (the opponent's right cube
            action in the position left to it, Janowski's model at the score), as GNU
            Backgammon does; ``False``: cubeless equity at the score.
        cubeful_search: at ``ply`` > 0, carry the cube through the search
            (:mod:`backgammon.engine.cubeful`: each node valued for its cube state,
            each side's cube action before each roll, the model only at the leaves)
            for cube decisions and, with ``cubeful``, checker plays; ``False``: search
            cubeless probabilities and apply the model once, at the root.
    """

    ply: int = 0
    thresholds: Thresholds = field(default_factory=Thresholds)
    top: int = 5
    close_cube: float = 0.16
    met: MatchEquityTable | None = None
    exact_bearoff: bool = True
    cubeful: bool = True
    cubeful_search: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.ply, bool) or not isinstance(self.ply, int) or self.ply < 0:
            raise ValueError(f"ply must be a whole number >= 0, got {self.ply!r}")
        if self.top < 1:
            raise ValueError(f"top must be at least 1, got {self.top}")

    @property
    def table(self) -> MatchEquityTable:
        """The match equity table in use."""
        return kazaross_xg2() if self.met is None else self.met


@dataclass(frozen=True, slots=True)
class PlayOption:
    """A candidate play with its value.

    Attributes:
        play: its canonical notation (e.g. ``"13/7 8/7"``; ``"Ø"`` for no move).
        equity: the mover's equity at the score after it (normalised): cubeful, or
            cubeless when the analysis is (see :class:`AnalysisSettings`).
        probabilities: the mover's five cubeless outcome probabilities after it.
        steps: ``(from, to)`` point pairs in the mover's numbering (25 = bar, 0 = off).
    """

    play: str
    equity: float
    probabilities: Probabilities
    steps: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class CheckerAnalysis:
    """The analysis of one checker play (and the luck of its roll).

    Attributes:
        game: the game number (1-based).
        entry: the index of the play in the game's entries.
        move_number: the turn number in the game (1 = the opening play).
        player: who played (0 or 1).
        roll: the dice, higher first.
        opening: whether the roll was the opening roll.
        position_id: the position before the play, seen from the mover.
        cube: the cube value; ``cube_owner`` who owned it (``None``: centred).
        play: the notation of the play made.
        legal_plays: how many different legal plays the roll had.
        options: the best plays, best first (the play made is added last when it is
            not among them).
        played: the play made, valued like the options.
        equity_loss: best equity minus the equity of the play made (>= 0).
        mark: the mark of the loss (``None`` for a forced play).
        luck: the luck of the roll (normalised equity; positive = lucky).
        win: the mover's chance to win the game before rolling (the average of its best
            plays' results over the rolls, at 0-ply).
        equity_before: the mover's equity before rolling, on the same basis.
    """

    kind: ClassVar[Literal["checker"]] = "checker"

    game: int
    entry: int
    move_number: int
    player: int
    roll: tuple[int, int]
    opening: bool
    position_id: str
    cube: int
    cube_owner: int | None
    play: str
    legal_plays: int
    options: tuple[PlayOption, ...]
    played: PlayOption
    equity_loss: float
    mark: Mark | None
    luck: float
    win: float
    equity_before: float

    @property
    def forced(self) -> bool:
        """True for a forced play or no move (not counted in error rates)."""
        return self.legal_plays <= 1

    @property
    def counted(self) -> bool:
        """Whether the decision counts in error rates (an unforced play)."""
        return not self.forced

    @property
    def best(self) -> PlayOption:
        """The best play."""
        return self.options[0]


@dataclass(frozen=True, slots=True)
class CubeAnalysis:
    """The analysis of one cube decision.

    Equities are the doubler's, normalised to the cube value before the double.

    Attributes:
        game: the game number (1-based).
        entry: the index of the entry the decision belongs to (for an implicit "no
            double": the play that follows the roll).
        move_number: the turn number the decision precedes.
        player: who decided (the doubler, or the doubled player for take/pass).
        doubler: the player on roll.
        action: ``"no double"``, ``"double"``, ``"take"``, ``"pass"``, ``"beaver"``,
            ``"raccoon"`` or ``"no raccoon"`` (after a beaver, where raccoons are
            allowed).
        position_id: the position before the roll, seen from the doubler.
        cube: the cube value before the double; ``cube_owner`` who owned it.
        probabilities: the doubler's cubeless outcome probabilities.
        cubeless_equity: the doubler's cubeless equity at the score (as for plays).
        no_double, double_take, double_pass: the doubler's equities of the choices.
        cube_action: the right action (e.g. ``"double, take"``).
        should_double: whether doubling is right; ``should_take`` whether taking is.
        best_action: the right choice of the player who decided (``"double"``,
            ``"no double"``, ``"take"``, ``"pass"``, ``"beaver"`` where beavers are
            allowed, ``"raccoon"`` or ``"no raccoon"``).
        equity_loss: what the action cost (>= 0).
        mark: the mark of the loss.
        error: ``"missed double"``, ``"wrong double"``, ``"wrong take"``,
            ``"wrong pass"``, ``"wrong beaver"``, ``"missed beaver"``, ``"wrong
            raccoon"``, ``"missed raccoon"`` or ``None``.
        close: whether the decision is close (see :attr:`AnalysisSettings.close_cube`).
        exact: whether the equities come from the exact bearoff database.
    """

    kind: ClassVar[Literal["cube"]] = "cube"

    game: int
    entry: int
    move_number: int
    player: int
    doubler: int
    action: str
    position_id: str
    cube: int
    cube_owner: int | None
    probabilities: Probabilities
    cubeless_equity: float
    no_double: float
    double_take: float
    double_pass: float
    cube_action: str
    should_double: bool
    should_take: bool
    best_action: str
    equity_loss: float
    mark: Mark | None
    error: str | None
    close: bool
    exact: bool

    @property
    def counted(self) -> bool:
        """Whether the decision counts in error rates: an actual double, take or pass,
        or a close (or wrongly missed) "no double"."""
        if self.action == "no raccoon":  # implicit, like "no double": counted when wrong
            return self.equity_loss > 0.0
        return self.action != "no double" or self.close


Decision: TypeAlias = CheckerAnalysis | CubeAnalysis
"""One analysed decision."""


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The analysis of one game.

    Attributes:
        number: the game number (1-based).
        score_before: (player 0, player 1) points before the game.
        crawford: whether it was the Crawford game.
        winner: who won it (``None`` if unfinished).
        points: the points won.
        decisions: every analysed decision in order.
    """

    number: int
    score_before: tuple[int, int]
    crawford: bool
    winner: int | None
    points: int
    decisions: tuple[Decision, ...]

    @property
    def checker_decisions(self) -> tuple[CheckerAnalysis, ...]:
        """The checker plays."""
        return tuple(item for item in self.decisions if isinstance(item, CheckerAnalysis))

    @property
    def cube_decisions(self) -> tuple[CubeAnalysis, ...]:
        """The cube decisions."""
        return tuple(item for item in self.decisions if isinstance(item, CubeAnalysis))


_NETWORKS = EvaluationSource(exact=False)
"""The source of an analysis made with the networks (a frozen value)."""


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """The analysis of a whole match.

    Attributes:
        players: the two names, player 0 first.
        length: the match length (0 = money).
        settings: how it was analysed.
        games: each game's analysis.
        checkers: checkers per side (to rebuild positions from their IDs).
        source: where the engine's values came from (exact database or the
            networks' estimate, with a note when exact values could be built).
    """

    players: tuple[str, str]
    length: int
    settings: AnalysisSettings
    games: tuple[GameAnalysis, ...]
    checkers: int = 15
    source: EvaluationSource = _NETWORKS

    @property
    def decisions(self) -> Iterator[Decision]:
        """Every decision of every game, in order."""
        for game in self.games:
            yield from game.decisions

    def position(self, decision: Decision) -> Position:
        """The position of ``decision`` (seen from the mover or doubler)."""
        return Position.from_position_id(decision.position_id, checkers=self.checkers)
