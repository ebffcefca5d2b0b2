"""The self-play trainer: settings, checkpoints that resume exactly, a metrics log.

A checkpoint is a folder with ``networks.npz`` (a weights file, see
:mod:`backgammon.engine.network`) and ``trainer.json`` (the settings, the games played
and the dice state). :meth:`Trainer.resume` continues from it with exactly the results
an uninterrupted run would have given.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from backgammon.engine.encoding import family_encoding
from backgammon.engine.network import Networks
from backgammon.errors import EngineError
from backgammon.rules.fastgame import new_rng_state
from backgammon.rules.position import Position
from backgammon.training.td import (
    parameter_views,
    train_variant_games,
    variant_rules,
    zero_traces,
)
from backgammon.variants import find

__all__ = ["Trainer", "TrainingSettings"]

NETWORKS_FILE = "networks.npz"
STATE_FILE = "trainer.json"
LOG_FILE = "training.csv"


@dataclass(frozen=True, slots=True)
class TrainingSettings:
    """How to train.

    Attributes:
        hidden: hidden units of each network.
        alpha: the initial learning rate.
        alpha_decay: games over which the learning rate halves (``alpha / (1 + g /
            alpha_decay)``).
        seed: seeds both the initial weights and the dice.
        variant: the variant to train (its registry name): self-play games of that
            variant, from its start, under its movement and scoring (see
            :func:`~backgammon.training.td.variant_rules`; variants whose games end on
            a hit, first-hit and atomic, are refused).
        lam: the TD(λ) trace decay; 0 is TD(0), much the fastest.
    """

    hidden: int = 128
    alpha: float = 0.1
    alpha_decay: float = 200_000.0
    seed: int = 1
    variant: str = "standard"
    lam: float = 0.0

    def __post_init__(self) -> None:
        if self.hidden < 1:
            raise ValueError(f"hidden must be >= 1, got {self.hidden}")
        if not self.alpha > 0:
            raise ValueError(f"alpha must be > 0, got {self.alpha}")
        if not self.alpha_decay > 0:
            raise ValueError(f"alpha_decay must be > 0, got {self.alpha_decay}")
        if not 0.0 <= self.lam < 1.0:
            raise ValueError(f"lam must be in [0, 1), got {self.lam}")


class Trainer:
    """Trains networks by TD self-play; see :mod:`backgammon.training.td`."""

    def __init__(self, settings: TrainingSettings, networks: Networks | None = None) -> None:
        """Start from ``networks`` or from a fresh seeded initialisation (whose
        contact networks read the variant's own encoding,
        :func:`~backgammon.engine.encoding.family_encoding`).

        Raises:
            KeyError: for an unknown variant.
            NotImplementedError: for a variant whose turns the trainer does not
                follow yet (see :func:`~backgammon.training.td.variant_rules`).
        """
        self.settings = settings
        variant = find(settings.variant)
        self.variant = variant
        if networks is None:
            networks = Networks.random(
                settings.seed,
                settings.hidden,
                checkers=variant.checkers,
                variant=variant.name,
                notes="TD self-play training",
            ).with_contact_encoding(family_encoding(variant))
        self.networks = networks
        self.rules = variant_rules(variant, networks.contact.encoding)
        self.games_played = 0
        self.state = new_rng_state(settings.seed)
        self.seconds = 0.0

    def train(
        self,
        games: int,
        *,
        chunk: int = 200,
        progress: Callable[[int, int, float], None] | None = None,
    ) -> npt.NDArray[np.int64]:
        """Play and learn from ``games`` games; return their results (winner, points,
        plies per game). ``progress(done, total, games_per_second)`` after each chunk.
        """
        start = Position.initial(self.variant).to_array()
        views = parameter_views(self.networks)
        w1s, b1s, w2ts, b2s = views
        traces = zero_traces(views, self.settings.lam)
        all_results = np.zeros((games, 3), dtype=np.int64)
        done = 0
        while done < games:
            count = min(chunk, games - done)
            results = np.zeros((count, 3), dtype=np.int64)
            began = time.perf_counter()
            train_variant_games(
                count,
                start,
                self.variant.checkers,
                self.rules,
                w1s,
                b1s,
                w2ts,
                b2s,
                self.settings.alpha,
                self.settings.alpha_decay,
                self.games_played,
                self.state,
                results,
                self.settings.lam,
                *traces,
            )
            elapsed = time.perf_counter() - began
            self.seconds += elapsed
            all_results[done : done + count] = results
            done += count
            self.games_played += count
            if progress is not None:
                progress(done, games, count / elapsed if elapsed > 0 else 0.0)
        return all_results

    def stamped(self, strength: dict[str, Any] | None = None) -> Networks:
        """The networks with metadata describing this training (and a measured
        strength, if given)."""
        metadata = dataclasses.replace(
            self.networks.metadata,
            trained=self.games_played > 0,
            training_games=self.games_played,
            strength=strength if strength is not None else self.networks.metadata.strength,
            extra={"training": dataclasses.asdict(self.settings), "seconds": self.seconds},
        )
        return self.networks.replace(metadata=metadata)

    def save(self, folder: str | Path) -> None:
        """Write a checkpoint folder (created if needed)."""
        path = Path(folder)
        path.mkdir(parents=True, exist_ok=True)
        self.stamped().save(path / NETWORKS_FILE)
        state = {
            "settings": dataclasses.asdict(self.settings),
            "games_played": self.games_played,
            "rng_state": int(self.state[0]),
            "seconds": self.seconds,
        }
        (path / STATE_FILE).write_text(json.dumps(state, indent=2) + "\n")

    @classmethod
    def resume(cls, folder: str | Path) -> Trainer:
        """Continue from a checkpoint folder.

        Raises:
            EngineError: if the folder is not a checkpoint.
        """
        path = Path(folder)
        try:
            state = json.loads((path / STATE_FILE).read_text())
            settings = TrainingSettings(**state["settings"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise EngineError(f"{path} is not a training checkpoint: {error}") from None
        trainer = cls(settings, Networks.load(path / NETWORKS_FILE))
        trainer.games_played = int(state["games_played"])
        trainer.state = np.array([int(state["rng_state"])], dtype=np.uint64)
        trainer.seconds = float(state.get("seconds", 0.0))
        return trainer

    def log(self, folder: str | Path, row: dict[str, Any]) -> None:
        """Append a row of metrics to the folder's ``training.csv``."""
        path = Path(folder) / LOG_FILE
        new = not path.exists()
        with path.open("a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(row))
            if new:
                writer.writeheader()
            writer.writerow(row)
