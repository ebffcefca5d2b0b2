"""Shared test configuration.

Hypothesis runs without per-example deadlines: the first call of a Numba kernel
compiles it, and a busy CI machine can make any example slow; a deadline would turn
that into a flaky failure without saying anything about correctness.
"""

from hypothesis import settings

settings.register_profile("backgammon", deadline=None)
settings.load_profile("backgammon")
