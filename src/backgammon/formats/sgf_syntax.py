"""SGF's syntax beneath :mod:`backgammon.formats.sgf`: the generic game-tree layer
(:func:`parse_sgf` and :func:`format_sgf`, an exact pair for any game) and
backgammon's vocabulary in it that the reader and the writer share (point letters,
results, rule and variant tokens, the properties the game reserves).

The format, and what of it is read and written, is described in
:mod:`backgammon.formats.sgf`, which also exports this module's public names. The
underscored names here are the SGF modules' own (:mod:`~backgammon.formats.sgf` and
:mod:`~backgammon.formats.sgf_writer`), not an interface.

>>> (tree,) = parse_sgf("(;GM[6]C[a \\\\] in a value])")
>>> tree.nodes[0].get("C").values
('a ] in a value',)
>>> format_sgf([tree])
'(;GM[6]C[a \\\\] in a value])\\n'
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

from backgammon.errors import MatchFileError
from backgammon.formats.record import MatchInfo

__all__ = ["MAX_NODES", "SgfNode", "SgfProperty", "SgfTree", "format_sgf", "parse_sgf"]

# -- the generic SGF layer ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SgfProperty:
    """One property of a node: its identifier and its values (unescaped).

    ``line`` and ``column`` (1-based, of the identifier) are where it was read; they
    do not take part in comparisons.
    """

    name: str
    values: tuple[str, ...]
    line: int | None = field(default=None, compare=False)
    column: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SgfNode:
    """A node: its properties in file order (``line``/``column`` of its ``;``)."""

    properties: tuple[SgfProperty, ...]
    line: int | None = field(default=None, compare=False)
    column: int | None = field(default=None, compare=False)

    def get(self, name: str) -> SgfProperty | None:
        """The property called ``name``, or ``None``."""
        for prop in self.properties:
            if prop.name == name:
                return prop
        return None


@dataclass(frozen=True, slots=True)
class SgfTree:
    """A game tree: a sequence of nodes and the variations that follow it.

    ``line``/``column`` locate its ``(``, ``end_line``/``end_column`` its ``)``.
    """

    nodes: tuple[SgfNode, ...]
    variations: tuple[SgfTree, ...] = ()
    line: int | None = field(default=None, compare=False)
    column: int | None = field(default=None, compare=False)
    end_line: int | None = field(default=None, compare=False)
    end_column: int | None = field(default=None, compare=False)

    def main_line(self) -> list[SgfNode]:
        """The nodes of the sequence and of the first variation, recursively."""
        nodes = list(self.nodes)
        tree = self
        while tree.variations:
            tree = tree.variations[0]
            nodes.extend(tree.nodes)
        return nodes


class _Lines:
    """Turns character offsets into 1-based line and column numbers."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [match.end() for match in re.finditer(r"\r\n|\r|\n", text)]

    def at(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


_NON_SPACE = re.compile(r"\S")
_IDENT = re.compile(r"[A-Za-z]+")
_VALUE = re.compile(r"\[([^\\\]]*(?:\\.[^\\\]]*)*)\]", re.DOTALL)
_ESCAPE = re.compile(r"\\(\r\n|\n\r|\r|\n|.)", re.DOTALL)
_LINE_BREAKS = frozenset({"\r\n", "\n\r", "\r", "\n"})


def _skip(text: str, pos: int) -> int:
    """The offset of the next character that is not white space (or the end)."""
    found = _NON_SPACE.search(text, pos)
    return len(text) if found is None else found.start()


def _unescape(raw: str) -> str:
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(lambda match: "" if match.group(1) in _LINE_BREAKS else match.group(1), raw)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


MAX_NODES = 20_000
"""The most nodes :func:`parse_sgf` reads from one file. GNU Backgammon writes a node
for each roll, play and cube action: a 25-point match is about 2,000 nodes (a 5-point
match of ours 252, in 410 KB), so this leaves room for long sessions while a file of
empty nodes (``;C[x]`` repeated, 200,000 in a megabyte) is refused after a few
milliseconds instead of being built and walked for seconds."""


class _TreeParts:
    __slots__ = ("nodes", "offset", "variations")

    def __init__(self, offset: int) -> None:
        self.offset = offset
        self.nodes: list[SgfNode] = []
        self.variations: list[SgfTree] = []


def parse_sgf(text: str, *, path: str | None = None, max_nodes: int = MAX_NODES) -> list[SgfTree]:
    """Parse an SGF collection into its game trees (any game, not only backgammon).

    Property values are unescaped (``\\]`` and ``\\\\``; soft line breaks removed) but
    otherwise kept as written. Inverse of :func:`format_sgf`. At most ``max_nodes``
    nodes in all trees (see :data:`MAX_NODES`).

    Raises:
        MatchFileError: for anything that is not SGF syntax, with its line and column,
            or a file of more than ``max_nodes`` nodes (refused at the first one over).
    """
    if not isinstance(text, str):
        raise MatchFileError(f"SGF text must be a string, got {type(text).__name__}", path=path)
    lines = _Lines(text)

    def error(offset: int, message: str) -> MatchFileError:
        line, column = lines.at(offset)
        return MatchFileError(message, path=path, line=line, column=column)

    trees: list[SgfTree] = []
    stack: list[_TreeParts] = []
    node_count = 0
    size = len(text)
    pos = _skip(text, 1 if text.startswith("\ufeff") else 0)
    while pos < size:
        char = text[pos]
        if char == "(":
            if stack and not stack[-1].nodes:
                raise error(pos, "a game tree must start with a node (';'), not a variation")
            stack.append(_TreeParts(pos))
            pos += 1
        elif char == ")":
            if not stack:
                raise error(pos, "unexpected ')' outside any game tree")
            parts = stack.pop()
            if not parts.nodes:
                raise error(pos, "empty game tree: expected at least one node (';')")
            line, column = lines.at(parts.offset)
            end_line, end_column = lines.at(pos)
            tree = SgfTree(
                tuple(parts.nodes),
                tuple(parts.variations),
                line,
                column,
                end_line,
                end_column,
            )
            (stack[-1].variations if stack else trees).append(tree)
            pos += 1
        elif char == ";":
            if not stack:
                raise error(pos, "a node (';') outside any game tree; expected '('")
            parts = stack[-1]
            if parts.variations:
                raise error(pos, "a node after a variation; expected '(' or ')'")
            node_count += 1
            if node_count > max_nodes:
                raise error(pos, f"more than {max_nodes:,} nodes (';'): too many for a match file")
            node_offset = pos
            pos += 1
            properties: list[SgfProperty] = []
            names: set[str] = set()
            while True:
                pos = _skip(text, pos)
                ident = _IDENT.match(text, pos)
                if ident is None:
                    break
                name = ident.group()
                if not name.isupper():
                    raise error(pos, f"property {name!r}: identifiers are upper case letters")
                prop_offset = pos
                pos = ident.end()
                values: list[str] = []
                while True:
                    pos = _skip(text, pos)
                    if pos >= size or text[pos] != "[":
                        break
                    value = _VALUE.match(text, pos)
                    if value is None:
                        raise error(pos, f"property {name}: the value is not closed (missing ']')")
                    values.append(_unescape(value.group(1)))
                    pos = value.end()
                if not values:
                    raise error(pos, f"property {name} has no value; expected '['")
                if name in names:
                    raise error(prop_offset, f"property {name} appears twice in one node")
                names.add(name)
                line, column = lines.at(prop_offset)
                properties.append(SgfProperty(name, tuple(values), line, column))
            line, column = lines.at(node_offset)
            parts.nodes.append(SgfNode(tuple(properties), line, column))
        else:
            expected = "a property, ';', '(' or ')'" if stack else "'(' to start a game tree"
            raise error(pos, f"unexpected {char!r}; expected {expected}")
        pos = _skip(text, pos)
    if stack:
        line, column = lines.at(stack[-1].offset)
        raise error(size, f"the game tree opened at {line}:{column} is not closed (missing ')')")
    if not trees:
        raise error(size, "no game tree: an SGF file is one or more '(;...)'")
    return trees


def _format_node(node: SgfNode) -> str:
    return ";" + "".join(
        prop.name + "".join(f"[{_escape(value)}]" for value in prop.values)
        for prop in node.properties
    )


def _format_tree(tree: SgfTree) -> str:
    out: list[str] = []
    pending: list[SgfTree | None] = [tree]  # None closes a tree
    while pending:
        current = pending.pop()
        if current is None:
            out.append(")")
            continue
        out.append("(" + "\n".join(_format_node(node) for node in current.nodes))
        pending.append(None)
        pending.extend(reversed(current.variations))
    return "".join(out)


def format_sgf(trees: Iterable[SgfTree]) -> str:
    """SGF text for game trees, laid out as GNU Backgammon does: one node a line, one
    game tree per paragraph. Inverse of :func:`parse_sgf`.

    Raises:
        ValueError: for a property identifier that is not upper case letters, or a
            tree or property without nodes or values.
    """
    out: list[str] = []
    for tree in trees:
        _check_tree(tree)
        out.append(_format_tree(tree) + "\n")
    return "".join(out)


def _check_tree(tree: SgfTree) -> None:
    pending = [tree]
    while pending:
        current = pending.pop()
        if not current.nodes:
            raise ValueError("an SGF game tree needs at least one node")
        for node in current.nodes:
            for prop in node.properties:
                if not (prop.name.isascii() and prop.name.isalpha() and prop.name.isupper()):
                    raise ValueError(f"invalid SGF property identifier {prop.name!r}")
                if not prop.values:
                    raise ValueError(f"SGF property {prop.name} needs at least one value")
        pending.extend(current.variations)


# -- backgammon: shared tables ----------------------------------------------------------

_GAME_ANNOTATIONS = frozenset({"GS"})
"""Root properties kept as the game's annotations (GNU Backgammon's game statistics)."""

_COLOURS = ("W", "B")
_BAR = 25
_OFF = 0
_MOVE_TEXT = re.compile(r"([1-6])([1-6])([a-z]*)\Z")
_DICE_TEXT = re.compile(r"([1-6])([1-6])\Z")
_RESULT = re.compile(r"([BWbw])\+([0-9]{1,9})?(r|R|resign|Resign)?\Z")
_NO_RESULT = {"", "?", "0", "void", "Void"}
_INT = re.compile(r"[0-9]{1,9}\Z")
_SETUP = ("AE", "AB", "AW", "CP", "CO", "CV")
_RESERVED = frozenset({"B", "W", "C", "PL", "DI", *_SETUP})
_METADATA = {
    "DT": "date",
    "EV": "event",
    "RO": "round",
    "PC": "place",
    "AN": "annotator",
    "WR": "rating0",
    "BR": "rating1",
}
_VARIANT_TOKENS = {
    "Nackgammon": "nackgammon",
    "Hypergammon1": "hypergammon-1",
    "Hypergammon2": "hypergammon-2",
    "Hypergammon3": "hypergammon",
}
_TOKEN_OF_VARIANT = {name: token for token, name in _VARIANT_TOKENS.items()}
_APPLICATION = "backgammon"
_DEFAULT_PLAYERS = MatchInfo(0).players


def _letter(point: int, player: int) -> str:
    """The SGF letter of ``point`` (mover's numbering, 25 bar, 0 off) for ``player``."""
    if point == _BAR:
        return "y"
    if point == _OFF:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - point + 1)


def _point(letter: str, player: int) -> int:
    """The mover's point for an SGF letter (25 bar, 0 off)."""
    if letter == "y":
        return _BAR
    if letter == "z":
        return _OFF
    index = ord(letter) - ord("a")
    return index + 1 if player == 0 else 24 - index
