"""Cubeful n-ply search: the cube carried through the lookahead, as GNU Backgammon and
eXtreme Gammon do.

A node is a position before its side on roll rolls, with a *cube context*: the cube's
value and owner, and either money (Jacoby, beavers) or a match (away scores, a match
equity table, the Crawford game). Its **value** is what the position is worth to the
side on roll with the right cube action now and later:

* at 0 plies, Janowski's model from the evaluator's cubeless probabilities
  (:func:`~backgammon.engine.cube.money_cubeful_value`, or its match counterpart);
* at ``n`` plies, when the side on roll may double: ``max(ND, min(DT, DP))`` with
  ``ND`` its value if it rolls with the cube as it is, ``DT`` if it doubles and is
  taken (the opponent then owns a cube twice as high), ``DP`` what a pass gives it
  (the cube's value in money, the match winning chance of winning that many points in
  a match). When it may not double (the opponent owns the cube, the Crawford game, a
  cube that already covers its away score) the value is ``ND``;
* ``ND`` (and ``DT``) at ``n`` plies are the average over the 21 rolls of the value
  of the best play's result for the roller: minus the opponent's value of that
  position at ``n − 1`` plies with the cube context seen from the opponent (one minus
  it in match winning chances). As in GNU Backgammon, the best play of each roll
  inside the search is chosen at 0 plies, by its cubeful value in the node's first
  cube context (among the pruning network's best few, with pruning); the search then
  values that play in every cube context at once.

Money values here are in points at the context's cube (so doubling doubles them);
match values are match winning chances. :func:`cube_decision_at` turns the root's
three choices into a :class:`~backgammon.engine.cube.CubeDecision` per unit of the
current cube, as the 0-ply model reports them; at 0 plies it is exactly
:func:`~backgammon.engine.cube.money_cube_decision` /
:func:`~backgammon.engine.cube.match_cube_decision`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from backgammon.engine.cube import (
    CONTACT_EFFICIENCY,
    CubeDecision,
    CubeOwner,
    classify_cube_decision,
    match_no_double_mwcs,
    money_no_double_equities,
)
from backgammon.engine.evaluator import PositionClass, classify_boards
from backgammon.engine.met import MatchEquityTable, kazaross_xg2
from backgammon.engine.search import (
    BoardEvaluator,
    Pruning,
    best_children,
    distinct_boards,
    evaluate_plies,
    finished_boards,
    weighted_rolls,
)
from backgammon.notation.xgid import decode_xgid
from backgammon.rules.movegen import BOARD_SLOTS

__all__ = [
    "CubeContext",
    "ExactCubeEquities",
    "board_efficiencies",
    "cube_choices",
    "cube_context_from_xgid",
    "cube_decision_at",
    "cubeful_play_values",
    "cubeful_values",
    "play_scorer",
]

_HALF = BOARD_SLOTS // 2
ExactCubeEquities = Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.float64]]
"""Boards ``uint8[n, 52]`` to exact money equities per unit of cube ``float[n, 3]``
(no double with a centred cube, no double with its own cube, the opponent owning the
cube), NaN where unknown: the two-sided bear-off database's
:meth:`~backgammon.engine.bearoff.BearoffDatabase.cube_equity_rows`. Used at every
depth in money play, instead of searching or Janowski's model."""

_WEIGHTS = np.array([weight for _, _, weight in weighted_rolls()])
_FLIPPED_OWNER = {
    CubeOwner.CENTRED: CubeOwner.CENTRED,
    CubeOwner.PLAYER: CubeOwner.OPPONENT,
    CubeOwner.OPPONENT: CubeOwner.PLAYER,
}


@dataclass(frozen=True, slots=True)
class CubeContext:
    """The cube as the side on roll sees it, and the stakes it is played for.

    Attributes:
        cube: the cube's value.
        owner: who holds it, seen from the side on roll.
        away: ``(the side on roll's away score, the opponent's)`` in a match; ``None``
            in money play.
        met: the match equity table (a match only).
        crawford: this is the Crawford game (nobody may double).
        jacoby: money only: gammons count single while the cube is centred.
        beavers: money only: a doubled side may beaver.
        alive: the cube may be turned in this game at all (money sessions without a
            cube, or a cube at its limit, are not).
    """

    cube: int = 1
    owner: CubeOwner = CubeOwner.CENTRED
    away: tuple[int, int] | None = None
    met: MatchEquityTable | None = None
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    alive: bool = True

    def __post_init__(self) -> None:
        if self.cube < 1:
            raise ValueError(f"the cube is at least 1, got {self.cube}")
        if (self.away is None) != (self.met is None):
            raise ValueError("a match context needs both away scores and a match equity table")
        if self.away is not None and min(self.away) < 1:
            raise ValueError(f"away scores are at least 1, got {self.away}")

    @property
    def is_money(self) -> bool:
        """Whether this is money play."""
        return self.away is None

    def flipped(self) -> CubeContext:
        """The same cube seen from the opponent (who is on roll after a play)."""
        away = None if self.away is None else (self.away[1], self.away[0])
        return dataclasses.replace(self, owner=_FLIPPED_OWNER[self.owner], away=away)

    def may_double(self) -> bool:
        """Whether the side on roll may (usefully) double: it has access to the cube,
        the cube is alive, it is not the Crawford game, and in a match the cube does
        not already cover its away score."""
        if not self.alive or self.crawford or self.owner is CubeOwner.OPPONENT:
            return False
        return self.away is None or self.cube < self.away[0]

    def doubled(self) -> CubeContext:
        """After the side on roll doubles and is taken: twice the cube, the opponent's."""
        return dataclasses.replace(self, cube=2 * self.cube, owner=CubeOwner.OPPONENT)

    def pass_value(self) -> float:
        """What the side on roll gets when its double is passed."""
        if self.away is None:
            return float(self.cube)
        assert self.met is not None
        return self.met.after_game(self.away[0], self.away[1], self.cube)

    def for_opponent(self, value: float | npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """A value of the side on roll as the opponent counts it."""
        array = np.asarray(value, dtype=np.float64)
        return -array if self.away is None else 1.0 - array

    def no_double(
        self, probabilities: npt.NDArray[np.float64], efficiency: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        """The 0-ply values of rolling with the cube as it is (Janowski's model), for
        rows of five cubeless probabilities and each row's cube efficiency."""
        if self.away is None:
            x = efficiency if self.alive else np.zeros_like(efficiency)
            return self.cube * money_no_double_equities(
                probabilities, self.owner, x, jacoby=self.jacoby
            )
        assert self.met is not None
        live = self.alive and not self.crawford and self.cube < max(self.away)
        return match_no_double_mwcs(
            probabilities, self.met, self.away, self.cube, self.owner, efficiency, live
        )

    def decide(
        self, no_double: npt.NDArray[np.float64], double_take: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        """The side on roll's values with its best cube action, given its values of not
        doubling and of doubling and being taken (the taker's best answer included)."""
        if not self.may_double():
            return no_double
        doubled = np.minimum(double_take, self.pass_value())
        if self.beavers and self.away is None:
            # The taker beavers when the take is worth more to it than nothing.
            doubled = np.where(double_take < 0.0, np.minimum(doubled, 2.0 * double_take), doubled)
        return np.maximum(no_double, doubled)

    def normalised(self, value: float) -> float:
        """A value as an equity per unit of the current cube (match winning chances
        through the table's ``mwc_to_equity``)."""
        if self.away is None:
            return value / self.cube
        assert self.met is not None
        return self.met.mwc_to_equity(value, self.away[0], self.away[1], self.cube)


def cube_context_from_xgid(text: str, met: MatchEquityTable | None = None) -> CubeContext:
    """The cube context an XGID records, for its side on roll: the cube's value and
    owner, and in a match the away scores and the Crawford flag (``met``, default
    Kazaross-XG2), in money the Jacoby and beaver bits; a maximum cube of 0 (cubeless)
    or a cube at its maximum is not alive.

    Raises:
        NotationError: for a malformed XGID.
        ValueError: for a match score at or past the match length.
    """
    fields = decode_xgid(text)
    cube = 2**fields.cube_log2
    owner = (
        CubeOwner.CENTRED
        if fields.cube_position == 0
        else CubeOwner.PLAYER
        if fields.cube_position == fields.turn
        else CubeOwner.OPPONENT
    )
    alive = fields.max_cube > 0 and fields.cube_log2 < fields.max_cube
    if fields.match_length == 0:
        return CubeContext(
            cube=cube,
            owner=owner,
            jacoby=bool(fields.crawford_jacoby & 1),
            beavers=bool(fields.crawford_jacoby & 2),
            alive=alive,
        )
    scores = (fields.score_bottom, fields.score_top)
    mine, theirs = scores if fields.turn == 1 else scores[::-1]
    length = fields.match_length
    if max(mine, theirs) >= length:
        raise ValueError(f"a score of {max(mine, theirs)} ends a {length}-point match")
    return CubeContext(
        cube=cube,
        owner=owner,
        away=(length - mine, length - theirs),
        met=kazaross_xg2() if met is None else met,
        crawford=bool(fields.crawford_jacoby),
        alive=alive,
    )


def board_efficiencies(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """GNU Backgammon's cube efficiency of each board for its side on roll: the race
    figure for its pip count in a race (or a finished game), the contact one otherwise
    (as :func:`~backgammon.engine.cube.cube_efficiency` for a position)."""
    array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, BOARD_SLOTS)
    classes = classify_boards(array)
    pips = array[:, 1:_HALF].astype(np.int64) @ np.arange(1, _HALF, dtype=np.int64)
    contact = (classes == int(PositionClass.CONTACT)) | (classes == int(PositionClass.CRASHED))
    # race_cube_efficiency, for arrays: 0.6 at 40 pips rising to 0.7 at 120, clamped.
    race = np.clip(0.6 + (pips - 40) * 0.1 / 80, 0.6, 0.7)
    return np.where(contact, CONTACT_EFFICIENCY, race)


def _leaf_values(
    evaluator: BoardEvaluator, boards: npt.NDArray[np.uint8], contexts: Sequence[CubeContext]
) -> npt.NDArray[np.float64]:
    """0-ply values (with the cube action) of every board in every context."""
    probabilities = evaluate_plies(evaluator, boards, 0)
    efficiency = board_efficiencies(boards)
    out = np.empty((boards.shape[0], len(contexts)))
    for j, context in enumerate(contexts):
        no_double = context.no_double(probabilities, efficiency)
        if context.may_double():
            double_take = context.doubled().no_double(probabilities, efficiency)
            out[:, j] = context.decide(no_double, double_take)
        else:
            out[:, j] = no_double
    return out


def _exact_values(
    rows: npt.NDArray[np.float64], contexts: Sequence[CubeContext]
) -> npt.NDArray[np.float64]:
    """Values in each (money) context from exact per-unit equities ``rows`` (see
    :data:`ExactCubeEquities`), the side on roll's cube action included."""
    column = {CubeOwner.CENTRED: 0, CubeOwner.PLAYER: 1, CubeOwner.OPPONENT: 2}
    out = np.empty((rows.shape[0], len(contexts)))
    for j, context in enumerate(contexts):
        no_double = context.cube * rows[:, column[context.owner]]
        out[:, j] = context.decide(no_double, 2 * context.cube * rows[:, 2])
    return out


def _exactly_known(
    boards: npt.NDArray[np.uint8],
    contexts: Sequence[CubeContext],
    exact: ExactCubeEquities | None,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Which boards ``exact`` values (money contexts with a live cube only), and their
    per-unit rows."""
    usable = exact is not None and all(c.is_money and c.alive for c in contexts)
    if not usable or boards.shape[0] == 0:
        return np.zeros(boards.shape[0], dtype=np.bool_), np.zeros((0, 3))
    assert exact is not None
    rows = np.asarray(exact(boards), dtype=np.float64).reshape(-1, 3)
    return ~np.isnan(rows[:, 0]), rows


def _with_doubles(contexts: Sequence[CubeContext]) -> list[CubeContext]:
    """The contexts and, for those where the side on roll may double, their doubled
    ones: what a node must roll for. Each once, in order."""
    wanted: list[CubeContext] = []
    for context in contexts:
        for needed in (context, context.doubled()) if context.may_double() else (context,):
            if needed not in wanted:
                wanted.append(needed)
    return wanted


def cubeful_values(
    evaluator: BoardEvaluator,
    boards: npt.NDArray[np.uint8],
    plies: int,
    contexts: Sequence[CubeContext],
    pruning: Pruning | None = None,
    exact: ExactCubeEquities | None = None,
) -> npt.NDArray[np.float64]:
    """The value of each board (side on roll first, before it rolls) in each cube
    context, with the side on roll's best cube action, searched ``plies`` deep:
    ``float64[n, len(contexts)]`` (money: points at the context's cube; match: match
    winning chances). See the module doc.

    Raises:
        ValueError: for a negative depth or a malformed board array.
    """
    if plies < 0:
        raise ValueError(f"plies must be >= 0, got {plies}")
    array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, BOARD_SLOTS)
    if array.shape[0] == 0:
        return np.zeros((0, len(contexts)))
    first, inverse = distinct_boards(array)
    distinct = array[first]
    out = np.empty((distinct.shape[0], len(contexts)))
    known, rows = _exactly_known(distinct, contexts, exact)
    if known.any():
        out[known] = _exact_values(rows[known], contexts)
    # Finished games, and every board at 0 plies, are valued by the model.
    leaf = ~known & (finished_boards(distinct) if plies > 0 else True)
    if leaf.any():
        out[leaf] = _leaf_values(evaluator, distinct[leaf], contexts)
    live = ~known & ~leaf
    if live.any():
        wanted = _with_doubles(contexts)
        values = _rolled(evaluator, distinct[live], plies, wanted, pruning, exact)
        where = {context: k for k, context in enumerate(wanted)}
        for j, context in enumerate(contexts):
            no_double = values[:, where[context]]
            if context.may_double():
                out[live, j] = context.decide(no_double, values[:, where[context.doubled()]])
            else:
                out[live, j] = no_double
    return out[inverse]


def play_scorer(
    context: CubeContext,
) -> Callable[[npt.NDArray[np.uint8], npt.NDArray[np.float64]], npt.NDArray[np.float64]]:
    """How the search (and a cubeful rollout) ranks the plays of a roll: by the
    mover's 0-ply cubeful value in ``context`` (the cube as the mover sees it), from
    the resulting boards and their probabilities (the opponent on roll, who takes its
    cube action first); a ``score`` for :func:`~backgammon.engine.search.best_children`."""
    theirs = context.flipped()

    def score(
        children: npt.NDArray[np.uint8], probabilities: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        efficiency = board_efficiencies(children)
        value = theirs.no_double(probabilities, efficiency)
        if theirs.may_double():
            value = theirs.decide(value, theirs.doubled().no_double(probabilities, efficiency))
        return context.for_opponent(value)

    return score


def _rolled(
    evaluator: BoardEvaluator,
    boards: npt.NDArray[np.uint8],
    plies: int,
    contexts: Sequence[CubeContext],
    pruning: Pruning | None,
    exact: ExactCubeEquities | None,
) -> npt.NDArray[np.float64]:
    """The side on roll's value of rolling now (no cube action first), in each
    context: the 21 rolls' best plays (chosen at 0-ply, cubeless), valued at
    ``plies − 1`` from the opponent's side."""
    # The play of each roll is the best by the 0-ply cubeful value for the first
    # context (GNU Backgammon's choice: one play per roll, valued in every context).
    children, board_of, roll_of = best_children(
        evaluator, boards, pruning, play_scorer(contexts[0])
    )
    chosen, back = distinct_boards(children)
    theirs = cubeful_values(
        evaluator, children[chosen], plies - 1, [c.flipped() for c in contexts], pruning, exact
    )[back]
    out = np.zeros((boards.shape[0], len(contexts)))
    for j, context in enumerate(contexts):
        mine = context.for_opponent(theirs[:, j])  # the opponent's values, for the mover
        np.add.at(out[:, j], board_of, _WEIGHTS[roll_of] * mine)
    return out


def cube_choices(
    evaluator: BoardEvaluator,
    boards: npt.NDArray[np.uint8],
    plies: int,
    context: CubeContext,
    pruning: Pruning | None = None,
    exact: ExactCubeEquities | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float]:
    """The side on roll's values of "no double" and "double, take" for each board, and
    of "double, pass", searched ``plies`` deep (money: points; match: match winning
    chances). At 0 plies these are the model's figures from the board's cubeless
    probabilities.

    Raises:
        ValueError: if the side on roll may not double in ``context``.
    """
    if not context.may_double():
        raise ValueError("the side on roll may not double here")
    array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, BOARD_SLOTS)
    both = [context, context.doubled()]
    values = np.zeros((array.shape[0], 2))
    known, rows = _exactly_known(array, both, exact)
    if known.any():
        column = {CubeOwner.CENTRED: 0, CubeOwner.PLAYER: 1}[context.owner]
        values[known, 0] = context.cube * rows[known, column]
        values[known, 1] = 2 * context.cube * rows[known, 2]
    leaf = ~known & (finished_boards(array) if plies > 0 else True)
    if leaf.any():
        probabilities = evaluate_plies(evaluator, array[leaf], 0)
        efficiency = board_efficiencies(array[leaf])
        for k, context_k in enumerate(both):
            values[leaf, k] = context_k.no_double(probabilities, efficiency)
    live = ~known & ~leaf
    if live.any():
        values[live] = _rolled(evaluator, array[live], plies, both, pruning, exact)
    return values[:, 0], values[:, 1], context.pass_value()


def cube_decision_at(
    evaluator: BoardEvaluator,
    board: npt.NDArray[np.uint8],
    plies: int,
    context: CubeContext,
    pruning: Pruning | None = None,
    exact: ExactCubeEquities | None = None,
) -> CubeDecision:
    """The cube decision of the side on roll of ``board``, searched cubefully ``plies``
    deep, as equities per unit of the current cube ("double, pass" = +1).

    Raises:
        ValueError: if the side on roll may not double in ``context``.
    """
    no_double, double_take, double_pass = cube_choices(
        evaluator, board, plies, context, pruning, exact
    )
    decision = classify_cube_decision(
        float(no_double[0]),
        float(double_take[0]),
        double_pass,
        beavers=context.beavers and context.is_money,
    )
    return dataclasses.replace(
        decision,
        no_double=context.normalised(decision.no_double),
        double_take=context.normalised(decision.double_take),
        double_pass=context.normalised(decision.double_pass),
    )


def cubeful_play_values(
    evaluator: BoardEvaluator,
    children: npt.NDArray[np.uint8],
    plies: int,
    context: CubeContext,
    pruning: Pruning | None = None,
    exact: ExactCubeEquities | None = None,
) -> npt.NDArray[np.float64]:
    """The mover's cubeful values of plays, given their results ``children`` (the
    opponent on roll, before it rolls), each searched ``plies`` deep: minus (one minus,
    in a match) the opponent's value with its best cube action. ``context`` is the
    cube as the mover saw it before its play."""
    theirs = cubeful_values(evaluator, children, plies, [context.flipped()], pruning, exact)
    return context.for_opponent(theirs[:, 0])
