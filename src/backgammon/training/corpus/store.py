"""The corpus folder: queue chunks waiting for labels, and the shards that label them.

::

    corpus/
      queue/CHUNK.txt        queued positions, a header and one queue line each
      shards/CHUNK.txt.gz    the labels of queue/CHUNK.txt, in its order (gzip text)

A chunk's name is ``YYYYMMDD-TAG-NNNN``: the day it was queued, a random tag of the
filling run (so two machines never make the same name) and its number in the run.
Files are immutable: a chunk is written once when queued, its shard once when every
position of it is labelled, each atomically (a temporary file renamed), so a reader
sees a whole file or none and a killed writer leaves at most a stray ``.*.tmp``.
"""

from __future__ import annotations

import gzip
import io
import os
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from backgammon.training.corpus.format import (
    CorpusFileError,
    Label,
    QueuedPosition,
    format_header,
    format_label,
    format_queued,
    parse_header,
    parse_label,
    parse_queued,
)

__all__ = ["QUEUE_TAG", "SHARD_TAG", "Chunk", "Corpus", "Shard"]

QUEUE_TAG = "backgammon-corpus-queue"
"""The header tag of a queue chunk."""

SHARD_TAG = "backgammon-corpus-shard"
"""The header tag of a shard."""

_Row = TypeVar("_Row")


@dataclass(frozen=True, slots=True)
class Chunk:
    """A queue chunk: its name, its header's fields and its positions."""

    name: str
    header: dict[str, Any]
    positions: tuple[QueuedPosition, ...]


@dataclass(frozen=True, slots=True)
class Shard:
    """A finished shard: its chunk's name, its header's fields (the labelling
    settings, the network's identity) and the labels."""

    name: str
    header: dict[str, Any]
    labels: tuple[Label, ...]


def _parse_lines(
    path: Path, text: str, tag: str, parse: Callable[[str], _Row]
) -> tuple[dict[str, Any], list[_Row]]:
    lines = text.splitlines()
    if not lines:
        raise CorpusFileError(f"{path}, line 1: the file is empty (expected a header)")
    try:
        header = parse_header(lines[0], tag)
    except ValueError as error:
        raise CorpusFileError(f"{path}, line 1: {error}") from None
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            rows.append(parse(line))
        except ValueError as error:
            raise CorpusFileError(f"{path}, line {number}: {line[:80]!r}: {error}") from None
    return header, rows


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def _gzip(text: str) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as file:
        file.write(text.encode())
    return buffer.getvalue()


class Corpus:
    """A corpus folder (see the module doc); nothing is read until asked."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        """Name the folder (it need not exist yet)."""
        self.root = Path(root)

    @property
    def queue_folder(self) -> Path:
        """Where the queue chunks are."""
        return self.root / "queue"

    @property
    def shard_folder(self) -> Path:
        """Where the shards are."""
        return self.root / "shards"

    def chunk_names(self) -> list[str]:
        """The queued chunks' names, oldest first."""
        if not self.queue_folder.is_dir():
            return []
        return sorted(path.name[:-4] for path in self.queue_folder.glob("[!.]*.txt"))

    def shard_names(self) -> set[str]:
        """The names of the chunks labelled so far."""
        if not self.shard_folder.is_dir():
            return set()
        return {path.name[:-7] for path in self.shard_folder.glob("[!.]*.txt.gz")}

    def pending(self) -> list[str]:
        """The chunks without a shard yet, oldest first."""
        done = self.shard_names()
        return [name for name in self.chunk_names() if name not in done]

    def read_chunk(self, name: str) -> Chunk:
        """A queue chunk.

        Raises:
            OSError: if it cannot be read.
            CorpusFileError: naming the file and line that breaks the format.
        """
        path = self.queue_folder / f"{name}.txt"
        text = path.read_text(encoding="utf-8", errors="replace")
        header, rows = _parse_lines(path, text, QUEUE_TAG, parse_queued)
        return Chunk(name, header, tuple(rows))

    def read_shard(self, name: str) -> Shard:
        """A shard.

        Raises:
            OSError: if it cannot be read.
            CorpusFileError: naming the file and line that breaks the format (or
                saying it is not gzip).
        """
        path = self.shard_folder / f"{name}.txt.gz"
        try:
            text = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
        except (gzip.BadGzipFile, EOFError) as error:
            raise CorpusFileError(f"{path}: not a whole gzip file ({error})") from None
        header, rows = _parse_lines(path, text, SHARD_TAG, parse_label)
        return Shard(name, header, tuple(rows))

    def add_chunks(
        self, positions: Sequence[QueuedPosition], size: int, header: dict[str, Any]
    ) -> list[str]:
        """Queue ``positions`` as new chunks of ``size`` (each with ``header``); their
        names.

        Raises:
            ValueError: if ``size`` < 1.
            OSError: if the folder cannot be written.
        """
        if size < 1:
            raise ValueError(f"a chunk holds at least one position, got {size}")
        self.queue_folder.mkdir(parents=True, exist_ok=True)
        run = f"{time.strftime('%Y%m%d', time.gmtime())}-{secrets.token_hex(3)}"
        names = []
        for number, start in enumerate(range(0, len(positions), size), start=1):
            name = f"{run}-{number:04d}"
            lines = [format_header(QUEUE_TAG, header | {"chunk": name})]
            lines += (format_queued(entry) for entry in positions[start : start + size])
            _write_atomically(self.queue_folder / f"{name}.txt", "\n".join(lines).encode() + b"\n")
            names.append(name)
        return names

    def write_shard(self, name: str, header: dict[str, Any], labels: Iterable[Label]) -> Path:
        """Write the shard of chunk ``name`` (atomically); its path.

        Raises:
            FileExistsError: if the chunk has a shard already (shards are immutable).
            OSError: if the folder cannot be written.
        """
        path = self.shard_folder / f"{name}.txt.gz"
        if path.exists():
            raise FileExistsError(f"{path} exists: a shard is written once")
        self.shard_folder.mkdir(parents=True, exist_ok=True)
        lines = [format_header(SHARD_TAG, header | {"chunk": name})]
        lines += (format_label(label) for label in labels)
        _write_atomically(path, _gzip("\n".join(lines) + "\n"))
        return path
