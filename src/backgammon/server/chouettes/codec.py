"""A chouette session's actions as stored JSON, and its state as clients see it.

Pure functions over :class:`~backgammon.rules.chouette.Chouette` (no I/O): the
service stores each accepted action with :func:`action_to_json`, rebuilds a session
by replaying :func:`action_from_json`, and sends :func:`session_view` to a table's
room after every commit.
"""

from __future__ import annotations

from typing import Any

from backgammon.rules.chouette import (
    BoardAction,
    Chouette,
    ChouetteAction,
    CubeDouble,
    CubeDrop,
    CubeTake,
    GameResult,
)
from backgammon.rules.cube import CubeState
from backgammon.rules.dice import Roll
from backgammon.rules.game import OpeningRoll
from backgammon.rules.play import Play, parse_play

__all__ = ["action_from_json", "action_to_json", "session_view"]

_CUBE_KINDS: dict[str, type[CubeDouble | CubeTake | CubeDrop]] = {
    "double": CubeDouble,
    "take": CubeTake,
    "drop": CubeDrop,
}

RESULTS_SHOWN = 5
"""How many of the latest finished games the state carries."""


def action_to_json(action: ChouetteAction) -> dict[str, Any]:
    """One action as the JSON stored in the table's log."""
    if isinstance(action, BoardAction):
        move = action.action
        if isinstance(move, OpeningRoll):
            return {"player": action.player, "kind": "opening", "dice": [move.die0, move.die1]}
        if isinstance(move, Roll):
            return {"player": action.player, "kind": "roll", "dice": [move.first, move.second]}
        return {"player": action.player, "kind": "play", "move": move.notation()}
    kind = {CubeDouble: "double", CubeTake: "take", CubeDrop: "drop"}[type(action)]
    return {"player": action.player, "kind": kind, "member": action.member}


def action_from_json(chouette: Chouette, data: dict[str, Any]) -> ChouetteAction:
    """The action ``data`` (as :func:`action_to_json` wrote it) in ``chouette``'s
    current state (a play is parsed against its board and dice).

    Raises:
        ValueError: for data that is not a stored action (the notation errors are
            ValueErrors too).
    """
    player, kind = str(data["player"]), data["kind"]
    if kind in _CUBE_KINDS:
        return _CUBE_KINDS[kind](player, data["member"])
    if kind == "opening":
        first, second = data["dice"]
        return BoardAction(player, OpeningRoll(int(first), int(second)))
    if kind == "roll":
        first, second = data["dice"]
        return BoardAction(player, Roll(int(first), int(second)))
    if kind == "play":
        dice = chouette.dice
        if dice is None:
            raise ValueError("a stored play with no dice rolled")
        play: Play = parse_play(str(data["move"]), chouette.position, dice)
        return BoardAction(player, play)
    raise ValueError(f"not a stored chouette action: {kind!r}")


def _owner(cube: CubeState) -> str:
    if cube.owner is None:
        return "centre"
    return "box" if cube.owner == 0 else "member"


def _result_view(result: GameResult) -> dict[str, Any]:
    """A finished game: its lineup, each cube's end (whose, its value, the winner,
    single/gammon/backgammon, whether by a drop) and each player's points."""
    return {
        "number": result.number,
        "box": result.box,
        "captain": result.lineup[1],
        "captain_won": result.captain_won,
        "points": result.points(),
        "cubes": [
            {
                "member": cube.member,
                "value": cube.cube.value,
                "winner": cube.winner,
                "kind": cube.kind.name.lower(),
                "dropped": cube.dropped,
                "points": cube.points,
            }
            for cube in result.cubes
        ],
    }


def _plays_view(chouette: Chouette) -> dict[str, Any]:
    """The mover's plays of the dice as the board's planner takes them: each play's
    notation and its single steps as (from, to) pairs in the mover's numbering (25
    the bar, 0 off), and how many dice a play uses; empty without dice. Where no
    checker can move, the one play is the empty one (``Ø``, no steps)."""
    if chouette.dice is None:
        return {"legal_plays": [], "legal_steps": [], "to_move": 0}
    plays = list(chouette.legal_plays()) or [Play.no_move(chouette.position)]
    return {
        "legal_plays": [play.notation() for play in plays],
        "legal_steps": [[[step.source, step.destination] for step in play.steps] for play in plays],
        "to_move": max((play.dice_used for play in plays), default=0),
    }


def _last_view(chouette: Chouette) -> dict[str, Any] | None:
    """The last action (as stored), and whether it ended a game (the game's
    number), so that a page can say what just happened."""
    history = chouette.history
    if not history:
        return None
    last = action_to_json(history[-1])
    results = chouette.results
    ended = results and _ended_by_last(chouette)
    last["ended"] = results[-1].number if ended else None
    return last


def _ended_by_last(chouette: Chouette) -> bool:
    """Whether the last action finished a game: nothing of the new game is played."""
    fresh = chouette.on_roll is None and not chouette.pending and not chouette.settled
    if not fresh:
        return False
    last = chouette.history[-1]
    return not (isinstance(last, BoardAction) and isinstance(last.action, OpeningRoll))


def _legal_view(chouette: Chouette) -> list[dict[str, Any]]:
    """Every open decision: the cube actions by player, or the plays of the dice."""
    legal = []
    for action in chouette.legal_actions():
        if isinstance(action, BoardAction):
            move = action.action
            assert isinstance(move, Play)
            legal.append({"player": action.player, "kind": "play", "move": move.notation()})
        else:
            legal.append(action_to_json(action))
    return legal


def session_view(chouette: Chouette) -> dict[str, Any]:
    """The session as every client sees it: the lineup (box, captain, the rotation
    queue), the board seen from the box (each side's checkers in its own
    numbering) with both pip counts, the dice, every member's cube (value, owner,
    whether they are still in), the doubles waiting, who may act and what, the
    mover's plays with their steps, the last action (and the game it ended), the
    scores and the latest results."""
    on_roll = chouette.on_roll
    position = chouette.position
    box_view = position if on_roll in (None, chouette.box) else position.flip()
    dice = chouette.dice
    cubes = chouette.cubes
    members_in = chouette.members_in
    return {
        "game": len(chouette.results) + 1,
        "lineup": list(chouette.lineup),
        "box": chouette.box,
        "captain": chouette.captain,
        "holder": chouette.holder,
        "queue": list(chouette.team[1:]),
        "on_roll": on_roll,
        "roller": chouette.roller(),
        "dice": None if dice is None else [dice.first, dice.second],
        "board": {"player": list(box_view.player), "opponent": list(box_view.opponent)},
        "pips": list(box_view.pip_counts()),
        "team_cube": chouette.rules.team_cube,
        "cubes": [
            {
                "member": member,
                "value": cube.value,
                "owner": _owner(cube),
                "in": member in members_in,
            }
            for member, cube in cubes.items()
        ],
        "pending": [
            {"doubler": offer.doubler, "member": offer.member} for offer in chouette.pending
        ],
        "deciders": list(chouette.deciders()),
        "legal": _legal_view(chouette),
        **_plays_view(chouette),
        "last": _last_view(chouette),
        "scores": chouette.scores,
        "money": {name: str(chouette.money(name)) for name in chouette.players},
        "results": [_result_view(result) for result in chouette.results[-RESULTS_SHOWN:]],
        "games_played": len(chouette.results),
    }
