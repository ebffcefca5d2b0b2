"""GNU Backgammon's SGF match format: the writer (:class:`SgfWriter`,
:func:`write_sgf`), the inverse of :func:`~backgammon.formats.sgf.read_sgf`.

The format, and what of it is written, is described in :mod:`backgammon.formats.sgf`,
which also exports this module's public names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from backgammon.errors import BackgammonError
from backgammon.formats.record import (
    CubeEvent,
    Location,
    MatchInfo,
    MatchRecord,
    MatchVisitor,
    ResignEvent,
)
from backgammon.formats.sgf_syntax import (
    _APPLICATION,
    _COLOURS,
    _GAME_ANNOTATIONS,
    _METADATA,
    _RESERVED,
    _TOKEN_OF_VARIANT,
    SgfNode,
    SgfProperty,
    SgfTree,
    _letter,
    format_sgf,
)
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    Double,
    Drop,
    Raccoon,
    RejectResignation,
    Resign,
    Take,
)
from backgammon.rules.dice import Roll
from backgammon.rules.play import Play, parse_play
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant

__all__ = ["SgfWriter", "write_sgf"]

# -- writing ---------------------------------------------------------------------------


def _values(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [str(value)]
    if isinstance(value, Sequence) and value and all(isinstance(item, str) for item in value):
        return list(value)
    return None


class SgfWriter(MatchVisitor):
    """A visitor that writes GNU Backgammon SGF; :attr:`text` holds the result.

    Feed it with :meth:`MatchRecord.accept` (or any reader). Annotations whose key is
    an SGF property name (upper case letters, other than ``B``, ``W``, ``C`` and the
    set-up properties) and whose value is a string or a list of strings are written
    back as properties of the action's node; others are skipped. A roll and its play
    share one node, so a roll's annotations are read back on the play. Resignations
    appear only in ``RE``; a rejected one is not written, nor are annotations on
    resignation actions. The cube limit and automatic doubles are not written.

    Raises (from its hooks) :class:`MatchFileError` for what GNU Backgammon's SGF
    cannot hold or an inconsistent stream (a play without its roll, text that is not
    a legal play).
    """

    def __init__(self) -> None:
        self._trees: list[SgfTree] = []
        self._info: MatchInfo | None = None
        self._match_comment: str | None = None
        self._crawford_played = False
        self._game: _WriterGame | None = None

    @property
    def text(self) -> str:
        """The SGF text of every game finished so far."""
        return format_sgf(self._trees)

    @property
    def trees(self) -> list[SgfTree]:
        """The game trees written so far, one per game."""
        return list(self._trees)

    def _require(self, where: Location) -> _WriterGame:
        if self._game is None:
            raise where.error("an action outside any game")
        return self._game

    def begin_match(self, info: MatchInfo, where: Location) -> None:
        """Remember the match header for every game's root node."""
        if info.variant != STANDARD and info.variant.name not in _TOKEN_OF_VARIANT:
            raise where.error(
                f"the variant {info.variant.name!r} cannot be written in GNU Backgammon's SGF"
            )
        self._info = info
        self._trees = []
        self._crawford_played = False

    def comment(self, text: str, where: Location) -> None:
        """A match comment (``GC``) before the first game, else a game comment."""
        if self._game is not None:
            game = self._game
            game.comment = text if game.comment is None else f"{game.comment}\n{text}"
        else:
            previous = self._match_comment
            self._match_comment = text if previous is None else f"{previous}\n{text}"

    def begin_game(self, number: int, score: tuple[int, int], where: Location) -> None:
        """Start a game at ``score``."""
        info = self._info
        if info is None:
            raise where.error("a game before the match header")
        crawford = (
            info.rules.crawford
            and info.length > 1
            and not self._crawford_played
            and info.length - 1 in score
        )
        self._crawford_played = self._crawford_played or crawford
        self._game = _WriterGame(number, (score[0], score[1]), crawford, info.variant)

    def roll(self, player: int, dice: tuple[int, int], where: Location) -> None:
        """Open a node for the roll; the play completes it."""
        game = self._require(where)
        if player not in (0, 1):
            raise where.error(f"no player {player}")
        try:
            roll = Roll(*dice)
        except (TypeError, ValueError) as error:
            raise where.error(f"invalid dice {dice!r}: {error}") from None
        game.settle_cube()
        if game.turn is None:
            game.turn = player
        game.roll = (player, roll, len(game.nodes))
        game.nodes.append([(_COLOURS[player], [f"{roll.first}{roll.second}"])])

    def play(self, player: int, move: str | Play, where: Location) -> None:
        """Complete the roll's node with the play's from/to pairs."""
        game = self._require(where)
        if game.roll is None or game.roll[0] != player:
            raise where.error(f"player {player} plays without a roll")
        _, roll, index = game.roll
        view = game.position if player == 0 else game.position.flip()
        if isinstance(move, Play):
            play = move
        else:
            try:
                play = parse_play(move, view, roll)
            except BackgammonError as error:
                raise where.error(f"{move!r}: {error}") from None
        pairs = "".join(
            _letter(step.source, player) + _letter(step.destination, player) for step in play.steps
        )
        name, values = game.nodes[index][0]
        game.nodes[index][0] = (name, [values[0] + pairs])
        game.position = play.position.flip() if player == 0 else play.position
        game.turn = 1 - player
        game.roll = None

    def cube(self, player: int, action: CubeEvent, where: Location) -> None:
        """A cube node; beavers and raccoons as doubles, their acceptance as takes."""
        game = self._require(where)
        colour = _COLOURS[player]
        if isinstance(action, Raccoon):
            if game.pending is None or game.pending[0] != "beaver":
                raise where.error("a raccoon without a beaver")
            game.nodes.append([(colour, ["double"])])
            game.pending = ("raccoon", player)
            game.cube *= 2
            return
        game.settle_cube()
        if isinstance(action, Double):
            game.pending = ("double", player)
            game.nodes.append([(colour, ["double"])])
        elif isinstance(action, Beaver):
            if game.pending is None or game.pending[0] != "double":
                raise where.error("a beaver without a double")
            game.pending = ("beaver", game.pending[1])
            game.cube *= 4
            game.nodes.append([(colour, ["double"])])
        elif isinstance(action, Take | Drop):
            game.pending = None
            if isinstance(action, Take):
                game.cube *= 2
            game.nodes.append([(colour, ["take" if isinstance(action, Take) else "drop"])])
        else:
            raise where.error(f"{action!r} cannot be written in GNU Backgammon's SGF")

    def resign(self, player: int, action: ResignEvent, where: Location) -> None:
        """Resignations have no node; an accepted one marks ``RE`` with ``R``."""
        game = self._require(where)
        game.settle_cube()
        if isinstance(action, AcceptResignation):
            game.resigned = True
        elif isinstance(action, Resign):
            game.level = int(action.level)
        elif not isinstance(action, Resign | RejectResignation):
            raise where.error(f"{action!r} is not a resignation action")
        game.annotatable = False

    def annotate(self, comment: str | None, annotations: dict[str, Any], where: Location) -> None:
        """Attach a comment and annotations to the last action's node."""
        game = self._require(where)
        if not game.annotatable or not game.nodes:
            return
        node = game.nodes[-1]
        names = [name for name, _ in node]
        for key, value in annotations.items():
            values = _values(value)
            if (
                values is None
                or key in _RESERVED
                or not (key.isascii() and key.isalpha() and key.isupper())
            ):
                continue
            if key in names:
                node[names.index(key)] = (key, values)
            else:
                node.append((key, values))
                names.append(key)
        if comment:
            if "C" in names:
                index = names.index("C")
                node[index] = ("C", [node[index][1][0] + "\n" + comment])
            else:
                node.append(("C", [comment]))

    def end_game(self, winner: int | None, points: int | None, where: Location) -> None:
        """Write the game's tree, its root carrying the result."""
        game = self._require(where)
        info = self._info
        assert info is not None
        if game.roll is not None:  # rolled, not played: a PL/DI node
            player, roll, index = game.roll
            rest = game.nodes[index][1:]
            game.nodes[index] = [("PL", [_COLOURS[player]]), ("DI", [f"{roll.first}{roll.second}"])]
            game.nodes[index].extend(rest)
        root: list[tuple[str, list[str]]] = [
            ("FF", ["4"]),
            ("GM", ["6"]),
            ("CA", ["UTF-8"]),
            ("AP", [_APPLICATION]),
            (
                "MI",
                [
                    f"length:{info.length}",
                    f"game:{game.number - 1}",
                    f"ws:{game.score[0]}",
                    f"bs:{game.score[1]}",
                ],
            ),
            ("PW", [info.players[0]]),
            ("PB", [info.players[1]]),
        ]
        if not self._trees:
            for name, key in _METADATA.items():
                value = info.metadata.get(key)
                if value:
                    root.append((name, [value]))
            if self._match_comment:
                root.append(("GC", [self._match_comment]))
        tokens = []
        rules = info.rules
        if not rules.cube:
            tokens.append("NoCube")
        if rules.crawford and info.length > 1:
            tokens.append("Crawford")
        if game.crawford:
            tokens.append("CrawfordGame")
        if rules.jacoby:
            tokens.append("Jacoby")
        if info.variant != STANDARD:
            tokens.append(_TOKEN_OF_VARIANT[info.variant.name])
        tokens.extend(
            name
            for name, flag in (
                ("Beavers", rules.beavers),
                ("Raccoons", rules.raccoons),
                ("Holland", rules.holland),
            )
            if flag
        )
        if tokens:
            root.append(("RU", [":".join(tokens)]))
        if game.resigned and winner in (0, 1):  # the points resigned, before Jacoby
            root.append(("RE", [f"{_COLOURS[winner]}+{game.cube * game.level}R"]))
        elif winner in (0, 1) and points is not None:
            root.append(("RE", [f"{_COLOURS[winner]}+{points}"]))
        for name, values in game.annotations.items():
            root.append((name, [str(value) for value in values]))
        if game.comment:
            root.append(("C", [game.comment]))
        nodes = [_node(root)] + [_node(props) for props in game.nodes]
        self._trees.append(SgfTree(tuple(nodes)))
        self._game = None

    def annotate_game(self, annotations: dict[str, Any], where: Location) -> None:
        """Keep game-level properties (``GS``) for the game's root node."""
        game = self._require(where)
        for name, values in annotations.items():
            if name in _GAME_ANNOTATIONS:
                game.annotations[name] = [str(value) for value in values]

    def end_match(self, where: Location) -> None:
        """Nothing to add: :attr:`text` is complete."""


def _node(props: list[tuple[str, list[str]]]) -> SgfNode:
    return SgfNode(tuple(SgfProperty(name, tuple(values)) for name, values in props))


@dataclass(slots=True)
class _WriterGame:
    number: int
    score: tuple[int, int]
    crawford: bool
    variant: Variant
    nodes: list[list[tuple[str, list[str]]]] = field(default_factory=list)
    comment: str | None = None
    turn: int | None = None
    position: Position = field(init=False)
    roll: tuple[int, Roll, int] | None = None
    pending: tuple[str, int] | None = None
    cube: int = 1
    level: int = 1
    resigned: bool = False
    annotatable: bool = True
    annotations: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.position = Position.initial(self.variant)

    def settle_cube(self) -> None:
        """Before any other action, accept a beaver or raccoon with a ``take`` node
        (GNU Backgammon needs it; the rules here need no acceptance)."""
        self.annotatable = True
        pending = self.pending
        if pending is None or pending[0] == "double":
            return
        kind, doubler = pending
        taker = doubler if kind == "beaver" else 1 - doubler
        self.nodes.append([(_COLOURS[taker], ["take"])])
        self.pending = None


def write_sgf(record: MatchRecord) -> str:
    """GNU Backgammon SGF text for ``record`` (``record.accept(SgfWriter())``).

    Raises:
        MatchFileError: for what the format cannot hold (a variant GNU Backgammon does
            not know) or an inconsistent record (a play without its roll).
    """
    writer = SgfWriter()
    record.accept(writer)
    return writer.text
