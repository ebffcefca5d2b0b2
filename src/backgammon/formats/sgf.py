"""GNU Backgammon's SGF match format (``GM[6]``): a reader, a writer, and the generic
SGF parser beneath them.

This module is the format's description and its reader; the writer is
:mod:`~backgammon.formats.sgf_writer` and the generic parser, with the vocabulary the
two share, :mod:`~backgammon.formats.sgf_syntax` (each imports only the one below it);
their names are exported here too.

SGF (the Smart Game Format, https://www.red-bean.com/sgf/) stores a *collection* of
game trees ``(;node;node...)``; a node is ``;`` followed by properties, each an upper
case identifier with one or more bracketed values ``ID[value][value]``. Inside a value
``\\]`` and ``\\\\`` are escapes and a backslash before a line break is a soft line
break (removed). Backgammon is game 6; its page on the SGF site
(https://www.red-bean.com/sgf/backgammon.html) and the files GNU Backgammon 1.07
writes (``tests`` use five of them) fix the rest. What this module reads and writes:

**One game tree per game.** Its root node holds the game information:

- ``GM[6]`` (required), ``FF[4]``, ``CA[UTF-8]``, ``AP[...]``.
- ``MI[length:5][game:0][ws:3][bs:2]``: match length (0 = money), the game's number
  (GNU Backgammon counts from 0), and the score of White and Black before the game.
- ``PW[name]`` / ``PB[name]``: the players. **White is player 0** and Black player 1:
  GNU Backgammon's player 0 is White, and its .mat export puts White's name in the
  left column, so player 0 is the same person in both files (``match01_3pt.sgf`` has
  ``PW[gnubg]PB[root]`` and ``match01_3pt.mat`` the header ``gnubg : 0  root : 0``).
- ``RU[Crawford:CrawfordGame:Jacoby:NoCube:Nackgammon]``: colon separated rules.
  ``Crawford`` = the Crawford rule is in force, ``CrawfordGame`` = this game is the
  Crawford game (recomputed by the rules on reading), ``Jacoby``, ``NoCube``, and a
  variant: ``Nackgammon``, ``Hypergammon1``/``2``/``3``. This library adds
  ``Beavers``, ``Raccoons`` and ``Holland`` (GNU Backgammon ignores tokens it does not
  know); beavers are also switched on when the file contains one.
- ``RE[W+1]``, ``RE[B+8R]``: the result: the winner (``W``/``B``), the points won,
  and ``R`` when the game ended by resignation: the game is not over after its last
  move, and the player on roll (the loser) resigned at ``points / cube`` (1 single, 2
  gammon, 3 backgammon), which the winner accepted. (In ``match01_3pt.sgf`` root's
  last move leaves checkers on the board and ``RE[B+8R]`` is gnubg resigning a gammon
  with the cube at 4; the .mat file just says "Wins 8 points".) The points of an
  ``R`` result are those resigned, before the Jacoby rule (as GNU Backgammon writes
  them). An ``R`` on a game the moves did finish is tolerated and ignored.
- the first game's root also has ``DT`` (date), ``EV`` (event), ``RO`` (round), ``PC``
  (place), ``AN`` (annotator), ``WR``/``BR`` (ratings) and ``GC`` (a comment on the
  match); they become :attr:`MatchInfo.metadata` keys ``date``, ``event``, ``round``,
  ``place``, ``annotator``, ``rating0``, ``rating1`` and the match comment.
- ``C[...]`` in the root is a comment on the game. ``GS[...]`` (GNU Backgammon's game
  statistics) is kept raw as the game's annotations and written back; other root
  properties are not kept.

**One node per action**, in order, with a move property ``W[...]`` or ``B[...]``:

- ``B[64aggk]``: the roll (two digits 1..6, as thrown; the opening roll is the
  starter's and has no node of its own) and up to four from/to pairs, one per die
  played. Points are letters in *White's* numbering: ``a`` = White's 1-point (Black's
  24), ..., ``x`` = White's 24-point (Black's 1); ``y`` = the bar, ``z`` = borne off.
  So for White a letter is point ``ord(c) - ord('a') + 1``, for Black point
  ``ord('x') - ord(c) + 1`` of the mover's numbering. Hits are not marked.
  ``B[64aggk]`` is Black's 24/18/14, ``W[42ywxt]`` White's bar/23 24/20,
  ``B[55vzvzvzwz]`` Black's 3/off(3) 2/off, ``W[41]`` a roll that cannot be played.
- ``W[double]``, ``B[take]``, ``B[drop]``. A beaver is written as a second
  ``double`` by the doubled player, a raccoon as a third by the first doubler, each
  accepted by a ``take`` of the other side: ``W[double];B[double];W[take]`` = White
  doubles, Black beavers, White accepts. (There is no ``beaver`` or ``raccoon``
  word.) A dropped beaver cannot be expressed in the rules here and is refused.
- ``PL[B]DI[64]``: dice rolled but not (yet) played: GNU Backgammon writes it when a
  game stops after a roll. ``PL`` alone must name the player on roll. Other set-up
  properties (``AE``, ``AB``, ``AW``, ``CP``, ``CO``, ``CV`` other than ``CV[1]``)
  describe positions the record cannot start from and are refused.
- Resignations have no node: only ``RE[..R]`` tells of them (see above); a rejected
  resignation is not written.
- ``C[...]`` is a comment on the action. Every other property of an action node is
  kept raw in :attr:`RecordEntry.annotations` as ``{name: [values...]}`` and written
  back unchanged, in order: GNU Backgammon's analysis ``A[...]`` (moves considered and
  their evaluations), ``DA[...]`` (cube decision), ``MR[]``/``CR[]`` (marks), ``LU[...]``
  (luck of the roll), ``GW``/``GB`` (good for White/Black: lucky rolls), ``BM``/``DO``
  (bad/doubtful move), ``BC``/``DC`` (bad/doubtful cube decision). On reading they are
  attached to the play (not the roll) of a move node.

Variations other than the main line (the first of each) are ignored, as GNU
Backgammon does. Everything malformed raises :class:`~backgammon.errors.MatchFileError`
with the path, line and column.

>>> from backgammon.formats.record import RecordBuilder
>>> builder = RecordBuilder()
>>> read_sgf("(;GM[6]MI[length:3]PW[Alice]PB[Bob];W[31hefe]C[the usual];B[double])", builder)
>>> record = builder.record
>>> record.players, [str(entry.action) for entry in record.games[0].entries[1:2]]
(('Alice', 'Bob'), ['8/5 6/5'])
>>> print(write_sgf(record), end="")
(;FF[4]GM[6]CA[UTF-8]AP[backgammon]MI[length:3][game:0][ws:0][bs:0]PW[Alice]PB[Bob]
;W[31hefe]C[the usual]
;B[double])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from backgammon.errors import BackgammonError
from backgammon.formats.record import CubeEvent, Location, MatchInfo, MatchVisitor
from backgammon.formats.sgf_syntax import (
    _BAR,
    _COLOURS,
    _DEFAULT_PLAYERS,
    _DICE_TEXT,
    _GAME_ANNOTATIONS,
    _INT,
    _METADATA,
    _MOVE_TEXT,
    _NO_RESULT,
    _OFF,
    _RESULT,
    _SETUP,
    _VARIANT_TOKENS,
    MAX_NODES,
    SgfNode,
    SgfProperty,
    SgfTree,
    _point,
    format_sgf,
    parse_sgf,
)
from backgammon.formats.sgf_writer import SgfWriter, write_sgf
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    Double,
    Drop,
    Raccoon,
    Resign,
    ResignLevel,
    Take,
)
from backgammon.rules.dice import Roll
from backgammon.rules.game import outcome_of
from backgammon.rules.play import Play, Step, legal_plays
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant
from backgammon.variants import find as find_variant

__all__ = [
    "MAX_NODES",
    "SgfNode",
    "SgfProperty",
    "SgfTree",
    "SgfWriter",
    "format_sgf",
    "parse_sgf",
    "read_sgf",
    "write_sgf",
]

# -- reading ---------------------------------------------------------------------------


@dataclass(slots=True)
class _GameState:
    """What the reader tracks to turn SGF nodes into actions."""

    variant: Variant
    rules: CubeRules
    length: int
    position: Position  # seen from player 0
    turn: int | None = None
    dice: Roll | None = None  # rolled (DI) and not yet played
    cube: int = 1
    owner: int | None = None
    pending: tuple[str, int] | None = None  # ("double" | "beaver" | "raccoon", doubler)
    outcome: tuple[int, int] | None = None  # (winner, points) once over by the rules
    acted: bool = False


def _rule_tokens(node: SgfNode) -> set[str]:
    prop = node.get("RU")
    if prop is None:
        return set()
    return {token for value in prop.values for token in value.split(":") if token}


def _cube_word(pending: tuple[str, int] | None, player: int, word: str) -> str | None:
    """What a cube word means given the pending cube decision: the action's name, or
    ``"accept"`` for a take that only accepts a beaver or raccoon, or ``None``."""
    kind, doubler = pending if pending is not None else ("", -1)
    if word == "double":
        if pending is None:
            return "double"
        if kind == "double" and player != doubler:
            return "beaver"
        if kind == "beaver" and player == doubler:
            return "raccoon"
    elif word == "take":
        if kind == "double" and player != doubler:
            return "take"
        if (kind == "beaver" and player == doubler) or (kind == "raccoon" and player != doubler):
            return "accept"
    elif word == "drop" and kind == "double" and player != doubler:
        return "drop"
    return None


def _next_pending(
    pending: tuple[str, int] | None, player: int, meaning: str
) -> tuple[str, int] | None:
    if meaning == "double":
        return ("double", player)
    if meaning == "beaver":
        assert pending is not None
        return ("beaver", pending[1])
    if meaning == "raccoon":
        return ("raccoon", player)
    return None


class _Reader:
    def __init__(self, visitor: MatchVisitor, path: str | None) -> None:
        self.visitor = visitor
        self.path = path
        self.score = (0, 0)
        self.info = MatchInfo(0)
        self.tokens: set[str] = set()

    def where(self, item: SgfProperty | SgfNode | SgfTree | None) -> Location:
        if item is None:
            return Location(self.path)
        return Location(self.path, item.line, item.column)

    # -- the match ------------------------------------------------------------------

    def run(self, trees: list[SgfTree]) -> None:
        games = [tree.main_line() for tree in trees]
        first = games[0][0]
        for tree, nodes in zip(trees, games, strict=True):
            self.check_root(nodes[0], tree)
        info = self.match_info(first, games)
        self.info = info
        self.tokens = _rule_tokens(first) - {"CrawfordGame"}
        self.visitor.begin_match(info, self.where(trees[0]))
        comment = first.get("GC")
        if comment is not None and comment.values[0]:
            self.visitor.comment(_text(comment.values[0]), self.where(comment))
        for number, (tree, nodes) in enumerate(zip(trees, games, strict=True), start=1):
            self.game(number, tree, nodes)
        last = trees[-1]
        self.visitor.end_match(Location(self.path, last.end_line, last.end_column))

    def check_root(self, root: SgfNode, tree: SgfTree) -> None:
        game = root.get("GM")
        if game is None or game.values[0].strip() != "6":
            found = "no GM property" if game is None else f"GM[{game.values[0]}]"
            raise self.where(game or root).error(
                f"not a backgammon game: expected GM[6] in the root node, found {found}"
            )
        for name in ("B", "W", "PL", "DI", "AE", "AB", "AW", "CP", "CO"):
            prop = root.get(name)
            if prop is not None:
                raise self.where(prop).error(
                    f"{name}[...] in the root node: moves and set-up belong in later nodes"
                    if name in ("B", "W")
                    else f"{name}[...]: games set up from a position are not supported"
                )
        cube = root.get("CV")
        if cube is not None and cube.values[0].strip() != "1":
            raise self.where(cube).error(
                f"CV[{cube.values[0]}]: automatic doubles (a cube turned before the first "
                "move) are not supported"
            )

    def match_info(self, root: SgfNode, games: list[list[SgfNode]]) -> MatchInfo:
        tags = self.match_tags(root)
        length = tags.get("length", 0)
        players = (
            _simple(root.get("PW"), _DEFAULT_PLAYERS[0]),
            _simple(root.get("PB"), _DEFAULT_PLAYERS[1]),
        )
        tokens = _rule_tokens(root)
        variant = STANDARD
        for token, name in _VARIANT_TOKENS.items():
            if token in tokens:
                try:
                    variant = find_variant(name)
                except KeyError:
                    raise self.where(root.get("RU")).error(
                        f"RU[...{token}...]: the variant {name!r} is not available"
                    ) from None
        beavers, raccoons = "Beavers" in tokens, "Raccoons" in tokens
        for nodes in games:
            found_beaver, found_raccoon = _scan_beavers(nodes)
            beavers, raccoons = beavers or found_beaver, raccoons or found_raccoon
        defaults = CubeRules()
        rules = CubeRules(
            cube="NoCube" not in tokens,
            beavers=beavers or raccoons,
            raccoons=raccoons,
            jacoby="Jacoby" in tokens,
            crawford="Crawford" in tokens if length > 1 else defaults.crawford,
            holland="Holland" in tokens,
        )
        metadata = {}
        for name, key in _METADATA.items():
            prop = root.get(name)
            if prop is not None and prop.values[0]:
                metadata[key] = _simple(prop, "")
        return MatchInfo(length, players, rules, variant, metadata)

    def match_tags(self, root: SgfNode) -> dict[str, int]:
        prop = root.get("MI")
        tags: dict[str, int] = {}
        if prop is None:
            return tags
        for value in prop.values:
            tag, colon, number = value.partition(":")
            tag = tag.strip().lower()
            if tag not in ("length", "game", "ws", "bs"):
                continue
            number = number.strip()
            if not colon or not _INT.match(number):
                raise self.where(prop).error(f"MI[{value}]: expected {tag}:<a whole number >= 0>")
            tags[tag] = int(number)
        return tags

    # -- one game --------------------------------------------------------------------

    def game(self, number: int, tree: SgfTree, nodes: list[SgfNode]) -> None:
        root = nodes[0]
        tags = self.match_tags(root)
        if tags.get("length", 0) != self.info.length:
            raise self.where(root.get("MI") or root).error(
                f"game {number} is to {tags.get('length', 0)} points, the match to "
                f"{self.info.length}"
            )
        if number > 1 and _rule_tokens(root) - {"CrawfordGame"} != self.tokens:
            raise self.where(root.get("RU") or root).error(
                f"game {number}: the rules (RU) differ from the first game's"
            )
        score = (tags.get("ws", self.score[0]), tags.get("bs", self.score[1]))
        self.visitor.begin_game(number, score, self.where(tree))
        self.score = score
        statistics = {
            prop.name: list(prop.values)
            for prop in root.properties
            if prop.name in _GAME_ANNOTATIONS
        }
        if statistics:
            self.visitor.annotate_game(statistics, self.where(tree))
        comment = root.get("C")
        if comment is not None and comment.values[0]:
            self.visitor.comment(_text(comment.values[0]), self.where(comment))
        if number > 1:
            extra = root.get("GC")
            if extra is not None and extra.values[0]:
                self.visitor.comment(_text(extra.values[0]), self.where(extra))
        info = self.info
        state = _GameState(info.variant, info.rules, info.length, Position.initial(info.variant))
        for node in nodes[1:]:
            self.node(node, state)
        self.end(root, tree, state)

    def node(self, node: SgfNode, state: _GameState) -> None:
        move: SgfProperty | None = None
        dice = player_prop = comment = None
        annotations: dict[str, list[str]] = {}
        for prop in node.properties:
            name = prop.name
            if name in ("B", "W"):
                if move is not None:
                    raise self.where(prop).error("a node holds one move: both B and W found")
                move = prop
            elif name == "DI":
                dice = prop
            elif name == "PL":
                player_prop = prop
            elif name == "C":
                comment = _text(prop.values[0])
            elif name in _SETUP:
                if name == "CV" and prop.values[0].strip() == "1" and len(prop.values) == 1:
                    continue
                raise self.where(prop).error(
                    f"{name}[...]: setting up a position or the cube is not supported"
                )
            else:
                annotations[name] = list(prop.values)
        if move is not None:
            if dice is not None or player_prop is not None:
                raise self.where(dice or player_prop).error("PL/DI and a move in the same node")
            self.move(move, state)
        elif dice is not None:
            self.set_dice(dice, player_prop, state)
        elif player_prop is not None:
            player = self.player_of(player_prop)
            if player != state.turn:
                raise self.where(player_prop).error(
                    f"PL[{player_prop.values[0]}]: changing the player on roll is not supported"
                )
        if comment or annotations:
            if state.acted:
                self.visitor.annotate(comment or None, annotations, self.where(node))
            elif annotations:
                names = ", ".join(annotations)
                raise self.where(node).error(f"{names} before the game's first action")
            elif comment:
                self.visitor.comment(comment, self.where(node))

    def player_of(self, prop: SgfProperty) -> int:
        value = prop.values[0].strip()
        if value not in _COLOURS:
            raise self.where(prop).error(f"{prop.name}[{value}]: expected W or B")
        return _COLOURS.index(value)

    def set_dice(
        self, prop: SgfProperty, player_prop: SgfProperty | None, state: _GameState
    ) -> None:
        where = self.where(prop)
        match = _DICE_TEXT.match(prop.values[0].strip())
        if match is None:
            raise where.error(f"DI[{prop.values[0]}]: expected two dice 1-6 such as DI[64]")
        player = state.turn if player_prop is None else self.player_of(player_prop)
        if player is None:
            raise where.error("DI[...] before the first move needs PL[W] or PL[B]")
        dice = (int(match.group(1)), int(match.group(2)))
        self.check_can_roll(player, dice, state, where)
        self.visitor.roll(player, dice, where)
        state.turn = player
        state.dice = Roll(*dice)
        state.acted = True

    def check_can_roll(
        self, player: int, dice: tuple[int, int], state: _GameState, where: Location
    ) -> None:
        if state.turn is None and dice[0] == dice[1]:
            raise where.error(f"the opening roll cannot be a double ({dice[0]}-{dice[1]})")
        if state.outcome is not None:
            raise where.error("an action after the end of the game")
        if state.turn is not None and state.turn != player:
            raise where.error(f"{_COLOURS[player]} rolls, but it is {_COLOURS[state.turn]}'s turn")
        if state.pending is not None:
            if state.pending[0] == "double":
                raise where.error("a roll while a double waits for take or drop")
            state.pending = None  # rolling on accepts a beaver or raccoon
        if state.dice is not None:
            raise where.error(f"the dice are rolled twice ({state.dice} not played)")

    def move(self, prop: SgfProperty, state: _GameState) -> None:
        where = self.where(prop)
        player = _COLOURS.index(prop.name)
        if len(prop.values) != 1:
            raise where.error(f"{prop.name}[...] has {len(prop.values)} values; expected one")
        word = prop.values[0].strip()
        if state.outcome is not None:
            raise where.error(f"{prop.name}[{word}] after the end of the game")
        if word in ("double", "take", "drop"):
            self.cube(player, word, prop, state)
            return
        match = _MOVE_TEXT.match(word)
        if match is None or len(match.group(3)) % 2 or len(match.group(3)) > 8:
            raise where.error(
                f"{prop.name}[{word}]: expected double, take, drop, or two dice 1-6 and up "
                "to four from/to pairs of letters a-z (e.g. B[64aggk])"
            )
        dice = (int(match.group(1)), int(match.group(2)))
        roll = Roll(*dice)
        letters = match.group(3)
        if state.dice is not None and state.turn == player:
            if sorted(state.dice) != sorted(dice):
                raise where.error(
                    f"{prop.name}[{word}]: the dice were set to {state.dice} (DI) before"
                )
            roll = state.dice
        else:
            self.check_can_roll(player, dice, state, where)
            self.visitor.roll(player, dice, where)
            state.turn = player
            state.acted = True
        pairs = [
            (_point(letters[index], player), _point(letters[index + 1], player))
            for index in range(0, len(letters), 2)
        ]
        view = state.position if player == 0 else state.position.flip()
        play = self.resolve(view, roll, pairs, f"{prop.name}[{word}]", state.variant, where)
        self.visitor.play(player, play, where)
        state.dice = None
        result = play.position
        kind = outcome_of(result, state.variant)
        if kind is not None:
            jacoby = state.rules.jacoby and state.length == 0 and state.owner is None
            state.outcome = (player, state.cube * (1 if jacoby else int(kind)))
        state.position = result if player == 0 else result.flip()
        state.turn = 1 - player

    def resolve(
        self,
        view: Position,
        roll: Roll,
        pairs: list[tuple[int, int]],
        text: str,
        variant: Variant,
        where: Location,
    ) -> Play:
        try:
            plays = legal_plays(view, roll, variant)
        except BackgammonError as error:  # pragma: no cover - positions come from plays
            raise where.error(f"{text}: {error}") from None
        if not pairs:
            if plays:
                raise where.error(
                    f"{text}: no checker is moved, but {roll} can be played "
                    f"(for example {plays[0]})"
                )
            return Play.no_move(view)
        own, opponent = list(view.player), list(view.opponent)
        steps: list[tuple[int, int, bool]] = []
        for source, destination in pairs:
            if source == _OFF or destination == _BAR or destination >= source:
                raise where.error(
                    f"{text}: a checker cannot move from {_name(source)} to {_name(destination)}"
                )
            if not own[source]:
                raise where.error(f"{text}: no checker to move on {_name(source)}")
            hit = False
            if destination != _OFF:
                facing = 25 - destination
                if opponent[facing] > 1:
                    raise where.error(f"{text}: point {destination} is held by the opponent")
                if opponent[facing] == 1:
                    opponent[facing] = 0
                    opponent[_BAR] += 1
                    hit = True
            own[source] -= 1
            own[destination] += 1
            steps.append((source, destination, hit))
        mine, theirs = tuple(own), tuple(opponent)
        same_side = [play for play in plays if play.position.player == mine]
        exact = [play for play in same_side if play.position.opponent == theirs]
        if exact:
            chosen = exact[0]
            if [(step.source, step.destination, step.hit) for step in chosen.steps] == steps:
                return chosen
            labelled = _label_dice(steps, roll)  # keep the file's order of the steps
            return chosen if labelled is None else Play(labelled, chosen.position)
        if len(same_side) == 1:  # pairs that skip a die's landing point
            return same_side[0]
        raise where.error(f"{text} is not a legal play of {roll} here")

    def cube(self, player: int, word: str, prop: SgfProperty, state: _GameState) -> None:
        where = self.where(prop)
        meaning = _cube_word(state.pending, player, word)
        if meaning is None:
            if word == "drop" and state.pending is not None and state.pending[0] != "double":
                raise where.error(
                    f"{prop.name}[drop]: refusing a beaver or raccoon is not in the rules"
                )
            raise where.error(f"{prop.name}[{word}]: no {word} is possible here")
        if state.dice is not None:
            raise where.error(f"{prop.name}[{word}] after rolling ({state.dice} not played)")
        pending = state.pending
        state.pending = _next_pending(pending, player, meaning)
        action: CubeEvent
        if meaning == "accept":
            return
        if meaning == "double":
            action = Double()
        elif meaning == "beaver":
            action = Beaver()
            state.cube *= 4
            state.owner = player
        elif meaning == "raccoon":
            action = Raccoon()
            state.cube *= 2
        elif meaning == "take":
            action = Take()
            state.cube *= 2
            state.owner = player
        else:
            action = Drop()
            assert pending is not None
            state.outcome = (pending[1], state.cube)
        self.visitor.cube(player, action, where)
        state.acted = True

    def end(self, root: SgfNode, tree: SgfTree, state: _GameState) -> None:
        prop = root.get("RE")
        where = (
            self.where(prop)
            if prop is not None
            else Location(self.path, tree.end_line, tree.end_column)
        )
        winner: int | None = None
        points: int | None = None
        resigned = False
        if prop is not None:
            value = prop.values[0].strip()
            match = _RESULT.match(value)
            if match is not None:
                winner = _COLOURS.index(match.group(1).upper())
                points = int(match.group(2)) if match.group(2) else None
                resigned = match.group(3) is not None
                if (points is None and not resigned) or points == 0:
                    raise where.error(f"RE[{value}]: expected the points won, e.g. RE[W+2]")
            elif value not in _NO_RESULT:
                raise where.error(
                    f"RE[{value}]: expected W+points or B+points, R after them for a "
                    "resignation (e.g. RE[B+2R])"
                )
        if state.outcome is None and winner is not None:
            if not resigned:
                raise where.error(
                    f"RE says {_COLOURS[winner]} wins, but the game is not over after its last move"
                )
            points = self.resign(winner, points, state, where)
        self.visitor.end_game(winner, points, where)
        outcome = state.outcome
        if outcome is not None:
            score = list(self.score)
            score[outcome[0]] += outcome[1]
            self.score = (score[0], score[1])

    def resign(self, winner: int, points: int | None, state: _GameState, where: Location) -> int:
        """Push the loser's resignation and its acceptance; return the points scored
        (``points`` is what was resigned: the cube times 1, 2 or 3, before Jacoby).
        Before the first move either player may resign (eXtreme Gammon and servers
        record such games); after it, only the player on roll."""
        loser = 1 - winner  # before the first move (state.turn None) either may resign
        if state.pending is not None:
            raise where.error("a resignation (RE[..R]) while a cube decision is pending")
        if state.turn is not None and state.turn != loser:
            raise where.error(
                f"{_COLOURS[loser]} resigns (RE[..R]), but only the player on roll "
                f"({_COLOURS[state.turn]}) may resign"
            )
        level = 1
        if points is not None:
            level, rest = divmod(points, state.cube)
            if rest or not 1 <= level <= 3:
                raise where.error(
                    f"a resignation for {points} points with the cube at {state.cube}: "
                    "expected 1, 2 or 3 times the cube"
                )
        jacoby = state.rules.jacoby and state.length == 0 and state.owner is None
        scored = state.cube * (1 if jacoby else level)
        self.visitor.resign(loser, Resign(ResignLevel(level)), where)
        self.visitor.resign(winner, AcceptResignation(), where)
        state.outcome = (winner, scored)
        return scored


def _name(point: int) -> str:
    return "the bar" if point == _BAR else "off" if point == _OFF else f"point {point}"


def _label_dice(steps: list[tuple[int, int, bool]], roll: Roll) -> list[Step] | None:
    """The steps with the die each used, or ``None`` if the pairs do not use the
    dice one by one (then the generated play's steps are used)."""
    left = list(roll.moves)
    dice: list[int | None] = []
    for source, destination, _ in steps:
        if destination == _OFF:
            dice.append(None)
            continue
        die = source - destination
        if die not in left:
            return None
        left.remove(die)
        dice.append(die)
    for index, (source, destination, _) in enumerate(steps):
        if destination != _OFF:
            continue
        larger = [die for die in left if die >= source]
        if not larger:
            return None
        die = source if source in left else min(larger)
        left.remove(die)
        dice[index] = die
    return [
        Step(source, die, hit)
        for (source, _, hit), die in zip(steps, dice, strict=True)
        if die is not None
    ]


def _scan_beavers(nodes: Sequence[SgfNode]) -> tuple[bool, bool]:
    """Whether a game's moves contain a beaver and a raccoon (rules for the match)."""
    pending: tuple[str, int] | None = None
    beaver = raccoon = False
    for node in nodes[1:]:
        for name in ("W", "B"):
            prop = node.get(name)
            if prop is None:
                continue
            player = _COLOURS.index(name)
            word = prop.values[0].strip()
            if word not in ("double", "take", "drop"):
                pending = None
                continue
            meaning = _cube_word(pending, player, word)
            beaver = beaver or meaning == "beaver"
            raccoon = raccoon or meaning == "raccoon"
            pending = _next_pending(pending, player, meaning or "")
    return beaver, raccoon


def _text(value: str) -> str:
    """A Text value: line breaks as ``\\n``, other white space as spaces."""
    value = value.replace("\r\n", "\n").replace("\n\r", "\n").replace("\r", "\n")
    return re.sub(r"[^\S\n]", " ", value)


def _simple(prop: SgfProperty | None, default: str) -> str:
    """A SimpleText value (names): white space as spaces."""
    if prop is None:
        return default
    return re.sub(r"\s", " ", prop.values[0])


def read_sgf(text: str, visitor: MatchVisitor, *, path: str | None = None) -> None:
    """Stream a GNU Backgammon SGF match (one game tree per game) into ``visitor``.

    Calls, in file order: ``begin_match`` (from the first game's root), ``comment``
    for the match comment (``GC``); per game ``begin_game`` (number counted from 1,
    score from ``MI[ws:][bs:]``), ``comment`` for a root ``C``, then per node ``roll``
    and ``play`` (a :class:`~backgammon.rules.play.Play` with the file's steps) or
    ``cube``, then ``annotate`` with the node's comment and raw analysis properties;
    a resignation recorded in ``RE`` as ``resign`` twice (offer, acceptance);
    ``end_game`` with the winner and points of ``RE``; finally ``end_match``. Player 0
    is White (``PW``), as in the module docstring. ``text`` is already decoded (GNU
    Backgammon writes UTF-8 and says so in ``CA[UTF-8]``).

    Raises:
        MatchFileError: for malformed SGF, a game that is not backgammon, moves that
            are not legal plays, results that contradict the moves, and anything this
            format cannot express in the record (set-up positions, automatic doubles);
            with the path, line and column. Errors raised by ``visitor`` propagate.
    """
    trees = parse_sgf(text, path=path)
    _Reader(visitor, path).run(trees)
