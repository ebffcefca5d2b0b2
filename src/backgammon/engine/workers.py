"""Where parallel engine work runs: local processes, or a Ray cluster.

Rollouts and labelling split their work into independent tasks (a range of trials,
a shard of positions). A :class:`TaskRunner` runs ``function(item)`` for each item
and yields the results as they finish, with the item's index:

* :class:`LocalProcesses` runs them in this process (one process) or in a pool of
  local worker processes, as the rollouts always did;
* :class:`RayCluster` runs them on Ray (``pip install 'backgammon[cluster]'``): a
  local cluster it starts with ``cpus`` CPUs (``address="local"``), or an existing
  one (``"auto"``, ``"ray://HOST:PORT"``), whose nodes must have this package
  installed.

``function`` must be picklable (a module-level function, or a
:func:`functools.partial` of one with picklable arguments such as an
:class:`~backgammon.engine.evaluator.Engine`'s bound ``evaluate_boards``).

>>> with open_runner(None, 1) as runner:
...     sorted(runner.map_unordered(abs, [-2, 3]))
[(0, 2), (1, 3)]
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import Any, Protocol, Self, TypeVar

from backgammon.errors import EngineError

__all__ = [
    "LocalProcesses",
    "RayCluster",
    "TaskRunner",
    "open_runner",
    "ray_installed",
]

Item = TypeVar("Item")
Result = TypeVar("Result")


class TaskRunner(Protocol):
    """Runs independent tasks somewhere and yields their results as they finish."""

    @property
    def cores(self) -> int:
        """How many tasks run at once (CPUs of the pool or the cluster)."""
        ...

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Iterator[tuple[int, Result]]:
        """``(index, function(items[index]))`` for every item, in the order they
        finish. A task's exception is raised here."""
        ...

    def close(self) -> None:
        """Release the workers (a runner is also a context manager)."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None: ...


class LocalProcesses:
    """Tasks in this process (``processes=1``) or in a pool of local processes."""

    def __init__(self, processes: int = 1) -> None:
        """Start ``processes`` workers (none for 1).

        Raises:
            ValueError: if ``processes`` < 1.
        """
        if processes < 1:
            raise ValueError(f"processes must be >= 1, got {processes}")
        self._processes = processes
        self._pool = ProcessPoolExecutor(max_workers=processes) if processes > 1 else None

    @property
    def cores(self) -> int:
        """The number of worker processes."""
        return self._processes

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Iterator[tuple[int, Result]]:
        """Run ``function`` on each item; yield ``(index, result)`` as each finishes."""
        if self._pool is None:
            for index, item in enumerate(items):
                yield index, function(item)
            return
        pending: dict[Future[Result], int] = {
            self._pool.submit(function, item): index for index, item in enumerate(items)
        }
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield pending.pop(future), future.result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        """Stop the pool's processes."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def ray_installed() -> bool:
    """Whether Ray can be imported (the ``cluster`` extra)."""
    return importlib.util.find_spec("ray") is not None


def _apply(function: Callable[[Any], Any], item: Any) -> Any:
    return function(item)


class RayCluster:
    """Tasks on a Ray cluster: one CPU each.

    ``address="local"`` starts a private local cluster with ``cpus`` CPUs (no
    dashboard) and stops it on :meth:`close`; ``"auto"`` or ``"ray://HOST:PORT"``
    connects to a running one (``cpus`` is then ignored) and disconnects on close.
    """

    def __init__(self, address: str = "local", cpus: int | None = None) -> None:
        """Start or join the cluster.

        Raises:
            EngineError: if Ray is not installed or the cluster cannot be reached.
            ValueError: for ``cpus`` < 1.
        """
        if not ray_installed():
            raise EngineError(
                "Ray is not installed: install the cluster extra "
                "(pip install 'backgammon[cluster]') or run without --ray"
            )
        if cpus is not None and cpus < 1:
            raise ValueError(f"cpus must be >= 1, got {cpus}")
        import ray

        # Ray's own annotations are partial (untyped calls): held as Any, so the
        # check is the same with the cluster extra installed or not.
        self._ray: Any = ray
        try:
            if address == "local":
                ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise EngineError(f"cannot reach the Ray cluster at {address!r}: {error}") from None
        self._remote = ray.remote(num_cpus=1)(_apply)

    @property
    def cores(self) -> int:
        """The cluster's CPUs."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Iterator[tuple[int, Result]]:
        """Submit every item (``function`` shipped once to the object store); yield
        ``(index, result)`` as each finishes."""
        ray = self._ray
        shared = ray.put(function)
        pending = {self._remote.remote(shared, item): index for index, item in enumerate(items)}
        try:
            while pending:
                finished, _ = ray.wait(list(pending), num_returns=1)
                for reference in finished:
                    yield pending.pop(reference), ray.get(reference)
        finally:
            for reference in pending:
                ray.cancel(reference)

    def close(self) -> None:
        """Stop the local cluster, or disconnect from a remote one."""
        self._ray.shutdown()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def open_runner(ray_address: str | None, cpus: int = 1) -> TaskRunner:
    """The runner a command line asks for: Ray at ``ray_address`` (``"local"``,
    ``"auto"``, ``"ray://HOST:PORT"``) or, with ``None``, ``cpus`` local processes.

    Raises:
        EngineError: if Ray is asked for but not installed or not reachable.
        ValueError: for ``cpus`` < 1.
    """
    if ray_address is None:
        return LocalProcesses(cpus)
    return RayCluster(ray_address, cpus)
