"""The server's settings: one typed, frozen object made once and passed in.

Nothing is read at import time: :func:`backgammon.server.app.create_app` takes a
:class:`Settings`, and ``backgammon serve`` builds one from its options. The defaults
run a complete server with nothing else installed: SQLite (WAL) in the user's data
directory, bots, and the time controls online sites use.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["DEFAULT_DATA_DIR", "Settings"]

DEFAULT_DATA_DIR = Path(platformdirs.user_data_dir("backgammon")) / "server"
"""Where ``backgammon serve`` keeps its SQLite database unless told otherwise."""


class Settings(BaseModel):
    """Everything a server process needs to know, validated when made.

    Attributes:
        database_url: an SQLAlchemy URL with an async driver
            (``sqlite+aiosqlite:///path`` or ``postgresql+asyncpg://...``); empty means
            SQLite in ``data_dir``.
        data_dir: the folder for the embedded SQLite database.
        allowed_origins: the browser origins whose WebSocket connections are
            accepted; empty accepts only the server's own host. Clients that send no
            Origin (bots, FIBS front ends) are always accepted.
        max_message_bytes: the largest WebSocket message a client may send; a larger
            one closes the connection.
        messages_per_second / message_burst: each connection's rate limit (a token
            bucket); a message over it is refused, and a client far over it is closed.
        login_free_failures: failed logins allowed at once from one address (any
            accounts), and for one account from addresses that never logged in to it,
            before each further try must wait: 1 s, then 2, 4, ... up to
            ``login_max_delay`` (docs/security.md).
        login_forgive_seconds: one failed login is forgotten per this many seconds.
        login_max_delay: the longest wait between two tries, in seconds.
        signups_per_hour: accounts (registered or guest) one address may create: this
            many at once, then this many an hour.
        password_threads / password_queue: threads that check passwords (apart from
            everything else, at a lower CPU priority) and how many checks may wait for
            one; a check beyond that is answered "busy, try again".
        session_days: how long a login token lives.
        bot_processes: worker processes for the bots' decisions (0: a thread).
        tool_processes: worker processes of their own for the quick tools (the
            position tool, an upload's check), and as many others for the long jobs
            (analyses and rollouts), all started on first use: bots never wait behind
            the tools, nor the quick tools behind the long jobs.
        bots: the bot levels offered in the lobby.
        warm_up: compile the engine's kernels before reporting ready.
        build_hypergammon: at start, build 3-checker hypergammon's exact database in
            the background if it is missing (about 9 min on 2 cores; ``backgammon
            serve`` turns it on).
        abandon_after: seconds after which a match nobody acts in is adjudicated.
        claim_after: in a match without a clock, seconds a player must have been
            disconnected while the match waits on them before their opponent may
            claim the win (docs/server.md, "Disconnections").
        secure_cookies: mark cookies Secure (behind HTTPS).
        admins: accounts made administrators at start (they may mute, kick and ban).
        viewers_per_address / viewers: anonymous viewers (a match watched without an
            account, read-only) one client address may have connected at once, and
            this process in all; a connection beyond either is refused.
        websockets_per_user / websockets_per_address: WebSocket connections one
            logged-in user, and one client address (an IPv6 client by its /64), may
            have open at once in this process; one beyond either is refused (the
            rate limit is per connection, so this bounds what one person may send).
        open_matches_per_address: open matches (not started: waiting for an
            opponent or an invitee) made from one client address (an IPv6 client's
            /64) at once, whatever the accounts (guests are free).
        chat_lines_per_second / chat_burst: what one user may say (chat lines in
            any room, tells) from all their connections together, a token bucket;
            a line over it is refused as ``throttled``.
        fibs_port: where the FIBS front end listens (None: no FIBS front end; 0: a
            free port); ``fibs_host``: its interface.
        fibs_login_timeout: seconds a FIBS connection has to log in (or register)
            before it is told and closed.
        fibs_proxies: addresses or networks of TCP load balancers in front of the
            FIBS port whose connections begin with a PROXY protocol line naming the
            client (:mod:`backgammon.server.fibs.proxy_protocol`); empty: none.
        metrics_token: a bearer token that lets a scraper read ``/metrics`` from
            anywhere (empty: none); loopback clients may always read it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    database_url: str = ""
    data_dir: Path = DEFAULT_DATA_DIR
    allowed_origins: tuple[str, ...] = ()
    max_message_bytes: int = Field(default=16_384, ge=256, le=1_048_576)
    messages_per_second: float = Field(default=20.0, gt=0)
    message_burst: int = Field(default=40, ge=1)
    login_free_failures: int = Field(default=10, ge=1)
    login_forgive_seconds: float = Field(default=600.0, gt=0)
    login_max_delay: float = Field(default=900.0, ge=1)
    signups_per_hour: int = Field(default=30, ge=1)
    password_threads: int = Field(default=2, ge=1, le=64)
    password_queue: int = Field(default=2048, ge=0)
    session_days: int = Field(default=30, ge=1)
    bot_processes: int = Field(default=1, ge=0)
    tool_processes: int = Field(default=1, ge=1)
    bots: tuple[str, ...] = ("beginner", "intermediate", "expert", "worldclass")
    warm_up: bool = True
    build_hypergammon: bool = False
    abandon_after: float = Field(default=3 * 24 * 3600.0, gt=0)
    claim_after: float = Field(default=300.0, gt=0)
    secure_cookies: bool = False
    admins: tuple[str, ...] = ()
    viewers_per_address: int = Field(default=8, ge=0)
    viewers: int = Field(default=2000, ge=0)
    websockets_per_user: int = Field(default=8, ge=1)
    websockets_per_address: int = Field(default=32, ge=1)
    open_matches_per_address: int = Field(default=20, ge=1)
    chat_lines_per_second: float = Field(default=1.0, gt=0)
    chat_burst: int = Field(default=5, ge=1)
    fibs_port: int | None = Field(default=None, ge=0, le=65535)
    fibs_host: str = "127.0.0.1"
    fibs_login_timeout: float = Field(default=120.0, gt=0)
    fibs_proxies: tuple[str, ...] = ()
    metrics_token: str = ""

    @field_validator("fibs_proxies")
    @classmethod
    def _networks(cls, proxies: tuple[str, ...]) -> tuple[str, ...]:
        for proxy in proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(f"not an address or a network: {proxy[:60]!r}") from None
        return proxies

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, url: str) -> str:
        if url and not url.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
            if url.startswith("postgresql://"):
                return "postgresql+asyncpg://" + url.removeprefix("postgresql://")
            if url.startswith("sqlite://"):
                return "sqlite+aiosqlite://" + url.removeprefix("sqlite://")
            raise ValueError(
                f"database_url {url!r}: use sqlite:///PATH or postgresql://USER@HOST/DB"
            )
        return url

    @property
    def database(self) -> str:
        """The SQLAlchemy URL actually used (SQLite in ``data_dir`` by default)."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.data_dir / 'backgammon.sqlite3'}"
