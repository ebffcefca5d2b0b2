"""The corpus's two line formats, an exact parse/format pair each (pure: no I/O).

A **queue line** is a position waiting for its label::

    4HPwATDgc/ABMA C oc sp

its Position ID (the side on roll, before it rolls), its kind (:data:`KINDS`: the
engine's class, which chooses the rollout settings), its game plan (a
:class:`~backgammon.engine.plans.Plan` code) and its source (:data:`SOURCES`).

A **label line** is a queue line followed by the rollout's result for the side on
roll: the five probabilities (win, win gammon, win backgammon, lose gammon, lose
backgammon) and the cubeless equity, to four decimals, the equity's standard error and
the trials (the probabilities are means of luck-adjusted results, so they may stray
a little outside [0, 1]; a reader clips them if it needs to)::

    4HPwATDgc/ABMA C oc sp 0.5123 0.1432 0.0061 0.1302 0.0054 +0.0302 0.0087 144

A file's first line is its header: a ``#`` tag, the format's version and a JSON object
(:func:`format_header`, :func:`parse_header`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from backgammon.engine.evaluator import PositionClass
from backgammon.engine.plans import Plan
from backgammon.errors import BackgammonError

__all__ = [
    "FORMAT_VERSION",
    "KINDS",
    "SOURCES",
    "CorpusFileError",
    "Label",
    "QueuedPosition",
    "format_header",
    "format_label",
    "format_queued",
    "parse_header",
    "parse_label",
    "parse_queued",
]

FORMAT_VERSION = 1
"""The version written in every header; a reader refuses other versions."""

KINDS = {
    "B": PositionClass.BEAROFF,
    "R": PositionClass.RACE,
    "X": PositionClass.CRASHED,
    "C": PositionClass.CONTACT,
}
"""Kind codes: the engine's position class (bear-in/bear-off, race, crashed, contact).
Races and bear-offs are rolled out to the end, crashed and contact positions truncated."""

SOURCES = {
    "sp": "self-play of the engine at 0-ply, some plays chosen at random",
    "dg": "the results of the 0-ply and the 2-ply choice where they disagree",
    "gn": "games of the engine against GNU Backgammon (its positions only, never its values)",
    "fi": "a positions file",
}
"""Source codes: where a queued position came from."""

_ID = re.compile(r"[A-Za-z0-9+/]{14}")
_PLANS = {plan.value: plan for plan in Plan}


class CorpusFileError(BackgammonError, ValueError):
    """A queue or shard file that does not follow the corpus format: the message names
    the file, the line and what was expected."""


@dataclass(frozen=True, slots=True)
class QueuedPosition:
    """A position waiting in the queue.

    Attributes:
        position_id: the position, its side on roll before rolling.
        kind: a :data:`KINDS` code.
        plan: its game plan.
        source: a :data:`SOURCES` code.
    """

    position_id: str
    kind: str
    plan: Plan
    source: str


@dataclass(frozen=True, slots=True)
class Label:
    """A labelled position: the rollout of its side on roll, before it rolls.

    Attributes:
        queued: the position as it was queued.
        probabilities: win, win gammon, win backgammon, lose gammon, lose backgammon.
        equity: the cubeless money equity.
        standard_error: the equity's standard error.
        trials: games played.
    """

    queued: QueuedPosition
    probabilities: tuple[float, float, float, float, float]
    equity: float
    standard_error: float
    trials: int


def format_queued(entry: QueuedPosition) -> str:
    """The queue line of ``entry`` (no newline)."""
    return f"{entry.position_id} {entry.kind} {entry.plan.value} {entry.source}"


def _queued(fields: list[str]) -> QueuedPosition:
    position_id, kind, plan, source = fields
    if not _ID.fullmatch(position_id):
        raise ValueError(f"{position_id!r} is not a Position ID (14 base64 characters)")
    if kind not in KINDS:
        raise ValueError(f"{kind!r} is not a kind (one of {' '.join(KINDS)})")
    if plan not in _PLANS:
        raise ValueError(f"{plan!r} is not a plan (one of {' '.join(_PLANS)})")
    if source not in SOURCES:
        raise ValueError(f"{source!r} is not a source (one of {' '.join(SOURCES)})")
    return QueuedPosition(position_id, kind, _PLANS[plan], source)


def parse_queued(line: str) -> QueuedPosition:
    """The inverse of :func:`format_queued`.

    Raises:
        ValueError: saying what was expected.
    """
    fields = line.split()
    if len(fields) != 4:
        raise ValueError(f"expected 4 fields (id kind plan source), got {len(fields)}")
    return _queued(fields)


def format_label(label: Label) -> str:
    """The label line of ``label`` (no newline; values rounded to four decimals)."""
    numbers = " ".join(f"{p:.4f}" for p in label.probabilities)
    return (
        f"{format_queued(label.queued)} {numbers} {label.equity:+.4f} "
        f"{label.standard_error:.4f} {label.trials}"
    )


def parse_label(line: str) -> Label:
    """The inverse of :func:`format_label`.

    Raises:
        ValueError: saying what was expected.
    """
    fields = line.split()
    if len(fields) != 12:
        raise ValueError(
            "expected 12 fields (id kind plan source, 5 probabilities, equity, "
            f"standard error, trials), got {len(fields)}"
        )
    queued = _queued(fields[:4])
    try:
        numbers = [float(field) for field in fields[4:11]]
        trials = int(fields[11])
    except ValueError:
        raise ValueError(
            f"expected numbers after the source, got {' '.join(fields[4:])!r}"
        ) from None
    if not all(-1.0 <= p <= 2.0 for p in numbers[:5]) or trials < 1 or numbers[6] < 0:
        raise ValueError("probabilities in [-1, 2], a standard error >= 0 and trials >= 1")
    w, wg, wbg, lg, lbg = numbers[:5]
    return Label(queued, (w, wg, wbg, lg, lbg), numbers[5], numbers[6], trials)


def format_header(tag: str, fields: dict[str, Any]) -> str:
    """A file's header line: ``#TAG VERSION {json}`` (no newline)."""
    return f"#{tag} {FORMAT_VERSION} {json.dumps(fields, sort_keys=True)}"


def parse_header(line: str, tag: str) -> dict[str, Any]:
    """The JSON fields of a header line of ``tag`` (the inverse of
    :func:`format_header`).

    Raises:
        ValueError: if the line is not such a header of this version.
    """
    parts = line.split(" ", 2)
    if len(parts) != 3 or parts[0] != f"#{tag}":
        raise ValueError(f"expected the header '#{tag} {FORMAT_VERSION} {{...}}'")
    if parts[1] != str(FORMAT_VERSION):
        raise ValueError(f"format version {parts[1]!r}; this reader knows {FORMAT_VERSION}")
    try:
        fields = json.loads(parts[2])
    except ValueError:
        raise ValueError("the header's fields are not JSON") from None
    if not isinstance(fields, dict):
        raise ValueError("the header's fields are not a JSON object")
    return fields
