"""What an agent observes: the engine's encoding of the board, then the cube, the match,
the dice and the kind of decision.

An observation is a ``float32`` vector of :func:`observation_size` inputs, seen from one
player (its own checkers first):

* the engine's contact encoding of the position
  (:func:`backgammon.engine.encoding.encode_batch`, :data:`~backgammon.engine.encoding.
  CONTACT_INPUTS` = 242 inputs), scaled by the variant's number of checkers; Plakoto's
  pins are not shown (the networks see plain counts too);
* :data:`EXTRA_NAMES` (27 inputs, each in ``[0, 1]``): the decision (one-hot), the
  dice when rolled (one-hot, higher die first), the cube (value as ``log2 / 6``, who
  owns it), the match (lengths away as a share of the match length, Crawford) and the
  atomic bomb.

:func:`encode_positions` gives the board part alone for many positions at once: the
``afterstates`` an agent compares when it chooses a play.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

import numpy as np
import numpy.typing as npt

from backgammon.engine.encoding import CONTACT_INPUTS, encode_batch
from backgammon.rules.game import Game
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

__all__ = [
    "BOARD_INPUTS",
    "EXTRA_NAMES",
    "Phase",
    "encode_positions",
    "observation_high",
    "observation_size",
    "observe",
]

Observation = npt.NDArray[np.float32]

BOARD_INPUTS = CONTACT_INPUTS
"""The board part of an observation: the engine's contact encoding (242 inputs)."""


class Phase(Enum):
    """The kind of decision an agent faces."""

    PRE_ROLL = "pre-roll"
    """Before rolling: roll, or double (or explode the atomic bomb)."""
    DOUBLE = "double"
    """Doubled: take or drop (or beaver)."""
    BEAVER = "beaver"
    """Beavered: raccoon or roll on."""
    PLAY = "play"
    """The dice are rolled: one of the legal plays."""
    CHOOSE_DOUBLE = "choose-double"
    """Acey-deucey, after a 1-2: name the double to play."""
    OVER = "over"
    """The episode has ended: nothing to decide."""


_PHASES = (Phase.PRE_ROLL, Phase.DOUBLE, Phase.BEAVER, Phase.PLAY, Phase.CHOOSE_DOUBLE)

EXTRA_NAMES: tuple[str, ...] = (
    *(f"phase.{phase.value}" for phase in _PHASES),
    *(f"dice.high.{die}" for die in range(1, 7)),
    *(f"dice.low.{die}" for die in range(1, 7)),
    "cube.value",
    "cube.mine",
    "cube.theirs",
    "match.on",
    "match.my_away",
    "match.their_away",
    "match.crawford",
    "match.post_crawford",
    "bomb.mine",
    "bomb.theirs",
)
"""Names of the inputs after the board encoding, in order (see the module doc)."""

_PHASE_AT = 0
_DICE_AT = len(_PHASES)
_CUBE_AT = _DICE_AT + 12
_MATCH_AT = _CUBE_AT + 3
_BOMB_AT = _MATCH_AT + 5
_COUNT_MASK = np.uint8(0x7F)


def observation_size() -> int:
    """The length of an observation vector (242 + 27 = 269)."""
    return BOARD_INPUTS + len(EXTRA_NAMES)


def observation_high(variant: Variant) -> float:
    """An upper bound of every input for ``variant``: a point's fourth unit
    ``(n - 3) / 2`` for ``n`` up to ``N`` checkers, blots over 5, and 2.5 above the
    pip count over ``12 N`` (at most 25/12, every checker on the bar)."""
    checkers = variant.checkers
    return float(max(2.5, checkers / 5, (checkers - 3) / 2))


def encode_positions(positions: Sequence[Position], variant: Variant) -> Observation:
    """The board encoding of each position, seen from its side on roll:
    ``float32[len(positions), 242]``."""
    if not positions:
        return np.zeros((0, BOARD_INPUTS), dtype=np.float32)
    boards = np.stack([position.to_array() for position in positions])
    if variant.pinning:
        boards &= _COUNT_MASK
    return encode_batch(boards, variant.checkers)


def observe(game: Game, player: int, phase: Phase) -> Observation:
    """The observation of ``game`` for ``player`` (0 or 1) facing a ``phase`` decision
    (the phase inputs are all zero for :attr:`Phase.OVER` or when ``player`` is not the
    one to act)."""
    out = np.zeros(observation_size(), dtype=np.float32)
    out[:BOARD_INPUTS] = encode_positions([game.position_for(player)], game.variant)[0]
    extra = out[BOARD_INPUTS:]
    if phase in _PHASES:
        extra[_PHASE_AT + _PHASES.index(phase)] = 1.0
    dice = game.dice
    if dice is not None and phase is Phase.PLAY:
        extra[_DICE_AT + dice.high - 1] = 1.0
        extra[_DICE_AT + 6 + dice.low - 1] = 1.0
    cube = game.cube
    extra[_CUBE_AT] = min(1.0, float(np.log2(cube.value)) / 6)
    extra[_CUBE_AT + 1] = float(cube.owner == player)
    extra[_CUBE_AT + 2] = float(cube.owner == 1 - player)
    context = game.context
    if context.length:
        length = context.length
        extra[_MATCH_AT] = 1.0
        extra[_MATCH_AT + 1] = max(0, length - context.score[player]) / length
        extra[_MATCH_AT + 2] = max(0, length - context.score[1 - player]) / length
        extra[_MATCH_AT + 3] = float(context.crawford)
        extra[_MATCH_AT + 4] = float(context.post_crawford)
    bomb = game.bomb
    if game.variant.atomic and bomb is not None:
        extra[_BOMB_AT + (0 if bomb == player else 1)] = 1.0
    return out
