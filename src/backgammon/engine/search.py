"""n-ply search: expectimax over the 21 rolls with move filters and a cache.

Probabilities here are the five cubeless outputs (win, win gammon, win backgammon,
lose gammon, lose backgammon; gammons include backgammons) of the side on roll of a
52-slot board, before it rolls. An *evaluator* is any function from boards
``uint8[n, 52]`` to probabilities ``float[n, 5]`` (the 0-ply network, exact bearoff
tables, or a test's toy function).

``evaluate_plies(evaluator, boards, plies)``:

* 0 plies: the evaluator itself.
* ``n`` plies: the average over the 21 rolls (doubles weigh 1/36, others 2/36) of the
  value, for the side on roll, of its best play for that roll; each play is judged by
  its resulting position (the opponent on roll) searched to ``n − 1`` plies. A roll
  with no legal play passes the turn with the position unchanged.

Without a move filter this is exact expectimax over every play. With a
:class:`MoveFilter` (GNU Backgammon's idea), the plays of a roll are first ranked at
0-ply and only the best ``keep`` within ``margin`` of the best (in cubeless equity)
are searched deeper; ``keep=1`` is GNU Backgammon's evaluation scheme, which picks the
reply at 0-ply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.engine.pruning import (
    PruningNetwork,
    PruningWeights,
    pruning_hidden_into,
    pruning_score_near,
)
from backgammon.rules.dice import ALL_ROLLS
from backgammon.rules.movegen import BOARD_SLOTS, generate_plays_packed
from backgammon.rules.variant_movegen import variant_plays

__all__ = [
    "BoardEvaluator",
    "EvaluationCache",
    "ExactBoards",
    "MoveFilter",
    "Pruning",
    "best_children",
    "distinct_boards",
    "equities",
    "evaluate_plies",
    "finished_boards",
    "invert",
    "rank_children",
    "roll_values",
    "search_plays",
    "weighted_rolls",
]

BoardEvaluator = Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.float64]]
"""Boards ``uint8[n, 52]`` (side on roll first) to probabilities ``float[n, 5]``."""

ExactBoards = Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.bool_]]
"""Which boards ``uint8[n, 52]`` the evaluator values exactly (a solved database):
searching them deeper could not change their value, so the search does not."""

_HALF = BOARD_SLOTS // 2
_ROLLS = tuple((roll.high, roll.low) for roll in ALL_ROLLS)
_WEIGHTS = np.array([float(roll.weight) for roll in ALL_ROLLS])
_ROLL_ARRAY = np.array(_ROLLS, dtype=np.int64)
_NO_PRUNING = PruningNetwork.random(hidden=1).weights
"""Placeholder weights for :func:`_children_of` when it keeps every play (never read)."""


@njit(cache=True)
def _grown(
    rows: npt.NDArray[np.uint8], used: int | np.int64, needed: int | np.int64
) -> npt.NDArray[np.uint8]:
    """``rows`` if it has room for ``needed`` rows, else a copy of its first ``used``
    rows in an array at least twice as large."""
    if needed <= rows.shape[0]:
        return rows
    size = max(needed, 2 * rows.shape[0])
    bigger = np.empty((size, rows.shape[1]), dtype=np.uint8)
    # Element by element: an array assigned to a slice costs Numba over a second more
    # to compile (the message of its shape check), for no speed.
    for row in range(used):
        for column in range(rows.shape[1]):
            bigger[row, column] = rows[row, column]
    return bigger


@njit(cache=True)
def _distinct_rows(
    boards: npt.NDArray[np.uint8],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct rows of ``boards``: ``(first, inverse)`` with ``boards[first]``
    each distinct row once (in order of first appearance) and
    ``boards[first][inverse] == boards``. A hash table, linear in the rows."""
    n = boards.shape[0]
    size = 1
    while size < 2 * n:
        size *= 2
    table = np.full(size, -1, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)
    inverse = np.empty(n, dtype=np.int64)
    distinct = 0
    width = boards.shape[1]
    for row in range(n):
        # FNV-1a over the row, four bytes at a time.
        code = np.uint64(14695981039346656037)
        slot = 0
        while slot + 4 <= width:
            word = (
                np.uint64(boards[row, slot])
                | (np.uint64(boards[row, slot + 1]) << np.uint64(8))
                | (np.uint64(boards[row, slot + 2]) << np.uint64(16))
                | (np.uint64(boards[row, slot + 3]) << np.uint64(24))
            )
            code = (code ^ word) * np.uint64(1099511628211)
            slot += 4
        while slot < width:
            code = (code ^ np.uint64(boards[row, slot])) * np.uint64(1099511628211)
            slot += 1
        code ^= code >> np.uint64(29)
        at = np.int64(code & np.uint64(size - 1))
        while True:
            found = table[at]
            if found < 0:
                table[at] = distinct
                first[distinct] = row
                inverse[row] = distinct
                distinct += 1
                break
            other = first[found]
            same = True
            for slot in range(width):
                if boards[row, slot] != boards[other, slot]:
                    same = False
                    break
            if same:
                inverse[row] = found
                break
            at = (at + 1) & (size - 1)
    return first[:distinct], inverse


@njit(cache=True)
def _best_in_spans(
    values: npt.NDArray[np.float64], spans: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """For each span ``(board, roll, start, stop)``, the index of its largest value
    (the first one on ties)."""
    out = np.empty(spans.shape[0], dtype=np.int64)
    for k in range(spans.shape[0]):
        best = spans[k, 2]
        for i in range(spans[k, 2] + 1, spans[k, 3]):
            if values[i] > values[best]:
                best = i
        out[k] = best
    return out


@njit(cache=True)
def _must_judge(packed: npt.NDArray[np.uint8]) -> bool:
    """Whether a play's result (a packed row, mover first) is valued exactly, so a
    pruned search always judges it fully: the mover has borne off every checker, or
    both sides have all their checkers home (a bear-off)."""
    mover_left = False
    outside = False
    for slot in range(1, _HALF):
        if packed[slot]:
            mover_left = True
            if slot > 6:
                outside = True
        if slot > 6 and packed[_HALF + slot]:
            outside = True
    return not mover_left or not outside


@njit(cache=True)
def _children_of(
    boards: npt.NDArray[np.uint8],
    skip: npt.NDArray[np.bool_],
    rolls: npt.NDArray[np.int64],
    weights: PruningWeights,
    keep: int,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """The children (resulting positions, opponent on roll) of every board not
    skipped and every roll, concatenated, with spans ``(board, roll, start, stop)``.
    A roll with no legal play gives the board itself, flipped (the turn passes).

    With ``keep`` > 0 (a pruned search) only the plays it judges are kept of each
    (board, roll): the ``keep`` best by the pruning network ``weights`` (the lowest
    equity for the opponent, who is on roll in the child) and every play
    :func:`_must_judge` marks. ``keep`` = 0 keeps every play (``weights`` unused)."""
    spans = np.empty((boards.shape[0] * rolls.shape[0], 4), dtype=np.int64)
    kids = np.empty((64 * boards.shape[0] + 64, BOARD_SLOTS), dtype=np.uint8)
    acc = np.empty(weights[1].shape[0], dtype=np.float32)
    base = np.empty_like(acc)
    chosen = np.empty(0, dtype=np.bool_)
    best_scores = np.empty(max(keep, 1))
    best_rows = np.empty(max(keep, 1), dtype=np.int64)
    count = 0
    total = np.int64(0)  # typed, not a literal: one compilation of ``_grown``
    for i in range(boards.shape[0]):
        if skip[i]:
            continue
        base_ready = False  # the board's pruning hidden layer, computed once if needed
        for r in range(rolls.shape[0]):
            packed = generate_plays_packed(boards[i], rolls[r, 0], rolls[r, 1])
            plays = packed.shape[0]
            if plays == 0:
                kids = _grown(kids, total, total + 1)
                for slot in range(_HALF):  # (element by element: see _grown)
                    kids[total, slot] = boards[i, _HALF + slot]
                    kids[total, _HALF + slot] = boards[i, slot]
                rows = 1
            else:
                if plays > chosen.shape[0]:
                    chosen = np.empty(2 * plays, dtype=np.bool_)
                if 0 < keep < plays:
                    # The ``keep`` lowest scores (the child's side on roll is the
                    # opponent), kept sorted by insertion; plays the rules value
                    # exactly are always kept. Children are scored as changes from
                    # the board, flipped like them.
                    if not base_ready:
                        pruning_hidden_into(boards[i], _HALF, weights, base)
                        base_ready = True
                    taken = 0
                    for k in range(plays):
                        chosen[k] = _must_judge(packed[k])
                        if chosen[k]:
                            continue
                        # The child is the packed row flipped.
                        score = pruning_score_near(packed[k], boards[i], base, _HALF, weights, acc)
                        if taken == keep and score >= best_scores[keep - 1]:
                            continue
                        at = taken if taken < keep else keep - 1
                        while at > 0 and best_scores[at - 1] > score:
                            best_scores[at] = best_scores[at - 1]
                            best_rows[at] = best_rows[at - 1]
                            at -= 1
                        best_scores[at] = score
                        best_rows[at] = k
                        if taken < keep:
                            taken += 1
                    for t in range(taken):
                        chosen[best_rows[t]] = True
                else:
                    chosen[:plays] = True
                rows = 0
                for k in range(plays):
                    if chosen[k]:
                        rows += 1
                kids = _grown(kids, total, total + rows)
                row = total
                for k in range(plays):
                    if chosen[k]:
                        for slot in range(_HALF):
                            kids[row, slot] = packed[k, _HALF + slot]
                            kids[row, _HALF + slot] = packed[k, slot]
                        row += 1
            spans[count, 0] = i
            spans[count, 1] = r
            spans[count, 2] = total
            spans[count, 3] = total + rows
            count += 1
            total += rows
    return kids[:total], spans[:count]


@njit(cache=True)
def _variant_children_of(
    boards: npt.NDArray[np.uint8],
    skip: npt.NDArray[np.bool_],
    rolls: npt.NDArray[np.int64],
    movement: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """:func:`_children_of` with every play kept, under a variant's ``movement``
    (:func:`~backgammon.rules.variant_movegen.movement_code`)."""
    spans = np.empty((boards.shape[0] * rolls.shape[0], 4), dtype=np.int64)
    kids = np.empty((64 * boards.shape[0] + 64, BOARD_SLOTS), dtype=np.uint8)
    count = 0
    total = np.int64(0)
    for i in range(boards.shape[0]):
        if skip[i]:
            continue
        for r in range(rolls.shape[0]):
            packed = variant_plays(boards[i], rolls[r, 0], rolls[r, 1], movement)
            # No play passes the turn: the board itself, flipped.
            rows = max(packed.shape[0], 1)
            kids = _grown(kids, total, total + rows)
            for k in range(rows):
                for slot in range(_HALF):
                    if packed.shape[0] == 0:
                        kids[total + k, slot] = boards[i, _HALF + slot]
                        kids[total + k, _HALF + slot] = boards[i, slot]
                    else:
                        kids[total + k, slot] = packed[k, _HALF + slot]
                        kids[total + k, _HALF + slot] = packed[k, slot]
            spans[count, 0], spans[count, 1] = i, r
            spans[count, 2], spans[count, 3] = total, total + rows
            count += 1
            total += rows
    return kids[:total], spans[:count]


@dataclass(frozen=True, slots=True)
class Pruning:
    """How a search picks a position's best play for a roll without evaluating every
    play fully (GNU Backgammon's pruning): the pruning ``network`` ranks the plays
    and only its ``keep`` best (plus any ending the game or reaching a bear-off,
    which are valued exactly) get the full evaluation that chooses among them."""

    network: PruningNetwork
    keep: int = 5

    def __post_init__(self) -> None:
        if self.keep < 1:
            raise ValueError(f"pruning keeps at least one play, got {self.keep}")


@dataclass(frozen=True, slots=True)
class MoveFilter:
    """Which plays of a roll are searched deeper: at most ``keep`` of them, all within
    ``margin`` of the best 0-ply cubeless equity."""

    keep: int = 8
    margin: float = 0.16

    def __post_init__(self) -> None:
        if self.keep < 1:
            raise ValueError(f"a move filter keeps at least one play, got {self.keep}")
        if self.margin < 0:
            raise ValueError(f"a move filter margin is >= 0, got {self.margin}")


class EvaluationCache:
    """Probabilities already computed, keyed by board and plies (an object you pass
    in, never a global). Cleared when it grows past ``limit`` entries."""

    def __init__(self, limit: int = 1_000_000) -> None:
        self.limit = limit
        self._entries: dict[tuple[bytes, int], npt.NDArray[np.float64]] = {}
        self.hits = 0
        self.misses = 0

    def get(self, board: bytes, plies: int) -> npt.NDArray[np.float64] | None:
        """The cached probabilities, or ``None``."""
        found = self._entries.get((board, plies))
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, board: bytes, plies: int, value: npt.NDArray[np.float64]) -> None:
        """Remember ``value`` (clearing everything first if full)."""
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[(board, plies)] = value

    def __len__(self) -> int:
        return len(self._entries)


_DEDUPLICATE_FROM = 4096
"""Batches of at least this many boards are deduplicated before evaluation."""


def invert(probabilities: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The same outcomes seen from the other side (works on ``[..., 5]`` arrays)."""
    out = np.empty_like(probabilities)
    out[..., 0] = 1.0 - probabilities[..., 0]
    out[..., 1] = probabilities[..., 3]
    out[..., 2] = probabilities[..., 4]
    out[..., 3] = probabilities[..., 1]
    out[..., 4] = probabilities[..., 2]
    return out


def equities(probabilities: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Cubeless money equity: 2·win − 1 + win gammon − lose gammon + win bg − lose bg."""
    p = probabilities
    result: npt.NDArray[np.float64] = (
        2.0 * p[..., 0] - 1.0 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4]
    )
    return result


def _flip(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    return np.concatenate((boards[..., _HALF:], boards[..., :_HALF]), axis=-1)


def rank_children(
    board: npt.NDArray[np.uint8], die1: int, die2: int
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The legal plays of a roll as packed rows, and their children (resulting
    positions flipped so the opponent is on roll). No rows: no play."""
    packed = generate_plays_packed(board, die1, die2)
    return packed, _flip(packed[:, :BOARD_SLOTS])


def evaluate_plies(
    evaluator: BoardEvaluator,
    boards: npt.NDArray[np.uint8],
    plies: int,
    move_filter: MoveFilter | None = None,
    cache: EvaluationCache | None = None,
    exact: ExactBoards | None = None,
    pruning: Pruning | None = None,
    movement: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.float64]:
    """Probabilities for the side on roll of each board, searched ``plies`` deep.

    Args:
        evaluator: the 0-ply evaluation of boards.
        boards: ``uint8[n, 52]`` positions, side on roll first, before rolling.
        plies: search depth (0 = the evaluator).
        move_filter: how many plays per roll to search deeper (``None``: all of them,
            i.e. exact expectimax).
        cache: where to remember searched results (``plies`` > 0) between calls;
            static evaluations are cheaper to redo than to look up.
        exact: which boards the evaluator values exactly (ended games always are);
            they get the evaluator's value at any depth, as GNU Backgammon does for
            its "perfect" classes.
        pruning: where a level keeps one play per roll, pick it among the best few
            by a cheap estimate (see :class:`Pruning`); ``None``: evaluate every play.
            Standard movement only (ignored with ``movement``).
        movement: a variant's movement
            (:func:`~backgammon.rules.variant_movegen.movement_code`) whose plays the
            search generates; ``None``: standard backgammon's. The search assumes a
            turn is one play and a game ends by bearing off or on an ``exact`` board.

    Raises:
        ValueError: for a negative depth or a malformed board array.
    """
    if plies < 0:
        raise ValueError(f"plies must be >= 0, got {plies}")
    boards = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, BOARD_SLOTS)
    if plies == 0:
        # A static evaluation in a batch costs less than a cache lookup per board; in
        # big batches (a search's children) many boards repeat, so each distinct board
        # is evaluated once.
        if boards.shape[0] < _DEDUPLICATE_FROM:
            return np.asarray(evaluator(boards), dtype=np.float64)
        first, inverse = _distinct_rows(boards)
        values = np.asarray(evaluator(boards[first]), dtype=np.float64)
        return values[inverse]
    out = np.empty((boards.shape[0], 5))
    todo: list[int] = []
    for index, board in enumerate(boards):
        found = cache.get(board.tobytes(), plies) if cache is not None else None
        if found is None:
            todo.append(index)
        else:
            out[index] = found
    if todo:
        # Searched once per distinct board: a search's boards often repeat (every roll
        # on which the opponent dances leaves the same position).
        pending = boards[todo]
        first, inverse = _distinct_rows(pending)
        searched = _search(
            evaluator, pending[first], plies, move_filter, cache, exact, pruning, movement
        )
        values = searched[inverse]
        out[todo] = values
        if cache is not None:
            for index, value in zip(todo, values, strict=True):
                cache.put(boards[index].tobytes(), plies, value.copy())
    return out


def _settled(boards: npt.NDArray[np.uint8], exact: ExactBoards | None) -> npt.NDArray[np.bool_]:
    """Which boards a search does not look into: ended games and the ``exact`` ones."""
    over = np.asarray(
        ~boards[:, 1:_HALF].any(axis=1) | ~boards[:, _HALF + 1 :].any(axis=1), dtype=np.bool_
    )
    if exact is not None:
        over |= np.asarray(exact(boards), dtype=np.bool_)
    return over


def _search(
    evaluator: BoardEvaluator,
    boards: npt.NDArray[np.uint8],
    plies: int,
    move_filter: MoveFilter | None,
    cache: EvaluationCache | None,
    exact: ExactBoards | None,
    pruning: Pruning | None,
    movement: npt.NDArray[np.int64] | None,
) -> npt.NDArray[np.float64]:
    """One level of expectimax for boards that are not over (or are: exact handling
    is the evaluator's job at 0 plies; here a finished board is evaluated directly)."""
    n = boards.shape[0]
    result = np.zeros((n, 5))
    # Gather every child of every board and roll (one compiled call); rank them at
    # 0-ply in one batch.
    over = _settled(boards, exact)
    if over.any():
        result[over] = np.asarray(evaluator(boards[over]), dtype=np.float64)
    if over.all():
        return result
    keep_one = plies == 1 or (move_filter is not None and move_filter.keep == 1)
    if movement is not None:
        every_child, span_array = _variant_children_of(
            np.ascontiguousarray(boards), over, _ROLL_ARRAY, movement
        )
    else:
        estimate, keep = _NO_PRUNING, 0
        if keep_one and pruning is not None:
            estimate, keep = pruning.network.weights, pruning.keep
        every_child, span_array = _children_of(
            np.ascontiguousarray(boards), over, _ROLL_ARRAY, estimate, keep
        )
    shallow = evaluate_plies(evaluator, every_child, 0, None, cache)
    mover_equity = -equities(shallow)
    if keep_one:
        # Vectorised: the best child of each (board, roll) span at 0-ply (the first one
        # on ties), searched ``plies - 1`` deeper when that is more than 0.
        best_child = _best_in_spans(mover_equity, span_array)
        if plies == 1:
            chosen = shallow[best_child]
        else:
            distinct, inverse = np.unique(best_child, return_inverse=True)
            searched = evaluate_plies(
                evaluator,
                every_child[distinct],
                plies - 1,
                move_filter,
                cache,
                exact,
                pruning,
                movement,
            )
            chosen = searched[inverse.reshape(-1)]
        weights = _WEIGHTS[span_array[:, 1]][:, None]
        np.add.at(result, span_array[:, 0], weights * invert(chosen))
        return result
    # Pick, per (board, roll), the candidates to search deeper.
    spans = [tuple(int(v) for v in row) for row in span_array]
    deeper_index: list[int] = []
    candidate_spans: list[list[int]] = []
    for _, _, start, stop in spans:
        local = mover_equity[start:stop]
        if plies == 1:
            candidates = [start + int(np.argmax(local))]
        else:
            order = np.argsort(-local, kind="stable")
            if move_filter is not None:
                best = local[order[0]]
                order = np.array(
                    [k for k in order[: move_filter.keep] if local[k] >= best - move_filter.margin]
                )
            candidates = [start + int(k) for k in order]
        candidate_spans.append(candidates)
        deeper_index.extend(candidates)
    if plies == 1:
        deep = shallow
    else:
        unique = sorted(set(deeper_index))
        searched = evaluate_plies(
            evaluator, every_child[unique], plies - 1, move_filter, cache, exact, pruning, movement
        )
        deep = np.zeros_like(shallow)
        deep[unique] = searched
    for (i, r, _, _), candidates in zip(spans, candidate_spans, strict=True):
        values = deep[candidates]
        best = candidates[int(np.argmax(-equities(values)))]
        result[i] += _WEIGHTS[r] * invert(deep[best])
    return result


def roll_values(
    evaluator: BoardEvaluator,
    boards: npt.NDArray[np.uint8],
    pruning: Pruning | None = None,
    exact: ExactBoards | None = None,
) -> npt.NDArray[np.float64]:
    """What each of the 21 rolls gives the side on roll: ``float64[n, 21, 5]``, the
    mover's probabilities after its best play of that roll at 0-ply (the rolls in the
    order of :func:`weighted_rolls`; a roll with no legal play leaves the board as it
    is). Their weighted mean over the rolls is the board's 1-ply value, and a roll's
    difference from that mean is its luck. ``pruning`` picks each best play among the
    pruning network's best few, as a pruned search does; ``exact`` boards (and ended
    games) keep their own value for every roll.

    Raises:
        ValueError: for a malformed board array.
    """
    array = np.ascontiguousarray(boards, dtype=np.uint8)
    if array.ndim != 2 or array.shape[1] != BOARD_SLOTS:
        raise ValueError(f"boards must be shaped (n, {BOARD_SLOTS}), got {array.shape}")
    n = array.shape[0]
    out = np.zeros((n, len(_ROLLS), 5))
    if n == 0:
        return out
    over = _settled(array, exact)
    if over.any():
        out[over] = np.asarray(evaluator(array[over]), dtype=np.float64)[:, None, :]
    if over.all():
        return out
    estimate, keep = _NO_PRUNING, 0
    if pruning is not None:
        estimate, keep = pruning.network.weights, pruning.keep
    every_child, span_array = _children_of(array, over, _ROLL_ARRAY, estimate, keep)
    shallow = evaluate_plies(evaluator, every_child, 0)
    best_child = _best_in_spans(-equities(shallow), span_array)
    out[span_array[:, 0], span_array[:, 1]] = invert(shallow[best_child])
    return out


def search_plays(
    evaluator: BoardEvaluator,
    board: npt.NDArray[np.uint8],
    die1: int,
    die2: int,
    plies: int,
    move_filter: MoveFilter | None = MoveFilter(),
    cache: EvaluationCache | None = None,
    exact: ExactBoards | None = None,
    pruning: Pruning | None = None,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Every play of a roll with its probabilities for the mover, best first.

    Plays are ranked at 0-ply; those the filter keeps are searched to ``plies`` (their
    resulting positions, opponent on roll, are searched ``plies`` deep); the rest keep
    their 0-ply figures. Returns ``(packed rows, probabilities[k, 5] for the mover,
    depth[k] each was searched to)``, sorted by the mover's equity, best first.
    """
    packed, kids = rank_children(board, die1, die2)
    if packed.shape[0] == 0:
        return packed, np.zeros((0, 5)), np.zeros(0, dtype=np.int64)
    mover = invert(evaluate_plies(evaluator, kids, 0, None, cache))
    depth = np.zeros(packed.shape[0], dtype=np.int64)
    if plies > 0:
        order = np.argsort(-equities(mover), kind="stable")
        if move_filter is not None:
            best = equities(mover)[order[0]]
            order = np.array(
                [
                    k
                    for k in order[: move_filter.keep]
                    if equities(mover)[k] >= best - move_filter.margin
                ]
            )
        chosen = [int(k) for k in order]
        mover[chosen] = invert(
            evaluate_plies(evaluator, kids[chosen], plies, move_filter, cache, exact, pruning)
        )
        depth[chosen] = plies
    # Deeper results rank above shallower ones, then by equity.
    key = np.lexsort((-equities(mover), -depth))
    return packed[key], mover[key], depth[key]


def distinct_boards(
    boards: npt.NDArray[np.uint8],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct rows of ``boards`` (``uint8[n, 52]``): ``(first, inverse)`` with
    ``boards[first]`` each distinct board once, in order of first appearance, and
    ``boards[first][inverse]`` equal to ``boards``."""
    return _distinct_rows(np.ascontiguousarray(boards, dtype=np.uint8))


def finished_boards(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Which boards are finished games (a side has no checker left)."""
    return _settled(np.ascontiguousarray(boards, dtype=np.uint8), None)


def best_children(
    evaluator: BoardEvaluator,
    boards: npt.NDArray[np.uint8],
    pruning: Pruning | None = None,
    score: Callable[[npt.NDArray[np.uint8], npt.NDArray[np.float64]], npt.NDArray[np.float64]]
    | None = None,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """:func:`best_children_with_values` without the values."""
    children, board, roll, _ = best_children_with_values(evaluator, boards, pruning, score)
    return children, board, roll


def best_children_with_values(
    evaluator: BoardEvaluator,
    boards: npt.NDArray[np.uint8],
    pruning: Pruning | None = None,
    score: Callable[[npt.NDArray[np.uint8], npt.NDArray[np.float64]], npt.NDArray[np.float64]]
    | None = None,
) -> tuple[
    npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]
]:
    """The result of the best play of every board and roll, as a search's inner nodes
    choose it: the best 0-ply cubeless equity for the mover (among the pruning
    network's best few, with ``pruning``). Returns ``(children, board, roll,
    probabilities)``: the resulting boards (the opponent on roll; a roll with no play
    passes the turn), for each the index of its board and of its roll in
    :func:`weighted_rolls`, and its 0-ply probabilities (the opponent's, on roll). All
    the rolls' plays are evaluated in one call of ``evaluator``.
    Finished boards have no children. ``score(children, probabilities)``, when given,
    ranks the plays instead of the cubeless equity: the mover's value of each child
    from the child boards and their 0-ply probabilities (the opponent's).

    Raises:
        ValueError: for a malformed board array.
    """
    array = np.ascontiguousarray(boards, dtype=np.uint8)
    if array.ndim != 2 or array.shape[1] != BOARD_SLOTS:
        raise ValueError(f"boards must be shaped (n, {BOARD_SLOTS}), got {array.shape}")
    estimate, keep = _NO_PRUNING, 0
    if pruning is not None:
        estimate, keep = pruning.network.weights, pruning.keep
    children, spans = _children_of(array, _settled(array, None), _ROLL_ARRAY, estimate, keep)
    shallow = evaluate_plies(evaluator, children, 0)
    mover = -equities(shallow) if score is None else score(children, shallow)
    best = _best_in_spans(np.ascontiguousarray(mover, dtype=np.float64), spans)
    return children[best], spans[:, 0].copy(), spans[:, 1].copy(), shallow[best]


def weighted_rolls() -> Sequence[tuple[int, int, float]]:
    """The 21 rolls with their probabilities, as ``(high, low, weight)``."""
    return [(high, low, float(w)) for (high, low), w in zip(_ROLLS, _WEIGHTS, strict=True)]
