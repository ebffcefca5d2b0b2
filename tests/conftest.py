"""Shared test configuration.

Hypothesis runs without per-example deadlines: the first call of a Numba kernel
compiles it, and a busy CI machine can make any example slow; a deadline would turn
that into a flaky failure without saying anything about correctness.

The whole suite, as CI runs it, and the fast loop run on parallel workers
(pytest-xdist: ``-n 2 --dist loadfile``, the README's development section). A
test that measures time (a server's latency under an attack, a reader's growth)
carries the ``alone`` marker: it waits until no other worker is inside a test and
keeps the others out until it ends (:class:`Turns`), so the measurement is of its
own work, as in a run on one worker.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("backgammon", deadline=None)
settings.load_profile("backgammon")


SLOW_FIXTURES = frozenset({"server_factory", "module_server_factory", "browser"})
"""Fixtures that start a second process (a server), a browser or PostgreSQL: a test
that uses one is marked ``slow``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every test that starts a server, a browser or PostgreSQL (the
    fast loop is ``pytest -m "not slow"``); tests slow for other reasons (a local
    Ray cluster, the command line as a subprocess, a long solve) carry the marker
    themselves."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & SLOW_FIXTURES or item.get_closest_marker("postgresql"):
            item.add_marker(pytest.mark.slow)


class Turns:
    """Who is inside a test, across the parallel workers of one run: a test marked
    ``alone`` enters by itself, the others together.

    Two ``flock`` locks on files that the workers share: the room (held shared by the
    tests inside, exclusively by a test alone) and a gate before it, held while
    entering, so that a test waiting to be alone keeps newcomers out instead of
    waiting for a moment when nobody is inside.
    """

    def __init__(self, folder: Path) -> None:
        self._gate = (folder / "turns.gate").open("a")
        self._room = (folder / "turns.room").open("a")

    def enter(self, alone: bool) -> None:
        """Wait to enter (alone: until everyone else has left)."""
        import fcntl

        fcntl.flock(self._gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(self._room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            fcntl.flock(self._gate, fcntl.LOCK_UN)

    def leave(self) -> None:
        """Leave the room."""
        import fcntl

        fcntl.flock(self._room, fcntl.LOCK_UN)


def _turns(config: pytest.Config) -> Turns | None:
    """This worker's :class:`Turns`, made once; ``None`` without parallel workers
    (or without ``flock``)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None or os.name != "posix":
        return None
    turns: Turns | None = getattr(config, "_backgammon_turns", None)
    if turns is None:
        # The run's temporary folder, above each worker's own (pytest removes it with
        # the old runs' folders).
        basetemp = config.option.basetemp
        folder = Path(basetemp).parent if basetemp else Path(tempfile.gettempdir()) / run
        folder.mkdir(parents=True, exist_ok=True)
        turns = Turns(folder)
        config._backgammon_turns = turns  # type: ignore[attr-defined]
    return turns


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Run each test (its set-up and tear-down too) inside :class:`Turns`. This hook
    runs outside pytest's guard around a test: an error here would end the worker's
    whole session (pytest-xdist's internal error), so a lock that fails is reported
    as a warning and the test runs without it."""
    try:
        turns = _turns(item.config)
    except OSError as error:
        item.warn(pytest.PytestWarning(f"ran without taking turns: {error}"))
        turns = None
    if turns is None:
        return (yield)
    try:
        turns.enter(alone=item.get_closest_marker("alone") is not None)
    except OSError as error:
        item.warn(pytest.PytestWarning(f"ran without taking turns: {error}"))
        return (yield)
    try:
        return (yield)
    finally:
        try:
            turns.leave()
        except OSError as error:
            item.warn(pytest.PytestWarning(f"could not leave the turns: {error}"))


@pytest.hookimpl(wrapper=True)
def pytest_report_to_serializable(
    config: pytest.Config, report: pytest.CollectReport | pytest.TestReport
) -> Iterator[dict[str, object] | None]:
    """A test's report as a parallel worker sends it, made :func:`channel_safe`. A
    failure's message may quote text a browser gave, where JavaScript can leave half of
    a surrogate pair; the channel to the main process takes UTF-8 only, and a report it
    refuses ends the worker's whole session (pytest-xdist's internal error) instead of
    reporting the failure."""
    data = yield
    return channel_safe(data)


def pytest_configure(config: pytest.Config) -> None:
    """In a parallel worker, send every event to the main process through
    :func:`channel_safe`, not only the reports: a warning's text (a page's message, an
    object's repr in an unraisable exception) reaches the channel the same way, and
    one it refuses ends the worker's session with its tests unrun (pytest-xdist then
    stops the run with ``assert not crashitem``)."""
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "WorkerInteractor":
            send_safely(plugin)


def send_safely(interactor: Any) -> None:
    """Make ``interactor.sendevent`` (pytest-xdist's worker) pass its arguments
    through :func:`channel_safe`."""
    send = interactor.sendevent

    def sendevent(name: str, **kwargs: object) -> None:
        send(name, **channel_safe(kwargs))

    interactor.sendevent = sendevent


def channel_safe(value: Any) -> Any:
    """``value`` as pytest-xdist's channel (execnet) can carry it: each string's
    characters that UTF-8 cannot hold written as backslash escapes, subclasses of the
    plain types made plain, containers walked, anything else replaced by its repr."""
    if value is None or type(value) in (bool, int, float, complex, bytes):
        return value
    if isinstance(value, str):
        return str.encode(value, "utf-8", "backslashreplace").decode("utf-8")
    for plain in (bool, int, float):  # an enum's member, numpy's float64
        if isinstance(value, plain):
            return plain(value)
    if isinstance(value, dict):
        return {channel_safe(key): channel_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        plain = next(kind for kind in (list, tuple, set, frozenset) if isinstance(value, kind))
        return plain(channel_safe(item) for item in value)
    return channel_safe(repr(value))
