"""The web client's view logic (``server/web/``: ``boardrules.js``, ``boardmodel.js``,
``planner.js``, ``matchview.js``, ``matchwords.js``), by Node's test runner.

``view.test.mjs`` checks hand-made states; this test also gives it states of random
games of every variant played by the rules (:class:`LiveMatch`, as the server sends
them), so that every legal play the server lists is checked to be enterable checker by
checker in the page, and every variant's starting state with where the rules put each
side's checkers on the drawn board. The page's table of the variants' boards
(``VARIANT_BOARDS``) is checked against the registry.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from backgammon import variants
from backgammon.server.matches.live import LiveMatch
from backgammon.server.protocol import ActionBody, MatchSettings

from .node import NODE, WEB, needs_node, run_node_tests


def _states_to_move(variant: str, seed: int, wanted: int) -> list[dict[str, Any]]:
    """States in which a player has dice to play, from random games of ``variant``."""
    rng = random.Random(seed)
    states: list[dict[str, Any]] = []
    now = 0.0
    while len(states) < wanted:
        settings = MatchSettings(variant=variant, length=3, clock=None)
        live = LiveMatch(f"m{seed}", settings, ("alice", "bob"), rng.randbytes(32))
        live.start(now)
        while live.result is None and len(states) < wanted:
            now += 1.0
            state = live.state(now)
            game = state["game"]
            seat = state["waiting_for"]
            pending = game["pending"]
            if pending is not None and pending["kind"] == "choose-double":
                action = ActionBody(kind="choose_double", number=rng.randint(1, 6))
            elif pending is not None:
                action = ActionBody(kind="take" if pending["kind"] == "double" else "accept")
            elif game["dice"] is None:
                double = game["can_double"] and rng.random() < 0.1
                action = ActionBody(kind="double" if double else "roll")
            else:
                states.append(state)
                action = ActionBody(kind="play", move=rng.choice(game["legal_plays"]))
            live.act(seat, action, now)
        seed += 1
    return states


def _starts() -> list[dict[str, Any]]:
    """Every variant's starting state, with where its rules put each side's checkers
    on the board drawn for seat 0: ``bottom`` (seat 0's, by its own points: 25 the bar)
    and ``top`` (seat 1's, by seat 0's point it stands on, through
    ``Variant.opponent_point``), each {place: count}."""
    starts = []
    for variant in variants.all_variants():
        settings = MatchSettings(variant=variant.name, length=3, clock=None)
        live = LiveMatch("m1", settings, ("alice", "bob"), bytes(32))
        live.start(0.0)
        bottom: dict[int, int] = {}
        top: dict[int, int] = {}
        for point, count in variant.start:
            bottom[point] = bottom.get(point, 0) + count
            place = 25 if point == 25 else variant.opponent_point(point)
            top[place] = top.get(place, 0) + count
        starts.append({"state": live.state(1.0), "bottom": bottom, "top": top})
    return starts


@needs_node
def test_view_logic_under_node(tmp_path: Path) -> None:
    states = [
        *_states_to_move("standard", 1, 300),
        *_states_to_move("nackgammon", 2, 60),
        *_states_to_move("hypergammon", 3, 60),
    ]
    for number, variant in enumerate(variants.names()):
        if variant not in ("standard", "nackgammon", "hypergammon"):
            states += _states_to_move(variant, 10 + number, 40)
    fixture = tmp_path / "states.json"
    fixture.write_text(json.dumps(states))
    starts = tmp_path / "starts.json"
    starts.write_text(json.dumps(_starts()))
    run_node_tests("view.test.mjs", {"BG_VIEW_STATES": str(fixture), "BG_VIEW_STARTS": str(starts)})


@needs_node
def test_the_pages_variant_boards_match_the_registry() -> None:
    """boardrules.js's VARIANT_BOARDS says of each variant what the rules say: where the
    opponent's points lie, what landing on a lone opposing checker does, whether the
    bar enters first, whether there is a cube."""
    assert NODE is not None
    script = (
        "const V = await import(process.argv[1]);"
        "const names = JSON.parse(process.argv[2]);"
        "console.log(JSON.stringify(Object.fromEntries(names.map((n) => [n, V.variantBoard(n)]))));"
    )
    names = [variant.name for variant in variants.all_variants()]
    module = (WEB / "boardrules.js").as_uri()
    finished = subprocess.run(
        [NODE, "--input-type=module", "-e", script, module, json.dumps(names)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    boards = json.loads(finished.stdout)
    for name in names:
        variant = variants.find(name)
        contact = "block" if variant.blocking else "pin" if variant.pinning else "hit"
        expected = {
            "topology": variant.topology,
            "contact": contact,
            "enterFirst": not variant.enter_anytime,
            "cube": variant.cube,
        }
        assert boards[name] == expected, name
