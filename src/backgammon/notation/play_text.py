"""Move notation: the text form of a play, as a pure codec over plain steps.

**Canonical form** (what :func:`format_steps` writes; GNU Backgammon's convention):

* points in the mover's numbering, ``bar`` for the bar (25), ``off`` for borne off (0);
* steps are taken by decreasing starting point, and a step that starts where an
  earlier move ends continues that move: one checker's steps make one move ``13/7``,
  whose intermediate points are written only where it hit: ``13/8*/7``;
* ``*`` after a point where a blot was hit;
* moves over the same points are written once with a count: ``8/4(2)``, and
  ``13/9*(2)`` or ``8/5*/2(2)`` when one of them hit on the way;
* moves are ordered by decreasing starting point; moves from one point go longest
  first for doubles and shortest first otherwise (``8/4 8/6`` with 2-2, ``8/7 8/4``
  with 4-1); moves are separated by single spaces;
* a play that moves nothing is ``Ø``; with ``unplayable=n``, ``n`` trailing ``Ø`` mark
  dice that could not be played.

**Accepted on input** (:func:`parse_play_text`): the canonical form plus ``25`` or
``b`` for the bar, ``0`` or ``o`` for off, any letter case, commas or spaces between
moves, ``(n)`` repeats, ``Ø``/``0/0``/``-``/``pass``/``none``/``no move``
for "no move", and a leading roll such as ``6-2:`` or ``62:``.

This module works on tuples of ints; :mod:`backgammon.rules.play` resolves parsed text
against the legal plays of a position.

>>> format_steps([(13, 7, False), (7, 5, True)])
'13/5*'
>>> format_steps([(13, 8, True), (8, 7, False)])
'13/8*/7'
>>> format_steps([(8, 6, False), (8, 6, False), (6, 4, False), (6, 4, False)], double=True)
'8/4(2)'
>>> parse_play_text("6-2: 13/7*/5").moves
(PlayTextMove(path=(13, 7, 5), hits=(False, True, False), repeat=1),)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from backgammon.errors import InvalidNotationError

__all__ = [
    "BAR_POINT",
    "NO_MOVE",
    "OFF_POINT",
    "ParsedPlayText",
    "PlayTextMove",
    "format_point",
    "format_steps",
    "parse_play_text",
]

BAR_POINT = 25
OFF_POINT = 0
NO_MOVE = "Ø"
_MAX_TEXT = 500

StepTriple = tuple[int, int, bool]


def format_point(point: int) -> str:
    """``bar`` for 25, ``off`` for 0, else the number."""
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


def _chains(steps: Sequence[StepTriple]) -> list[list[StepTriple]]:
    ordered = sorted(steps, key=lambda step: (-step[0], step[1]))
    chains: list[list[StepTriple]] = []
    for step in ordered:
        for chain in chains:
            last = chain[-1]
            if last[1] == step[0] and last[1] != OFF_POINT:
                chain.append(step)
                break
        else:
            chains.append([step])
    return chains


def _path(chain: list[StepTriple]) -> tuple[int, ...]:
    return (chain[0][0], *(step[1] for step in chain))


def _move_text(path: tuple[int, ...], hits: set[int], repeat: int) -> str:
    """One move: its ends, intermediate points only where it hit, and the count."""
    shown = [
        format_point(point) + ("*" if point in hits else "")
        for index, point in enumerate(path)
        if index in (0, len(path) - 1) or point in hits
    ]
    return "/".join(shown) + (f"({repeat})" if repeat > 1 else "")


def format_steps(steps: Sequence[StepTriple], *, double: bool = False, unplayable: int = 0) -> str:
    """The canonical text of a play given as ``(source, destination, hit)`` steps.

    Args:
        steps: each step's source (25 = bar), destination (0 = off) and whether it hit.
        double: whether the roll was a double; it orders moves from one point (the
            longer first for doubles, the shorter first otherwise, as GNU Backgammon).
        unplayable: how many dice could not be played; each adds a trailing ``Ø``.
    """
    if not steps:
        return NO_MOVE
    counts: dict[tuple[int, ...], int] = {}
    hits: dict[tuple[int, ...], set[int]] = {}
    for chain in _chains(steps):
        path = _path(chain)
        counts[path] = counts.get(path, 0) + 1
        hits.setdefault(path, set()).update(step[1] for step in chain if step[2])
    direction = 1 if double else -1
    ordered = sorted(counts, key=lambda path: (-path[0], direction * path[-1]))
    words = [_move_text(path, hits[path], counts[path]) for path in ordered]
    words.extend([NO_MOVE] * unplayable)
    return " ".join(words)


@dataclass(frozen=True, slots=True)
class PlayTextMove:
    """One written move: the points a checker visits, hit marks, and how many checkers.

    ``path[0]`` is the start (25 = bar), ``path[-1]`` the end (0 = off); ``hits[i]``
    is true when ``path[i]`` carries a ``*``.
    """

    path: tuple[int, ...]
    hits: tuple[bool, ...]
    repeat: int


@dataclass(frozen=True, slots=True)
class ParsedPlayText:
    """A parsed play: the moves, the leading roll if one was written, and ``Ø`` marks."""

    moves: tuple[PlayTextMove, ...]
    roll: tuple[int, ...] | None
    """The leading roll: two dice, or three (tabula's ``6-5-2:``)."""
    unplayable: int


_ROLL_PREFIX = re.compile(r"^\s*([1-6])\s*-?\s*([1-6])\s*(?:-?\s*([1-6])\s*)?:\s*")
_NO_MOVE_WORDS = {"ø", "∅", "0/0", "-", "pass", "none", "nomove", "no-move", "cannot", "can't"}
_MOVE = re.compile(r"^(.+?)(?:\((\d+)\))?$")
_POINT = re.compile(r"^(bar|b|off|o|\d{1,2})(\*?)$")


def _parse_point(token: str, text: str) -> tuple[int, bool]:
    match = _POINT.match(token)
    if match is None:
        raise InvalidNotationError(
            f"invalid move notation {text!r}: {token!r} is not a point (1-24, bar, off)"
        )
    name, star = match.groups()
    if name in ("bar", "b"):
        point = BAR_POINT
    elif name in ("off", "o"):
        point = OFF_POINT
    else:
        point = int(name)
        if point > 25:
            raise InvalidNotationError(f"invalid move notation {text!r}: there is no point {point}")
    return point, bool(star)


def parse_play_text(text: str) -> ParsedPlayText:
    """Parse move notation into moves, without looking at any position.

    Raises:
        InvalidNotationError: if ``text`` is not move notation (the message quotes it
            and says which part is wrong).
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"move notation must be a string, got {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidNotationError(f"move notation is too long ({len(text)} characters)")
    rest = text
    roll = None
    prefix = _ROLL_PREFIX.match(rest)
    if prefix is not None:
        roll = tuple(int(die) for die in prefix.groups() if die is not None)
        rest = rest[prefix.end() :]
    lowered = rest.lower().replace("no move", "nomove").replace("can't move", "cannot")
    words = [word for word in re.split(r"[\s,;]+", lowered) if word]
    moves: list[PlayTextMove] = []
    unplayable = 0
    for word in words:
        if word in _NO_MOVE_WORDS:
            unplayable += 1
            continue
        match = _MOVE.match(word)
        if match is None:  # pragma: no cover - the pattern matches any non-empty word
            raise InvalidNotationError(f"invalid move notation {text!r}")
        body, count = match.groups()
        repeat = int(count) if count is not None else 1
        if not 1 <= repeat <= 4:
            raise InvalidNotationError(
                f"invalid move notation {text!r}: repeat count ({repeat}) must be 1-4"
            )
        tokens = body.split("/")
        if len(tokens) < 2:
            raise InvalidNotationError(
                f"invalid move notation {text!r}: {word!r} is not a move like '13/7'"
            )
        points: list[int] = []
        hits: list[bool] = []
        for token in tokens:
            point, hit = _parse_point(token, text)
            points.append(point)
            hits.append(hit)
        if points[0] == OFF_POINT:
            raise InvalidNotationError(
                f"invalid move notation {text!r}: {word!r} starts from 'off'"
            )
        for before, after in itertools.pairwise(points):
            if after >= before:
                raise InvalidNotationError(
                    f"invalid move notation {text!r}: {word!r} does not move toward home"
                )
        if hits[0] and points[0] != BAR_POINT:
            raise InvalidNotationError(
                f"invalid move notation {text!r}: {word!r} marks a hit on its starting point"
            )
        if points[0] == BAR_POINT and hits[0]:
            raise InvalidNotationError(f"invalid move notation {text!r}: a hit on the bar")
        if any(hit and point == OFF_POINT for point, hit in zip(points, hits, strict=True)):
            raise InvalidNotationError(f"invalid move notation {text!r}: a hit marked on 'off'")
        moves.append(PlayTextMove(tuple(points), tuple(hits), repeat))
    if not moves and not unplayable and roll is None:
        raise InvalidNotationError(f"invalid move notation {text!r}: no moves")
    return ParsedPlayText(tuple(moves), roll, unplayable)
