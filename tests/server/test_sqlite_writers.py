"""SQLite writers of one process take turns on a Python lock, not in SQLite's sleeping busy handler.

SQLite's busy handler sleeps 1, 2, 5, ... up to 100 ms between tries, so a move's group commit
queued behind a table being created could wait far longer than that write took (the p99 of
``benchmarks/server.py``). These tests give the waiting connection ``busy_timeout=0``: if it ever
reached SQLite while another connection held the write lock, it would fail at once with "database
is locked" instead of waiting its turn.
"""

from __future__ import annotations

import gc
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from ziggurat.server import db
from ziggurat.server.db import SerialWriteConnection, make_engine


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    e = make_engine(f"sqlite:///{tmp_path}/w.db")
    with e.begin() as conn:
        conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)"))
    return e


def raw(engine: Engine) -> SerialWriteConnection:
    """A driver connection of the engine (its own: checked out of the pool for the test) that never waits
    inside SQLite."""
    proxy = engine.raw_connection()
    conn = proxy.dbapi_connection
    assert isinstance(conn, SerialWriteConnection)
    _held.append(proxy)  # not returned to the pool while the test runs
    conn.execute("PRAGMA busy_timeout=0")
    return conn


_held: list[object] = []


@pytest.fixture(autouse=True)
def _release_held() -> object:
    yield
    _held.clear()


def lock_of(engine: Engine) -> threading.Lock:
    return raw(engine).write_lock


def test_a_second_writer_waits_for_the_first_commit_then_writes(engine: Engine) -> None:
    first, second = raw(engine), raw(engine)
    first.execute("INSERT INTO t VALUES (1, 'a')")  # holds SQLite's write lock until it commits
    done: list[float] = []

    def write() -> None:
        second.execute("INSERT INTO t VALUES (2, 'b')")
        second.commit()
        done.append(time.perf_counter())

    waiter = threading.Thread(target=write)
    waiter.start()
    time.sleep(0.2)
    assert not done, "the second writer went ahead while the first held the database"
    committed = time.perf_counter()
    first.commit()
    waiter.join(5)
    assert done and done[0] >= committed
    assert second.execute("SELECT k FROM t ORDER BY k").fetchall() == [(1,), (2,)]


def test_many_threads_writing_at_once_all_commit(engine: Engine) -> None:
    errors: list[BaseException] = []

    def write(base: int) -> None:
        try:
            conn = raw(engine)
            for i in range(20):
                conn.execute("INSERT INTO t VALUES (?, 'x')", (base + i,))
                conn.execute("UPDATE t SET v = 'y' WHERE k = ?", (base + i,))
                conn.commit()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(100 * n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM t WHERE v = 'y'")).scalar() == 120
    assert not lock_of(engine).locked()


def test_reads_do_not_wait_for_a_writer(engine: Engine) -> None:
    writer, reader = raw(engine), raw(engine)
    writer.execute("INSERT INTO t VALUES (1, 'a')")
    assert reader.execute("SELECT count(*) FROM t").fetchone() == (0,)  # the last committed state
    writer.commit()
    assert reader.execute("SELECT count(*) FROM t").fetchone() == (1,)


@pytest.mark.parametrize("end", ["commit", "rollback", "close"])
def test_every_end_of_a_transaction_lets_the_next_writer_in(engine: Engine, end: str) -> None:
    conn = raw(engine)
    conn.execute("INSERT INTO t VALUES (1, 'a')")
    assert lock_of(engine).locked()
    getattr(conn, end)()
    assert not lock_of(engine).locked()
    other = raw(engine)
    other.execute("INSERT INTO t VALUES (2, 'b')")
    other.commit()


def test_a_failed_write_holds_the_lock_until_its_transaction_ends(engine: Engine) -> None:
    conn = raw(engine)
    conn.execute("INSERT INTO t VALUES (1, 'a')")
    conn.commit()
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO t VALUES (1, 'again')")
    if conn.in_transaction:
        assert lock_of(engine).locked()
        conn.rollback()
    assert not lock_of(engine).locked()
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("INSERT INTO no_such_table VALUES (1)")  # fails before any transaction begins
    assert not conn.in_transaction
    assert not lock_of(engine).locked()


def test_sqlalchemy_transactions_and_the_raw_log_writer_share_the_lock(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO t VALUES (1, 'a')"))
        assert lock_of(engine).locked()
    assert not lock_of(engine).locked()
    with pytest.raises(RuntimeError), engine.begin() as conn:
        conn.execute(text("INSERT INTO t VALUES (2, 'b')"))
        raise RuntimeError("the block fails: SQLAlchemy rolls back")
    assert not lock_of(engine).locked()
    cursor = engine.raw_connection().cursor()  # what LogWriter writes with
    assert type(cursor).__name__ == "_WriterCursor"


def test_one_lock_per_database_file(tmp_path: Path) -> None:
    a1 = make_engine(f"sqlite:///{tmp_path}/a.db")
    a2 = make_engine(f"sqlite:///{tmp_path}/../{tmp_path.name}/a.db")
    b = make_engine(f"sqlite:///{tmp_path}/b.db")
    m1, m2 = make_engine("sqlite://"), make_engine("sqlite:///:memory:")
    assert lock_of(a1) is lock_of(a2)
    assert lock_of(a1) is not lock_of(b)
    assert lock_of(m1) is not lock_of(m2)


def test_a_writer_held_up_too_long_gets_database_is_locked(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db, "SQLITE_WAIT", 0.1)
    first, second = raw(engine), raw(engine)
    first.execute("INSERT INTO t VALUES (1, 'a')")
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        second.execute("INSERT INTO t VALUES (2, 'b')")
    assert not second.in_transaction
    first.commit()
    second.execute("INSERT INTO t VALUES (2, 'b')")
    second.commit()


def test_a_connection_dropped_mid_transaction_lets_the_next_writer_in(engine: Engine) -> None:
    factory = type(raw(engine))
    dropped = factory(str(Path(engine.url.database or "").resolve()), check_same_thread=False)
    dropped.execute("INSERT INTO t VALUES (1, 'a')")
    assert factory.write_lock.locked()
    del dropped  # never closed: SQLite rolls its transaction back when it is freed
    gc.collect()
    assert not factory.write_lock.locked()
    other = raw(engine)
    other.execute("INSERT INTO t VALUES (2, 'b')")
    other.commit()
    assert other.execute("SELECT k FROM t").fetchall() == [(2,)]
