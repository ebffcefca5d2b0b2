"""Analyse a match: every checker play, every cube decision and the luck of every roll.

:func:`analyze_match` replays each game of a :class:`~backgammon.formats.MatchRecord`
through the rules (a :class:`~backgammon.rules.game.Game` in the game's match context:
length, score before the game, Crawford game or not) and judges each decision with the
engine:

**Checker plays.** The legal plays of the roll are ranked with
:meth:`Engine.rank_plays <backgammon.engine.evaluator.Engine.rank_plays>` at the chosen
ply. Each play is valued, as GNU Backgammon does, by the mover's **cubeful equity at the
score**, normalised to the current cube: the play leaves the opponent on roll, and the
play is worth what that position is worth to the opponent before its roll, with the
opponent's right cube action (double when it should, else no double; no double when
the mover owns the cube or in the Crawford game), negated. That value comes from the
opponent's cubeless probabilities through the same models as the cube decisions below:
Janowski's money model (:func:`~backgammon.engine.cube.money_cubeful_value`; exact
cubeful equities for two-sided bear-offs in money play), or in a match the cubeful match
winning chance (:func:`~backgammon.engine.cube.match_cubeful_mwc`, each outcome weighed
by the match equity table, Kazaross-XG2 by default) converted back to equity with
:meth:`MatchEquityTable.mwc_to_equity <backgammon.engine.met.MatchEquityTable.mwc_to_equity>`.
With ``AnalysisSettings(cubeful=False)`` plays are valued by cubeless equity at the
score instead (gammons weighed by the table; single under the Jacoby rule while the
cube is centred). At ply > 0 the engine's best five plays and the play made are all
searched to the same depth (cubeless probabilities, made cubeful at the root). The
*equity lost* by a play is the best play's equity minus its own (never negative). A
forced play (one legal play) or no move is recorded but not counted.

**Cube decisions.** Before every roll where the player on roll could double
(:meth:`Game.can_double <backgammon.rules.game.Game.can_double>`, and in a match the
cube does not already cover their away score) an implicit "no double" is judged, as
are every double, take, pass and beaver. The right action comes from the engine's
cubeless probabilities at the chosen ply through Janowski's model
(:func:`~backgammon.engine.cube.money_cube_decision`;
:func:`~backgammon.engine.cube.match_cube_decision` with the match equity table and the
away scores), with GNU Backgammon's cube efficiencies (0.68 in contact, 0.6-0.7 in
races). In money play two-sided bear-offs (up to six checkers a side) use the exact
cubeful equities of the bearoff database instead. Costs are normalised equities at the
current cube, as the decision's equities are ("double, pass" = +1): a *missed double*
costs ``min(double/take, double/pass) - no double``, a *wrong double*
``no double - min(double/take, double/pass)``, a *wrong take* ``double/take -
double/pass``, a *wrong pass* ``double/pass - double/take`` (the doubler's equities; the
taker loses what the doubler gains).

Both kinds are marked "doubtful", "bad" or "very bad" from 0.04, 0.08 and 0.16
(:class:`Thresholds`, GNU Backgammon's defaults).

**Luck.** The luck of a roll is the roller's equity (as above, at 0-ply: the play is
chosen by cubeless equity at the score, then valued cubefully) after its best play of the
dice rolled, minus the average over the 21 rolls (the 15 non-doubles, equally likely, for
the opening roll) of the same: positive is lucky.

:func:`store_annotations` writes the analysis into the record's entries in GNU
Backgammon's SGF analysis syntax (``A``, ``DA``, ``MR``, ``LU``, ``GW``/``GB``, ``BM``,
``DO``, ``BC``, ``DC``), so ``write_match(record, "x.sgf")`` keeps it.

>>> from backgammon.formats import read_match
>>> record = read_match("tests/data/reference/formats/match01_3pt.sgf")  # doctest: +SKIP
>>> analysis = analyze_match(record)  # doctest: +SKIP
>>> analysis.games[0].decisions[0].kind  # doctest: +SKIP
'checker'
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Literal, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from backgammon.engine.cube import (
    CubeDecision,
    CubeOwner,
    classify_cube_decision,
    cube_efficiency,
    match_cube_decision,
    match_cubeful_mwc,
    money_cube_decision,
    money_cubeful_value,
)
from backgammon.engine.cubeful import CubeContext, cube_decision_at, cubeful_play_values
from backgammon.engine.evaluator import Engine, EvaluationSource, PlayEvaluation
from backgammon.engine.met import MatchEquityTable, kazaross_xg2
from backgammon.engine.network import Networks
from backgammon.engine.search import MoveFilter, Pruning, invert, rank_children
from backgammon.formats.record import GameRecord, MatchInfo, MatchRecord
from backgammon.rules.cube import Beaver, CubeState, Double, Drop, MatchContext, Raccoon, Take
from backgammon.rules.dice import ALL_ROLLS, Roll
from backgammon.rules.game import Game, OpeningRoll
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

__all__ = [
    "AnalysisJob",
    "AnalysisSettings",
    "Analyzer",
    "CheckerAnalysis",
    "CubeAnalysis",
    "Decision",
    "GameAnalysis",
    "Mark",
    "MatchAnalysis",
    "PlayOption",
    "ProgressCallback",
    "Thresholds",
    "analysis_engine",
    "analyze_job_game",
    "analyze_match",
    "match_analysis",
    "store_annotations",
]

ProgressCallback: TypeAlias = Callable[[int, int], None]
"""Called as ``progress(done, total)``, counting the record's actions."""

Probabilities: TypeAlias = tuple[float, float, float, float, float]
_FloatArray: TypeAlias = npt.NDArray[np.float64]

_LUCK_LEVELS = (0.6, 0.3)
"""GNU Backgammon's luck marks: very lucky above +0.6, lucky above +0.3 (and the same
below zero for unlucky)."""

_SGF_ANALYSIS_KEYS = ("A", "DA", "MR", "CR", "LU", "GW", "GB", "BM", "DO", "BC", "DC")
"""The SGF properties of GNU Backgammon's analysis, replaced by :func:`store_annotations`."""


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


# -- equities at the score ----------------------------------------------------------------


class _Stakes:
    """Turns the mover's cubeless outcome probabilities into its normalised equity at
    the current score and cube (see the module doc)."""

    def __init__(
        self,
        context: MatchContext,
        player: int,
        cube: CubeState,
        met: MatchEquityTable,
        *,
        jacoby: bool = False,
        cube_alive: bool = True,
    ) -> None:
        self.single_only = jacoby and context.is_money and cube.centred
        self.jacoby = jacoby
        self.values: _FloatArray | None = None
        self.money = context.is_money
        self.met = met
        self.cube = cube
        self.player = player
        self.cube_alive = cube_alive and not context.crawford
        self.away = (context.away(player), context.away(1 - player))
        me, them = self.away
        if context.is_money or max(me, them) > met.size or min(me, them) < 1:
            return
        value = cube.value
        outcomes = [met.after_game(me, them, k * value) for k in (1, 2, 3, -1, -2, -3)]
        win, lose = outcomes[0], outcomes[3]
        if win > lose:
            self.values = np.array(outcomes, dtype=np.float64)
            self.win = win
            self.lose = lose

    def equities(self, probabilities: _FloatArray) -> _FloatArray:
        """Normalised equities of rows of five probabilities (the mover's)."""
        p = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
        if self.values is None:
            if self.single_only:
                result: _FloatArray = 2.0 * p[:, 0] - 1.0
                return result
            return 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
        outcomes = np.stack(
            (
                p[:, 0] - p[:, 1],
                p[:, 1] - p[:, 2],
                p[:, 2],
                1.0 - p[:, 0] - p[:, 3],
                p[:, 3] - p[:, 4],
                p[:, 4],
            ),
            axis=1,
        )
        mwc = outcomes @ self.values
        equity: _FloatArray = 2.0 * (mwc - self.lose) / (self.win - self.lose) - 1.0
        return equity

    def equity(self, probabilities: Sequence[float]) -> float:
        """The normalised equity of one set of five probabilities."""
        return float(self.equities(np.asarray(probabilities, dtype=np.float64))[0])

    def cubeful_equities(
        self,
        left: Sequence[Position],
        probabilities: _FloatArray,
        exact: Callable[[Position], Any] | None = None,
    ) -> _FloatArray:
        """Normalised cubeful equities of the mover for plays that leave the opponent on
        roll in ``left`` (seen from the opponent) with the mover's cubeless
        ``probabilities`` (rows of five): minus the opponent's cubeful value before its
        roll, with its right cube action (:func:`money_cubeful_value`,
        :func:`match_cubeful_mwc`). In money play ``exact`` (when given) returns the
        exact cubeful equities of a position (the opponent on roll) or ``None``; see
        :class:`~backgammon.engine.bearoff.BearoffCubeEquities`. Scores outside the
        match equity table fall back to cubeless equities."""
        p = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
        if not self.money and self.values is None:
            return self.equities(p)
        cube = self.cube
        # Seen from the opponent, who is on roll after the play.
        owner = CubeOwner.seen_by(cube.owner, 1 - self.player)
        me, them = self.away
        result = np.empty(len(p), dtype=np.float64)
        for k, position in enumerate(left):
            row = p[k]
            theirs = (1.0 - row[0], row[3], row[4], row[1], row[2])
            efficiency = cube_efficiency(position)
            if self.money:
                known = exact(position) if exact is not None and self.cube_alive else None
                if known is not None:
                    result[k] = -(
                        known.centred
                        if owner is CubeOwner.CENTRED
                        else known.owned
                        if owner is CubeOwner.PLAYER
                        else known.opponent_owns
                    )
                    continue
                result[k] = -money_cubeful_value(
                    theirs, owner, efficiency, jacoby=self.jacoby, cube_alive=self.cube_alive
                )
                continue
            mwc = 1.0 - match_cubeful_mwc(
                theirs,
                self.met,
                (them, me),
                cube=cube.value,
                owner=owner,
                efficiency=efficiency,
                cube_alive=self.cube_alive,
            )
            result[k] = 2.0 * (mwc - self.lose) / (self.win - self.lose) - 1.0
        return result


# -- the bearoff database, shared with the engine -------------------------------------------


class _CubefulBearoff(Protocol):
    def classify(self, position: Position) -> object | None: ...

    def cube_equities(self, position: Position) -> Any: ...


class _LazyBearoff:
    """The bearoff databases, opened on first use: the engine's bear-off evaluator
    (:class:`~backgammon.engine.evaluator.BearoffEvaluator`) and the source of exact
    cubeful money equities, one copy in memory for both."""

    def __init__(self) -> None:
        self._database: Any = None

    def open(self) -> Any:
        """The :class:`~backgammon.engine.bearoff.BearoffDatabase` (opened or built)."""
        if self._database is None:
            from backgammon.engine.bearoff import BearoffDatabase

            self._database = BearoffDatabase.open()
        return self._database

    def covers(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """Which boards the databases evaluate."""
        result: npt.NDArray[np.bool_] = self.open().covers(boards)
        return result

    def evaluate_boards(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.floating[Any]]:
        """Exact probabilities of covered boards."""
        result: npt.NDArray[np.floating[Any]] = self.open().evaluate_boards(boards)
        return result

    def classify(self, position: Position) -> object | None:
        """The database class of ``position`` (``"bearoff2"``, ``"bearoff1"``, ``None``)."""
        found: object | None = self.open().classify(position)
        return found

    def cube_equities(self, position: Position) -> Any:
        """Exact cubeful money equities of a two-sided bear-off, else ``None``."""
        return self.open().cube_equities(position)


def _money_decision(no_double: float, double_take: float, beavers: bool) -> CubeDecision:
    """A money cube decision from cubeful equities."""
    return classify_cube_decision(no_double, double_take, 1.0, beavers=beavers)


@dataclass(frozen=True, slots=True)
class _CubeEval:
    doubler: int
    position: Position
    cube: CubeState
    probabilities: Probabilities
    decision: CubeDecision
    exact: bool
    cubeless: float
    beavers: bool = False


# -- the analyzer ------------------------------------------------------------------------


class Analyzer:
    """Analyses games with one engine and one set of :class:`AnalysisSettings`.

    ``Analyzer()`` opens the default engine (with the bearoff databases opened on first
    use, shared between the engine and the exact cube equities).
    """

    def __init__(self, engine: Engine | None = None, settings: AnalysisSettings | None = None):
        """Use ``engine`` (default: a new :class:`Engine`) with ``settings``."""
        self._bearoff: _CubefulBearoff | None = None
        if engine is None:
            lazy = _LazyBearoff()
            engine = Engine(bearoff=lazy)
            self._bearoff = lazy
        elif hasattr(engine.bearoff, "cube_equities") and hasattr(engine.bearoff, "classify"):
            self._bearoff = engine.bearoff  # type: ignore[assignment]
        self.engine = engine
        self.settings = AnalysisSettings() if settings is None else settings
        self._met = self.settings.table

    # -- public --------------------------------------------------------------------------

    def analyze_game(
        self,
        record: GameRecord,
        info: MatchInfo,
        *,
        start: Game | None = None,
        step: Callable[[], None] | None = None,
    ) -> GameAnalysis:
        """Analyse one game of a match.

        Args:
            record: the game.
            info: the match it belongs to (length, rules, variant).
            start: a fresh :class:`Game` (no actions yet) to replay the actions onto,
                for a game set up from a position; by default a new game from the
                variant's starting position in the game's match context.
            step: called after each action.

        Raises:
            IllegalActionError, IllegalPlayError: if an action is not legal (a record
                built by hand; records read from files are already checked).
        """
        game = (
            start
            if start is not None
            else Game(info.variant, rules=info.rules, context=_context(record, info))
        )
        decisions: list[Decision] = []
        turns = 0
        opening = False
        doubled: _CubeEval | None = None
        implicit: _CubeEval | None = None
        beavered: _CubeEval | None = None  # a beaver the doubler may raccoon
        for index, entry in enumerate(record.entries):
            action = entry.action
            if beavered is not None and not isinstance(action, Raccoon):
                decisions.append(
                    self._cube_record(beavered, record.number, index, turns + 1, "no raccoon")
                )
                beavered = None
            if isinstance(action, OpeningRoll):
                opening = action.starter is not None and not game.variant.opening_reroll
            elif isinstance(action, Raccoon):
                if beavered is not None:
                    decisions.append(
                        self._cube_record(beavered, record.number, index, turns + 1, "raccoon")
                    )
                beavered = None
            elif isinstance(action, Roll):
                opening = False
                implicit = self._cube_eval(game) if self._cube_open(game) else None
            elif isinstance(action, Double):
                doubled = self._cube_eval(game)
                if doubled is not None:
                    decisions.append(
                        self._cube_record(doubled, record.number, index, turns + 1, "double")
                    )
            elif isinstance(action, Take | Beaver | Drop):
                if doubled is not None:
                    word = "pass" if isinstance(action, Drop) else "take"
                    if isinstance(action, Beaver):
                        word = "beaver"
                    decisions.append(
                        self._cube_record(
                            doubled, record.number, index, turns + 1, word, entry.player
                        )
                    )
                    if isinstance(action, Beaver) and game.rules.raccoons:
                        beavered = doubled
                doubled = None
            elif isinstance(action, Play):
                turns += 1
                if implicit is not None:
                    decisions.append(
                        self._cube_record(implicit, record.number, index, turns, "no double")
                    )
                    implicit = None
                decisions.append(self._checker(game, action, record.number, index, turns, opening))
                opening = False
            game.push(action)
            if step is not None:
                step()
        if implicit is not None:  # the record stops after a roll
            decisions.append(
                self._cube_record(
                    implicit, record.number, len(record.entries) - 1, turns + 1, "no double"
                )
            )
        outcome = record.outcome if record.outcome is not None else game.outcome
        return GameAnalysis(
            record.number,
            record.score_before,
            record.crawford,
            None if outcome is None else outcome.winner,
            0 if outcome is None else outcome.points,
            tuple(decisions),
        )

    # -- checker play --------------------------------------------------------------------

    def _stakes(self, game: Game, player: int) -> _Stakes:
        alive = game.rules.cube and game.variant.cube
        return _Stakes(
            game.context, player, game.cube, self._met, jacoby=game.rules.jacoby, cube_alive=alive
        )

    def _checker(
        self, game: Game, action: Play, number: int, index: int, turn: int, opening: bool
    ) -> CheckerAnalysis:
        position, dice, player = game.position, game.dice, game.turn
        assert dice is not None and player is not None
        stakes = self._stakes(game, player)
        ply = self.settings.ply
        # Where the turn goes on after a play (acey-deucey, Russian), 0-ply values the
        # position it leaves as the mover's own roll.
        ranked = self.engine.rank_plays(
            position, dice, ply, game.continuation if ply == 0 else None
        )
        probabilities = np.array(
            [item.evaluation.probabilities for item in ranked], dtype=np.float64
        )
        played_index = next(
            (k for k, item in enumerate(ranked) if item.play.position == action.position), None
        )
        if played_index is None:  # cannot happen for a legal play; keep it anyway
            evaluation = self.engine.evaluate_at(action.position.flip(), ply).flip()
            ranked.append(PlayEvaluation(action, evaluation))
            probabilities = np.vstack([probabilities, evaluation.probabilities])
            played_index = len(ranked) - 1
        candidates = list(range(len(ranked)))
        if ply > 0 and len(ranked) > 1:
            # Search the engine's best plays and the play made to the same depth.
            candidates = sorted(set(range(min(self.settings.top, len(ranked)))) | {played_index})
            for k in candidates:
                searched = self.engine.evaluate_at(ranked[k].play.position.flip(), ply)
                probabilities[k] = searched.flip().probabilities
        searched_cubefully = (
            self.settings.cubeful and ply > 0 and self._cube_context(game, player) is not None
        )
        if searched_cubefully:
            context = self._cube_context(game, player)
            assert context is not None
            equities = np.full(len(ranked), -np.inf)
            children = np.stack([ranked[k].play.position.flip().to_array() for k in candidates])
            values = cubeful_play_values(
                self.engine.evaluate_boards,
                children,
                ply,
                context,
                self.engine.pruning,
                self._exact_rows(game),
            )
            equities[candidates] = [context.normalised(float(v)) for v in values]
        elif self.settings.cubeful:
            equities = np.full(len(ranked), -np.inf)
            exact = (
                self._exact_equities
                if game.context.is_money
                and self.settings.exact_bearoff
                and game.variant.plain_movement
                else None
            )
            equities[candidates] = stakes.cubeful_equities(
                [ranked[k].play.position.flip() for k in candidates],
                probabilities[candidates],
                exact,
            )
        else:
            equities = stakes.equities(probabilities)
        order = sorted(candidates, key=lambda k: (-equities[k], k))
        options = [_option(ranked[k], probabilities[k], equities[k]) for k in order]
        played = options[order.index(played_index)]
        loss = max(0.0, options[0].equity - played.equity)
        shown = options[: self.settings.top]
        if played not in shown:
            shown.append(played)
        legal = 0 if action.is_no_move() else len(ranked)
        luck, win, before = self._luck(game, position, dice, opening, stakes)
        return CheckerAnalysis(
            game=number,
            entry=index,
            move_number=turn,
            player=player,
            roll=(dice.high, dice.low),
            opening=opening,
            position_id=position.position_id,
            cube=game.cube.value,
            cube_owner=game.cube.owner,
            play=str(action),
            legal_plays=legal,
            options=tuple(shown),
            played=played,
            equity_loss=loss,
            mark=self.settings.thresholds.mark(loss) if legal > 1 else None,
            luck=luck,
            win=win,
            equity_before=before,
        )

    def _luck(
        self, game: Game, position: Position, dice: Roll, opening: bool, stakes: _Stakes
    ) -> tuple[float, float, float]:
        """(luck of ``dice``, the mover's mean win chance, mean equity) at 0-ply."""
        if opening:
            rolls = [roll for roll in ALL_ROLLS if not roll.is_double]
            weights = np.full(len(rolls), 1.0 / len(rolls))
        else:
            rolls = list(ALL_ROLLS)
            weights = np.array([float(roll.weight) for roll in rolls])
        board = position.to_array()
        children: list[npt.NDArray[np.uint8]] = []
        for roll in rolls:
            if game.variant.plain_movement:
                _, kids = rank_children(board, roll.high, roll.low)
            else:
                plays = position.legal_plays(roll, game.variant)
                kids = np.array([play.position.flip().to_array() for play in plays], np.uint8)
                kids = kids.reshape(-1, 52)
            if kids.shape[0] == 0:
                kids = position.flip().to_array().reshape(1, -1)
            children.append(kids)
        boards = np.concatenate(children)  # seen from the opponent, on roll next
        mover = invert(self.engine.evaluate_boards(boards))
        equities = stakes.equities(mover)
        chosen = []
        offset = 0
        for kids in children:
            chosen.append(offset + int(np.argmax(equities[offset : offset + kids.shape[0]])))
            offset += kids.shape[0]
        wins = mover[chosen, 0]
        if self.settings.cubeful:
            left = [Position.from_array(boards[k]) for k in chosen]
            best = stakes.cubeful_equities(left, mover[chosen])
        else:
            best = equities[chosen]
        mean = float(weights @ best)
        actual = rolls.index(Roll(dice.high, dice.low))
        return float(best[actual] - mean), float(weights @ wins), mean

    # -- cube ----------------------------------------------------------------------------

    def _cube_open(self, game: Game) -> bool:
        """Whether the player on roll has a real cube decision before this roll."""
        if not game.can_double():
            return False
        context = game.context
        if context.is_money:
            return True
        assert game.turn is not None
        me, them = context.away(game.turn), context.away(1 - game.turn)
        # A cube that already covers the doubler's away score gains nothing by doubling.
        return game.cube.value < me and max(me, them) <= self._met.size

    def _cube_eval(self, game: Game) -> _CubeEval | None:
        doubler = game.turn
        if doubler is None:
            return None
        position, cube, context = game.position, game.cube, game.context
        owner = CubeOwner.seen_by(cube.owner, doubler)
        if owner is CubeOwner.OPPONENT:
            return None
        probabilities = self.engine.evaluate_at(position, self.settings.ply).probabilities
        efficiency = cube_efficiency(position)
        exact = False
        searched = self._cube_context(game, doubler) if self.settings.ply > 0 else None
        try:
            if searched is not None:
                rows = self._exact_rows(game)
                exact = rows is not None and bool(
                    np.isfinite(rows(position.to_array()[None, :])).all()
                )
                decision = cube_decision_at(
                    self.engine.evaluate_boards,
                    position.to_array(),
                    self.settings.ply,
                    searched,
                    self.engine.pruning,
                    rows,
                )
            elif context.is_money:
                found = None
                if self.settings.exact_bearoff and game.variant.plain_movement:
                    found = self._exact_money(position, owner, game.rules.beavers)
                exact = found is not None
                decision = (
                    found
                    if found is not None
                    else money_cube_decision(
                        probabilities,
                        owner,
                        efficiency,
                        jacoby=game.rules.jacoby,
                        beavers=game.rules.beavers,
                    )
                )
            else:
                away = (context.away(doubler), context.away(1 - doubler))
                decision = match_cube_decision(
                    probabilities,
                    self._met,
                    away,
                    cube=cube.value,
                    owner=owner,
                    efficiency=efficiency,
                )
        except ValueError:
            # Scores beyond the table, or no cube to turn: nothing to judge.
            return None
        cubeless = _Stakes(context, doubler, cube, self._met, jacoby=game.rules.jacoby)
        return _CubeEval(
            doubler,
            position,
            cube,
            probabilities,
            decision,
            exact,
            cubeless.equity(probabilities),
            beavers=context.is_money and game.rules.beavers,
        )

    def _cube_context(self, game: Game, player: int) -> CubeContext | None:
        """The cube as ``player`` (on roll) sees it, for a cubeful search; ``None``
        where the search does not apply (it is off, the variant's movement is not one
        the search follows, or the scores are beyond the table)."""
        if not self.settings.cubeful_search or not game.variant.plain_movement:
            return None
        cube, context = game.cube, game.context
        owner = CubeOwner.seen_by(cube.owner, player)
        alive = game.rules.cube and game.variant.cube
        if context.is_money:
            return CubeContext(
                cube=cube.value,
                owner=owner,
                jacoby=game.rules.jacoby,
                beavers=game.rules.beavers,
                alive=alive,
            )
        away = (context.away(player), context.away(1 - player))
        if max(away) > self._met.size:
            return None
        return CubeContext(
            cube=cube.value,
            owner=owner,
            away=away,
            met=self._met,
            crawford=context.crawford,
            alive=alive,
        )

    def _exact_rows(self, game: Game) -> Any:
        """The two-sided bear-off database's exact cubeful money equities for a
        cubeful search (:data:`~backgammon.engine.cubeful.ExactCubeEquities`), where
        they apply (money play, plain movement, ``exact_bearoff``), else ``None``."""
        if not (
            game.context.is_money and self.settings.exact_bearoff and game.variant.plain_movement
        ):
            return None
        if self._bearoff is None:
            self._bearoff = _LazyBearoff()
        database = self._bearoff
        opened = database.open() if isinstance(database, _LazyBearoff) else database
        return getattr(opened, "cube_equity_rows", None)

    def _exact_equities(self, position: Position) -> Any:
        """The exact cubeful money equities of a two-sided bear-off (the side on roll
        before it rolls), else ``None``."""
        if self._bearoff is None:
            lazy = _LazyBearoff()
            self._bearoff = lazy
        database = self._bearoff
        if database.classify(position) != "bearoff2":
            return None
        return database.cube_equities(position)

    def _exact_money(
        self, position: Position, owner: CubeOwner, beavers: bool
    ) -> CubeDecision | None:
        equities = self._exact_equities(position)
        if equities is None:
            return None
        no_double = (
            equities.centred_no_double if owner is CubeOwner.CENTRED else equities.owned_no_double
        )
        return _money_decision(float(no_double), float(equities.double_take), beavers)

    def _cube_record(
        self,
        evaluation: _CubeEval,
        number: int,
        index: int,
        turn: int,
        action: str,
        player: int | None = None,
    ) -> CubeAnalysis:
        decision = evaluation.decision
        nd, dt, dp = decision.no_double, decision.double_take, decision.double_pass
        doubled = min(dt, dp)
        should_double = decision.should_double
        error: str | None = None
        if action == "no double":
            loss = max(0.0, doubled - nd) if should_double else 0.0
            best_action = "double" if should_double else "no double"
            error = "missed double" if loss > 0.0 else None
        elif action == "double":
            loss = 0.0 if should_double else max(0.0, nd - doubled)
            best_action = "double" if should_double else "no double"
            error = "wrong double" if loss > 0.0 else None
        elif action in ("take", "pass", "beaver"):
            # The doubled side picks the answer worth least to the doubler; a beaver
            # doubles the take's stakes (money with beavers only).
            answers = {"take": dt, "pass": dp}
            if evaluation.beavers:
                answers["beaver"] = 2.0 * dt
            best_action = min(answers, key=lambda name: answers[name])
            loss = max(0.0, answers[action] - answers[best_action])
            error = None
            if loss > 0.0:
                error = "missed beaver" if best_action == "beaver" else f"wrong {action}"
        else:
            # After a beaver the doubler may raccoon: the stakes double again.
            choices = {"no raccoon": 2.0 * dt, "raccoon": 4.0 * dt}
            best_action = "raccoon" if dt > 0.0 else "no raccoon"
            loss = max(0.0, choices[best_action] - choices[action])
            error = None
            if loss > 0.0:
                error = "missed raccoon" if action == "no raccoon" else "wrong raccoon"
        optimal = decision.best_equity if should_double else nd
        close = optimal - doubled < self.settings.close_cube
        doubler = evaluation.doubler
        return CubeAnalysis(
            game=number,
            entry=index,
            move_number=turn,
            player=doubler if player is None else player,
            doubler=doubler,
            action=action,
            position_id=evaluation.position.position_id,
            cube=evaluation.cube.value,
            cube_owner=evaluation.cube.owner,
            probabilities=evaluation.probabilities,
            cubeless_equity=evaluation.cubeless,
            no_double=nd,
            double_take=dt,
            double_pass=dp,
            cube_action=decision.action.value,
            should_double=should_double,
            should_take=decision.take,
            best_action=best_action,
            equity_loss=loss,
            mark=self.settings.thresholds.mark(loss),
            error=error,
            close=close,
            exact=evaluation.exact,
        )


def _option(item: PlayEvaluation, probabilities: _FloatArray, equity: float) -> PlayOption:
    play = item.play
    return PlayOption(
        play=str(play),
        equity=float(equity),
        probabilities=tuple(float(p) for p in probabilities),  # type: ignore[arg-type]
        steps=tuple((step.source, step.destination) for step in play.steps),
    )


def _context(record: GameRecord, info: MatchInfo) -> MatchContext:
    length = info.length
    score = record.score_before
    post = bool(length > 1) and info.rules.crawford and not record.crawford and length - 1 in score
    return MatchContext(length, score, crawford=record.crawford, post_crawford=post)


# -- whole matches ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """What a worker process needs to analyse games exactly as the parent's engine
    would: its networks and search settings (pruning, move filters, whether the exact
    bearoff databases are used), the analysis settings and the match."""

    networks: Networks
    variant: Variant
    pruning: Pruning | None
    move_filter: MoveFilter
    inner_filter: MoveFilter | None
    exact_bearoff: bool
    settings: AnalysisSettings
    info: MatchInfo

    @classmethod
    def of(cls, engine: Engine, settings: AnalysisSettings, info: MatchInfo) -> AnalysisJob:
        """The job of analysing ``info``'s games with ``engine``."""
        return cls(
            engine.networks,
            engine.variant,
            engine.pruning,
            engine.move_filter,
            engine.inner_filter,
            engine.bearoff is not None,
            settings,
            info,
        )

    def engine(self) -> Engine:
        """A new engine that searches as the one the job was made from."""
        engine = (
            analysis_engine(self.variant, self.networks)
            if self.exact_bearoff
            else Engine(self.networks, variant=self.variant, bearoff=None)
        )
        engine.pruning = self.pruning
        engine.move_filter = self.move_filter
        engine.inner_filter = self.inner_filter
        return engine


_WORKER: list[Analyzer] = []
"""The analyzer of a worker process (set by :func:`_start_worker`; empty elsewhere)."""


def analysis_engine(variant: Variant, networks: Networks | None = None) -> Engine:
    """The engine :func:`analyze_match` uses by default: ``networks`` (the shipped ones
    for None), with bearoff databases (if the variant uses them) that open on first use
    and also serve the exact cube equities."""
    return Engine(
        networks, variant=variant, bearoff=_LazyBearoff() if variant.plain_movement else None
    )


def _start_worker(job: AnalysisJob) -> None:
    _WORKER.append(Analyzer(job.engine(), job.settings))


def _work(game: GameRecord, info: MatchInfo) -> GameAnalysis:
    return _WORKER[0].analyze_game(game, info)


def analyze_job_game(job: AnalysisJob, game: GameRecord) -> GameAnalysis:
    """One game of ``job``'s match, analysed by a new engine made as the job says: a
    task that runs anywhere the job can be sent (:mod:`backgammon.analysis.batch`
    sends them to a :class:`~backgammon.engine.workers.TaskRunner`)."""
    return Analyzer(job.engine(), job.settings).analyze_game(game, job.info)


def match_analysis(
    record: MatchRecord,
    source: EvaluationSource,
    settings: AnalysisSettings,
    games: Sequence[GameAnalysis],
) -> MatchAnalysis:
    """The analysis of ``record`` from its games' analyses (in the record's order)."""
    info = record.info
    return MatchAnalysis(
        record.players, record.length, settings, tuple(games), info.variant.checkers, source
    )


def analyze_match(
    record: MatchRecord,
    engine: Engine | None = None,
    *,
    settings: AnalysisSettings | None = None,
    processes: int = 1,
    progress: ProgressCallback | None = None,
    store: bool = True,
) -> MatchAnalysis:
    """Analyse every game of ``record`` (see the module doc).

    Args:
        record: the match, as read by :func:`~backgammon.formats.read_match`.
        engine: the engine (default: the shipped networks with the bearoff databases).
        settings: ply, thresholds, ... (default :class:`AnalysisSettings`).
        processes: worker processes, one game at a time each (1: analyse here).
        progress: called as ``progress(done, total)`` in actions analysed.
        store: write the analysis into the record's entries (:func:`store_annotations`).

    Raises:
        ValueError: for ``processes`` < 1.
        IllegalActionError, IllegalPlayError: for a record whose actions the rules
            refuse (only possible for records built by hand).
    """
    if processes < 1:
        raise ValueError(f"processes must be at least 1, got {processes}")
    settings = AnalysisSettings() if settings is None else settings
    info = record.info
    total = sum(len(game.entries) for game in record.games)
    done = 0

    def report(count: int = 1) -> None:
        nonlocal done
        done += count
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    games: list[GameAnalysis]
    if engine is None:
        engine = analysis_engine(info.variant)
    if processes == 1 or len(record.games) <= 1:
        analyzer = Analyzer(engine, settings)
        games = [analyzer.analyze_game(game, info, step=report) for game in record.games]
    else:
        job = AnalysisJob.of(engine, settings, info)
        results: dict[int, GameAnalysis] = {}
        workers = min(processes, len(record.games), os.cpu_count() or 1)
        with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(job,)) as pool:
            futures = {pool.submit(_work, game, info): k for k, game in enumerate(record.games)}
            for future in as_completed(futures):
                k = futures[future]
                results[k] = future.result()
                report(len(record.games[k].entries))
        games = [results[k] for k in range(len(record.games))]
    analysis = match_analysis(record, engine.source, settings, games)
    if store:
        store_annotations(record, analysis)
    return analysis


# -- annotations in GNU Backgammon's SGF syntax ---------------------------------------------


def _letter(point: int, player: int) -> str:
    if point >= 25:
        return "y"
    if point <= 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - point + 1)


def _move_letters(steps: Sequence[tuple[int, int]], player: int) -> str:
    return "".join(_letter(a, player) + _letter(b, player) for a, b in steps)


def _number(value: float, digits: int = 6) -> str:
    return f"{value:.{digits}f}"


def _skill(mark: Mark | None, bad: str, doubtful: str) -> dict[str, list[str]]:
    if mark is Mark.VERY_BAD:
        return {bad: ["2"]}
    if mark is Mark.BAD:
        return {bad: ["1"]}
    if mark is Mark.DOUBTFUL:
        return {doubtful: [""]}
    return {}


def _luck_marks(luck: float, player: int) -> dict[str, list[str]]:
    very, plain = _LUCK_LEVELS
    colours = ("W", "B")
    if luck > plain:
        return {f"G{colours[player]}": ["2" if luck > very else "1"]}
    if luck < -plain:
        return {f"G{colours[1 - player]}": ["2" if luck < -very else "1"]}
    return {}


def _checker_annotations(item: CheckerAnalysis, ply: int, cubeful: bool) -> dict[str, list[str]]:
    values = [str(item.options.index(item.played))]
    for option in item.options:
        numbers = " ".join(_number(p) for p in option.probabilities)
        values.append(
            f"{_move_letters(option.steps, item.player)} E ver 3 {numbers} "
            f"{_number(option.equity)} {ply}{'C' if cubeful else ''} 0 1 0.000000 0"
        )
    result = {"A": values, "MR": [""], "LU": [_number(item.luck, 5)]}
    result.update(_luck_marks(item.luck, item.player))
    if item.counted:
        result.update(_skill(item.mark, "BM", "DO"))
    return result


def store_annotations(record: MatchRecord, analysis: MatchAnalysis) -> None:
    """Write ``analysis`` into ``record``'s entries (``entry.annotations``) in GNU
    Backgammon's SGF analysis syntax, replacing any analysis already there:

    * on a checker play: ``A`` (the index of the play made, then each option as its
      from/to letters and ``E ver 3`` with five probabilities, the equity and the
      evaluation settings, with ``C`` when the equities are cubeful), ``MR[]``, ``LU``
      (luck), ``GW``/``GB`` (lucky rolls), ``BM``/``DO`` (bad or doubtful play), and,
      when the roll was preceded by a cube decision, ``DA`` and ``BC``/``DC``;
    * on a double, take, pass or beaver: ``DA`` and ``BM``/``DO``.

    ``DA`` holds the no-double and double/take evaluations (probabilities, cubeless
    equity, cubeful equity, in match winning chances in a match), as GNU Backgammon
    writes them, so its readers recover our cube decision.
    """
    ply = analysis.settings.ply
    met = analysis.settings.table
    games = {game.number: game for game in analysis.games}
    for game_record in record.games:
        result = games.get(game_record.number)
        if result is None:
            continue
        for entry in game_record.entries:
            for key in _SGF_ANALYSIS_KEYS:
                entry.annotations.pop(key, None)
        score = game_record.score_before
        for item in result.decisions:
            if not 0 <= item.entry < len(game_record.entries):
                continue
            annotations = game_record.entries[item.entry].annotations
            if isinstance(item, CheckerAnalysis):
                annotations.update(_checker_annotations(item, ply, analysis.settings.cubeful))
                continue
            value = _da_value(item, ply, analysis.length, score, met)
            if item.action == "no double":
                annotations["DA"] = [value]
                annotations.update(_skill(item.mark, "BC", "DC"))
            else:
                annotations["DA"] = [value]
                annotations.update(_skill(item.mark, "BM", "DO"))
        for entry in game_record.entries:
            _order(entry.annotations)


def _da_value(
    item: CubeAnalysis, ply: int, length: int, score: tuple[int, int], met: MatchEquityTable
) -> str:
    cubeful = [item.no_double, item.double_take]
    if length:
        me = max(length - score[item.doubler], 0)
        them = max(length - score[1 - item.doubler], 0)
        with contextlib.suppress(ValueError):
            cubeful = [met.equity_to_mwc(value, me, them, item.cube) for value in cubeful]
    probabilities = " ".join(_number(p) for p in item.probabilities)
    rows = [
        f"{probabilities} {_number(item.cubeless_equity)} {_number(value)}" for value in cubeful
    ]
    return f"E ver 3 {ply}C 1 0.000000 0 " + " ".join(rows)


def _order(annotations: dict[str, Any]) -> None:
    """Put the analysis keys in GNU Backgammon's order (DA, A, MR, LU, G?, BM/DO, BC/DC)
    after any other keys."""
    order = ("DA", "A", "MR", "CR", "LU", "GW", "GB", "BM", "DO", "BC", "DC")
    moved = [(key, annotations.pop(key)) for key in order if key in annotations]
    annotations.update(moved)
