"""Shared test configuration.

Hypothesis runs without per-example deadlines: the first call of a Numba kernel
compiles it, and a busy CI machine can make any example slow; a deadline would turn
that into a flaky failure without saying anything about correctness.
"""

import pytest
from hypothesis import settings

settings.register_profile("backgammon", deadline=None)
settings.load_profile("backgammon")


SLOW_FIXTURES = frozenset({"server_factory", "browser"})
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
