"""The server's commands: ``backgammon serve`` and ``backgammon verify-dice``.

Kept apart from :mod:`backgammon.apps.cli` (which registers them) so the server's
dependencies load only when these commands run.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["serve", "verify_dice"]


class _JsonLines(logging.Formatter):
    """Structured logs: one JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="HTTP and WebSocket port.")] = 8080,
    data: Annotated[
        Path | None,
        typer.Option(help="Folder for the embedded SQLite database (default: user data dir)."),
    ] = None,
    database: Annotated[
        str | None,
        typer.Option(
            help="A database URL instead: postgresql://USER:PASS@HOST/DB or sqlite:///PATH."
        ),
    ] = None,
    bot_processes: Annotated[
        int, typer.Option(help="Worker processes for the bots' searches (0: a thread).")
    ] = 1,
    tool_processes: Annotated[
        int,
        typer.Option(
            help="Worker processes for the quick tools (position tool, upload checks), "
            "and as many others for analyses and rollouts (their own, so bots never wait "
            "behind them, nor the position tool behind an analysis)."
        ),
    ] = 1,
    no_bots: Annotated[bool, typer.Option("--no-bots", help="Offer no bots.")] = False,
    warm_up: Annotated[
        bool, typer.Option(help="Compile the engine's kernels before reporting ready.")
    ] = True,
    build_hypergammon: Annotated[
        bool,
        typer.Option(
            help="Build 3-checker hypergammon's exact database in the background if it "
            "is missing (about 9 min on 2 cores; the network's labelled estimates until then)."
        ),
    ] = True,
    origin: Annotated[
        list[str] | None,
        typer.Option(help="A browser origin allowed to open WebSockets (repeatable)."),
    ] = None,
    admin: Annotated[
        list[str] | None,
        typer.Option(help="Make this account an administrator (repeatable)."),
    ] = None,
    fibs_port: Annotated[
        int | None,
        typer.Option(help="Also accept FIBS (CLIP) clients on this TCP port, e.g. 4321."),
    ] = None,
    fibs_login_timeout: Annotated[
        float,
        typer.Option(help="Seconds a FIBS connection has to log in before it is closed."),
    ] = 120.0,
    fibs_proxy_protocol: Annotated[
        list[str] | None,
        typer.Option(
            help="A TCP load balancer's address or network (repeatable) whose FIBS "
            "connections begin with a PROXY protocol v1 line naming the client "
            "(nginx stream's proxy_protocol, HAProxy's send-proxy; docs/deploy.md)."
        ),
    ] = None,
    metrics_token: Annotated[
        str,
        typer.Option(
            envvar="BACKGAMMON_METRICS_TOKEN",
            help="A bearer token that lets a Prometheus scraper read /metrics from "
            "anywhere (loopback clients always may; others get 403 without it).",
            show_default=False,
        ),
    ] = "",
    rate_limit: Annotated[
        float, typer.Option(help="Messages a second each connection may send.")
    ] = 20.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Proxies whose X-Forwarded-For gives the client's address (comma-separated "
            "addresses or networks, or '*'); default uvicorn's: $FORWARDED_ALLOW_IPS or "
            "127.0.0.1. Set it to the proxy's address behind nginx (docs/deploy.md)."
        ),
    ] = None,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies", help="Mark the session cookie Secure (the site is on HTTPS)."
        ),
    ] = False,
    signups_per_hour: Annotated[
        int,
        typer.Option(
            help="Accounts (registered or guest) one address may make: at once, and an hour."
        ),
    ] = 30,
    claim_after: Annotated[
        float,
        typer.Option(
            help="Seconds a player of a match without a clock must stay disconnected, "
            "while the match waits on them, before the opponent may claim the win."
        ),
    ] = 300.0,
    viewers_per_address: Annotated[
        int,
        typer.Option(
            help="Anonymous viewers (watching a match without an account) one address may "
            "have connected at once."
        ),
    ] = 8,
    websockets_per_address: Annotated[
        int,
        typer.Option(
            help="WebSocket connections of logged-in users one address (an IPv6 /64) may "
            "have open at once (each user at most 8)."
        ),
    ] = 32,
    open_matches_per_address: Annotated[
        int,
        typer.Option(help="Open matches (waiting for an opponent) made from one address at once."),
    ] = 20,
    loop: Annotated[
        str,
        typer.Option(
            help="The event loop: 'uvloop' (on libuv; installed with the package on Linux "
            "and macOS), 'asyncio' (the standard library's), or 'auto' (uvloop where "
            "installed)."
        ),
    ] = "auto",
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
) -> None:
    """Run the online game server: accounts, lobby, matches against people and bots,
    over HTTP and WebSockets, on SQLite by default (or PostgreSQL)."""
    import uvicorn

    from backgammon.server.app import create_app
    from backgammon.server.settings import DEFAULT_DATA_DIR, Settings

    handler = logging.StreamHandler()
    handler.setFormatter(_JsonLines())
    logging.basicConfig(level=log_level.upper(), handlers=[handler])
    if loop not in ("auto", "asyncio", "uvloop"):
        raise typer.BadParameter(f"--loop must be auto, asyncio or uvloop, not {loop!r}")
    try:
        settings = Settings(
            database_url=database or "",
            data_dir=data or DEFAULT_DATA_DIR,
            bot_processes=bot_processes,
            tool_processes=tool_processes,
            bots=() if no_bots else Settings().bots,
            warm_up=warm_up,
            build_hypergammon=build_hypergammon,
            allowed_origins=tuple(origin or ()),
            messages_per_second=rate_limit,
            fibs_port=fibs_port,
            fibs_login_timeout=fibs_login_timeout,
            fibs_proxies=tuple(fibs_proxy_protocol or ()),
            metrics_token=metrics_token,
            admins=tuple(admin or ()),
            fibs_host=host,
            message_burst=max(40, int(2 * rate_limit)),
            secure_cookies=secure_cookies,
            signups_per_hour=signups_per_hour,
            claim_after=claim_after,
            viewers_per_address=viewers_per_address,
            websockets_per_address=websockets_per_address,
            open_matches_per_address=open_matches_per_address,
        )
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None

    def progress(line: str) -> None:
        typer.echo(f"backgammon serve: {line}", err=True)

    warm = None
    if warm_up and not no_bots:
        from backgammon.engine.warmup import warm_up as compile_kernels

        def warm(say: Callable[[str], None]) -> None:
            compile_kernels(ply=2, progress=say)

    app = create_app(settings, warm_up=warm, progress=progress)
    where = settings.database if database else f"SQLite in {settings.data_dir}"
    progress(f"database: {where.split('@')[-1]}")
    progress(f"starting http://{host}:{port}/ (WebSocket ws://{host}:{port}/ws)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=settings.max_message_bytes,
        # States are small JSON; compressing each for each client cost about a tenth
        # of the server's CPU under load (benchmarks/server_load.py).
        ws_per_message_deflate=False,
        log_level=log_level,
        loop=loop,
        timeout_graceful_shutdown=10,
        forwarded_allow_ips=forwarded_allow_ips,
    )


def verify_dice(
    file: Annotated[
        Path, typer.Argument(help="A finished match's or chouette's dice record (JSON).")
    ],
) -> None:
    """Check a finished match's (or a closed chouette session's) dice: the revealed
    seed against the commitment published at its start, and every throw against the
    seed and the nonces."""
    from backgammon.server.matches.fair_dice import verify_record

    try:
        record = json.loads(file.read_text(encoding="utf-8"))
        failure = verify_record(record)
    except OSError as error:
        typer.echo(f"cannot read {file}: {error.strerror}", err=True)
        raise typer.Exit(2) from None
    except ValueError as error:
        typer.echo(f"{file}: {error}", err=True)
        raise typer.Exit(2) from None
    if failure is not None:
        typer.echo(f"{file}: FAILED: {failure}")
        raise typer.Exit(1)
    count = len(record.get("throws", []))
    typer.echo(f"{file}: all {count} throws verify (commitment {record['commitment'][:16]}...)")
