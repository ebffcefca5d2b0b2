"""Static evaluation: position classes, evaluations, and the :class:`Engine`.

An :class:`Engine` owns its :class:`~backgammon.engine.network.Networks` (opened from a
weights file, or given) and evaluates positions *from the side on roll, before it
rolls*, cubeless. It sorts each position into a :class:`PositionClass` and picks an
evaluator by class:

* ``OVER``: exact results (the game has ended);
* ``BEAROFF``: a pluggable :class:`BearoffEvaluator` (the bearoff databases) where it
  covers the position, otherwise the race network;
* ``RACE``: the race network on the race encoding;
* ``CONTACT`` and ``CRASHED``: the contact and crashed networks on the contact
  encoding; a ``CONTACT`` position whose game plan has a network of its own
  (:attr:`~backgammon.engine.network.Networks.plans`, chosen by
  :func:`~backgammon.engine.plans.plan_of`'s rule) is evaluated by that network.

A variant that is solved outright (1-, 2- and 3-checker hypergammon, see
:mod:`backgammon.engine.hypergammon`) skips the classes: an :class:`ExactEvaluator`
values every position and the networks are not used.

Network outputs are then made consistent with each other and with what the position
tells for certain: probabilities are clipped to ``[0, 1]``,
``win >= win_gammon >= win_backgammon`` and ``1 - win >= lose_gammon >= lose_backgammon``;
no gammon (nor backgammon) can be won once the opponent has borne a checker off, nor lost
once the side on roll has; in a race, no backgammon can be won when no opposing checker
is left in the side's home board (nor lost the other way round); and a variant without
gammons or backgammons gets zeros there.

Batches (:meth:`Engine.evaluate_many`, :meth:`Engine.evaluate_boards`) are classified by
one Numba call; then, per network, one Numba call encodes its rows and computes the
hidden layer (adding only the weight rows of non-zero inputs), NumPy applies the sigmoid
to the whole hidden matrix, and one Numba call computes the output layer. No BLAS call
is made, so no BLAS threads compete with the caller's own processes. (The dense NumPy
forward pass, :meth:`~backgammon.engine.network.Network.forward`, gives the same numbers
to float32 rounding, and is what a trainer would use.) :meth:`Engine.evaluate` runs one
position through a single Numba call.

What an evaluation gives (:class:`Evaluation`, :class:`PlayEvaluation`) is
:mod:`~backgammon.engine.evaluation`'s; the exact evaluators an engine plugs in
(:class:`BearoffEvaluator`, :class:`ExactEvaluator`, :class:`EvaluationSource`) are
:mod:`~backgammon.engine.exact`'s, and the networks it opens by default
(:func:`default_networks`, :func:`networks_for`) :mod:`~backgammon.engine.weights`'s;
this module exports them all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from enum import IntEnum
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.engine.encoding import (
    CONTACT_FAMILY,
    CONTACT_INPUTS,
    NARDY_ENCODING,
    PLAKOTO_ENCODING,
    RACE_INPUTS,
    encode_contact_family_into,
    encode_contact_into,
    encode_race_into,
)
from backgammon.engine.network import (
    OUTPUTS,
    Network,
    Networks,
    forward_one,
    hidden_into,
    make_consistent,
    outputs_into,
    sigmoid_inplace,
)
from backgammon.engine.plan_networks import plan_table, split_by_plan
from backgammon.engine.plans import plan_index_of_board
from backgammon.engine.pruning import default_pruning_network
from backgammon.engine.search import EvaluationCache, MoveFilter, Pruning, evaluate_plies, invert
from backgammon.errors import EngineError
from backgammon.rules.dice import Roll, RollLike
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant
from backgammon.rules.variant_movegen import movement_code

if TYPE_CHECKING:
    from backgammon.rules.play import PlayList
from backgammon.engine.evaluation import (
    Evaluation,
    PlayEvaluation,
    _equities,
    _evaluation,
    _evaluations,
)
from backgammon.engine.exact import (
    BearoffEvaluator,
    EvaluationSource,
    ExactEvaluator,
    PositionwiseBearoff,
    _default_exact,
    _DefaultBearoff,
    _SolvedBearoff,
    evaluation_source,
    exact_database_ready,
)
from backgammon.engine.weights import (
    DEFAULT_SEED,
    DEFAULT_WEIGHTS,
    SHARED_NETWORKS,
    default_networks,
    networks_for,
    variant_networks,
    variant_weights_name,
)

__all__ = [
    "CRASHED_LIMIT",
    "DEFAULT_SEED",
    "DEFAULT_WEIGHTS",
    "PRUNING_KEEP",
    "SHARED_NETWORKS",
    "BearoffEvaluator",
    "Engine",
    "Evaluation",
    "EvaluationSource",
    "ExactEvaluator",
    "PlayEvaluation",
    "PositionClass",
    "PositionwiseBearoff",
    "classify",
    "classify_board",
    "classify_boards",
    "default_networks",
    "evaluation_source",
    "exact_database_ready",
    "lookahead_supported",
    "mother_rule_results",
    "networks_for",
    "variant_networks",
    "variant_weights_name",
]

Boards = npt.NDArray[np.uint8]
Probabilities = npt.NDArray[np.float32]
Continues = Callable[[Play], bool]
"""Whether the mover plays on after a play (see :meth:`Engine.best_play`)."""

SLOTS = 26
BAR = 25
CRASHED_LIMIT = 6
"""A contact position is *crashed* when a side has at most this many checkers in play
(see :class:`PositionClass`)."""
PRUNING_KEEP = 5
"""How many plays per roll, best by the pruning network, the full network judges
inside a pruned search."""

MAX_PLY = 4
"""The deepest lookahead ``best_play``/``rank_plays``/``evaluate_at`` accept."""


class PositionClass(IntEnum):
    """Which evaluator serves a position (GNU Backgammon's classes, simplified).

    * ``OVER``: a side has no checker left in play; the result is known.
    * ``BEAROFF``: no contact, and both sides have every checker in play on their
      points 1..6 (what the bearoff databases cover).
    * ``RACE``: no contact otherwise.
    * ``CRASHED``: contact, and a side has at most :data:`CRASHED_LIMIT` checkers in
      play (bar included), where dead checkers are discounted: with two or more on its
      1-point, those do not count, and if its 2-point also holds two or more, the two
      stacks count as one checker together; otherwise two or more on its 2-point
      count as one checker. (This reproduces GNU Backgammon's class on all 2,000
      positions of the reference file.)
    * ``CONTACT``: contact otherwise. There is contact while the two rearmost checkers
      have not passed each other: rearmost point of one side plus that of the other
      (in their own numberings, the bar = 25) above 25.
    """

    OVER = 0
    BEAROFF = 1
    RACE = 2
    CRASHED = 3
    CONTACT = 4


_OVER = int(PositionClass.OVER)
_BEAROFF = int(PositionClass.BEAROFF)
_RACE = int(PositionClass.RACE)
_CRASHED = int(PositionClass.CRASHED)
_CONTACT = int(PositionClass.CONTACT)


@njit(cache=True)
def _crashed_side(board: Boards, side: int, in_play: np.int64, limit: int) -> bool:
    if in_play <= limit:
        return True
    one = np.int64(board[side + 1])
    two = np.int64(board[side + 2])
    if one > 1:
        if in_play - one <= limit:
            return True
        return bool(two > 1 and 1 + in_play - one - two <= limit)
    return bool(two > 1 and in_play - (two - 1) <= limit)


@njit(cache=True)
def classify_board(board: Boards) -> int:
    """The :class:`PositionClass` code of one 52-slot board (a Numba kernel, callable
    from other kernels)."""
    in_play = np.int64(0)
    back = 0
    their_in_play = np.int64(0)
    their_back = 0
    for slot in range(1, SLOTS):
        count = np.int64(board[slot])
        if count:
            in_play += count
            back = slot
        count = np.int64(board[SLOTS + slot])
        if count:
            their_in_play += count
            their_back = slot
    if in_play == 0 or their_in_play == 0:
        return _OVER
    if back + their_back > 25:
        # One call site for both sides: Numba compiles a function once per set of
        # literal arguments.
        for side in range(2):
            if _crashed_side(
                board, side * SLOTS, their_in_play if side else in_play, CRASHED_LIMIT
            ):
                return _CRASHED
        return _CONTACT
    if back <= 6 and their_back <= 6:
        return _BEAROFF
    return _RACE


_classify_board = classify_board


@njit(cache=True)
def _classify_rows(boards: Boards, out: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    for row in range(boards.shape[0]):
        out[row] = _classify_board(boards[row])
    return out


def classify_boards(boards: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """The :class:`PositionClass` codes of many 52-slot boards, as ``int8[n]``.

    Raises:
        ValueError: if ``boards`` is not ``(n, 52)``.
    """
    array = _as_boards(boards)
    return _classify_rows(array, np.empty(array.shape[0], dtype=np.int8))


def classify(position: Position) -> PositionClass:
    """The class of ``position`` (see :class:`PositionClass`).

    >>> classify(Position.initial()).name
    'CONTACT'
    """
    return PositionClass(_classify_board(_board(position)))


@njit(cache=True)
def _exact_over(board: Boards, out: Probabilities) -> None:
    """Exact results of an ended game for the side on roll (who lost, unless it is the
    one with no checker left in play)."""
    mine = np.int64(0)
    for slot in range(1, SLOTS):
        mine += board[slot]
    out[:] = 0.0
    if mine == 0:  # the side on roll has borne everything off: it won
        out[0] = 1.0
        if board[SLOTS] == 0:
            out[1] = 1.0
            for slot in range(19, SLOTS):
                if board[SLOTS + slot]:
                    out[2] = 1.0
        return
    if board[0] == 0:
        out[3] = 1.0
        for slot in range(19, SLOTS):
            if board[slot]:
                out[4] = 1.0


@njit(cache=True)
def _finish(board: Boards, cls: int, p: Probabilities, gammons: bool, backgammons: bool) -> None:
    """Exact results for ``OVER``; otherwise the consistency rules of the module doc."""
    if cls == _OVER:
        _exact_over(board, p)
    else:
        if board[SLOTS] > 0:
            p[1] = 0.0
            p[2] = 0.0
        if board[0] > 0:
            p[3] = 0.0
            p[4] = 0.0
        if _OVER < cls <= _RACE:  # no contact
            theirs_in_my_home = False
            mine_in_their_home = False
            for slot in range(19, SLOTS):
                if board[SLOTS + slot]:
                    theirs_in_my_home = True
                if board[slot]:
                    mine_in_their_home = True
            if not theirs_in_my_home:
                p[2] = 0.0
            if not mine_in_their_home:
                p[4] = 0.0
    if not gammons:
        p[1:] = 0.0
    elif not backgammons:
        p[2] = 0.0
        p[4] = 0.0
    make_consistent(p)


@njit(cache=True)
def _finish_rows(
    boards: Boards,
    classes: npt.NDArray[np.int8],
    probs: Probabilities,
    gammons: bool,
    backgammons: bool,
) -> None:
    for row in range(boards.shape[0]):
        _finish(boards[row], int(classes[row]), probs[row], gammons, backgammons)


@njit(cache=True)
def _views(
    params: Probabilities, inputs: int, hidden: int
) -> tuple[Probabilities, Probabilities, Probabilities, Probabilities]:
    """``w1``, ``b1``, ``w2t``, ``b2`` of a flat parameter vector (see
    :class:`~backgammon.engine.network.Network`)."""
    end_w1 = inputs * hidden
    end_b1 = end_w1 + hidden
    end_w2 = end_b1 + hidden * OUTPUTS
    return (
        params[:end_w1].reshape(inputs, hidden),
        params[end_w1:end_b1],
        params[end_b1:end_w2].reshape(OUTPUTS, hidden),
        params[end_w2:],
    )


@njit(cache=True)
def _evaluate_one(
    board: Boards,
    checkers: int,
    gammons: bool,
    backgammons: bool,
    defer_bearoff: bool,
    contact: Probabilities,
    race: Probabilities,
    crashed: Probabilities,
    hidden: npt.NDArray[np.int64],
    plan_params: Probabilities,
    plan_hidden: npt.NDArray[np.int64],
    out: Probabilities,
) -> int:
    """Classify, encode, run the network, finish; return the class. With
    ``defer_bearoff``, a ``BEAROFF`` position is only classified (``out`` untouched).
    ``plan_params[i]`` is the network of plan ``PLANS[i]`` where ``plan_hidden[i]`` is
    not 0 (see :func:`~backgammon.engine.plan_networks.plan_table`)."""
    cls = _classify_board(board)
    if cls == _BEAROFF and defer_bearoff:
        return cls
    if cls == _OVER:
        pass
    elif cls <= _RACE:  # BEAROFF or RACE
        x = np.empty(RACE_INPUTS, dtype=np.float32)
        encode_race_into(board, checkers, x)
        w1, b1, w2t, b2 = _views(race, RACE_INPUTS, hidden[1])
        forward_one(x, w1, b1, w2t, b2, out)
    else:
        x = np.empty(CONTACT_INPUTS, dtype=np.float32)
        encode_contact_into(board, checkers, x)
        plan = plan_index_of_board(board) if cls == _CONTACT and plan_hidden.any() else 0
        if cls == _CRASHED:
            w1, b1, w2t, b2 = _views(crashed, CONTACT_INPUTS, hidden[2])
        elif plan_hidden[plan]:
            w1, b1, w2t, b2 = _views(plan_params[plan], CONTACT_INPUTS, plan_hidden[plan])
        else:
            w1, b1, w2t, b2 = _views(contact, CONTACT_INPUTS, hidden[0])
        forward_one(x, w1, b1, w2t, b2, out)
    _finish(board, cls, out, gammons, backgammons)
    return cls


@njit(cache=True)
def _hidden_rows(
    boards: Boards,
    rows: npt.NDArray[np.int64],
    contact: bool,
    family: int,
    checkers: int,
    params: Probabilities,
    inputs: int,
    hidden: int,
    out: Probabilities,
) -> None:
    """Encode ``boards[rows]`` (a contact encoding of ``family``, see
    :data:`~backgammon.engine.encoding.CONTACT_FAMILY`, or the race encoding) and
    write the hidden layer's pre-activations of each into ``out[k]``."""
    w1, b1, _, _ = _views(params, inputs, hidden)
    x = np.empty(inputs, dtype=np.float32)
    acc = np.empty(hidden, dtype=np.float32)
    for k in range(rows.shape[0]):
        if contact:
            encode_contact_family_into(boards[rows[k]], family, checkers, x)
        else:
            encode_race_into(boards[rows[k]], checkers, x)
        hidden_into(x, w1, b1, acc)
        for j in range(hidden):  # element by element (see search._grown)
            out[k, j] = acc[j]


@njit(cache=True)
def _output_rows(
    activations: Probabilities,
    rows: npt.NDArray[np.int64],
    params: Probabilities,
    inputs: int,
    hidden: int,
    probs: Probabilities,
) -> None:
    """The output layer of each row of hidden ``activations``, into ``probs[rows[k]]``."""
    _, _, w2t, b2 = _views(params, inputs, hidden)
    for k in range(rows.shape[0]):
        outputs_into(activations[k], w2t, b2, probs[rows[k]])


# The engine reads a position's 52 bytes directly (its documented slot layout), into
# writable arrays: the kernels are then compiled for one array type only.


_COUNT_MASK = np.uint8(0x7F)
"""Clears Plakoto's pin mark from stored slots (see
:mod:`backgammon.rules.blocking_movegen`)."""


_PINNED = 0x80
_MOTHER = 24  # a side's own 24-point, where its mother starts


def mother_rule_results(
    boards: npt.ArrayLike, prison: bool = False
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Which Plakoto boards ``uint8[n, 52]`` the mother rule has ended, and their
    exact results for the side on roll (its opponent has just played): ``(ended,
    probabilities)``, the probabilities ``float[n, 5]`` meaningful where ``ended``.

    A side whose mother (a checker on its own 24-point) is pinned loses double, unless
    the pinner still has checkers on its own 24-point (then the game goes on); both
    mothers pinned is a draw (0.5 wins, no gammons). With ``prison`` (the prison rule)
    a pinned mother loses at once, without the exception. Games already ended by
    bearing off are left to the usual scoring (not marked)."""
    array = np.asarray(boards, dtype=np.uint8).reshape(-1, 2 * SLOTS)
    counts = array & _COUNT_MASK
    playing = counts[:, 1:SLOTS].any(axis=1) & counts[:, SLOTS + 1 :].any(axis=1)
    mine_caught = (array[:, _MOTHER] & _PINNED) != 0
    theirs_caught = (array[:, SLOTS + _MOTHER] & _PINNED) != 0
    draw = mine_caught & theirs_caught
    lost = mine_caught & ~theirs_caught & (prison | (counts[:, SLOTS + _MOTHER] == 0))
    won = theirs_caught & ~mine_caught & (prison | (counts[:, _MOTHER] == 0))
    ended = playing & (draw | lost | won)
    probabilities = np.zeros((array.shape[0], OUTPUTS))
    probabilities[draw, 0] = 0.5
    probabilities[lost, 3] = 1.0
    probabilities[won, 0] = 1.0
    probabilities[won, 1] = 1.0
    return ended, probabilities


def lookahead_supported(variant: Variant) -> bool:
    """Whether the engine's lookahead (``ply`` > 0) follows ``variant``'s rules: a
    turn that ends after one play, and a game that ends by bearing off or by the
    mother rule, thrown with two dice. Not followed yet: turns that go on after a play
    (acey-deucey's and Russian backgammon's extra rolls and chosen or complementary
    doubles), the first-hit game, atomic's bomb and tabula's three dice (its 56
    throws; tabula is played at 0-ply)."""
    return not (
        variant.dice != 2
        or variant.first_hit
        or variant.atomic
        or variant.acey_deucey
        or variant.doubles_roll_again
        or variant.complement_doubles
    )


def _board(position: Position) -> Boards:
    return np.frombuffer(bytearray(position._data), dtype=np.uint8)


def _boards(positions: Iterable[Position]) -> Boards:
    data = bytearray(b"".join([position._data for position in positions]))
    return np.frombuffer(data, dtype=np.uint8).reshape(-1, 2 * SLOTS)


def _as_boards(boards: npt.ArrayLike) -> Boards:
    array = np.ascontiguousarray(boards, dtype=np.uint8)
    if not array.flags.writeable:
        array = array.copy()  # one array type for the kernels: no extra compilation
    if array.ndim == 1:
        array = array.reshape(1, -1)
    if array.ndim != 2 or array.shape[1] != 2 * SLOTS:
        raise ValueError(f"boards must have shape (n, 52), got {np.shape(boards)}")
    return array


def _flip_boards(boards: Boards) -> Boards:
    flipped = np.empty_like(boards)
    flipped[:, :SLOTS] = boards[:, SLOTS:]
    flipped[:, SLOTS:] = boards[:, :SLOTS]
    return flipped


class Engine:
    """The neural evaluator: static (0-ply) evaluation and play choice.

    ``Engine()`` opens the default weights (see :func:`default_networks`);
    ``Engine(variant=V)`` the networks shipped for ``V`` where the package has them,
    else the same default weights (see :func:`networks_for`); pass ``weights`` as a
    :class:`~backgammon.engine.network.Networks` or a path to a weights file to use
    others. ``variant`` supplies the number of checkers (scaling the inputs) and
    whether gammons and backgammons count. ``bearoff`` plugs in an exact
    evaluator for bear-off positions.

    Evaluations are cubeless and seen from the side on roll, before it rolls.

    >>> engine = Engine()
    >>> start = Position.initial()
    >>> 0.0 <= engine.evaluate(start).win <= 1.0
    True
    >>> engine.best_play(start, (3, 1)) in start.legal_plays((3, 1))
    True
    """

    def __init__(
        self,
        weights: Networks | str | os.PathLike[str] | None = None,
        *,
        variant: Variant = STANDARD,
        bearoff: BearoffEvaluator | str | None = "default",
        exact: ExactEvaluator | str | None = "default",
    ) -> None:
        """Open the networks.

        ``bearoff="default"`` uses the exact bearoff databases
        (:class:`~backgammon.engine.bearoff.BearoffDatabase`, opened on first use and
        built into the cache folder the first time, in seconds) for variants with
        standard movement; ``None`` uses the race network for bear-offs too.

        ``exact="default"`` values every position of a solved variant (1-, 2- and
        3-checker hypergammon) from its database
        (:class:`~backgammon.engine.hypergammon.HypergammonDatabase`, opened on first
        use; for 1 and 2 checkers built into the cache folder the first time, in
        seconds; for 3 checkers only once built with ``backgammon build-hypergammon
        --checkers 3``, about 9 min), not the networks; an :class:`ExactEvaluator`
        replaces it, ``None`` uses the networks. :attr:`source` says which.

        Raises:
            EngineError: if a weights file cannot be read or is not one.
        """
        if weights is None:
            networks = networks_for(variant)
        elif isinstance(weights, Networks):
            networks = weights
        else:
            try:
                networks = Networks.load(weights)
            except OSError as exc:
                raise EngineError(f"cannot read weights {os.fspath(weights)!r}: {exc}") from None
        self._networks = networks
        self._variant = variant
        if isinstance(bearoff, str):
            if bearoff != "default":
                raise ValueError(
                    f"bearoff must be an evaluator, None or 'default', not {bearoff!r}"
                )
            bearoff = _DefaultBearoff() if variant.plain_movement else None
        self._bearoff = bearoff
        if isinstance(exact, str):
            if exact != "default":
                raise ValueError(f"exact must be an evaluator, None or 'default', not {exact!r}")
            exact = _default_exact(variant)
        self._exact = exact
        self._checkers = variant.checkers
        self._family = CONTACT_FAMILY[networks.contact.encoding]
        encoding = networks.contact.encoding
        if (encoding == PLAKOTO_ENCODING and not variant.pinning) or (
            encoding == NARDY_ENCODING and not variant.crosswise
        ):
            raise EngineError(
                f"networks with the {encoding!r} encoding play "
                f"{'games with pinning' if encoding == PLAKOTO_ENCODING else 'long nardy'}, "
                f"not {variant.name}"
            )
        self._gammons = variant.gammons
        self._backgammons = variant.gammons and variant.backgammons
        self._mother_rule = variant.mother_rule
        self._movement = None if variant.plain_movement else movement_code(variant)
        self._hidden = np.array(
            [networks.contact.hidden, networks.race.hidden, networks.crashed.hidden],
            dtype=np.int64,
        )
        self._plan_params, self._plan_hidden = plan_table(networks)
        self.move_filter = MoveFilter()
        """Which plays lookahead search examines (GNU Backgammon's "normal" filter:
        up to 8 within 0.16 of the best at 0-ply)."""
        self.inner_filter: MoveFilter | None = MoveFilter(keep=1, margin=0.0)
        """Which replies are searched deeper inside the lookahead: by default only the
        best at 0-ply, as GNU Backgammon's n-ply evaluation does (``None``: every
        reply, i.e. exact expectimax)."""
        self.cache = EvaluationCache()
        """Searched evaluations kept between calls (per engine, never global)."""
        self._pruning: Pruning | None = None
        if weights is None and variant.plain_movement and variant.checkers == 15:
            pruning_network = default_pruning_network()
            if pruning_network is not None:
                self._pruning = Pruning(pruning_network, keep=PRUNING_KEEP)

    @property
    def pruning(self) -> Pruning | None:
        """How lookahead search picks the best play inside the search: by default,
        with the shipped weights and 15 checkers, the shipped pruning network
        (:mod:`backgammon.engine.pruning`) ranks every play and the full network
        judges the best :data:`PRUNING_KEEP`, as GNU Backgammon does; ``None``
        evaluates every play fully. Setting it clears :attr:`cache`."""
        return self._pruning

    @pruning.setter
    def pruning(self, value: Pruning | None) -> None:
        self._pruning = value
        self.cache = EvaluationCache()

    @property
    def networks(self) -> Networks:
        """The networks in use, with their metadata."""
        return self._networks

    @property
    def variant(self) -> Variant:
        """The variant whose rules the evaluations follow."""
        return self._variant

    @property
    def bearoff(self) -> BearoffEvaluator | None:
        """The plugged-in bear-off evaluator, if any."""
        return self._bearoff

    @property
    def exact(self) -> ExactEvaluator | None:
        """The evaluator of a solved variant, used instead of the networks, if any."""
        return self._exact

    @property
    def source(self) -> EvaluationSource:
        """Where this engine's values come from (exact database or the networks'
        estimate), with a note for a solved variant whose database is not built."""
        return evaluation_source(self._variant, self._exact)

    def classify(self, position: Position) -> PositionClass:
        """The class of ``position`` (see :func:`classify`)."""
        return classify(position)

    # -- evaluation ------------------------------------------------------------------

    def evaluate(self, position: Position) -> Evaluation:
        """Evaluate one position for the side on roll, before it rolls (cubeless).

        Ended games get their exact result.
        """
        board = _board(position)
        if self._family or self._mother_rule:
            # The contact encoding reads the pin marks, and the mother rule ends games
            # by them: the batch path keeps them.
            return self.evaluate_many([position])[0]
        if self._variant.pinning:
            board = board & _COUNT_MASK
        return _evaluation(*self._evaluate_board(board).tolist())

    def _evaluate_board(self, board: Boards) -> npt.NDArray[np.floating[Any]]:
        if self._exact is not None:
            return np.asarray(self._exact.evaluate_boards(board.reshape(1, -1))[0])
        out = np.empty(OUTPUTS, dtype=np.float32)
        nets = self._networks
        defer = self._bearoff is not None
        cls = _evaluate_one(
            board,
            self._checkers,
            self._gammons,
            self._backgammons,
            defer,
            nets.contact.params,
            nets.race.params,
            nets.crashed.params,
            self._hidden,
            self._plan_params,
            self._plan_hidden,
            out,
        )
        if defer and cls == _BEAROFF:
            assert self._bearoff is not None
            single = board.reshape(1, -1)
            if not self._bearoff.covers(single)[0]:
                row: npt.NDArray[np.float64] = self.evaluate_boards(single)[0]
                return row
            out[:] = self._bearoff.evaluate_boards(single)[0]
            _finish(board, cls, out, self._gammons, self._backgammons)
        return out

    def evaluate_many(self, positions: Iterable[Position]) -> list[Evaluation]:
        """Evaluate many positions at once (each for its side on roll, before it
        rolls); the same results as :meth:`evaluate` one by one, to float32 rounding."""
        boards = _boards(positions)
        if boards.shape[0] == 0:
            return []
        return _evaluations(self.evaluate_boards(boards))

    def evaluate_boards(self, boards: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The array form of :meth:`evaluate_many`: 52-slot boards ``uint8[n, 52]`` in,
        probabilities ``float64[n, 5]`` out (each row for that board's side on roll;
        computed in float32). It is a :data:`backgammon.engine.search.BoardEvaluator`.

        Raises:
            ValueError: if ``boards`` is not ``(n, 52)``.
        """
        array = _as_boards(boards)
        if self._exact is not None:
            return np.asarray(self._exact.evaluate_boards(array), dtype=np.float64)
        marked = array
        if self._variant.pinning:
            # Plakoto's pin marks are not checkers: the networks see plain counts
            # (a contact encoding of Plakoto's own networks reads the marks).
            array = array & _COUNT_MASK
        contact_boards = marked if self._family else array
        n = array.shape[0]
        classes = _classify_rows(array, np.empty(n, dtype=np.int8))
        probs = np.zeros((n, OUTPUTS), dtype=np.float32)
        counts = np.bincount(classes, minlength=len(PositionClass))
        nets = self._networks
        race_rows: npt.NDArray[np.int64] | None = None
        if counts[_BEAROFF] and self._bearoff is not None:
            bear_rows = np.flatnonzero(classes == _BEAROFF)
            bear_boards = array[bear_rows]
            covered = np.asarray(self._bearoff.covers(bear_boards), dtype=bool)
            if covered.any():
                probs[bear_rows[covered]] = self._bearoff.evaluate_boards(bear_boards[covered])
            race_rows = np.flatnonzero(classes == _RACE)
            if not covered.all():
                race_rows = np.sort(np.concatenate([race_rows, bear_rows[~covered]]))
        elif counts[_RACE] or counts[_BEAROFF]:
            race_rows = np.flatnonzero((classes == _RACE) | (classes == _BEAROFF))
        if race_rows is not None:
            self._run(nets.race, False, array, race_rows, probs)
        if counts[_CONTACT]:
            contact_rows = np.flatnonzero(classes == _CONTACT)
            contact_rows, by_plan = split_by_plan(nets, array, contact_rows)
            self._run(nets.contact, True, contact_boards, contact_rows, probs)
            for name, rows in by_plan.items():
                self._run(nets.plans[name], True, contact_boards, rows, probs)
        if counts[_CRASHED]:
            crashed_rows = np.flatnonzero(classes == _CRASHED)
            self._run(nets.crashed, True, contact_boards, crashed_rows, probs)
        _finish_rows(array, classes, probs, self._gammons, self._backgammons)
        result = probs.astype(np.float64)
        if self._mother_rule:
            ended, exact = mother_rule_results(marked, self._variant.prison)
            result[ended] = exact[ended]
        return result

    def _run(
        self,
        net: Network,
        contact: bool,
        boards: Boards,
        rows: npt.NDArray[np.int64],
        probs: Probabilities,
    ) -> None:
        """Run ``net`` on ``boards[rows]`` into ``probs[rows]``: one Numba call for the
        encoding and the sparse hidden layer, the sigmoid in NumPy, one Numba call for
        the output layer."""
        if rows.shape[0] == 0:
            return
        activations = np.empty((rows.shape[0], net.hidden), dtype=np.float32)
        _hidden_rows(
            boards,
            rows,
            contact,
            self._family,
            self._checkers,
            net.params,
            net.inputs,
            net.hidden,
            activations,
        )
        sigmoid_inplace(activations)
        _output_rows(activations, rows, net.params, net.inputs, net.hidden, probs)

    def solved_boards(self, boards: Boards) -> npt.NDArray[np.bool_]:
        """Which boards (``uint8[n, 52]``) this engine values exactly, so that a
        lookahead search leaves them as they are: those the plugged-in bearoff
        evaluator marks as solved (the two-sided database), every board of a
        solved variant, or the games Plakoto's mother rule has ended; games ended by
        bearing off are always exact and need no mark."""
        array = _as_boards(boards)
        if self._exact is not None:
            return np.ones(array.shape[0], dtype=np.bool_)
        if self._mother_rule:
            return mother_rule_results(array, self._variant.prison)[0]
        if isinstance(self._bearoff, _SolvedBearoff):
            return np.asarray(self._bearoff.solved(array), dtype=np.bool_)
        return np.zeros(array.shape[0], dtype=np.bool_)

    # -- plays -----------------------------------------------------------------------

    def _check_ply(self, ply: int, continues: Continues | None = None) -> None:
        if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
            raise ValueError(f"ply must be a whole number >= 0, got {ply!r}")
        if ply > 0 and continues is not None:
            raise ValueError("plays valued with the turn going on are ranked at 0-ply only")
        if ply > MAX_PLY:
            raise ValueError(f"ply must be at most {MAX_PLY}, got {ply}")
        if ply > 0 and not lookahead_supported(self._variant):
            raise NotImplementedError(
                f"lookahead search does not follow {self._variant.name}'s turns yet "
                "(a turn that goes on after a play, a game ended by a hit or a bomb, "
                "a throw of three dice); "
                "its positions are evaluated at 0-ply only"
            )

    def _scored(
        self,
        position: Position,
        roll: RollLike,
        ply: int = 0,
        search_single: bool = True,
        continues: Continues | None = None,
    ) -> tuple[PlayList, npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        """The legal plays, their results' probabilities for the opponent (who is on
        roll after the play), and the depth each was searched to. At ``ply`` > 0 the
        plays the move filter keeps (the best 0-ply plays) are searched ``ply`` deep;
        when it keeps only one, that one is searched only if ``search_single``. A play
        after which the mover plays on (``continues``) is valued as the mover on roll,
        its probabilities then turned round to the opponent's view."""
        plays = position.legal_plays(Roll.coerce(roll, self._variant.dice), self._variant)
        if not plays:
            return plays, np.empty((0, OUTPUTS)), np.zeros(0, dtype=np.int64)
        results = _boards([play.position for play in plays])
        children = _flip_boards(results)
        playing_on = (
            np.array([continues(play) for play in plays], dtype=np.bool_)
            if continues is not None
            else np.zeros(len(plays), dtype=np.bool_)
        )
        children[playing_on] = results[playing_on]
        probs = self.evaluate_boards(children)
        if playing_on.any():
            probs[playing_on] = invert(probs[playing_on])
        depth = np.zeros(len(plays), dtype=np.int64)
        if ply > 0 and len(plays) > 1:
            mover = -_equities(probs)
            order = np.argsort(-mover, kind="stable")
            keep = [
                int(k)
                for k in order[: self.move_filter.keep]
                if mover[k] >= mover[order[0]] - self.move_filter.margin
            ]
            if len(keep) == 1 and not search_single:
                return plays, probs, depth
            probs[keep] = evaluate_plies(
                self.evaluate_boards,
                children[keep],
                ply,
                self.inner_filter,
                self.cache,
                self.solved_boards,
                self._pruning,
                self._movement,
            )
            depth[keep] = ply
        return plays, probs, depth

    def evaluate_at(self, position: Position, ply: int = 0) -> Evaluation:
        """The evaluation of ``position`` (side on roll, before rolling) searched
        ``ply`` deep: the average over the 21 rolls of the best play's result.

        Raises:
            ValueError: for a bad ``ply``.
        """
        self._check_ply(ply)
        if ply == 0:
            return self.evaluate(position)
        probs = evaluate_plies(
            self.evaluate_boards,
            _board(position)[None, :],
            ply,
            self.inner_filter,
            self.cache,
            self.solved_boards,
            self._pruning,
            self._movement,
        )
        return _evaluations(probs)[0]

    def best_play(
        self,
        position: Position,
        roll: RollLike,
        ply: int = 0,
        continues: Continues | None = None,
    ) -> Play:
        """The play of ``roll`` that maximises the mover's cubeless equity at ``ply``
        (0: each result is evaluated by the network, from the opponent's side, and the
        mover's equity is minus the opponent's). Ties go to the first play in
        :meth:`Position.legal_plays` order. With no legal move, the no-move play.

        ``continues(play)``, where a turn may go on after a play (acey-deucey, Russian
        backgammon: :meth:`~backgammon.rules.game.Game.play_continues`), says which
        plays leave the mover to play on: their results are valued as the mover on
        roll, as the variants' networks were trained. 0-ply only.

        Raises:
            ValueError: for a bad roll or ``ply``.
            NotImplementedError: for ``ply > 0`` in a variant whose turns the search
                does not follow (see :func:`lookahead_supported`).
        """
        self._check_ply(ply, continues)
        # When the move filter keeps a single play, no search can change the answer.
        plays, probs, depth = self._scored(position, roll, ply, False, continues)
        if not plays:
            return Play.no_move(position)
        if len(plays) == 1:
            return plays[0]
        deepest = depth == depth.max()
        mover = np.where(deepest, -_equities(probs), -np.inf)
        return plays[int(np.argmax(mover))]

    def rank_plays(
        self,
        position: Position,
        roll: RollLike,
        ply: int = 0,
        continues: Continues | None = None,
    ) -> list[PlayEvaluation]:
        """Every legal play of ``roll`` with the evaluation of its result from the
        mover's point of view, best first (ties in :meth:`Position.legal_plays` order,
        so the first is :meth:`best_play`). With no legal move, the no-move play alone.
        ``continues``: as in :meth:`best_play`.

        Raises:
            ValueError: for a bad roll or ``ply``.
            NotImplementedError: for ``ply > 0`` in a variant whose turns the search
                does not follow (see :func:`lookahead_supported`).
        """
        self._check_ply(ply, continues)
        plays, probs, depth = self._scored(position, roll, ply, True, continues)
        if not plays:
            after = self.evaluate_at(position.flip(), ply)
            return [PlayEvaluation(Play.no_move(position), after.flip())]
        # Deeper-searched plays first, then by the opponent's equity, ascending.
        order = np.lexsort((np.arange(len(plays)), _equities(probs), -depth))
        evaluations = _evaluations(probs)
        return [PlayEvaluation(plays[index], evaluations[index].flip()) for index in order.tolist()]

    def __repr__(self) -> str:
        return f"<Engine {self._networks!r} variant={self._variant.name}>"
