"""Start a program the way a terminal does, whatever the test runner ignores."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def ctrl_c_on() -> Iterator[None]:
    """Programs started inside take Ctrl-C as a terminal's foreground program does.

    A process started in the background of a non-interactive shell (how a CI
    job may start the suite) has SIGINT *ignored*, children inherit that, and
    Python then never raises KeyboardInterrupt. A handler (unlike "ignore") is
    reset to the default by ``exec``, so one set here only while starting the
    child gives it the default, with no code run between fork and exec.
    """
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
