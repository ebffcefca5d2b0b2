"""The corpus as training data: every labelled position's board and its rollout's
five probabilities, as the arrays :func:`~backgammon.training.supervised.fit_networks`
takes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from backgammon.rules.position import Position
from backgammon.training.corpus.store import Corpus

__all__ = ["labelled_arrays"]

_TRUNCATED_KINDS = ("C", "X")
"""The kinds a shard's contact settings apply to (contact and crashed)."""


def labelled_arrays(
    corpus: Corpus, untruncated_only: bool = False
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """``(boards uint8[n, 52], probabilities float32[n, 5])`` of every shard of
    ``corpus``, each position once (the first shard that labels it, in name order):
    the boards seen from the side on roll, the probabilities its rollout's. With
    ``untruncated_only``, the labels that lean on a network are left out: the contact
    and crashed positions of shards whose rollouts were truncated (races and bear-ins
    are always rolled out to the end).

    Raises:
        OSError: if a shard cannot be read.
        CorpusFileError: if a shard breaks the format.
    """
    seen: set[str] = set()
    boards: list[npt.NDArray[np.uint8]] = []
    targets: list[tuple[float, ...]] = []
    for name in sorted(corpus.shard_names()):
        shard = corpus.read_shard(name)
        truncated = shard.header.get("settings", {}).get("contact", {}).get("truncation")
        skip = _TRUNCATED_KINDS if untruncated_only and truncated is not None else ()
        for label in shard.labels:
            position_id = label.queued.position_id
            if position_id in seen or label.queued.kind in skip:
                continue
            seen.add(position_id)
            boards.append(Position.from_position_id(position_id).to_array())
            targets.append(label.probabilities)
    if not boards:
        return np.zeros((0, 52), dtype=np.uint8), np.zeros((0, 5), dtype=np.float32)
    return np.stack(boards).astype(np.uint8), np.array(targets, dtype=np.float32)
