"""The text record of a chouette session: :func:`write_chouette` and
:func:`read_chouette`, an exact pair (reading a written record gives a session with
the same history, scores and lineup).

The record is line based, in the spirit of the ``.mat`` format::

    ; comments start with ';'
    Chouette
    Players: Ann, Bob, Cy          the first lineup: the box, the captain, the team
    Stake: 0.50                    money per point
    Cubes: individual              or: team (the older one-team-cube form)
    Consulting: yes
    Jacoby: no
    Max cube: 64                   the cube limit (no line: none)

    Game 1: Ann, Bob, Cy           the game's lineup (checked on reading)
    Ann: opening 3-1               the box's die first
    Ann: play 8/5 6/5
    Cy: double Cy                  Cy turns their own cube
    Ann: drop Cy                   the box drops it
    Bob: roll 6-4
    Bob: play 24/14
    Ann: double Bob                the box doubles Bob's cube ('(team)': the team's cube)
    Bob: take Bob
    ...
    Result: Ann +3, Bob -2, Cy -1  each player's points in the game (checked)

    Score: Ann +3, Bob -2, Cy -1   the session's totals (checked)

Every action line is ``<player>: <verb> [argument]`` with the verbs ``opening``,
``roll``, ``play``, ``double``, ``take`` and ``drop``. Reading replays each line
through :class:`~backgammon.rules.chouette.Chouette`, so a record that breaks the
rules, or whose results or lineups disagree with the replay, is refused with a
:class:`~backgammon.errors.MatchFileError` naming the line.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from backgammon.errors import BackgammonError, MatchFileError
from backgammon.rules.chouette import (
    TEAM,
    BoardAction,
    Chouette,
    ChouetteAction,
    ChouetteRules,
    CubeDouble,
    CubeDrop,
    CubeTake,
)
from backgammon.rules.dice import Roll
from backgammon.rules.game import OpeningRoll
from backgammon.rules.play import Play, parse_play

__all__ = ["read_chouette", "write_chouette"]

_TEAM_WORD = "(team)"
_CUBE_VERBS: dict[str, type[CubeDouble | CubeTake | CubeDrop]] = {
    "double": CubeDouble,
    "take": CubeTake,
    "drop": CubeDrop,
}
_MAX_RECORD_CHARS = 10_000_000


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names)


def _points(points: dict[str, int], players: tuple[str, ...]) -> str:
    return ", ".join(f"{name} {points[name]:+d}" for name in players)


def _action_line(action: ChouetteAction) -> str:
    if isinstance(action, BoardAction):
        move = action.action
        if isinstance(move, OpeningRoll):
            return f"{action.player}: opening {move.die0}-{move.die1}"
        if isinstance(move, Roll):
            return f"{action.player}: roll {move}"
        return f"{action.player}: play {move}"
    verb = {CubeDouble: "double", CubeTake: "take", CubeDrop: "drop"}[type(action)]
    member = _TEAM_WORD if action.member is TEAM else action.member
    return f"{action.player}: {verb} {member}"


def write_chouette(chouette: Chouette) -> str:
    """The session record of ``chouette``: its options, every game's actions and
    results, and the running totals."""
    rules = chouette.rules
    lines = [
        "Chouette",
        f"Players: {_names(chouette.players)}",
        f"Stake: {rules.stake}",
        f"Cubes: {'team' if rules.team_cube else 'individual'}",
        f"Consulting: {_yes(rules.consulting)}",
        f"Jacoby: {_yes(rules.jacoby)}",
    ]
    if rules.max_cube is not None:
        lines.append(f"Max cube: {rules.max_cube}")
    replay = Chouette(chouette.players, rules)
    starting = True
    for action in chouette.history:
        if starting:
            lines += ["", f"Game {len(replay.results) + 1}: {_names(replay.lineup)}"]
            starting = False
        finished = len(replay.results)
        replay.push(action)
        lines.append(_action_line(action))
        if len(replay.results) > finished:
            result = replay.results[-1]
            lines.append(f"Result: {_points(result.points(), result.lineup)}")
            starting = True
    lines += ["", f"Score: {_points(chouette.scores, chouette.players)}", ""]
    return "\n".join(lines)


class _Reader:
    """Reads a record line by line into a :class:`Chouette`."""

    def __init__(self, text: str, path: str | None) -> None:
        self.path = path
        self.lines = [
            (number, line.strip())
            for number, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith(";")
        ]
        self.index = 0
        self.chouette: Chouette | None = None

    def error(self, message: str, line: int | None = None) -> MatchFileError:
        if line is None:
            line = self.lines[self.index][0] if self.index < len(self.lines) else None
        return MatchFileError(message, path=self.path, line=line)

    def field(self, name: str) -> str:
        if self.index >= len(self.lines):
            raise self.error(f"expected '{name}: ...', the record ends")
        number, line = self.lines[self.index]
        key, colon, value = line.partition(":")
        if not colon or key.strip() != name:
            raise self.error(f"expected '{name}: ...', got {line!r}", number)
        self.index += 1
        return value.strip()

    def last_line(self) -> int:
        """The number of the line just read."""
        return self.lines[self.index - 1][0]

    def flag(self, name: str) -> bool:
        value = self.field(name)
        if value not in ("yes", "no"):
            raise self.error(f"{name} is 'yes' or 'no', got {value!r}", self.last_line())
        return value == "yes"

    def header(self) -> Chouette:
        if not self.lines or self.lines[0][1] != "Chouette":
            raise self.error("a chouette record starts with the line 'Chouette'", 1)
        self.index = 1
        players = _split_names(self.field("Players"))
        line = self.last_line()
        stake_text = self.field("Stake")
        try:
            stake = Decimal(stake_text)
        except InvalidOperation:
            stake = Decimal("NaN")
        if not stake.is_finite() or stake < 0:
            message = f"the stake is an amount >= 0 such as 0.50, got {stake_text!r}"
            raise self.error(message, self.last_line())
        cubes = self.field("Cubes")
        if cubes not in ("individual", "team"):
            raise self.error(f"Cubes is 'individual' or 'team', got {cubes!r}", self.last_line())
        consulting = self.flag("Consulting")
        jacoby = self.flag("Jacoby")
        max_cube = self.max_cube()
        try:
            rules = ChouetteRules(cubes == "team", consulting, jacoby, stake, max_cube)
            return Chouette(players, rules)
        except ValueError as error:
            raise self.error(str(error), line) from None

    def max_cube(self) -> int | None:
        """The optional ``Max cube`` line's limit (None without the line)."""
        if self.index >= len(self.lines) or not self.lines[self.index][1].startswith("Max cube:"):
            return None
        text = self.field("Max cube")
        try:
            return ChouetteRules(max_cube=int(text)).max_cube
        except ValueError:
            message = f"Max cube is a power of two of at least 2, such as 64, got {text!r}"
            raise self.error(message, self.last_line()) from None

    def body(self, chouette: Chouette) -> None:
        while self.index < len(self.lines):
            number, line = self.lines[self.index]
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key.startswith("Game "):
                self.check_game(chouette, key, value, number)
            elif key == "Result":
                self.check_points("Result", _last_points(chouette), value, number)
            elif key == "Score":
                self.check_points("Score", chouette.scores, value, number)
                self.index += 1
                if self.index < len(self.lines):
                    raise self.error("nothing may follow the final 'Score' line")
                return
            else:
                self.act(chouette, key, value, number)
            self.index += 1
        raise self.error("the record ends without its 'Score' line", self.lines[-1][0])

    def check_game(self, chouette: Chouette, key: str, value: str, number: int) -> None:
        expected = f"Game {len(chouette.results) + 1}"
        if key != expected:
            raise self.error(f"expected '{expected}: ...', got {key!r}", number)
        if _split_names(value) != chouette.lineup:
            raise self.error(
                f"the lineup of {key} is {_names(chouette.lineup)}, the record says {value!r}",
                number,
            )

    def check_points(self, key: str, points: dict[str, int] | None, value: str, line: int) -> None:
        if points is None:
            raise self.error(f"'{key}' before any game has finished", line)
        expected = _points(points, tuple(points))
        if " ".join(value.split()) != expected:
            raise self.error(
                f"{key}: the replay gives {expected!r}, the record says {value!r}", line
            )

    def act(self, chouette: Chouette, player: str, text: str, line: int) -> None:
        verb, _, argument = text.partition(" ")
        argument = argument.strip()
        try:
            chouette.push(_parse_action(chouette, player, verb, argument))
        except (BackgammonError, ValueError) as error:
            raise self.error(f"{player}: {text}: {error}", line) from None


def _split_names(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.split(","))


def _last_points(chouette: Chouette) -> dict[str, int] | None:
    return chouette.results[-1].points() if chouette.results else None


def _parse_action(chouette: Chouette, player: str, verb: str, argument: str) -> ChouetteAction:
    if verb in _CUBE_VERBS:
        member = TEAM if argument == _TEAM_WORD else argument
        return _CUBE_VERBS[verb](player, member)
    if verb == "opening":
        roll = Roll.parse(argument)
        return BoardAction(player, OpeningRoll(roll.first, roll.second))
    if verb == "roll":
        return BoardAction(player, Roll.parse(argument))
    if verb == "play":
        dice = chouette.dice
        if dice is None:
            raise ValueError("no dice are rolled to play")
        play: Play = parse_play(argument, chouette.position, dice)
        return BoardAction(player, play)
    raise ValueError(f"unknown action {verb!r}: expected opening, roll, play, double, take or drop")


def read_chouette(text: str, *, path: str | None = None) -> Chouette:
    """Replay a session record into a :class:`Chouette`.

    Raises:
        MatchFileError: for a malformed record, an action the rules refuse, or a
            lineup, result or score that disagrees with the replay (with its line).
    """
    if len(text) > _MAX_RECORD_CHARS:
        raise MatchFileError(
            f"a chouette record is at most {_MAX_RECORD_CHARS} characters", path=path
        )
    reader = _Reader(text, path)
    chouette = reader.header()
    reader.body(chouette)
    return chouette
