"""Where the compiled kernels' cache goes when numba has nowhere to put it.

The kernels are compiled with ``cache=True``. Numba keeps that cache beside the
source (``__pycache__``), or in the user's cache folder when the source cannot be
written (an installed package); where neither can be written (a read-only checkout
run by a user without a home folder, as in some CI sandboxes), it refuses to import
the module at all: ``RuntimeError: cannot cache function ... no locator available``.
:func:`ensure_kernel_cache` points numba at a folder of the temporary directory in
that case only; it runs when this module is imported, which ``backgammon`` does
before anything else.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["ensure_kernel_cache"]


def _writable(folder: Path) -> bool:
    """Whether ``folder`` can be written, or made (its nearest existing parent can)."""
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            return os.access(candidate, os.W_OK | os.X_OK)
    return False


def ensure_kernel_cache() -> str | None:
    """Set ``NUMBA_CACHE_DIR`` to a temporary folder if neither the package's own
    folder nor the user's cache folder can hold numba's cache (and it is not set);
    returns the folder set, or None where nothing was needed."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    if _writable(Path(__file__).parent):
        return None
    user_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    if _writable(user_cache):
        return None
    folder = Path(tempfile.gettempdir()) / f"backgammon-numba-{os.getuid()}"
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    return str(folder)


ensure_kernel_cache()
