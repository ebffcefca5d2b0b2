"""Access to GNU Backgammon's reference records in ``../shared/reference``."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from backgammon import Position

SHARED = Path(
    os.environ.get("BACKGAMMON_SHARED", Path(__file__).resolve().parents[1].parent / "shared")
)
"""The shared folder beside the repository (``../shared``); ``$BACKGAMMON_SHARED``
overrides it."""
REFERENCE = SHARED / "reference"


@cache
def move_records() -> tuple[dict[str, Any], ...]:
    """Every record of ``moves_public.jsonl`` (the ``_meta`` header skipped)."""
    with open(REFERENCE / "moves_public.jsonl", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    return tuple(record for record in records if "_meta" not in record)


def side_slots(side: dict[str, Any]) -> list[int]:
    """One side of an explicit reference position as our 26 slots."""
    return [side["off"], *side["points"], side["bar"]]


def position_of(explicit: dict[str, Any], mover: str = "on_roll") -> Position:
    """Our position from the reference's explicit form."""
    return Position(side_slots(explicit[mover]), side_slots(explicit["opponent"]))
