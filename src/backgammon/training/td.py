"""Self-play training by temporal differences, TD(0) or TD(λ), compiled with Numba.

Each game is played by the network against itself: for every roll the side on roll
takes the play whose resulting position is worst for the opponent (0-ply, greedy).
After each play the network's estimate of the position *before* the play is moved
toward the estimate of the position after it, seen from the same side (or toward the
game's real result when the play ends the game):

    target = invert(V(child))      or the exact outcome at the end
    δ      = target − V(position)
    θ     += α · Σₖ δₖ · ∇θ Vₖ(position)

with the five outputs of :mod:`backgammon.engine.network` (win, win gammon, win
backgammon, lose gammon, lose backgammon). Contact, race and crashed positions train
their own network (the class of the position being updated decides). ``α`` follows
``alpha / (1 + games / alpha_decay)``.

Other variants train the same way from their own games (:func:`variant_rules` packs
what the kernel needs to know of a variant): the hitting kernel with the variant's
movement options (the Egyptian limit, the Caucasian rule of tavla), or the kernel of
games without hitting (long nardy's blocking, head and six-prime rules; Plakoto's
pinning), the variant's start, its scoring (no gammons, no backgammons), Plakoto's
mother rule (a pinned mother ends the game: a double loss, or a draw) and an opening
winner who rolls again; the contact networks read the encoding they were made with
(``plakoto-v1`` sees the pins, see :mod:`backgammon.engine.encoding`). Turns that go
on after a play are played whole (:func:`_play_turn`): the roll after a double
(acey-deucey), the complement of a double and the roll after it (Russian, European
acey-deucey), the double named after a 1-2 (the best double and play); a play after
which the mover rolls again is valued as that side on roll, and the position before
the roll learns toward it without changing sides. Games ended by a hit (first-hit,
atomic) are not followed yet.

The dice come from an explicit xorshift state (see :mod:`backgammon.rules.fastgame`),
so a run is reproducible, and a checkpoint (networks + dice state + games played)
resumes with exactly the same continuation.

**One kernel.** This module is longer than the others (about 1,050 lines) on purpose:
it is one compiled training loop. The forward pass, the greedy choice, the
eligibility-trace update and each variant's turn are Numba functions that call one
another inside :func:`train_games` and :func:`train_variant_games`, over the same
parameter views and the same packed rules (the ``_RULES`` slots); apart, each module
would hold private array layouts the others depend on, and Numba's cache checks only
the source file of the function it loads (docs/architecture.md, "Compiled kernels"),
so an edit in one file would leave a stale compiled caller in another.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.engine.encoding import (
    CONTACT_ENCODING,
    CONTACT_FAMILY,
    CONTACT_INPUTS,
    RACE_INPUTS,
    encode_contact_family_into,
    encode_contact_into,
    encode_race_into,
)
from backgammon.engine.evaluator import PositionClass, classify_board
from backgammon.engine.network import Networks
from backgammon.rules.blocking_movegen import PINNED
from backgammon.rules.fastgame import random_die
from backgammon.rules.movegen import BOARD_SLOTS, COUNT_COLUMN, generate_plays_packed
from backgammon.rules.variant import STANDARD, Variant
from backgammon.rules.variant_movegen import (
    KIND,
    MOVEMENT_FIELDS,
    PINNING,
    THREE_DICE,
    movement_code,
    variant_plays,
    variant_throw_plays,
)

__all__ = [
    "CONTACT_NET",
    "CRASHED_NET",
    "RACE_NET",
    "game_outcome",
    "greedy_child",
    "parameter_views",
    "train_games",
    "train_variant_games",
    "variant_greedy_child",
    "variant_outcome",
    "variant_rules",
    "zero_traces",
]

CONTACT_NET = 0
RACE_NET = 1
CRASHED_NET = 2
_HALF = BOARD_SLOTS // 2
_OVER = int(PositionClass.OVER)
_BEAROFF = int(PositionClass.BEAROFF)
_RACE = int(PositionClass.RACE)
_CRASHED = int(PositionClass.CRASHED)

# The fields of a rules vector (see :func:`variant_rules`): the movement code first.
_PINNING = PINNING
_GAMMONS = MOVEMENT_FIELDS
_BACKGAMMONS = 7
_MOTHER = 8
_PRISON = 9
_OPENING_REROLL = 10
_FAMILY = 11  # the contact networks' encoding (CONTACT_FAMILY code)
_ENTER_ANYTIME = 12
_ACEY_DEUCEY = 13
_DOUBLES_AGAIN = 14
_COMPLEMENT = 15
_COMPLEMENT_AGAIN = 16
_CONTINUES = 17  # whether a turn may go on after a play
_RULES = 18
# What follows a play (see _continuation).
_PASS = 0
_ROLL_AGAIN = 1
_PLAY_COMPLEMENT = 2
_CHOOSE_DOUBLE = 3
_MAX_PLIES = 20_000
_UNFOLLOWED = ("first_hit", "atomic")

Params = npt.NDArray[np.float32]
Views = tuple[Params, Params, Params]
"""One parameter array of each network: contact, race, crashed (see the net indices)."""


def parameter_views(networks: Networks) -> tuple[Views, Views, Views, Views]:
    """The ``w1s, b1s, w2ts, b2s`` arguments of :func:`train_games`: views into the
    networks' parameters, which training updates in place."""
    nets = (networks.contact, networks.race, networks.crashed)
    return (
        (nets[0].w1, nets[1].w1, nets[2].w1),
        (nets[0].b1, nets[1].b1, nets[2].b1),
        (nets[0].w2t, nets[1].w2t, nets[2].w2t),
        (nets[0].b2, nets[1].b2, nets[2].b2),
    )


def zero_traces(
    views: tuple[Views, Views, Views, Views], lam: float
) -> tuple[Views, Views, Views, Views]:
    """Zeroed eligibility traces for ``views``: each parameter's shape plus an axis of
    5 (one trace per output) for TD(λ), empty arrays of the same rank for TD(0)."""

    def traces(group: Views) -> Views:
        made = [
            np.zeros((*a.shape, 5) if lam > 0 else (0,) * (a.ndim + 1), dtype=np.float32)
            for a in group
        ]
        return (made[0], made[1], made[2])

    return (traces(views[0]), traces(views[1]), traces(views[2]), traces(views[3]))


def variant_rules(variant: Variant, encoding: str = CONTACT_ENCODING) -> npt.NDArray[np.int64]:
    """What the training kernels need to know of ``variant``, packed in an
    ``int64`` vector (its movement kernel and options, its scoring, the mother rule,
    the opening), and the contact ``encoding`` of the networks being trained (see
    :data:`~backgammon.engine.encoding.CONTACT_FAMILY`).

    Raises:
        NotImplementedError: for a variant whose turn structure the kernels do not
            follow yet (a turn that goes on after a play: acey-deucey, Russian
            backgammon; a game ended by a hit: first-hit, atomic).
    """
    unfollowed = [name for name in _UNFOLLOWED if getattr(variant, name)]
    if unfollowed:
        raise NotImplementedError(
            f"TD self-play follows games ended by bearing off or the mother rule; "
            f"{variant.name} has {', '.join(unfollowed)}, which it does not follow yet"
        )
    rules = movement_code(variant, _RULES)
    rules[_GAMMONS] = variant.gammons
    rules[_BACKGAMMONS] = variant.gammons and variant.backgammons
    rules[_MOTHER] = variant.mother_rule
    rules[_PRISON] = variant.prison
    rules[_OPENING_REROLL] = variant.opening_reroll
    rules[_FAMILY] = CONTACT_FAMILY[encoding]
    rules[_ENTER_ANYTIME] = variant.enter_anytime
    rules[_ACEY_DEUCEY] = variant.acey_deucey
    rules[_DOUBLES_AGAIN] = variant.doubles_roll_again
    rules[_COMPLEMENT] = variant.complement_doubles
    rules[_COMPLEMENT_AGAIN] = variant.complement_roll_again
    rules[_CONTINUES] = (
        variant.acey_deucey or variant.doubles_roll_again or variant.complement_doubles
    )
    return rules


_STANDARD_RULES = variant_rules(STANDARD)


@njit(cache=True)
def variant_outcome(
    board: npt.NDArray[np.uint8], rules: npt.NDArray[np.int64], out: Params
) -> bool:
    """If the game is over, the exact result for the side on roll (the opponent has
    just played) into ``out``: bearing off (scored as the variant scores: no gammons,
    no backgammons), or Plakoto's mother rule (a double loss; a draw is 0.5 win and
    no gammons)."""
    mine = 0
    theirs = 0
    for slot in range(1, _HALF):
        mine += board[slot] & 0x7F
        theirs += board[_HALF + slot] & 0x7F
    if mine != 0 and theirs != 0:
        if rules[_MOTHER] == 0:
            return False
        # The side that just moved is the opponent (slots 26..51).
        mover_caught = (board[_HALF + 24] & PINNED) != 0
        other_caught = (board[24] & PINNED) != 0
        out[:] = 0.0
        prison = rules[_PRISON] != 0
        if mover_caught and other_caught:
            out[0] = 0.5
            return True
        if other_caught and (prison or (board[_HALF + 24] & 0x7F) == 0):
            out[3] = 1.0  # the side on roll lost double
            return True
        if mover_caught and (prison or (board[24] & 0x7F) == 0):
            out[0] = 1.0
            out[1] = 1.0
            return True
        return False
    out[:] = 0.0
    if mine == 0:
        out[0] = 1.0
        if board[_HALF] == 0 and rules[_GAMMONS] != 0:
            out[1] = 1.0
            if rules[_BACKGAMMONS] != 0:
                for slot in range(19, _HALF):
                    if board[_HALF + slot] != 0:
                        out[2] = 1.0
    elif board[0] == 0 and rules[_GAMMONS] != 0:
        out[3] = 1.0
        if rules[_BACKGAMMONS] != 0:
            for slot in range(19, _HALF):
                if board[slot] != 0:
                    out[4] = 1.0
    return True


@njit(cache=True)
def _net_of(cls: int) -> int:
    if cls in (_RACE, _BEAROFF):
        return RACE_NET
    if cls == _CRASHED:
        return CRASHED_NET
    return CONTACT_NET


@njit(cache=True)
def game_outcome(board: npt.NDArray[np.uint8], out: Params) -> bool:
    """If the game is over, the exact result for the side on roll into ``out``."""
    mine = 0
    theirs = 0
    for slot in range(1, _HALF):
        mine += board[slot]
        theirs += board[_HALF + slot]
    if mine != 0 and theirs != 0:
        return False
    out[:] = 0.0
    if mine == 0:
        out[0] = 1.0
        if board[_HALF] == 0:
            out[1] = 1.0
            for slot in range(19, _HALF):
                if board[_HALF + slot] != 0:
                    out[2] = 1.0
    else:
        if board[0] == 0:
            out[3] = 1.0
            for slot in range(19, _HALF):
                if board[slot] != 0:
                    out[4] = 1.0
    return True


@njit(cache=True)
def _forward(
    board: npt.NDArray[np.uint8],
    checkers: int,
    w1: Params,
    b1: Params,
    w2t: Params,
    b2: Params,
    race: bool,
    x: Params,
    hidden: Params,
    out: Params,
) -> None:
    """Encode ``board`` into ``x`` and run the network: hidden activations and the
    five raw outputs."""
    if race:
        encode_race_into(board, checkers, x)
    else:
        encode_contact_into(board, checkers, x)
    _net_forward(x, w1, b1, w2t, b2, hidden, out)


@njit(cache=True)
def _net_forward(
    x: Params, w1: Params, b1: Params, w2t: Params, b2: Params, hidden: Params, out: Params
) -> None:
    """Run the network on the inputs ``x``: hidden activations and the five raw
    outputs."""
    hidden[:] = b1
    for i in range(x.shape[0]):
        value = x[i]
        if value != 0.0:
            for j in range(hidden.shape[0]):
                hidden[j] += value * w1[i, j]
    for j in range(hidden.shape[0]):
        hidden[j] = 1.0 / (1.0 + math.exp(-max(hidden[j], -80.0)))
    for k in range(5):
        total = b2[k]
        for j in range(hidden.shape[0]):
            total += hidden[j] * w2t[k, j]
        out[k] = 1.0 / (1.0 + math.exp(-max(total, -80.0)))


@njit(cache=True)
def _equity(p: Params) -> float:
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


@njit(cache=True)
def _evaluate_child(
    board: npt.NDArray[np.uint8],
    rules: npt.NDArray[np.int64],
    checkers: int,
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    x_race: Params,
    x_contact: Params,
    hidden: Params,
    plain: npt.NDArray[np.uint8],
    out: Params,
) -> int:
    """The networks' outputs for ``board`` (side on roll) into ``out``: classified
    on the board without pin marks (copied into ``plain``), encoded as the networks
    read it; returns the network used (``x_race`` or ``x_contact`` holds its inputs,
    ``hidden`` its hidden units)."""
    if rules[_PINNING] != 0:
        for slot in range(BOARD_SLOTS):
            plain[slot] = board[slot] & 0x7F
    else:
        plain[:] = board
    net = _net_of(classify_board(plain))
    if net == RACE_NET:
        x = x_race
        encode_race_into(plain, checkers, x)
    else:
        x = x_contact
        encode_contact_family_into(board, rules[_FAMILY], checkers, x)
    _net_forward(x, w1s[net], b1s[net], w2ts[net], b2s[net], hidden[: b1s[net].shape[0]], out)
    return net


@njit(cache=True)
def variant_greedy_child(
    board: npt.NDArray[np.uint8],
    die1: int,
    die2: int,
    die3: int,
    checkers: int,
    rules: npt.NDArray[np.int64],
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    x_race: Params,
    x_contact: Params,
    hidden: Params,
    flipped: npt.NDArray[np.uint8],
    child_out: Params,
    best_child: npt.NDArray[np.uint8],
    best_out: Params,
) -> None:
    """:func:`greedy_child` under a variant's rules (see :func:`variant_rules`): its
    movement, its game endings and scoring. ``die3`` is the third die of a
    three-dice variant's throw (tabula), ignored by the others."""
    packed = variant_throw_plays(board, die1, die2, die3, rules)
    rows = packed.shape[0]
    plain = np.empty(BOARD_SLOTS, dtype=np.uint8)
    best_value = -1e9
    if rows == 0:
        best_child[:_HALF] = board[_HALF:]
        best_child[_HALF:] = board[:_HALF]
        _evaluate_child(
            best_child,
            rules,
            checkers,
            w1s,
            b1s,
            w2ts,
            b2s,
            x_race,
            x_contact,
            hidden,
            plain,
            best_out,
        )
    for row in range(rows):
        flipped[:_HALF] = packed[row, _HALF:BOARD_SLOTS]
        flipped[_HALF:] = packed[row, :_HALF]
        if not variant_outcome(flipped, rules, child_out):
            _evaluate_child(
                flipped,
                rules,
                checkers,
                w1s,
                b1s,
                w2ts,
                b2s,
                x_race,
                x_contact,
                hidden,
                plain,
                child_out,
            )
        value = -_equity(child_out)
        if value > best_value:
            best_value = value
            best_child[:] = flipped
            best_out[:] = child_out


@njit(cache=True)
def greedy_child(
    board: npt.NDArray[np.uint8],
    die1: int,
    die2: int,
    checkers: int,
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    x_race: Params,
    x_contact: Params,
    hidden: Params,
    flipped: npt.NDArray[np.uint8],
    child_out: Params,
    best_child: npt.NDArray[np.uint8],
    best_out: Params,
) -> None:
    """The play of ``die1``-``die2`` a 0-ply greedy player makes from ``board``: its
    result (flipped, opponent on roll) into ``best_child`` and that side's outputs
    (exact if the game is over) into ``best_out``. With no legal play the turn passes.
    The other arrays are work space (inputs, hidden units of the largest network, a
    flipped board, outputs)."""
    packed = generate_plays_packed(board, die1, die2)
    rows = packed.shape[0]
    best_value = -1e9
    if rows == 0:
        best_child[:_HALF] = board[_HALF:]
        best_child[_HALF:] = board[:_HALF]
        net = _net_of(classify_board(best_child))
        race = net == RACE_NET
        _forward(
            best_child,
            checkers,
            w1s[net],
            b1s[net],
            w2ts[net],
            b2s[net],
            race,
            x_race if race else x_contact,
            hidden[: b1s[net].shape[0]],
            best_out,
        )
    for row in range(rows):
        flipped[:_HALF] = packed[row, _HALF:BOARD_SLOTS]
        flipped[_HALF:] = packed[row, :_HALF]
        if not game_outcome(flipped, child_out):
            net = _net_of(classify_board(flipped))
            race = net == RACE_NET
            _forward(
                flipped,
                checkers,
                w1s[net],
                b1s[net],
                w2ts[net],
                b2s[net],
                race,
                x_race if race else x_contact,
                hidden[: b1s[net].shape[0]],
                child_out,
            )
        value = -_equity(child_out)
        if value > best_value:
            best_value = value
            best_child[:] = flipped
            best_out[:] = child_out


_PERM = np.array([0, 3, 4, 1, 2], dtype=np.int64)
_SIGN = np.array([-1.0, 1.0, 1.0, 1.0, 1.0], dtype=np.float32)


@njit(cache=True)
def _trace_update(
    net: int,
    second: bool,
    lam: float,
    rate: float,
    target: Params,
    now: Params,
    hidden: Params,
    x: Params,
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    traces_w1: tuple[Params, Params, Params],
    traces_b1: tuple[Params, Params, Params],
    traces_w2t: tuple[Params, Params, Params],
    traces_b2: tuple[Params, Params, Params],
) -> None:
    """One TD(λ) step: decay every trace, add this position's gradients (outputs in
    the first mover's view), then move every network along its traces."""
    hidden_size = hidden.shape[0]
    w2t = w2ts[net]
    # Output m of the first mover's view is output PERM[m] of the second's, signed.
    out_of = np.arange(5)
    sign = np.ones(5, dtype=np.float32)
    if second:
        out_of = _PERM
        sign = _SIGN
    for n in range(3):
        decayed_w1 = traces_w1[n]
        decayed_w1 *= lam
        decayed_b1 = traces_b1[n]
        decayed_b1 *= lam
        decayed_w2t = traces_w2t[n]
        decayed_w2t *= lam
        decayed_b2 = traces_b2[n]
        decayed_b2 *= lam
    e_w1 = traces_w1[net]
    e_b1 = traces_b1[net]
    e_w2t = traces_w2t[net]
    e_b2 = traces_b2[net]
    for m in range(5):
        k = out_of[m]
        g_out = sign[m] * now[k] * (1.0 - now[k])
        e_b2[k, m] += g_out
        for j in range(hidden_size):
            e_w2t[k, j, m] += g_out * hidden[j]
            g_hidden = g_out * w2t[k, j] * hidden[j] * (1.0 - hidden[j])
            e_b1[j, m] += g_hidden
            for i in range(x.shape[0]):
                if x[i] != 0.0:
                    e_w1[i, j, m] += g_hidden * x[i]
    delta = np.empty(5, dtype=np.float32)
    for m in range(5):
        delta[m] = sign[m] * (target[out_of[m]] - now[out_of[m]])
    for n in range(3):
        w1 = w1s[n]
        b1 = b1s[n]
        w2 = w2ts[n]
        b2 = b2s[n]
        t_w1 = traces_w1[n]
        t_b1 = traces_b1[n]
        t_w2t = traces_w2t[n]
        t_b2 = traces_b2[n]
        for m in range(5):
            step = rate * delta[m]
            if step == 0.0:
                continue
            for k in range(5):
                b2[k] += step * t_b2[k, m]
                for j in range(w2.shape[1]):
                    w2[k, j] += step * t_w2t[k, j, m]
            for j in range(b1.shape[0]):
                b1[j] += step * t_b1[j, m]
            for i in range(w1.shape[0]):
                for j in range(w1.shape[1]):
                    w1[i, j] += step * t_w1[i, j, m]


@njit(cache=True)
def _continuation(
    rules: npt.NDArray[np.int64],
    child: npt.NDArray[np.uint8],
    die1: int,
    die2: int,
    steps: int,
    bonus: bool,
    complement: bool,
) -> int:
    """What follows a play of ``steps`` dice of ``die1``-``die2`` that left ``child``
    (mover's view), in :class:`~backgammon.rules.game.Game`'s order: the acey-deucey
    choice of a double, the end of a complement, a complement, another roll, or the
    turn passes."""
    if rules[_ACEY_DEUCEY] != 0 and not bonus and min(die1, die2) == 1 and max(die1, die2) == 2:
        return _CHOOSE_DOUBLE
    if complement:
        return _ROLL_AGAIN if steps == 4 and rules[_COMPLEMENT_AGAIN] != 0 else _PASS
    if (
        rules[_COMPLEMENT] != 0
        and die1 == die2
        and not bonus
        and steps == 4
        and (rules[_ENTER_ANYTIME] != 0 or child[25] == 0)
    ):
        return _PLAY_COMPLEMENT
    if bonus or (rules[_DOUBLES_AGAIN] != 0 and die1 == die2):
        return _ROLL_AGAIN
    return _PASS


@njit(cache=True)
def _best_segment(
    board: npt.NDArray[np.uint8],
    die1: int,
    die2: int,
    bonus: bool,
    complement: bool,
    checkers: int,
    rules: npt.NDArray[np.int64],
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    x_race: Params,
    x_contact: Params,
    hidden: Params,
    plain: npt.NDArray[np.uint8],
    flipped: npt.NDArray[np.uint8],
    child_out: Params,
    best_child: npt.NDArray[np.uint8],
    best_out: Params,
) -> tuple[float, int]:
    """The greedy play of one segment of a turn (the dice ``die1``-``die2``, after
    ``bonus``/``complement`` plays): ``(its value for the mover, what follows)``, with
    ``best_child`` the board after it (the mover's view when the mover plays on,
    otherwise flipped) and ``best_out`` that board's outputs for its side on roll
    (exact at the end of the game; what follows is then ``_PASS``). A play after
    which the mover plays on is valued by the networks as the mover on roll (its
    next segment's dice unknown to them)."""
    packed = variant_plays(board, die1, die2, rules)
    rows = packed.shape[0]
    best_value = -1e9
    best_kind = _PASS
    child = np.empty(BOARD_SLOTS, dtype=np.uint8)
    for row in range(max(rows, 1)):
        if rows == 0:
            child[:] = board
            steps = 0
        else:
            child[:] = packed[row, :BOARD_SLOTS]
            steps = int(packed[row, COUNT_COLUMN])
        flipped[:_HALF] = child[_HALF:BOARD_SLOTS]
        flipped[_HALF:] = child[:_HALF]
        kind = _continuation(rules, child, die1, die2, steps, bonus, complement)
        if variant_outcome(flipped, rules, child_out):
            kind = _PASS
            value = -_equity(child_out)
        elif kind == _PASS:
            _evaluate_child(
                flipped,
                rules,
                checkers,
                w1s,
                b1s,
                w2ts,
                b2s,
                x_race,
                x_contact,
                hidden,
                plain,
                child_out,
            )
            value = -_equity(child_out)
        else:
            flipped[:] = child
            _evaluate_child(
                flipped,
                rules,
                checkers,
                w1s,
                b1s,
                w2ts,
                b2s,
                x_race,
                x_contact,
                hidden,
                plain,
                child_out,
            )
            value = _equity(child_out)
        if value > best_value:
            best_value = value
            best_kind = kind
            best_child[:] = flipped
            best_out[:] = child_out
    return best_value, best_kind


@njit(cache=True)
def _play_turn(
    board: npt.NDArray[np.uint8],
    die1: int,
    die2: int,
    checkers: int,
    rules: npt.NDArray[np.int64],
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    x_race: Params,
    x_contact: Params,
    hidden: Params,
    plain: npt.NDArray[np.uint8],
    flipped: npt.NDArray[np.uint8],
    child_out: Params,
    best_child: npt.NDArray[np.uint8],
    best_out: Params,
) -> bool:
    """A whole turn from ``board`` with the roll ``die1``-``die2``, played greedily:
    the acey-deucey double after a 1-2 (the best double and play, valued as the
    mover rolling again), a complement, until the mover must roll again (returns
    True, ``best_child`` in the mover's view) or the turn passes or the game ends
    (False, ``best_child`` flipped). ``best_out``: ``best_child``'s outputs for its
    side on roll."""
    current = board.copy()
    bonus = False
    complement = False
    trial = np.empty(BOARD_SLOTS, dtype=np.uint8)
    trial_out = np.empty(5, dtype=np.float32)
    for _ in range(8):
        _, kind = _best_segment(
            current,
            die1,
            die2,
            bonus,
            complement,
            checkers,
            rules,
            w1s,
            b1s,
            w2ts,
            b2s,
            x_race,
            x_contact,
            hidden,
            plain,
            flipped,
            child_out,
            best_child,
            best_out,
        )
        if kind == _CHOOSE_DOUBLE:
            # The mover names the double whose best play is worth most, plays it, and
            # rolls again.
            current[:] = best_child
            chosen = -1e9
            for number in range(1, 7):
                value, then = _best_segment(
                    current,
                    number,
                    number,
                    True,
                    False,
                    checkers,
                    rules,
                    w1s,
                    b1s,
                    w2ts,
                    b2s,
                    x_race,
                    x_contact,
                    hidden,
                    plain,
                    flipped,
                    child_out,
                    trial,
                    trial_out,
                )
                if value > chosen:
                    chosen = value
                    kind = then
                    best_child[:] = trial
                    best_out[:] = trial_out
            return kind != _PASS
        if kind == _PLAY_COMPLEMENT:
            current[:] = best_child
            die1 = 7 - die1
            die2 = die1
            complement = True
            continue
        return kind == _ROLL_AGAIN
    return False


@njit(cache=True)
def train_variant_games(
    games: int,
    start: npt.NDArray[np.uint8],
    checkers: int,
    rules: npt.NDArray[np.int64],
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    alpha: float,
    alpha_decay: float,
    games_before: int,
    state: npt.NDArray[np.uint64],
    results: npt.NDArray[np.int64],
    lam: float,
    traces_w1: tuple[Params, Params, Params],
    traces_b1: tuple[Params, Params, Params],
    traces_w2t: tuple[Params, Params, Params],
    traces_b2: tuple[Params, Params, Params],
) -> None:
    """Play and learn from ``games`` self-play games of a variant (its
    :func:`variant_rules`, its ``start`` board), updating the networks in place.

    With ``lam`` > 0 the updates use eligibility traces, TD(λ): ``traces_*`` are
    zero-initialised arrays shaped like each parameter with a trailing axis of 5 (one
    trace per output, kept in the first mover's point of view, so that a position of
    the other side adds its gradient with the outputs swapped: win ↔ loss). With
    ``lam`` = 0 they are not used (pass empty arrays).

    ``w1s``/``b1s``/``w2ts``/``b2s`` hold the contact, race and crashed networks'
    parameter views; ``games_before`` counts earlier games (for the learning-rate
    schedule); ``state`` is the xorshift dice state (advanced in place); ``results``
    gets one row per game: the winner (0 = the side that moved first), the points
    (1-3; 0 for a draw, or a game stopped after ``_MAX_PLIES`` plies) and the number
    of plies.
    """
    hidden_size = b1s[0].shape[0]
    x_contact = np.zeros(CONTACT_INPUTS, dtype=np.float32)
    x_race = np.zeros(RACE_INPUTS, dtype=np.float32)
    hidden = np.zeros(hidden_size, dtype=np.float32)
    child_out = np.zeros(5, dtype=np.float32)
    best_out = np.zeros(5, dtype=np.float32)
    target = np.zeros(5, dtype=np.float32)
    now = np.zeros(5, dtype=np.float32)
    delta_out = np.zeros(5, dtype=np.float32)
    delta_hidden = np.zeros(hidden_size, dtype=np.float32)
    board = np.empty(BOARD_SLOTS, dtype=np.uint8)
    flipped = np.empty(BOARD_SLOTS, dtype=np.uint8)
    best_child = np.empty(BOARD_SLOTS, dtype=np.uint8)
    plain = np.empty(BOARD_SLOTS, dtype=np.uint8)
    reroll = rules[_OPENING_REROLL] != 0
    three_dice = rules[KIND] == THREE_DICE
    for game in range(games):
        rate = alpha / (1.0 + (games_before + game) / alpha_decay)
        if lam > 0.0:
            for n in range(3):
                traces_w1[n][:] = 0.0
                traces_b1[n][:] = 0.0
                traces_w2t[n][:] = 0.0
                traces_b2[n][:] = 0.0
        board[:] = start
        die1 = random_die(state)
        die2 = random_die(state)
        while die1 == die2 and not reroll:
            die1 = random_die(state)
            die2 = random_die(state)
        die3 = random_die(state) if three_dice else 0
        first = True
        plies = 0
        mover_is_first = True
        while True:
            if not first:
                die1 = random_die(state)
                die2 = random_die(state)
                if three_dice:
                    die3 = random_die(state)
            first = False
            plies += 1
            again = False
            if rules[_CONTINUES] != 0:
                again = _play_turn(
                    board,
                    die1,
                    die2,
                    checkers,
                    rules,
                    w1s,
                    b1s,
                    w2ts,
                    b2s,
                    x_race,
                    x_contact,
                    hidden,
                    plain,
                    flipped,
                    child_out,
                    best_child,
                    best_out,
                )
            else:
                variant_greedy_child(
                    board,
                    die1,
                    die2,
                    die3,
                    checkers,
                    rules,
                    w1s,
                    b1s,
                    w2ts,
                    b2s,
                    x_race,
                    x_contact,
                    hidden,
                    flipped,
                    child_out,
                    best_child,
                    best_out,
                )
            # The target for the position before the roll, from the mover's side.
            if again:  # the mover rolls again: the next position is its own
                target[:] = best_out
            else:
                target[0] = 1.0 - best_out[0]
                target[1] = best_out[3]
                target[2] = best_out[4]
                target[3] = best_out[1]
                target[4] = best_out[2]
            over = not again and variant_outcome(best_child, rules, child_out)
            # Learn: move V(board) toward the target.
            net = _evaluate_child(
                board,
                rules,
                checkers,
                w1s,
                b1s,
                w2ts,
                b2s,
                x_race,
                x_contact,
                hidden,
                plain,
                now,
            )
            race = net == RACE_NET
            x = x_race if race else x_contact
            w1 = w1s[net]
            b1 = b1s[net]
            w2t = w2ts[net]
            b2 = b2s[net]
            if lam > 0.0:
                _trace_update(
                    net,
                    not mover_is_first,
                    lam,
                    rate,
                    target,
                    now,
                    hidden,
                    x,
                    w1s,
                    b1s,
                    w2ts,
                    b2s,
                    traces_w1,
                    traces_b1,
                    traces_w2t,
                    traces_b2,
                )
            else:
                for k in range(5):
                    delta_out[k] = (target[k] - now[k]) * now[k] * (1.0 - now[k])
                for j in range(hidden_size):
                    total = 0.0
                    for k in range(5):
                        total += delta_out[k] * w2t[k, j]
                    delta_hidden[j] = total * hidden[j] * (1.0 - hidden[j])
                for k in range(5):
                    step = rate * delta_out[k]
                    b2[k] += step
                    for j in range(hidden_size):
                        w2t[k, j] += step * hidden[j]
                for j in range(hidden_size):
                    b1[j] += rate * delta_hidden[j]
                for i in range(x.shape[0]):
                    value_i = x[i]
                    if value_i != 0.0:
                        scaled = rate * value_i
                        for j in range(hidden_size):
                            w1[i, j] += scaled * delta_hidden[j]
            if over:
                # ``child_out`` holds the result for the side on roll in best_child:
                # the loser, unless the mother rule ended the game the other way.
                loser_on_roll = child_out[0] < 0.5
                points = 1
                if child_out[1] > 0.5 or child_out[3] > 0.5:
                    points = 2
                if child_out[2] > 0.5 or child_out[4] > 0.5:
                    points = 3
                if child_out[0] == 0.5:
                    points = 0  # a draw
                results[game, 0] = 0 if mover_is_first == loser_on_roll else 1
                results[game, 1] = points
                results[game, 2] = plies
                break
            if plies >= _MAX_PLIES:
                results[game, 0] = 0
                results[game, 1] = 0
                results[game, 2] = plies
                break
            board[:] = best_child
            if not again:
                mover_is_first = not mover_is_first


@njit(cache=True)
def train_games(
    games: int,
    start: npt.NDArray[np.uint8],
    checkers: int,
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    alpha: float,
    alpha_decay: float,
    games_before: int,
    state: npt.NDArray[np.uint64],
    results: npt.NDArray[np.int64],
    lam: float,
    traces_w1: tuple[Params, Params, Params],
    traces_b1: tuple[Params, Params, Params],
    traces_w2t: tuple[Params, Params, Params],
    traces_b2: tuple[Params, Params, Params],
) -> None:
    """:func:`train_variant_games` under the standard game's rules (from any
    ``start`` board)."""
    train_variant_games(
        games,
        start,
        checkers,
        _STANDARD_RULES,
        w1s,
        b1s,
        w2ts,
        b2s,
        alpha,
        alpha_decay,
        games_before,
        state,
        results,
        lam,
        traces_w1,
        traces_b1,
        traces_w2t,
        traces_b2,
    )
