"""The position tool's pure helpers (``server/web/positionview.js``), by Node's test runner.

``positionview.test.mjs`` checks hand-made boards; this test also gives it random
positions with the Position IDs and XGIDs that the Python codecs give them, so that
the IDs the page shows for a board set up by clicking are the library's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from backgammon import Position

from .node import needs_node, run_node_tests


def _random_positions(seed: int, wanted: int) -> list[dict[str, Any]]:
    """Random boards (each side up to 15 checkers, some on the bar, no shared point)."""
    rng = random.Random(seed)
    cases = []
    for _ in range(wanted):
        sides = [[0] * 26, [0] * 26]
        for _checker in range(rng.randint(0, 30)):
            side = rng.randrange(2)
            mine, theirs = sides[side], sides[1 - side]
            if sum(mine[1:]) >= 15:
                continue
            place = 25 if rng.random() < 0.05 else rng.randint(1, 24)
            if place != 25 and theirs[25 - place]:
                continue
            mine[place] += 1
        if not any(sides[0][1:]) and not any(sides[1][1:]):
            sides[0][6] = 1
        for counts in sides:
            counts[0] = 15 - sum(counts[1:])
        position = Position(sides[0], sides[1])
        cases.append(
            {
                "player": sides[0],
                "opponent": sides[1],
                "position_id": position.position_id,
                "xgid": position.xgid,
            }
        )
    return cases


@needs_node
def test_position_helpers_under_node(tmp_path: Path) -> None:
    fixture = tmp_path / "positions.json"
    fixture.write_text(json.dumps(_random_positions(7, 500)))
    run_node_tests("positionview.test.mjs", {"BG_POSITION_CASES": str(fixture)})
