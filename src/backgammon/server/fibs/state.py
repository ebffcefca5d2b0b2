"""What one FIBS connection knows and how it writes: :class:`SessionState`, the base of
:class:`~backgammon.server.fibs.session.FibsSession` that the command families
(``commands_play``, ``commands_info``, ``commands_social``), the match told the FIBS
way (``telling``) and the service's other events (``events``) take as their session.

It holds the login's state (the user, CLIP or not, the toggles, the match played or
watched, gags, blinds, waitfors), writes lines (each made safe: no text can start a
line of its own) and answers the few questions every family asks (who is called this
name, is a match being played or started). It reads nothing from the connection: the
connection's loop, login and dispatch are the session's.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from pydantic import ValidationError

from backgammon.server.db.repository import User
from backgammon.server.fibs.clip import line_safe
from backgammon.server.fibs.lobby_feed import CLIP, NOTIFY, QUIET, LobbyFeed
from backgammon.server.fibs.who_lines import WhoLines
from backgammon.server.lobby.hub import Connection
from backgammon.server.service import GameService, ServiceError
from backgammon.variants import find

__all__ = [
    "DEFAULT_TOGGLES",
    "DEFAULT_VARIABLES",
    "JOIN_NEXT_GAME",
    "SessionState",
    "first_problem",
    "unshowable",
]

DEFAULT_TOGGLES = {
    "allowpip": True,
    "autoboard": True,
    "autodouble": False,
    "automove": False,
    "bell": False,
    "crawford": True,
    "double": True,
    "greedy": False,
    "moreboards": True,
    "moves": False,
    "notify": True,
    "ratings": False,
    "ready": True,
    "report": False,
    "silent": False,
    "telnet": True,
    "wrap": False,
}
"""FIBS's toggles and their values for a new account (kept with the account once
changed). ``ready`` is on: web users take invitations at any time, and a FIBS user
is as open to them until ``toggle ready`` says otherwise."""

DEFAULT_VARIABLES: dict[str, int | str] = {
    "boardstyle": 2,
    "linelength": 0,
    "pagelength": 0,
    "redoubles": "none",
    "sortwho": "login",
    "timezone": "UTC",
}
"""FIBS's variables (``set``) and their values for a new account (``boardstyle`` 2:
the board drawn for people, its point numbers on lines of their own)."""

MAX_ERROR = 300
"""The longest error line (after ``** ``)."""

JOIN_NEXT_GAME = "Type 'join' if you want to play the next game, type 'leave' if you don't."
"""FIBS's line after a game that does not end the match: the next game is told
once the player types ``join`` (docs/fibs.md, "Between games")."""


def first_problem(error: ValidationError) -> str:
    """One line naming the first field of a request that typed text did not fit
    (``move: String should have at most 200 characters``)."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "command"
    return f"{where}: {first['msg'].removeprefix('Value error, ')}"


def unshowable(settings: dict[str, Any]) -> str | None:
    """Why a FIBS client cannot show a match with these ``settings`` (its board line
    holds two dice: tabula throws three), or None when it can."""
    variant = find(settings["variant"])
    if variant.dice == 2:
        return None
    return (
        f"{variant.name} throws {variant.dice} dice, which a FIBS board cannot show; "
        "play or watch it on the web"
    )


class SessionState:
    """One FIBS login's state and output (the connection's loop is
    :class:`~backgammon.server.fibs.session.FibsSession`'s).

    Args:
        service: the game service.
        write: sends text (already with its line ends).
        address: the client's address (for login throttling).
        who_lines: the listener's rendered who lines (shared by its sessions).
        feed: the listener's lobby feed (a session of its own when None).
        write_now: writes text at once, without waiting; False when the client is
            too slow to read it (the lobby feed's lines go through it; without it,
            through the session's own pump).

    Besides the login's facts, the match being told keeps ``states`` (the last
    state told of each match), ``seen`` (the sequence number told up to, by match),
    ``told_turn`` (the state whose prompt was told), ``typed`` (the player's last
    typed move, for FIBS's words if it is refused), and between two games ``held``
    (the match) with ``held_back`` (its states, unsaid until the player types 'join').
    """

    def __init__(
        self,
        service: GameService,
        write: Callable[[str], Awaitable[None]],
        address: str,
        who_lines: WhoLines | None = None,
        feed: LobbyFeed | None = None,
        write_now: Callable[[str], bool] | None = None,
    ) -> None:
        self.service = service
        self.who_lines = who_lines if who_lines is not None else WhoLines()
        self.feed = feed if feed is not None else LobbyFeed(service, self.who_lines)
        self._write = write
        self._write_now = write_now
        self.address = address
        self.user: User | None = None
        self.clip = False
        self.client = "-"
        self.toggles = dict(DEFAULT_TOGGLES)
        self.variables = dict(DEFAULT_VARIABLES)
        # The settings the account keeps, as read at login (see fibs.settings).
        self.kept: dict[str, Any] = {}
        self.connection: Connection | None = None
        self.playing: str | None = None
        # A match is being started (by a command, or by a match_started event): the
        # other path must not start one too, or the match is told from its start twice.
        self._starting = False
        self.watching: str | None = None
        self.watched_seat = 0
        # The player being watched by name (who may be between matches).
        self.watched_name: str | None = None
        self.login_time = int(time.time())
        self.told_turn: int = -1
        self.states: dict[str, dict[str, Any]] = {}
        self.seen: dict[str, int] = {}
        self.typed: list[tuple[int, int]] | None = None
        # Lines told while the pump handles a batch of events, sent in one write;
        # what a batch held when its pump was cancelled, written as the session closes.
        self._batch: list[str] | None = None
        self._unsent: list[str] = []
        # Between two games of the match being played: its states are kept here
        # (unsaid) until the player types 'join'.
        self.held: str | None = None
        self.held_back: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        # The users whose words (gag: kept with the account, read at login) and
        # invitations (blind: for this login) this session ignores.
        self.gagged: set[str] = set()
        self.blinded: set[str] = set()
        # The users this login waits for (``waitfor``), told once when they log in.
        self.waiting_for: set[str] = set()
        # The tournament match last paired to this user, which takes a dice nonce
        # (``nonce WORD``) until its first throw.
        self.paired_match: str | None = None

    # -- output --------------------------------------------------------------------

    async def line(self, text: str) -> None:
        """Send one line (any control character or line separator in ``text``
        becomes ``?``: no text can start a line of its own)."""
        await self.lines([text])

    async def lines(self, texts: list[str]) -> None:
        """Send several lines in one write (made safe as :meth:`line` does); while
        the pump tells a batch of events, they wait for its one write."""
        if not texts:
            return
        await self.send_safe([line_safe(text) for text in texts])

    async def send_safe(self, texts: list[str]) -> None:
        """Send lines already made safe (who lines are, once for every session)."""
        if texts:
            await self.send_text("\r\n".join(texts) + "\r\n")

    async def send_text(self, text: str) -> None:
        """Send safe lines with their ends (in the pump's batch while it tells one)."""
        if self._batch is not None:
            self._batch.append(text)
        else:
            await self._write(text)

    async def error(self, text: str) -> None:
        """Send a FIBS error line (``** ...``), at most :data:`MAX_ERROR` characters
        (an error never repeats kilobytes of what was typed)."""
        if len(text) > MAX_ERROR:
            text = text[: MAX_ERROR - 3] + "..."
        await self.line(f"** {text}")

    @property
    def lobby_view(self) -> int:
        """Which lines of the lobby feed this session is told (CLIP, NOTIFY or QUIET)."""
        if self.clip:
            return CLIP
        return NOTIFY if self.toggles["notify"] else QUIET

    def write_lobby(self, text: str) -> bool:
        """Write the lobby feed's lines (safe, with their ends) at once; False when
        the client is too slow to read them."""
        if self._write_now is not None:
            return self._write_now(text)
        if self.connection is not None:
            self.connection.send({"type": "lobby_text", "text": text})
        return True

    def show_status(self) -> None:
        """Tell the listener's who lines this user's ``ready`` toggle and whom the
        user watches (``whois``, ``rawwho``, ``invite`` read them)."""
        if self.user is not None:
            self.who_lines.set_status(self.user.id, self.toggles["ready"], self.watched_name)

    async def announce_status(self) -> None:
        """:meth:`show_status`, and the user's new who line to every CLIP client of
        the listener (``5 ...`` and ``6``, as FIBS pushes a changed ``ready`` or
        ``watching``)."""
        self.show_status()
        if self.user is not None:
            await self.feed.status_changed(self.user.id, self.user.name)

    # -- what every command family asks ---------------------------------------------

    async def named(self, name: str) -> User | None:
        """The user called ``name``, or None after FIBS's error line."""
        try:
            return await self.service.user_named(name)
        except ServiceError:
            await self.error(f"There is no one called {name}")
            return None

    def busy(self) -> bool:
        """Whether a match is being played or started (no other may start)."""
        return self.playing is not None or self._starting

    @contextlib.contextmanager
    def starting_match(self) -> Iterator[None]:
        """Claim the start of a match for the code inside: the ``match_started``
        event that the service sends meanwhile (it may be handled before the
        command's own reply comes back) is then left to it."""
        self._starting = True
        try:
            yield
        finally:
            self._starting = False
