"""Where batches of games run: in this process, over local processes, or on a Ray cluster.

Every backend takes a picklable module-level function and a list of chunks and
returns the function's results *in chunk order*, whatever order the workers
finish in, so a run's results do not depend on the backend or the job count.
``on_chunk(i, result)`` is called as each chunk completes (progress bars, rows
written as they come). Ctrl-C stops the workers at once: they ignore it, and the
main process drops every queued and running chunk.

Local workers are forked from a fork server, never from the calling process:
that process may have threads (a progress bar's refresher, a web server, a
test runner's I/O), and a fork taken while one of them holds a lock leaves the
child waiting on it for ever.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ziggurat.core.errors import ZigguratError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("process", "ray")


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def chunk(items: Sequence[T], jobs: int, per_job: int = 8, max_size: int = 200) -> list[list[T]]:
    """Split ``items`` into consecutive chunks: about ``per_job`` chunks per job, at most ``max_size`` each.

    >>> chunk(list(range(10)), jobs=2, per_job=2)
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    """
    if not items:
        return []
    size = max(1, min(max_size, -(-len(items) // max(1, jobs * per_job))))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def run_chunks(
    fn: Callable[[T], R],
    chunks: Sequence[T],
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    on_chunk: Callable[[int, R], None] | None = None,
) -> list[R]:
    """Run ``fn`` on every chunk with the chosen backend; results in chunk order."""
    if backend == "process":
        return _run_process(fn, chunks, jobs, on_chunk)
    if backend == "ray":
        return _run_ray(fn, chunks, jobs, address, on_chunk)
    raise ZigguratError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops them (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context(fn: Callable[..., Any]) -> Any:
    """The fork server's context; it imports ``fn``'s module once, so each worker starts ready."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([fn.__module__])
    return ctx


def _call(item: tuple[Callable[[T], R], int, T]) -> tuple[int, R]:
    fn, i, c = item
    return i, fn(c)


def _run_process(
    fn: Callable[[T], R], chunks: Sequence[T], jobs: int, on_chunk: Callable[[int, R], None] | None
) -> list[R]:
    results: list[Any] = [None] * len(chunks)
    if jobs <= 1 or len(chunks) <= 1:
        for i, c in enumerate(chunks):
            results[i] = fn(c)
            if on_chunk is not None:
                on_chunk(i, results[i])
        return results
    pool = _context(fn).Pool(min(jobs, len(chunks)), initializer=_ignore_sigint)
    try:
        for i, result in pool.imap_unordered(_call, [(fn, i, c) for i, c in enumerate(chunks)]):
            results[i] = result
            if on_chunk is not None:
                on_chunk(i, result)
        pool.close()
    except BaseException:
        pool.terminate()  # Ctrl-C (or an error): queued and running chunks are dropped at once
        raise
    finally:
        pool.join()
    return results


def import_ray() -> Any:
    """Import Ray, or explain how to get it."""
    try:
        import ray
    except ImportError:
        raise ZigguratError(
            "the ray backend needs Ray: install the cluster extra (pip install 'ziggurat[cluster]')"
        ) from None
    return ray


def _run_ray(
    fn: Callable[[T], R],
    chunks: Sequence[T],
    jobs: int,
    address: str | None,
    on_chunk: Callable[[int, R], None] | None,
) -> list[R]:
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        if address in (None, "", "local"):
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
        else:
            try:
                ray.init(address=address, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ZigguratError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
        started = True
    try:
        remote = ray.remote(fn)
        refs = [remote.remote(c) for c in chunks]
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[Any] = [None] * len(chunks)
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    i = index[ref]
                    results[i] = ray.get(ref)
                    if on_chunk is not None:
                        on_chunk(i, results[i])
        except BaseException:
            for ref in pending:  # Ctrl-C: what is still queued or running is cancelled
                ray.cancel(ref, force=True)
            raise
        return results
    finally:
        if started:
            ray.shutdown()
