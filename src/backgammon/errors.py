"""The exception hierarchy of ``backgammon``.

Every error the library raises on bad input derives from :class:`BackgammonError`.
Errors caused by bad user input are also :class:`ValueError` subclasses, so code that
already catches ``ValueError`` keeps working. Messages quote the bad input and say what
was expected.

This module imports nothing from the package.
"""

from __future__ import annotations

__all__ = [
    "AmbiguousPlayError",
    "BackgammonError",
    "EngineError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidIdError",
    "InvalidNotationError",
    "InvalidPositionError",
    "MatchFileError",
    "XgFileError",
]


class BackgammonError(Exception):
    """Root of every error raised by the library."""


class InvalidNotationError(BackgammonError, ValueError):
    """Text that is not well-formed move or dice notation (e.g. ``"13/x"``)."""


class IllegalPlayError(BackgammonError, ValueError):
    """A well-formed play that the rules do not allow in the given position and roll."""


class AmbiguousPlayError(BackgammonError, ValueError):
    """Notation that matches more than one legal play."""


class InvalidPositionError(BackgammonError, ValueError):
    """A position that breaks the rules of its variant (checker counts, overlaps, ...)."""


class InvalidIdError(BackgammonError, ValueError):
    """A malformed Position ID, Match ID, XGID or FIBS board string."""


class IllegalActionError(BackgammonError, ValueError):
    """An action pushed onto a game that the rules do not allow at that moment."""


class MatchFileError(BackgammonError, ValueError):
    """A malformed or rule-breaking match file, with where it went wrong.

    Attributes:
        path: the file's path, or ``None`` for text not read from a file.
        line: 1-based line number, or ``None`` if unknown.
        column: 1-based column number, or ``None`` if unknown.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.column = column
        where = ":".join(str(part) for part in (path, line, column) if part is not None)
        super().__init__(f"{where}: {message}" if where else message)


class XgFileError(MatchFileError):
    """A malformed or rule-breaking eXtreme Gammon file (``.xg``/``.xgp``), with where it
    went wrong: the part of the file, and for a record its number (1-based, in the
    file's order of records) and the game and move it belongs to.

    Attributes:
        record: the 1-based record number, or ``None`` outside the records.
    """

    def __init__(self, message: str, *, path: str | None = None, record: int | None = None) -> None:
        self.record = record
        super().__init__(message if record is None else f"record {record}: {message}", path=path)


class EngineError(BackgammonError, RuntimeError):
    """A failure inside the engine (missing weights, a broken external engine, ...)."""
