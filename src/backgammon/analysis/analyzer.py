"""Judging every decision of a game: :class:`Analyzer` replays a game through the
rules and values each checker play, each cube decision and the luck of each roll with
the engine, as follows.

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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from backgammon.analysis.results import (
    AnalysisSettings,
    CheckerAnalysis,
    CubeAnalysis,
    Decision,
    GameAnalysis,
    PlayOption,
    Probabilities,
)
from backgammon.analysis.stakes import _CubefulBearoff, _FloatArray, _LazyBearoff, _Stakes
from backgammon.engine.cube import (
    CubeDecision,
    CubeOwner,
    classify_cube_decision,
    cube_efficiency,
    match_cube_decision,
    money_cube_decision,
)
from backgammon.engine.cubeful import CubeContext, cube_decision_at, cubeful_play_values
from backgammon.engine.evaluator import Engine, PlayEvaluation
from backgammon.engine.search import invert, rank_children
from backgammon.formats.record import GameRecord, MatchInfo
from backgammon.rules.cube import Beaver, CubeState, Double, Drop, MatchContext, Raccoon, Take
from backgammon.rules.dice import ALL_ROLLS, Roll
from backgammon.rules.game import Game, OpeningRoll
from backgammon.rules.play import Play
from backgammon.rules.position import Position

__all__ = ["Analyzer"]


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
