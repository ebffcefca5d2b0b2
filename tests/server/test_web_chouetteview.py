"""The chouette page's words and board (``server/web/chouetteview.js``), by Node's
test runner, on the server's own session views: a scripted session (the opening
throw, a play, doubles taken and dropped, a game's end) and the states of random
sessions played by the rules, in which every decision must be said to whoever must
make it, every legal cube action be a button for its player alone, and every legal
play of the mover be enterable checker by checker on the board."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from backgammon.rules.chouette import Chouette, ChouetteRules, CubeDouble, CubeDrop, CubeTake
from backgammon.rules.dice import ScriptedDice
from backgammon.server.chouettes.codec import session_view
from tests.rules.chouette.sessions import random_step

from .node import needs_node, run_node_tests


def _scripted() -> dict[str, Any]:
    """Named states of a session of ann (the box), bob (the captain) and cyd."""
    table = Chouette(["ann", "bob", "cyd"])
    states = {"start": session_view(table)}
    table.roll_dice("ann", ScriptedDice(["3-1"]))
    states["opening"] = session_view(table)
    table.play("ann", "8/5 6/5")
    states["played"] = session_view(table)
    table.push(CubeDouble("bob", "bob"))
    states["doubled"] = session_view(table)
    table.push(CubeTake("ann", "bob"))
    states["taken"] = session_view(table)
    table.push(CubeDouble("cyd", "cyd"))
    table.push(CubeDrop("ann", "cyd"))
    states["dropped"] = session_view(table)
    table.roll_dice("bob", ScriptedDice(["6-4"]))
    table.play("bob", "24/14")
    table.push(CubeDouble("ann", "bob"))
    table.push(CubeDrop("bob", "bob"))  # every member is out: the game ends
    states["ended"] = session_view(table)
    table.roll_dice("cyd", ScriptedDice(["5-2"]))
    states["next opening"] = session_view(table)
    return states


def _random_states(count: int, seed: int) -> list[dict[str, Any]]:
    """Session views of random sessions (3 to 5 players, either cube form)."""
    choice = random.Random(seed)
    states: list[dict[str, Any]] = []
    while len(states) < count:
        players = ["ann", "bob", "cyd", "dan", "eve"][: choice.randint(3, 5)]
        rules = ChouetteRules(team_cube=choice.random() < 0.3, max_cube=choice.choice([None, 4]))
        table = Chouette(players, rules)
        for _ in range(choice.randint(20, 300)):
            random_step(table, choice)
            if choice.random() < 0.1:
                states.append(session_view(table))
    return states


@needs_node
def test_chouette_view_under_node(tmp_path: Path) -> None:
    fixture = tmp_path / "chouette.json"
    states = {"scripted": _scripted(), "random": _random_states(300, 7)}
    fixture.write_text(json.dumps(states))
    run_node_tests("chouetteview.test.mjs", {"CHOUETTE_STATES": str(fixture)})
