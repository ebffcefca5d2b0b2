"""Exact bear-off databases: one-sided (15 checkers, 6 points) and two-sided (6 x 6).

A *bear-off position* of one side is its checkers on its six home points and nowhere
else (no checker on the bar or outside the home board). Once both sides are in such a
position the game is a pure race with no contact, and it can be solved exactly. This
module builds, stores and reads two databases, as GNU Backgammon ships them (its
``gnubg_os0.bd`` and ``gnubg_ts0.bd``; see the GNU Backgammon manual, "Bearoff
databases", and the ``makebearoff`` man page). Everything here is computed from the
rules alone; no data or code of GNU Backgammon is used.

**Points.** A side's bear-off position is given as six counts ``points6``: ``points6[0]``
checkers on its 1-point, ..., ``points6[5]`` on its 6-point, in its own numbering.

**Ranking.** :func:`bearoff_index` numbers every position of at most 15 checkers on the
six points, ``0 .. 54263``, so that every position with fewer checkers comes first: a
position of ``t`` checkers has index ``C(t + 5, 6) + r``, where ``C(t + 5, 6)`` counts the
positions of fewer than ``t`` checkers and ``r`` is the rank of the composition among the
``C(t + 5, 5)`` ways to put ``t`` checkers on 6 points, in the combinatorial number system:
with ``s_k = c_1 + ... + c_k + (k - 1)`` for ``k = 1..5`` (a strictly increasing sequence),
``r = C(s_1, 1) + C(s_2, 2) + ... + C(s_5, 5)``. So the positions of at most 6 checkers
are exactly the indices ``0 .. 923``, which is how the two-sided database is indexed.
Index 0 is the empty position (every checker borne off).

**One-sided database** (:class:`OneSidedDatabase`, all 54,264 positions). For each
position it stores

* the distribution of the number of rolls the side needs to bear off all its checkers,
  when every roll is played to minimise the expected number of rolls still needed (the
  criterion of GNU Backgammon's one-sided database), and its mean;
* the *gammon-saving* distribution: the number of rolls until at least one checker of
  the position has been borne off, when every roll is played to minimise the expected
  number of rolls to that first checker off (a separate, independent policy), and its
  mean. It matters for a side that has borne off nothing yet: with the standard 15
  checkers, for the positions with all 15 on the board.

Both are computed exactly by dynamic programming over the positions in increasing pip
count, with every legal play of each of the 21 rolls (a Numba kernel over the six
points). Bin ``n`` of a distribution is the probability of needing exactly ``n`` rolls;
no position needs more than 30 rolls, so 32 bins (:data:`MAX_ROLLS`) suffice.

A race of two one-sided positions is then evaluated as two independent races: with
``P`` the player's (on roll) distribution and ``Q`` the opponent's,
``P(win) = sum_n P(n) * Q(>= n)``. That is exact for the two fixed policies, not the
win-maximising play, and it is how GNU Backgammon evaluates its ``bearoff1`` class. For
a side that has borne off nothing, gammon chances use the other side's gammon-saving
distribution ``G``: ``P(win gammon) = sum_n P(n) * G_opp(>= n)`` and
``P(lose gammon) = sum_n Q(n) * G_player(>= n + 1)`` (the side on roll rolls first).
Backgammons cannot happen: every checker is in its own home board.

**Two-sided database** (:class:`TwoSidedDatabase`, 924 x 924 pairs of at most 6 checkers
each). It stores, for the side on roll, the exact cubeless probability of winning when
both sides play to maximise their own winning chances, from the recursion
``W(a, b) = sum_rolls w * max_plays (1 if a' is empty else 1 - W(b, a'))`` solved in
increasing order of the two sides' total pip count. With at most 6 checkers each, both
sides have borne off at least 9 of 15 checkers, so there are no gammons and a won game
is worth exactly one cube.

It also stores exact **cubeful money equities** (no Jacoby rule, no beavers, unlimited
cube; equities per unit of the current cube, for the side on roll, before it rolls),
for the three cube states: centred, owned by the side on roll, owned by the opponent.
Writing ``ND_x`` for the equity when the side on roll does not double now (its best play
of each roll against the opponent's optimal continuation, with the cube passing to the
matching state: centred stays centred, an owned cube becomes the opponent's "opponent
owns" and vice versa), the recursion is

* ``E_opponent_owns = ND_opponent_owns`` (the side on roll cannot double);
* ``E_centred = max(ND_centred, min(2 * ND_opponent_owns, 1))`` and
  ``E_owned = max(ND_owned, min(2 * ND_opponent_owns, 1))``: double if that is better,
  and after a double the opponent takes (owning a doubled cube: twice
  ``ND_opponent_owns``) or passes (the side on roll wins one cube), whichever is worse
  for the side on roll.

This is the exact optimal doubling recursion that GNU Backgammon's two-sided database
replaces Janowski's cube-efficiency model with (GNU Backgammon manual, "Cubeful
equities"; Janowski, "Take-Points in Money Games", 1993).

**Files.** :func:`build_bearoff_databases` builds both databases (about 2 s on two
cores, 5 s the first time while Numba compiles its kernels) and writes them as
compressed ``.npz`` files of float32 arrays (2.7 MB and 10.6 MB) into
:func:`default_database_directory` or a given folder; ``python -m
backgammon.engine.bearoff build [--dir DIR]`` does the same from the command line.
:meth:`BearoffDatabase.open` loads them, building them first if missing.

The package, one module a concern:

* :mod:`~backgammon.engine.bearoff.indexing`: sizes, file names, the ranking
  (:func:`bearoff_index`, :func:`bearoff_points`) and the cache folder;
* :mod:`~backgammon.engine.bearoff.kernels`: the Numba kernels (a position's plays of a
  roll, the dynamic programming sweeps, the evaluation of rows of boards);
* :mod:`~backgammon.engine.bearoff.storage`: what building and storing both databases
  shares (the position tables, the files);
* :mod:`~backgammon.engine.bearoff.one_sided`: :class:`OneSidedDatabase`;
* :mod:`~backgammon.engine.bearoff.two_sided`: :class:`TwoSidedDatabase`;
* :mod:`~backgammon.engine.bearoff.database`: :class:`BearoffDatabase`, both together,
  as the engine uses them;
* :mod:`~backgammon.engine.bearoff.build`: :func:`build_bearoff_databases` and the
  command line.

>>> database = BearoffDatabase(OneSidedDatabase.build(), TwoSidedDatabase.build())
>>> round(database.one_sided.expected_rolls([0, 0, 0, 0, 0, 1]), 4)
1.25
>>> round(database.two_sided.win_probability([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1]), 4)
0.8125
"""

from backgammon.engine.bearoff.build import build_bearoff_databases, main
from backgammon.engine.bearoff.database import BearoffDatabase
from backgammon.engine.bearoff.indexing import (
    MAX_ROLLS,
    ONE_SIDED_CHECKERS,
    ONE_SIDED_FILE,
    ONE_SIDED_POSITIONS,
    POINTS,
    TWO_SIDED_CHECKERS,
    TWO_SIDED_FILE,
    TWO_SIDED_POSITIONS,
    BearoffClass,
    ProgressCallback,
    bearoff_index,
    bearoff_points,
    default_database_directory,
)
from backgammon.engine.bearoff.one_sided import OneSidedDatabase
from backgammon.engine.bearoff.two_sided import BearoffCubeEquities, TwoSidedDatabase

__all__ = [
    "MAX_ROLLS",
    "ONE_SIDED_CHECKERS",
    "ONE_SIDED_FILE",
    "ONE_SIDED_POSITIONS",
    "POINTS",
    "TWO_SIDED_CHECKERS",
    "TWO_SIDED_FILE",
    "TWO_SIDED_POSITIONS",
    "BearoffClass",
    "BearoffCubeEquities",
    "BearoffDatabase",
    "OneSidedDatabase",
    "ProgressCallback",
    "TwoSidedDatabase",
    "bearoff_index",
    "bearoff_points",
    "build_bearoff_databases",
    "default_database_directory",
    "main",
]
