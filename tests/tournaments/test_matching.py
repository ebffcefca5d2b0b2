"""The blossom algorithm against brute force on small graphs."""

from __future__ import annotations

import random
from itertools import combinations

from backgammon.tournaments.matching import maximum_matching


def _largest_by_brute_force(count: int, edges: list[tuple[int, int]]) -> int:
    best = 0
    for size in range(1, count // 2 + 1):
        for chosen in combinations(edges, size):
            ends = [vertex for edge in chosen for vertex in edge]
            if len(set(ends)) == len(ends):
                best = size
                break
    return best


def test_a_maximal_start_grows_into_a_perfect_matching() -> None:
    # A 5-cycle 0-1-2-3-4 with a chord 1-4 and tails 0-5, 2-6, 3-7; the start 0-1, 2-3
    # blocks every other edge, yet 0-5, 2-6, 3-7, 1-4 pairs everyone.
    edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (1, 4), (0, 5), (2, 6), (3, 7)]
    neighbours: list[list[int]] = [[] for _ in range(8)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    start = [-1] * 8
    for a, b in [(0, 1), (2, 3)]:  # a maximal but not maximum start
        start[a], start[b] = b, a
    mate = maximum_matching(neighbours, start)
    assert sum(1 for m in mate if m != -1) // 2 == 4


def test_a_graph_whose_augmenting_path_runs_through_an_odd_cycle() -> None:
    # Found by running a blossom-less search against brute force: it stops at 3 pairs.
    edges = [(0, 1), (0, 2), (0, 4), (0, 5), (0, 6), (0, 7), (1, 2), (1, 4), (1, 7)]
    edges += [(2, 7), (3, 4), (4, 7), (5, 7), (6, 7)]
    neighbours: list[list[int]] = [[] for _ in range(8)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    mate = maximum_matching(neighbours)
    assert sum(1 for m in mate if m != -1) // 2 == _largest_by_brute_force(8, edges) == 4


def test_random_graphs_match_brute_force() -> None:
    draw = random.Random(11)
    for _ in range(300):
        count = draw.randint(1, 9)
        edges = [e for e in combinations(range(count), 2) if draw.random() < 0.35]
        neighbours: list[list[int]] = [[] for _ in range(count)]
        for a, b in edges:
            neighbours[a].append(b)
            neighbours[b].append(a)
        mate = maximum_matching(neighbours)
        for vertex, partner in enumerate(mate):
            assert partner == -1 or (mate[partner] == vertex and partner in neighbours[vertex])
        assert sum(1 for m in mate if m != -1) // 2 == _largest_by_brute_force(count, edges)
