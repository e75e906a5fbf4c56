"""Where batches of games run: in this process, over local processes, or on a Ray cluster.

Every backend takes a picklable module-level function and a list of chunks and
returns the function's results *in chunk order*, whatever order the workers
finish in, so a run's results do not depend on the backend or the job count.
``on_chunk(i, result)`` is called as each chunk completes (progress bars, rows
written as they come). Local workers get a few chunks at a time, the next sent
as one comes back, so results never pile up faster than ``on_chunk`` takes them.
Ctrl-C stops the workers at once: they ignore it, and the main process drops
every queued and running chunk.

Local workers are forked from a fork server, never from the calling process:
that process may have threads (a progress bar's refresher, a web server, a
test runner's I/O), and a fork taken while one of them holds a lock leaves the
child waiting on it for ever.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
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
    keep: bool = True,
) -> list[R]:
    """Run ``fn`` on every chunk with the chosen backend; results in chunk order.

    ``keep=False``: results go to ``on_chunk`` only (the list returned holds
    None), so a long run's results are not all held here at once.
    """
    if backend == "process":
        return _run_process(fn, chunks, jobs, on_chunk, keep)
    if backend == "ray":
        return _run_ray(fn, chunks, jobs, address, on_chunk, keep)
    raise ZigguratError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops them (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context(fn: Callable[..., Any]) -> Any:
    """The fork server's context; it imports ``fn``'s module once, so each worker starts ready."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([fn.__module__])
    return ctx


def _run_process(
    fn: Callable[[T], R], chunks: Sequence[T], jobs: int, on_chunk: Callable[[int, R], None] | None, keep: bool
) -> list[R]:
    results: list[Any] = [None] * len(chunks)
    if jobs <= 1 or len(chunks) <= 1:
        for i, c in enumerate(chunks):
            result = fn(c)
            if keep:
                results[i] = result
            if on_chunk is not None:
                on_chunk(i, result)
        return results
    workers = min(jobs, len(chunks))
    pool = _context(fn).Pool(workers, initializer=_ignore_sigint)
    finished: queue.SimpleQueue[tuple[int, Any, BaseException | None]] = queue.SimpleQueue()
    try:
        # a window of chunks in flight, the next sent as one comes back: results never pile up here
        # faster than ``on_chunk`` takes them (a run of millions of games stays in bounded memory)
        sent = 0
        for _ in range(min(len(chunks), workers * WINDOW_PER_JOB)):
            _send(pool, fn, sent, chunks[sent], finished)
            sent += 1
        for _ in range(len(chunks)):
            i, result, error = _next(finished)
            if error is not None:
                raise error
            if sent < len(chunks):
                _send(pool, fn, sent, chunks[sent], finished)
                sent += 1
            if keep:
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


WINDOW_PER_JOB = 2  # chunks in flight per worker


def _send(pool: Any, fn: Callable[[T], R], i: int, c: T, finished: queue.SimpleQueue[Any]) -> None:
    pool.apply_async(
        fn,
        (c,),
        callback=lambda r: finished.put((i, r, None)),
        error_callback=lambda e: finished.put((i, None, e)),
    )


def _next(finished: queue.SimpleQueue[Any]) -> tuple[int, Any, BaseException | None]:
    while True:  # short waits: Ctrl-C is heard at once
        try:
            return finished.get(timeout=0.2)  # type: ignore[no-any-return]
        except queue.Empty:
            continue


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
    keep: bool = True,
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
                    result = ray.get(ref)
                    if keep:
                        results[i] = result
                    if on_chunk is not None:
                        on_chunk(i, result)
        except BaseException:
            for ref in pending:  # Ctrl-C: what is still queued or running is cancelled
                ray.cancel(ref, force=True)
            raise
        return results
    finally:
        if started:
            ray.shutdown()
