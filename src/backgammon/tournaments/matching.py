"""Maximum matchings in a general graph (Edmonds' blossom algorithm).

Swiss pairing asks whether the players still to pair can all be paired without a
rematch: that is whether the graph of allowed pairs has a perfect matching. Greedy
pairing can paint itself into a corner where a matching still exists, so the pairing
checks each choice against this exact algorithm.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["maximum_matching"]


def maximum_matching(
    neighbours: Sequence[Sequence[int]],
    start: Sequence[int] | None = None,
    active: Sequence[bool] | None = None,
) -> list[int]:
    """A maximum matching of the undirected graph on vertices ``0..n-1``.

    Args:
        neighbours: ``neighbours[v]`` lists the vertices joined to ``v``.
        start: a valid matching to grow (``start[v]`` is ``v``'s partner or -1); a
            start close to a maximum one makes the search quick.
        active: where given, only the vertices ``v`` with ``active[v]`` are in the
            graph (the others, unmatched in ``start``, stay unmatched).

    Returns:
        ``mate`` with ``mate[v]`` the partner of ``v``, or -1 where ``v`` is unmatched.
    """
    size = len(neighbours)
    present = [True] * size if active is None else list(active)
    mate = _greedy(neighbours, present) if start is None else list(start)
    for root in range(size):
        if mate[root] == -1 and present[root]:
            _augment_from(root, neighbours, mate, present)
    return mate


def _greedy(neighbours: Sequence[Sequence[int]], present: list[bool]) -> list[int]:
    """A quick maximal matching to start from: each vertex takes its first free
    neighbour."""
    mate = [-1] * len(neighbours)
    for vertex, around in enumerate(neighbours):
        if mate[vertex] != -1 or not present[vertex]:
            continue
        for other in around:
            if other != vertex and mate[other] == -1 and present[other]:
                mate[vertex], mate[other] = other, vertex
                break
    return mate


def _augment_from(
    root: int, neighbours: Sequence[Sequence[int]], mate: list[int], present: list[bool]
) -> None:
    """Find an augmenting path from the free vertex ``root`` and flip it into ``mate``."""
    end, parent = _find_path(root, neighbours, mate, present)
    while end != -1:
        previous = parent[end]
        following = mate[previous]
        mate[end] = previous
        mate[previous] = end
        end = following


def _find_path(
    root: int, neighbours: Sequence[Sequence[int]], mate: list[int], present: list[bool]
) -> tuple[int, list[int]]:
    """Breadth-first search for an augmenting path, shrinking blossoms as it goes.
    Returns the free vertex the path ends at (-1 if none) and the parent links."""
    size = len(neighbours)
    used = [False] * size
    parent = [-1] * size
    base = list(range(size))
    used[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        vertex = queue[head]
        head += 1
        for other in neighbours[vertex]:
            if not present[other] or base[vertex] == base[other] or mate[vertex] == other:
                continue
            if other == root or (mate[other] != -1 and parent[mate[other]] != -1):
                common = _common_base(vertex, other, base, mate, parent)
                in_blossom = [False] * size
                _mark_path(vertex, common, other, base, mate, parent, in_blossom)
                _mark_path(other, common, vertex, base, mate, parent, in_blossom)
                for index in range(size):
                    if in_blossom[base[index]]:
                        base[index] = common
                        if not used[index]:
                            used[index] = True
                            queue.append(index)
            elif parent[other] == -1:
                parent[other] = vertex
                if mate[other] == -1:
                    return other, parent
                used[mate[other]] = True
                queue.append(mate[other])
    return -1, parent


def _common_base(
    first: int, second: int, base: list[int], mate: list[int], parent: list[int]
) -> int:
    """The base of the lowest common ancestor of two vertices in the search tree."""
    seen = [False] * len(base)
    while True:
        first = base[first]
        seen[first] = True
        if mate[first] == -1:
            break
        first = parent[mate[first]]
    while True:
        second = base[second]
        if seen[second]:
            return second
        second = parent[mate[second]]


def _mark_path(
    vertex: int,
    common: int,
    child: int,
    base: list[int],
    mate: list[int],
    parent: list[int],
    in_blossom: list[bool],
) -> None:
    """Mark the blossom's vertices from ``vertex`` down to ``common``."""
    while base[vertex] != common:
        in_blossom[base[vertex]] = True
        in_blossom[base[mate[vertex]]] = True
        parent[vertex] = child
        child = mate[vertex]
        vertex = parent[mate[vertex]]
