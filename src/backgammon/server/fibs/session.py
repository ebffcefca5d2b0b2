"""One FIBS connection: login (CLIP or plain telnet, or registration as ``guest``),
the FIBS commands, and the game service's events told the way FIBS tells them.

The session is an adapter: every command becomes a call to the
:class:`~backgammon.server.service.GameService` (the same calls the web makes), and
every event the service publishes to the session's
:class:`~backgammon.server.lobby.hub.Connection` becomes FIBS text. A refused command
gets a ``** `` line and changes nothing.

Each connection may send ``messages_per_second`` lines a second in bursts of
``message_burst`` (the same :class:`~backgammon.server.lobby.rate_limit.TokenBucket` and
settings as a WebSocket); a line over the limit is refused, and a client that keeps
flooding is disconnected, and so is one that has not logged in within
``fibs_login_timeout`` seconds. No line the session writes can hold a line break or any
other control character, whatever text it carries (defence in depth: the service
already refuses such text from users).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from pydantic import ValidationError

from backgammon import __version__
from backgammon.errors import BackgammonError
from backgammon.rules.position import Position
from backgammon.server.db.repository import User
from backgammon.server.fibs.clip import (
    TOGGLE_TEXTS,
    board_line,
    game_after,
    line_safe,
    move_error,
    moves_text,
    own_info_line,
)
from backgammon.server.fibs.lobby_feed import CLIP, NOTIFY, QUIET, LobbyFeed
from backgammon.server.fibs.who_lines import WhoLines
from backgammon.server.lobby.hub import Connection
from backgammon.server.lobby.presence import WhoFacts
from backgammon.server.lobby.rate_limit import TokenBucket
from backgammon.server.protocol import ActionBody, CreateMatch, MatchSettings
from backgammon.server.service import GameService, ServiceError
from backgammon.variants import find

__all__ = ["FibsSession", "LineTooLongError"]

log = logging.getLogger("backgammon.server.fibs")

MOTD = (
    "Welcome to the backgammon server's FIBS front end.",
    "Web and FIBS players share one lobby; type 'who' to see who is on,",
    "'invite NAME 5' to invite someone (bots too: bot_expert), 'help' for commands.",
)

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
    "ready": False,
    "report": False,
    "silent": False,
    "telnet": True,
    "wrap": False,
}
"""FIBS's toggles and their values for a new login (kept for the session)."""

SERVER_NAME = "backgammon"
"""The server's name in FIBS's guest greeting (clients match one word)."""

LOGOUT_WORDS = ("bye", "quit", "exit", "adios", "ciao", "logout")

REGISTER_HELP = (
    "Please register before using this server:",
    "",
    "Type 'name username' where 'username' is the login name you want to use.",
    "The username may not contain blanks ' ' or colons ':'. The system will ask",
    "for a password twice. Type 'bye' if you don't want to register now.",
    "",
    " ONE USERNAME PER PERSON ONLY!!!",
    "",
)
"""FIBS's words to a guest before the ``> `` prompt."""

COMMANDS = (
    "who rawwho invite join roll move double accept reject resign leave board watch "
    "unwatch look say shout kibitz whisper tell message waitfor gag blind whois pip toggle "
    "set help bye"
)

MAX_WAITING_FOR = 50
"""The most users one login may wait for (``waitfor``)."""

JOIN_NEXT_GAME = "Type 'join' if you want to play the next game, type 'leave' if you don't."
"""FIBS's line after a game that does not end the match: the next game is told
once the player types ``join`` (docs/fibs.md, "Between games")."""

NOT_LOGGED_IN = " Not logged in right now."

MESSAGE_USAGE = "usage: message <user> <text>"
"""FIBS's error line for ``message`` (its class is FIBS_MessageUsage); a refusal
by the service's text rules follows it in parentheses."""


def _typed_steps(moves: list[str]) -> list[tuple[int, int]] | None:
    """The steps of a typed move (``["13/7", "bar/22"]``) as (from, to) pairs, 25
    the bar and 0 off; None if a step is not two points."""
    points = {"bar": 25, "b": 25, "off": 0, "o": 0, "home": 0, "h": 0}
    typed: list[tuple[int, int]] = []
    for move in moves:
        ends = move.lower().split("/")
        if len(ends) != 2:
            return None
        try:
            pair = [points[end] if end in points else int(end) for end in ends]
        except ValueError:
            return None
        typed.append((pair[0], pair[1]))
    return typed


def _first_problem(error: ValidationError) -> str:
    """One line naming the first field of a request that typed text did not fit
    (``move: String should have at most 200 characters``)."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "command"
    return f"{where}: {first['msg'].removeprefix('Value error, ')}"


def _shows_board(entry: dict[str, Any]) -> bool:
    """Whether FIBS sends a ``board:`` line after this entry: after the opening roll
    (unless a tie), after every roll and after every move, 'can't move' included."""
    kind = entry["kind"]
    if kind == "opening":
        return bool(entry["dice"][0] != entry["dice"][1])
    return kind in ("roll", "play")


PUMP_BATCH = 64
"""Events the pump tells at most before it writes what they said (a login storm
brings each session hundreds of notices at once)."""


def _unshowable(settings: dict[str, Any]) -> str | None:
    """Why a FIBS client cannot show a match with these ``settings`` (its board line
    holds two dice: tabula throws three), or None when it can."""
    variant = find(settings["variant"])
    if variant.dice == 2:
        return None
    return (
        f"{variant.name} throws {variant.dice} dice, which a FIBS board cannot show; "
        "play or watch it on the web"
    )


class LineTooLongError(Exception):
    """A line over the listener's limit (it was discarded)."""


def _points_word(points: int) -> str:
    return "point" if points == 1 else "points"


class FibsSession:
    """One telnet connection speaking FIBS/CLIP to the game service.

    Args:
        service: the game service.
        read_line: returns the next line (without its end), raises ``EOFError`` at
            the end of input and :class:`LineTooLongError` for a line over the limit,
            ``UnicodeDecodeError`` for bytes that are not text.
        write: sends text (already with its line ends).
        address: the client's address (for login throttling).
        who_lines: the listener's rendered who lines (shared by its sessions).
        feed: the listener's lobby feed (a session of its own when None).
        write_now: writes text at once, without waiting; False when the client is
            too slow to read it (the lobby feed's lines go through it; without it,
            through the session's own pump).
    """

    def __init__(
        self,
        service: GameService,
        read_line: Callable[[], Awaitable[str]],
        write: Callable[[str], Awaitable[None]],
        address: str,
        who_lines: WhoLines | None = None,
        feed: LobbyFeed | None = None,
        write_now: Callable[[str], bool] | None = None,
    ) -> None:
        self.service = service
        self.who_lines = who_lines if who_lines is not None else WhoLines()
        self.feed = feed if feed is not None else LobbyFeed(service, self.who_lines)
        self._read_line = read_line
        self._write = write
        self._write_now = write_now
        self.address = address
        self.user: User | None = None
        self.clip = False
        self.client = "-"
        self.toggles = dict(DEFAULT_TOGGLES)
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
        self._pump: asyncio.Task[None] | None = None
        self._told_turn: int = -1
        self._states: dict[str, dict[str, Any]] = {}
        self._seen: dict[str, int] = {}
        self._typed: list[tuple[int, int]] | None = None
        # Lines told while the pump handles a batch of events, sent in one write.
        self._batch: list[str] | None = None
        # Between two games of the match being played: its states are kept here
        # (unsaid) until the player types 'join'.
        self._held: str | None = None
        self._held_back: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        # The users whose words (gag: kept with the account, read at login) and
        # invitations (blind: for this login) this session ignores.
        self.gagged: set[str] = set()
        self.blinded: set[str] = set()
        # The users this login waits for (``waitfor``), told once when they log in.
        self.waiting_for: set[str] = set()
        settings = service.settings
        self._limit = TokenBucket(settings.messages_per_second, settings.message_burst)
        self._runner: asyncio.Task[None] | None = None
        self._authenticated_at = 0  # the service's moderation epoch before login
        self._ended_by_server = False
        # The commands' handlers, made at the first command (not for every line).
        self._commands: dict[str, Callable[[str], Awaitable[None]]] | None = None

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
        await self._send_safe([line_safe(text) for text in texts])

    async def _send_safe(self, texts: list[str]) -> None:
        """Send lines already made safe (who lines are, once for every session)."""
        if texts:
            await self._send_text("\r\n".join(texts) + "\r\n")

    async def _send_text(self, text: str) -> None:
        """Send safe lines with their ends (in the pump's batch while it tells one)."""
        if self._batch is not None:
            self._batch.append(text)
        else:
            await self._write(text)

    async def error(self, text: str) -> None:
        """Send a FIBS error line (``** ...``)."""
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

    # -- the connection's life -----------------------------------------------------

    async def run(self) -> None:
        """Serve the connection until the client quits or goes away, or the server
        ends it (a kick, a ban, a client too slow to read or flooding)."""
        self._runner = asyncio.current_task()
        try:
            await self._write(f"backgammon {__version__} - FIBS front end\r\nlogin: ")
            if not await self._log_in_in_time():
                return
            await self._welcome()
            while True:
                line = await self._next_line()
                if line is None:
                    continue
                if not await self.command(line):
                    break
        except (EOFError, ConnectionError):
            pass
        except asyncio.CancelledError:
            if not self._ended_by_server or self._runner is None:
                raise
            self._runner.uncancel()
        finally:
            await self.close()

    async def _log_in_in_time(self) -> bool:
        """Wait for a login (or a registration), at most ``fibs_login_timeout``
        seconds from the connection, whatever the client sends meanwhile: False
        (told) when none came. A connection that never logs in would otherwise hold
        one of its address's connections and a session for ever."""
        timeout = self.service.settings.fibs_login_timeout
        try:
            async with asyncio.timeout(timeout):
                while self.user is None:
                    line = await self._next_line()
                    if line is not None:
                        await self._login(line)
        except TimeoutError:
            with contextlib.suppress(TimeoutError):  # (a client that does not read)
                async with asyncio.timeout(1.0):
                    await self.error(f"You did not log in within {timeout:g} seconds.")
            return False
        return True

    async def _next_line(self) -> str | None:
        """The next line, or None after an error line for one that was refused. Every
        line takes a token, a refused one (too long, not text) too: each gets an
        answer, so a flood of them must meet the limit as good lines do.

        Raises:
            ConnectionAbortedError: the client kept flooding (told, to be closed).
        """
        refusal = None
        line = ""
        try:
            line = (await self._read_line()).strip()
        except LineTooLongError:
            refusal = "Unknown command: (a line too long, ignored)"
        except UnicodeDecodeError:
            refusal = "Unknown command: (bytes that are not text, ignored)"
        if not self._limit.allow():
            if self._limit.flooding:
                await self.error("Too many commands: you are disconnected.")
                raise ConnectionAbortedError("flooding")
            refusal = "You are sending commands too fast; wait a moment."
        if refusal is not None:
            await self.error(refusal)
            return None
        return line

    async def close(self) -> None:
        """Leave the service (the user's matches go on; see docs/fibs.md)."""
        await self.feed.leave(self)
        if self.connection is not None:
            self.service.disconnect(self.connection)
            self.connection = None
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump

    # -- login ---------------------------------------------------------------------

    async def _login(self, line: str) -> None:
        words = line.split()
        if not words:
            await self._write("login: ")
            return
        if words[0] == "login" and len(words) >= 5:
            self.client, self.clip = words[1], True
            await self._check_password(words[3], " ".join(words[4:]))
        elif words[0] == "guest" and len(words) == 1:
            await self._register()
        elif len(words) == 1:
            await self._write("password: ")
            password = await self._next_line()
            await self._check_password(words[0], password or "")
        else:
            await self._write("login: ")
            return
        if self.user is None:
            await self._write("login: ")

    async def _check_password(self, name: str, password: str) -> None:
        self._authenticated_at = self.service.moderation_epoch
        try:
            self.user = await self.service.check_login(name, password, self.address)
        except ServiceError as error:
            if error.code in ("throttled", "busy", "forbidden"):
                await self.error(error.message)

    async def _register(self) -> None:
        """FIBS's registration as ``guest``: the greeting, then ``name NAME`` at the
        ``> `` prompt (a taken name refused at once), the password twice."""
        await self.line(f"Welcome to {SERVER_NAME}. You just logged in as guest.")
        for text in REGISTER_HELP:
            await self.line(text)
        while self.user is None:
            await self._write("> ")
            words = (await self._next_line() or "").split()
            if words and words[0].lower() in LOGOUT_WORDS:
                await self.line("                             Goodbye.")
                raise EOFError
            if len(words) != 2 or words[0].lower() != "name":
                await self.line("Type 'name NAME' to register, or 'bye'.")
                continue
            await self._register_name(words[1])
        await self.line("You are registered.")
        await self.line("Type 'help beginner' to get started.")
        await self._write("> ")

    async def _register_name(self, name: str) -> None:
        """Ask for the password twice and make the account ``name``."""
        if await self._name_taken(name):
            await self.error(f"Please use another name. '{name}' is already used by someone else.")
            return
        await self.line(f"Your name will be {name}")
        await self.line("Type in no password and hit Enter/Return if you want to change it now.")
        await self._write("Please give your password: ")
        first = await self._next_line() or ""
        if not first:
            return
        await self._write("Please retype your password: ")
        second = await self._next_line() or ""
        if first != second:
            await self.error("The two passwords were not identical. Please give them again.")
            return
        try:
            self.user, _token = await self.service.register(name, first, address=self.address)
        except ServiceError as error:
            await self.error(error.message)

    async def _name_taken(self, name: str) -> bool:
        try:
            await self.service.user_named(name)
        except ServiceError:
            return False
        return True

    async def _welcome(self) -> None:
        user = self.user
        assert user is not None
        rating, experience = await self.service.rating_of(user)
        # Read once here, the who facts serve every session told of this login.
        await self.service.who(user.id)
        self.who_lines.logged_in(user.id, self.login_time)
        self.connection = Connection(user, queue_size=1024)
        self.connection.reads_legal_plays = False
        self.gagged = await self.service.gags(user)
        self.service.connect(self.connection, self._authenticated_at)
        self.feed.join(self)  # before the who list: no login falls between
        if self.clip:
            await self.line(f"1 {user.name} {self.login_time} {self.address}")
            await self.line(own_info_line(user.name, self.toggles, rating, experience))
            await self.line("3")
            for text in MOTD:
                await self.line(text)
            await self.line("4")
            await self._tell_stored_messages(user)
            await self._who()
        else:
            await self.line(f"Welcome {user.name}. Your rating is {rating:.2f} ({experience}).")
            for text in MOTD:
                await self.line(text)
            await self._tell_stored_messages(user)
        self.feed.release(self)
        self._pump = asyncio.create_task(self._pump_events())
        for match in await self.service.matches_of(user):
            if match["settings"]["variant"] == "standard":
                await self._start_playing(match["id"], resumed=True)
                break

    # -- commands ------------------------------------------------------------------

    async def command(self, line: str) -> bool:
        """Handle one command line; False when the client logs out or the server
        closed the session (a kick or ban heard before the line was read)."""
        if self.connection is not None and self.connection.closed:
            return False
        if not line:
            return True
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if self._commands is None:
            self._commands = self._handlers()
        handler = self._commands.get(word)
        if handler is None:
            await self.error(f"Unknown command: '{word}'")
            return True
        if word in LOGOUT_WORDS:
            await self.line("                             Goodbye.")
            return False
        try:
            await handler(rest)
        except ServiceError as error:
            await self.error(error.message)
        except ValidationError as error:  # typed text that does not fit a request
            await self.error(_first_problem(error))
        return True

    def _handlers(self) -> dict[str, Callable[[str], Awaitable[None]]]:
        async def nothing(_rest: str) -> None:
            return None

        handlers: dict[str, Callable[[str], Awaitable[None]]] = {
            "who": self._cmd_who,
            "rawwho": self._cmd_who,
            "invite": self._cmd_invite,
            "join": self._cmd_join,
            "roll": self._simple("roll"),
            "r": self._simple("roll"),
            "move": self._cmd_move,
            "m": self._cmd_move,
            "double": self._simple("double"),
            "accept": self._cmd_accept,
            "reject": self._cmd_reject,
            "resign": self._cmd_resign,
            "leave": self._cmd_leave,
            "board": self._cmd_board,
            "watch": self._cmd_watch,
            "unwatch": self._cmd_unwatch,
            "look": self._cmd_look,
            "say": self._cmd_say,
            "shout": self._cmd_shout,
            "kibitz": self._cmd_kibitz,
            "whisper": self._cmd_whisper,
            "tell": self._cmd_tell,
            "toggle": self._cmd_toggle,
            "set": self._cmd_set,
            "help": self._cmd_help,
            "message": self._cmd_message,
            "waitfor": self._cmd_waitfor,
            "gag": self._cmd_gag,
            "blind": self._cmd_blind,
            "whois": self._cmd_whois,
            "pip": self._cmd_pip,
        }
        for word in LOGOUT_WORDS:
            handlers[word] = nothing
        return handlers

    async def _named(self, name: str) -> User | None:
        """The user called ``name``, or None after FIBS's error line."""
        try:
            return await self.service.user_named(name)
        except ServiceError:
            await self.error(f"There is no one called {name}")
            return None

    async def _cmd_help(self, _rest: str) -> None:
        await self.line(f"Commands: {COMMANDS}. Moves: 'move 13-7 8-7', 'move bar-22 6-off'.")

    async def _cmd_who(self, rest: str) -> None:
        await self._who(rest.split()[0] if rest else None)

    async def _who(self, only: str | None = None) -> None:
        shown = self.service.online_names()
        here = {user_id for user_id, _name in shown}
        bots = [(bot.id, bot.name) for bot in self.service.bots() if bot.id not in here]
        if bots:
            shown = sorted(shown + bots, key=lambda item: item[1])
        if only is not None:
            shown = [item for item in shown if item[1].lower() == only.lower()]
        ids = [user_id for user_id, _name in shown]
        facts = await self.service.who_many(ids)
        lines = [self._who_text(user_id, facts[user_id]) for user_id in ids if user_id in facts]
        if self.clip:
            lines.append("6")
        await self._send_safe(lines)

    def _who_text(self, user_id: int, facts: WhoFacts) -> str:
        """A who line (made safe): CLIP's ``5`` line, or a line for people."""
        if self.clip:
            own = self.user is not None and user_id == self.user.id
            return self.who_lines.line(user_id, facts, self.toggles["ready"] if own else None)
        name, rating, experience = facts.name, facts.rating, facts.experience
        opponent = facts.opponent or "-"
        return line_safe(
            f"{name:20} rating {rating:8.2f}  experience {experience:5}  playing {opponent}"
        )

    async def _cmd_invite(self, rest: str) -> None:
        user = self.user
        assert user is not None
        words = rest.split()
        if not words:
            await self.error("Invite whom?")
            return
        name = words[0]
        length = 1
        if len(words) > 1:
            if words[1] == "unlimited":
                length = 0
            elif words[1].isascii() and words[1].isdigit() and 1 <= int(words[1]) <= 64:
                length = int(words[1])
            else:
                await self.error(f"Match length '{words[1]}': a number 1-64 or 'unlimited'.")
                return
        if self._busy():
            await self.error("You are already playing.")
            return
        target = await self._named(name)
        if target is None:
            return
        if target.id == user.id:
            await self.error("You can't invite yourself.")
            return
        opponent = f"bot:{target.bot_level}" if target.kind == "bot" else target.name
        settings = MatchSettings(length=length, clock=None)
        request = CreateMatch(settings=settings, opponent=opponent)
        what = "an unlimited match" if not length else f"a {length} point match"
        if target.kind == "bot":  # the match starts at once: this command starts playing it
            with self._starting_match():
                created = await self.service.create_match(user, request)
                await self.line(f"** Player {target.name} has joined you for {what}.")
                await self._start_playing(created["id"], announce=False)
        else:
            await self.service.create_match(user, request)
            await self.line(f"** You invited {target.name} to {what}.")

    async def _cmd_join(self, rest: str) -> None:
        user = self.user
        assert user is not None
        if self._held is not None and self.connection is not None:
            # The next game of the match: told by the pump, in order with what follows.
            self.connection.send({"type": "join_next_game"})
            return
        if not rest:
            await self.error("Join whom?")
            return
        if self._busy():
            await self.error("You are already playing.")
            return
        with self._starting_match():
            match_id = await self.service.invitation_from(user, rest.split()[0])
            summary = (await self.service.state(match_id))["open"]
            refusal = _unshowable(summary["settings"])
            if refusal is not None:
                await self.error(f"You can't join this match here: {refusal}.")
                return
            await self.service.join_match(user, match_id)
            await self._start_playing(match_id)

    def _busy(self) -> bool:
        return self.playing is not None or self._starting

    @contextlib.contextmanager
    def _starting_match(self) -> Iterator[None]:
        """Claim the start of a match for the code inside: the ``match_started``
        event that the service sends meanwhile (it may be handled before the
        command's own reply comes back) is then left to it."""
        self._starting = True
        try:
            yield
        finally:
            self._starting = False

    async def _start_playing(
        self, match_id: str, resumed: bool = False, announce: bool = True
    ) -> None:
        assert self.connection is not None and self.user is not None
        state = await self.service.state(match_id)
        seat = self.service.seat_in(match_id, self.user)
        if seat is None or "game" not in state:
            return
        refusal = _unshowable(state["settings"])
        if refusal is not None:
            await self.line(f"** Your match {match_id} is not played here: {refusal}.")
            return
        self.playing = match_id
        self._told_turn = -1
        names = state["players"]
        length = state["settings"]["length"]
        what = "an unlimited match" if not length else f"a {length} point match"
        if resumed:
            self._seen[match_id] = state["seq"]
            self._states[match_id] = state
            await self.line(
                f"You are now playing with {names[1 - seat]}. Your running match was loaded."
            )
        else:
            self._seen[match_id] = 0  # the pump tells the match from its start
            if announce:
                await self.line(f"** You are now playing {what} with {names[1 - seat]}")
        await self.service.subscribe(self.connection, match_id)

    async def _act(self, kind: str, **fields: Any) -> None:
        user = self.user
        assert user is not None
        if self.playing is None:
            await self.error("You're not playing.")
            return
        if self._held == self.playing:
            await self.line(JOIN_NEXT_GAME)
            return
        try:
            action = ActionBody.model_validate({"kind": kind, **fields})
        except ValidationError as error:  # e.g. a move of more than 200 characters
            await self.error(_first_problem(error))
            return
        try:
            await self.service.act(user, self.playing, action)
        except ServiceError as error:
            await self.error(self._fibs_error(kind, error))

    def _fibs_error(self, kind: str, error: ServiceError) -> str:
        """FIBS's words for a refused action, where FIBS has them."""
        state = self._states.get(self.playing or "")
        game = None if state is None else state.get("game")
        opponent = "Your opponent"
        if state is not None and self.user is not None:
            opponent = next((n for n in state["players"] if n != self.user.name), opponent)
        if error.code == "not_your_turn":
            return {
                "roll": "It's not your turn to roll the dice.",
                "play": "It's not your turn to move.",
                "double": "It's not your turn to double",
            }.get(kind, error.message)
        if error.code == "illegal" and game is not None:
            if kind == "roll" and game["dice"] is not None:
                return "You did already roll the dice."
            if kind == "play" and game["dice"] is None:
                return "You have to roll the dice before moving."
            if kind == "play" and self._typed is not None and state is not None:
                return self._move_error(state, self._typed)
            if kind == "double" and game["dice"] is not None:
                return "You can only double before you roll the dice."
            if kind in ("take", "drop", "accept", "reject") and game["pending"] is None:
                return f"{opponent} didn't double or resign."
        return error.message

    def _move_error(self, state: dict[str, Any], typed: list[tuple[int, int]]) -> str:
        """FIBS's words for a refused move of the player's (docs/fibs.md)."""
        assert self.user is not None
        game = state["game"]
        seat = state["players"].index(self.user.name)
        position = Position.from_slots_text(game["board"]["slots"])
        if seat == 1:
            position = position.flip()
        return move_error(position, (game["dice"][0], game["dice"][1]), typed)

    def _simple(self, kind: str) -> Callable[[str], Awaitable[None]]:
        async def act(_rest: str) -> None:
            await self._act(kind)

        return act

    def _pending(self) -> dict[str, Any] | None:
        if self.playing is None:
            return None
        state = self._states.get(self.playing)
        return None if state is None or state.get("game") is None else state["game"]["pending"]

    async def _cmd_accept(self, _rest: str) -> None:
        pending = self._pending()
        if pending is not None and pending["kind"] == "resign":
            await self._act("accept")
        else:
            await self._act("take")

    async def _cmd_reject(self, _rest: str) -> None:
        pending = self._pending()
        if pending is not None and pending["kind"] == "resign":
            await self._act("reject")
        else:
            await self._act("drop")

    async def _cmd_resign(self, rest: str) -> None:
        levels = {"n": 1, "normal": 1, "g": 2, "gammon": 2, "b": 3, "backgammon": 3}
        level = levels.get(rest.split()[0].lower() if rest else "n")
        if level is None:
            await self.error("Type 'resign n', 'resign g' or 'resign b'.")
            return
        await self._act("resign", level=level)

    async def _cmd_move(self, rest: str) -> None:
        words = rest.replace(",", " ").split()
        if not words:
            await self.error("Move what? e.g. 'move 13-7 8-7'")
            return
        moves: list[str] = []
        marked = ["-" in word or "/" in word for word in words]
        if all(marked):
            moves = [word.replace("-", "/") for word in words]
        elif not any(marked) and len(words) % 2 == 0:
            moves = [f"{words[i]}/{words[i + 1]}" for i in range(0, len(words), 2)]
        else:
            await self.error(f"Can't understand the move '{rest}'.")
            return
        typed = self._typed = _typed_steps(moves)
        points = [point for step in typed or () for point in step]
        if typed is not None and len(typed) <= 8 and all(0 <= point <= 25 for point in points):
            # The match finds the one play of these single-die steps.
            await self._act("play", steps=typed)
        else:
            await self._act("play", move=" ".join(moves))

    async def _cmd_leave(self, _rest: str) -> None:
        if self.playing is None:
            await self.error("You're not playing.")
            return
        assert self.connection is not None
        self.service.hub.leave(self.connection, self.playing)
        await self.line("** You terminated the game. The game was saved.")
        self.playing = None
        self._held, self._held_back = None, []

    async def _cmd_board(self, _rest: str) -> None:
        match_id = self.playing or self.watching
        if match_id is None:
            await self.error("You're not watching or playing.")
            return
        state = self._states.get(match_id) or await self.service.state(match_id)
        await self._board(state, match_id)

    async def _match_of(self, rest: str, ask: str) -> tuple[User, dict[str, Any]] | None:
        """The user named first in ``rest`` and the match they are playing, or None
        after FIBS's error line (``ask`` when no name is given)."""
        if not rest:
            await self.error(ask)
            return None
        target = await self._named(rest.split()[0])
        if target is None:
            return None
        playing = await self.service.matches_of(target, viewer=self.user)
        if not playing:
            await self.error(f"{target.name} is not playing.")
            return None
        return target, playing[0]

    async def _cmd_watch(self, rest: str) -> None:
        """Watch a player: their match now, or (as FIBS) the next one they start."""
        assert self.connection is not None
        if not rest:
            await self.error("Watch whom?")
            return
        if self.playing is not None:
            await self.error("You can't watch another game while you're playing.")
            return
        target = await self._named(rest.split()[0])
        if target is None:
            return
        self._stop_watching()
        self.watched_name = target.name
        await self.line(f"You're now watching {target.name}.")
        playing = await self.service.matches_of(target, viewer=self.user)
        if not playing:
            await self.line(f"{target.name} is not doing anything interesting.")
            return
        await self._watch_match(playing[0]["id"], target.name)

    async def _watch_match(self, match_id: str, name: str) -> None:
        """Watch ``name``'s match, unless it is another's unlisted match."""
        assert self.connection is not None and self.user is not None
        state = await self.service.state(match_id)
        if name not in state["players"] or not self.service.findable(match_id, self.user):
            return
        refusal = _unshowable(state["settings"])
        if refusal is not None:
            await self.line(f"** {name}'s match is not shown here: {refusal}.")
            return
        self.watching = match_id
        self.watched_seat = state["players"].index(name)
        self._states[match_id] = state
        await self.service.subscribe(self.connection, match_id)

    def _stop_watching(self) -> None:
        if self.watching is not None and self.connection is not None:
            self.service.hub.leave(self.connection, self.watching)
        self.watching = None

    async def _cmd_unwatch(self, _rest: str) -> None:
        if self.watched_name is None:
            await self.error("You're not watching.")
            return
        name, self.watched_name = self.watched_name, None
        self._stop_watching()
        await self.line(f"You stop watching {name}.")

    async def _cmd_look(self, rest: str) -> None:
        found = await self._match_of(rest, "Look at whom?")
        if found is None:
            return
        target, match = found
        state = await self.service.state(match["id"])
        refusal = _unshowable(state["settings"])
        if refusal is not None:
            await self.error(f"{target.name}'s match is not shown here: {refusal}.")
            return
        seat = state["players"].index(target.name)
        await self.line(board_line(state, seat, target.name))

    async def _cmd_say(self, rest: str) -> None:
        user = self.user
        assert user is not None
        if self.playing is None:
            await self.error("You're not playing, so you can't say anything.")
            return
        state = self._states.get(self.playing) or await self.service.state(self.playing)
        opponent = next(name for name in state["players"] if name != user.name)
        await self.service.tell(user, opponent, rest, kind="say")
        await self.line(f"16 {opponent} {rest}" if self.clip else f"You say: {rest}")

    async def _cmd_tell(self, rest: str) -> None:
        name, _, text = rest.partition(" ")
        if not name or not text:
            await self.error("Tell whom what?")
            return
        assert self.user is not None
        if await self._named(name) is None:
            return
        target = await self.service.tell(self.user, name, text)
        await self.line(
            f"16 {target.name} {text}" if self.clip else f"You tell {target.name}: {text}"
        )

    async def _cmd_message(self, rest: str) -> None:
        """FIBS's ``message NAME TEXT``: told at once if NAME is online (CLIP 10),
        else kept for NAME's next login (CLIP 11)."""
        name, _, text = rest.partition(" ")
        if not name or not text.strip():
            await self.error(MESSAGE_USAGE)
            return
        assert self.user is not None
        try:
            target, delivered = await self.service.leave_message(self.user, name, text)
        except ServiceError as error:
            if error.code == "not_found":
                await self.error(f"Don't know user {name}")
            elif error.code == "forbidden":
                raise
            else:
                await self.error(f"{MESSAGE_USAGE} ({error.message})")
            return
        if self.clip:
            await self.line(f"{10 if delivered else 11} {target.name}")
        else:
            verb = "delivered to" if delivered else "saved for"
            await self.line(f"Message {verb} {target.name}.")

    async def _tell_stored_messages(self, user: User) -> None:
        """At login, the messages kept for this user (FIBS: after the MOTD)."""
        messages = await self.service.take_messages(user)
        if messages:
            await self.line("There are messages for you:")
        for message in messages:
            await self._tell_message(message)

    async def _tell_message(self, message: dict[str, Any]) -> None:
        """A ``message`` from another user (CLIP 9: from, time, text)."""
        sender, text, at = message["from"], message["text"], int(message["at"])
        if sender in self.gagged:
            return
        if self.clip:
            await self.line(f"9 {sender} {at} {text}")
        else:
            when = time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(at))
            await self.line(f"Message from {sender} on {when} UTC: {text}")

    async def _cmd_waitfor(self, rest: str) -> None:
        """Be told when a user logs in (FIBS's ``waitfor``); alone, list them."""
        if not rest.split():
            waiting = ", ".join(sorted(self.waiting_for)) or "no one"
            await self.error(f"You are waiting for {waiting}.")
            return
        target = await self._other_user(rest, "You can't wait for yourself.")
        if target is None:
            return
        if any(user_id == target.id for user_id, _name in self.service.online_names()):
            await self.error(f"{target.name} is logged in now.")
        elif target.name not in self.waiting_for and len(self.waiting_for) >= MAX_WAITING_FOR:
            await self.error(f"You can wait for at most {MAX_WAITING_FOR} users.")
        else:
            self.waiting_for.add(target.name)
            await self.error(f"Waiting for {target.name} to log in.")

    async def _told_waited_for(self, name: str) -> None:
        """A user this login waits for logged in: as FIBS, tell both."""
        self.waiting_for.discard(name)
        await self.error(f"FINALLY!!! {name} logs in")
        assert self.user is not None
        await self.service.tell_waited_for(self.user, name)

    async def _cmd_gag(self, rest: str) -> None:
        """Stop (or start again) hearing a user's words: their tells, shouts and
        messages, stored ones too; kept with the account, for later logins."""
        target = await self._other_user(rest, "You talk too much, don't you?")
        if target is not None:
            assert self.user is not None
            await self.service.set_gag(self.user, target, target.name not in self.gagged)
            await self._flip(self.gagged, target.name, "gag")

    async def _cmd_blind(self, rest: str) -> None:
        """Stop (or start again) seeing a user's invitations, for this login."""
        target = await self._other_user(rest, "You can't read this message now, can you?")
        if target is not None:
            await self._flip(self.blinded, target.name, "blind")

    async def _other_user(self, rest: str, yourself: str) -> User | None:
        """The user named in ``rest``, not oneself (None after an error line)."""
        assert self.user is not None
        words = rest.split()
        if len(words) != 1:
            await self.error("Unknown command: give one user's name")
            return None
        target = await self._named(words[0])
        if target is not None and target.id == self.user.id:
            await self.error(yourself)
            return None
        return target

    async def _flip(self, names: set[str], name: str, verb: str) -> None:
        if name in names:
            names.discard(name)
            await self.error(f"You un{verb} {name}.")
        else:
            names.add(name)
            await self.error(f"You {verb} {name}.")

    async def _cmd_whois(self, rest: str) -> None:
        """FIBS's facts about a user: online or not, playing whom, rating."""
        name = rest.split()[0] if rest.split() else ""
        try:
            target = await self.service.user_named(name)
            facts = await self.service.who(target.id)
        except ServiceError:
            await self.line(f"No information found on user {name}.")
            return
        online = any(user_id == target.id for user_id, _public in self.service.online())
        lines = [f"Information about {facts.name}:"]
        # Idle time is not kept: an online user shows 0:00.
        lines.append(" Still logged in. 0:00 minutes idle." if online else NOT_LOGGED_IN)
        if facts.opponent:
            lines.append(f" {facts.name} is playing with {facts.opponent}.")
        else:
            ready = "ready to play" if facts.kind == "bot" else "not ready to play"
            lines.append(f" {facts.name} is {ready}, not watching, not playing.")
        lines.append(f" Rating: {facts.rating:.2f} Experience: {facts.experience}")
        lines.append(" No email address.")
        await self.lines(lines)

    async def _cmd_pip(self, _rest: str) -> None:
        """The pip counts of the game being played or watched (FIBS: 'points for')."""
        match_id = self.playing or self.watching
        if match_id is None:
            await self.error("You're not watching or playing.")
            return
        if self.playing is not None and not self.toggles["allowpip"]:
            await self.error("You don't allow the use of the server's 'pip' command.")
            return
        state = self._states.get(match_id) or await self.service.state(match_id)
        game = state.get("game")
        if not game:
            await self.error("You're not watching or playing.")
            return
        board = game["board"]
        pips = Position.from_slots(board["player0"], board["player1"]).pip_counts()
        names = state["players"]
        seat = self.watched_seat
        if self.playing is not None and self.user is not None and self.user.name in names:
            seat = names.index(self.user.name)
        first = "You" if self.playing is not None else names[seat]
        await self.lines(
            [f"points for {first}: {pips[seat]}", f"points for {names[1 - seat]}: {pips[1 - seat]}"]
        )

    async def _cmd_shout(self, rest: str) -> None:
        assert self.user is not None
        await self.service.chat(self.user, "lobby", rest)
        await self.line(f"17 {rest}" if self.clip else f"You shout: {rest}")

    async def _cmd_kibitz(self, rest: str) -> None:
        await self._match_chat(rest, "auto", "19", "kibitz")

    async def _cmd_whisper(self, rest: str) -> None:
        await self._match_chat(rest, "spectators", "18", "whisper")

    async def _match_chat(self, text: str, audience: str, code: str, verb: str) -> None:
        """Kibitz (to everyone at the match) or whisper (to its watchers)."""
        assert self.user is not None
        room = self.playing or self.watching
        if room is None:
            await self.error("You're not watching or playing.")
            return
        await self.service.chat(self.user, room, text, audience=audience)
        await self.line(f"{code} {text}" if self.clip else f"You {verb}: {text}")

    async def _cmd_toggle(self, rest: str) -> None:
        if not rest:
            await self.line("The current settings are:")
            for name, value in sorted(self.toggles.items()):
                await self.line(f"{name:12} {'YES' if value else 'NO'}")
            return
        name = rest.split()[0].lower()
        if name not in self.toggles:
            await self.error(f"Don't know how to toggle {name}")
            return
        self.toggles[name] = not self.toggles[name]
        on, off = TOGGLE_TEXTS[name]
        await self.error(on if self.toggles[name] else off)

    async def _cmd_set(self, rest: str) -> None:
        words = rest.split()
        if len(words) == 2 and words[0] == "boardstyle" and words[1] in ("1", "2", "3"):
            await self.line(f"Value of 'boardstyle' set to {words[1]}.")
            return
        await self.error(f"Can't set '{rest}'.")

    # -- events from the service -----------------------------------------------------

    async def _pump_events(self) -> None:
        connection = self.connection
        assert connection is not None
        while True:
            try:
                if await self._tell_next_events(connection):
                    await self.error("You were disconnected by the server.")
                    self._end_by_server()
                    return
            except (ConnectionError, OSError):
                return
            finally:
                self._batch = None

    async def _tell_next_events(self, connection: Connection) -> bool:
        """Wait for events, tell up to :data:`PUMP_BATCH` of them in one write; True if
        the connection was closed. (The events are let go on return, not kept while
        the next ones are awaited: a thousand idle sessions holding their last board
        kept the garbage collector's young generation large.)"""
        messages = [await connection.queue.get()]
        while len(messages) < PUMP_BATCH and not connection.queue.empty():
            messages.append(connection.queue.get_nowait())
        self._batch = []
        for message in messages:
            if message is None:
                break
            await self._event_safely(message)
        told, self._batch = self._batch, None
        if told:
            await self._write("".join(told))
        return None in messages

    async def _event_safely(self, message: dict[str, Any]) -> None:
        """Tell one event; a failure is logged and the session goes on."""
        try:
            await self._event(message)
        except (ConnectionError, OSError):
            raise
        except Exception:  # pragma: no cover - logged; the session goes on
            log.exception("FIBS session could not tell an event")

    def _end_by_server(self) -> None:
        """End :meth:`run` (waiting for the client's next line) from the pump."""
        if self._runner is not None and not self._runner.done():
            self._ended_by_server = True
            self._runner.cancel()

    async def _event(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "state":
            await self._state(message)
        elif kind == "lobby_text":
            await self._send_text(message["text"])
        elif kind == "lobby_event":
            await self._lobby_event(message)
        elif kind == "invitation":
            await self._invitation(message)
        elif kind == "match_closed":
            await self._match_closed(message)
        elif kind in ("tell", "say"):
            if message["from"] in self.gagged:
                return
            text = f"12 {message['from']} {message['text']}"
            await self.line(text if self.clip else f"{message['from']} says: {message['text']}")
        elif kind == "message":
            await self._tell_message(message)
        elif kind == "waited_for":
            if message["from"] not in self.gagged:
                await self.line(f"{message['from']} is waiting for you to log in.")
        elif kind == "join_next_game":
            await self._join_next_game()
        elif kind == "chat":
            await self._chat(message)
        elif kind == "match_started":
            await self._match_started(message)
        elif kind == "tournament_pairing":
            opponent = message["opponent"] or "nobody (a bye)"
            await self.line(
                f"** Tournament {message['name']}, round {message['round']}: you play {opponent}."
            )
        elif kind in ("kicked", "moderation"):
            await self.error(message.get("message", "You were kicked."))

    async def _match_started(self, message: dict[str, Any]) -> None:
        """A match of ours began (someone joined our invitation, or we joined)."""
        match_id = message["match"]
        if self._busy() or self.user is None:
            return  # already in it (we joined, or a bot accepted), or playing another one
        names = message["players"]
        other = next((name for name in names if name != self.user.name), "?")
        with self._starting_match():
            state = await self.service.state(match_id)
            length = state["settings"]["length"]
            what = f"a {length} point match" if length else "an unlimited match"
            # Playing first, then the line: a command sent on seeing it finds the match.
            await self._start_playing(match_id, announce=False)
            await self.line(f"** Player {other} has joined you for {what}.")

    async def _lobby_event(self, message: dict[str, Any]) -> None:
        """What the lobby feed hands this session alone: a match that starts (for
        ``watch NAME``), a login it waits for. Logins and logouts are the feed's."""
        event = message.get("event")
        if event == "match_started":
            await self._watched_starts(message["match"])
            return
        name = (message.get("user") or {}).get("name")
        if event == "online" and name in self.waiting_for:
            await self._told_waited_for(name)

    async def _watched_starts(self, match_id: str) -> None:
        """The player we watch between matches starts one: watch it (as FIBS)."""
        name = self.watched_name
        if name is None or self.watching is not None or self.playing is not None:
            return
        state = await self.service.state(match_id)
        names = state["players"]
        if name not in names or self.user is None:
            return
        if not self.service.findable(match_id, self.user):
            return  # (an unlisted match's start is not told; this is defence in depth)
        length = state["settings"]["length"]
        what = f"a {length} point match" if length else "an unlimited match"
        self._seen[match_id] = 0  # told from its start
        # Watching first, then the line: a kibitz sent on seeing it finds the match.
        await self._watch_match(match_id, name)
        await self.line(f"{names[0]} and {names[1]} start {what}.")

    async def _invitation(self, message: dict[str, Any]) -> None:
        length = message["settings"]["length"]
        sender = message["from"]
        if sender in self.blinded:
            return
        what = "an unlimited match" if not length else f"a {length} point match"
        refusal = _unshowable(message["settings"])
        if refusal is not None:
            await self.line(f"{sender} wants to play {what} of {message['settings']['variant']}.")
            await self.line(f"** It can't be played here: {refusal}.")
            return
        await self.line(f"{sender} wants to play {what} with you.")
        await self.line(f"Type 'join {sender}' to accept.")

    async def _match_closed(self, message: dict[str, Any]) -> None:
        """An invitation of ours was declined, or one to us cancelled (on the web).
        FIBS has no such message: told to people at a terminal only (a client
        program would not know the line)."""
        by = message["by"]
        if self.clip or self.user is None or by == self.user.name or by in self.blinded:
            return
        if message["reason"] == "declined":
            await self.line(f"** {by} declines your invitation.")
        elif message["reason"] == "cancelled":
            await self.line(f"** {by} cancels the invitation.")

    async def _chat(self, message: dict[str, Any]) -> None:
        sender, text, room = message["from"], message["text"], message["room"]
        if (self.user is not None and sender == self.user.name) or sender in self.gagged:
            return
        if room == "lobby":
            await self.line(f"13 {sender} {text}" if self.clip else f"{sender} shouts: {text}")
        elif message.get("audience") == "spectators":
            await self.line(f"14 {sender} {text}" if self.clip else f"{sender} whispers: {text}")
        else:
            await self.line(f"15 {sender} {text}" if self.clip else f"{sender} kibitzes: {text}")

    async def _state(self, message: dict[str, Any]) -> None:
        match_id = message["match"]
        state = message["state"]
        if "game" not in state:
            return  # an open match's summary
        entries = message["entries"]
        first = state["seq"] - len(entries)
        seen = self._seen.get(match_id, first)
        if state["seq"] <= seen and entries:
            return  # already told
        if first > seen:
            entries = await self.service.log_entries(match_id, seen, first) + entries
        self._seen[match_id] = state["seq"]
        if match_id == self._held:
            self._held_back.append((state, entries))
            return
        await self._tell_state(match_id, state, entries)

    async def _tell_state(
        self, match_id: str, state: dict[str, Any], entries: list[dict[str, Any]]
    ) -> None:
        """Tell a match's new entries and state (to its player or watcher)."""
        previous = self._states.get(match_id)
        self._states[match_id] = state
        user = self.user
        assert user is not None
        names = state["players"]
        if match_id == self.playing and user.name in names:
            seat = names.index(user.name)
            viewer = "You"
        elif match_id == self.watching:
            seat = self.watched_seat
            viewer = names[seat]
        else:
            return
        playing = viewer == "You"
        view = None if previous is None else previous.get("game")
        for index, entry in enumerate(entries):
            last = index == len(entries) - 1
            view = self._game_after(view, entry, state, last)
            await self._tell_entry(entry, names, seat, playing, state)
            if view is not None and self.toggles["autoboard"] and _shows_board(entry):
                await self._board({**state, "game": view}, match_id)
            if playing and last:  # a session catching up is prompted for now only
                await self._entry_prompt(entry, view, seat, state)
            over = entry.get("game_over")
            if over is not None:
                await self._game_over(over, names, seat, playing, state)
                rest = entries[index + 1 :]
                if playing and (state["result"] is None or rest):
                    await self._hold_next_game(match_id, state, rest)
                    return
        if state["game"] is not None and not entries:
            await self._board(state, match_id)
        if playing:
            await self._prompt(state, seat)
        if state["result"] is not None:
            await self._match_over(state, seat, viewer == "You")
            if match_id == self.playing:
                self.playing = None
            if match_id == self.watching:
                self.watching = None

    async def _hold_next_game(
        self, match_id: str, state: dict[str, Any], rest: list[dict[str, Any]]
    ) -> None:
        """A game of the match being played ended and the match goes on: as FIBS,
        ask for 'join' and keep what follows unsaid until then."""
        self._held = match_id
        self._held_back = [(state, rest)]
        await self.line(JOIN_NEXT_GAME)

    async def _join_next_game(self) -> None:
        """The player typed 'join' between games: tell the next game, from its
        start (in the pump, so that nothing newer is told before it)."""
        match_id, held = self._held, self._held_back
        self._held, self._held_back = None, []
        if match_id is None or match_id != self.playing:
            return
        for number, (state, entries) in enumerate(held):
            if entries or number == len(held) - 1:
                await self._tell_state(match_id, state, entries)
            if self._held is not None:  # that game ended too (all told while away)
                self._held_back += held[number + 1 :]
                return

    async def _board(self, state: dict[str, Any], match_id: str) -> None:
        user = self.user
        assert user is not None
        names = state["players"]
        if match_id == self.playing and user.name in names:
            await self.line(board_line(state, names.index(user.name)))
        else:
            await self.line(board_line(state, self.watched_seat, names[self.watched_seat]))

    async def _tell_entry(
        self,
        entry: dict[str, Any],
        names: list[str],
        seat: int,
        playing: bool,
        state: dict[str, Any],
    ) -> None:
        kind = entry["kind"]
        by = entry.get("by")
        actor = by if by is not None else entry.get("player")

        def me(who: int | None) -> bool:
            return playing and who == seat

        def name(who: int) -> str:
            return "You" if me(who) else names[who]

        if kind == "new_game":
            await self.line(f"Starting a new game with {names[1 - seat]}.")
        elif kind == "opening":
            dice = entry["dice"]
            mine, theirs = dice[seat], dice[1 - seat]
            await self.line(f"{name(seat)} rolled {mine}, {names[1 - seat]} rolled {theirs}")
            if mine != theirs:
                starter = 0 if dice[0] > dice[1] else 1
                if me(starter):
                    await self.line("It's your turn to move.")
                else:
                    await self.line(f"{names[starter]} makes the first move.")
        elif kind == "roll" and actor is not None:
            dice = entry["dice"]
            verb = "roll" if me(actor) else "rolls"
            await self.line(f"{name(actor)} {verb} {dice[0]} and {dice[1]}.")
        elif kind == "play" and actor is not None:
            steps = entry.get("steps") or []
            if not steps:
                await self.line(f"{name(actor)} can't move.")
            elif not me(actor):  # FIBS does not echo your own move
                await self.line(f"{names[actor]} moves {moves_text(steps, actor != seat)} .")
        elif kind == "double" and by is not None:
            if me(by):
                await self.line(f"You double. Please wait for {names[1 - by]} to accept or reject.")
            elif playing:
                await self.line(self._offer_line(entry, state))
            else:
                await self.line(f"{names[by]} doubles.")
        elif kind == "take" and by is not None:
            cube = state["game"]["cube"]["value"] if state["game"] else 2
            verb = "accept" if me(by) else "accepts"
            await self.line(f"{name(by)} {verb} the double. The cube shows {cube}.")
        elif kind == "resign" and by is not None:
            cube = state["game"]["cube"]["value"] if state["game"] else 1
            value = entry["level"] * cube
            won = f"{value} {_points_word(value)}"
            if me(by):
                await self.line(f"You want to resign. {names[1 - by]} will win {won}.")
            elif playing:
                await self.line(self._offer_line(entry, state))
            else:
                await self.line(f"{names[by]} wants to resign. {names[1 - by]} will win {won}.")
        elif kind == "reject" and by is not None:
            verb = "reject" if me(by) else "rejects"
            await self.line(f"{name(by)} {verb}. The game continues.")

    @staticmethod
    def _game_after(
        view: dict[str, Any] | None, entry: dict[str, Any], state: dict[str, Any], last: bool
    ) -> dict[str, Any] | None:
        """The game as FIBS shows it after ``entry`` (None where unknown); ``last``:
        the state's own last entry."""
        try:
            return game_after(view, entry, state["game"], state["settings"]["variant"], last)
        except (BackgammonError, ValueError, KeyError, TypeError):
            log.warning("FIBS session could not follow a %s entry", entry.get("kind"))
            return None

    async def _entry_prompt(
        self,
        entry: dict[str, Any],
        view: dict[str, Any] | None,
        seat: int,
        state: dict[str, Any],
    ) -> None:
        """FIBS's prompt after an entry of the player's own: none after the opening
        (its 'It's your turn to move.' is the prompt), 'Please move n pieces.' after
        a roll that can move (a roll that cannot is followed by 'You can't move.')."""
        kind = entry["kind"]
        if kind == "opening" and view is not None and view["turn"] == seat:
            self._told_turn = state["seq"]
        elif kind in ("double", "resign") and entry.get("by") == 1 - seat:
            self._told_turn = state["seq"]  # the offer's own line asked for the answer
        elif kind == "roll" and view is not None and view["turn"] == seat:
            to_move = view.get("to_move", 0)
            if to_move:
                self._told_turn = state["seq"]
                await self.line(f"Please move {to_move} {'piece' if to_move == 1 else 'pieces'}.")

    async def _game_over(
        self,
        over: dict[str, Any],
        names: list[str],
        seat: int,
        playing: bool,
        state: dict[str, Any],
    ) -> None:
        winner, points = over["winner"], over["points"]
        loser = 1 - winner
        won = f"{points} {_points_word(points)}"
        ending = over["ending"]
        mine = playing and winner == seat
        if ending == "double dropped":
            if mine:
                await self.line(f"{names[loser]} gives up. You win {won}.")
            elif playing:
                await self.line(f"You give up. {names[winner]} wins {won}.")
            else:
                await self.line(f"{names[loser]} gives up. {names[winner]} wins {won}.")
        elif ending == "resigned":
            if mine:
                await self.line(f"You accept and win {won}.")
            else:
                await self.line(f"{names[winner]} accepts and wins {won}.")
        elif mine:
            await self.line(f"You win the game and get {won}. Congratulations!")
        else:
            sorry = " Sorry." if playing else ""
            await self.line(f"{names[winner]} wins the game and gets {won}.{sorry}")
        score = over["score"]
        length = state["settings"]["length"]
        scores = f"{names[0]}-{score[0]} {names[1]}-{score[1]}"
        what = f"{length} point match" if length else "unlimited match"
        await self.line(f"score in {what}: {scores}")

    async def _prompt(self, state: dict[str, Any], seat: int) -> None:
        game = state["game"]
        if game is None or state["result"] is not None or state["waiting_for"] != seat:
            return
        pending = game["pending"]
        if pending is not None:
            offer = pending["kind"] in ("double", "resign") and pending["by"] == 1 - seat
            if offer and self._told_turn != state["seq"]:
                # An offer not told with its entry (a resumed match): ask again.
                self._told_turn = state["seq"]
                await self.line(self._offer_line(pending, state))
            return
        if game["dice"] is None:
            if not self.toggles["double"] and self.playing is not None:
                await self._act("roll")
                return
            if self._told_turn != state["seq"]:
                self._told_turn = state["seq"]
                await self.line("It's your turn. Please roll or double")
            return
        to_move = game.get("to_move", 0)
        if to_move and self._told_turn != state["seq"]:
            self._told_turn = state["seq"]
            pieces = "piece" if to_move == 1 else "pieces"
            await self.line(f"Please move {to_move} {pieces}.")

    @staticmethod
    def _offer_line(offer: dict[str, Any], state: dict[str, Any]) -> str:
        """FIBS's line asking the player for an answer to the opponent's offer (a
        double or resign entry, or the game's pending offer: kind, by, level)."""
        by = state["players"][offer["by"]]
        if offer["kind"] == "resign":
            cube = state["game"]["cube"]["value"] if state["game"] else 1
            value = offer["level"] * cube
            won = f"{value} {_points_word(value)}"
            return f"{by} wants to resign. You will win {won}. Type 'accept' or 'reject'."
        return f"{by} doubles. Type 'accept' or 'reject'."

    async def _match_over(self, state: dict[str, Any], seat: int, playing: bool) -> None:
        result = state["result"]
        names = state["players"]
        length = state["settings"]["length"]
        score = result["score"]
        winner = result["winner"]
        what = f"the {length} point match" if length else "the unlimited match"
        if winner is None:
            await self.line(f"The match ends {score[0]}-{score[1]}.")
            return
        points = f"{score[winner]}-{score[1 - winner]}"
        if playing and winner == seat:
            await self.line(f"You win {what} {points} .")
        else:
            await self.line(f"{names[winner]} wins {what} {points} .")
