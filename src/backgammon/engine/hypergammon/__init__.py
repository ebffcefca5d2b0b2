"""Hypergammon solved: exact values of every 1-, 2- and 3-checker position.

Hypergammon is backgammon with 1, 2 or 3 checkers a side (the variants
``hypergammon-1``, ``hypergammon-2`` and ``hypergammon``). Its positions are few
enough to solve exactly: this package computes, for every position, the cubeless
chances (win, win gammon, win backgammon, lose gammon, lose backgammon) under
optimal cubeless play and the money cubeful equities (cube centred, owned by the side
on roll, owned by its opponent) under optimal play and cube handling, stores them in
the cache folder and serves them to :class:`~backgammon.engine.evaluator.Engine` in
place of the networks. Everything here is computed from the rules alone; GNU
Backgammon's ``makehyper`` (which builds its ``hyperN.bd``) is used only to check the
results (``benchmarks/hypergammon_check.py`` and the tests).

The package, one module a concept:

* :mod:`~backgammon.engine.hypergammon.indexing`: positions and their database indices;
* :mod:`~backgammon.engine.hypergammon.kernels`: the Numba kernels (the legal plays of
  a roll, the value-iteration sweeps);
* :mod:`~backgammon.engine.hypergammon.solver`: the value iteration, its tie-break and
  its cube rules;
* :mod:`~backgammon.engine.hypergammon.database`: :class:`HypergammonDatabase`, its
  file and its lookups;
* :mod:`~backgammon.engine.hypergammon.checks`: self-consistency, the ranges of tied
  strategies, GNU Backgammon's ``hyperN.bd`` for comparisons;
* :mod:`~backgammon.engine.hypergammon.build`: building a file, and the command line
  ``python -m backgammon.engine.hypergammon build --checkers N``.

>>> from backgammon.rules.position import Position
>>> db = HypergammonDatabase.build(1)
>>> position = Position.from_points([0] * 23 + [1], [0] * 23 + [1], checkers=1)
>>> round(db.evaluate(position)[0], 4)  # the side on roll wins the 1-checker start
0.6016
"""

from __future__ import annotations

from backgammon.engine.hypergammon.build import build_database, main, run_build
from backgammon.engine.hypergammon.checks import (
    probability_ranges,
    read_gnubg_database,
    residual,
)
from backgammon.engine.hypergammon.database import (
    BUILD_COMMAND,
    BUILT_ON_FIRST_USE,
    HypergammonCubeEquities,
    HypergammonDatabase,
    available,
    database_file,
)
from backgammon.engine.hypergammon.indexing import (
    CHECKER_COUNTS,
    pair_count,
    pair_index,
    side_count,
    side_rank,
    solves,
)
from backgammon.engine.hypergammon.solver import (
    FLOAT32_TOLERANCE,
    PLAY_TABLE_MEMORY,
    TIE,
    TOLERANCE,
    SolveProgress,
    default_tolerance,
    play_table_memory,
)

__all__ = [
    "BUILD_COMMAND",
    "BUILT_ON_FIRST_USE",
    "CHECKER_COUNTS",
    "FLOAT32_TOLERANCE",
    "PLAY_TABLE_MEMORY",
    "TIE",
    "TOLERANCE",
    "HypergammonCubeEquities",
    "HypergammonDatabase",
    "SolveProgress",
    "available",
    "build_database",
    "database_file",
    "default_tolerance",
    "main",
    "pair_count",
    "pair_index",
    "play_table_memory",
    "probability_ranges",
    "read_gnubg_database",
    "residual",
    "run_build",
    "side_count",
    "side_rank",
    "solves",
]
