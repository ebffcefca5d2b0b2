"""Jellyfish ``.mat`` match files: the writer (:class:`MatWriter`, :func:`write_mat`),
which writes a match the way GNU Backgammon 1.07 exports one, the inverse of
:func:`~backgammon.formats.mat.read_mat`.

The format is described in :mod:`backgammon.formats.mat`, which also exports this
module's public names.
"""

from __future__ import annotations

import re
from typing import Any

from backgammon.formats.record import (
    CubeEvent,
    Location,
    MatchInfo,
    MatchRecord,
    MatchVisitor,
    RecordBuilder,
    ResignEvent,
)
from backgammon.rules.cube import Beaver, Double, Drop, Raccoon, Take
from backgammon.rules.dice import Roll
from backgammon.rules.game import Action, Ending, OpeningRoll
from backgammon.rules.play import Play
from backgammon.rules.variant import STANDARD

__all__ = ["MatWriter", "write_mat"]

_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_RULE_TAGS = ("crawford", "jacoby", "beaver", "raccoon", "cubelimit", "variation")
# How the writer spells metadata keys as tags, in GNU Backgammon's order first.
_TAG_NAMES = {
    "place": "Site",
    "event": "Event",
    "round": "Round",
    "date": "EventDate",
    "annotator": "Transcriber",
    "match id": "Match ID",
    "player 1": "Player 1",
    "player 2": "Player 2",
    "player 1 elo": "Player 1 Elo",
    "player 2 elo": "Player 2 Elo",
    "eventtime": "EventTime",
    "timecontrol": "TimeControl",
    "unrated": "Unrated",
}
# GNU Backgammon's names of the variants it knows, by our registry name.
_VARIATION_NAMES = {
    "standard": "Backgammon",
    "nackgammon": "NackGammon",
    "hypergammon-1": "HyperGammon (1)",
    "hypergammon-2": "HyperGammon (2)",
    "hypergammon": "HyperGammon (3)",
}


# -- writing ---------------------------------------------------------------------------


class MatWriter(MatchVisitor):
    """A visitor that writes ``.mat`` text the way GNU Backgammon 1.07 exports a match.

    It replays what it is given through a :class:`RecordBuilder` (so text moves are
    resolved and everything is checked) and writes each action in its player's column:
    one ``from/to`` per checker step (25 = bar, 0 = off, ``*`` where it hit) in the
    order the play lists them, the cube as `` Doubles => n`` / `` Takes`` / `` Drops``
    (`` Beavers => n`` and `` Raccoons => n`` for money play, a raccoon followed by the
    beaverer's `` Takes`` so that GNU Backgammon can import it), the end of each game as
    ``Wins n point(s)``, and a resignation as the winner's ``Wins`` line. Comments on
    games and actions, and rejected resignations, have no place in the format and are
    left out. Read the result from :attr:`text`.

    Raises (from its hooks):
        MatchFileError: for actions the rules refuse, or player names that the format
            cannot hold (empty, or with ``:`` or a line break).
    """

    def __init__(self) -> None:
        self._builder = RecordBuilder()
        self._parts: list[str] = []
        self._info: MatchInfo | None = None
        self._comments: list[str] = []
        self._header_done = False
        self._slot = 0
        self._cube = 1
        self._offered = 1
        self._roll: tuple[int, int, int] | None = None  # player, dice: rolled, not played
        self._dropper: int | None = None
        self._last_no_move: tuple[int, int, str] | None = None  # part index, slot, text

    @property
    def text(self) -> str:
        """The text written so far (the whole file after ``end_match``)."""
        self._write_header()
        return "".join(self._parts)

    # -- layout ----------------------------------------------------------------------

    def _write_header(self) -> None:
        info = self._info
        if self._header_done or info is None:
            return
        self._header_done = True
        lines: list[str] = []
        metadata = dict(info.metadata)
        for key in ("place", "event", "round"):
            if key in metadata:
                lines.append(_tag(_TAG_NAMES[key], metadata.pop(key)))
        if "date" in metadata:
            date = metadata.pop("date")
            iso = _ISO_DATE.fullmatch(date)
            value = f"{iso.group(1)}.{iso.group(2)}.{iso.group(3)}" if iso is not None else date
            lines.append(_tag("EventDate", value))
        if info.variant.name != STANDARD.name:
            name = _VARIATION_NAMES.get(info.variant.name, info.variant.name)
            lines.append(_tag("Variation", name))
        rules = info.rules
        if not rules.crawford:
            lines.append(_tag("Crawford", "Off"))
        if rules.jacoby:
            lines.append(_tag("Jacoby", "On"))
        if rules.beavers:
            lines.append(_tag("Beaver", "On"))
        if rules.raccoons:
            lines.append(_tag("Raccoon", "On"))
        if rules.max_cube is not None:
            lines.append(_tag("CubeLimit", str(rules.max_cube)))
        if "annotator" in metadata:
            lines.append(_tag("Transcriber", metadata.pop("annotator")))
        for key, value in metadata.items():
            name = _TAG_NAMES.get(key, " ".join(word.capitalize() for word in key.split()))
            if key not in _RULE_TAGS and re.fullmatch(r"[A-Za-z][A-Za-z0-9 _.-]*", name):
                lines.append(_tag(name, value))
        comment = "\n".join(self._comments)
        if comment:
            lines.append("\n; " + "\n; ".join(comment.split("\n")) + "\n")
        self._parts.insert(0, "".join(lines) + "\n" + f" {info.length} point match\n\n")

    def _put(self, player: int, text: str) -> None:
        """One action in ``player``'s column (an empty slot first if it is not theirs)."""
        if self._slot % 2 != player:
            self._put_slot("")
        self._put_slot(text)

    def _put_slot(self, text: str) -> None:
        self._last_no_move = None
        slot = self._slot
        if slot % 2 == 0:
            self._parts.append(f"{slot // 2 + 1:3d}) {text:<27s} ")
        else:
            self._parts.append(text + "\n")
        self._slot += 1

    def _put_dice_only(self, player: int, dice: str) -> None:
        """A roll not played (before a resignation, or at the end of an unfinished game),
        as GNU Backgammon writes it: no line break after it."""
        if self._slot % 2 != player:
            self._put_slot("")
        slot = self._slot
        self._last_no_move = None
        self._parts.append(dice if slot % 2 else f"{slot // 2 + 1:3d}) {dice}")
        self._slot += 1

    # -- hooks -----------------------------------------------------------------------

    def begin_match(self, info: MatchInfo, where: Location) -> None:
        """Check the names the format must hold and keep the header for later."""
        self._builder.begin_match(info, where)
        if info.variant.opening_reroll:
            raise where.error(
                f"a .mat file cannot hold the {info.variant.name} variant (the opening "
                "throw is thrown again)"
            )
        for name in info.players:
            if not name.strip() or ":" in name or "\n" in name or "\r" in name:
                raise where.error(
                    f"a player name in a .mat file must be non-empty without ':' or line "
                    f"breaks, got {name!r}"
                )
        self._info = info

    def comment(self, text: str, where: Location) -> None:
        """Keep a comment on the match for the header; others have no place."""
        self._builder.comment(text, where)
        if not self._header_done and self._slot == 0:
            self._comments.append(text)

    def begin_game(self, number: int, score: tuple[int, int], where: Location) -> None:
        """Write the game's header and score line."""
        self._builder.begin_game(number, score, where)
        self._write_header()
        assert self._info is not None
        names = self._info.players
        self._parts.append(f" Game {number}\n")
        self._parts.append(f" {f'{names[0]} : {score[0]}':<31s}{names[1]} : {score[1]}\n")
        self._slot = 0
        self._cube = self._offered = 1
        self._roll = None
        self._dropper = None
        self._last_no_move = None

    def roll(self, player: int, dice: tuple[int, int], where: Location) -> None:
        """Keep the roll until its play (or a resignation) comes."""
        self._builder.roll(player, dice, where)
        action = self._builder.record.games[-1].entries[-1].action
        rolled = action.roll if isinstance(action, OpeningRoll) else action
        assert isinstance(rolled, Roll)
        self._roll = (player, rolled.first, rolled.second)

    def play(self, player: int, move: str | Play, where: Location) -> None:
        """Write the roll and its steps in the mover's column."""
        self._builder.play(player, move, where)
        play = self._builder.record.games[-1].entries[-1].action
        assert isinstance(play, Play) and self._roll is not None
        _, first, second = self._roll
        self._roll = None
        steps = play.steps
        moves = "".join(
            f"{step.source}/{step.destination}{'*' if step.hit else ''}{' ' if n < 3 else ''}"
            for n, step in enumerate(steps)
        )
        text = f"{first}{second}: {moves}"
        self._put(player, text)
        self._last_no_move = (len(self._parts) - 1, self._slot - 1, text) if not steps else None

    def cube(self, player: int, action: CubeEvent, where: Location) -> None:
        """Write a cube action (a drop waits for the end of the game)."""
        self._builder.cube(player, action, where)
        if isinstance(action, Double):
            self._offered = self._cube * 2
            self._put(player, f" Doubles => {self._offered}")
        elif isinstance(action, Take):
            self._cube = self._offered
            self._put(player, " Takes")
        elif isinstance(action, Beaver):
            self._cube = self._offered * 2
            self._put(player, f" Beavers => {self._cube}")
        elif isinstance(action, Raccoon):
            self._cube *= 2
            self._put(player, f" Raccoons => {self._cube}")
            self._put(1 - player, " Takes")
        elif isinstance(action, Drop):
            self._dropper = player
        else:
            raise where.error(f"{type(action).__name__} cannot be written in a .mat file")

    def variant_action(self, player: int, action: Action, where: Location) -> None:
        """Refuse: a variant's own actions (the atomic bomb) have no place in the format."""
        raise where.error(f"{type(action).__name__} cannot be written in a .mat file")

    def resign(self, player: int, action: ResignEvent, where: Location) -> None:
        """Check it; an accepted resignation is written as the winner's ``Wins`` when the
        game ends, an offer or a rejection leaves no trace."""
        self._builder.resign(player, action, where)

    def annotate(self, comment: str | None, annotations: dict[str, Any], where: Location) -> None:
        """Check it; comments and annotations have no place in the format."""
        self._builder.annotate(comment, annotations, where)

    def end_game(self, winner: int | None, points: int | None, where: Location) -> None:
        """Write how the game ended, as GNU Backgammon does."""
        self._builder.end_game(winner, points, where)
        outcome = self._builder.record.games[-1].outcome
        if outcome is None:
            self._close_unfinished()
            return
        wins = f"Wins {outcome.points} point{'' if outcome.points == 1 else 's'}"
        if outcome.ending == Ending.DROPPED:
            dropper = 1 - outcome.winner if self._dropper is None else self._dropper
            if self._slot % 2 != dropper:
                self._put_slot("")
            if self._slot % 2:
                self._put_slot(f" Drops\n      {wins}")
                self._parts.append("\n")
            else:
                self._put_slot(f" Drops{' ' * 23}{wins}")
                self._parts.append("\n\n")
        elif outcome.ending == Ending.RESIGNED:
            resigner = 1 - outcome.winner
            rolled = self._roll is not None and self._roll[0] == resigner
            if rolled and self._roll is not None:
                self._put_dice_only(resigner, f"{self._roll[1]}{self._roll[2]}: ")
            odd = self._slot % 2 == 1
            flag = odd != rolled
            if resigner == 1:
                text = ("\n" if flag else "") + f"      {wins}\n"
            elif odd:
                text = (" " if flag else " " * 24) + f"{wins}\n"
            else:
                text = (" " if flag else " " * 34) + f"{wins}\n"
            self._parts.append(text + "\n")
            self._slot += 1
        elif self._slot % 2:
            self._parts.append(f"\n      {wins}\n\n")
        else:
            self._parts.append(f"{' ' * 34}{wins}\n\n")
        self._roll = None

    def _close_unfinished(self) -> None:
        if self._roll is not None:
            player, first, second = self._roll
            self._put_dice_only(player, f"{first}{second}: ")
            self._roll = None
        elif self._last_no_move is not None:
            # A roll with nothing after it at the end of the text reads as a roll not yet
            # played; spell out that nothing could move (as XG does).
            index, slot, text = self._last_no_move
            text += "Cannot Move"
            self._parts[index] = text + "\n" if slot % 2 else f"{slot // 2 + 1:3d}) {text:<27s} "
        if self._parts and not self._parts[-1].endswith("\n"):
            self._parts.append("\n")
        self._last_no_move = None

    def end_match(self, where: Location) -> None:
        """Finish the text (the header alone for a match without games)."""
        self._builder.end_match(where)
        self._write_header()


def _tag(name: str, value: str) -> str:
    value = " ".join(value.replace("\r", " ").split("\n"))
    return f'; [{name} "{value}"]\n'


def write_mat(record: MatchRecord) -> str:
    """The ``.mat`` text of ``record``, laid out as GNU Backgammon exports a match.

    Raises:
        MatchFileError: if the record breaks the rules, or a player's name cannot be
            written (empty, or with ``:`` or a line break).
    """
    writer = MatWriter()
    record.accept(writer)
    return writer.text
