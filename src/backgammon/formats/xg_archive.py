"""The container of eXtreme Gammon files: a RichGameFormat header, a thumbnail, and a
zlib archive of the files XG saves (``temp.xg``: the records, ``temp.xgr``: rollouts,
``temp.xgc``: comments, ``temp.xgi``: an index).

A pure leaf codec: bytes in, an :class:`XgContainer` out, no I/O. Written from the
format eXtreme Gammon publishes (https://www.extremegammon.com/xgformat.aspx):

- The RichGameFormat header, 8,232 bytes, little-endian: the magic ``RGMH``, a version
  (1), the header's size, the thumbnail's offset (after the header) and size, a GUID,
  and four texts of 1,024 UTF-16 code units (game name, save name, level name,
  comments).
- The archive ends the file. Its last 36 bytes describe it: a CRC-32 of the archive
  (its files and registry), the number of files, a version, the registry's size, the
  files' size, whether the registry is zlib-compressed, and 12 reserved bytes. The
  registry, just before those 36 bytes, has 532 bytes per file: its name and folder
  (Pascal strings of up to 255 bytes), its size, its stored size, where it starts (from
  the start of the archive), its CRC-32, whether it is stored raw (0 means compressed)
  and its compression level.

Every size, offset and checksum is checked; anything wrong raises
:class:`~backgammon.errors.XgFileError`. Decompressed files are capped at
:data:`MAX_FILE_BYTES` each and :data:`MAX_TOTAL_BYTES` together, a name may appear
once, and the registry's declared sizes are checked against both caps before any file
is inflated: a small file whose entries all point at the same compressed bytes (a
decompression bomb) is refused before it costs memory.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

from backgammon.errors import XgFileError

__all__ = ["HEADER_BYTES", "MAX_FILE_BYTES", "MAX_TOTAL_BYTES", "XgContainer", "open_container"]

HEADER_BYTES = 8232
"""Size of the RichGameFormat header."""

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest file the archive may unpack to (a defence against zip bombs)."""

MAX_TOTAL_BYTES = 64 * 1024 * 1024
"""The most the archive's files may unpack to together (a long match with rollouts and
comments is a few MB)."""

_MAGIC = b"RGMH"
_TEXT_UNITS = 1024
_HEADER_FIXED = struct.Struct("<4sIIqI16s")
_TRAILER = struct.Struct("<IiiiiI12x")
_FILE_ENTRY = struct.Struct("<256s256siiiIBBxx")
_MAX_FILES = 64


@dataclass(frozen=True, slots=True)
class XgContainer:
    """What the container of an XG file holds.

    Attributes:
        game_name, save_name, level_name, comments: the header's four texts.
        guid: the header's GUID, as hexadecimal.
        thumbnail: the JPEG picture of the board (empty when there is none).
        files: the archive's files by name (``"temp.xg"``, ``"temp.xgr"``, ...),
            decompressed.
    """

    game_name: str
    save_name: str
    level_name: str
    comments: str
    guid: str
    thumbnail: bytes
    files: dict[str, bytes] = field(default_factory=dict)


def _utf16_text(data: bytes) -> str:
    """A zero-terminated UTF-16LE text (unpaired surrogates replaced)."""
    units = data.decode("utf-16-le", errors="replace")
    return units.split("\x00", 1)[0]


def _pascal_text(data: bytes) -> str:
    """A Pascal short string: a length byte, then that many bytes (Windows-1252)."""
    length = min(data[0], len(data) - 1) if data else 0
    return data[1 : 1 + length].decode("cp1252", errors="replace")


def open_container(data: bytes, *, path: str | None = None) -> XgContainer:
    """Unpack an ``.xg``/``.xgp`` file's bytes.

    Raises:
        XgFileError: if the bytes are not such a file, or are truncated or corrupt
            (a size, offset or CRC-32 that does not fit).
    """
    if len(data) < HEADER_BYTES + _TRAILER.size:
        raise XgFileError(
            f"not an eXtreme Gammon file: {len(data)} bytes, fewer than its "
            f"{HEADER_BYTES}-byte header and archive need",
            path=path,
        )
    magic, version, header_size, thumb_offset, thumb_size, guid = _HEADER_FIXED.unpack_from(data)
    if magic != _MAGIC:
        raise XgFileError(
            f"not an eXtreme Gammon file: it starts with {magic!r}, expected {_MAGIC!r}",
            path=path,
        )
    if version != 1:
        raise XgFileError(f"RichGameFormat header version {version}, expected 1", path=path)
    texts = [
        _utf16_text(data[start : start + 2 * _TEXT_UNITS])
        for start in range(_HEADER_FIXED.size, HEADER_BYTES, 2 * _TEXT_UNITS)
    ]
    thumbnail = _thumbnail(data, header_size, thumb_offset, thumb_size, path)
    files = _archive_files(data, header_size + thumb_offset + thumb_size, path)
    game_name, save_name, level_name, comments = texts
    return XgContainer(game_name, save_name, level_name, comments, guid.hex(), thumbnail, files)


def _thumbnail(data: bytes, header_size: int, offset: int, size: int, path: str | None) -> bytes:
    if header_size < HEADER_BYTES or header_size > len(data):
        raise XgFileError(
            f"the header says it is {header_size} bytes; expected {HEADER_BYTES} to {len(data)}",
            path=path,
        )
    start = header_size + offset
    if offset < 0 or start + size > len(data):
        raise XgFileError(
            f"the thumbnail ({size} bytes at {start}) lies outside the file's {len(data)} bytes",
            path=path,
        )
    return data[start : start + size]


def _archive_files(data: bytes, earliest: int, path: str | None) -> dict[str, bytes]:
    end = len(data) - _TRAILER.size
    crc, count, _version, registry_size, archive_size, compressed = _TRAILER.unpack_from(data, end)
    start = end - registry_size - archive_size
    if registry_size < 0 or archive_size < 0 or start < earliest:
        raise XgFileError(
            f"the archive's sizes (files {archive_size}, registry {registry_size} bytes) "
            "do not fit in the file: it is cut short or damaged",
            path=path,
        )
    if zlib.crc32(data[start:end]) != crc:
        raise XgFileError("the archive's CRC-32 does not match: the file is corrupt", path=path)
    if not 1 <= count <= _MAX_FILES:
        raise XgFileError(f"the archive says it holds {count} files; expected 1 to 64", path=path)
    registry = data[end - registry_size : end]
    if compressed:
        registry = _inflate(registry, count * _FILE_ENTRY.size, "the archive's registry", path)
    if len(registry) < count * _FILE_ENTRY.size:
        raise XgFileError(
            f"the archive's registry has {len(registry)} bytes, too few for {count} files",
            path=path,
        )
    _check_declared_sizes(registry, count, path)
    files: dict[str, bytes] = {}
    for index in range(count):
        name, content = _archive_file(data, start, archive_size, registry, index, path)
        files[name] = content
    return files


def _check_declared_sizes(registry: bytes, count: int, path: str | None) -> None:
    """Refuse repeated names and a total unpacked size over the cap, before inflating."""
    names: set[str] = set()
    total = 0
    for index in range(count):
        name_field, _folder, size, *_rest = _FILE_ENTRY.unpack_from(
            registry, index * _FILE_ENTRY.size
        )
        name = _pascal_text(name_field)
        if name in names:
            raise XgFileError(f"the archive names the file {name!r} twice", path=path)
        names.add(name)
        total += max(size, 0)
    if total > MAX_TOTAL_BYTES:
        raise XgFileError(
            f"the archive's files say they unpack to {total} bytes together, more than the "
            f"{MAX_TOTAL_BYTES} allowed",
            path=path,
        )


def _archive_file(
    data: bytes, start: int, archive_size: int, registry: bytes, index: int, path: str | None
) -> tuple[str, bytes]:
    name_field, _folder, size, stored, offset, crc, raw, _level = _FILE_ENTRY.unpack_from(
        registry, index * _FILE_ENTRY.size
    )
    name = _pascal_text(name_field)
    if size < 0 or stored < 0 or offset < 0 or offset + stored > archive_size:
        raise XgFileError(
            f"archive file {name!r}: {stored} bytes at {offset} lie outside the archive's "
            f"{archive_size} bytes",
            path=path,
        )
    if size > MAX_FILE_BYTES:
        raise XgFileError(
            f"archive file {name!r} says it is {size} bytes, more than the "
            f"{MAX_FILE_BYTES} allowed",
            path=path,
        )
    content = data[start + offset : start + offset + stored]
    if raw == 0:
        content = _inflate(content, size, f"archive file {name!r}", path)
    if zlib.crc32(content) != crc:
        raise XgFileError(
            f"archive file {name!r}: the CRC-32 does not match: the file is corrupt", path=path
        )
    return name, content


def _inflate(data: bytes, expected: int, what: str, path: str | None) -> bytes:
    """zlib-decompress ``data``, refusing more than ``expected`` bytes (and the cap)."""
    limit = min(expected, MAX_FILE_BYTES)
    inflater = zlib.decompressobj()
    try:
        content = inflater.decompress(data, limit + 1)
    except zlib.error as error:
        raise XgFileError(f"{what} does not decompress: {error}", path=path) from None
    if len(content) > limit:
        raise XgFileError(f"{what} decompresses to more than the {limit} bytes expected", path=path)
    if not inflater.eof:
        raise XgFileError(f"{what}: the compressed data is truncated", path=path)
    return content
