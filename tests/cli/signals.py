"""Start a program the way a terminal does, whatever the test runner ignores."""

from __future__ import annotations

import signal


def default_ctrl_c() -> None:
    """``preexec_fn`` for programs a test presses Ctrl-C in.

    A process started in the background of a non-interactive shell (how a CI
    job may start the suite) inherits SIGINT *ignored*, and Python then never
    raises KeyboardInterrupt; a terminal's foreground program has the default.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
