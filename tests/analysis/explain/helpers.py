"""Shared helpers of the explanation tests: positions written by hand and the
brute-force counts over the 36 rolls."""

from __future__ import annotations

from backgammon.rules.position import Position

DICE = [(first, second) for first in range(1, 7) for second in range(1, 7)]
"""The 36 rolls, in order."""


def position(
    mover: dict[int, int], opponent: dict[int, int], opponent_bar: int = 0, mover_bar: int = 0
) -> Position:
    """A position from the mover's side: both sides' checkers by point in the
    MOVER's numbering (the opponent's checkers on mover's point p are on its 25 - p),
    the rest borne off."""
    mine = [0] * 24
    theirs = [0] * 24
    for point, count in mover.items():
        mine[point - 1] = count
    for point, count in opponent.items():
        theirs[25 - point - 1] = count
    return Position.from_points(mine, theirs, player_bar=mover_bar, opponent_bar=opponent_bar)


def brute_force_hits(after: Position) -> tuple[int, dict[int, int]]:
    """Over the 36 rolls, by the rules' legal plays alone: how many rolls let the
    opponent hit at least one of the mover's checkers, and per blot of the mover how
    many hit it (a blot is hit when the opponent's play leaves the point empty: the
    mover's checkers do not move in the opponent's turn)."""
    opponent = after.flip()
    blots = [point for point in range(1, 25) if after.player[point] == 1]
    per_blot = dict.fromkeys(blots, 0)
    hitting = 0
    for dice in DICE:
        hit_here: set[int] = set()
        for play in opponent.legal_plays(dice):
            # play.position is seen from the opponent: its .opponent is the mover.
            mover = play.position.opponent
            hit_here.update(point for point in blots if mover[point] == 0)
            if mover[25] > after.player[25]:
                hit_here.add(0)
        hitting += bool(hit_here)
        for point in hit_here - {0}:
            per_blot[point] += 1
    return hitting, per_blot
