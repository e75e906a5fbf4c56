"""A throwaway PostgreSQL server for the tests: Debian's binaries, a fresh cluster in a temporary folder.

Nothing is mocked: the tests talk to a real ``postgres`` process on loopback.
As root (CI), the cluster runs as the ``postgres`` system user, since PostgreSQL
refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_bin() -> Path:
    """The folder with initdb, pg_ctl and postgres (the newest Debian PostgreSQL)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise RuntimeError("PostgreSQL's server programs are not installed: run `make system` (Debian package postgresql)")


class TempPostgres:
    """``start()`` a private cluster; ``url(db)`` to connect; ``stop()`` removes it."""

    def __init__(self) -> None:
        self.bin = pg_bin()
        self.root = Path(tempfile.mkdtemp(prefix="ziggurat-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.run_as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.run_as, *args], check=True, capture_output=True, cwd=self.root)

    def start(self) -> TempPostgres:
        """initdb, then start the server and wait until it takes connections."""
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"
        )
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start"
        )
        return self

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL of ``database``."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once and delete its files."""
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
