"""Passwords and session tokens: Argon2id hashes, random tokens stored as SHA-256.

Nothing here touches the database; :mod:`backgammon.server.repository` stores what
these functions make. Hashing is deliberately slow (Argon2id's memory-hard cost), so
the server calls :func:`hash_password` and :func:`verify_password` in a worker thread.

>>> hashed = hash_password("correct horse")
>>> hashed.startswith("$argon2id$")
True
>>> verify_password(hashed, "correct horse"), verify_password(hashed, "wrong")
(True, False)
"""

from __future__ import annotations

import hashlib
import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = [
    "NAME_PATTERN",
    "check_name",
    "check_password",
    "hash_password",
    "hash_token",
    "new_token",
    "verify_password",
]

NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,19}")
"""A user name: 3-20 letters, digits and underscores, starting with a letter (FIBS
clients split lines on spaces, so names have none)."""


def _hasher() -> PasswordHasher:
    # argon2-cffi's defaults are RFC 9106's second recommended profile, Argon2id.
    return PasswordHasher()


def check_name(name: str) -> str:
    """Return ``name`` if it is a valid user name.

    Raises:
        ValueError: naming the rule it breaks.
    """
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(
            f"user name {name[:40]!r}: 3-20 letters, digits or _, starting with a letter"
        )
    if name.lower().startswith(("guest", "bot_")):
        raise ValueError(f"user name {name!r}: names starting guest or bot_ are reserved")
    return name


def check_password(password: str) -> str:
    """Return ``password`` if it is acceptable (8 to 256 characters).

    Raises:
        ValueError: saying what is wrong (never quoting the password).
    """
    if not 8 <= len(password) <= 256:
        raise ValueError("a password has 8 to 256 characters")
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (salted; the encoded form holds the
    parameters)."""
    return _hasher().hash(password)


def verify_password(hashed: str, password: str) -> bool:
    """Whether ``password`` matches the Argon2id ``hashed``."""
    try:
        return _hasher().verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A fresh session token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
