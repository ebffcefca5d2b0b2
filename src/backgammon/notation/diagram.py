"""ASCII board diagrams, in the style of GNU Backgammon's text board.

The side on roll plays ``X`` and moves from the top right, round the board, to its home
board at the bottom right; the points carry its numbering. Stacks taller than five
show their count in the fifth row. Checkers on the bar sit in the middle column, and
checkers borne off are listed on the right.

>>> side = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
>>> print(draw_board(side, side))
 +13-14-15-16-17-18------19-20-21-22-23-24-+  O: opponent
 | X           O    |   | O              X |  off 0, pips 167
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
 |                  |BAR|                  |
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |
 | O           X    |   | X              O |  off 0, pips 167
 +12-11-10--9--8--7-------6--5--4--3--2--1-+  X: on roll
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["draw_board"]

_ROWS = 5


def _cell(count: int, row: int, mark: str) -> str:
    if count <= row:
        return "  "
    if row == _ROWS - 1 and count > _ROWS:
        return f"{count:>2}" if count < 100 else "**"
    return f" {mark}"


def _pips(side: Sequence[int]) -> int:
    return sum(index * side[index] for index in range(1, 26))


def draw_board(
    player: Sequence[int],
    opponent: Sequence[int],
    *,
    player_name: str = "on roll",
    opponent_name: str = "opponent",
    same_direction: bool = False,
    crosswise: bool = False,
) -> str:
    """Draw a position as text.

    Args:
        player: the side on roll's 26 slots (0 off, 1..24 its points, 25 bar), shown as X.
        opponent: the opponent's 26 slots in its own numbering, shown as O.
        player_name: label for X.
        opponent_name: label for O.
        same_direction: both sides move the same way round the board (Russian
            backgammon): the opponent's point ``p`` is the player's point ``p``.
        crosswise: both sides move the same way round from heads diagonally across
            (long nardy): the opponent's point ``(p + 11) % 24 + 1`` is the player's ``p``.
    """

    def signed(point: int) -> int:
        if crosswise:
            return player[point] - opponent[(point + 11) % 24 + 1]
        return player[point] - opponent[point if same_direction else 25 - point]

    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))
    lines = [" +13-14-15-16-17-18------19-20-21-22-23-24-+  O: " + opponent_name]

    def half(points: list[int], row: int, bar_text: str) -> str:
        left = "".join(
            _cell(abs(signed(p)), row, "X" if signed(p) > 0 else "O") + " " for p in points[:6]
        )
        right = "".join(
            _cell(abs(signed(p)), row, "X" if signed(p) > 0 else "O") + " " for p in points[6:]
        )
        return f" |{left}|{bar_text}|{right}|"

    for row in range(_ROWS):
        bar = _cell(opponent[25], row, "O") + " " if opponent[25] else "   "
        line = half(top_points, row, bar)
        if row == 0:
            line += f"  off {opponent[0]}, pips {_pips(opponent)}"
        lines.append(line)
    lines.append(" |                  |BAR|                  |")
    for row in reversed(range(_ROWS)):
        bar = _cell(player[25], row, "X") + " " if player[25] else "   "
        line = half(bottom_points, row, bar)
        if row == 0:
            line += f"  off {player[0]}, pips {_pips(player)}"
        lines.append(line)
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+  X: " + player_name)
    return "\n".join(lines)
