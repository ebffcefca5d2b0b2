"""Every upload format's reader is bounded in time and memory per input byte.

A stranger's upload reaches these readers before any quota can weigh it, so each must
be linear: the known attacks (tests/formats/upload_attacks.py) and Hypothesis's
repetitions of structural characters are read at a small and a sixteen-times larger
size. Time is compared within the same run (the larger size may cost at most twice
the linear share, where a quadratic reader costs sixteen times more: no absolute
timing), and the peak of Python's allocations is bounded per byte.
"""

from __future__ import annotations

import contextlib
import time
import tracemalloc
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon import BackgammonError
from backgammon.formats import read_match_bytes

from .upload_attacks import ATTACKS, MAT_SAMPLE, XG_SAMPLE, Attack, _sample_ogxm

# Readers' times compared: nothing else runs meanwhile.
pytestmark = pytest.mark.alone

SMALL = 8_192
LARGE = 16 * SMALL
MEMORY_PER_BYTE = 200
"""The most a reader may allocate per input byte (beyond a fixed 4 MB): a match's
record of Python objects is about 100 bytes per byte of .mat text."""


def _read(data: bytes, name: str) -> tuple[float, int]:
    """The CPU seconds and the peak allocation of reading ``data`` as ``name``."""
    tracemalloc.start()
    start = time.process_time()
    with contextlib.suppress(BackgammonError, ValueError):
        read_match_bytes(data, path=name)
    seconds = time.process_time() - start
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak


def _check_linear(
    small: tuple[bytes, str], large: tuple[bytes, str], per_byte: float = 0.0
) -> None:
    """``large`` costs at most twice the linear share of ``small`` (or of ``per_byte``
    seconds a byte, a valid file's cost: a damaged small file may be refused at once
    where a large one, whose damage a reader skips, is read in full)."""
    # The least of two reads of each: one read can be slowed by what else the machine
    # does (a collection, a busy core's caches), a reader's own cost cannot go away.
    small_time = min(_read(*small)[0] for _ in range(2))
    small_time = max(small_time, per_byte * len(small[0]))
    (large_time, peak), (again, _) = _read(*large), _read(*large)
    large_time = min(large_time, again)
    ratio = len(large[0]) / max(len(small[0]), 1)
    assert large_time <= 0.05 + 2 * ratio * small_time, (
        f"{len(large[0])} bytes took {large_time:.3f} s, {len(small[0])} took "
        f"{small_time:.3f} s: more than linear"
    )
    assert peak <= 4_000_000 + MEMORY_PER_BYTE * len(large[0]), (
        f"{len(large[0])} bytes allocated {peak} bytes at their peak"
    )


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Import every reader (and the rules' tables) before measuring."""
    for attack in ATTACKS.values():
        _read(*attack(64))


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_known_attacks_are_linear(name: str) -> None:
    attack: Attack = ATTACKS[name]
    _check_linear(attack(SMALL), attack(LARGE))


STRUCTURE = st.sampled_from([*list('[]();:"\\ \n\t#/*0123456789abAB-'), "Game", "point"])
PREFIXES = {
    "mat": MAT_SAMPLE.read_text().split(" Game 1", 1)[0],
    "mat game": MAT_SAMPLE.read_text()[:1200],
    "sgf": "(;GM[6]",
    "sgf value": "(;GM[6]C[",
    "mat tag": "; [a",
    "mat tag value": '; [a "',
    "none": "",
}


@given(
    prefix=st.sampled_from(sorted(PREFIXES)),
    unit=st.lists(STRUCTURE, min_size=1, max_size=6).map("".join),
    suffix=st.sampled_from(["", "\n", "x]", ")", '"]\n']),
    kind=st.sampled_from(
        ["upload.mat", "upload.sgf", "upload.xg", "upload.xgp", "upload.ogxm", "upload.ogxms"]
    ),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_repeated_structure_is_linear(prefix: str, unit: str, suffix: str, kind: str) -> None:
    def build(size: int) -> tuple[bytes, str]:
        body = PREFIXES[prefix] + unit * (size // len(unit)) + suffix
        return body.encode(), kind

    _check_linear(build(SMALL), build(LARGE))


@cache
def _binary_sample(kind: str) -> tuple[bytes, str, float]:
    """A valid file of a binary format, its upload name, and what reading it costs
    a byte (the least of two reads)."""
    sample, name = {
        "xg": (XG_SAMPLE.read_bytes(), "upload.xg"),
        "ogxm": (_sample_ogxm(), "upload.ogxm"),
        "ogxms": (_sample_ogxm() * 2, "upload.ogxms"),
    }[kind]
    return sample, name, min(_read(sample, name)[0] for _ in range(2)) / len(sample)


@given(
    kind=st.sampled_from(["ogxm", "ogxms", "xg"]),
    cut=st.floats(0, 1),
    width=st.integers(1, 64),
    flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=4),
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_damaged_binary_files_are_linear(
    kind: str, cut: float, width: int, flips: list[tuple[float, int]]
) -> None:
    """A valid eXtreme Gammon or OGXM file (or stream) with a piece of itself repeated
    at one place until it is the size asked for, and a few bytes changed: the binary
    readers refuse or read it in linear time and memory too."""
    sample, name, valid = _binary_sample(kind)
    at = int(cut * (len(sample) - 1))
    piece = sample[at : at + width]

    def build(size: int) -> tuple[bytes, str]:
        copies = max(1, (size - len(sample)) // len(piece))
        data = bytearray(sample[:at] + piece * copies + sample[at:])
        for where, value in flips:
            data[int(where * (len(data) - 1))] = value
        return bytes(data), name

    _check_linear(build(SMALL), build(LARGE), per_byte=valid)


def test_a_stream_of_many_matches_is_refused_before_any_is_replayed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An upload is one match: a ``.ogxms`` stream of more is refused once a second
    member is found. Before, every member was checked and replayed first (1 MB of
    small matches held the tools' worker 72 s; ten 82 KB matches, 141 s)."""
    import ogxm

    from backgammon.formats import MatchFileError
    from backgammon.formats import ogxm as reader

    members, replayed = [], []
    split = ogxm.iter_stream

    def counted(*args: object, **kwargs: object) -> object:
        for member in split(*args, **kwargs):  # type: ignore[arg-type]
            members.append(len(member))
            yield member

    monkeypatch.setattr(ogxm, "iter_stream", counted)
    monkeypatch.setattr(reader, "read_ogxm", lambda *args, **kwargs: replayed.append(args))
    data, name = ATTACKS["ogxms: many matches"](1_000_000)
    with pytest.raises(MatchFileError, match="more than one match"):
        read_match_bytes(data, path=name)
    assert replayed == [] and len(members) == 2
