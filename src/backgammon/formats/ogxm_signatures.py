"""The signatures an OGXM file carries, checked.

An OGXM v2 file may carry Ed25519 signatures (the format's section 8): a match
signature vouches for the match itself (its moves and metadata), an analysis block's
signature for that analysis bound to the moves. The ``ogxm`` package computes the bytes
each one covers and runs the check (with ``cryptography``). Without trusted keys a
signature that holds proves only that nothing it covers changed since it was made; with
``keys`` (the publishers' raw 32-byte Ed25519 public keys) it must also be by one of
them.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from backgammon.errors import MatchFileError

__all__ = ["OgxmSignature", "check_signatures", "describe_signatures", "signatures_in"]


@dataclass(frozen=True, slots=True)
class OgxmSignature:
    """One signature of an OGXM file.

    Attributes:
        covers: ``"match"`` or ``"analysis"``.
        index: which match signature, or which analysis block (0-based, file order).
        signer: the signature's ``key_id`` (or the analysis's engine), as the file names it.
        valid: whether it holds over the bytes it covers (and, with trusted keys, is by
            one of them).
    """

    covers: str
    index: int
    signer: str
    valid: bool


def check_signatures(
    data: bytes, keys: Iterable[bytes] | None = None, *, path: str | None = None
) -> tuple[OgxmSignature, ...]:
    """Every signature of the OGXM file ``data``, checked; empty when it has none.

    Raises:
        MatchFileError: if the codec cannot read the file.
    """
    import ogxm
    from ogxm.signature import analysis_blocks

    try:
        document = ogxm.binary_to_json(data)
    except (ogxm.OgxmError, RuntimeError, ValueError) as error:
        raise MatchFileError(f"not a readable OGXM file: {error}", path=path) from None
    trusted = None if keys is None else list(keys)
    found = []
    for index, signature in enumerate(document.get("match_signatures") or []):
        signer = str(signature.get("key_id", "?")) if isinstance(signature, dict) else "?"
        valid = ogxm.verify_match(data, index, trusted)
        found.append(OgxmSignature("match", index, signer, valid))
    for index, block in enumerate(analysis_blocks(document)):
        if block.get("signature"):
            signer = str(block.get("model_name") or block.get("engine_build") or "?")
            valid = ogxm.verify_analysis(data, index, trusted)
            found.append(OgxmSignature("analysis", index, signer, valid))
    return tuple(found)


def describe_signatures(signatures: Iterable[OgxmSignature], *, trusted: bool = False) -> str:
    """One line per signature, for people: what it covers, who it names, whether it
    holds."""
    lines = []
    for signature in signatures:
        what = "match signature" if signature.covers == "match" else "analysis signature"
        if signature.valid:
            verdict = "holds" + ("" if trusted else " (integrity only: no trusted key was given)")
        else:
            verdict = "DOES NOT HOLD: what it covers was changed, or it was never valid"
        lines.append(f"{what} {signature.index + 1} ({signature.signer!r}): {verdict}")
    return "\n".join(lines)


def signatures_in(
    path: str | Path, keys: Iterable[bytes] | None = None
) -> Iterator[tuple[str, tuple[OgxmSignature, ...]]]:
    """The checked signatures of every OGXM match at ``path`` that carries any, as
    ``(label, signatures)``: an ``.ogxm`` file (its name), each match of an ``.ogxms``
    stream (``name#N``), or those of a folder's files. Files that cannot be read are
    left to the match readers to report."""
    import ogxm

    target = Path(path)
    files = sorted(target.iterdir()) if target.is_dir() else [target]
    trusted = None if keys is None else list(keys)
    for file in files:
        suffix = file.suffix.lower()
        if not file.is_file() or suffix not in (".ogxm", ".ogxms"):
            continue
        try:
            data = file.read_bytes()
            if suffix == ".ogxms":
                members = [
                    (f"{file.name}#{n}", bytes(m))
                    for n, m in enumerate(ogxm.iter_stream(io.BytesIO(data)), 1)
                ]
            else:
                members = [(file.name, data)]
            for label, member in members:
                found = check_signatures(member, trusted, path=str(file))
                if found:
                    yield label, found
        except (OSError, MatchFileError, ogxm.StreamError, ogxm.OgxmError, ValueError):
            continue
