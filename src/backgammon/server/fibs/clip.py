"""CLIP's lines as pure functions of the service's data: the ``board:`` line, move
announcements in the reader's own numbering, who-info and own-info lines.

Every player sees the board from its own side: its checkers move from 24 to 1
(direction -1, its bar at index 25), as our notation numbers them; moves are typed
and announced in the reader's own numbering (an opponent's 13-7 reads 12-18).
"""

from __future__ import annotations

import re
from typing import Any

from backgammon.notation.fibs_board import (
    FibsBoardFields,
    encode_fibs_board,
    sides_to_fibs_board,
)
from backgammon.rules.play import parse_play
from backgammon.rules.position import Position
from backgammon.variants import find

__all__ = [
    "MONEY_LENGTH",
    "ORDINALS",
    "TOGGLE_TEXTS",
    "board_fields",
    "board_line",
    "game_after",
    "line_safe",
    "move_error",
    "moves_text",
    "own_info_line",
    "who_info_line",
]

_UNSAFE_IN_A_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""What may never reach a FIBS client inside a line: controls (CR and LF above all)
and Unicode's line and paragraph separators."""

MONEY_LENGTH = 9999
"""FIBS's match length for an unlimited match (our money sessions)."""

TOGGLE_TEXTS: dict[str, tuple[str, str]] = {
    "allowpip": (
        "You allow the use the server's 'pip' command.",
        "You don't allow the use of the server's 'pip' command.",
    ),
    "autoboard": (
        "The board will be refreshed after every move.",
        "The board won't be refreshed after every move.",
    ),
    "autodouble": (
        "You agree that doublets during opening double the cube.",
        "You don't agree that doublets during opening double the cube.",
    ),
    "automove": (
        "Forced moves will be done automatically.",
        "Forced moves won't be done automatically.",
    ),
    "bell": (
        "Your terminal will ring the bell if someone talks to you or invites you",
        "Your terminal won't ring the bell if someone talks to you or invites you",
    ),
    "crawford": (
        "You insist on playing with the Crawford rule.",
        "You would like to play without using the Crawford rule.",
    ),
    "double": (
        "You will be asked if you want to double.",
        "You won't be asked if you want to double.",
    ),
    "greedy": ("Will use automatic greedy bearoffs.", "Won't use automatic greedy bearoffs."),
    "moreboards": ("Will send rawboards after rolling.", "Won't send rawboards after rolling."),
    "moves": (
        "You want a list of moves after this game.",
        "You won't see a list of moves after this game.",
    ),
    "notify": (
        "You'll be notified when new users log in.",
        "You won't be notified when new users log in.",
    ),
    "ratings": (
        "You'll see how the rating changes are calculated.",
        "You won't see how the rating changes are calculated.",
    ),
    "ready": (
        "You're now ready to invite or join someone.",
        "You're now refusing to play with someone.",
    ),
    "report": (
        "You will be informed about starting and ending matches.",
        "You won't be informed about starting and ending matches.",
    ),
    "silent": (
        "You won't hear what other players shout.",
        "You will hear what other players shout.",
    ),
    "telnet": (
        "You use telnet and don't need extra 'newlines'.",
        "You use a client program and will receive extra 'newlines'.",
    ),
    "wrap": ("Your terminal knows how to wrap long lines.", "The server will wrap long lines."),
}
"""FIBS's ``**`` line for each toggle switched on and off (the texts FIBS clients
match, see docs/fibs.md)."""

ORDINALS = ("first", "second", "third", "fourth")
"""The words FIBS numbers the steps of a move with in its error lines."""


def _sides(board: dict[str, Any], seat: int) -> tuple[list[int], list[int]]:
    mine = board["player0" if seat == 0 else "player1"]
    theirs = board["player1" if seat == 0 else "player0"]
    return list(mine), list(theirs)


def board_line(state: dict[str, Any], seat: int, viewer: str = "You") -> str:
    """The ``board:`` line of a match state (:meth:`LiveMatch.state`) for ``seat``
    (a watcher gets the line of the seat it watches, with that player's name)."""
    return encode_fibs_board(board_fields(state, seat, viewer))


def board_fields(state: dict[str, Any], seat: int, viewer: str = "You") -> FibsBoardFields:
    """The fields of :func:`board_line` (what the boards drawn for people show too)."""
    game = state["game"]
    other = 1 - seat
    names = state["players"]
    mine, theirs = _sides(game["board"], seat)
    colour = 1
    turn_seat = game["turn"]
    turn = 0 if game["over"] or turn_seat is None else (colour if turn_seat == seat else -colour)
    dice = tuple(game["dice"]) if game["dice"] else (0, 0)
    cube = game["cube"]
    pending = game["pending"]
    settings = state["settings"]
    can_double_cube = settings["cube"] and not game["crawford"] and not game["over"]

    length = settings["length"] or MONEY_LENGTH
    score = game["score"]

    def may_double(who: int) -> bool:
        # A cube that already covers what the player needs is dead for them.
        dead = bool(settings["length"]) and cube["value"] >= settings["length"] - score[who]
        return bool(can_double_cube and cube["owner"] in (None, who) and not dead)

    return FibsBoardFields(
        player_name=viewer,
        opponent_name=names[other],
        match_length=length,
        player_score=score[seat],
        opponent_score=score[other],
        board=sides_to_fibs_board(mine[1:26], theirs[1:26], colour, -1),
        turn=turn,
        player_dice=(dice[0], dice[1]) if turn_seat == seat else (0, 0),
        opponent_dice=(dice[0], dice[1]) if turn_seat == other else (0, 0),
        cube=cube["value"],
        player_may_double=may_double(seat),
        opponent_may_double=may_double(other),
        was_doubled=1 if pending and pending["kind"] == "double" and pending["by"] == other else 0,
        colour=colour,
        direction=-1,
        home=0,
        bar=25,
        player_off=mine[0],
        opponent_off=theirs[0],
        player_on_bar=mine[25],
        opponent_on_bar=theirs[25],
        can_move=game.get("to_move", 0) if turn_seat == seat else 0,
        forced_move=0,
        did_crawford=1 if game["crawford"] else 0,
        redoubles=0,
    )


def _point(point: int, flip: bool) -> str:
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(25 - point if flip else point)


def moves_text(steps: list[list[int]], flip: bool) -> str:
    """FIBS's text of a play's steps (``"13-7 8-7"``), flipped into the other
    side's numbering when ``flip``."""
    return " ".join(f"{_point(source, flip)}-{_point(dest, flip)}" for source, dest in steps)


def line_safe(text: str) -> str:
    """``text`` with every control character and line separator replaced by ``?``:
    no text can start a line of its own."""
    return _UNSAFE_IN_A_LINE.sub("?", text)


def who_info_line(
    name: str,
    *,
    opponent: str = "-",
    watching: str = "-",
    ready: bool = False,
    away: bool = False,
    rating: float = 1500.0,
    experience: int = 0,
    idle: int = 0,
    login: int = 0,
    hostname: str = "-",
    client: str = "-",
) -> str:
    """A CLIP ``5`` line (who info)."""
    return (
        f"5 {name} {opponent} {watching} {int(ready)} {int(away)} {rating:.2f} "
        f"{experience} {idle} {login} {hostname} {client} -"
    )


def own_info_line(
    name: str, toggles: dict[str, bool], rating: float, experience: int, timezone: str = "UTC"
) -> str:
    """A CLIP ``2`` line (own info): name, the toggles in the spec's order, rating,
    experience, and the ``timezone`` the user ``set``."""

    def flag(key: str) -> int:
        return int(toggles.get(key, False))

    return (
        f"2 {name} {flag('allowpip')} {flag('autoboard')} {flag('autodouble')} "
        f"{flag('automove')} {flag('away')} {flag('bell')} {flag('crawford')} "
        f"{flag('double')} {experience} {flag('greedy')} {flag('moreboards')} "
        f"{flag('moves')} {flag('notify')} {rating:.2f} {flag('ratings')} {flag('ready')} "
        f"0 {flag('report')} {flag('silent')} {timezone}"
    )


def _moves_of(position: Position, dice: tuple[int, int], variant: str) -> int:
    """How many checkers ``dice`` let the side on roll move (CLIP's can-move)."""
    plays = position.legal_plays(dice, find(variant))
    return max((play.dice_used for play in plays), default=0)


def _to_move(
    board: dict[str, Any],
    mover: int,
    dice: tuple[int, int],
    final: dict[str, Any],
    variant: str,
) -> int:
    """CLIP's can-move after a roll: the state's own figure where the roll left the
    game as the state shows it (no search of the plays again), else counted."""
    if (
        final.get("turn") == mover
        and final.get("dice") == list(dice)
        and final.get("pending") is None
        and final["board"]["player0"] == board["player0"]
        and final["board"]["player1"] == board["player1"]
    ):
        return int(final.get("to_move") or 0)
    sides = (board["player0"], board["player1"])
    return _moves_of(Position.from_slots(sides[mover], sides[1 - mover]), dice, variant)


def _after_play(
    board: dict[str, Any], mover: int, dice: list[int], entry: dict[str, Any], variant: str
) -> Position:
    """The mover's position after a play entry: the one it records, else parsed."""
    if entry.get("result"):
        return Position.from_slots_text(entry["result"])
    sides = (board["player0"], board["player1"])
    before = Position.from_slots(sides[mover], sides[1 - mover])
    return parse_play(entry["move"], before, (dice[0], dice[1]), find(variant)).position


def _game_copy(game: dict[str, Any]) -> dict[str, Any]:
    """A copy of a state's game that :func:`game_after` may change (it replaces
    values, never changes them in place, below the board): far cheaper than a deep
    copy, made for every player told of every action."""
    view = dict(game)
    board = view.get("board")
    if isinstance(board, dict):
        view["board"] = {
            key: list(value) if isinstance(value, list) else value for key, value in board.items()
        }
    return view


def _opening_view(entry: dict[str, Any], final: dict[str, Any], variant: str) -> dict[str, Any]:
    """The game just after its opening roll, when later entries are told with it (a
    session catching up): the starting position, the opening dice as the starter
    plays them (its own die first), the cube in the middle."""
    rules = find(variant)
    start = Position.initial(rules)
    view = _game_copy(final)
    view["board"] = {
        "slots": start.slots_text,
        "player0": list(start.player),
        "player1": list(start.opponent),
        "pips": list(start.pip_counts()),
    }
    die0, die1 = entry["dice"][0], entry["dice"][1]
    starter = None if die0 == die1 else (0 if die0 > die1 else 1)
    dice = None
    if starter is not None and not rules.opening_reroll:
        dice = [die0, die1] if starter == 0 else [die1, die0]
    view.update(
        turn=starter,
        dice=dice,
        cube={"value": 1, "owner": None},
        pending=None,
        over=False,
        outcome=None,
        to_move=0,
    )
    if dice is not None and starter is not None:
        view["to_move"] = _to_move(view["board"], starter, (dice[0], dice[1]), final, variant)
    return view


def game_after(
    game: dict[str, Any] | None,
    entry: dict[str, Any],
    final: dict[str, Any],
    variant: str,
    last: bool = True,
) -> dict[str, Any] | None:
    """The game part of a match state (as :meth:`LiveMatch.state` gives it) after one
    log entry, from the one before it: what FIBS shows on the ``board:`` line it sends
    after that entry. ``final`` is the game after the last entry of the same
    message; ``last``: whether ``entry`` is that last one. None where the board is
    not known (between games)."""
    kind = entry["kind"]
    if kind == "new_game":
        return None
    if kind == "opening":
        return _game_copy(final) if last else _opening_view(entry, final, variant)
    if game is None:
        return None
    view = _game_copy(game)
    board = view["board"]
    mover: int = entry["by"] if entry.get("by") is not None else entry.get("player", 0)
    if kind == "roll":
        dice = (entry["dice"][0], entry["dice"][1])
        view.update(
            turn=mover, dice=list(dice), to_move=_to_move(board, mover, dice, final, variant)
        )
    elif kind == "play":
        if entry.get("steps") and view["dice"]:
            after = _after_play(board, mover, view["dice"], entry, variant)
            mine, theirs = list(after.player), list(after.opponent)
            board["player0"], board["player1"] = (mine, theirs) if mover == 0 else (theirs, mine)
        view.update(turn=1 - mover, dice=None, to_move=0)
    elif kind == "double":
        view["pending"] = {"kind": "double", "by": entry["by"], "level": 1}
    elif kind == "take":
        cube = view["cube"]
        view["cube"] = {"value": cube["value"] * 2, "owner": entry["by"]}
        view["pending"] = None
    elif kind == "resign":
        view["pending"] = {"kind": "resign", "by": entry["by"], "level": entry["level"]}
    elif kind == "reject":
        view["pending"] = None
    if entry.get("game_over") is not None:
        view["over"] = True
    return view


def move_error(position: Position, dice: tuple[int, int], typed: list[tuple[int, int]]) -> str:
    """FIBS's words for a refused move (``typed``: the steps as (from, to) in the
    mover's numbering, 25 the bar and 0 off), from FIBS's checks in its order: the
    number of steps, then each step in turn (the bar first, the point moved from,
    the distance against the dice left, bearing off, the point moved to)."""
    plays = position.legal_plays(dice)
    needed = max((play.dice_used for play in plays), default=0)
    if len(typed) < needed:
        return f"You must give {needed} moves."
    if len(typed) > needed:
        return f"Please don't give more than {needed} moves."
    mine, theirs = list(position.player), list(position.opponent)
    left = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    for number, (source, destination) in enumerate(typed):
        problem = _step_error(mine, theirs, left, source, destination)
        if problem is not None:
            return f"{problem} in your {ORDINALS[number]} move."
    first = typed[0] if typed else (0, 0)
    return f"You can't move {_point(first[0], False)}-{_point(first[1], False)} in your first move."


def _step_error(
    mine: list[int], theirs: list[int], left: list[int], source: int, destination: int
) -> str | None:
    """What is wrong with one step (FIBS's words, less "in your first move"), or None after
    playing it on ``mine``/``theirs`` and using its die from ``left``."""
    if mine[25] and source != 25:
        return "You have to remove pieces from the bar"
    if not 1 <= source <= 25 or not mine[source]:
        return f"You can't move from {source}"
    if destination == 0:
        higher = any(mine[point] for point in range(7, 26))
        fits = [
            die
            for die in left
            if die == source
            or (die > source and not any(mine[point] for point in range(source + 1, 7)))
        ]
        if higher or not fits:
            return "You can't remove this piece"
        die = min(fits)
    else:
        distance = source - destination
        if distance <= 0:
            return f"You can't move {source}-home" if distance < 0 else "You can't move home"
        if distance not in left:
            return f"You can't move {distance} points"
        if theirs[25 - destination] >= 2:
            return f"You can't move to {destination}"
        die = distance
        if theirs[25 - destination] == 1:
            theirs[25 - destination] = 0
            theirs[25] += 1
    left.remove(die)
    mine[source] -= 1
    mine[destination] += 1
    return None
