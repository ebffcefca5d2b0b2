"""The suite's own plumbing: what a parallel worker sends the main process (a failing
test's report, a warning) reaches it even when it quotes text that UTF-8 cannot hold
or holds objects the channel cannot carry."""

from __future__ import annotations

import subprocess
import sys
import warnings
from enum import IntEnum
from pathlib import Path
from typing import Any

import pytest
from execnet.gateway_base import dumps_internal, loads_internal
from xdist.remote import serialize_warning_message

from tests.conftest import channel_safe, send_safely

ROOT = Path(__file__).resolve().parents[1]
HALF_A_DIE = "throws \ud83c"  # the first half of a surrogate pair, as JavaScript may slice


def test_a_report_quoting_half_a_surrogate_pair_can_be_sent(request: pytest.FixtureRequest) -> None:
    report = pytest.TestReport(
        nodeid="tests/example.py::test_example",
        location=("tests/example.py", 1, "test_example"),
        keywords={},
        outcome="failed",
        longrepr=f"AssertionError: the page said {HALF_A_DIE!s}",
        when="call",
        sections=[("Captured stdout call", HALF_A_DIE)],
    )
    with pytest.raises(Exception, match="utf-8"):
        dumps_internal(HALF_A_DIE)  # what the worker's channel refuses
    data = request.config.hook.pytest_report_to_serializable(config=request.config, report=report)
    sent = dumps_internal(data)
    assert sent and "\\ud83c" in data["longrepr"] and data["outcome"] == "failed"


class Sent(IntEnum):
    ONE = 1


def test_a_worker_sends_a_warning_quoting_half_a_surrogate_pair() -> None:
    """Before: such a warning, recorded after a test, ended the worker's session with
    its remaining tests unrun, and the run with pytest-xdist's ``assert not crashitem``."""
    message = warnings.WarningMessage(UserWarning(HALF_A_DIE), UserWarning, "page.py", 1)
    event = {"warning_message_data": serialize_warning_message(message), "when": "runtest"}
    with pytest.raises(Exception, match="utf-8"):
        dumps_internal(event)
    received: list[tuple[str, dict[str, Any]]] = []

    class Interactor:  # pytest-xdist's worker, as far as sending goes
        def sendevent(self, name: str, **kwargs: object) -> None:
            received.append(loads_internal(dumps_internal((name, kwargs))))

    interactor = Interactor()
    send_safely(interactor)
    interactor.sendevent("warning_recorded", **event)
    name, sent = received[0]
    assert name == "warning_recorded"
    assert sent["warning_message_data"]["message_str"] == "throws \\ud83c"


def test_what_the_channel_cannot_carry_becomes_plain() -> None:
    value = {"code": Sent.ONE, "items": (1.5, {2}, [object]), "text": HALF_A_DIE, "none": None}
    plain = loads_internal(dumps_internal(channel_safe(value)))
    assert plain == {
        "code": 1,
        "items": (1.5, {2}, ["<class 'object'>"]),
        "text": "throws \\ud83c",
        "none": None,
    }
    assert type(plain["code"]) is int


@pytest.mark.slow  # pytest with a parallel worker, as a subprocess
def test_a_run_on_a_worker_goes_on_after_such_a_warning(tmp_path: Path) -> None:
    """The whole way, as a run on parallel workers meets it: before, the worker's
    session ended at the warning (``INTERNALERROR``) and the next test never ran."""
    (tmp_path / "test_page.py").write_text(
        "import warnings\n"
        "def test_the_page_warns():\n"
        "    warnings.warn('throws \\ud83c', UserWarning)\n"
        "def test_the_next_one_runs():\n"
        "    pass\n"
    )
    command = [sys.executable, "-m", "pytest", "-n", "1", "-p", "tests.conftest"]
    options = ["-p", "no:cacheprovider", "--rootdir", str(tmp_path), "-c", "/dev/null"]
    ran = subprocess.run(
        [*command, *options, str(tmp_path / "test_page.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert "2 passed" in ran.stdout and "INTERNALERROR" not in ran.stdout
