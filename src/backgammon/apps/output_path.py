"""Where a command will write a file, checked before any work is done: a game played
or an analysis run must not end in "cannot write" and lose what was made."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["check_output_path"]


def check_output_path(path: str | os.PathLike[str], suffixes: tuple[str, ...]) -> Path:
    """``path`` as a :class:`Path` if a file of one of ``suffixes`` (``".mat"``, ...)
    can be written there: its extension is one of them, its folder exists and may be
    written to, and it is not a folder itself.

    Raises:
        ValueError: one line naming the path and what is wrong with it.
    """
    target = Path(path)
    if target.suffix.lower() not in suffixes:
        choices = " or ".join(
            [", ".join(suffixes[:-1]), suffixes[-1]] if len(suffixes) > 1 else suffixes
        )
        raise ValueError(f"{path}: the format is chosen by the extension, {choices}")
    if target.is_dir():
        raise ValueError(f"{path}: is a folder, not a file")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ValueError(f"{path}: not allowed to write there")
    return target
