"""A player's archive: their matches from many files (folders of match files, OGXM
streams), each analysed, summarised for that one player: error rates match by match
(in date order where the files give dates), luck, and the positions they miss most
often, grouped by kind, and what their errors have in common: by plan and by theme
(:mod:`backgammon.analysis.archive_lessons`).

>>> from backgammon.analysis import analyze_match
>>> from backgammon.analysis.archive import player_archive, read_archive
>>> matches, skipped = read_archive(["my_matches/"])  # doctest: +SKIP
>>> analysed = [(label, r, analyze_match(r)) for label, r in matches]  # doctest: +SKIP
>>> player_archive("alice", analysed).error_rate  # doctest: +SKIP

Kinds of decision (the mover's or the doubler's position, :func:`decision_kind`):

* **bear-off**: every checker of the mover is in its home board or off (with or
  without contact);
* **containment**: contact, and a side is contained: on the bar against a home board
  of at least 5 points, or its rearmost checker behind a prime of at least 5 points;
* **race**: no contact otherwise;
* **contact**: contact otherwise;
* **cube**: every cube decision, grouped further by the match score as the player
  saw it (:func:`score_label`).

Figures are those of :func:`~backgammon.analysis.summary.summarize` (counted decisions
only: unforced plays, close or actual cube decisions): the archive's error rate is
the equity lost over all matches × 1000 ÷ the decisions of all matches, its luck rate
the luck of all rolls ÷ the rolls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backgammon.analysis.annotate import CheckerAnalysis, Decision, GameAnalysis, MatchAnalysis
from backgammon.analysis.archive_lessons import Lessons, lessons_json, lessons_of
from backgammon.analysis.batch import is_many, read_matches
from backgammon.analysis.summary import (
    PlayerSummary,
    _player_json,
    decision_to_json,
    luck_rating,
    rating,
    summarize,
)
from backgammon.errors import MatchFileError
from backgammon.formats import read_match
from backgammon.formats.record import MatchRecord
from backgammon.rules.position import Position

__all__ = [
    "KINDS",
    "ArchiveMatch",
    "KindLine",
    "MissedPosition",
    "PlayerArchive",
    "archive_to_json",
    "decision_kind",
    "match_date",
    "player_archive",
    "players_of",
    "position_kind",
    "read_archive",
    "score_label",
    "select_player",
]

KINDS = ("bear-off", "containment", "race", "contact", "cube")
"""The kinds of decision, in the order reports show them (see the module doc)."""

_PRIME = 5
"""Points in a row (or made in the home board, against a checker on the bar) that
contain a checker."""

_DATE = re.compile(r"(\d{4})[-./](\d{1,2})[-./](\d{1,2})")


def read_archive(
    paths: Iterable[str | Path],
) -> tuple[list[tuple[str, MatchRecord]], list[tuple[str, MatchFileError]]]:
    """The matches of ``paths`` (match files, folders of them, ``.ogxms`` streams) as
    ``(label, record)`` (labels made unique with `` (2)``, `` (3)``...), and the files
    inside a folder that could not be read, as ``(label, error)`` (skipped, so one bad
    file in a folder does not stop the rest).

    Raises:
        MatchFileError: a path does not exist, or a file (or stream) named in
            ``paths`` cannot be read; its message names it.
    """
    matches: list[tuple[str, MatchRecord]] = []
    skipped: list[tuple[str, MatchFileError]] = []
    labels: set[str] = set()
    for path in map(Path, paths):
        if not path.exists():
            raise MatchFileError("no such file or folder", path=str(path))
        found = read_matches(path) if is_many(path) else iter([(path.name, read_match(path))])
        for label, record in found:
            if isinstance(record, MatchFileError):
                skipped.append((label, record))
                continue
            unique, copy = label, 1
            while unique in labels:
                copy += 1
                unique = f"{label} ({copy})"
            labels.add(unique)
            matches.append((unique, record))
    return matches, skipped


def match_date(record: MatchRecord) -> str | None:
    """The match's date as ``YYYY-MM-DD`` when its file gives one (``YYYY-MM-DD``,
    ``YYYY.MM.DD`` or ``YYYY/MM/DD``, possibly followed by a time), else ``None``."""
    found = _DATE.match(record.info.metadata.get("date", "").strip())
    if found is None:
        return None
    year, month, day = (int(part) for part in found.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def _contained(mine: Sequence[int], theirs: Sequence[int]) -> bool:
    """Whether the side with slots ``mine`` (own numbering, 25 the bar) is contained by
    the side with ``theirs``: on the bar against 5+ home points, or behind a 5-prime."""
    held = [theirs[25 - point] >= 2 for point in range(1, 25)]  # in mine's numbering
    if mine[25] and sum(held[18:24]) >= _PRIME:
        return True
    rearmost = max((point for point in range(1, 26) if mine[point]), default=0)
    run = 0
    for point in range(min(rearmost, 25) - 1, 0, -1):
        run = run + 1 if held[point - 1] else 0
        if run >= _PRIME:
            return True
    return False


def position_kind(position: Position) -> str:
    """The kind of a checker play from ``position`` (seen from the mover):
    ``"bear-off"``, ``"containment"``, ``"race"`` or ``"contact"`` (see the module doc).

    >>> position_kind(Position.initial())
    'contact'
    """
    mine, theirs = position.player, position.opponent
    if not any(mine[7:26]):
        return "bear-off"
    if position.is_race():
        return "race"
    if _contained(mine, theirs) or _contained(theirs, mine):
        return "containment"
    return "contact"


def decision_kind(decision: Decision, analysis: MatchAnalysis) -> str:
    """One of :data:`KINDS`: ``"cube"`` for a cube decision, else the kind of the
    position the play was made from (:func:`position_kind`)."""
    if isinstance(decision, CheckerAnalysis):
        return position_kind(analysis.position(decision))
    return "cube"


def score_label(game: GameAnalysis, length: int, player: int) -> str:
    """The match score of ``game`` as ``player`` saw it: ``"money"``, or
    ``"MINE-away/THEIRS-away"``, with ``" Crawford"`` in the Crawford game and
    ``" post-Crawford"`` after it."""
    if length == 0:
        return "money"
    mine = length - game.score_before[player]
    theirs = length - game.score_before[1 - player]
    label = f"{mine}-away/{theirs}-away"
    if game.crawford:
        return f"{label} Crawford"
    if min(mine, theirs) == 1:
        return f"{label} post-Crawford"
    return label


@dataclass(frozen=True, slots=True)
class ArchiveMatch:
    """One of the player's matches.

    Attributes:
        label: where it came from (a file name, or ``stream.ogxms#N``).
        date: ``YYYY-MM-DD`` where the file gives it, else ``None``.
        side: which player of the match the archive's player was (0 or 1).
        opponent: the other player's name.
        length: the match length (0: money).
        won: whether the player won the match (``None``: money, or unfinished).
        summary: the player's figures in this match (as :func:`summarize` gives them).
        analysis: the match's analysis.
    """

    label: str
    date: str | None
    side: int
    opponent: str
    length: int
    won: bool | None
    summary: PlayerSummary
    analysis: MatchAnalysis


@dataclass(frozen=True, slots=True)
class KindLine:
    """The player's counted decisions of one kind (and, for ``"cube"`` by score, one
    score ``group``; else ``group`` is empty): how many, how many marked, the equity
    lost and the error rate (mEMG per decision)."""

    kind: str
    group: str
    decisions: int
    errors: int
    equity_loss: float

    @property
    def error_rate(self) -> float:
        """Equity lost × 1000 ÷ decisions (0 without decisions)."""
        return 1000.0 * self.equity_loss / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class MissedPosition:
    """A position (with its roll, or its cube) the player got wrong: how often they met
    it in their counted decisions, how often they got it wrong (a marked decision), the
    equity those errors lost, and the worst of them (``match`` its label)."""

    kind: str
    group: str
    position_id: str
    faced: int
    missed: int
    equity_loss: float
    match: str
    worst: Decision


@dataclass(frozen=True, slots=True)
class PlayerArchive:
    """A player's archive (see the module doc): their matches in date order (undated
    ones after, in the order read), the totals over them, their decisions by kind and
    cube decisions by score, per kind the positions they missed most often (most
    misses first, then the most equity lost), and the lessons of their checker plays
    (by plan and by theme)."""

    player: str
    matches: tuple[ArchiveMatch, ...]
    kinds: tuple[KindLine, ...]
    cube_scores: tuple[KindLine, ...]
    missed: dict[str, tuple[MissedPosition, ...]]
    lessons: Lessons

    @property
    def decisions(self) -> int:
        """Counted decisions over all matches."""
        return sum(match.summary.decisions for match in self.matches)

    @property
    def equity_loss(self) -> float:
        """Equity lost over all matches (normalised)."""
        return sum(match.summary.equity_loss for match in self.matches)

    @property
    def error_rate(self) -> float:
        """mEMG per decision over all matches."""
        return 1000.0 * self.equity_loss / self.decisions if self.decisions else 0.0

    @property
    def checker_error_rate(self) -> float:
        """mEMG per unforced checker play over all matches."""
        count = sum(match.summary.checker_decisions for match in self.matches)
        loss = sum(match.summary.checker_loss for match in self.matches)
        return 1000.0 * loss / count if count else 0.0

    @property
    def cube_error_rate(self) -> float:
        """mEMG per counted cube decision over all matches."""
        count = sum(match.summary.cube_decisions for match in self.matches)
        loss = sum(match.summary.cube_loss for match in self.matches)
        return 1000.0 * loss / count if count else 0.0

    @property
    def rolls(self) -> int:
        """The player's rolls over all matches."""
        return sum(match.summary.rolls for match in self.matches)

    @property
    def luck(self) -> float:
        """The luck of all the player's rolls (normalised equity)."""
        return sum(match.summary.luck for match in self.matches)

    @property
    def luck_rate(self) -> float:
        """Luck per roll over all matches."""
        return self.luck / self.rolls if self.rolls else 0.0

    @property
    def record(self) -> tuple[int, int]:
        """(matches won, matches lost) among the finished matches."""
        won = sum(1 for match in self.matches if match.won is True)
        return won, sum(1 for match in self.matches if match.won is False)


def _side(record: MatchRecord, player: str) -> int | None:
    wanted = player.strip().casefold()
    for side, name in enumerate(record.info.players):
        if name.strip().casefold() == wanted:
            return side
    return None


def players_of(records: Iterable[tuple[str, MatchRecord]]) -> list[str]:
    """Every player name of ``records``, sorted, each once."""
    return sorted({name for _, record in records for name in record.info.players})


def select_player(
    player: str, records: Sequence[tuple[str, MatchRecord]]
) -> list[tuple[str, MatchRecord]]:
    """The records where ``player`` plays (names compared without case or surrounding
    spaces), in the order given.

    Raises:
        ValueError: no record has that player; the message names the players found.
    """
    mine = [(label, record) for label, record in records if _side(record, player) is not None]
    if not mine:
        found = ", ".join(players_of(records)) or "none"
        raise ValueError(
            f"no match has a player named {player!r} ({len(records)} matches read; "
            f"the players found: {found})"
        )
    return mine


def _won(analysis: MatchAnalysis, side: int) -> bool | None:
    if analysis.length == 0 or not analysis.games:
        return None
    last = analysis.games[-1]
    score = list(last.score_before)
    if last.winner is not None:
        score[last.winner] += last.points
    if score[side] >= analysis.length:
        return True
    if score[1 - side] >= analysis.length:
        return False
    return None


def player_archive(
    player: str,
    analysed: Sequence[tuple[str, MatchRecord, MatchAnalysis]],
    *,
    top: int = 10,
) -> PlayerArchive:
    """The archive of ``player`` from ``(label, record, analysis)`` triples (matches
    without the player are left out); ``top`` positions kept per kind.

    Raises:
        ValueError: no match has the player (the message names those found).
    """
    select_player(player, [(label, record) for label, record, _ in analysed])
    matches = []
    for label, record, analysis in analysed:
        side = _side(record, player)
        if side is None:
            continue
        matches.append(
            ArchiveMatch(
                label=label,
                date=match_date(record),
                side=side,
                opponent=record.info.players[1 - side],
                length=analysis.length,
                won=_won(analysis, side),
                summary=summarize(analysis)[side],
                analysis=analysis,
            )
        )
    dated = sorted((match for match in matches if match.date), key=lambda match: match.date or "")
    ordered = tuple(dated + [match for match in matches if not match.date])
    name = ordered[0].analysis.players[ordered[0].side]
    kinds, scores, missed = _by_kind(ordered, top)
    lessons = lessons_of(
        (decision, match.analysis) for match, decision, _, _ in _player_decisions(ordered)
    )
    return PlayerArchive(name, ordered, kinds, scores, missed, lessons)


_Item = tuple[ArchiveMatch, Decision, str, str]
"""One counted decision of the player: its match, itself, its kind, its score label."""


def _player_decisions(matches: Sequence[ArchiveMatch]) -> Iterator[_Item]:
    """The player's counted decisions over ``matches``, with their kind and score."""
    for match in matches:
        analysis = match.analysis
        games = {game.number: game for game in analysis.games}
        for decision in analysis.decisions:
            if decision.player == match.side and decision.counted:
                kind = decision_kind(decision, analysis)
                score = score_label(games[decision.game], analysis.length, match.side)
                yield match, decision, kind, score


@dataclass(slots=True)
class _Tally:
    """What is added up of a group of decisions while an archive is built: all their
    loss, and that of the marked ones (the errors) with the worst of them."""

    decisions: int = 0
    equity_loss: float = 0.0
    errors: int = 0
    error_loss: float = 0.0
    worst: Decision | None = None
    match: str = ""

    def add(self, decision: Decision, label: str) -> None:
        self.decisions += 1
        self.equity_loss += decision.equity_loss
        if decision.mark is None:
            return
        self.errors += 1
        self.error_loss += decision.equity_loss
        if self.worst is None or decision.equity_loss > self.worst.equity_loss:
            self.worst, self.match = decision, label


def _by_kind(
    matches: Sequence[ArchiveMatch], top: int
) -> tuple[tuple[KindLine, ...], tuple[KindLine, ...], dict[str, tuple[MissedPosition, ...]]]:
    """The kind lines, the cube lines by score, and the positions missed most often."""
    kinds = {kind: _Tally() for kind in KINDS}
    scores: dict[str, _Tally] = {}
    positions: dict[tuple[str, str, str, str], _Tally] = {}
    for match, decision, kind, score in _player_decisions(matches):
        kinds[kind].add(decision, match.label)
        if kind == "cube":
            scores.setdefault(score, _Tally()).add(decision, match.label)
        situation = (
            f"{decision.roll[0]}-{decision.roll[1]}"
            if isinstance(decision, CheckerAnalysis)
            else f"{decision.cube}:{decision.cube_owner == decision.doubler}:"
            f"{decision.player == decision.doubler}"
        )
        group = score if kind == "cube" else ""
        key = (kind, group, decision.position_id, situation)
        positions.setdefault(key, _Tally()).add(decision, match.label)
    missed: dict[str, tuple[MissedPosition, ...]] = {}
    for kind in KINDS:
        found = [
            MissedPosition(
                kind,
                group,
                position_id,
                tally.decisions,
                tally.errors,
                tally.error_loss,
                tally.match,
                tally.worst,
            )
            for (of_kind, group, position_id, _), tally in positions.items()
            if of_kind == kind and tally.worst is not None
        ]
        found.sort(key=lambda item: (-item.missed, -item.equity_loss))
        missed[kind] = tuple(found[:top])
    return (
        tuple(_line(kind, "", kinds[kind]) for kind in KINDS),
        tuple(_line("cube", score, scores[score]) for score in sorted(scores, key=_score_order)),
        missed,
    )


def _line(kind: str, group: str, tally: _Tally) -> KindLine:
    return KindLine(kind, group, tally.decisions, tally.errors, tally.equity_loss)


def _score_order(label: str) -> tuple[int, int, str]:
    """Money first, then by the player's away score, then the opponent's."""
    found = re.match(r"(\d+)-away/(\d+)-away", label)
    if found is None:
        return (0, 0, label)
    return (int(found.group(1)), int(found.group(2)), label)


def _round(value: float) -> float:
    return round(value, 6)


def _kind_json(line: KindLine) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": line.kind}
    if line.group:
        data["score"] = line.group
    data.update(
        decisions=line.decisions,
        errors=line.errors,
        equity_loss=_round(line.equity_loss),
        error_rate=_round(line.error_rate),
    )
    return data


def archive_to_json(archive: PlayerArchive) -> dict[str, Any]:
    """The archive as JSON-ready data.

    Keys: ``player``; ``totals`` (matches, won, lost, decisions, equity_loss,
    error_rate, pr, rating, checker_error_rate, cube_error_rate, rolls, luck,
    luck_rate, luck_rating); ``matches`` (in the archive's order: label, date, side,
    opponent, length, won, ply, and ``figures``: the player's statistics in that
    match, as ``analyze --json`` gives each player's); ``kinds`` and
    ``cube_by_score`` (kind, score for the cube lines, decisions, errors, equity_loss,
    error_rate); ``missed`` (per kind, the positions most often missed: kind, score,
    position_id, faced, missed, equity_loss, match, and ``worst``: the worst of those
    errors as ``analyze --json`` gives a decision); ``lessons``
    (:func:`~backgammon.analysis.archive_lessons.lessons_json`: ``by_plan``,
    ``by_theme``, ``unexplained``, ``text``).
    """
    won, lost = archive.record
    mean = archive.equity_loss / archive.decisions if archive.decisions else 0.0
    return {
        "player": archive.player,
        "totals": {
            "matches": len(archive.matches),
            "won": won,
            "lost": lost,
            "decisions": archive.decisions,
            "equity_loss": _round(archive.equity_loss),
            "error_rate": _round(archive.error_rate),
            "pr": _round(500.0 * mean),
            "rating": rating(mean),
            "checker_error_rate": _round(archive.checker_error_rate),
            "cube_error_rate": _round(archive.cube_error_rate),
            "rolls": archive.rolls,
            "luck": _round(archive.luck),
            "luck_rate": _round(archive.luck_rate),
            "luck_rating": luck_rating(archive.luck_rate),
        },
        "matches": [
            {
                "label": match.label,
                "date": match.date,
                "side": match.side,
                "opponent": match.opponent,
                "length": match.length,
                "won": match.won,
                "ply": match.analysis.settings.ply,
                "figures": _player_json(match.summary),
            }
            for match in archive.matches
        ],
        "kinds": [_kind_json(line) for line in archive.kinds],
        "cube_by_score": [_kind_json(line) for line in archive.cube_scores],
        "missed": {
            kind: [
                {
                    "kind": item.kind,
                    "score": item.group or None,
                    "position_id": item.position_id,
                    "faced": item.faced,
                    "missed": item.missed,
                    "equity_loss": _round(item.equity_loss),
                    "match": item.match,
                    "worst": decision_to_json(item.worst),
                }
                for item in positions
            ]
            for kind, positions in archive.missed.items()
        },
        "lessons": lessons_json(archive.lessons),
    }
