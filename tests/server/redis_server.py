"""A throwaway Redis server for the tests: Debian's ``redis-server`` on a free loopback port, nothing saved."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.server.pg import free_port


class TempRedis:
    """``start()`` a private Redis; ``url`` to connect; ``stop()`` ends it and removes its folder."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: run `make system` (Debian package redis-server)")
        self.binary = binary
        self.root = Path(tempfile.mkdtemp(prefix="ziggurat-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The ``redis://`` URL of database 0."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> TempRedis:
        """Start the server and wait until it takes connections."""
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(
            [self.binary, *args, "--dir", str(self.root)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=self.root,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start in 20 s")

    def kill(self) -> None:
        """SIGKILL the server (``start()`` brings it back on the same port)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        """End the server and delete its folder."""
        try:
            self.kill()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
