"""Access to GNU Backgammon's reference records, kept in the repository in
``tests/data/reference`` (its README says what they are): the two large JSON-lines files
xz-compressed, the match and position exports in ``formats/`` as GNU Backgammon wrote them."""

from __future__ import annotations

import json
import lzma
import re
from functools import cache
from pathlib import Path
from typing import Any

from backgammon import Position

REFERENCE = Path(__file__).resolve().parent / "data" / "reference"
"""The repository's copy of GNU Backgammon 1.07's reference records."""
FORMATS = REFERENCE / "formats"
"""Its match files (``.mat``, ``.sgf``), text exports and ``positions.json``."""


def _json_lines(name: str) -> tuple[dict[str, Any], ...]:
    """Every record of the compressed ``name`` (``name.xz``), the ``_meta`` header skipped."""
    with lzma.open(REFERENCE / f"{name}.xz", "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    return tuple(record for record in records if "_meta" not in record)


@cache
def move_records() -> tuple[dict[str, Any], ...]:
    """Every record of ``moves_public.jsonl``: a position, the dice and every legal play."""
    return _json_lines("moves_public.jsonl")


@cache
def eval_records() -> tuple[dict[str, Any], ...]:
    """Every record of ``evals_public.jsonl``: a position with GNU Backgammon's evaluations."""
    return _json_lines("evals_public.jsonl")


@cache
def format_positions() -> tuple[dict[str, Any], ...]:
    """The eight positions of ``formats/positions.json`` with their IDs and FIBS board."""
    return tuple(json.loads((FORMATS / "positions.json").read_text())["positions"])


def text_match_ids() -> list[str]:
    """Every Match ID printed in the text exports (``formats/*.txt``), sorted."""
    found: set[str] = set()
    for path in sorted(FORMATS.glob("*.txt")):
        found.update(re.findall(r"Match ID\s*:\s*(\S+)", path.read_text()))
    return sorted(found)


def side_slots(side: dict[str, Any]) -> list[int]:
    """One side of an explicit reference position as our 26 slots."""
    return [side["off"], *side["points"], side["bar"]]


def position_of(explicit: dict[str, Any], mover: str = "on_roll") -> Position:
    """Our position from the reference's explicit form."""
    return Position(side_slots(explicit[mover]), side_slots(explicit["opponent"]))
