"""The boards FIBS draws for people (``set boardstyle 1`` and ``2``), as pure functions
of a ``board:`` line's fields.

Both are FIBS's 14-line picture: the reader's side (O, moving from 24 to 1) at the
bottom, its points 12 to 1 below and 13 to 24 above, the bar in the middle, a ``v``
beside the middle row for the direction of play, up to five checkers a point (the
count in place of the outermost one beyond five), the names and scores beside the
frame, then ``BAR``, ``OFF``, the cube and the dice or whose turn it is. Style 1
numbers the points in the frame's edges (``+13-14-15-...``), style 2 on lines of
their own above and below a plain frame (two lines more).
"""

from __future__ import annotations

from backgammon.notation.fibs_board import FibsBoardFields

__all__ = ["drawn_board"]

_TOP = (13, 14, 15, 16, 17, 18, 0, 19, 20, 21, 22, 23, 24)
_BOTTOM = (12, 11, 10, 9, 8, 7, 25, 6, 5, 4, 3, 2, 1)
"""The board fields shown left to right in each half (0 and 25: X's and O's bars)."""

_EDGES = {
    1: (
        "   +13-14-15-16-17-18-------19-20-21-22-23-24-+",
        "   +12-11-10--9--8--7--------6--5--4--3--2--1-+",
    ),
    2: ("   +------------------------------------------+",) * 2,
}
_NUMBERS = (
    "    13 14 15 16 17 18       19 20 21 22 23 24",
    "    12 11 10  9  8  7        6  5  4  3  2  1",
)


def _cell(count: int, row: int) -> str:
    """A point's two characters in row ``row`` (1: the edge's row) for ``count``
    checkers (positive O, negative X)."""
    mark = "O" if count > 0 else "X"
    size = abs(count)
    if row == 1 and size > 5:
        return f"{size:2}"
    return f" {mark}" if size >= row else "  "


def _row(board: tuple[int, ...], points: tuple[int, ...], row: int) -> str:
    """One row of a half: ``|`` six points ``|`` the bar ``|`` six points ``|``."""
    cells = [_cell(board[point], row) + " " for point in points]
    return "   |" + "".join(cells[:6]) + "|" + cells[6] + "| " + "".join(cells[7:]) + "|"


def _status(fields: FibsBoardFields, names: tuple[str, str], owner: str | None) -> str:
    """The line under the board: bars, borne off, the cube, the dice (the reader's
    as ``You rolled`` while playing) or whose turn it is."""
    me, other = names
    cube = f"{fields.cube} (owned by {owner})" if owner else str(fields.cube)
    text = (
        f"   BAR: O-{fields.player_on_bar} X-{fields.opponent_on_bar}   "
        f"OFF: O-{fields.player_off} X-{fields.opponent_off}   Cube: {cube}"
    )
    if fields.player_dice != (0, 0):
        roller = "You" if fields.player_name == "You" else me
        return f"{text}  {roller} rolled {fields.player_dice[0]} {fields.player_dice[1]}."
    if fields.opponent_dice != (0, 0):
        return f"{text}  {other} rolled {fields.opponent_dice[0]} {fields.opponent_dice[1]}."
    if fields.turn:
        return f"{text}  turn: {me if fields.turn == fields.colour else other}"
    return text


def drawn_board(
    fields: FibsBoardFields, style: int, names: tuple[str, str], owner: str | None = None
) -> list[str]:
    """FIBS's board in style 1 or 2 for the reader of ``fields`` (colour O, direction
    -1, as every board here is written).

    Args:
        fields: the ``board:`` line's fields.
        style: 1 (numbers in the frame) or 2 (numbers on lines of their own).
        names: the reader's name and the opponent's, as shown beside the frame.
        owner: the cube's owner's name, or None when it is in the middle.
    """
    me, other = names
    top_edge, bottom_edge = _EDGES[style]
    length = f"{fields.match_length}-point match"
    if fields.match_length == 9999:
        length = "unlimited match"
    lines = [top_edge + f" X: {other} - score: {fields.opponent_score}"]
    if style == 2:
        lines.insert(0, _NUMBERS[0])
    lines += [_row(fields.board, _TOP, row) for row in (1, 2, 3, 4, 5)]
    lines.append(f"  v|                  |BAR|                   |    {length}")
    lines += [_row(fields.board, _BOTTOM, row) for row in (5, 4, 3, 2, 1)]
    lines.append(bottom_edge + f" O: {me} - score: {fields.player_score}")
    if style == 2:
        lines.append(_NUMBERS[1])
    return [*lines, "", _status(fields, names, owner)]
