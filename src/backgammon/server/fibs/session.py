"""One FIBS connection: login (CLIP or plain telnet, or registration as ``guest``),
the FIBS commands, and the game service's events told the way FIBS tells them.

The session is an adapter: every command becomes a call to the
:class:`~backgammon.server.service.GameService` (the same calls the web makes), and
every event the service publishes to the session's
:class:`~backgammon.server.lobby.hub.Connection` becomes FIBS text. A refused command
gets a ``** `` line and changes nothing.

This module is the connection's loop: it reads lines, logs in, looks each command up
in :data:`~backgammon.server.fibs.commands.COMMANDS` (the families: ``commands_play``,
``commands_info``, ``commands_social``) and pumps the service's events to
:mod:`~backgammon.server.fibs.telling` (a match's states) and
:data:`~backgammon.server.fibs.events.EVENTS` (the rest). The login's state and its
output are :class:`~backgammon.server.fibs.state.SessionState`'s.

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
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError

from backgammon import __version__
from backgammon.server.accounts.passwords import check_name, check_password
from backgammon.server.db.repository import User
from backgammon.server.fibs.clip import own_info_line
from backgammon.server.fibs.commands import COMMANDS, LOGOUT_WORDS
from backgammon.server.fibs.commands_info import who
from backgammon.server.fibs.commands_play import start_playing
from backgammon.server.fibs.commands_social import tell_stored_messages
from backgammon.server.fibs.events import EVENTS
from backgammon.server.fibs.lobby_feed import LobbyFeed
from backgammon.server.fibs.settings import load_settings
from backgammon.server.fibs.state import SessionState, first_problem
from backgammon.server.fibs.who_lines import WhoLines
from backgammon.server.lobby.hub import Connection
from backgammon.server.lobby.rate_limit import TokenBucket
from backgammon.server.service import GameService, ServiceError

__all__ = ["FibsSession", "LineTooLongError"]

log = logging.getLogger("backgammon.server.fibs")

MOTD = (
    "Welcome to the backgammon server's FIBS front end.",
    "Web and FIBS players share one lobby; type 'who' to see who is on,",
    "'invite NAME 5' to invite someone (bots too: bot_expert), 'help' for commands.",
)

SERVER_NAME = "backgammon"
"""The server's name in FIBS's guest greeting (clients match one word)."""

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

PASSWORD_TRIES = 3
"""Times a new account's password may be typed twice differently before the name
must be chosen again."""

MAX_ECHO = 40
"""The most characters of a typed word an error line repeats."""

PUMP_BATCH = 64
"""Events the pump tells at most before it writes what they said (a login storm
brings each session hundreds of notices at once)."""


class LineTooLongError(Exception):
    """A line over the listener's limit (it was discarded)."""


class FibsSession(SessionState):
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
        super().__init__(service, write, address, who_lines, feed, write_now)
        self._read_line = read_line
        self._pump: asyncio.Task[None] | None = None
        settings = service.settings
        self._limit = TokenBucket(settings.messages_per_second, settings.message_burst)
        self._runner: asyncio.Task[None] | None = None
        self._authenticated_at = 0  # the service's moderation epoch before login
        self._ended_by_server = False

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
        if self.user is not None:
            self.who_lines.release(self.user.id, self)
        if self.connection is not None:
            self.service.disconnect(self.connection)
            self.connection = None
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        await self._write_unsent()

    async def _write_unsent(self) -> None:
        """Write the lines of the batch the pump was telling when it was cancelled:
        the session's own last lines (``Goodbye.``) may be among them. A client that
        does not read gets a second."""
        unsent, self._unsent = "".join(self._unsent), []
        if unsent:
            with contextlib.suppress(ConnectionError, OSError, TimeoutError):
                async with asyncio.timeout(1.0):
                    await self._write(unsent)

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
        ``> `` prompt (a name refused at once, saying why), the password twice."""
        await self.line(f"Welcome to {SERVER_NAME}. You just logged in as guest.")
        for text in REGISTER_HELP:
            await self.line(text)
        while self.user is None:
            await self._write("> ")
            words = (await self._next_line() or "").split()
            if words and words[0].lower() in LOGOUT_WORDS:
                await self.line("                             Goodbye.")
                raise EOFError
            if not words or words[0].lower() != "name":
                await self.line("Type 'name NAME' to register, or 'bye'.")
                continue
            refusal = await self._name_refusal(words[1:])
            if refusal is not None:
                await self.error(refusal)
                continue
            await self._register_name(words[1])
        await self.line("You are registered.")
        await self.line("Type 'help beginner' to get started.")
        await self._write("> \r\n")  # (the prompt a client waits for, then the login)

    async def _name_refusal(self, words: list[str]) -> str | None:
        """Why ``name`` followed by ``words`` cannot be registered (FIBS's words), or
        None when the name is free."""
        name = " ".join(words)[:40]
        if len(words) != 1 or ":" in name:
            return "Your name may not contain blanks ' ' or colons ':'."
        if name.lower().startswith(("guest", "bot_")):
            return "Please use another name. Names starting with 'guest' or 'bot_' are reserved."
        try:
            check_name(name)
        except ValueError:
            return (
                "Your name may only contain letters, digits and the underscore character _ "
                "(3 to 20 of them, starting with a letter)."
            )
        if await self._name_taken(name):
            return f"Please use another name. '{name}' is already used by someone else."
        return None

    async def _register_name(self, name: str) -> None:
        """Ask for the password twice (again after a mismatch, up to
        :data:`PASSWORD_TRIES` times) and make the account ``name``."""
        await self.line(f"Your name will be {name}")
        await self.line("Type in no password and hit Enter/Return if you want to change it now.")
        for _attempt in range(PASSWORD_TRIES):
            first = await self._new_password()
            if not first:
                return
            await self._write("Please retype your password: ")
            if (await self._next_line() or "") == first:
                break
            await self.error("The two passwords were not identical. Please give them again.")
        else:
            await self.error("Please choose a new name.")
            return
        try:
            self.user, _token = await self.service.register(name, first, address=self.address)
        except ServiceError as error:
            await self.error(error.message)

    async def _new_password(self) -> str:
        """A password long enough, asked until one is given; "" if none is (the
        person wants another name)."""
        while True:
            await self._write("Please give your password: ")
            first = await self._next_line() or ""
            if not first:
                await self.error("No password given. Please choose a new name.")
                return ""
            try:
                check_password(first)
            except ValueError:
                await self.line("Minimal password length is 8 characters.")
                continue
            return first

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
        await load_settings(self)
        await self._replace_older_login(user)
        self.show_status()
        self.service.connect(self.connection, self._authenticated_at)
        self.feed.join(self)  # before the who list: no login falls between
        if self.clip:
            await self.line(f"1 {user.name} {self.login_time} {self.address}")
            timezone = str(self.variables["timezone"])
            await self.line(own_info_line(user.name, self.toggles, rating, experience, timezone))
            await self.line("3")
            for text in MOTD:
                await self.line(text)
            await self.line("4")
            await tell_stored_messages(self, user)
            await who(self)
        else:
            await self.line(f"Welcome {user.name}. Your rating is {rating:.2f} ({experience}).")
            for text in MOTD:
                await self.line(text)
            await tell_stored_messages(self, user)
        self.feed.release(self)
        self._pump = asyncio.create_task(self._pump_events())
        for match in await self.service.matches_of(user):
            if match["settings"]["variant"] == "standard":
                await start_playing(self, match["id"], resumed=True)
                break

    async def _replace_older_login(self, user: User) -> None:
        """A second login to the same account here closes the first (told why)."""
        older = self.who_lines.claim(user.id, self)
        if isinstance(older, FibsSession):
            with contextlib.suppress(ConnectionError, OSError, TimeoutError):
                async with asyncio.timeout(1.0):
                    await older.error(f"{user.name} logged in again; this connection is closed.")
            older._end_by_server()

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
        handler = COMMANDS.get(word)
        if handler is None:
            await self.error(f"Unknown command: '{word[:MAX_ECHO]}'")
            return True
        if word in LOGOUT_WORDS:
            await self.line("                             Goodbye.")
            return False
        try:
            await handler(self, rest)
        except ServiceError as error:
            await self.error(error.message)
        except ValidationError as error:  # typed text that does not fit a request
            await self.error(first_problem(error))
        return True

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
                self._unsent.extend(self._batch or ())
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
        """Tell one event of the service (:data:`~backgammon.server.fibs.events.EVENTS`)."""
        kind = message.get("type", "")
        if kind == "lobby_text":
            await self.send_text(message["text"])
        elif kind == "match_started":
            await self._match_started(message)
        elif (handler := EVENTS.get(kind)) is not None:
            await handler(self, message)

    async def _match_started(self, message: dict[str, Any]) -> None:
        """A match of ours began (someone joined our invitation, or we joined)."""
        match_id = message["match"]
        if self.busy() or self.user is None:
            return  # already in it (we joined, or a bot accepted), or playing another one
        names = message["players"]
        other = next((name for name in names if name != self.user.name), "?")
        with self.starting_match():
            state = await self.service.state(match_id)
            length = state["settings"]["length"]
            what = f"a {length} point match" if length else "an unlimited match"
            # Playing first, then the line: a command sent on seeing it finds the match.
            await start_playing(self, match_id, announce=False)
            await self.line(f"** Player {other} has joined you for {what}.")
