"""Load test of the web app: many tables played at once over real WebSockets on loopback.

Starts ``ziggurat serve`` (one process, bots off) on SQLite and/or a throwaway
PostgreSQL, creates ``--tables`` tables whose every seat is an automatic player
on its own WebSocket (a random legal move as soon as it is its turn, sent with
its event number), plus one spectator socket per table, and plays for
``--seconds`` (a finished table is replaced by a new one). Prints moves per
second and the move latency measured by the server from receiving a move to
having sent its frame to every connection of the table (p50/p99), and the
round trip seen by the client (send -> ack).

    python benchmarks/server.py --tables 200 --seconds 20 --db sqlite postgresql

Figures, not a test: timing never fails anything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.pg import TempPostgres, free_port


class Player:
    """One seat's socket: plays a random legal move whenever the frame says it is its turn."""

    def __init__(self, bench: Bench, table: str, token: str | None, rng: random.Random):
        self.bench = bench
        self.table = table
        self.token = token
        self.rng = rng
        self.ws: websockets.ClientConnection | None = None
        self.sent_at: dict[str, float] = {}
        self.counter = 0

    async def run(self) -> None:
        try:
            await self._run()
        except asyncio.CancelledError:
            pass
        except websockets.ConnectionClosed as exc:
            if not self.bench.stopping:
                print(f"player of table {self.table}: connection closed {exc!r}", file=sys.stderr)
        except Exception as exc:  # a broken benchmark should say so
            print(f"player of table {self.table}: {exc!r}", file=sys.stderr)

    async def _run(self) -> None:
        url = f"ws://127.0.0.1:{self.bench.port}/api/tables/{self.table}/ws"
        async with websockets.connect(url, max_size=2**24) as ws:
            self.ws = ws
            hello = {"type": "hello", "since": 0, "format": "data"}
            if self.token:
                hello["token"] = self.token
            await ws.send(json.dumps(hello))
            async for text in ws:
                msg = json.loads(text)
                kind = msg["type"]
                if kind == "frame":
                    started = self.sent_at.pop(msg.get("ack"), None)
                    if started is not None:
                        self.bench.acked(time.perf_counter() - started)
                    if msg["status"]["phase"] == "over":
                        if self.token is None:
                            self.bench.finished(self.table)
                        return
                    if self.token is not None and msg["actions"] and not self.bench.stopping:
                        if self.bench.think:
                            await asyncio.sleep(self.bench.think * (0.5 + self.rng.random()))
                        action = self.rng.choice(msg["actions"])["id"]
                        self.counter += 1
                        mid = f"{self.counter}"
                        self.sent_at[mid] = time.perf_counter()
                        await ws.send(json.dumps({"type": "act", "action": action, "n": msg["n"], "id": mid}))
                elif kind == "ack":
                    started = self.sent_at.pop(msg["id"], None)
                    if started is not None:
                        self.bench.acked(time.perf_counter() - started)
                elif kind == "error" and msg.get("id"):
                    self.sent_at.pop(msg["id"], None)
                    self.bench.errors += 1
                if self.bench.stopping and not self.sent_at:
                    return


class Bench:
    """The load generator: keeps ``tables`` tables busy for ``seconds``."""

    def __init__(self, port: int, game: str, players: int, tables: int, seconds: float, seed: int, think: float):
        self.port = port
        self.think = think
        self.game = game
        self.players = players
        self.tables = tables
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.moves = 0
        self.errors = 0
        self.rtts: list[float] = []
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60)
        self.games_done = 0

    def acked(self, rtt: float) -> None:
        self.moves += 1
        self.rtts.append(rtt)

    def finished(self, _table: str) -> None:
        self.games_done += 1
        if not self.stopping:
            self._spawn(asyncio.ensure_future(self.new_table()))

    def _spawn(self, task: asyncio.Future[None]) -> None:
        self.tasks.add(task)  # type: ignore[arg-type]
        task.add_done_callback(self.tasks.discard)  # type: ignore[arg-type]

    async def new_table(self) -> None:
        seats = ["me"] + ["human"] * (self.players - 1)
        r = await self.client.post("/api/tables", json={"game": self.game, "seats": seats, "name": "bench"})
        created = r.json()
        tokens = [created["token"]] + [i["token"] for i in created["invites"]]
        for inv in created["invites"]:
            await self.client.post("/api/seats/claim", json={"token": inv["token"], "name": f"p{inv['seat']}"})
        players = [Player(self, created["id"], t, random.Random(self.rng.random())) for t in tokens]
        players.append(Player(self, created["id"], None, self.rng))
        for p in players:
            self._spawn(asyncio.ensure_future(p.run()))

    async def run(self) -> dict[str, float]:
        await asyncio.gather(*(self.new_table() for _ in range(self.tables)))
        await asyncio.sleep(1.0)  # warm up, then measure
        await self.client.post("/api/metrics/reset")
        start_moves, start = self.moves, time.perf_counter()
        self.rtts.clear()
        await asyncio.sleep(self.seconds)
        elapsed = time.perf_counter() - start
        moves = self.moves - start_moves
        metrics = (await self.client.get("/api/metrics")).json()
        self.stopping = True
        await asyncio.sleep(0.5)
        for t in list(self.tasks):
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.client.aclose()
        rtts = sorted(self.rtts)
        return {
            "moves_per_s": moves / elapsed,
            "server_p50_ms": metrics["latency_ms"]["p50"],
            "server_p99_ms": metrics["latency_ms"]["p99"],
            "rtt_p50_ms": 1000 * statistics.median(rtts) if rtts else float("nan"),
            "rtt_p99_ms": 1000 * rtts[int(0.99 * (len(rtts) - 1))] if rtts else float("nan"),
            "errors": self.errors,
            "games": self.games_done,
            "commits": metrics["log_commits"],
            "groups": metrics["log_groups"],
        }


def start_server(db_url: str, port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "ziggurat", "serve", "--port", str(port), "--db", db_url, "--bot-delay", "0"]
    proc = subprocess.Popen([*cmd, "--log-level", "warning"], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--game", default="kuhnah")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--db", nargs="+", default=["sqlite", "postgresql"], choices=["sqlite", "postgresql"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=[0.0, 0.15],
        nargs="+",
        help="seconds a player waits before moving (0: as fast as possible; 0.15: about 1,300 moves/s offered)",
    )
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(f"{args.tables} tables of {args.game} ({args.players} players, every seat on its own socket + a spectator)")
    print(
        f"{'database':<11} {'think':>5} {'moves/s':>8} {'server p50':>10} {'p99 (ms)':>9} {'rtt p50':>8}"
        f" {'p99 (ms)':>9} games"
    )
    for kind, think in [(k, t) for k in args.db for t in args.think]:
        pg = None
        folder = tempfile.mkdtemp(prefix="ziggurat-bench-")
        if kind == "sqlite":
            url = f"sqlite:///{folder}/bench.db"
        else:
            pg = TempPostgres().start()
            url = pg.create_database("bench")
        port = free_port()
        proc = start_server(url, port)
        try:
            bench = Bench(port, args.game, args.players, args.tables, args.seconds, args.seed, think)
            r = asyncio.run(bench.run())
        finally:
            proc.kill()
            proc.wait()
            if pg is not None:
                pg.stop()
        print(
            f"{kind:<11} {think:>5} {r['moves_per_s']:>8.0f} {r['server_p50_ms']:>10.2f} {r['server_p99_ms']:>9.2f}"
            f" {r['rtt_p50_ms']:>8.2f} {r['rtt_p99_ms']:>9.2f} {r['games']:>5}"
            f"   (errors {r['errors']}, {r['groups']} moves in {r['commits']} commits)"
        )


if __name__ == "__main__":
    main()
