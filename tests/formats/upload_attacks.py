"""Pathological uploads: inputs shaped to make a match-file reader slow or hungry.

Each attack builds the bytes of an upload of about ``size`` bytes from a valid file's
pieces and one part repeated (a long line, many lines, deep nesting, many values, a
decompression bomb). The tests feed them to the readers at several sizes
(tests/formats/test_upload_bounds.py); ``benchmarks/upload_worst_inputs.py`` reports
the worst of them by time and memory per input byte.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
MAT_SAMPLE = DATA / "xg" / "gammonview" / "MYdvw1qGuyaRUH__.mat"
SGF_SAMPLE = DATA / "reference" / "formats" / "match02_3pt.sgf"
XG_SAMPLE = DATA / "xg" / "gammonview" / "MYdvw1qGuyaRUH__.xg"

Attack = Callable[[int], tuple[bytes, str]]
"""Builds ``(data, file name)`` of about the given size in bytes."""


def _mat_head() -> str:
    return MAT_SAMPLE.read_text().split(" Game 1", 1)[0]


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // max(1, len(unit)))


def _mat(body: Callable[[int], str]) -> Attack:
    return lambda size: (body(size).encode(), "attack.mat")


def _sgf(body: Callable[[int], str]) -> Attack:
    return lambda size: (body(size).encode(), "attack.sgf")


MAT_ATTACKS: dict[str, Attack] = {
    "mat: an unquoted header tag of spaces": _mat(
        lambda n: "; [a" + " " * n + "x]\n5 point match\n"
    ),
    "mat: a header tag of quotes": _mat(lambda n: '; [a "' + _repeat('" ', n) + "\n"),
    "mat: a header tag of name parts": _mat(lambda n: "; [" + _repeat("a ", n) + "\n"),
    "mat: many header tags": _mat(lambda n: _repeat('; [Event "x"]\n', n) + "5 point match\n"),
    "mat: many comment lines": _mat(lambda n: _repeat("; a comment\n", n)),
    "mat: a long score line": _mat(
        lambda n: " 5 point match\n Game 1\n" + _repeat(": 1 ", n) + "\n"
    ),
    "mat: a score line of colons": _mat(lambda n: " 5 point match\n Game 1\n a" + ":" * n),
    "mat: a long move line": _mat(
        lambda n: _mat_head() + " Game 1\n a : 0  b : 0\n  1) 31: " + _repeat("8/5 ", n) + "\n"
    ),
    "mat: many move numbers": _mat(
        lambda n: _mat_head() + " Game 1\n a : 0  b : 0\n" + _repeat("  1) 31: 8/5 6/5\n", n)
    ),
    "mat: many games": _mat(lambda n: _mat_head() + _repeat(" Game 1\n", n)),
    "mat: digits without end": _mat(lambda n: "9" * n),
    "mat: the sample, repeated": _mat(lambda n: _repeat(MAT_SAMPLE.read_text(), n)),
}

SGF_ATTACKS: dict[str, Attack] = {
    "sgf: deep nesting": _sgf(lambda n: "(" * n + ";GM[6]" + ")" * n),
    "sgf: nested variations": _sgf(lambda n: "(;GM[6]" + _repeat("(;C[x]", n) + ")" * (n // 6 + 1)),
    "sgf: many nodes": _sgf(lambda n: "(;GM[6]" + _repeat(";C[x]", n) + ")"),
    "sgf: many values": _sgf(lambda n: "(;GM[6]AB" + _repeat("[a]", n) + ")"),
    "sgf: many properties": _sgf(
        lambda n: "(;GM[6]" + "".join(f"X{_name(i)}[x]" for i in range(n // 7)) + ")"
    ),
    "sgf: a long escaped value": _sgf(lambda n: "(;GM[6]C[" + _repeat("\\]", n) + "])"),
    "sgf: an unclosed value": _sgf(lambda n: "(;GM[6]C[" + "\\" * n),
    "sgf: many variations": _sgf(lambda n: "(;GM[6]" + _repeat("(;C[x])", n) + ")"),
    "sgf: a long property name": _sgf(lambda n: "(;" + "A" * n + "[x])"),
    "sgf: the sample, repeated": _sgf(lambda n: _repeat(SGF_SAMPLE.read_text(), n)),
}


def _name(index: int) -> str:
    """A distinct upper-case property name for each index."""
    letters = ""
    index += 1
    while index:
        index, digit = divmod(index - 1, 26)
        letters = chr(ord("A") + digit) + letters
    return letters


def xg_bomb(size: int) -> tuple[bytes, str]:
    """An ``.xg`` file whose 64 archive entries all point at the same compressed
    bytes, each inflating to as much as ``size`` bytes of compressed zeros allow."""
    sample = XG_SAMPLE.read_bytes()
    unpacked = min(size * 1000, 64 * 1024 * 1024)
    stored = zlib.compress(bytes(unpacked), 9)
    registry = b"".join(
        struct.pack(
            "<256s256siiiIBBxx",
            bytes([len(name)]) + name.encode(),
            b"\x00",
            unpacked,
            len(stored),
            0,
            zlib.crc32(bytes(unpacked)),
            0,
            9,
        )
        for name in [f"temp{index}.xg" for index in range(64)]
    )
    archive = stored + registry
    trailer = struct.pack("<IiiiiI12x", zlib.crc32(archive), 64, 1, len(registry), len(stored), 0)
    header = bytearray(sample[:8232])
    struct.pack_into("<qI", header, 12, 0, 0)  # no thumbnail
    return bytes(header) + archive + trailer, "bomb.xg"


@cache
def _sample_ogxm() -> bytes:
    """The SGF sample's match as an OGXM file (checksummed: a valid stream member)."""
    from backgammon.formats import read_match
    from backgammon.formats.ogxm import write_ogxm

    return write_ogxm(read_match(SGF_SAMPLE))


def ogxms_of_many_matches(size: int) -> tuple[bytes, str]:
    """A valid ``.ogxms`` stream of about ``size`` bytes: the sample match again and
    again (a one-match upload; every member used to be replayed before the count
    was looked at: 1 MB of them held the tools' worker 72 s)."""
    member = _sample_ogxm()
    return member * max(2, size // len(member)), "attack.ogxms"


BYTES_ATTACKS: dict[str, Attack] = {
    "ogxms: many matches": ogxms_of_many_matches,
    "xg: a decompression bomb": xg_bomb,
    "ogxm: zero bytes after the magic": lambda n: (b"OGXM" + bytes(n), "attack.ogxm"),
    "ogxm: 0xff bytes after the magic": lambda n: (b"OGXM" + b"\xff" * n, "attack.ogxm"),
}

ATTACKS: dict[str, Attack] = {**MAT_ATTACKS, **SGF_ATTACKS, **BYTES_ATTACKS}
"""Every attack by name."""
