"""The package imports from a checkout nobody can write to, by a user with no home
folder (numba would otherwise refuse to import any module with cached kernels)."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import backgammon
from backgammon.kernel_cache import ensure_kernel_cache

NOBODY = 65534


def test_a_cache_folder_already_chosen_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere/chosen")
    assert ensure_kernel_cache() is None
    assert os.environ["NUMBA_CACHE_DIR"] == "/somewhere/chosen"


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("runuser") is None,
    reason="needs root to run a command as an unprivileged user (CI runs as root)",
)
def test_a_read_only_checkout_without_a_home_imports_its_kernels() -> None:
    # Not pytest's tmp_path: its parents are closed to other users.
    with tempfile.TemporaryDirectory() as folder:
        _import_as_nobody(Path(folder))


def _runs_as_nobody(python: str) -> bool:
    reach = subprocess.run(
        ["runuser", "-u", "nobody", "--", python, "-c", "pass"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    return reach.returncode == 0


def _interpreter_for_nobody(folder: Path) -> tuple[str, list[str]]:
    """An interpreter nobody may run and the import paths it needs: this one, or where
    this one lives in a private folder (pyenv's under /root, a virtual environment in a
    clone under a mode-700 home) the system's Python of the same version, given a copy
    in ``folder`` of the installed packages the import needs."""
    if _runs_as_nobody(sys.executable):
        return sys.executable, []
    system = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    if Path(system).exists() and _runs_as_nobody(system):
        return system, [str(_copy_of_packages(folder / "site-packages"))]
    pytest.skip(f"nobody may run neither {sys.executable} nor {system}")


def _copy_of_packages(target: Path) -> Path:
    """A copy in ``target`` of each installed top-level package (with its ``.libs``
    folder of shared libraries) that importing the package loads: what nobody needs
    where this interpreter's site-packages lie in a folder only its owner can read."""
    roots = [Path(path) for path in site.getsitepackages()]
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import backgammon.rules.movegen, sys; "
            "print('\\n'.join(m.__file__ for m in list(sys.modules.values()) "
            "if getattr(m, '__file__', None)))",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout.split()
    tops = {
        Path(file).relative_to(root).parts[0]
        for file in loaded
        for root in roots
        if Path(file).is_relative_to(root)
    }
    target.mkdir()
    for root in roots:
        for entry in root.iterdir():
            if entry.name in tops or entry.name.removesuffix(".libs") in tops:
                copy = shutil.copytree if entry.is_dir() else shutil.copy2
                copy(entry, target / entry.name)
    return target


def _import_as_nobody(folder: Path) -> None:
    source = Path(backgammon.__file__).parent
    copy = folder / "src" / "backgammon"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)  # readable, not writable, by others
    probe = (
        "import backgammon.rules.movegen as m, os; print(os.environ['NUMBA_CACHE_DIR'], m.__file__)"
    )
    python, packages = _interpreter_for_nobody(folder)
    env = {
        "HOME": "/nonexistent",
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.pathsep.join([str(copy.parent), *packages]),
    }
    done = subprocess.run(
        ["runuser", "-u", "nobody", "--", python, "-c", probe],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [
        f"/tmp/backgammon-numba-{NOBODY}",
        str(copy / "rules" / "movegen.py"),
    ]
