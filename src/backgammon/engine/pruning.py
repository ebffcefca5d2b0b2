"""The pruning network: a tiny, fast estimate of a position's equity that lookahead
search uses to choose which plays deserve a full evaluation.

Inside an n-ply search most of the work is picking, for each position and roll, the
best play at 0-ply: every play is evaluated by the full network and all but one are
thrown away. GNU Backgammon's answer (its "pruning nets") is to rank the plays with a
much smaller network and evaluate only the best few with the full one. Ours is built
the same way from our own parts:

* **Inputs.** Only the 52 slots of the board (each side's checkers off, on points
  1..24 and on the bar), each slot's count clipped to 15.
* **Hidden layer.** ``H`` rectified-linear units. The first layer is an *embedding*:
  each (slot, count) pair has its own learned ``H``-vector and the pre-activations are
  the bias plus the vectors of the occupied slots. That can express anything the
  classic four-units-per-point encoding can (and more), and it costs a table look-up
  and ``H`` additions per occupied slot: about 20 slots, no multiplications.
* **Output.** One linear unit: the cubeless equity of the side on roll, before it
  rolls.

It is trained by regression on the full network's own 0-ply equities of positions
from the engine's self-play (``backgammon train-prune``; see
:mod:`backgammon.training.pruning`), so it learns nothing from any other program.

A weights file is a NumPy ``.npz`` archive with ``embedding`` (``float32[52, 16, H]``,
the rows for count 0 unused), ``b1`` (``[H]``), ``w2`` (``[H]``), ``b2`` (``[1]``) and
``metadata``, a 0-d unicode array holding a JSON object.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.errors import EngineError

__all__ = [
    "DEFAULT_PRUNING_WEIGHTS",
    "MAX_COUNT",
    "PRUNE_SLOTS",
    "PruningNetwork",
    "PruningWeights",
    "default_pruning_network",
    "pruning_hidden_into",
    "pruning_score",
    "pruning_score_near",
    "pruning_scores_into",
]

PRUNE_SLOTS = 52
"""Board slots the pruning network reads (both sides, off + 24 points + bar)."""

MAX_COUNT = 15
"""Counts above this are read as this."""

DEFAULT_PRUNING_WEIGHTS = "prune.weights.npz"
"""The shipped pruning network's file name in ``backgammon/engine/data``."""

Float32Array = npt.NDArray[np.float32]
PruningWeights = tuple[Float32Array, Float32Array, Float32Array, float]
"""``(embedding, b1, w2, b2)``, as the kernels take them."""


@njit(cache=True)
def pruning_hidden_into(
    board: npt.NDArray[np.uint8], shift: int, weights: PruningWeights, acc: Float32Array
) -> None:
    """The pruning network's hidden pre-activations of one board into ``acc`` (of the
    hidden size), reading slot ``s`` at ``board[(s + shift) % 52]``."""
    embedding, b1, _, _ = weights
    hidden = b1.shape[0]
    for j in range(hidden):
        acc[j] = b1[j]
    for slot in range(PRUNE_SLOTS):
        at = slot + shift
        if at >= PRUNE_SLOTS:
            at -= PRUNE_SLOTS
        count = board[at] & 0x7F
        if count:
            if count > MAX_COUNT:
                count = MAX_COUNT
            for j in range(hidden):
                acc[j] += embedding[slot, count, j]


@njit(cache=True)
def _pruning_output(acc: Float32Array, weights: PruningWeights) -> float:
    """The output unit on hidden pre-activations ``acc``."""
    w2 = weights[2]
    total = weights[3]
    for j in range(acc.shape[0]):
        if acc[j] > 0.0:
            total += acc[j] * w2[j]
    return total


@njit(cache=True)
def pruning_score(
    board: npt.NDArray[np.uint8], shift: int, weights: PruningWeights, acc: Float32Array
) -> float:
    """The pruning network's equity of one board for the side on roll, reading slot
    ``s`` at ``board[(s + shift) % 52]`` (``shift=26``: the board flipped, without a
    copy); ``acc`` is work space of the hidden size."""
    pruning_hidden_into(board, shift, weights, acc)
    return _pruning_output(acc, weights)


@njit(cache=True)
def pruning_score_near(
    board: npt.NDArray[np.uint8],
    parent: npt.NDArray[np.uint8],
    base: Float32Array,
    shift: int,
    weights: PruningWeights,
    acc: Float32Array,
) -> float:
    """:func:`pruning_score` of ``board`` from ``base``, the hidden pre-activations of
    ``parent`` read the same way (:func:`pruning_hidden_into`): only the slots where
    the two differ are looked up, so scoring the plays of a roll costs a few slots
    each instead of every occupied one."""
    embedding = weights[0]
    hidden = base.shape[0]
    for j in range(hidden):
        acc[j] = base[j]
    for slot in range(PRUNE_SLOTS):
        at = slot + shift
        if at >= PRUNE_SLOTS:
            at -= PRUNE_SLOTS
        new = board[at] & 0x7F
        old = parent[at] & 0x7F
        if new == old:
            continue
        if new > MAX_COUNT:
            new = MAX_COUNT
        if old > MAX_COUNT:
            old = MAX_COUNT
        if new:
            for j in range(hidden):
                acc[j] += embedding[slot, new, j]
        if old:
            for j in range(hidden):
                acc[j] -= embedding[slot, old, j]
    return _pruning_output(acc, weights)


@njit(cache=True)
def pruning_scores_into(
    boards: npt.NDArray[np.uint8], weights: PruningWeights, out: npt.NDArray[np.float64]
) -> None:
    """The pruning network's equity of each board (side on roll) into ``out``."""
    acc = np.empty(weights[1].shape[0], dtype=np.float32)
    for row in range(boards.shape[0]):
        out[row] = pruning_score(boards[row], 0, weights, acc)


@dataclass(frozen=True, eq=False)
class PruningNetwork:
    """A pruning network's parameters (see the module docstring) and metadata."""

    embedding: Float32Array
    """``float32[52, 16, H]``: the vector of each (slot, count); count 0 is unused."""
    b1: Float32Array
    """``float32[H]``: the hidden biases."""
    w2: Float32Array
    """``float32[H]``: the output weights."""
    b2: float
    """The output bias."""
    metadata: dict[str, Any] = field(default_factory=dict)
    """What the file says about how it was trained and how well it ranks."""

    def __post_init__(self) -> None:
        hidden = self.b1.shape[0]
        if self.embedding.shape != (PRUNE_SLOTS, MAX_COUNT + 1, hidden) or self.w2.shape != (
            hidden,
        ):
            raise EngineError(
                "pruning network arrays have the wrong shapes: embedding "
                f"{self.embedding.shape}, b1 {self.b1.shape}, w2 {self.w2.shape}"
            )

    @property
    def weights(self) -> PruningWeights:
        """The parameters as the kernels take them."""
        return (self.embedding, self.b1, self.w2, float(self.b2))

    @property
    def hidden(self) -> int:
        """Hidden units."""
        return int(self.b1.shape[0])

    @classmethod
    def random(cls, hidden: int = 16, seed: int = 0) -> PruningNetwork:
        """A freshly initialised network (small random weights)."""
        if hidden < 1:
            raise ValueError(f"a pruning network has at least one hidden unit, got {hidden}")
        rng = np.random.default_rng(seed)
        embedding = rng.normal(0.0, 0.1, size=(PRUNE_SLOTS, MAX_COUNT + 1, hidden))
        embedding[:, 0, :] = 0.0
        return cls(
            embedding.astype(np.float32),
            np.full(hidden, 0.1, dtype=np.float32),
            rng.normal(0.0, 1.0 / np.sqrt(hidden), size=hidden).astype(np.float32),
            0.0,
        )

    def scores(self, boards: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The estimated cubeless equity of each 52-slot board (``uint8[n, 52]``) for
        the side on roll, before it rolls.

        Raises:
            ValueError: if ``boards`` is not ``(n, 52)``.
        """
        array = np.ascontiguousarray(boards, dtype=np.uint8)
        if array.ndim != 2 or array.shape[1] != PRUNE_SLOTS:
            raise ValueError(f"boards must be (n, {PRUNE_SLOTS}), got {array.shape}")
        out = np.empty(array.shape[0])
        pruning_scores_into(array, self.weights, out)
        return out

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the weights file (see the module docstring)."""
        with open(path, "wb") as handle:
            np.savez_compressed(
                handle,
                embedding=self.embedding,
                b1=self.b1,
                w2=self.w2,
                b2=np.array([self.b2], dtype=np.float32),
                metadata=np.array(json.dumps(self.metadata, sort_keys=True)),
            )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PruningNetwork:
        """Read a weights file.

        Raises:
            EngineError: if the file is unreadable or not a pruning network.
        """
        try:
            with np.load(path, allow_pickle=False) as archive:
                missing = {"embedding", "b1", "w2", "b2", "metadata"} - set(archive.files)
                if missing:
                    raise EngineError(
                        f"{os.fspath(path)!r} is not a pruning network: no {sorted(missing)}"
                    )
                metadata = json.loads(str(archive["metadata"][()]))
                if not isinstance(metadata, dict):
                    raise EngineError(f"{os.fspath(path)!r}: metadata is not a JSON object")
                return cls(
                    np.ascontiguousarray(archive["embedding"], dtype=np.float32),
                    np.ascontiguousarray(archive["b1"], dtype=np.float32),
                    np.ascontiguousarray(archive["w2"], dtype=np.float32),
                    float(archive["b2"][0]),
                    metadata,
                )
        except (OSError, ValueError) as exc:
            raise EngineError(f"cannot read pruning network {os.fspath(path)!r}: {exc}") from None

    def __repr__(self) -> str:
        return f"<PruningNetwork {self.hidden} hidden>"


def default_pruning_network() -> PruningNetwork | None:
    """The shipped pruning network, or ``None`` while the package ships none.

    Raises:
        EngineError: if the shipped file is unreadable.
    """
    resource = (
        resources.files("backgammon.engine").joinpath("data").joinpath(DEFAULT_PRUNING_WEIGHTS)
    )
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        return PruningNetwork.load(path)
