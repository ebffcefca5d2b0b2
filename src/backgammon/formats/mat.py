"""Jellyfish ``.mat`` match files: the text format that GNU Backgammon, eXtreme Gammon,
Jellyfish, BGBlitz and FIBS export.

:func:`read_mat` streams a file through a :class:`~backgammon.formats.record.MatchVisitor`
(pair it with :class:`~backgammon.formats.record.RecordBuilder` to replay it through the
rules); :class:`MatWriter` and :func:`write_mat` write one the way GNU Backgammon does
(they live in :mod:`~backgammon.formats.mat_writer`, and are exported here too).

>>> from backgammon.formats.record import RecordBuilder
>>> builder = RecordBuilder()
>>> read_mat(''' 3 point match
...
...  Game 1
...  Alice : 0                      Bob : 0
...   1) 31: 8/5 6/5                 64: 24/18 18/14
...   2)  Doubles => 2                Drops
...       Wins 1 point
... ''', builder)
>>> record = builder.record
>>> record.players, record.score
(('Alice', 'Bob'), (1, 0))
>>> for line in write_mat(record).splitlines():
...     print(line.rstrip())
<BLANKLINE>
 3 point match
<BLANKLINE>
 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 64: 24/18 18/14
  2)  Doubles => 2                Drops
      Wins 1 point
<BLANKLINE>

The format
==========

There is no formal definition. Sources: what GNU Backgammon 1.07 writes (``export.c``:
``ExportMatchMat``, ``ExportGameJF``) and reads (``import.c``: ``ImportMatVariation``,
``ImportGame``, ``ParseMatMove``; https://savannah.gnu.org/projects/gnubg), the matches it
exported in ``tests/data/reference/formats`` (with their SGF), and files from other programs:
GammonSite, BGBlitz and older gnubg in https://github.com/andrewbaine/td-gammon
(``test_data/``), and XG Mobile's header tags. A file is::

    ; [Site "GammonSite"]                 header tags, one per line (all optional)
    ; [EventDate "2011.07.22"]
    ; a free comment                      other ';' (or '#') lines: the match comment

     25 point match                       the length; 0 for a money session

     Game 1                               games, numbered from 1
     Fabio : 0                      Takumitsu : 0          names and score before it
      1)                             53: 6/3 8/3
      2) 31: 6/5 8/5                 62: 13/11 24/18
      3)  Doubles => 2                Takes
     ...
     31) 21: 1/0 2/0
          Wins 2 points

* **Columns.** Each numbered line holds one action of the left player (player 0, named
  first) and one of the right player. GNU Backgammon writes ``"%3d) %-27s "`` for the
  left and the right action from column 34; XG uses other widths. This reader splits a
  line into actions by their first word (a roll ``64:`` or a keyword) and puts a lone
  action in the right column when it starts after column 16 (GNU Backgammon's rule). A
  line with no number holds only ``Wins``.
* **Rolls and moves.** ``64: 24/18 18/14``: the dice (either order), then one
  ``from/to`` per checker step in the mover's numbering, 25 for the bar, 0 for off, ``*``
  on a step that hits. GNU Backgammon writes the steps in the order its move generator
  found them and a space after each of the first three. Other writers compress moves
  (``13/7``, ``6/off(2)``); any notation that
  :func:`~backgammon.notation.play_text.parse_play_text` reads is accepted. Some mark no
  hits (GammonSite), so a step that continues an earlier one is read as one route
  (``17/12 12/10`` went through 12, and hit there if it could). The game's
  first roll is the opening roll of whichever player starts (GNU Backgammon leaves the
  left column of line 1 empty when the right player starts). Nothing after the dice
  means no legal move (XG writes ``Cannot Move``) -- unless the same player resigns
  next: GNU Backgammon writes a roll followed by a resignation that way (XG writes
  ``???``), and a roll at the very end of an unfinished file is a roll not yet played.
* **Cube.** `` Doubles => 2``, `` Takes``, `` Drops``. The value after ``=>`` is the new
  cube value and is checked. Beavers (money play) are `` Beavers => 4`` by the doubled
  player (the doubler's next roll means he accepted it) and `` Raccoons => 8`` by the
  doubler; GNU Backgammon writes both as `` Doubles => n`` and follows them with
  `` Takes`` from the other side, which this reader also accepts. A beaver cannot be
  dropped in our rules.
* **End of a game.** ``Wins n point(s)`` (some writers add ``and the match``, GammonSite
  writes ``Wins 2 point``) in the winner's column, after the last move or after a
  ``Drops`` (on the same line when the left player drops). When neither ended the game,
  the loser resigned: GNU Backgammon records only accepted resignations, so ``Wins``
  becomes ``Resign`` (single, gammon or backgammon from ``n`` and the cube) and
  ``AcceptResignation``. Our rules let only the player on roll resign, or either
  player before the opening roll: a game whose only line is an empty ``1)`` and a
  ``Wins`` line (as a server writes a game resigned at once) is the loser's
  resignation.
* **Header tags** become :attr:`MatchInfo.metadata` with lower-case keys, except:
  ``Site`` -> ``"place"``, ``Transcriber`` -> ``"annotator"``, ``EventDate``
  (``YYYY.MM.DD``) -> ``"date"`` (``YYYY-MM-DD``); ``Variation`` (``Backgammon``,
  ``NackGammon``, ``HyperGammon (3)``) sets the variant; ``Crawford``, ``Jacoby``,
  ``Beaver`` and ``Raccoon`` (``"On"``/``"Off"``, our own tag for raccoons) and
  ``CubeLimit`` set :attr:`MatchInfo.rules`. The players' names come from the score
  line of the first game; every game must name the same players.
* **Writing** follows ``ExportGameJF`` to the character: ``"%3d) %-27s "`` for the left
  column, the right column from column 34, `` %-31s`` on the score line, blank lines
  after each game, the tags GNU Backgammon writes (plus ``Crawford``, ``Jacoby``,
  ``Beaver``, ``Raccoon``, ``CubeLimit`` and other metadata when they say something).
  Written from a record that keeps GNU Backgammon's order of steps (its SGF does), the
  text is GNU Backgammon's own export, byte for byte.
* **Not representable** in the format, so not written: comments on games and actions,
  rejected resignations, tied opening throws and automatic doubles, a cube that is not
  used at all, the Holland rule; GNU Backgammon's ``Illegal play`` records and XG's
  ``; Set Pos=`` set-ups are refused.

Reading is strict: anything malformed raises :class:`~backgammon.errors.MatchFileError`
with the path, line and column and what was expected. An ``on_error`` callable makes it
lenient line by line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from backgammon.errors import InvalidNotationError, MatchFileError
from backgammon.formats.mat_writer import MatWriter, write_mat
from backgammon.formats.record import CubeEvent, Location, MatchInfo, MatchVisitor
from backgammon.notation.play_text import OFF_POINT, parse_play_text
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
from backgammon.rules.variant import STANDARD
from backgammon.variants import find as find_variant

__all__ = ["NO_MOVE", "MatWriter", "read_mat", "write_mat"]

NO_MOVE = "Ø"
"""The move text passed to :meth:`MatchVisitor.play` for a roll with nothing after it."""

# Where the right column starts at the latest when a line holds one action (0-based),
# as GNU Backgammon's importer decides.
_RIGHT_COLUMN = 16

# A header tag, ``; [Name "value"]``. Linear: the name part runs to the first quote
# (no backtracking over it) and is checked apart (:func:`_tag_name`); a lazy name
# followed by ``\s+`` backtracked quadratically over a long unquoted line.
_TAG = re.compile(r'[;#]\s*\[\s*([A-Za-z][^"]*)"(.*)"\s*\]')
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9 _.-]*")
_LENGTH = re.compile(r"([0-9]{1,9})\s+point\s+match", re.IGNORECASE)
_GAME = re.compile(r"game\s+([0-9]{1,9})", re.IGNORECASE)
_NUMBER = re.compile(r"\s*([0-9]{1,9})\)")
_TOKEN = re.compile(r"\S+")
_DICE_LIKE = re.compile(r"[0-9]+:")
_DICE = re.compile(r"([1-6])([1-6]):")
_COUNT = re.compile(r"[0-9]{1,9}")
_STEP = re.compile(r"([0-9]{1,2})/([0-9]{1,2}\*?)")
_SCORE_LEFT = re.compile(r":\s*([0-9]{1,9})\s+")
_SCORE_RIGHT = re.compile(r":\s*([0-9]{1,9})\s*$")
_DATE = re.compile(r"([0-9]{4})\.([0-9]{1,2})\.([0-9]{1,2})")

_KEYWORDS = {
    "double": "double",
    "doubles": "double",
    "take": "take",
    "takes": "take",
    "drop": "drop",
    "drops": "drop",
    "beaver": "beaver",
    "beavers": "beaver",
    "raccoon": "raccoon",
    "raccoons": "raccoon",
    "win": "wins",
    "wins": "wins",
}

# Tags with a metadata key of their own (others: the tag name in lower case).
_TAG_KEYS = {"site": "place", "transcriber": "annotator", "eventdate": "date"}

_EXPECTED_ACTION = (
    "a roll and its moves ('64: 24/18 13/9'), 'Doubles => n', 'Takes', 'Drops', "
    "'Beavers => n', 'Raccoons => n' or 'Wins n points'"
)


# -- reading ---------------------------------------------------------------------------


class _LineError(Exception):
    """A malformed line (the reader hands it to ``on_error`` or raises its error)."""

    def __init__(self, error: MatchFileError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    index: int  # 0-based position in the line


@dataclass(slots=True)
class _Action:
    kind: str  # "roll", "double", "take", "drop", "beaver", "raccoon", "wins"
    tokens: list[_Token]

    @property
    def index(self) -> int:
        return self.tokens[0].index


@dataclass(slots=True)
class _Pending:
    """A roll with nothing after it, not yet reported as a play."""

    player: int
    where: Location


def read_mat(
    text: str,
    visitor: MatchVisitor,
    *,
    path: str | None = None,
    on_error: Callable[[MatchFileError], None] | None = None,
) -> None:
    """Stream a ``.mat`` file through ``visitor``, calling its hooks in file order.

    Player 0 is the left column (named first on the score lines). Each hook gets the
    :class:`~backgammon.formats.record.Location` of what it reports: ``begin_match`` the
    ``N point match`` line (it is called just before the first game, when the players'
    names are known), ``begin_game`` the score line, ``roll`` the dice, ``play`` the
    first move, ``cube``, ``resign`` and ``end_game`` their keyword, ``end_match`` the
    end of the text. The text given to ``play`` is the file's, with each step that
    continues an earlier one joined to it (``24/18 18/14`` -> ``24/18/14``, so that the
    route and any unmarked hit on it are kept), or :data:`NO_MOVE`. A game still
    unfinished at the end of the text gets ``end_game(None, None, ...)``.

    Args:
        text: the whole file.
        visitor: receives the hooks; :class:`RecordBuilder` checks every action
            against the rules.
        path: the file name to report in errors.
        on_error: called with the error for a malformed line; if it returns, the rest
            of that line is skipped and reading goes on (leniency). Errors raised by the
            visitor, bad header tag values and a text that ends too early are never
            passed to it.

    Raises:
        MatchFileError: for malformed text (with the line, column and what was
            expected), or whatever the visitor raises (the builder's rule errors are
            ``MatchFileError`` too).
    """
    _Reader(text, visitor, path, on_error).run()


class _Reader:
    def __init__(
        self,
        text: str,
        visitor: MatchVisitor,
        path: str | None,
        on_error: Callable[[MatchFileError], None] | None,
    ) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
        self.visitor = visitor
        self.path = path
        self.on_error = on_error
        self.phase = "header"  # header, match, score, game, over
        self.tags: dict[str, tuple[str, str, Location]] = {}  # key -> (tag, value, where)
        self.comments: list[str] = []
        self.comment_where: Location | None = None
        self.length = 0
        self.length_where = Location(path, 1, 1)
        self.info: MatchInfo | None = None
        self.game = 0
        self._reset_game()

    def _reset_game(self) -> None:
        self.next_number = 1
        self.cube = 1
        self.offered = 1
        # None, ("double", doubler), ("beaver", doubler), ("raccoon", doubler)
        self.cube_state: tuple[str, int] | None = None
        self.borne_off = [0, 0]
        self.ended: str | None = None  # "drop" or "borne off" before the Wins line
        self.pending: _Pending | None = None

    # -- helpers ---------------------------------------------------------------------

    def at(self, line: int, index: int) -> Location:
        return Location(self.path, line, index + 1)

    def fail(self, where: Location, message: str) -> _LineError:
        return _LineError(where.error(message))

    def end(self) -> Location:
        last = self.lines[-1]
        return Location(self.path, len(self.lines), len(last) + 1)

    # -- driver ----------------------------------------------------------------------

    def run(self) -> None:
        for number, line in enumerate(self.lines, 1):
            try:
                self.line(number, line)
            except _LineError as problem:
                if self.on_error is None:
                    raise problem.error from None
                self.on_error(problem.error)
        self.finish()

    def finish(self) -> None:
        where = self.end()
        if self.phase == "header":
            raise where.error(
                "the text ends before the match length: expected a line like ' 5 point match'"
            )
        if self.phase == "score":
            raise where.error(
                f"the text ends before the score line of game {self.game}: expected "
                "'name : n    name : n'"
            )
        if self.phase == "match":
            self.begin_match(None)
        elif self.phase == "game":
            self.close_game(where, at_end=True)
        self.visitor.end_match(where)

    def line(self, number: int, line: str) -> None:
        stripped = line.strip()
        if not stripped:
            return
        first = len(line) - len(line.lstrip())
        where = self.at(number, first)
        if self.phase == "header":
            self.header_line(stripped, where)
            return
        if stripped[0] in ";#":
            self.comment_line(stripped, where)
            return
        game = _GAME.fullmatch(stripped)
        if game is not None:
            self.game_line(int(game.group(1)), where)
            return
        if self.phase == "match":
            raise self.fail(where, f"expected ' Game 1', got {_quote(stripped)}")
        if self.phase == "score":
            self.score_line(number, line, where)
        elif self.phase == "over":
            raise self.fail(
                where,
                f"game {self.game} has ended ('Wins' was read): expected ' Game "
                f"{self.game + 1}', got {_quote(stripped)}",
            )
        else:
            self.move_line(number, line)

    # -- header ----------------------------------------------------------------------

    def header_line(self, stripped: str, where: Location) -> None:
        if stripped[0] in ";#":
            tag = _TAG.fullmatch(stripped)
            if tag is not None and not _tag_name(tag.group(1)):
                tag = None
            if tag is None:
                if self.comment_where is None:
                    self.comment_where = where
                text = stripped[1:].strip()
                if text:
                    self.comments.append(text)
                return
            name, value = tag.group(1).strip(), tag.group(2)
            key = " ".join(name.lower().split())
            self.tags[_TAG_KEYS.get(key, key)] = (name, value, where)
            return
        length = _LENGTH.fullmatch(stripped)
        if length is None:
            raise self.fail(
                where,
                "expected the match length (' 5 point match') or a header line "
                f"('; [Tag \"value\"]'), got {_quote(stripped)}",
            )
        self.length = int(length.group(1))
        self.length_where = where
        self.phase = "match"
        self.make_info()

    def make_info(self) -> None:
        """Turn the header tags into rules, variant and metadata (players come later)."""
        settings: dict[str, bool] = {}
        max_cube: int | None = None
        variant = STANDARD
        metadata: dict[str, str] = {}
        for key, (name, value, where) in self.tags.items():
            if key in ("crawford", "jacoby", "beaver", "raccoon"):
                switch = value.strip().lower()
                if switch not in ("on", "off"):
                    raise where.error(f'[{name} "{value}"]: expected "On" or "Off"')
                settings[key] = switch == "on"
            elif key == "cubelimit":
                limit = value.strip()
                if (
                    _COUNT.fullmatch(limit) is None
                    or int(limit) < 1
                    or int(limit) & (int(limit) - 1)
                ):
                    raise where.error(f'[{name} "{value}"]: expected a power of two such as "1024"')
                max_cube = int(limit)
            elif key == "variation":
                try:
                    variant = find_variant(value.replace("(", " ").replace(")", " "))
                except KeyError:
                    raise where.error(
                        f'[{name} "{value}"]: expected a variation such as "Backgammon", '
                        '"NackGammon" or "HyperGammon (3)"'
                    ) from None
            elif key == "date":
                date = _DATE.fullmatch(value.strip())
                metadata[key] = (
                    f"{date.group(1)}-{int(date.group(2)):02d}-{int(date.group(3)):02d}"
                    if date is not None
                    else value
                )
            else:
                metadata[key] = value
        if settings.get("raccoon") and not settings.get("beaver"):
            where = self.tags["raccoon"][2]
            raise where.error('[Raccoon "On"] needs [Beaver "On"]')
        rules = CubeRules(
            beavers=settings.get("beaver", False),
            raccoons=settings.get("raccoon", False),
            jacoby=settings.get("jacoby", False),
            crawford=settings.get("crawford", True),
            max_cube=max_cube,
        )
        self.info = MatchInfo(self.length, rules=rules, variant=variant, metadata=metadata)

    def begin_match(self, players: tuple[str, str] | None) -> None:
        assert self.info is not None
        info = self.info
        if players is None:
            metadata = info.metadata
            players = (metadata.get("player 1", "Player 1"), metadata.get("player 2", "Player 2"))
        self.info = info = replace(info, players=players)
        self.visitor.begin_match(info, self.length_where)
        if self.comments:
            assert self.comment_where is not None
            self.visitor.comment("\n".join(self.comments), self.comment_where)

    def comment_line(self, stripped: str, where: Location) -> None:
        text = stripped[1:].strip()
        if text.lower().startswith("set pos="):
            raise self.fail(where, "XG's '; Set Pos=' (a position set up by hand) is not supported")
        if self.phase == "score":
            raise self.fail(
                where, f"expected the score line of game {self.game}, got {_quote(stripped)}"
            )
        if self.phase == "match":
            if self.comment_where is None:
                self.comment_where = where
            if text:
                self.comments.append(text)
        elif text:
            self.visitor.comment(text, where)

    # -- games -----------------------------------------------------------------------

    def game_line(self, number: int, where: Location) -> None:
        if self.phase == "score":
            raise self.fail(where, f"game {self.game} has no score line ('name : n   name : n')")
        if number != self.game + 1:
            raise self.fail(where, f"expected ' Game {self.game + 1}', got ' Game {number}'")
        if self.phase == "game":
            self.close_game(where)
        self.game = number
        self.phase = "score"

    def close_game(self, where: Location, *, at_end: bool = False) -> None:
        """End an unfinished game (the text stops, or the next game starts)."""
        pending = self.pending
        self.pending = None
        if pending is not None and not at_end:
            # At the end of the text a bare roll is a roll not yet played.
            self.visitor.play(pending.player, NO_MOVE, pending.where)
        self.visitor.end_game(None, None, where)

    def score_line(self, number: int, line: str, where: Location) -> None:
        right = _SCORE_RIGHT.search(line)
        left = _SCORE_LEFT.search(line, 0, right.start()) if right is not None else None
        names: tuple[str, str] | None = None
        if right is not None and left is not None:
            names = (line[: left.start()].strip(), line[left.end() : right.start()].strip())
        if names is None or left is None or right is None or not all(names):
            raise self.fail(
                where,
                f"expected the score line of game {self.game}, 'name : n    name : n', got "
                f"{_quote(line.strip())}",
            )
        score = (int(left.group(1)), int(right.group(1)))
        if self.game > 1:
            assert self.info is not None
            if names != self.info.players:
                raise self.fail(
                    where,
                    f"expected the players {self.info.players[0]!r} and "
                    f"{self.info.players[1]!r} (as in game 1), got {names[0]!r} and {names[1]!r}",
                )
        else:
            self.begin_match(names)
        self._reset_game()
        self.phase = "game"
        self.visitor.begin_game(self.game, score, where)

    # -- move lines ------------------------------------------------------------------

    def move_line(self, number: int, line: str) -> None:
        numbered = _NUMBER.match(line)
        start = 0
        if numbered is not None:
            start = numbered.end()
            value = int(numbered.group(1))
            if value != self.next_number:
                raise self.fail(
                    self.at(number, numbered.start(1)),
                    f"expected move number {self.next_number}), got {value})",
                )
            self.next_number += 1
        # A numbered line left empty: after a drop or the last checker off, and as the
        # first line of a game resigned before its opening roll (a server's files).
        actions = self.split(number, line, start, empty_ok=self.next_number == 2)
        if not actions:
            return
        if numbered is None and any(action.kind != "wins" for action in actions):
            raise self.fail(
                self.at(number, actions[0].index),
                f"expected a move number like '{self.next_number:3d})' at the start of the line",
            )
        if len(actions) > 2:
            raise self.fail(
                self.at(number, actions[2].index),
                "expected at most two actions on a line (one for each player), got a third",
            )
        if len(actions) == 2:
            if actions[1].index < _RIGHT_COLUMN:
                raise self.fail(
                    self.at(number, actions[1].index),
                    f"expected the right column to start after column {_RIGHT_COLUMN}",
                )
            players = [0, 1]
        else:
            players = [0 if actions[0].index < _RIGHT_COLUMN else 1]
        for player, action in zip(players, actions, strict=False):
            self.action(number, player, action)

    def split(self, number: int, line: str, start: int, *, empty_ok: bool = False) -> list[_Action]:
        actions: list[_Action] = []
        for match in _TOKEN.finditer(line, start):
            token = _Token(match.group(), match.start())
            kind = _KEYWORDS.get(token.text.lower())
            if kind is None and _DICE_LIKE.fullmatch(token.text):
                kind = "roll"
            if kind is not None:
                actions.append(_Action(kind, [token]))
            elif actions:
                actions[-1].tokens.append(token)
            else:
                raise self.fail(
                    self.at(number, token.index),
                    f"expected {_EXPECTED_ACTION}, got {_quote(token.text)}",
                )
        if not actions and self.ended is None and not empty_ok:
            raise self.fail(self.at(number, start), f"expected {_EXPECTED_ACTION} after the number")
        return actions

    def action(self, number: int, player: int, action: _Action) -> None:
        where = self.at(number, action.index)
        if self.phase == "over":
            raise self.fail(where, f"game {self.game} has ended: expected nothing after 'Wins'")
        pending = self.pending
        resigns = action.kind == "wins" and self.ended is None
        if pending is not None and not (resigns and player != pending.player):
            self.pending = None
            self.visitor.play(pending.player, NO_MOVE, pending.where)
        if self.ended is not None and action.kind != "wins":
            what = "the double was dropped" if self.ended == "drop" else "the game is won"
            raise self.fail(where, f"{what}: expected 'Wins n points', got {_quote(action)}")
        if action.kind == "roll":
            self.roll(number, player, action, where)
        elif action.kind == "wins":
            self.wins(player, action, where)
        else:
            self.cube_action(player, action, where)

    def roll(self, number: int, player: int, action: _Action, where: Location) -> None:
        dice = _DICE.fullmatch(action.tokens[0].text)
        if dice is None:
            raise self.fail(
                where, f"expected two dice of 1-6 like '64:', got {_quote(action.tokens[0].text)}"
            )
        if self.cube_state is not None and self.cube_state[0] in ("beaver", "raccoon"):
            self.cube_state = None  # rolling on accepts the beaver (or raccoon)
        self.visitor.roll(player, (int(dice.group(1)), int(dice.group(2))), where)
        moves = action.tokens[1:]
        words = [token.text for token in moves]
        lowered = [word.lower() for word in words]
        if lowered == ["cannot", "move"]:
            self.visitor.play(player, NO_MOVE, self.at(number, moves[0].index))
            return
        if not moves or all(set(word) == {"?"} for word in words):
            self.pending = _Pending(player, where)
            return
        text = " ".join(words)
        move_where = self.at(number, moves[0].index)
        try:
            parsed = parse_play_text(text)
        except InvalidNotationError as error:
            raise self.fail(move_where, f"expected moves like '24/18 13/9': {error}") from None
        if parsed.roll is not None:
            raise self.fail(move_where, f"expected moves like '24/18 13/9', got {_quote(text)}")
        self.borne_off[player] += sum(
            move.repeat for move in parsed.moves if move.path[-1] == OFF_POINT
        )
        self.visitor.play(player, _chained(words), move_where)
        assert self.info is not None
        variant = self.info.variant
        if self.borne_off[player] >= variant.checkers or (
            variant.first_hit and any(any(move.hits) for move in parsed.moves)
        ):
            self.ended = "borne off"

    def cube_action(self, player: int, action: _Action, where: Location) -> None:
        kind = action.kind
        words = [token.text for token in action.tokens]
        value: int | None = None
        if kind in ("double", "beaver", "raccoon"):
            if len(words) != 3 or words[1] != "=>" or _COUNT.fullmatch(words[2]) is None:
                raise self.fail(
                    where, f"expected '{words[0].capitalize()} => n', got {_quote(action)}"
                )
            value = int(words[2])
        elif len(words) != 1:
            raise self.fail(
                Location(self.path, where.line, action.tokens[1].index + 1),
                f"expected nothing after {words[0]!r} in its column, got {_quote(words[1])}",
            )
        state = self.cube_state
        if kind == "double" and state is not None and state[0] == "double" and state[1] != player:
            kind = "beaver"  # GNU Backgammon writes a beaver as a redouble
        elif kind == "double" and state is not None and state[0] == "beaver" and state[1] == player:
            kind = "raccoon"
        expected = {"double": self.cube * 2, "beaver": self.offered * 2}.get(kind, self.cube * 2)
        if value is not None and value != expected:
            raise self.fail(
                where,
                f"expected '{words[0]} => {expected}' (the cube is at {self.cube}), got "
                f"{_quote(action)}",
            )
        event: CubeEvent | None
        if kind == "double":
            event = Double()
            self.cube_state = ("double", player)
            self.offered = expected
        elif kind == "beaver":
            event = Beaver()
            self.cube = expected
            self.cube_state = ("beaver", 1 - player)
        elif kind == "raccoon":
            event = Raccoon()
            self.cube = expected
            self.cube_state = ("raccoon", player)
        elif kind == "take":
            event = Take()
            if state is not None and (
                (state[0] == "beaver" and state[1] == player)
                or (state[0] == "raccoon" and state[1] != player)
            ):
                event = None  # GNU Backgammon's explicit acceptance of a beaver or raccoon
            elif state is not None and state[0] == "double":
                self.cube = self.offered
            self.cube_state = None
        else:  # drop
            if state is not None and state[0] == "beaver" and state[1] == player:
                raise self.fail(where, "a beaver cannot be dropped: the doubler must accept it")
            event = Drop()
            self.cube_state = None
            self.ended = "drop"
        if event is not None:
            self.visitor.cube(player, event, where)

    def wins(self, player: int, action: _Action, where: Location) -> None:
        words = [token.text.lower() for token in action.tokens]
        tail = words[3:]
        if (
            len(words) < 3
            or _COUNT.fullmatch(words[1]) is None
            or words[2] not in ("point", "points")
            or tail not in ([], ["and", "the", "match"])
        ):
            raise self.fail(where, f"expected 'Wins n points', got {_quote(action)}")
        points = int(words[1])
        if self.ended is None:
            loser = 1 - player
            level, remainder = divmod(points, self.cube)
            if remainder or not 1 <= level <= 3:
                options = ", ".join(str(self.cube * n) for n in (1, 2, 3))
                raise self.fail(
                    where,
                    f"the game is not over, so 'Wins' means a resignation: expected {options} "
                    f"points (the cube is at {self.cube}), got {points}",
                )
            self.pending = None  # the loser rolled, then resigned
            self.visitor.resign(loser, Resign(ResignLevel(level)), where)
            self.visitor.resign(player, AcceptResignation(), where)
        self.visitor.end_game(player, points, where)
        self.phase = "over"


def _chained(words: list[str]) -> str:
    """The moves with each step that continues an earlier one joined to it.

    ``"17/12 12/10"`` becomes ``"17/12/10"``: the point where the checker stopped is then
    part of its route, so the move resolves to the play that went that way (and hit
    there, for writers that mark no hits) rather than another way to the same points.
    """
    chains: list[list[str]] = []
    for word in words:
        step = _STEP.fullmatch(word)
        if step is not None:
            for chain in chains:
                if chain[-1].rstrip("*") == step.group(1) and step.group(1) != "0":
                    chain.append(step.group(2))
                    break
            else:
                chains.append([step.group(1), step.group(2)])
        else:
            chains.append([word])
    return " ".join("/".join(chain) for chain in chains)


def _tag_name(part: str) -> bool:
    """Whether the text before a header tag's quote is a tag name and the space
    that ends it."""
    return part[-1:].isspace() and _TAG_NAME.fullmatch(part.rstrip()) is not None


def _quote(value: object) -> str:
    if isinstance(value, _Action):
        value = " ".join(token.text for token in value.tokens)
    text = str(value)
    return repr(text if len(text) <= 60 else text[:57] + "...")
