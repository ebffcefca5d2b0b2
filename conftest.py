"""The tests run this checkout's code, whatever the environment has installed.

pyproject's ``pythonpath = ["src"]`` puts this checkout's ``src`` first on the test
process's ``sys.path``; the processes the tests start (servers, the command line,
workers) get it first on ``PYTHONPATH``. Without both, a virtual environment holding an
editable install of another checkout would run that checkout's code, and pytest would
refuse this one's doctests (``ImportPathMismatchError``).
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    source = str(config.rootpath / "src")
    others = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    os.environ["PYTHONPATH"] = os.pathsep.join([source, *(e for e in others if e != source)])
