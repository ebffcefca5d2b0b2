"""The PROXY protocol's version 1 line: how a TCP load balancer in front of the FIBS
port tells the server who its client is.

Behind a TCP load balancer (nginx's ``stream`` module with ``proxy_protocol on``,
HAProxy's ``send-proxy``) every FIBS connection comes from the balancer's address, so
the limits kept per client address (connections, login throttles) would hold for all
the balancer's clients together. A balancer that speaks the PROXY protocol sends one
line before its client's bytes (HAProxy's "The PROXY protocol", versions 1 and 2,
section 2.1, the human-readable header)::

    PROXY TCP4 203.0.113.7 192.0.2.1 56324 4321\\r\\n
    PROXY TCP6 2001:db8::7 2001:db8::1 56324 4321\\r\\n
    PROXY UNKNOWN\\r\\n

at most 107 bytes with its CRLF. The server reads it only from the balancers it was
told to trust (``serve --fibs-proxy-protocol``): anyone else could name any address.
"""

from __future__ import annotations

import ipaddress

__all__ = ["MAX_PROXY_LINE", "ProxyLineError", "proxy_source"]

MAX_PROXY_LINE = 107
"""The longest version 1 line, CRLF included (the specification's bound)."""


class ProxyLineError(ValueError):
    """A connection from a trusted balancer did not begin with a valid PROXY line."""


def proxy_source(line: bytes) -> str | None:
    """The client's address a PROXY version 1 ``line`` (with its CRLF) names; None
    for ``PROXY UNKNOWN`` (the balancer does not know it: the connection's own
    address stands).

    Raises:
        ProxyLineError: the line is too long, not CRLF-ended, or not a valid header
            (the protocol, the addresses of its family, the ports 0-65535).
    """
    if len(line) > MAX_PROXY_LINE or not line.endswith(b"\r\n"):
        raise ProxyLineError("the PROXY line is too long or does not end in CRLF")
    try:
        words = line[:-2].decode("ascii").split(" ")
    except UnicodeDecodeError:
        raise ProxyLineError("the PROXY line is not ASCII") from None
    if words[:1] != ["PROXY"] or len(words) < 2:
        raise ProxyLineError("the connection does not begin with a PROXY line")
    if words[1] == "UNKNOWN":
        return None
    if len(words) != 6 or words[1] not in ("TCP4", "TCP6"):
        raise ProxyLineError(f"a PROXY line names TCP4, TCP6 or UNKNOWN: {words[1][:8]!r}")
    family = ipaddress.IPv4Address if words[1] == "TCP4" else ipaddress.IPv6Address
    try:
        source, _destination = family(words[2]), family(words[3])
    except ValueError:
        raise ProxyLineError(f"the PROXY line's addresses are not {words[1]}") from None
    for port in words[4:]:
        if not (port.isdigit() and len(port) <= 5 and int(port) <= 65535):
            raise ProxyLineError("the PROXY line's ports are not 0-65535")
    return str(source)
