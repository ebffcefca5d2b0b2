"""Operations: the readiness probe and Prometheus's metrics.

``/metrics`` tells how busy the server is and how it fails, which is nobody else's
business: it answers loopback clients (a scraper on the same machine) and the bearer
of ``Settings.metrics_token``, and 403 to anyone else. Behind a reverse proxy the
client's address is the proxy's ``X-Forwarded-For`` (``serve --forwarded-allow-ips``).
"""

from __future__ import annotations

import ipaddress
import secrets

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from backgammon.server.metrics import Histogram
from backgammon.server.protocol import PROTOCOL_VERSION
from backgammon.server.service import GameService, ServiceError
from backgammon.server.web.routes.dependencies import Service, client_address

__all__ = ["router"]

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz(service: Service) -> JSONResponse:
    ready = service.ready
    return JSONResponse(
        {"ready": ready, "protocol": PROTOCOL_VERSION}, status_code=200 if ready else 503
    )


@router.get("/metrics")
async def metrics(request: Request, service: Service) -> PlainTextResponse:
    """The server's metrics in Prometheus's text format, for a scraper only.

    Raises:
        ServiceError: ``forbidden`` (403) for a client that is neither on loopback
            nor the bearer of the metrics token.
    """
    if not _may_scrape(request, service.settings.metrics_token):
        raise ServiceError("forbidden", "metrics: loopback or the metrics token only", 403)
    return PlainTextResponse(_prometheus(service), media_type="text/plain; version=0.0.4")


def _may_scrape(request: Request, token: str) -> bool:
    """Whether ``request`` may read the metrics: from loopback, or with the token."""
    header = request.headers.get("authorization", "")
    given = header[7:].strip() if header.lower().startswith("bearer ") else ""
    if token and secrets.compare_digest(given.encode(), token.encode()):
        return True
    try:
        address = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1 on a dual stack
    return bool((mapped or address).is_loopback)


def _prometheus(service: GameService) -> str:
    metrics = service.metrics
    lines = [
        "# HELP backgammon_connections Open WebSocket connections in this process.",
        "# TYPE backgammon_connections gauge",
        f"backgammon_connections {service.hub.connection_count}",
        "# HELP backgammon_live_matches Matches held in memory by this process.",
        "# TYPE backgammon_live_matches gauge",
        f"backgammon_live_matches {service.live_count}",
        "# HELP backgammon_bot_decisions_waiting Bot decisions waiting for a bots' worker.",
        "# TYPE backgammon_bot_decisions_waiting gauge",
        f"backgammon_bot_decisions_waiting {service.bot_decisions[0]}",
        "# HELP backgammon_bot_decisions_running Bot decisions being made.",
        "# TYPE backgammon_bot_decisions_running gauge",
        f"backgammon_bot_decisions_running {service.bot_decisions[1]}",
        "# HELP backgammon_actions_total Log entries committed (player and server actions).",
        "# TYPE backgammon_actions_total counter",
        f"backgammon_actions_total {metrics.actions}",
        "# HELP backgammon_refused_total Actions refused.",
        "# TYPE backgammon_refused_total counter",
        f"backgammon_refused_total {metrics.refused}",
        "# HELP backgammon_matches_started_total Matches started.",
        "# TYPE backgammon_matches_started_total counter",
        f"backgammon_matches_started_total {metrics.matches_started}",
        "# HELP backgammon_matches_finished_total Matches finished.",
        "# TYPE backgammon_matches_finished_total counter",
        f"backgammon_matches_finished_total {metrics.matches_finished}",
    ]
    lines += _histogram(
        "backgammon_commit_seconds", "Time to commit an action to the database.", metrics.commit
    )
    lines += _histogram(
        "backgammon_action_seconds",
        "Time from an action's receipt to its new state published to the match's subscribers.",
        metrics.action,
    )
    lines += [
        "# HELP backgammon_gc_pause_seconds Time the garbage collector stopped the "
        "server, each pass, by the oldest generation it collected.",
        "# TYPE backgammon_gc_pause_seconds histogram",
    ]
    for generation, pauses in enumerate(metrics.collector.pauses):
        lines += _histogram(
            "backgammon_gc_pause_seconds", "", pauses, f'generation="{generation}"'
        )[2:]
    return "\n".join(lines) + "\n"


def _histogram(name: str, description: str, histogram: Histogram, label: str = "") -> list[str]:
    """A histogram in Prometheus's text format (its samples with ``label`` too)."""
    lines = [f"# HELP {name} {description}", f"# TYPE {name} histogram"]
    before = f"{label}," if label else ""
    for bound, count in histogram.cumulative():
        lines.append(f'{name}_bucket{{{before}le="{bound}"}} {count}')
    labels = f"{{{label}}}" if label else ""
    lines += [
        f'{name}_bucket{{{before}le="+Inf"}} {histogram.count}',
        f"{name}_sum{labels} {histogram.total:.6f}",
        f"{name}_count{labels} {histogram.count}",
    ]
    return lines
