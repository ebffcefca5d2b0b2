"""FIBS's variables (``set``) and the keeping of a login's toggles and variables with
its account, as FIBS keeps them.

``set`` alone lists the variables (``Settings of variables:``), ``set NAME`` shows
one (``Value of 'NAME' is VALUE``) and ``set NAME VALUE`` changes one (``Value of
'NAME' set to VALUE.``), each checked as FIBS checks it (:func:`parse_variable`).
What a user changes (toggles and variables) is stored through the service and read
back at the next login (:func:`load_settings`, :func:`save_settings`).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from backgammon.server.fibs.state import DEFAULT_TOGGLES, DEFAULT_VARIABLES, SessionState
from backgammon.server.service import ServiceError

__all__ = [
    "CLIP_BOARDSTYLE",
    "load_settings",
    "parse_variable",
    "save_settings",
    "variable_lines",
]

CLIP_BOARDSTYLE = 3
"""The board style of a CLIP login, whatever the account keeps: client programs read
the ``board:`` line (they send ``set boardstyle 3`` anyway)."""

_NUMBER = re.compile(r"0|[1-9][0-9]{0,2}")
_SORTWHO = ("login", "name", "rating", "rrating")


def parse_variable(name: str, value: str) -> int | str:
    """The value ``value`` gives the variable ``name``.

    Raises:
        ValueError: FIBS's words for what is wrong (without the ``** ``).
    """
    if name == "boardstyle":
        if value not in ("1", "2", "3"):
            raise ValueError("Valid arguments are the numbers 1 to 3.")
        return int(value)
    if name in ("linelength", "pagelength"):
        if not _NUMBER.fullmatch(value):
            raise ValueError(f"Valid arguments are the numbers 0 to 999. Use 0 for no {name}.")
        return int(value)
    if name == "redoubles":
        if value in ("none", "unlimited") or re.fullmatch(r"[1-9][0-9]?", value):
            return value
        raise ValueError("Valid arguments are 'none', 'unlimited' and the numbers 1 to 99.")
    if name == "sortwho":
        if value not in _SORTWHO:
            raise ValueError(
                f"Unknown value '{value[:20]}'. Try 'login', 'name', 'rating' or 'rrating'."
            )
        return value
    if name == "timezone":
        return _timezone(value)
    raise ValueError("Invalid argument. Type 'help set'.")


def _timezone(value: str) -> str:
    """A time zone's name as the IANA database spells it (``UTC``, ``Europe/Berlin``).

    Raises:
        ValueError: for a name it does not know.
    """
    if value.upper() == "UTC":
        return "UTC"
    with contextlib.suppress(ZoneInfoNotFoundError, ValueError):
        if re.fullmatch(r"[A-Za-z_]+(/[A-Za-z0-9_+-]+){0,2}", value):
            return str(ZoneInfo(value))
    raise ValueError(f"Can't find timezone '{value[:40]}'. Try UTC or a name like Europe/Berlin.")


def variable_lines(variables: dict[str, int | str]) -> list[str]:
    """``set`` alone: FIBS's list of the variables."""
    lines = ["Settings of variables:"]
    for name in DEFAULT_VARIABLES:
        lines.append(f"{name + ':':11} {variables[name]}")
    return lines


async def load_settings(session: SessionState) -> None:
    """Read the toggles and variables the account keeps into the session (a CLIP
    login's board style stays :data:`CLIP_BOARDSTYLE`)."""
    assert session.user is not None
    stored = await session.service.fibs_settings(session.user)
    session.kept = stored
    for name, value in stored.items():
        if name in DEFAULT_TOGGLES and isinstance(value, bool):
            session.toggles[name] = value
        elif name in DEFAULT_VARIABLES and _fits(name, value):
            session.variables[name] = value
    if session.clip:
        session.variables["boardstyle"] = CLIP_BOARDSTYLE


def _fits(name: str, value: Any) -> bool:
    """Whether a stored value is one ``set`` could have given ``name``."""
    try:
        return bool(parse_variable(name, str(value)) == value)
    except ValueError:
        return False


async def save_settings(session: SessionState) -> None:
    """Keep the session's toggles and variables with the account (those changed from
    the defaults); a failure to store them is not the user's: the session goes on."""
    assert session.user is not None
    changed: dict[str, bool | int | str] = {
        name: value for name, value in session.toggles.items() if DEFAULT_TOGGLES[name] != value
    }
    changed.update(
        (name, value)
        for name, value in session.variables.items()
        if DEFAULT_VARIABLES[name] != value
    )
    if session.clip:  # (its style is the client's, not the account's)
        changed.pop("boardstyle", None)
        if "boardstyle" in session.kept:
            changed["boardstyle"] = session.kept["boardstyle"]
    session.kept = changed
    with contextlib.suppress(ServiceError):
        await session.service.set_fibs_settings(session.user, changed)
